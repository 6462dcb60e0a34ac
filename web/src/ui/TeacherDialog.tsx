// The Teacher dialog: pick the controls a class sees, hides or cannot change, and how the lab
// starts, and get the link that opens the open scenario that way (lab/teacher.ts reads it).

import { useMemo, useState } from 'react';
import { ModalDialog } from './ModalDialog';
import type { Lab, LabState } from '../lab/lab';
import { classLink, linkView } from '../lab/sharing';
import { choiceIn, CONTROL_NAMES, INSIDE, lessonUses, NO_TEACHER, overruled, START_TABS, START_VIEWS, TEACHER_CONTROLS, withTeacher, type ControlChoice, type StartMode, type TeacherControl, type TeacherSettings } from '../lab/teacher';
import { LIBRARY } from '../scenario/library';


export function TeacherButton({ lab, state }: { lab: Lab; state: LabState }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button className="btn ghost presenter-chrome" data-testid="teacher" aria-pressed={open} onClick={() => setOpen(!open)} disabled={!state.current} title="Make a link for a class: hide or lock controls, choose how the lab starts">
        Teacher
      </button>
      {open && <TeacherDialog lab={lab} state={state} onClose={() => setOpen(false)} />}
    </>
  );
}

function TeacherDialog({ state, onClose }: { lab: Lab; state: LabState; onClose: () => void }) {
  const [settings, setSettings] = useState<TeacherSettings>(NO_TEACHER);
  const [copied, setCopied] = useState(false);
  const link = useMemo(() => {
    if (!state.current) return null;
    const base = classLink(state.current, location.href, LIBRARY.entries, linkView(state));
    return { ...base, url: withTeacher(base.url, settings) };
  }, [state.current, state.charts, state.speed, settings]);
  const setChoice = (c: TeacherControl, choice: ControlChoice) => {
    setCopied(false);
    setSettings((s) => ({
      ...s,
      hide: choice === 'hidden' ? [...s.hide.filter((x) => x !== c), c] : s.hide.filter((x) => x !== c),
      lock: choice === 'locked' ? [...s.lock.filter((x) => x !== c), c] : s.lock.filter((x) => x !== c),
    }));
  };
  const setStart = (drop: readonly StartMode[], add: StartMode | null) => {
    setCopied(false);
    setSettings((s) => ({ ...s, start: [...s.start.filter((m) => !drop.includes(m)), ...(add ? [add] : [])] }));
  };
  const has = (m: StartMode) => settings.start.includes(m);
  // What the lesson asks the class to use, among the controls hidden or locked here.
  const uses = useMemo(() => lessonUses(state.current?.scenario.lesson), [state.current]);
  const blocked = uses.filter((u) => choiceIn(settings, u.control) !== 'shown');
  const copy = async () => {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link.url);
      setCopied(true);
    } catch {
      setCopied(false); // no clipboard permission: the link is there to copy by hand
    }
  };
  return (
    <ModalDialog className="teacher-dialog" testId="teacher-dialog" closeTestId="teacher-close" title="A link for your class" onClose={onClose}>
      <p className="teacher-help">The link opens “{state.current?.scenario.name || state.current?.id}” as it is now, with these controls shown, locked (visible but greyed out) or hidden.</p>
      <table className="teacher-controls">
        <thead>
          <tr>
            <th scope="col">Control</th>
            <th scope="col">Shown</th>
            <th scope="col">Locked</th>
            <th scope="col">Hidden</th>
          </tr>
        </thead>
        <tbody>
          {TEACHER_CONTROLS.map((c) => (
            <tr key={c}>
              <th scope="row">
                {CONTROL_NAMES[c]}
                {INSIDE[c] && overruled(settings, c, 'shown') && (
                  <span className="teacher-follows" data-testid={`teacher-${c}-follows`}>
                    {' '}
                    (goes with {CONTROL_NAMES[INSIDE[c]!].toLowerCase()})
                  </span>
                )}
              </th>
              {(['shown', 'locked', 'hidden'] as const).map((choice) => (
                <td key={choice}>
                  <input
                    type="radio"
                    name={`teacher-${c}`}
                    data-testid={`teacher-${c}-${choice}`}
                    aria-label={`${CONTROL_NAMES[c]}: ${choice}`}
                    checked={choiceIn(settings, c) === choice}
                    disabled={overruled(settings, c, choice)}
                    onChange={() => setChoice(c, choice)}
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {blocked.length > 0 && (
        <ul className="teacher-warn" data-testid="teacher-lesson-uses">
          {blocked.map((u) => (
            <li key={`${u.control}:${u.where}`} data-testid={`teacher-uses-${u.control}`}>
              {CONTROL_NAMES[u.control]}: {choiceIn(settings, u.control)}, but {u.where} asks the class to use {u.control === 'params' ? 'them' : 'it'}: “{u.quote}”.
            </li>
          ))}
        </ul>
      )}
      <fieldset className="teacher-start">
        <legend>Start</legend>
        <label>
          <input type="checkbox" data-testid="teacher-start-present" checked={has('present')} onChange={(e) => setStart(['present'], e.target.checked ? 'present' : null)} /> in presentation mode
        </label>
        <label>
          <input type="checkbox" data-testid="teacher-start-panel-hidden" checked={has('panel-hidden')} onChange={(e) => setStart(['panel-hidden'], e.target.checked ? 'panel-hidden' : null)} /> with the side panel hidden
        </label>
        <label>
          <input type="checkbox" data-testid="teacher-start-network" checked={has('network')} onChange={(e) => setStart(['network'], e.target.checked ? 'network' : null)} /> with the Network view open
        </label>
        <label>
          <input type="checkbox" data-testid="teacher-start-eventlog" checked={has('eventlog')} onChange={(e) => setStart(['eventlog'], e.target.checked ? 'eventlog' : null)} /> with the event log open
        </label>
        <StartPick label="side panel tab" usual="as usual (Lesson)" testId="teacher-start-tab" modes={START_TABS} value={START_TABS.find(has)} onPick={(m) => setStart(START_TABS, m)} />
        <StartPick label="view" usual="as usual (Charts)" testId="teacher-start-view" modes={START_VIEWS} value={START_VIEWS.find(has)} onPick={(m) => setStart(START_VIEWS, m)} />
      </fieldset>
      {link && (
        <div className="teacher-link">
          <textarea readOnly data-testid="teacher-link" aria-label="the link" value={link.url} rows={3} onFocus={(e) => e.currentTarget.select()} />
          <button className="btn primary" data-testid="teacher-copy" onClick={() => void copy()}>
            {copied ? 'Copied' : 'Copy link'}
          </button>
          {link.tooLong && <p className="teacher-help">This link is {link.chars.toLocaleString('en-US')} characters, too long for many tools.</p>}
        </div>
      )}
    </ModalDialog>
  );
}

/** One of a group of start modes (a tab, a view), or none. */
function StartPick({
  label,
  usual,
  testId,
  modes,
  value,
  onPick,
}: {
  label: string;
  usual: string;
  testId: string;
  modes: readonly StartMode[];
  value: StartMode | undefined;
  onPick: (m: StartMode | null) => void;
}) {
  return (
    <label>
      {label}{' '}
      <select data-testid={testId} value={value ?? ''} onChange={(e) => onPick((e.target.value || null) as StartMode | null)}>
        <option value="">{usual}</option>
        {modes.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
    </label>
  );
}
