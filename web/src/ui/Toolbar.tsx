import { useRef, useState, type ReactNode } from 'react';
import { groupLibrary, LIBRARY } from '../scenario/library';
import { mineTimes } from '../scenario/myScenarios';
import { SPEEDS, speedLabel } from '../scenario/speed';
import type { ChartGroup } from '../charts/chartGroup';
import type { SideTab, ViewTab } from '../scenario/share';
import type { Lab, LabState } from '../lab/lab';
import { exportFile, fileOrigin, linkView, openedText, shareLink, shareNotice } from '../lab/sharing';
import { saveBlob } from './download';
import { MyScenariosMenu } from './MyScenariosMenu';
import { stepRule as stepFieldRule, untilRule as untilFieldRule } from './runFields';
import { LOCKED_TITLE, useTeacher } from './teacherContext';
import { useLabStatus } from './useLab';
import { isHidden, isLocked } from '../lab/teacher';

const GROUPS = groupLibrary(LIBRARY.entries);

function formatMs(ms: number) {
  return ms.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

function formatRate(perSec: number) {
  if (perSec >= 1e6) return `${(perSec / 1e6).toFixed(1)} M`;
  if (perSec >= 1e3) return `${(perSec / 1e3).toFixed(0)} k`;
  return perSec.toFixed(0);
}

/** A scenario of the user's in the picker: its name and when it last changed (`mineTimes`). */
function mineOptionText(m: { id: string; name: string }, times: Map<string, string>): string {
  return `${m.name} · ${times.get(m.id) ?? ''}`;
}

/** `children`: view controls shown at the end of the first row (presentation mode, panel, help).
 *  `present`: presenting, the presenter's own controls (`.presenter-chrome`: files, links, help)
 *  fold behind More, so that the rest, in the room's 18 px type, keeps to its rows. */
export function Toolbar({
  lab,
  state,
  group,
  shown = {},
  present = false,
  children,
}: {
  lab: Lab;
  state: LabState;
  group: ChartGroup;
  /** What the user is looking at (the view tab, the Network view open): Share's link opens it. */
  shown?: { tab?: ViewTab; network?: boolean; side?: SideTab };
  present?: boolean;
  children?: ReactNode;
}) {
  const [moreOpen, setMoreOpen] = useState(false);
  const [stepMs, setStepMs] = useState('1');
  const [untilMs, setUntilMs] = useState('50');
  // The browser empties a number field it cannot read (1e400) and says so in `badInput`.
  const [unreadable, setUnreadable] = useState({ step: false, until: false });
  const fileRef = useRef<HTMLInputElement>(null);
  // A teacher's link may hide or lock the library (picker, Import) and the speed.
  const teacher = useTeacher();
  const library = isHidden(teacher, 'library') ? 'hidden' : isLocked(teacher, 'library') ? 'locked' : 'open';
  const speedControl = isHidden(teacher, 'speed') ? 'hidden' : isLocked(teacher, 'speed') ? 'locked' : 'open';
  // The run's mode (and its time as of the last change of mode: the clock has it as it runs).
  const status = state.status;
  const mode = status?.mode ?? 'idle';
  const running = mode === 'playing' || mode === 'seeking';
  const nowMs = status?.nowMs ?? 0;
  // The picker shows what is open: one of the user's scenarios, a library one, or (a file, a
  // link not changed yet) its origin.
  const place = state.current?.place;
  const pickerValue = place?.kind === 'mine' ? `mine:${place.id}` : place?.kind === 'library' ? place.id : '';
  // What the picker shows, in full: a laptop's narrow picker cuts long names, its tooltip does not.
  const mine = place?.kind === 'mine' ? state.myScenarios.find((m) => m.id === place.id) : undefined;
  const times = mineTimes(state.myScenarios);
  const pickerText = mine
    ? mineOptionText(mine, times)
    : place?.kind === 'library'
      ? (LIBRARY.entries.find((e) => e.id === place.id)?.name ?? place.id)
      : state.current
        ? openedText(state.current.origin, state.current.scenario)
        : '—';

  // Why Step or Run to cannot go: said on the field and the button (the fields are too small
  // for a message of their own).
  // A number the field cannot hold (1e400) reaches us as '' with `badInput`: said as such.
  const stepRule = stepFieldRule(stepMs, unreadable.step);
  const untilRule = untilFieldRule(untilMs, unreadable.until, nowMs);
  // A time beyond the run's end runs to the end: said by the field (QA: Run to 5000 on a 120 ms
  // scenario went to 120 ms without a word).
  const endMs = status?.endMs ?? state.current?.scenario.run.duration_ms ?? 0;
  const untilNote =
    !untilRule && endMs > 0 && Number(untilMs) > endMs ? `Beyond the run's end (${formatMs(endMs)} ms): runs to the end` : null;
  // At its end a run has no step left to take (QA: Step stayed enabled and did nothing).
  const ended = mode === 'done';
  // Marked only when it is no time at all: a time already passed is usual once a run ends.
  const untilBad = unreadable.until || untilMs.trim() === '' || !(Number(untilMs) > 0);
  const openFile = async (file: File) => {
    let text: string;
    try {
      text = await file.text();
    } catch (e) {
      lab.notify({ kind: 'error', text: `${file.name} could not be read: ${(e as Error).message || String(e)}` });
      return;
    }
    lab.open(text, fileOrigin(text, file.name));
  };
  // Share and Export take what is open once the changes on their way are in (a value typed
  // and left for the button: its field's blur has just sent it).
  const share = async () => {
    await lab.settled();
    const now = lab.getState();
    const s = now.current?.scenario;
    if (!s) return;
    const link = shareLink(s, location.href, LIBRARY.entries, linkView(now, shown));
    let copied = false;
    if (!link.tooLong) {
      try {
        await navigator.clipboard.writeText(link.url);
        copied = true;
      } catch {
        copied = false; // no clipboard permission: the link is shown to copy by hand
      }
    }
    lab.notify(shareNotice(link, s, copied, shown.tab));
  };
  const exportScenario = async () => {
    await lab.settled();
    const s = lab.getState().current?.scenario;
    if (!s) return;
    const { name, text } = exportFile(s, LIBRARY.entries.find((e) => e.id === s.id)?.scenario);
    saveBlob(new Blob([text], { type: 'application/json' }), name);
  };

  return (
    <header className={present && moreOpen ? 'toolbar more-open' : 'toolbar'}>
      <div className="toolbar-row">
      <div className="brand">
        <svg viewBox="0 0 32 32" width="26" height="26" aria-hidden="true">
          <rect width="32" height="32" rx="7" fill="#1f3a5f" />
          <path d="M5 24 C10 8, 14 8, 16 16 S 22 24, 27 8" fill="none" stroke="#f2a541" strokeWidth="3" strokeLinecap="round" />
        </svg>
        <span className="brand-name">ABR Lab</span>
      </div>

      <div className="tool-group">
        {/* No picker (embedded, or a teacher's link that hides the library): the scenario is
            named here, since the side panel that names it may be closed (QA h61). */}
        {library === 'hidden' && state.current && (
          <span className="toolbar-scenario" data-testid="scenario-name" title={state.current.scenario.name || state.current.scenario.id}>
            {state.current.scenario.name || state.current.scenario.id}
          </span>
        )}
        {library !== 'hidden' && (
          <>
        <label className="field">
          <select
            aria-label="scenario"
            data-testid="scenario-picker"
            value={pickerValue}
            disabled={library === 'locked'}
            title={library === 'locked' ? `${pickerText} (${LOCKED_TITLE.toLowerCase()})` : pickerText}
            onChange={(e) => {
              const v = e.target.value;
              if (v.startsWith('mine:')) return void lab.openMine(v.slice('mine:'.length));
              const entry = LIBRARY.entries.find((x) => x.id === v);
              if (entry) lab.openLibrary(entry);
            }}
          >
            {pickerValue === '' && <option value="">{pickerText}</option>}
            {state.myScenarios.length > 0 && (
              <optgroup label="My scenarios" data-testid="my-scenarios">
                {state.myScenarios.map((m) => (
                  <option key={m.id} value={`mine:${m.id}`} title={`Yours, kept in this browser; last changed ${new Date(m.updatedMs).toLocaleString('en-GB')}`}>
                    {mineOptionText(m, times)}
                  </option>
                ))}
              </optgroup>
            )}
            {GROUPS.map(([group, entries]) => (
              <optgroup key={group} label={group}>
                {entries.map((e) => (
                  <option key={e.id} value={e.id} title={e.description}>
                    {e.name}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </label>
        <MyScenariosMenu lab={lab} state={state} />
        <button
          className="btn ghost presenter-chrome"
          data-testid="import"
          onClick={() => fileRef.current?.click()}
          disabled={library === 'locked'}
          title={library === 'locked' ? LOCKED_TITLE : 'Import a scenario JSON file (the format of the library)'}
        >
          Import…
        </button>
          </>
        )}
        <button
          className="btn ghost presenter-chrome"
          data-testid="export"
          onClick={() => void exportScenario()}
          disabled={!state.current}
          title="Download the scenario as a JSON file, with the changes recorded during runs"
        >
          Export
        </button>
        <button
          className="btn ghost presenter-chrome"
          data-testid="share"
          onClick={() => void share()}
          disabled={!state.current}
          title="A link that opens this scenario (network, parameters, recorded changes, seed) and replays the same run"
        >
          Share
        </button>
        <input
          ref={fileRef}
          data-testid="scenario-file"
          type="file"
          accept=".json,application/json"
          hidden
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) void openFile(f);
            e.target.value = '';
          }}
        />
      </div>

        <div className="toolbar-spacer" />
        {children}
        {present && (
          <button
            className="btn ghost toolbar-more"
            data-testid="toolbar-more"
            aria-expanded={moreOpen}
            onClick={() => setMoreOpen(!moreOpen)}
            title={moreOpen ? 'Fold the presenter\'s controls away again' : 'The presenter\'s controls, folded away while presenting: your scenarios, Import, Export, Share, Keys, Teacher'}
          >
            {moreOpen ? 'Fewer ▴' : 'More ▾'}
          </button>
        )}
      </div>

      <div className="toolbar-row">
      <div className="tool-group transport">
        <button
          className="btn primary play"
          data-testid="play"
          onClick={() => lab.togglePlay()}
          disabled={!state.current}
          title="Play / pause (space)"
        >
          {running ? '❚❚ Pause' : mode === 'done' ? '↻ Replay' : '▶ Play'}
        </button>
        <button className="btn" data-testid="reset" onClick={() => lab.reset()} disabled={!state.current} title="Back to t = 0">
          ⟲ Reset
        </button>
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            // A time picked on the charts is the paused run's: as the run moves on (as when it
            // plays), the cursor does not stay behind at it.
            group.cursorTo(null);
            lab.step(Number(stepMs));
          }}
        >
          <button
            className="btn"
            data-testid="step"
            disabled={!state.current || !!stepRule || ended}
            title={stepRule ?? (ended ? 'The run has ended: Replay or Reset to step through it again' : undefined)}
          >
            Step
          </button>
          <input
            aria-label="step interval (ms)"
            aria-invalid={!!stepRule}
            aria-describedby={stepRule ? 'step-rule' : undefined}
            title={stepRule ?? undefined}
            data-testid="step-ms"
            type="number"
            min="0"
            step="any"
            value={stepMs}
            onChange={(e) => {
              setStepMs(e.target.value);
              setUnreadable((u) => ({ ...u, step: e.target.validity.badInput }));
            }}
          />
          <span className="unit">ms</span>
          {stepRule && (
            <span id="step-rule" className="field-tip shown leftward" data-testid="step-rule">
              {stepRule}
            </span>
          )}
        </form>
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            group.cursorTo(null);
            lab.runUntil(Number(untilMs));
          }}
        >
          <button
            className="btn"
            data-testid="run-until"
            disabled={!state.current || !!untilRule}
            title={untilRule ?? untilNote ?? undefined}
            aria-describedby={untilNote ? 'until-note' : undefined}
          >
            Run to
          </button>
          <input
            aria-label="run until (ms)"
            aria-invalid={untilBad}
            aria-describedby={untilRule ? 'until-rule' : untilNote ? 'until-note' : undefined}
            title={untilRule ?? untilNote ?? undefined}
            data-testid="until-ms"
            type="number"
            min="0"
            step="any"
            value={untilMs}
            onChange={(e) => {
              setUntilMs(e.target.value);
              setUnreadable((u) => ({ ...u, until: e.target.validity.badInput }));
            }}
          />
          <span className="unit">ms</span>
          {/* A time already passed is usual once a run ends: said while the field is in use. */}
          {untilRule && (
            <span id="until-rule" className={untilBad ? 'field-tip shown' : 'field-tip'} data-testid="until-rule">
              {untilRule}
            </span>
          )}
          {untilNote && (
            <span id="until-note" className="field-tip note" data-testid="until-note">
              {untilNote}
            </span>
          )}
        </form>
        {speedControl !== 'hidden' && (
        <label className="field">
          <span>Speed</span>
          <select
            data-testid="speed"
            value={String(state.speed)}
            disabled={speedControl === 'locked'}
            onChange={(e) => lab.setSpeed(e.target.value === 'max' ? 'max' : Number(e.target.value))}
            title={speedControl === 'locked' ? LOCKED_TITLE : 'Simulated time per wall-clock time (each scenario opens at one that plays it in about 20 s)'}
          >
            {SPEEDS.map((s) => (
              <option key={String(s)} value={String(s)}>
                {speedLabel(s)}
              </option>
            ))}
          </select>
        </label>
        )}
      </div>

      <RunClock lab={lab} state={state} />
      </div>
    </header>
  );
}

