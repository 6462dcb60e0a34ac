// A sweep in the lab: plans the current scenario's `sweep` block, runs its runs in the worker
// pool (each to its end, at full speed), and keeps what comes back — results fill in as they
// arrive, a failed run keeps its reason and the others go on, a cancel keeps what was done. The
// tables are made from the outcomes by sweepTable.ts; a run can be opened in the lab's charts.

import type { Catalogue, PlanInfo, Problem } from '../contract/engine';
import type { Scenario } from '../contract/scenario';
import { JobFailed, type JobLane } from '../engine/pool';
import { StateCell } from './state';
import { DEFAULT_SEED } from '../scenario/params';
import { parseRow, runOf, type RunOutcome } from './sweepTable';
import { parameterSweepCommand, SweepDrafts, sweepFile } from './sweepBuilder';

/** The most runs the lab runs in the browser; more go to `abrsim sweep`. */
export const MAX_BROWSER_RUNS = 10_000;

/** The part of the worker pool a sweep uses (its lane of the lab's pool). */
export type JobRunner = JobLane;

/** `interrupted`: a sweep kept while it ran (sweepKeep.ts) and read back on a new page: the page
 *  that ran it went away (a reload, a closed tab) before its last run — or, said so by
 *  `runningInOtherTab`, another tab runs it still. */
export type SweepPhase = 'idle' | 'planning' | 'running' | 'done' | 'cancelled' | 'refused' | 'interrupted';

/** What made the sweep block a sweep runs: the scenario's own (`block`), the Sweep tab's form
 *  (`form`), or *Sweep the switch algorithms* (`algorithms`). */
export type SweepMaker = 'block' | 'form' | 'algorithms';

/** A sweep the lab made from the open scenario (its form's, the algorithms'): what made it and
 *  the `abrsim sweep` command that makes the same runs. */
export interface MadeSweep {
  by: Exclude<SweepMaker, 'block'>;
  command: string;
}

export interface SweepState {
  phase: SweepPhase;
  /** What made the sweep's block (a refusal of the form's goes when the form changes). */
  madeBy: SweepMaker;
  /** The swept scenario: its id, where it came from, its JSON (with the sweep block). */
  scenarioId: string;
  origin: string;
  json: string;
  /** The scenario open when the sweep started, as the lab held it (for an algorithm sweep,
   *  without the block added): the one whose results these are. A run of the sweep opened has
   *  the same id, an edit or a file opened again may have the same origin: the text tells. */
  sourceJson: string;
  firstSeed: number;
  plan: PlanInfo | null;
  /** Why the sweep was refused: the engine's problems (with their paths), or a message. */
  problems: Problem[] | null;
  message: string | null;
  /** Runs finished so far (with a row or failed), and failed. */
  finished: number;
  failed: number;
  /** Bumped whenever an outcome arrives (the outcomes themselves are in `SweepSession.outcomes`). */
  version: number;
  /** Wall time from start to the last outcome (ms). */
  elapsedMs: number;
  workers: number;
  /** Wall-clock time the sweep started (ms since the epoch; 0 before a sweep). */
  ranAtMs: number;
  /** Read back from the browser's storage (sweepKeep.ts): the results of a sweep run on an
   *  earlier page, not this one's. */
  restored: boolean;
  /** Why these results could not be kept in the browser (a reload loses them), if so. */
  unkept: string | null;
  /** Read back `interrupted` while another tab of the lab runs it still (its lock is held). */
  runningInOtherTab: boolean;
}

/** No sweep (yet). */
export const IDLE_SWEEP: SweepState = {
  phase: 'idle',
  madeBy: 'block',
  scenarioId: '',
  origin: '',
  json: '',
  sourceJson: '',
  firstSeed: DEFAULT_SEED,
  plan: null,
  problems: null,
  message: null,
  finished: 0,
  failed: 0,
  version: 0,
  elapsedMs: 0,
  workers: 0,
  ranAtMs: 0,
  restored: false,
  unkept: null,
  runningInOtherTab: false,
};

/** The metrics an algorithm sweep tabulates (the comparison `abrsim report --algorithms` makes):
 *  fairness and queues beside what the network carried — a scheme that starves every source
 *  is perfectly fair with no queue, and only its utilisation (and, over TCP, goodput) says so. */
