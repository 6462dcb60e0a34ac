// The Sweep tab's form for a sweep of one parameter of the open scenario: a parameter from the
// list the catalogue gives (each switch's algorithm parameters, the sources', the links' rate and
// delay, the switches' buffers), its values and seeds, and the `abrsim sweep` command that makes
// the same runs. What it holds is kept per scenario (SweepDrafts). No simulation here: the list,
// the values and the sweep block are sweepBuilder.ts's; the engine's plan judges the values.

import { useEffect, useMemo, useState } from 'react';
import type { Catalogue } from '../contract/engine';
import type { Scenario } from '../contract/scenario';
import {
  parameterSweepCommand,
  parseSweepValues,
  suggestedValues,
  sweepChoices,
  withParameterSweep,
  type SweepChoice,
  type SweepDraft,
  type SweepDrafts,
} from '../lab/sweepBuilder';
import { FieldError } from './FieldError';

/** A catalogue line as a sentence (its meaning may end without a stop). */
const sentence = (text: string) => (/[.!?)]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

/** The most seeds the form offers per point. */
const MAX_SEEDS = 100;

function draftFor(choices: SweepChoice[], kept: SweepDraft | null): SweepDraft | null {
  if (kept && choices.some((c) => c.path === kept.path)) return kept;
  const first = choices[0];
  return first ? { path: first.path, values: suggestedValues(first.spec, first.current).join(', '), seeds: 1 } : null;
}

export function ParameterSweepForm({
  current,
  catalogue,
  drafts,
  fromLibrary,
  busy,
  onStart,
}: {
  current: Scenario;
  catalogue: Catalogue;
  drafts: SweepDrafts;
  /** The open scenario is a library one (its command names scenarios/<id>.json). */
  fromLibrary: boolean;
  /** A sweep is running: the form waits. */
  busy: boolean;
  /** Runs the scenario with the sweep block made (JSON). */
  onStart: (json: string) => void;
}) {
  const choices = useMemo(() => sweepChoices(current, catalogue), [current, catalogue]);
  const [draft, setDraft] = useState<SweepDraft | null>(() => draftFor(choices, drafts.get(current.id)));
  const [error, setError] = useState<string | null>(null);
  // Another scenario opened: its own form, as it was left.
  useEffect(() => {
    setDraft(draftFor(choices, drafts.get(current.id)));
    setError(null);
  }, [choices, drafts, current.id]);
  if (!draft) return null;
  const choice = choices.find((c) => c.path === draft.path) ?? choices[0];
  const write = (next: SweepDraft) => {
    setDraft(next);
    drafts.set(current.id, next);
  };
  const parsed = parseSweepValues(draft.values);
  const groups = [...new Set(choices.map((c) => c.group))];
  const spec = choice.spec;
  const unit = spec.unit ? ` ${spec.unit}` : '';
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if ('error' in parsed) {
      setError(parsed.error);
      return;
    }
    setError(null);
    onStart(JSON.stringify(withParameterSweep(current, choice.path, parsed.values, draft.seeds)));
  };
  return (
    <form className="param-sweep" data-testid="param-sweep" onSubmit={submit} aria-label="Sweep a parameter">
      <div className="param-sweep-row">
        <label>
          <span>Parameter</span>
          <select
            data-testid="param-sweep-path"
            value={choice.path}
            onChange={(e) => {
              const c = choices.find((x) => x.path === e.target.value)!;
              setError(null);
              write({ ...draft, path: c.path, values: suggestedValues(c.spec, c.current).join(', ') });
            }}
          >
            {groups.map((g) => (
              <optgroup key={g} label={g}>
                {choices
                  .filter((c) => c.group === g)
                  .map((c) => (
                    <option key={c.path} value={c.path}>
                      {c.label}
                    </option>
                  ))}
              </optgroup>
            ))}
          </select>
        </label>
        <label className={error ? 'param-sweep-values param-invalid' : 'param-sweep-values'}>
          <span>Values{unit ? ` (${spec.unit})` : ''}</span>
          <input
            data-testid="param-sweep-values"
            value={draft.values}
            aria-invalid={!!error}
            aria-describedby="param-sweep-about"
            placeholder="0.8, 0.9, 1  or  0.8:0.05:1"
            title="Numbers apart by commas or spaces, or a range start:step:stop"
            onChange={(e) => {
              setError(null);
              write({ ...draft, values: e.target.value });
            }}
          />
        </label>
        <label className="param-sweep-seeds">
          <span>Seeds</span>
          <input
            data-testid="param-sweep-seeds"
            type="number"
            min={1}
            max={MAX_SEEDS}
            step={1}
            value={draft.seeds}
            title="Runs per value, with seeds run.seed, run.seed + 1, … (a mean and its 95 % interval over them)"
            onChange={(e) => {
              const n = Math.round(Number(e.target.value));
              write({ ...draft, seeds: Number.isFinite(n) ? Math.min(MAX_SEEDS, Math.max(1, n)) : 1 });
            }}
          />
        </label>
        <button type="submit" className="btn primary" data-testid="param-sweep-run" disabled={busy}>
          Sweep {choice.label}
        </button>
      </div>
      <FieldError rule={error && `values: ${error}`} />
      <p className="sweep-note" id="param-sweep-about" data-testid="param-sweep-about">
        {choice.group} · <code>{choice.path}</code>: {sentence(spec.meaning)} Range {spec.min}–{spec.max}
        {unit}
        {spec.integer ? ', whole numbers' : ''}; now {choice.current === null ? (spec.default_note ?? 'derived from the network') : `${choice.current}${unit}`}.
      </p>
      {'values' in parsed && (
        <p className="sweep-note">
          The same runs from the command line: <code data-testid="param-sweep-command">{parameterSweepCommand(current.id, fromLibrary, choice.path, parsed.values, draft.seeds)}</code>
        </p>
      )}
    </form>
  );
}
