// The engine contract: what the wasm package `abr_wasm` (engine/wasm) exports, as the worker
// uses it. The Simulation and EngineModule interfaces describe the wasm-bindgen class; the data
// that crosses as JSON has its types generated from Rust.

import type { ParamChange } from './scenario';

export type { ParamChange };

// Every type below that the engine serialises is generated from its Rust definition by ts-rs
// (`cargo test` writes ./generated/; CI checks the committed files are current).
export type { Problem } from './generated/Problem';
export type { SeriesKind } from './generated/SeriesKind';
export type { SeriesMeta } from './generated/SeriesMeta';
export type { OwnerKind } from './generated/OwnerKind';
export type { ProbeSpec } from './generated/ProbeSpec';
export type { ParamSpec } from './generated/ParamSpec';
export type { AlgorithmSpec } from './generated/AlgorithmSpec';
export type { Feedback } from './generated/Feedback';
export type { Networks } from './generated/Networks';
export type { DefaultAlgorithms } from './generated/DefaultAlgorithms';
export type { Catalogue } from './generated/Catalogue';
export type { Summary, Summary as RunSummary } from './generated/Summary';
export type { ConnSummary } from './generated/ConnSummary';
export type { PortSummary } from './generated/PortSummary';
export type { LinkSummary } from './generated/LinkSummary';
export type { VpSummary } from './generated/VpSummary';
export type { VsSummary } from './generated/VsSummary';
export type { PlanInfo } from './generated/PlanInfo';
export type { ParamInfo } from './generated/ParamInfo';
export type { Sweep } from './generated/Sweep';
export type { SweepParam } from './generated/SweepParam';
export type { RmRecord } from './generated/RmRecord';
export type { RmDirection } from './generated/RmDirection';
export type { Explain } from './generated/Explain';
export type { Quantity } from './generated/Quantity';
export type { VcExplain } from './generated/VcExplain';

export interface Simulation {
  seriesMeta(): string;
  advance(untilMs: number, maxEvents: number): number;
  nowMs(): number;
  endMs(): number;
  done(): boolean;
  eventsProcessed(): number;
  takeSamples(): Float64Array;
  summary(): string;
  digest(): string;
  /**
   * Changes a switch parameter from the current simulated time on (after every event at that
   * time) and records it in the scenario's `changes`, replacing the changes of that parameter
   * of that switch recorded for later times. Returns JSON: `{"replaced": ParamChange[]}` on
   * success, else a Problem whose path is relative to the change (`node`, `param` or `value`).
   */
  setParam(node: string, param: string, value: number): string;
  /** The scenario as run so far, with the changes made during the run (JSON). */
  scenario(): string;
  /** What the reader of the scenario should know before running it (JSON `string[]`, each
   *  naming its field's path: the engine's `validate::notes`, which the summary's `notes` carry
   *  too). */
  notes(): string;
  free(): void;
}

export interface EngineModule {
  /** The engine the worker runs (shown in the toolbar). */
  kind: 'wasm';
  catalogue(): string;
  validateScenario(json: string): string;
  /** `{"plan": PlanInfo}`, or `{"problems": Problem[]}` when the scenario or its sweep block is
   *  invalid (the worker asks it of a scenario with a `sweep` block, to say the block's problems). */
  sweepPlan(json: string): string;
  createSimulation(json: string): TracingSimulation;
}

/** A Simulation that records RM-cell events and lets a switch explain itself (issue 12). */
export interface TracingSimulation extends Simulation {
  /** A copy of the run as it is now (a checkpoint): it plays on exactly as this one would. */
  snapshot(): TracingSimulation;
  /** Roughly the bytes a snapshot takes now (the engine's estimate, to budget checkpoints). */
  stateBytes(): number;
  /** Records RM-cell events from now on, keeping the newest `capacity` (0: stop and clear). */
  setRmTrace(capacity: number): void;
  /** The events recorded since the last call (JSON `RmRecord[]`), oldest first. */
  takeRmTrace(): string;
  /** RM-cell events dropped so far because the buffer was full (the oldest go first). */
  rmTraceDropped(): number;
  /**
   * Runs until an RM-cell event at `node` of `direction` and of `connection` (a connection or
   * virtual path id, as `RmRecord.vp || RmRecord.connection` names it; '' for any, each) is
   * recorded, or `untilMs`, or `maxEvents` events, in one call; the events stay in the trace.
   * JSON `{"events": n, "found": RmRecord | null}` or `{"problem": Problem}` (path `node`,
   * `direction` or `connection`).
   */
  advanceToRmEvent(node: string, direction: string, connection: string, untilMs: number, maxEvents: number): string;
  /**
   * What the algorithm of `switchId`'s port `port` (a port id `SW1->SW2`, or the node it leads
   * to) says about its state now: JSON `{"explain": Explain}` or `{"problem": Problem}` (path
   * `switch` or `port`).
   */
  explain(switchId: string, port: string): string;
}

/** A Simulation that also gives its summary as one sweep row (the batch worker's). */
export interface RowSimulation extends Simulation {
  /** The summary as `[name, value]` pairs (JSON), the very row `abrsim sweep` prints. */
  summaryRow(): string;
}

/** What the batch worker (sweeps, compare) uses of the wasm package. */
export interface BatchEngine {
  /** `{"plan": PlanInfo}`, or `{"problems": Problem[]}` when the scenario or its sweep is invalid. */
  sweepPlan(json: string): string;
  /** Run `index`'s scenario (JSON) of the sweep in `json`; throws on a bad sweep or index. */
  sweepScenario(json: string, index: number): string;
  /**
   * A compare variant: `json` with the `--set` overrides `sets` (a JSON list of strings) applied
   * by the engine's rules, as `{"scenario": string, "notes": string[]}` (the scenario's JSON text;
   * notes: what an override took away beyond what it names, as the recorded changes of a
   * switch's old algorithm); throws naming each override that does not apply.
   */
  applyVariant(json: string, sets: string): string;
  validateScenario(json: string): string;
  createSimulation(json: string): RowSimulation;
}
