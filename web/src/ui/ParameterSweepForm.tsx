// The Sweep tab's form for a sweep of one parameter of the open scenario: a parameter from the
// list the catalogue gives (each switch's algorithm parameters, the sources', the links' rate and
// delay, the switches' buffers), its values and seeds, and the `abrsim sweep` command that makes
// the same runs. What it holds is kept per scenario (SweepDrafts). No simulation here: the list,
// the values and the sweep block are sweepBuilder.ts's; the form checks each value against the
// catalogue's range, the engine's plan the combinations.

import { Fragment, useEffect, useMemo, useRef, useState } from 'react';
import type { Catalogue } from '../contract/engine';
import type { Scenario } from '../contract/scenario';
import {
  blockLeftOut,
  draftVaries,
  formDraft,
  formSeeds,
  freshParam,
  MAX_FORM_SEEDS,
  MAX_SWEPT_PARAMS,
  parameterSweepCommand,
  parseSweepValues,
  sentence,
  pathsOverlap,
  valuesOutOfRange,
  sweepChoices,
  withParameterSweep,
  type SweepDraft,
  type SweepDrafts,
  type SweepFile,
} from '../lab/sweepBuilder';
import { MAX_BROWSER_RUNS } from '../lab/sweep';
import { describeRange, readableNumber } from '../scenario/params';
import { draftsKey, type Place } from '../scenario/place';
import { FieldError } from './FieldError';
import { ParamOptions } from './ParamOptions';

/** A command line that wraps between its words, not after a `--` (a word longer than the
 *  line still wraps within). */
const commandWords = (command: string) =>
  command.split(' ').map((w, i) => (
    <Fragment key={i}>
      {i > 0 && ' '}
      <span className="command-word">{w}</span>
    </Fragment>
  ));


