// A comparison in the lab: plans the current scenario and its variants (compare.ts), runs them
// at once in the worker pool (each to its end, at full speed) and keeps what comes back; a
// failed run keeps its reason (the engine's path and rule) and the others go on. A comparison
// opened from a link carries the digests it had: each replayed run says whether it matches.

import type { SeriesMeta } from '../contract/engine';
import type { JobRunner } from './sweep';
import { JobFailed } from '../engine/pool';
import { StateCell } from './state';
import { parseRow } from './sweepTable';
import type { KeyValueStore } from '../scenario/storage';
import { draftsKey, type Place } from '../scenario/place';
import {
  draftOfSpec,
  isVariantDraft,
  MAX_COMPARE_RUNS,
  planCompare,
  problemText,
  switchIds,
  type CompareOutcome,
  type PlannedRun,
  type ScenarioLookup,
  type VariantDraft,
  type VariantSpec,
} from './compare';

/** `kept`: a comparison the browser kept, shown after a reload with its table only: its runs
 *  wait to be run again (`CompareSession.redraw`) for their charts, or for those not finished. */
export type ComparePhase = 'idle' | 'running' | 'done' | 'refused' | 'cancelled' | 'kept';

/** A comparison shown from the browser's keeping (lab/compareKeep.ts), not run on this page. */
export interface Restored {
  /** Per run: the digest kept (null: the run had not finished, or failed). */
  digests: (string | null)[];
  /** Whether its runs are run again at once (else on the user's click: a long comparison, or
   *  one cut short). */
  auto: boolean;
}

export interface CompareState {
  phase: ComparePhase;
  /** The compared scenario (JSON, as run first) and its variants. */
  json: string;
  variants: VariantSpec[];
  /** The variants as the form showed them when they ran (what a compare link gives back). */
  drafts: VariantDraft[];
  runs: PlannedRun[];
  /** Per run: its outcome once finished (a handful, so they live here). */
  outcomes: (CompareOutcome | undefined)[];
  /** Per run: the scenario it ran (JSON, its variant's changes made), once they are known. */
  scenarios: string[];
  /** Why the comparison did not run, one line per problem ("variant 2: …"). */
  problems: string[];
  /** What a variant's overrides took away beyond what they name, one line each ("variant 1:
   *  SW1 now runs EFCI marking: its recorded change of delta at 10 ms is dropped …"). */
  notes: string[];
  /** The digests a compare link promised (current first), or those kept from before a reload,
   *  to check the replay against (`expectedFrom` says which). */
  expected: (string | null)[] | null;
  expectedFrom: 'link' | 'kept';
  elapsedMs: number;
  /** Where the compared scenario is kept (its place's `draftsKey`): the browser keeps the
   *  comparison under it. Null: nowhere (a scenario without an id). */
  key: string | null;
  /** When the comparison started (ms since the epoch). */
  ranAtMs: number;
  /** Shown from the browser's keeping (a reload), not run on this page; null: run here. */
  restored: Restored | null;
  /** The browser keeps this comparison (a write landed, or it was read back). */
  kept: boolean;
  /** Why this comparison is not kept in the browser (a reload loses it); null: nothing to say. */
  unkept: string | null;
}

/** A run's series, for its charts: kept outside any snapshot (time series never live in React state). */
export interface RunSeries {
  meta: SeriesMeta[];
  /** Row-major [time, v_0 … v_n-1] rows; width = meta.length + 1. */
  rows: Float64Array;
  /** Samples behind each pair of rows (1: every row as sampled). */
  perBucket: number;
}

const IDLE: CompareState = {
  phase: 'idle',
  json: '',
  variants: [],
  drafts: [],
  runs: [],
  outcomes: [],
  scenarios: [],
  problems: [],
  notes: [],
  expected: null,
  expectedFrom: 'link',
  elapsedMs: 0,
  key: null,
  ranAtMs: 0,
  restored: null,
  kept: false,
  unkept: null,
};

/** What a kept comparison gives back to show (lab/compareKeep.ts reads it from the browser). */
export type KeptCompareState = Pick<CompareState, 'json' | 'variants' | 'drafts' | 'runs' | 'outcomes' | 'scenarios' | 'notes' | 'elapsedMs' | 'key' | 'ranAtMs'>;

/** Where the Compare view's variants are kept, as written, per place (see `draftsKey`). The
 *  same key in the tab's sessionStorage holds what the lab kept there before, per scenario id. */
const DRAFTS_KEY = 'abrlab.compare-drafts';
/** Scenarios whose variants are kept (the most recently written). */
const DRAFTS_KEPT = 20;

/** The key of a scenario's variants: its place's (`draftsKey`, shared with the Sweep tab's form). */
export { draftsKey };

