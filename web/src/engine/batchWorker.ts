/// <reference lib="webworker" />
// A batch worker of the pool (pool.ts): loads the wasm engine and runs jobs (BatchCore) one at a
// time, each to its end. See worker.ts for the interactive engine worker.

import type { BatchEngine, RowSimulation } from '../contract/engine';
import { BatchCore } from './batchCore';
import type { FromBatch, ToBatch } from './batchProtocol';

declare const self: DedicatedWorkerGlobalScope;

// Globs, not imports, so that the app still builds before the wasm package exists.
const wasmJs = import.meta.glob('../../wasm-pkg/abr_wasm.js');
const wasmUrl = import.meta.glob<string>('../../wasm-pkg/abr_wasm_bg.wasm', { query: '?url', import: 'default' });

interface WasmPackage {
  default(opts: { module_or_path: string | URL }): Promise<unknown>;
  validateScenario(json: string): string;
  sweepPlan(json: string): string;
  sweepScenario(json: string, index: number): string;
  Simulation: new (json: string) => RowSimulation;
}

async function loadWasm(): Promise<BatchEngine> {
  const js = Object.values(wasmJs)[0];
  const url = Object.values(wasmUrl)[0];
  if (!js || !url) throw new Error('the wasm engine was not built with this app (run scripts/build-wasm.sh, then rebuild)');
  const pkg = (await js()) as WasmPackage;
  await pkg.default({ module_or_path: await url() });
  return {
    sweepPlan: (json) => pkg.sweepPlan(json),
    sweepScenario: (json, i) => pkg.sweepScenario(json, i),
    validateScenario: (json) => pkg.validateScenario(json),
    createSimulation: (json) => new pkg.Simulation(json),
  };
}

// A run's samples are transferred, not copied.
const post = (msg: FromBatch) => {
  const rows = msg.type === 'done' && msg.answer.type === 'run' ? msg.answer.samples?.rows : undefined;
  self.postMessage(msg, rows ? [rows.buffer] : []);
};
let core: BatchCore | null = null;
const queued: ToBatch[] = [];

self.onmessage = (ev: MessageEvent<ToBatch>) => {
  const msg = ev.data;
  if (msg.type === 'init') {
    loadWasm().then(
      (engine) => {
        core = new BatchCore(engine, post);
        post({ type: 'ready' });
        for (const m of queued.splice(0)) if (m.type === 'job') core.handle(m.id, m.job);
      },
      (e) => post({ type: 'unavailable', message: (e as Error).message || String(e) }),
    );
  } else if (core) core.handle(msg.id, msg.job);
  else queued.push(msg);
};
