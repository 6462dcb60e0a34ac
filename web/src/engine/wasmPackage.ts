// Loads the wasm engine package (built by scripts/build-wasm.sh into web/wasm-pkg) in a worker:
// the interactive engine worker (worker.ts) and the pool's batch workers (batchWorker.ts).

import type { RowSimulation, TracingSimulation } from '../contract/engine';

// Globs, not imports, so that the app still builds before the wasm package exists.
const wasmJs = import.meta.glob('../../wasm-pkg/abr_wasm.js');
const wasmUrl = import.meta.glob<string>('../../wasm-pkg/abr_wasm_bg.wasm', { query: '?url', import: 'default' });

/** What the workers use of the wasm-bindgen package. */
export interface WasmPackage {
  default(opts: { module_or_path: string | URL }): Promise<unknown>;
  catalogue(): string;
  validateScenario(json: string): string;
  sweepPlan(json: string): string;
  sweepScenario(json: string, index: number): string;
  applyVariant(json: string, sets: string): string;
  Simulation: new (json: string) => RowSimulation & TracingSimulation;
}

/** The package, instantiated; throws with the reason when it was not built with this app. */
export async function loadWasmPackage(): Promise<WasmPackage> {
  const js = Object.values(wasmJs)[0];
  const url = Object.values(wasmUrl)[0];
  if (!js || !url) throw new Error('the wasm engine was not built with this app (run scripts/build-wasm.sh, then rebuild)');
  const pkg = (await js()) as WasmPackage;
  await pkg.default({ module_or_path: await url() });
  return pkg;
}