/** The drafts a stored text holds, oldest written first (empty when it is unreadable). */
function draftsIn(raw: string | null | undefined): Map<string, VariantDraft[]> {
  const kept = new Map<string, VariantDraft[]>();
  try {
    const v = JSON.parse(raw ?? '[]') as unknown;
    // Stored as [key, drafts] pairs, oldest first; an object of drafts by key is how they were
    // stored before, and still read.
    const entries = Array.isArray(v) ? v : v && typeof v === 'object' ? Object.entries(v) : [];
    for (const entry of entries) {
      if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== 'string') continue;
      const ds = entry[1] as unknown;
      if (Array.isArray(ds) && ds.length <= MAX_COMPARE_RUNS - 1 && ds.every(isVariantDraft)) kept.set(entry[0], ds);
    }
  } catch {
    // Unreadable: nothing kept.
  }
  return kept;
}

/**
 * The variants the Compare view's form holds, per scenario place: kept here, not in the view,
 * so that they outlive a switch of tab; and in `store` (localStorage) so that they outlive a
 * reload and the browser's restart. Typed and not yet run is work too.
 *
 * The store is shared by the browser's tabs: every read is of the store as it is now (a tab
 * opening a scenario sees another tab's newer variants for it), and a write changes only its
 * own scenario's entry in what the store holds at that moment (two tabs writing two scenarios
 * keep both).
 */
export class CompareDrafts {
  /** The drafts as last read or written, oldest written first (a Map keeps insertion order for
   *  every key; an object puts keys that read as numbers, "42", first). What the page shows
   *  when the store cannot be used. */
  private memory = new Map<string, VariantDraft[]>();
  /** What this tab kept before drafts were kept by place, per scenario id (its sessionStorage):
   *  shown for a scenario of that id until the form is written again. Read once, never written. */
  private readonly earlier: Map<string, VariantDraft[]>;
  /** The store refused a write (private mode, quota): from then on this page keeps its own. */
  private pageOnly = false;

  constructor(
    private readonly store: KeyValueStore | null = null,
    earlier: KeyValueStore | null = null,
  ) {
    this.memory = this.read();
    this.earlier = draftsIn(readItem(earlier));
  }

  /** The variants kept for the scenario at `place` (its JSON id `scenarioId`); null: none. */
  get(place: Place, scenarioId: string | null): VariantDraft[] | null {
    const key = draftsKey(place, scenarioId);
    if (key === null) return null;
    return this.read().get(key) ?? (scenarioId === null ? undefined : this.earlier.get(scenarioId)) ?? null;
  }

  set(place: Place, scenarioId: string | null, drafts: VariantDraft[]) {
    const key = draftsKey(place, scenarioId);
    if (key === null) return;
    const all = this.read();
    all.delete(key);
    all.set(key, drafts); // last written last: the oldest go first
    for (const old of [...all.keys()].slice(0, Math.max(0, all.size - DRAFTS_KEPT))) all.delete(old);
    this.memory = all;
    if (!this.store || this.pageOnly) return;
    try {
      this.store.setItem(DRAFTS_KEY, JSON.stringify([...all]));
    } catch {
      this.pageOnly = true;
    }
  }

  /**
   * The open scenario moved (a change made a library scenario, a file or a link the user's
   * own; another tab's change forked it): its variants go with it. Those of the place it left
   * stay there (the library scenario keeps the variants typed on it).
   */
  moved(from: Place, to: Place, scenarioId: string | null) {
    const drafts = this.get(from, scenarioId);
    const key = draftsKey(to, scenarioId);
    if (drafts && key !== null && !this.read().has(key)) this.set(to, scenarioId, drafts);
  }

  /** What the store holds now (what this page holds, when the store cannot be used). */
  private read(): Map<string, VariantDraft[]> {
    if (!this.store || this.pageOnly) return this.memory;
    this.memory = draftsIn(readItem(this.store));
    return this.memory;
  }
}

function readItem(store: KeyValueStore | null): string | null {
  try {
    return store?.getItem(DRAFTS_KEY) ?? null;
  } catch {
    return null;
  }
}

export class CompareSession {
  private readonly cell = new StateCell<CompareState>(IDLE);
  /** Per run: its series once finished (null: it failed). */
  series: (RunSeries | null | undefined)[] = [];
  private generation = 0;
  private started = 0;
  /** The runs not answered yet (the comparison is done when none is left). */
  private pending = new Set<number>();

  constructor(
    private readonly pool: JobRunner,
    private readonly lookup: ScenarioLookup,
    private readonly now: () => number = () => performance.now(),
    /** The form's variants, as written. */
    readonly drafts: CompareDrafts = new CompareDrafts(),
    /** The wall clock (ms since the epoch): when a comparison started, as it is kept. */
    private readonly clock: () => number = () => Date.now(),
  ) {}

