/// <reference lib="webworker" />
// A batch worker of the pool (pool.ts): loads the wasm engine and runs jobs (BatchCore) one at a
// time, each to its end. See worker.ts for the interactive engine worker.

import type { BatchEngine } from '../contract/engine';
import { BatchCore } from './batchCore';
import { loadWasmPackage } from './wasmPackage';
import type { FromBatch, ToBatch } from './batchProtocol';

declare const self: DedicatedWorkerGlobalScope;

async function loadWasm(): Promise<BatchEngine> {
  const pkg = await loadWasmPackage();
  return {
    sweepPlan: (json) => pkg.sweepPlan(json),
    sweepScenario: (json, i) => pkg.sweepScenario(json, i),
    applyVariant: (json, sets) => pkg.applyVariant(json, sets),
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
