// The engine contract: what the wasm package `abr_wasm` (engine/wasm) exports, as the worker
// uses it. Hand-written for now; the scenario types beside it are generated from Rust.

import type { ParamChange } from './scenario';

export type { ParamChange };

/** One problem in a scenario: the JSON path of the field and the rule it breaks. */
export interface Problem {
  path: string;
  rule: string;
}

export type SeriesKind =
  /** ACR (ATM; NaN for UBR sources, which have none) or rate limit (Ethernet) per connection. */
  | 'acr'
  /** The ACR of each ABR virtual path's source (VPC studies), and its share at target
   *  utilisation (its connections' shares together). */
  | 'vp_acr'
  | 'vp_target'
  | 'share'
  | 'target'
  | 'throughput'
  | 'delivered'
  /** Cumulative lost / sent per connection (unitless). */
  | 'loss_ratio'
  /** TCP congestion window (KB) and goodput (Mbps), for TCP connections only. */
  | 'cwnd'
  | 'goodput'
  | 'queue'
  | 'utilization'
  /** A switch algorithm's internal quantity per port: id `algorithm:<port>:<name>`. */
  | 'algorithm';

export interface SeriesMeta {
  id: string;
  kind: SeriesKind;
  label: string;
  unit: string;
  /** Connection id for per-connection series, port id ("SW1->SW2") for per-port series. */
  owner: string;
}

export interface ParamSpec {
  name: string;
  unit: string;
  default: number | null;
  default_note?: string;
  min: number;
  max: number;
  integer: boolean;
  meaning: string;
}

export interface AlgorithmSpec {
  /** The id used in scenario files (`erica_plus`). */
  id: string;
  /** The name shown in the UI (`ERICA+`). */
  name: string;
  /** The networks it runs on: ATM (cells, ABR), Ethernet (frames), or both. */
  network?: 'atm' | 'ethernet' | 'both';
  summary: string;
  params: ParamSpec[];
}

export interface Catalogue {
  algorithms: AlgorithmSpec[];
  source_params: ParamSpec[];
  /** Source settings of Ethernet flows (FECN tag interval, QCN reaction point). */
  ethernet_source_params?: ParamSpec[];
  /** Switch settings outside the algorithm: `buffer_cells` (ATM), `buffer_bytes` (Ethernet). */
  switch_settings?: ParamSpec[];
  /** Port schedulers a switch may use (`nodes[].scheduler`). */
  schedulers?: string[];
}

export interface Simulation {
  seriesMeta(): string;
  advance(untilMs: number, maxEvents: number): number;
  nowMs(): number;
  endMs(): number;
  done(): boolean;
  eventsProcessed(): number;
  takeSamples(): Float64Array;
  summary(steadyFromMs?: number): string;
  digest(): string;
  /**
   * Changes a switch parameter from the current simulated time on (after every event at that
   * time) and records it in the scenario's `changes`. Returns "" on success, else a JSON
   * Problem whose path is relative to the change (`node`, `param` or `value`).
   */
  setParam(node: string, param: string, value: number): string;
  /** The scenario as run so far, with the changes made during the run (JSON). */
  scenario(): string;
  free(): void;
}

export interface EngineModule {
  /** The engine the worker runs (shown in the toolbar). */
  kind: 'wasm';
  catalogue(): string;
  validateScenario(json: string): string;
  createSimulation(json: string): Simulation;
}

/**
 * The run summary (`Simulation.summary()`, the CLI's `abrsim run` output), as far as the UI
 * reads it. Every field is optional: the UI shows what is there.
 */
export interface RunSummary {
  scenario?: string;
  sim_ms?: number;
  events?: number;
  steady_from_ms?: number;
  jain_index?: number | null;
  convergence_ms?: number | null;
  /** How many rates convergence_ms judges (ABR and Ethernet connections, ABR virtual paths). */
  judged_rates?: number;
  connections?: {
    id: string;
    mean_rate_mbps?: number;
    fair_share_mbps?: number;
    target_share_mbps?: number;
    delivered_cells?: number;
    lost_cells?: number;
    /** `abr`, `ubr` (sent at PCR, no feedback), `ethernet` or `background` (CBR/VBR). */
    kind?: string;
    /** TCP connections only. */
    goodput_mbps?: number;
    timeouts?: number;
    max_source_queue_cells?: number;
  }[];
  ports?: { id: string; max_queue_cells?: number; mean_queue_cells?: number; dropped_cells?: number }[];
  /** Virtual paths: members' goodput, Jain's index among the members, the edge queue. */
  virtual_paths?: { id: string; goodput_mbps?: number | null; jain_index?: number | null; max_queue_cells?: number }[];
  jain_among_virtual_paths?: number | null;
  /** Per-VC queues of the virtual sources at VS/VD switches. */
  virtual_sources?: { switch: string; connection: string; max_queue_cells: number }[];
}