  subscribe = (fn: () => void) => this.cell.subscribe(fn);
  getState = () => this.cell.get();

  /**
   * Plans and runs a comparison of `json` with `variants`; replaces any earlier one. The engine
   * applies each variant's overrides first (as `abrsim run --set` would); when one does not
   * apply, the comparison is refused with every such reason and nothing runs. `place`: where
   * the scenario is kept (its variants are kept by it, as the form's are); `expected`: the
   * digests a compare link promised; `drafts`: the variants as the form wrote them (a link's
   * as it carries them; without: as `draftOfSpec` reads the variants).
   */
  async start(json: string, variants: VariantSpec[], place: Place, { expected = null, drafts }: { expected?: (string | null)[] | null; drafts?: VariantDraft[] } = {}) {
    // What runs is what the form shows from now on (a link's or a lesson's variants too): read
    // without drafts, each variant against the switches of the scenario it starts from (the
    // current one when its library scenario is unknown, as the form falls back to).
    const shown = drafts ?? variants.map((v) => draftOfSpec(v, switchIds((v.from && this.lookup(v.from)) || json)));
    this.drafts.set(place, scenarioIdOf(json), shown);
    await this.plan(json, variants, shown, draftsKey(place, scenarioIdOf(json)), expected);
  }

  /** Plans `json` with `variants`, has the engine make each variant's scenario, and runs them. */
  private async plan(json: string, variants: VariantSpec[], shown: VariantDraft[], key: string | null, expected: (string | null)[] | null, ranAtMs = this.clock()) {
    this.pool.cancel('a new comparison started');
    const generation = ++this.generation;
    const refuse = (problems: string[]) => this.cell.set({ ...IDLE, phase: 'refused', json, variants, drafts: shown, problems, key, ranAtMs });
    const plan = planCompare(json, variants, this.lookup);
    if (!plan.ok) return refuse(plan.problems.map(problemText));
    this.started = this.now();
    this.pending = new Set(plan.runs.map((_, i) => i));
    this.series = plan.runs.map(() => undefined);
    this.cell.set({ ...IDLE, phase: 'running', json, variants, drafts: shown, runs: plan.runs, outcomes: plan.runs.map(() => undefined), expected, key, ranAtMs });
    const resolved = await Promise.allSettled(
      plan.runs.map((run) =>
        run.sets.length === 0
          ? Promise.resolve({ json: run.json, notes: [] as string[] })
          : this.pool
              .submit({ type: 'variant', scenario: run.json, sets: run.sets })
              .then((a) => (a.type === 'variant' ? { json: a.json, notes: a.notes } : { json: run.json, notes: [] })),
      ),
    );
    if (generation !== this.generation) return;
    // The engine names a variant's problems one a line: each is a line of the refusal.
    const failed = resolved.flatMap((r, i) =>
      r.status === 'rejected' && !(r.reason as JobFailed).cancelled ? (r.reason as Error).message.split('\n').map((rule) => problemText({ variant: plan.runs[i].variant, rule })) : [],
    );
    if (failed.length) return refuse(failed);
    if (resolved.some((r) => r.status === 'rejected')) return; // cancelled
    const made = resolved.map((r) => (r as PromiseFulfilledResult<{ json: string; notes: string[] }>).value);
    const scenarios = made.map((m) => m.json);
    const notes = made.flatMap((m, i) => m.notes.map((rule) => problemText({ variant: plan.runs[i].variant, rule })));
    this.cell.set({ scenarios, notes });
    this.runAll(scenarios, generation);
  }

  /** Runs each scenario to its end, with its samples; each outcome is recorded as it comes. */
  private runAll(scenarios: readonly string[], generation: number) {
    scenarios.forEach((scenario, i) => {
      this.pool.submit({ type: 'run', scenario, samples: true }).then(
        (a) => {
          if (generation !== this.generation) return;
          if (a.type !== 'run') return this.record(i, { ok: false, error: 'no row came back' });
          this.series[i] = a.samples ? { meta: JSON.parse(a.samples.meta) as SeriesMeta[], rows: a.samples.rows, perBucket: a.samples.perBucket } : null;
          this.record(i, { ok: true, cells: parseRow(a.row), digest: a.digest });
        },
        (e: JobFailed) => {
          if (generation !== this.generation || e.cancelled) return;
          this.series[i] = null;
          this.record(i, { ok: false, error: e.message });
        },
      );
    });
  }