export const ALGORITHM_SWEEP_METRICS = ['jain_index', 'convergence_ms', 'max_queue_cells', 'lost_cells', 'max_utilization'];
/** Added where a connection runs TCP (the column is empty otherwise). */
export const ALGORITHM_SWEEP_TCP_METRICS = ['goodput_mbps'];

/**
 * The scenario with a sweep of its switches' algorithm over every algorithm of its kind of
 * network (ATM: ERICA … EFCI, no `none`; Ethernet: FECN, QCN and `none`), each on every switch
 * (`nodes.*.algorithm`; the engine keeps only the parameters the algorithm has). Null when the
 * scenario has no switch.
 */
export function withAlgorithmSweep(scenario: Scenario, catalogue: Catalogue): Scenario | null {
  if (!scenario.nodes.some((n) => n.kind === 'switch')) return null;
  const ethernet = !!scenario.ethernet;
  const ids = catalogue.algorithms
    .filter((a) => (ethernet ? a.network !== 'atm' : a.network !== 'ethernet' && a.id !== 'none'))
    .map((a) => a.id);
  return {
    ...scenario,
    sweep: {
      vary: [{ name: 'algorithm', paths: ['nodes.*.algorithm'], values: ids }],
      metrics: scenario.connections.some((c) => c.tcp) ? [...ALGORITHM_SWEEP_METRICS, ...ALGORITHM_SWEEP_TCP_METRICS] : ALGORITHM_SWEEP_METRICS,
    },
  };
}

/** The command that runs a scenario's own sweep block on `file` (`sweepFile`'s path). */
export function cliCommand(scenarioId: string, file: string): string {
  return `abrsim sweep ${file} > ${scenarioId}.csv`;
}

/** The file a sweep's command names for the scenario `sourceJson` (`sweepFile`'s path): the
 *  library's when it runs as the library's does (`library`: a library scenario by id), else
 *  the file Export saves of it. */
export function commandFile(sourceJson: string, library: (id: string) => Scenario | undefined): string {
  let scenario: Scenario;
  try {
    scenario = JSON.parse(sourceJson) as Scenario;
  } catch {
    return 'scenario.json';
  }
  return sweepFile(scenario, library(String(scenario.id))).path;
}

/** The command that runs `withAlgorithmSweep`'s sweep: the scenario's algorithms on every
 *  switch, by `--vary` (its table's metrics are among the columns abrsim sweep prints). */
export function algorithmSweepCommand(scenario: Scenario, file: string): string {
  const values = (scenario.sweep?.vary ?? []).map((v) => `${v.paths.join(',')}=${v.values.join(',')}`);
  return `abrsim sweep ${file}${values.map((v) => ` --vary '${v}'`).join('')} > ${scenario.id}.csv`;
}

/**
 * What made a sweep, and the command that makes its runs, from the sweep's own text (`json`,
 * with its block) and the scenario it was made from (`sourceJson`): null for the scenario's own
 * block. A sweep read back from the browser keeps what made it, not the command: made again.
 */
export function remade(s: Pick<SweepState, 'madeBy' | 'scenarioId' | 'json' | 'sourceJson'>, file: string): MadeSweep | null {
  if (s.madeBy === 'block') return null;
  let swept: Scenario;
  let source: Scenario | null = null;
  try {
    swept = JSON.parse(s.json) as Scenario;
    source = JSON.parse(s.sourceJson) as Scenario;
  } catch {
    return { by: s.madeBy, command: cliCommand(s.scenarioId, file) };
  }
  if (s.madeBy === 'algorithms') return { by: 'algorithms', command: algorithmSweepCommand(swept, file) };
  const params = (swept.sweep?.vary ?? []).map((v) => ({ path: v.paths[0] ?? '', values: v.values as number[] }));
  return { by: 'form', command: parameterSweepCommand(file, params, swept.sweep?.seeds ?? 1, source?.sweep) };
}

