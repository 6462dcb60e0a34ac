// The real engine (web/wasm-pkg) for unit tests that need real runs — the batch worker's core,
// the pool and sweeps — as a BatchEngine, and an in-process batch worker around it; and as the
// interactive worker's EngineModule (the RM-cell trace and explain, which the fake lacks).

import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { BatchEngine, EngineModule, RowSimulation, TracingSimulation } from '../contract/engine';
import { BatchCore } from '../engine/batchCore';
import type { FromBatch, ToBatch } from '../engine/batchProtocol';
import { WorkerPool, type BatchWorkerLike } from '../engine/pool';
import { repoFile } from './fakes';
import './engineCatalogue'; // fails with a clear message when the wasm build is missing

const pkg = (await import(/* @vite-ignore */ pathToFileURL(repoFile('web/wasm-pkg/abr_wasm.js')).href)) as {
  initSync(opts: { module: BufferSource }): unknown;
  catalogue(): string;
  validateScenario(json: string): string;
  sweepPlan(json: string): string;
  sweepScenario(json: string, index: number): string;
  applyVariant(json: string, sets: string): string;
  Simulation: new (json: string) => RowSimulation & TracingSimulation;
};
pkg.initSync({ module: readFileSync(repoFile('web/wasm-pkg/abr_wasm_bg.wasm')) });

export const WASM_ENGINE: BatchEngine = {
  sweepPlan: (json) => pkg.sweepPlan(json),
  sweepScenario: (json, i) => pkg.sweepScenario(json, i),
  applyVariant: (json, sets) => pkg.applyVariant(json, sets),
  validateScenario: (json) => pkg.validateScenario(json),
  createSimulation: (json) => new pkg.Simulation(json),
};

export const WASM_INTERACTIVE: EngineModule = {
  kind: 'wasm',
  catalogue: () => pkg.catalogue(),
  validateScenario: (json) => pkg.validateScenario(json),
  sweepPlan: (json) => pkg.sweepPlan(json),
  createSimulation: (json) => new pkg.Simulation(json),
};

/**
 * A batch worker in the test's own thread: messages are handled when the test calls pump() (or
 * at once, with `auto`), so a test decides what is running when it cancels.
 */
export class InProcessBatchWorker implements BatchWorkerLike {
  onmessage: ((ev: MessageEvent<FromBatch>) => void) | null = null;
  onerror: ((ev: ErrorEvent) => void) | null = null;
  terminated = false;
  inbox: ToBatch[] = [];
  private core: BatchCore | null = null;

  constructor(
    private readonly engine: BatchEngine = WASM_ENGINE,
    private readonly auto = false,
  ) {}

  postMessage(msg: ToBatch) {
    if (this.terminated) return;
    this.inbox.push(msg);
    if (this.auto) queueMicrotask(() => this.pump());
  }
  terminate() {
    this.terminated = true;
  }
  /** Handles every message received so far. */
  pump() {
    for (const msg of this.inbox.splice(0)) {
      if (this.terminated) return;
      if (msg.type === 'init') {
        this.core = new BatchCore(this.engine, (m) => !this.terminated && this.onmessage?.({ data: m } as MessageEvent<FromBatch>));
        this.onmessage?.({ data: { type: 'ready' } } as MessageEvent<FromBatch>);
      } else this.core?.handle(msg.id, msg.job);
    }
  }
}

/** A pool of one in-process batch worker that works only when the test pumps it (`workers`:
 *  each worker the pool made, the newest last). */
export function pumpedPool(): { pool: WorkerPool; workers: InProcessBatchWorker[] } {
  const workers: InProcessBatchWorker[] = [];
  const pool = new WorkerPool(() => {
    const w = new InProcessBatchWorker(WASM_ENGINE);
    workers.push(w);
    return w;
  }, 1);
  return { pool, workers };
}
