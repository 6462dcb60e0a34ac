import { describe, expect, it } from 'vitest';
import type { PlanInfo } from '../contract/engine';
import { readFileSync } from 'node:fs';
import { repoFile } from '../test/fakes';
import { WASM_ENGINE } from '../test/wasmEngine';
import { meanCi, parseRow, pointTable, runOf, sweepCsv, tableMetrics, type RunOutcome } from './sweepTable';

const plan: PlanInfo = {
  runs: 8,
  points: 4,
  seeds: 2,
  params: [
    { column: 'qeq', values: [150000, 24000] },
    { column: 'delay', values: [16, 200] },
  ],
  metrics: ['dropped_cells'],
  header: ['qeq', 'delay', 'seed', 'jain_index', 'dropped_cells', 'digest'],
  seed_param: null,
    notes: [],
};

const ok = (jain: string, dropped: number): RunOutcome => ({
  ok: true,
  cells: parseRow(`[["jain_index",${jain}],["dropped_cells",${dropped}],["digest","ab,c"]]`),
  digest: 'x',
  wallMs: 1,
});

describe('sweep tables', () => {
  it('keeps every value as the engine wrote it', () => {
    const cells = parseRow('[["jain_index",1.0],["x",-2.5e-8],["goodput_mbps",null],["digest","0f\\"e"]]');
    expect(cells.map((c) => c.raw)).toEqual(['1.0', '-2.5e-8', 'null', '"0f\\"e"']);
    expect(cells.map((c) => c.value)).toEqual([1, -2.5e-8, null, '0f"e']);
  });

  it('orders runs as abrsim sweep does: seeds fastest, the first parameter slowest', () => {
    expect([0, 1, 2, 3, 7].map((i) => runOf(plan, i, 5))).toEqual([
      { values: [150000, 16], at: [0, 0], seed: 5, point: 0 },
      { values: [150000, 16], at: [0, 0], seed: 6, point: 0 },
      { values: [150000, 200], at: [0, 1], seed: 5, point: 1 },
      { values: [150000, 200], at: [0, 1], seed: 6, point: 1 },
      { values: [24000, 200], at: [1, 1], seed: 6, point: 3 },
    ]);
  });

  it('gives each run the seed the engine runs it with, a varied run.seed included', () => {
    const doc = JSON.parse(readFileSync(repoFile('scenarios/two-sources.json'), 'utf8'));
    doc.run.seed = 5;
    for (const vary of [
      [{ paths: ['nodes.SW1.params.target_utilization'], values: [0.8, 0.9] }],
      [
        { name: 'u', paths: ['nodes.SW1.params.target_utilization'], values: [0.8, 0.9] },
        { name: 'first seed', paths: ['run.seed'], values: [11, 40] },
      ],
    ]) {
      const json = JSON.stringify({ ...doc, sweep: { vary, seeds: 3 } });
      const info = JSON.parse(WASM_ENGINE.sweepPlan(json)).plan as PlanInfo;
      expect(info.seed_param).toBe(vary.length === 2 ? 1 : null);
      for (let i = 0; i < info.runs; i++) {
        const engineSeed = JSON.parse(WASM_ENGINE.sweepScenario(json, i)).run.seed;
        expect(runOf(info, i, 5).seed, `run ${i}`).toBe(engineSeed);
      }
      if (vary.length === 2) expect([0, 1, 2, 3].map((i) => runOf(info, i, 5).seed)).toEqual([11, 12, 13, 40]);
    }
  });

  it('gives the mean and the t-based 95 % interval over seeds', () => {
    expect(meanCi([])).toEqual({ mean: null, ci: null, n: 0 });
    expect(meanCi([4])).toEqual({ mean: 4, ci: null, n: 1 });
    const { mean, ci } = meanCi([1, 2, 3]);
    expect(mean).toBe(2);
    expect(ci).toBeCloseTo((4.303 * 1) / Math.sqrt(3), 10);
  });

  it('tabulates each point as its seeds finish, the failed ones said', () => {
    const outcomes: (RunOutcome | undefined)[] = [ok('1.0', 10), ok('0.5', 20), { ok: false, error: 'boom' }, undefined];
    const rows = pointTable(plan, outcomes, 1);
    expect(rows).toHaveLength(4);
    expect(rows[0].stats).toEqual([{ metric: 'dropped_cells', mean: 15, ci: (12.706 * Math.sqrt(50)) / Math.sqrt(2), n: 2 }]);
    expect(rows[1]).toMatchObject({ values: [150000, 200], finished: 1, errors: ['seed 1: boom'] });
    expect(rows[1].stats[0].mean).toBeNull();
    expect(rows[3].finished).toBe(0);
    expect(tableMetrics({ ...plan, metrics: [] })).toEqual(['jain_index']);
  });

  it('writes the runs as abrsim sweep --format csv: its columns, its numbers, the reason of a failure', () => {
    const csv = sweepCsv(plan, [ok('1.0', 10), undefined, { ok: false, error: 'out of range, said "x"' }], 1);
    expect(csv).toBe(['qeq,delay,seed,jain_index,dropped_cells,digest', '150000,16,1,1.0,10,"ab,c"', '150000,200,1,,,"error: out of range, said ""x"""', ''].join('\n'));
  });

  it("writes a plan's values as the engine wrote them (its texts: 200.0 stays 200.0), else as JavaScript does", () => {
    const two: PlanInfo = { ...plan, runs: 2, points: 2, seeds: 1, seed_param: null, params: [{ column: 'n0', values: [1, 200], texts: ['1.0', '200.0'] }], header: ['n0', 'seed', 'digest'] };
    const row = { ok: true as const, cells: parseRow('[["digest","d"]]'), digest: 'd', wallMs: 1 };
    expect(sweepCsv(two, [row, row], 1)).toBe('n0,seed,digest\n1.0,1,d\n200.0,1,d\n');
    const bare = { ...two, params: [{ column: 'n0', values: [1, 200] }] };
    expect(sweepCsv(bare, [row, row], 1)).toBe('n0,seed,digest\n1,1,d\n200,1,d\n');
    // A string with a comma is quoted, as abrsim's csv_field does.
    const names = { ...two, params: [{ column: 'algorithm', values: ['a,b', 'c'], texts: ['a,b', 'c'] }] };
    expect(sweepCsv(names, [row, row], 1)).toBe('n0,seed,digest\n"a,b",1,d\nc,1,d\n');
  });

});