/** "1 seed", "3 seeds"; the count grouped in thousands. */
const plural = (n: number, noun: string) => `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;

export class SweepSession {
  private readonly cell = new StateCell<SweepState>(IDLE_SWEEP);
  /** Per run: its outcome once finished. A plain array, outside any snapshot (it may hold 10,000). */
  outcomes: (RunOutcome | undefined)[] = [];
  private generation = 0;
  private started = 0;

  constructor(
    private readonly pool: JobRunner,
    /** Opens a scenario in the lab (as the file picker does). */
    private readonly open: (json: string, origin: string) => void,
    /** A library scenario by id: a sweep's command names its file when the scenario swept runs
     *  as it does (`commandFile`). */
    private readonly library: (id: string) => Scenario | undefined = () => undefined,
    private readonly now: () => number = () => performance.now(),
    /** The Sweep tab's parameter form, as written per scenario. */
    readonly drafts: SweepDrafts = new SweepDrafts(),
    /** Wall-clock time (ms since the epoch): when a sweep ran, as its kept results say. */
    private readonly wallNow: () => number = () => Date.now(),
  ) {}

  subscribe = (fn: () => void) => this.cell.subscribe(fn);
  getState = () => this.cell.get();

  /** Plans and runs the sweep of a scenario (JSON with a `sweep` block); replaces any earlier
   *  one. `sourceJson`: the scenario open in the lab, when `json` is it with a block added;
   *  `made`: what added it, and the command that makes the same runs (a refusal gives it). */
  async start(json: string, origin: string, sourceJson = json, made: MadeSweep | null = null) {
    this.pool.cancel('a new sweep started');
    const generation = ++this.generation;
    const live = () => generation === this.generation;
    let scenarioId = '';
    let firstSeed = DEFAULT_SEED;
    try {
      const doc = JSON.parse(json) as { id?: string; run?: { seed?: number } };
      scenarioId = String(doc.id ?? '');
      firstSeed = doc.run?.seed ?? DEFAULT_SEED;
    } catch {
      // the engine's plan says what is wrong with it
    }
    this.outcomes = [];
    this.cell.set({ ...IDLE_SWEEP, phase: 'planning', madeBy: made?.by ?? 'block', scenarioId, origin, json, sourceJson, firstSeed, workers: this.pool.size, ranAtMs: this.wallNow() });
    let planned: { plan?: PlanInfo; problems?: Problem[] };
    try {
      const answer = await this.pool.submit({ type: 'plan', scenario: json });
      planned = answer.type === 'plan' ? JSON.parse(answer.json) : { problems: [{ path: '', rule: 'no plan came back' }] };
    } catch (e) {
      if (live()) this.cell.set({ phase: 'refused', message: (e as Error).message });
      return;
    }
    if (!live()) return;
    if (!planned.plan) {
      this.cell.set({ phase: 'refused', problems: planned.problems ?? [], message: 'The sweep cannot run as written:' });
      return;
    }
    const plan = planned.plan;
    if (plan.runs > MAX_BROWSER_RUNS) {
      this.cell.set({
        phase: 'refused',
        plan,
        message:
          `This sweep has ${plan.runs.toLocaleString('en')} runs (${plural(plan.points, 'point')} × ${plural(plan.seeds, 'seed')}); ` +
          `the browser runs at most ${MAX_BROWSER_RUNS.toLocaleString('en')}. Run it from the command line on all cores ` +
          `(add --shard I/N to split it over machines): ${made?.command ?? cliCommand(scenarioId, commandFile(sourceJson, this.library))}`,
      });
      return;
    }
    this.outcomes = new Array(plan.runs).fill(undefined);
    this.started = this.now();
    this.cell.set({ phase: 'running', plan });
    this.runAll(json, Array.from({ length: plan.runs }, (_, i) => i), live);
  }

  /** Runs `runs` of the sweep `json`, each outcome recorded while `live`. */
  private runAll(json: string, runs: readonly number[], live: () => boolean) {
    for (const i of runs) {
      this.pool.submit({ type: 'run', scenario: json, index: i }).then(
        (answer) => live() && this.record(i, answer.type === 'run' ? { ok: true, cells: parseRow(answer.row), digest: answer.digest, wallMs: answer.wallMs } : { ok: false, error: 'no row came back' }),
        (e: JobFailed) => live() && !e.cancelled && this.record(i, { ok: false, error: e.message }),
      );
    }
  }

  /** Runs the sweep shown again exactly as it was made (its kind, values, seeds: its own text),
   *  a live one or one read back from the browser alike; nothing while one runs. */
  again(): Promise<void> {
    const s = this.cell.get();
    if (!s.json || s.phase === 'idle' || s.phase === 'planning' || s.phase === 'running') return Promise.resolve();
    return this.start(s.json, s.origin, s.sourceJson, remade(s, commandFile(s.sourceJson, this.library)));
  }

  /** The runs a sweep read back cut short has yet to run (none: it cannot be finished — not
   *  one read back cut short, or another tab runs it still). */
  missingRuns(): number[] {
    const s = this.cell.get();
    if (!s.restored || s.phase !== 'interrupted' || s.runningInOtherTab || !s.plan) return [];
    return this.outcomes.flatMap((o, i) => (o === undefined ? [i] : []));
  }

  /** Finishes a sweep read back cut short (`missingRuns`): runs only the runs it had not
   *  finished, its finished ones kept, as the same sweep (its start, kept in its own record). */
  finish() {
    const missing = this.missingRuns();
    const s = this.cell.get();
    if (missing.length === 0 || !s.plan) return;
    this.pool.cancel('a sweep finishes');
    const generation = ++this.generation;
    const live = () => generation === this.generation;
    this.started = this.now() - s.elapsedMs;
    this.cell.set({ phase: 'running', restored: false, unkept: null, workers: this.pool.size, version: s.version + 1 });
    this.runAll(s.json, missing, live);
  }

  private record(i: number, outcome: RunOutcome) {
    this.outcomes[i] = outcome;
    const s = this.cell.get();
    const finished = s.finished + 1;
    const failed = s.failed + (outcome.ok ? 0 : 1);
    const done = s.plan !== null && finished >= s.plan.runs;
    this.cell.set({ finished, failed, version: s.version + 1, elapsedMs: this.now() - this.started, phase: done ? 'done' : s.phase });
  }

  /** The Sweep tab's form changed since it made the sweep refused: the refusal, of a sweep the
   *  form no longer makes, goes (QA: it stayed under the form's new field error until the next
   *  run). A refusal of the scenario's own block, or of the algorithm sweep, stays. */
  formChanged() {
    const s = this.cell.get();
    if (s.phase === 'refused' && s.madeBy === 'form') this.cell.set(IDLE_SWEEP);
  }

  /** Stops the runs still to come; what finished stays. */
  cancel() {
    if (this.cell.get().phase !== 'running' && this.cell.get().phase !== 'planning') return;
    this.generation++;
    this.pool.cancel();
    this.cell.set({ phase: 'cancelled', elapsedMs: this.now() - this.started });
  }

  /** Shows results kept from an earlier page (sweepKeep.ts), in place of `shown` — the state
   *  the caller saw before reading them. False, showing nothing, when a sweep started or ran on
   *  since (the user's new sweep wins over a slow read of an old one). */
  showKept(state: SweepState, outcomes: (RunOutcome | undefined)[], shown: SweepState): boolean {
    const now = this.cell.get();
    if (now !== shown || now.phase === 'planning' || now.phase === 'running') return false;
    this.generation++;
    this.outcomes = outcomes;
    this.cell.set({ ...state, restored: true, unkept: null });
    return true;
  }

  /** Says why the results shown could not be kept (quietly: the sweep goes on). */
  noteUnkept(why: string | null) {
    if (this.cell.get().unkept !== why) this.cell.set({ unkept: why });
  }

  /** Opens run `index` in the lab's charts (its scenario, made by the engine from the sweep). */
  async openRun(index: number): Promise<void> {
    const s = this.cell.get();
    if (!s.plan) return;
    // Ahead of the runs still waiting: the user is waiting for this one.
    const answer = await this.pool.submit({ type: 'scenario', sweep: s.json, index }, { urgent: true });
    if (answer.type !== 'scenario') return;
    const run = runOf(s.plan, index, s.firstSeed);
    const said = s.plan.params.map((p, k) => `${p.column} = ${run.values[k]}`).join(', ');
    this.open(answer.json, `${s.scenarioId} · sweep run ${index + 1}: ${said}, seed ${run.seed}`);
  }
}
