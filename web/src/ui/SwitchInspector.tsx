// The switch inspector: algorithm, scheduler, buffer and the algorithm's parameter form, all
// built from the engine's catalogue. It reads the lab state and calls Lab methods; what an
// edit does to the run (live change or reload) is the Lab's business.

import { useState } from 'react';
import type { Lab, LabState, SwitchFeedback } from '../lab/lab';
import type { ParamSpec } from '../contract/engine';
import {
  defaultText,
  paramAt,
  parseParamInput,
  rangeAndDefault,
  sortedChanges,
  specOf,
  type ParsedInput,
} from '../scenario/params';
import type { Discard, Scheduler } from '../contract/scenario';
import {
  algorithmOf,
  algorithmsFor,
  bufferOf,
  bufferSpecOf,
  describeChange,
  discardsFor,
  networkOf,
  schedulersFor,
  usesEpdThreshold,
} from '../scenario/switchEdits';
import { ProblemList } from './Notices';
import { FieldError } from './FieldError';
import { useHeldTyping, type HoldTyping } from './useHeldTyping';
import type { DroppedTyping } from '../lab/droppedTyping';
import { LOCKED_TITLE, useTeacher } from './teacherContext';
import { isHidden, isLocked } from '../lab/teacher';
import { useLabStatus } from './useLab';
import { editedOrigin } from './editor/canvas';

