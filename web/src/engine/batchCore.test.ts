import { describe, expect, it } from 'vitest';
import { twoSources } from '../test/fakes';
import { WASM_ENGINE } from '../test/wasmEngine';
import { BatchCore } from './batchCore';
import type { FromBatch, RunResult } from './batchProtocol';

/** Runs `scenario` to its end in a BatchCore with `budget` sample values; its answer. */
function run(scenario: string, budget?: number): RunResult {
  const posted: FromBatch[] = [];
  new BatchCore(WASM_ENGINE, (m) => posted.push(m), undefined, budget).handle(1, { type: 'run', scenario, samples: true });
  const msg = posted[0];
  if (msg.type !== 'done' || msg.answer.type !== 'run') throw new Error(`no run: ${JSON.stringify(msg)}`);
  return msg.answer;
}

describe('BatchCore: a compare variant’s samples', () => {
  // two-sources for 1 s: 2,001 rows, every 500 µs.
  const scenario = JSON.stringify({ ...JSON.parse(twoSources()), run: { ...JSON.parse(twoSources()).run, duration_ms: 1000 } });

  it('past the budget come back as min/max buckets over the whole run, with every peak, instead of not at all', () => {
    const full = run(scenario);
    const meta = JSON.parse(full.samples!.meta) as { id: string }[];
    const width = meta.length + 1;
    const all = full.samples!.rows;
    expect(all.length / width).toBe(2001);

    // A budget of 300 rows: the 2,001 samples go into min/max buckets, two rows each.
    const small = run(scenario, 300 * width);
    expect(small.digest).toBe(full.digest);
    const kept = small.samples!.rows;
    const rows = kept.length / width;
    // It says how many samples each pair of rows stands for: together, the whole run.
    expect(full.samples!.perBucket).toBe(1);
    const per = small.samples!.perBucket;
    expect(per).toBeGreaterThan(1);
    expect((rows / 2) * per).toBeGreaterThanOrEqual(2001);
    expect((rows / 2 - 1) * per).toBeLessThan(2001);
    expect(rows).toBeLessThanOrEqual(Math.max(256, 300));
    expect(rows).toBeGreaterThan(100);
    // The run's first and last sample times are still there.
    expect(kept[0]).toBe(all[0]);
    expect(kept[(rows - 1) * width]).toBe(all[(2001 - 1) * width]);
    // Every series keeps its highest and lowest value (a queue's peak is never averaged away).
    for (let c = 1; c < width; c++) {
      const column = (r: Float64Array, n: number) => Array.from({ length: n }, (_, i) => r[i * width + c]).filter(Number.isFinite);
      const a = column(all, 2001);
      const b = column(kept, rows);
      expect(Math.max(...b), meta[c - 1].id).toBe(Math.max(...a));
      expect(Math.min(...b), meta[c - 1].id).toBe(Math.min(...a));
    }
  });
});
