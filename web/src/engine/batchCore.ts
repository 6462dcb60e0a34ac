// The batch worker's logic, free of Worker globals (tested in Vitest with the real wasm build):
// each job runs to its end at once. A batch worker does nothing else, so a long run blocks only
// itself; cancelling a sweep terminates the workers.

import type { BatchEngine } from '../contract/engine';
import { MAX_SAMPLE_VALUES, type BatchJob, type FromBatch, type JobAnswer } from './batchProtocol';

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
      case 'variant':
        return { type: 'variant', json: this.engine.applyVariant(job.scenario, JSON.stringify(job.sets)) };
      case 'run': {
        const json = job.index === undefined ? job.scenario : this.engine.sweepScenario(job.scenario, job.index);
        const problems = JSON.parse(this.engine.validateScenario(json)) as { path: string; rule: string }[];
        if (problems.length) throw new Error(problems.map((p) => (p.path ? `${p.path}: ${p.rule}` : p.rule)).join('; '));
        const started = this.now();
        const sim = this.engine.createSimulation(json);
        try {
          const end = sim.endMs();
          // Kept only when asked for (a compare variant's charts), and only up to a budget.
          let chunks: Float64Array[] | null = job.samples ? [] : null;
          let kept = 0;
          while (!sim.done()) {
            sim.advance(end, SLICE_EVENTS);
            const rows = sim.takeSamples(); // the engine keeps what the summary needs
            if (chunks && rows.length) {
              kept += rows.length;
              if (kept > MAX_SAMPLE_VALUES) chunks = null;
              else chunks.push(rows);
            }
          }
          const answer: JobAnswer = { type: 'run', row: sim.summaryRow(), digest: sim.digest(), events: sim.eventsProcessed(), wallMs: this.now() - started };
          if (chunks) {
            const rows = new Float64Array(kept);
            let at = 0;
            for (const c of chunks) {
              rows.set(c, at);
              at += c.length;
            }
            answer.samples = { meta: sim.seriesMeta(), rows };
          } else if (job.samples) answer.samplesDropped = true;
          return answer;
        } finally {
          sim.free();
        }
      }
    }
  }
}
