import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { BatchEngine } from '../contract/engine';
import { repoFile } from '../test/fakes';
import { InProcessBatchWorker, WASM_ENGINE } from '../test/wasmEngine';
import type { JobAnswer } from './batchProtocol';
import { JobFailed, poolSize, WorkerPool } from './pool';

/** The FECN N0 sweep, cut to 20 ms so that a run takes a few milliseconds. */
function shortSweep(): string {
  const doc = JSON.parse(readFileSync(repoFile('scenarios/fecn-n0-sweep.json'), 'utf8'));
  doc.run.duration_ms = 20;
  doc.run.steady_from_ms = 10;
  return JSON.stringify(doc);
}

function setup(size: number, engine: BatchEngine = WASM_ENGINE) {
  const workers: InProcessBatchWorker[] = [];
  const pool = new WorkerPool(() => {
    const w = new InProcessBatchWorker(engine);
    workers.push(w);
    return w;
  }, size);
  const pump = async () => {
    for (let i = 0; i < 20; i++) {
      for (const w of workers) w.pump();
      await Promise.resolve();
    }
  };
  return { pool, workers, pump };
}

const settle = <T>(p: Promise<T>) => p.then((v) => ({ ok: true as const, v }), (e: JobFailed) => ({ ok: false as const, e }));

describe('WorkerPool', () => {
  it('sizes itself one worker per core but one, at least one', () => {
    expect(poolSize(8)).toBe(7);
    expect(poolSize(2)).toBe(1);
    expect(poolSize(1)).toBe(1);
    expect(poolSize(undefined)).toBe(1);
  });

  it("runs a sweep's runs in its workers: the rows and digests of the same runs made directly", async () => {
    const { pool, workers, pump } = setup(2);
    const sweep = shortSweep();
    const jobs = [0, 1, 2].map((index) => settle(pool.submit({ type: 'run', scenario: sweep, index })));
    expect(workers).toHaveLength(2); // two at a time; the third waits for a free worker
    expect(pool.pending).toBe(3);
    await pump();
    const results = await Promise.all(jobs);
    expect(workers).toHaveLength(2);
    for (const [i, r] of results.entries()) {
      expect(r.ok).toBe(true);
      const answer = (r as { v: JobAnswer }).v;
      if (answer.type !== 'run') throw new Error('not a run');
      const sim = WASM_ENGINE.createSimulation(WASM_ENGINE.sweepScenario(sweep, i));
      while (!sim.done()) sim.advance(sim.endMs(), 1e6);
      expect(answer.row).toBe(sim.summaryRow());
      expect(answer.digest).toBe(sim.digest());
      sim.free();
    }
    expect(pool.pending).toBe(0);
  });

  it("shares its workers between lanes, and a lane's cancel stops only that lane's jobs", async () => {
    const { pool, workers, pump } = setup(2);
    const sweep = shortSweep();
    const [a, b] = [pool.lane(), pool.lane()];
    const ja = settle(a.submit({ type: 'run', scenario: sweep, index: 0 }));
    const jb = settle(b.submit({ type: 'run', scenario: sweep, index: 1 }));
    const jb2 = settle(b.submit({ type: 'run', scenario: sweep, index: 2 }));
    expect(workers).toHaveLength(2); // one pool: never more workers than its size
    a.cancel('a new comparison started');
    const ra = await ja;
    expect(ra.ok).toBe(false);
    expect((ra as { e: JobFailed }).e.cancelled).toBe(true);
    // The freed slot goes to lane b's waiting job in a fresh worker; b's running job goes on.
    expect(workers).toHaveLength(3);
    expect(workers.filter((w) => w.terminated)).toHaveLength(1);
    await pump();
    const [rb, rb2] = await Promise.all([jb, jb2]);
    expect(rb.ok && rb2.ok).toBe(true);
    expect(pool.pending).toBe(0);
  });

  it('cancels running and waiting jobs at once, and runs the next job in a fresh worker', async () => {
    const { pool, workers, pump } = setup(1);
    const sweep = shortSweep();
    const a = settle(pool.submit({ type: 'run', scenario: sweep, index: 0 }));
    const b = settle(pool.submit({ type: 'run', scenario: sweep, index: 1 }));
    pool.cancel();
    const [ra, rb] = await Promise.all([a, b]);
    expect(ra.ok || rb.ok).toBe(false);
    expect((ra as { e: JobFailed }).e.cancelled).toBe(true);
    expect((rb as { e: JobFailed }).e.cancelled).toBe(true);
    expect(workers[0].terminated).toBe(true);
    const c = settle(pool.submit({ type: 'plan', scenario: sweep }));
    expect(workers).toHaveLength(2);
    await pump();
    const rc = await c;
    expect(rc.ok && rc.v.type === 'plan' && JSON.parse(rc.v.json).plan.runs).toBe(3);
  });

  it('a run whose engine panics fails with the reason; its worker is replaced and the others go on', async () => {
    let calls = 0;
    const panicky: BatchEngine = {
      ...WASM_ENGINE,
      createSimulation: (json) => {
        if (calls++ === 0) throw new WebAssembly.RuntimeError('unreachable');
        return WASM_ENGINE.createSimulation(json);
      },
    };
    const { pool, workers, pump } = setup(1, panicky);
    const sweep = shortSweep();
    const a = settle(pool.submit({ type: 'run', scenario: sweep, index: 0 }));
    const b = settle(pool.submit({ type: 'run', scenario: sweep, index: 1 }));
    await pump();
    const [ra, rb] = await Promise.all([a, b]);
    expect(ra.ok).toBe(false);
    expect((ra as { e: JobFailed }).e.message).toMatch(/unreachable/);
    expect((ra as { e: JobFailed }).e.cancelled).toBe(false);
    expect(rb.ok).toBe(true);
    expect(workers).toHaveLength(2);
    expect(workers[0].terminated).toBe(true);
    expect(pool.restarts).toBe(1);
  });

  it('a bad run index or an invalid scenario fails with the engine\'s words, and the worker stays', async () => {
    const { pool, workers, pump } = setup(1);
    const a = settle(pool.submit({ type: 'run', scenario: shortSweep(), index: 3 }));
    const bad = JSON.parse(shortSweep());
    bad.nodes[0].params.n0 = -5;
    delete bad.sweep;
    const b = settle(pool.submit({ type: 'run', scenario: JSON.stringify(bad) }));
    await pump();
    const [ra, rb] = await Promise.all([a, b]);
    expect(!ra.ok && ra.e.message).toMatch(/outside the sweep's 3 runs/);
    expect(!rb.ok && rb.e.message).toMatch(/nodes\[0\] \(SW1\)\.params\.n0/);
    expect(workers).toHaveLength(1);
    expect(workers[0].terminated).toBe(false);
  });
});