export function ParameterSweepForm({
  current,
  catalogue,
  drafts,
  place,
  file,
  busy,
  primary,
  onStart,
  onKeep,
  onEdit,
  onVaries,
}: {
  current: Scenario;
  catalogue: Catalogue;
  drafts: SweepDrafts;
  /** Where the open scenario is kept: its form is kept by it (a library scenario and the
   *  user's copy of it each have their own). */
  place: Place;
  /** The file the command names (`sweepFile`): the library's, or the one Export saves. */
  file: SweepFile;
  /** A sweep is running: the form waits. */
  busy: boolean;
  /** The tab's one primary action (SweepView): when the tab's header has none of its own. */
  primary: boolean;
  /** Runs the scenario with the sweep block made (JSON); `command`: the one the form shows. */
  onStart: (json: string, command: string) => void;
  /** Writes the sweep block made into the open scenario (an edit, kept and shared with it). */
  onKeep?: (scenario: Scenario) => void;
  /** The form was changed (a parameter, its values, the seeds): a refusal of the sweep it made
   *  before is of another sweep now. */
  onEdit?: () => void;
  /** What the sweep the form holds varies (`draftVaries`), told as it changes (null: none). */
  onVaries?: (varies: string | null) => void;
}) {
  const choices = useMemo(() => sweepChoices(current, catalogue), [current, catalogue]);
  const [draft, setDraft] = useState<SweepDraft | null>(() => formDraft(choices, drafts.get(place, current.id), current.sweep));
  /** Per parameter: the rule its values break, shown once the user tried to run them. */
  const [errors, setErrors] = useState<(string | null)[]>([]);
  /** The seeds as typed, while they are no count the form takes (QA: the field put back 1 the
   *  moment it was emptied, so "20" typed after clearing it read 12); null: the draft's. */
  const [seedsText, setSeedsText] = useState<string | null>(null);
  const [seedsShown, setSeedsShown] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  /** The values written for each parameter left on this page, so that picking it again brings
   *  them back (QA: looking at another parameter, or arrowing through the list, replaced them
   *  with the suggestions for good). */
  const [written, setWritten] = useState<Record<string, string>>({});
  /** Where the form is kept: another place (a library scenario made the user's) is another form. */
  const kept = draftsKey(place, current.id);
  // Another scenario opened: its own form, as it was left.
  useEffect(() => {
    setDraft(formDraft(choices, drafts.get(place, current.id), current.sweep));
    setErrors([]);
    setSeedsText(null);
    setSeedsShown(false);
  }, [choices, drafts, current.id, kept]);
  useEffect(() => setWritten({}), [current.id, kept]);
  const varies = draft ? draftVaries(draft) : null;
  useEffect(() => onVaries?.(varies), [varies, onVaries]);
  if (!draft) return null;
  /** Focus on parameter `k`'s list once it is drawn (QA: a parameter added or removed by keyboard
   *  left the focus on nothing, or on the page). */
  const focusParam = (k: number) =>
    requestAnimationFrame(() => formRef.current?.querySelectorAll<HTMLSelectElement>('[data-testid="param-sweep-path"]')[k]?.focus());
  const seedsRule =
    seedsText === null || (/^\s*\d+\s*$/.test(seedsText) && formSeeds(+seedsText) !== null)
      ? null
      : `seeds: a whole number from 1 to ${MAX_FORM_SEEDS}${seedsText.trim() ? `, not '${seedsText.trim()}'` : ''}`;
  const write = (next: SweepDraft) => {
    setDraft(next);
    drafts.set(place, current.id, next);
    onEdit?.();
  };
  const choiceOf = (path: string) => choices.find((c) => c.path === path) ?? choices[0];
  const setParam = (i: number, param: SweepDraft['params'][number]) => {
    setErrors((e) => e.map((x, k) => (k === i ? null : x)));
    write({ ...draft, params: draft.params.map((p, k) => (k === i ? param : p)) });
  };
  const parsed = draft.params.map((p, i) => {
    const r = parseSweepValues(p.values);
    if ('error' in r) return r;
    const out = valuesOutOfRange(choiceOf(p.path).spec, r.values);
    if (out) return { error: out };
    const first = draft.params.findIndex((q) => pathsOverlap(q.path, p.path));
    if (first === i) return r;
    return { error: draft.params[first].path === p.path ? `this is parameter ${first + 1} again: pick another` : `it sets what parameter ${first + 1} sets (${draft.params[first].path}): pick another` };
  });
  const swept = parsed.every((r) => 'values' in r)
    ? draft.params.map((p, i) => {
        const r = parsed[i] as { values: number[]; vary?: string };
        return { path: p.path, values: r.values, ...(r.vary ? { range: r.vary } : {}) };
      })
    : null;
  const runs = swept && !seedsRule ? swept.reduce((n, p) => n * p.values.length, 1) * draft.seeds : null;
  // The abrsim command of the runs the form holds: shown below it, and the session's for a refusal.
  const command = swept && !seedsRule ? parameterSweepCommand(file.path, swept, draft.seeds, current.sweep) : null;
  // More than the browser runs: said here, where the command that runs it is (QA: the session's
  // refusal gave `abrsim sweep <file>` without the form's --vary). Keep still writes it.
  const runsRule =
    runs !== null && runs > MAX_BROWSER_RUNS
      ? `runs: this sweep has ${runs.toLocaleString('en')} runs; the browser runs at most ${MAX_BROWSER_RUNS.toLocaleString('en')}: run the command below on all cores (--shard I/N splits it over machines), or take fewer values`
      : null;
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setErrors(parsed.map((r) => ('error' in r ? r.error : null)));
    setSeedsShown(true);
    if (swept && command && !runsRule) onStart(JSON.stringify(withParameterSweep(current, swept, draft.seeds)), command);
  };
  const keep = () => {
    setErrors(parsed.map((r) => ('error' in r ? r.error : null)));
    setSeedsShown(true);
    if (swept && !seedsRule && onKeep) onKeep(withParameterSweep(current, swept, draft.seeds));
  };
  const several = draft.params.length > 1;
  const leftOut = blockLeftOut(current.sweep, choices);
  const unused = choices.find((c) => !draft.params.some((p) => pathsOverlap(p.path, c.path)));
  return (
    <form ref={formRef} className="param-sweep" data-testid="param-sweep" onSubmit={submit} noValidate aria-label="Sweep parameters">
      {draft.params.map((p, i) => {
        const choice = choiceOf(p.path);
        const spec = choice.spec;
        const unit = spec.unit ? ` ${spec.unit}` : '';
        const error = errors[i];
        const name = several ? `parameter ${i + 1}` : 'the parameter';
        return (
          <div key={i} className="param-sweep-param" data-testid={`param-sweep-${i + 1}`}>
            <div className="param-sweep-row">
              <label>
                <span>{several ? `Parameter ${i + 1}` : 'Parameter'}</span>
                <select data-testid="param-sweep-path" value={choice.path} onChange={(e) => {
                    const next = choiceOf(e.target.value);
                    setWritten((w) => ({ ...w, [p.path]: p.values }));
                    setParam(i, written[next.path] !== undefined ? { path: next.path, values: written[next.path] } : freshParam(next));
                  }}>
                  <ParamOptions choices={choices} />
                </select>
              </label>
              <label className={error ? 'param-sweep-values param-invalid' : 'param-sweep-values'}>
                <span>Values{unit ? ` (${spec.unit})` : ''}</span>
                <input
                  data-testid="param-sweep-values"
                  value={p.values}
                  aria-invalid={!!error}
                  aria-describedby={`param-sweep-about-${i}`}
                  placeholder="0.8, 0.9, 1  or  0.8:0.05:1"
                  title="Numbers apart by commas or spaces, or a range start:step:stop"
                  onChange={(e) => setParam(i, { ...p, values: e.target.value })}
                />
              </label>
              {several && (
                <button
                  type="button"
                  className="btn"
                  data-testid="param-sweep-remove"
                  aria-label={`Remove parameter ${i + 1}`}
                  title="Vary this parameter no more"
                  onClick={() => {
                    setErrors((e) => e.filter((_, k) => k !== i));
                    write({ ...draft, params: draft.params.filter((_, k) => k !== i) });
                    focusParam(Math.max(0, i - 1));
                  }}
                >
                  ×
                </button>
              )}
            </div>
            <FieldError rule={error && `${several ? `parameter ${i + 1}: ` : ''}values: ${error}`} />
            <p className="sweep-note" id={`param-sweep-about-${i}`} data-testid="param-sweep-about">
              {choice.group} · <code>{choice.path}</code>: {sentence(spec.meaning)} Range {describeRange(spec)}; now{' '}
              {choice.byElement
                ? choice.byElement.map((x) => `${x.id} ${readableNumber(x.value)}${unit}`).join(', ')
                : choice.current === null
                  ? (spec.default_note ?? `derived from the network`)
                  : `${readableNumber(choice.current)}${unit}`}
              {i === 0 && several ? ` (it varies slowest; the plots draw each metric against ${name})` : ''}.
            </p>
          </div>
        );
      })}
      <div className="param-sweep-row">
        {draft.params.length < MAX_SWEPT_PARAMS && unused && (
          <button
            type="button"
            className="btn"
            data-testid="param-sweep-add"
            title="Vary another parameter too: every combination of the values runs (a grid)"
            onClick={() => {
              write({ ...draft, params: [...draft.params, freshParam(unused)] });
              focusParam(draft.params.length);
            }}
          >
            + Another parameter
          </button>
        )}
        <label className={seedsShown && seedsRule ? 'param-sweep-seeds param-invalid' : 'param-sweep-seeds'}>
          <span>Seeds</span>
          <input
            data-testid="param-sweep-seeds"
            type="number"
            min={1}
            max={MAX_FORM_SEEDS}
            step={1}
            value={seedsText ?? draft.seeds}
            aria-invalid={seedsShown && !!seedsRule}
            title={`Runs per point, 1 to ${MAX_FORM_SEEDS}, with seeds run.seed, run.seed + 1, … (a mean and its 95 % interval over them)`}
            onChange={(e) => {
              const text = e.target.value;
              setSeedsText(text);
              setSeedsShown(false);
              onEdit?.();
              if (/^\s*\d+\s*$/.test(text) && formSeeds(+text) !== null) write({ ...draft, seeds: +text });
            }}
          />
        </label>
        <button type="submit" className={primary ? 'btn primary' : 'btn'} data-testid="param-sweep-run" disabled={busy}>
          {several ? 'Sweep them' : `Sweep ${choiceOf(draft.params[0].path).label}`}
          {runs !== null ? ` (${runs.toLocaleString('en')} run${runs === 1 ? '' : 's'})` : ''}
        </button>
        {onKeep && (
          <button
            type="button"
            className="btn"
            data-testid="param-sweep-keep"
            disabled={busy}
            title={`Write this sweep into the scenario as its sweep block${current.sweep ? ' (in place of the one it has)' : ''}: it is kept, exported and shared with the scenario (a change, as an edit: Undo takes it back)`}
            onClick={keep}
          >
            Keep in the scenario
          </button>
        )}
      </div>
      <FieldError rule={seedsShown ? (seedsRule ?? runsRule) : null} />
      {leftOut.length > 0 && (
        <p className="sweep-note" data-testid="param-sweep-left-out">
          The scenario&apos;s sweep block also varies {leftOut.join(', ')}, which this form cannot write: <em>Run the sweep</em> above runs the block as
          it is; this form&apos;s sweep goes without {leftOut.length === 1 ? 'it' : 'them'}, and <em>Keep in the scenario</em> would replace the block
          without {leftOut.length === 1 ? 'it' : 'them'}.
        </p>
      )}
      {command && (
        <p className="sweep-note" data-testid="param-sweep-command-note">
          {file.exportFirst ? (
            <>
              The same runs from the command line, on this scenario as it is here{file.notLibrary ? <>, not <code>{file.notLibrary}</code></> : ''}: save
              it first with <em>Export</em> (as {file.path}), then, in the folder it is saved in:{' '}
            </>
          ) : (
            'The same runs from the command line: '
          )}
          <code data-testid="param-sweep-command">{commandWords(command)}</code>
        </p>
      )}
    </form>
  );
}
