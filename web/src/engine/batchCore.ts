// The batch worker's logic, free of Worker globals (tested in Vitest with the real wasm build):
// each job runs to its end at once. A batch worker does nothing else, so a long run blocks only
// itself; cancelling a sweep terminates the workers.

import type { BatchEngine, Problem, SeriesMeta } from '../contract/engine';
import { problemLine } from '../contract/problem';
import { MAX_SAMPLE_VALUES, type BatchJob, type FromBatch, type JobAnswer } from './batchProtocol';
import { SampleStore } from './sampleStore';

/** Events per call into the engine (design.md: advance wasm in calls of ~10^5 events). */
const SLICE_EVENTS = 200_000;

export class BatchCore {
  private crashed = false;

  constructor(
    private readonly engine: BatchEngine,
    private readonly post: (msg: FromBatch) => void,
    private readonly now: () => number = () => performance.now(),
    /** Sample values a run sends back before they go into min/max buckets (tests make it small). */
    private readonly sampleBudget = MAX_SAMPLE_VALUES,
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
      case 'variant': {
        const { scenario, notes } = JSON.parse(this.engine.applyVariant(job.scenario, JSON.stringify(job.sets))) as { scenario: string; notes: string[] };
        return { type: 'variant', json: scenario, notes };
      }
      case 'run': {
        const json = job.index === undefined ? job.scenario : this.engine.sweepScenario(job.scenario, job.index);
        const problems = JSON.parse(this.engine.validateScenario(json)) as Problem[];
        if (problems.length) throw new Error(problems.map(problemLine).join('; '));
        const started = this.now();
        const sim = this.engine.createSimulation(json);
        try {
          const end = sim.endMs();
          // Kept only when asked for (a compare variant's charts): every row within the budget,
          // min/max buckets past it, as the lab's own store keeps them.
          const meta = job.samples ? sim.seriesMeta() : '';
          const store = job.samples ? new SampleStore(1024, this.sampleBudget * 8) : null;
          store?.reset(JSON.parse(meta) as SeriesMeta[]);
          while (!sim.done()) {
            sim.advance(end, SLICE_EVENTS);
            const rows = sim.takeSamples(); // the engine keeps what the summary needs
            if (store && rows.length) store.append(rows, store.meta.length + 1);
          }
          const answer: JobAnswer = { type: 'run', row: sim.summaryRow(), digest: sim.digest(), events: sim.eventsProcessed(), wallMs: this.now() - started };
          if (store) answer.samples = { meta, rows: store.rowMajor(), perBucket: store.samplesPerBucket };
          return answer;
        } finally {
          sim.free();
        }
      }
    }
  }
}
