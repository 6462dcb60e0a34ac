// Types of wasm-engine.mjs, for the end-to-end tests (TypeScript) that compute expected values
// with the wasm build under Node.
export const repoRoot: string;
export interface WasmSimulation {
  seriesMeta(): string;
  advance(untilMs: number, maxEvents: number): number;
  endMs(): number;
  done(): boolean;
  takeSamples(): Float64Array;
  summary(steadyFromMs?: number): string;
  summaryRow(steadyFromMs?: number): string;
  digest(): string;
  /** Records RM-cell events from now on, keeping the newest `capacity` (0: stop and clear). */
  setRmTrace(capacity: number): void;
  /** The RM-cell events since the last call, as JSON `RmRecord[]`. */
  takeRmTrace(): string;
  rmTraceDropped(): number;
  /** JSON `{"explain": Explain}` or `{"problem": Problem}`. */
  explain(switchId: string, port: string): string;
  /** JSON `string[]`: what to know before running the scenario (the engine's validate::notes). */
  notes(): string;
  free(): void;
}
export interface WasmPackage {
  Simulation: new (json: string) => WasmSimulation;
  sweepPlan(json: string): string;
  sweepScenario(json: string, index: number): string;
}
export function loadWasmEngine(): Promise<WasmPackage>;
export function runToEnd(pkg: WasmPackage, json: string, sliceEvents?: number): { sim: WasmSimulation; rows: number; width: number };