export function SwitchInspector({ lab, state, node }: { lab: Lab; state: LabState; node: string }) {
  const teacher = useTeacher();
  // The time as it runs (the page's `state` has it only as of the last change of mode).
  const status = useLabStatus(lab);
  const scenario = state.current?.scenario;
  const catalogue = state.catalogue;
  const n = scenario?.nodes.find((x) => x.id === node && x.kind === 'switch');
  // Every field is built from the engine's catalogue: without it there is nothing to show.
  if (!scenario || !n || !catalogue) return null;
  const algId = algorithmOf(scenario, n, catalogue.default_algorithm);
  const algorithms = algorithmsFor(catalogue.algorithms, scenario);
  const alg = algorithms.find((a) => a.id === algId);
  const nowMs = status?.nowMs ?? 0;
  const buffer = bufferSpecOf(scenario, catalogue.fields.switch);
  const bufferSize = bufferOf(scenario, n);
  const epd = specOf(catalogue.fields.switch, 'epd_threshold_cells');
  const mode = lab.switches.editMode();
  // Notes on the recorded changes as a whole go under them (RecordedChanges).
  const fb = state.switchFeedback?.node === node && state.switchFeedback.at !== 'changes' ? state.switchFeedback : null;
  // The value a change would replace: the one in force now while the run plays, else the
  // starting value (a change then sets it, before any recorded change).
  const valueAtMs = mode === 'live' ? nowMs : -1;
  // A value its field refuses, given up when the page goes or another scenario opens, is told
  // as this switch's (lab/droppedTyping.ts).
  const hold: HoldTyping = (give) => lab.holdTyping(() => {
    const dropped = give();
    return dropped ? { ...dropped, owner: node } : undefined;
  });
  const modeText =
    mode === 'live'
      ? `Changes apply live from the current time (t = ${nowMs.toFixed(2)} ms), without a reset, and are recorded in the scenario.`
      : mode === 'start'
        ? 'The run is at t = 0: changes set the starting values.'
        : 'The run has ended: a change sets the starting value and restarts the run at t = 0.';

  return (
    <section className="inspector" data-testid="switch-inspector">
      <p className="inspector-warn">Changing the algorithm, scheduler, buffer or port settings restarts the run at t = 0.</p>
      {!isHidden(teacher, 'algorithm') && (
      <label className="inspector-row">
        <span className="inspector-label">algorithm</span>
        <select
          data-testid="switch-algorithm"
          value={algId}
          onChange={(e) => lab.switches.setAlgorithm(node, e.target.value)}
          aria-invalid={!!fb?.fields.algorithm}
          disabled={isLocked(teacher, 'algorithm')}
          title={isLocked(teacher, 'algorithm') ? LOCKED_TITLE : undefined}
        >
          {!alg && <option value={algId}>{algId}</option>}
          {algorithms.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
      </label>
      )}
      {alg && <p className="inspector-help">{alg.summary}</p>}
      <FieldError rule={fb?.fields.algorithm} />
      <label className="inspector-row">
        <span className="inspector-label">scheduler</span>
        <select
          data-testid="switch-scheduler"
          value={n.scheduler ?? catalogue.defaults.scheduler}
          onChange={(e) => lab.switches.setScheduler(node, e.target.value as Scheduler)}
        >
          {schedulersFor(catalogue.schedulers).map((s) => (
            <option key={s.id} value={s.id}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      <FieldError rule={fb?.fields.scheduler} />
      <NumberField
        key={`${node}:buffer:${bufferSize}`}
        testId="switch-buffer"
        name={buffer.name}
        unit={buffer.unit}
        value={bufferSize}
        placeholder={defaultText(buffer)}
        help={buffer.meaning}
        range={rangeAndDefault(buffer)}
        parse={(text) => parseParamInput(buffer, text)}
        engineRule={fb?.fields[buffer.name]}
        onCommit={(v) => lab.switches.setBuffer(node, v)}
        onStep={(dir) => step(lab, dir)}
        hold={hold}
      />
      {networkOf(scenario) === 'atm' && (
        <>
          <label className="inspector-row">
            <input
              type="checkbox"
              data-testid="switch-vsvd"
              checked={!!n.vsvd}
              onChange={(e) => lab.switches.setVsvd(node, e.target.checked)}
              aria-invalid={!!fb?.fields.vsvd}
            />
            <span>Virtual source / virtual destination</span>
          </label>
          <p className="inspector-help">
            Ends the control loop of each ABR connection through this switch and starts the next one (per-VC queues).
          </p>
          <FieldError rule={fb?.fields.vsvd} />
          <label className="inspector-row">
            <span className="inspector-label">discard</span>
            <select
              data-testid="switch-discard"
              value={n.discard ?? catalogue.defaults.discard}
              onChange={(e) => lab.switches.setDiscard(node, e.target.value as Discard)}
              aria-invalid={!!fb?.fields.discard}
            >
              {discardsFor(catalogue.discard_policies).map((d) => (
                <option key={d.id} value={d.id}>
                  {d.label}
                </option>
              ))}
            </select>
          </label>
          <FieldError rule={fb?.fields.discard} />
          {usesEpdThreshold(n.discard ?? catalogue.defaults.discard) && (
            <NumberField
              key={`${node}:epd:${n.epd_threshold_cells}`}
              testId="switch-epd-threshold"
              name={epd.name}
              unit={epd.unit}
              value={n.epd_threshold_cells}
              placeholder={defaultText(epd)}
              help={epd.meaning}
              range={rangeAndDefault(epd)}
              parse={(text) => parseParamInput(epd, text)}
              engineRule={fb?.fields.epd_threshold_cells}
              onCommit={(v) => lab.switches.setEpdThreshold(node, v)}
              onStep={(dir) => step(lab, dir)}
              hold={hold}
            />
          )}
        </>
      )}
      {fb?.note && <Note lab={lab} feedback={fb} testId="switch-note" />}

      <h2 className="inspector-subhead">{alg ? `Parameters of ${alg.name}` : 'Parameters'}</h2>
      {alg && alg.params.length === 0 ? (
        <p className="inspector-help">{alg.name} has no parameters.</p>
      ) : (
        <p className="inspector-help" data-testid="param-mode">
          {modeText}
        </p>
      )}
      {alg?.params.map((spec) =>
        isSwitch(spec) ? (
          <SwitchField
            key={`${node}:${algId}:${spec.name}`}
            spec={spec}
            value={paramAt(scenario, node, spec.name, valueAtMs)}
            engineRule={fb?.fields[`params.${spec.name}`]}
            onCommit={(v) => lab.switches.setParam(node, spec.name, v)}
          />
        ) : (
          <NumberField
            key={`${node}:${algId}:${spec.name}`}
            testId={`param-${spec.name}`}
            name={spec.name}
            unit={spec.unit}
            value={paramAt(scenario, node, spec.name, valueAtMs)}
            placeholder={defaultText(spec)}
            help={spec.meaning}
            range={rangeAndDefault(spec)}
            parse={(text) => parseParamInput(spec, text)}
            engineRule={fb?.fields[`params.${spec.name}`]}
            onCommit={(v) => lab.switches.setParam(node, spec.name, v)}
            onStep={(dir) => step(lab, dir)}
            hold={hold}
          />
        ),
      )}
      {fb && fb.other.length > 0 && (
        <ProblemList problems={fb.other} testId="switch-problems" />
      )}
    </section>
  );
}

/** Undo or redo in the lab's one history, as Ctrl+Z and Ctrl+Shift+Z on the page do. */
function step(lab: Lab, dir: 'undo' | 'redo') {
  const origin = lab.getState().current?.origin;
  if (origin !== undefined) lab.travel(dir, editedOrigin(origin));
}

/**
 * What the last edit did. A note of a step the user may want back at once (a live change that
 * replaced recorded ones, forgetting them, an undo or redo of these) comes with Undo and Redo
 * buttons: Ctrl+Z is the page's undo only outside a field being typed in, and a button is
 * found, and reached with Tab, where the note is read.
 */
function Note({ lab, feedback, testId }: { lab: Lab; feedback: SwitchFeedback; testId: string }) {
  if (!feedback.undoable) {
    return (
      <p className="inspector-note" data-testid={testId}>
        {feedback.note}
      </p>
    );
  }
  const h = lab.edits.history;
  return (
    <div className="inspector-note inspector-note-steps">
      <p data-testid={testId}>{feedback.note}</p>
      <div className="note-steps">
        <button type="button" className="btn small" data-testid={`${testId}-undo`} disabled={!h?.canUndo} onClick={() => step(lab, 'undo')}>
          Undo
        </button>
        {h?.canRedo && (
          <button type="button" className="btn small" data-testid={`${testId}-redo`} onClick={() => step(lab, 'redo')}>
            Redo
          </button>
        )}
      </div>
    </div>
  );
}

/** An on/off parameter: a whole number that is 0 or 1. */
function isSwitch(spec: ParamSpec) {
  return spec.integer && spec.min === 0 && spec.max === 1;
}

/** An on/off parameter as a checkbox; the value in force, else the default, decides its state. */
function SwitchField({
  spec,
  value,
  engineRule,
  onCommit,
}: {
  spec: ParamSpec;
  value: number | undefined;
  engineRule?: string;
  onCommit(value: number): void;
}) {
  const on = (value ?? spec.default ?? 0) === 1;
  return (
    <div className={`param param-switch${engineRule ? ' param-invalid' : ''}`} data-testid={`param-${spec.name}`}>
      <label className="inspector-row">
        <span className="inspector-label param-name">{spec.name}</span>
        <input type="checkbox" aria-label={spec.name} checked={on} onChange={(e) => onCommit(e.target.checked ? 1 : 0)} />
      </label>
      <div className="param-help">{spec.meaning}</div>
      <div className="param-range">default {spec.default === 1 ? 'on' : 'off'}</div>
      <FieldError rule={engineRule} />
    </div>
  );
}

interface NumberFieldProps {
  testId: string;
  name: string;
  unit: string;
  /** The value in force (undefined: the default applies). */
  value: number | undefined;
  placeholder: string;
  help: string;
  range: string;
  parse(text: string): ParsedInput;
  /** A rule the engine gave for this field. */
  engineRule?: string;
  onCommit(value: number | null): void;
  /** Ctrl+Z (undo) or Ctrl+Shift+Z / Ctrl+Y (redo) with nothing typed since the value was
   *  applied: the lab's undo, as on the page (the field has nothing of its own to undo). */
  onStep?(dir: 'undo' | 'redo'): void;
  /** Registers what gives a value typed and not applied yet to the lab (`Lab.holdTyping`): asked
   *  for when the page goes away or another scenario opens. */
  hold?: HoldTyping;
}

/**
 * A number field that commits on Enter or when it loses focus. Input that breaks its rule is
 * refused on the spot, the rule shown, and nothing is sent; Escape goes back to the value in force.
 * The field keeps the focus after Enter: Ctrl+Z there then undoes the change in the lab (the
 * browser's own undo would bring back the text typed, which leaving the field would apply again).
 */
function NumberField({ testId, name, unit, value, placeholder, help, range, parse, engineRule, onCommit, onStep, hold }: NumberFieldProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const [rule, setRule] = useState<string | null>(null);
  const shown = draft ?? (value === undefined ? '' : String(value));
  const error = rule ?? engineRule ?? null;

  const commit = (): DroppedTyping | undefined => {
    if (draft === null) return;
    const parsed = parse(draft);
    if (!parsed.ok) {
      setRule(parsed.rule);
      return { field: name, text: draft.trim(), rule: parsed.rule };
    }
    setRule(null);
    setDraft(null);
    if (parsed.value !== (value ?? null)) onCommit(parsed.value);
  };
  // A value typed and neither entered nor left: given to the lab as leaving the field would.
  useHeldTyping(hold, commit);

  return (
    <div className={`param${error ? ' param-invalid' : ''}`} data-testid={testId}>
      <label className="inspector-row">
        <span className="inspector-label param-name">{name}</span>
        <input
          type="text"
          inputMode="decimal"
          spellCheck={false}
          aria-label={name}
          aria-invalid={!!error}
          placeholder={placeholder}
          value={shown}
          onChange={(e) => {
            setDraft(e.target.value);
            setRule(null);
          }}
          onKeyDown={(e) => {
            const key = e.key.toLowerCase();
            if ((e.ctrlKey || e.metaKey) && !e.altKey && (key === 'z' || key === 'y') && draft === null && onStep) {
              e.preventDefault();
              onStep(key === 'y' || e.shiftKey ? 'redo' : 'undo');
            } else if (e.key === 'Enter') commit();
            else if (e.key === 'Escape') {
              setDraft(null);
              setRule(null);
            }
          }}
          onBlur={commit}
        />
        <span className="unit">{unit}</span>
      </label>
      <div className="param-help">{help}</div>
      <div className="param-range">{range}</div>
      <FieldError rule={error} />
    </div>
  );
}

/** The parameter changes recorded during runs, in the order they apply (`node`: the switch
 *  shown above them), and what was last done to them all (forgotten, brought back). */
export function RecordedChanges({ lab, state, node }: { lab: Lab; state: LabState; node: string }) {
  const changes = state.current ? sortedChanges(state.current.scenario) : [];
  const fb = state.switchFeedback?.at === 'changes' ? state.switchFeedback : null;
  return (
    <section className="changes" data-testid="changes">
      <h2>Changes during the run</h2>
      {fb?.note && <Note lab={lab} feedback={fb} testId="changes-note" />}
      {changes.length === 0 ? (
        <p className="inspector-help">
          None yet. A parameter changed while the run is under way applies from that moment; it is listed here and
          marked on the charts, and a reset or a shared link replays it.
        </p>
      ) : (
        <>
          <ol className="changes-list">
            {changes.map((c, i) => (
              <li key={i}>{describeChange(c)}</li>
            ))}
          </ol>
          <button className="btn ghost small" data-testid="clear-changes" onClick={() => lab.switches.clearChanges(node)}>
            Forget these changes (restarts the run)
          </button>
        </>
      )}
    </section>
  );
}