/** The run's clock: its time and progress, its mode, how fast it goes. The only part of the
 *  toolbar that re-renders with every report of the time while the run plays. */
function RunClock({ lab, state }: { lab: Lab; state: LabState }) {
  const status = useLabStatus(lab);
  const mode = status?.mode ?? 'idle';
  const nowMs = status?.nowMs ?? 0;
  const endMs = status?.endMs ?? state.current?.scenario.run.duration_ms ?? 0;
  const progress = endMs > 0 ? Math.min(1, nowMs / endMs) : 0;
  const speedText = status?.achievedSpeed != null ? `${status.achievedSpeed.toPrecision(2)}× real time` : null;
  const eventsText = status?.eventsPerSec != null ? `${formatRate(status.eventsPerSec)} events/s` : null;
  // Where the clock is narrow these readouts give way (app.css, .clock-rate): said in its title.
  const title = [`${formatMs(nowMs)} / ${formatMs(endMs)} ms`, mode, speedText, eventsText].filter((t) => t != null).join(' · ');
  return (
    <div className="clock" data-testid="clock" title={title} data-engine-ms={status ? status.engineMs.toFixed(1) : undefined}>
      <div className="clock-time">
        <span className="clock-now" data-testid="sim-time">
          {formatMs(nowMs)}
        </span>
        <span className="clock-end"> / {formatMs(endMs)} ms</span>
      </div>
      <div className="progress" role="progressbar" aria-label="run progress (%)" aria-valuenow={Math.round(progress * 100)} aria-valuemin={0} aria-valuemax={100}>
        <div className="progress-bar" style={{ width: `${progress * 100}%` }} />
      </div>
      <div className="clock-meta">
        <span className={`mode mode-${mode}`}>{mode}</span>
        {speedText && <span className="clock-rate">{speedText}</span>}
        {eventsText && <span className="clock-rate">{eventsText}</span>}
        {/* In the clock's row, not the header's: the header is full at 1280 px with My scenarios. */}
        {state.engine && (
          <span className={`engine engine-${state.engine}`} data-testid="engine" title="The engine running in the worker">
            Rust engine (wasm)
          </span>
        )}
      </div>
    </div>
  );
}