  private record(i: number, outcome: CompareOutcome) {
    const s = this.cell.get();
    const outcomes = s.outcomes.slice();
    outcomes[i] = outcome;
    this.pending.delete(i);
    const done = this.pending.size === 0;
    this.cell.set({ outcomes, phase: done ? 'done' : s.phase, elapsedMs: this.now() - this.started });
  }

  /** Stops the runs still going; what finished stays. */
  cancel() {
    if (this.cell.get().phase !== 'running') return;
    this.generation++;
    this.pool.cancel();
    this.cell.set({ phase: 'cancelled', elapsedMs: this.now() - this.started });
  }

  /**
   * Shows a comparison the browser kept (a reload): its table at once, from the rows kept; its
   * runs are run again for their charts — at once when `auto`, else on `redraw` — each checked
   * against the digest kept. Only on a page that shows no comparison yet (one started here
   * wins); false when it does not show it.
   */
  showKept(kept: KeptCompareState, { auto }: { auto: boolean }): boolean {
    if (this.cell.get().phase !== 'idle') return false;
    this.series = kept.runs.map(() => undefined);
    this.pending = new Set();
    const digests = kept.outcomes.map((o) => (o && o.ok ? o.digest : null));
    this.cell.set({ ...IDLE, ...kept, phase: 'kept', restored: { digests, auto }, kept: true });
    if (auto) this.redraw();
    return true;
  }

  /**
   * Runs a kept comparison's runs again (its phase `kept`): those that finished before for
   * their charts, each checked against the digest kept; those that had not, to finish it. The
   * table keeps the rows kept until each run answers. A comparison kept before its variants'
   * scenarios were made is planned again.
   */
  redraw() {
    const s = this.cell.get();
    if (s.phase !== 'kept' || !s.restored) return;
    if (s.scenarios.length !== s.runs.length || s.runs.length === 0) {
      // (Planning sets its first state at once, before it waits on the engine.)
      void this.plan(s.json, s.variants, s.drafts, s.key, null, s.ranAtMs);
      if (this.cell.get().phase === 'running') this.cell.set({ restored: s.restored, kept: s.kept, unkept: s.unkept });
      return;
    }
    this.pool.cancel('a new comparison started');
    const generation = ++this.generation;
    this.started = this.now();
    this.pending = new Set(s.runs.map((_, i) => i));
    this.series = s.runs.map(() => undefined);
    this.cell.set({ phase: 'running', expected: s.restored.digests, expectedFrom: 'kept' });
    this.runAll(s.scenarios, generation);
  }

  /** The compared scenario moved from the place kept as `from` to `to` (a first change made the
   *  user's copy of it): the comparison shown, if of it, is kept under `to` from now on. */
  rekey(from: string, to: string) {
    if (this.cell.get().key === from) this.cell.set({ key: to });
  }

  /** Says whether the comparison started at `ranAtMs` is kept in the browser (`why`: why not). */
  noteKept(ranAtMs: number, why: string | null) {
    const s = this.cell.get();
    if (s.ranAtMs !== ranAtMs || s.phase === 'idle') return;
    if (s.kept !== (why === null) || s.unkept !== why) this.cell.set({ kept: why === null, unkept: why });
  }

  /** The runs' digests so far (null where a run has none). */
  digests(): (string | null)[] {
    return this.cell.get().outcomes.map((o) => (o && o.ok ? o.digest : null));
  }
}

function scenarioIdOf(json: string): string | null {
  try {
    const id = (JSON.parse(json) as { id?: unknown }).id;
    return typeof id === 'string' ? id : null;
  } catch {
    return null;
  }
}

/** Whether run i's digest is the one its link promised (or the one kept from before a reload):
 *  null when there is nothing to check. */
export function digestMatches(s: CompareState, i: number): boolean | null {
  const want = s.expected?.[i];
  const o = s.outcomes[i];
  if (!want || !o || !o.ok) return null;
  return o.digest === want;
}

/** How a comparison kept from before a reload stands: its runs wait to be run again
 *  (`waiting`), run again (`running`), gave the digests kept (`same`), gave another for some
 *  run (`differs`), finished what had not run and had nothing to check (`finished`), or the run
 *  again was cancelled (`stopped`). Null: a comparison run on this page. */
export type RedrawState = 'waiting' | 'running' | 'same' | 'differs' | 'finished' | 'stopped';

export function redrawOf(s: CompareState): RedrawState | null {
  if (!s.restored) return null;
  if (s.phase === 'kept') return 'waiting';
  if (s.phase === 'running') return 'running';
  const checks = s.runs.map((_, i) => digestMatches(s, i));
  if (checks.includes(false)) return 'differs';
  if (s.phase === 'cancelled') return 'stopped';
  return checks.includes(true) ? 'same' : 'finished';
}
