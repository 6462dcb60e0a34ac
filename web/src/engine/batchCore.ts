// The batch worker's logic, free of Worker globals (tested in Vitest with the real wasm build):
// each job runs to its end at once. A batch worker does nothing else, so a long run blocks only
// itself; cancelling a sweep terminates the workers.

import type { BatchEngine } from '../contract/engine';
import type { BatchJob, FromBatch, JobAnswer } from './batchProtocol';

/** Events per call into the engine (design.md: advance wasm in calls of ~10^5 events). */
const SLICE_EVENTS = 200_000;

export class BatchCore {
  private crashed = false;

  constructor(
    private readonly engine: BatchEngine,
    private readonly post: (msg: FromBatch) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  handle(id: number, job: BatchJob) {
    if (this.crashed) {
      this.post({ type: 'failed', id, message: 'the engine in this worker has crashed', crashed: true });
      return;
    }
    let answer: JobAnswer;
    try {
      answer = this.do(job);
    } catch (e) {
      const err = e as Error;
      const message = err && err.message ? err.message : String(e);
      // A Rust panic reaches JS as a RuntimeError ("unreachable"): the instance is poisoned.
      this.crashed = err instanceof WebAssembly.RuntimeError || /unreachable/.test(message);
      this.post({ type: 'failed', id, message, crashed: this.crashed });
      return;
    }
    this.post({ type: 'done', id, answer });
  }

  private do(job: BatchJob): JobAnswer {
    switch (job.type) {
      case 'plan':
        return { type: 'plan', json: this.engine.sweepPlan(job.scenario) };
      case 'scenario':
        return { type: 'scenario', json: this.engine.sweepScenario(job.sweep, job.index) };
      case 'run': {
        const json = job.index === undefined ? job.scenario : this.engine.sweepScenario(job.scenario, job.index);
        const problems = JSON.parse(this.engine.validateScenario(json)) as { path: string; rule: string }[];
        if (problems.length) throw new Error(problems.map((p) => (p.path ? `${p.path}: ${p.rule}` : p.rule)).join('; '));
        const started = this.now();
        const sim = this.engine.createSimulation(json);
        try {
          const end = sim.endMs();
          while (!sim.done()) {
            sim.advance(end, SLICE_EVENTS);
            sim.takeSamples(); // the rows stay in the engine for the summary; nothing to ship
          }
          return { type: 'run', row: sim.summaryRow(), digest: sim.digest(), events: sim.eventsProcessed(), wallMs: this.now() - started };
        } finally {
          sim.free();
        }
      }
    }
  }
}
