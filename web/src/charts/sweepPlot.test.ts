import { describe, expect, it } from 'vitest';
import type { PlanInfo } from '../contract/engine';
import type { PointRow } from '../lab/sweepTable';
import { metricScale, metricTitle, SWEEP_PLOT, sweepPlot, valueText } from './sweepPlot';

const row = (point: number, values: (number | string)[], mean: number | null, ci: number | null = null): PointRow => ({
  point,
  values,
  runs: [point],
  finished: 1,
  errors: [],
  stats: [{ metric: 'dropped_cells', mean, ci, n: mean === null ? 0 : 1 }],
});

describe('sweep plot', () => {
  it('puts the first parameter on x (log when it spans two decades) and one line per value of the second', () => {
    const plan: PlanInfo = {
      runs: 6,
      points: 6,
      seeds: 1,
      params: [
        { column: 'n0', values: [1, 10, 200] },
        { column: 'qeq', values: ['a', 'b'] },
      ],
      metrics: ['dropped_cells'],
      header: [],
      seed_param: null,
    notes: [],
    };
    const rows = [row(0, [1, 'a'], 100), row(1, [1, 'b'], 50), row(2, [10, 'a'], 10, 5), row(3, [10, 'b'], 0), row(4, [200, 'a'], null), row(5, [200, 'b'], 0)];
    const p = sweepPlot(plan, rows, 0);
    expect(p.log).toBe(true);
    expect(p.xLabel).toBe('n0 (log scale)');
    expect(p.lines.map((l) => l.label)).toEqual(['qeq = a', 'qeq = b']);
    expect(p.lines[0].points.map((q) => q.point)).toEqual([0, 2]); // no value yet at 200
    const [x1, x10, x200] = p.xTicks.map((t) => t.x);
    expect(x10 - x1).toBeCloseTo(((x200 - x1) * 1) / Math.log10(200), 6);
    // Higher values higher up; the interval around its mean.
    const [a1, a10] = p.lines[0].points;
    expect(a1.y).toBeLessThan(a10.y);
    expect(a10.lo! - a10.y).toBeCloseTo(a10.y - a10.hi!, 6);
    expect(p.plot.bottom).toBe(SWEEP_PLOT.height - SWEEP_PLOT.bottom);
    for (const q of p.lines.flatMap((l) => l.points)) expect(q.y).toBeGreaterThanOrEqual(p.plot.top);
  });

  it('spaces values that are not numbers evenly', () => {
    const plan: PlanInfo = { runs: 2, points: 2, seeds: 1, params: [{ column: 'algorithm', values: ['erica', 'erica_plus'] }], metrics: [], header: [], seed_param: null, notes: [] };
    const p = sweepPlot(plan, [row(0, ['erica'], 1), row(1, ['erica_plus'], 2)], 0);
    expect(p.log).toBe(false);
    expect(p.xTicks.map((t) => t.label)).toEqual(['erica', 'erica_plus']);
    expect(p.xTicks[0].x).toBeLessThan(p.xTicks[1].x);
    expect(p.lines).toHaveLength(1);
    expect(p.xTicksSlanted).toBe(false);
  });

  it('draws categorical values (algorithms) as unjoined points at evenly spaced positions, with their names', () => {
    const ids = ['erica', 'erica_plus', 'debra'];
    const plan: PlanInfo = { runs: 3, points: 3, seeds: 1, params: [{ column: 'algorithm', values: ids }], metrics: [], header: [], seed_param: null, notes: [] };
    const names = { erica: 'ERICA', erica_plus: 'ERICA+', debra: 'DEBRA', ut: 'Uniform Tracking' };
    const p = sweepPlot(plan, ids.map((a, i) => row(i, [a], 10 * i)), 0, { names });
    expect(p.categorical).toBe(true);
    expect(p.lines.every((l) => !l.joined)).toBe(true);
    expect(p.xTicks.map((t) => [t.label, t.value])).toEqual([['ERICA', 'erica'], ['ERICA+', 'erica_plus'], ['DEBRA', 'debra']]);
    const [a, b, c] = p.xTicks.map((t) => t.x);
    expect(b - a).toBeCloseTo(c - b, 9);
    // Each in the middle of its band: as far from the plot's edges as half a step.
    expect(a - p.plot.left).toBeCloseTo((b - a) / 2, 9);
    expect(p.plot.right - c).toBeCloseTo((b - a) / 2, 9);
    expect(p.lines[0].points.map((q) => q.x)).toEqual([a, b, c]);
    // Numbers stay a joined line; a value without a name keeps its id.
    const n = sweepPlot({ ...plan, params: [{ column: 'n0', values: [1, 2, 3] }] }, [1, 2, 3].map((v, i) => row(i, [v], v)), 0, { names });
    expect(n.categorical).toBe(false);
    expect(n.lines[0].joined).toBe(true);
    const other = sweepPlot({ ...plan, params: [{ column: 'algorithm', values: ['erica', 'new_one'] }] }, [row(0, ['erica'], 1), row(1, ['new_one'], 2)], 0, { names });
    expect(other.xTicks.map((t) => t.label)).toEqual(['erica', 'new_one']);
  });

  it('sets the lines of a categorical plot a little apart, so that equal values stay visible', () => {
    const plan: PlanInfo = {
      runs: 4, points: 4, seeds: 1,
      params: [{ column: 'algorithm', values: ['erica', 'debra'] }, { column: 'delay', values: [1, 2] }],
      metrics: [], header: [], seed_param: null, notes: [],
    };
    const p = sweepPlot(plan, [row(0, ['erica', 1], 1), row(1, ['erica', 2], 1), row(2, ['debra', 1], 1), row(3, ['debra', 2], 1)], 0);
    const [first, second] = p.lines;
    expect(first.points[0].x).toBeLessThan(p.xTicks[0].x);
    expect(second.points[0].x).toBeGreaterThan(p.xTicks[0].x);
    expect(first.points[0].x + second.points[0].x).toBeCloseTo(2 * p.xTicks[0].x, 9);
  });

  it('says which line lies on an earlier one (it would hide it), and only that one', () => {
    const plan: PlanInfo = {
      runs: 9, points: 9, seeds: 1,
      params: [{ column: 'delay', values: [1, 2, 3] }, { column: 'qeq', values: ['a', 'b', 'c'] }],
      metrics: [], header: [], seed_param: null, notes: [],
    };
    // b's values are a's; c's differ at the last delay only.
    const rows = [1, 2, 3].flatMap((d, i) => [
      row(3 * i, [d, 'a'], 10 * d),
      row(3 * i + 1, [d, 'b'], 10 * d),
      row(3 * i + 2, [d, 'c'], d === 3 ? 31 : 10 * d),
    ]);
    const p = sweepPlot(plan, rows, 0);
    expect(p.lines.map((l) => l.sameAs)).toEqual([null, 'qeq = a', null]);
  });

  it('slants labels that would overlap side by side, and leaves room for them below the plot', () => {
    const ids = ['erica', 'erica_plus', 'debra', 'series_d', 'ut', 'eprca', 'efci'];
    const plan: PlanInfo = { runs: 7, points: 7, seeds: 1, params: [{ column: 'algorithm', values: ids }], metrics: [], header: [], seed_param: null, notes: [] };
    const p = sweepPlot(plan, ids.map((a, i) => row(i, [a], i)), 0);
    expect(p.xTicksSlanted).toBe(true);
    expect(p.plot.bottom).toBeLessThan(SWEEP_PLOT.height - SWEEP_PLOT.bottom);
    // The longest label, slanted at 30°, fits between the plot and the axis title.
    expect(p.plot.bottom + 'erica_plus'.length * 6.2 * 0.5).toBeLessThanOrEqual(SWEEP_PLOT.height - 12);
  });
});

describe('sweep metrics in words', () => {
  it('names the totals and the per-element fields with their units, frames on Ethernet', () => {
    expect(metricTitle('jain_index')).toBe("Jain's index");
    expect(metricTitle('dropped_cells', 'frames')).toBe('frames dropped');
    expect(metricTitle('max_queue_cells', 'frames')).toBe('largest queue (frames)');
    expect(metricTitle('max_queue_cells')).toBe('largest queue (cells)');
    expect(metricTitle('conn.F1.mean_rate_mbps')).toBe('F1 mean rate (Mbps)');
    expect(metricTitle('port.SW1->SW2.mean_queue_cells', 'frames')).toBe('SW1->SW2 mean queue (frames)');
    expect(metricTitle('something_new')).toBe('something_new');
  });

  // QA: vpc-ubr-buffer-sweep's table and plot were headed "jain_among_virtual_paths", its axis
  // running to 1.2 beside Jain's index ending at 1.
  it("names Jain's index among virtual paths, and ends its axis at 1 as every fraction of 1", () => {
    expect(metricTitle('jain_among_virtual_paths')).toBe("Jain's index among virtual paths");
    for (const metric of ['jain_among_virtual_paths', 'on_target_fraction', 'conn.F1.loss_ratio']) {
      const plan: PlanInfo = { runs: 2, points: 2, seeds: 1, params: [{ column: 'n0', values: [1, 10] }], metrics: [metric], header: [], seed_param: null, notes: [] };
      const at = (point: number, mean: number): PointRow => ({ ...row(point, [point ? 10 : 1], mean), stats: [{ metric, mean, ci: null, n: 1 }] });
      const p = sweepPlot(plan, [at(0, 0.97), at(1, 0.99)], 0);
      expect(p.yTicks[p.yTicks.length - 1].label, metric).toBe('1');
    }
  });

  // QA: the sweep showed "largest utilisation (of 1)" 0.524478 where the lab says 52.4 %.
  it('shows a utilisation in % (the CSV keeps the fraction), its axis ending at 100', () => {
    expect(metricTitle('max_utilization')).toBe('largest utilisation (%)');
    expect(metricTitle('link.L1.reverse_mean_utilization')).toBe('L1 reverse utilisation (%)');
    expect(metricTitle('port.SW1->SW2.mean_utilization')).toBe('SW1->SW2 utilisation (%)');
    expect(metricScale('max_utilization')).toBe(100);
    expect(metricScale('link.L1.mean_utilization')).toBe(100);
    expect(metricScale('jain_index')).toBe(1);
    for (const metric of ['max_utilization', 'link.L1.mean_utilization']) {
      const plan: PlanInfo = { runs: 2, points: 2, seeds: 1, params: [{ column: 'n0', values: [1, 10] }], metrics: [metric], header: [], seed_param: null, notes: [] };
      const at = (point: number, mean: number): PointRow => ({ ...row(point, [point ? 10 : 1], mean), stats: [{ metric, mean, ci: null, n: 1 }] });
      const p = sweepPlot(plan, [at(0, 0.524478), at(1, 0.97)], 0, { scale: metricScale(metric) });
      expect(p.yTicks[p.yTicks.length - 1].label, metric).toBe('100');
    }
  });

  // The Sweep table showed on_target_fraction 0.9 and a loss ratio 0.012 where Compare and the
  // run summary say 90 % and utilisation beside them was in %.
  it('shows the part of the steady window on target and a loss ratio in %, as utilisation', () => {
    expect(metricTitle('on_target_fraction')).toBe('within 10 % of target (% of steady window)');
    expect(metricTitle('conn.F1.loss_ratio')).toBe('F1 loss ratio (%)');
    expect(metricScale('on_target_fraction')).toBe(100);
    expect(metricScale('conn.F1.loss_ratio')).toBe(100);
    expect(metricScale('jain_index')).toBe(1);
    expect(metricScale('conn.F1.lost_cells')).toBe(1);
    for (const metric of ['on_target_fraction', 'conn.F1.loss_ratio']) {
      const plan: PlanInfo = { runs: 2, points: 2, seeds: 1, params: [{ column: 'n0', values: [1, 10] }], metrics: [metric], header: [], seed_param: null, notes: [] };
      const at = (point: number, mean: number): PointRow => ({ ...row(point, [point ? 10 : 1], mean), stats: [{ metric, mean, ci: null, n: 1 }] });
      const p = sweepPlot(plan, [at(0, 0.5), at(1, 0.97)], 0, { scale: metricScale(metric) });
      expect(p.yTicks[p.yTicks.length - 1].label, metric).toBe('100');
    }
  });

  // QA: the sweep table read `erica_plus` and `ut` where its plots said "ERICA+" and "Uniform Tracking".
  it('writes swept values by their names when every one has one, else as they are', () => {
    const names = { erica_plus: 'ERICA+', ut: 'Uniform Tracking' };
    expect(['erica_plus', 'ut'].map(valueText(['erica_plus', 'ut'], names))).toEqual(['ERICA+', 'Uniform Tracking']);
    expect(['erica_plus', 'other'].map(valueText(['erica_plus', 'other'], names))).toEqual(['erica_plus', 'other']);
    expect([0.8, 0.9].map(valueText([0.8, 0.9], names))).toEqual(['0.8', '0.9']);
  });

  // QA: fecn-n0-sweep's table read "L4 throughput (Mbps) 10000" where its charts say Gbps.
  it('says a rate in the unit the lab shows it in (Gbps on Ethernet), scaling its values and nothing else', () => {
    const gbps = { unit: 'Gbps', scale: 1e-3 };
    expect(metricTitle('link.L4.throughput_mbps', 'frames', gbps)).toBe('L4 throughput (Gbps)');
    expect(metricTitle('goodput_mbps', 'frames', gbps)).toBe('goodput (Gbps)');
    expect(metricTitle('dropped_cells', 'frames', gbps)).toBe('frames dropped');
    expect(metricScale('link.L4.throughput_mbps', gbps)).toBe(1e-3);
    expect(metricScale('dropped_cells', gbps)).toBe(1);
    expect(metricScale('conn.C1.mean_rate_mbps')).toBe(1);
    const plan: PlanInfo = { runs: 2, points: 2, seeds: 1, params: [{ column: 'n0', values: [1, 10] }], metrics: ['goodput_mbps'], header: [], seed_param: null, notes: [] };
    const rows = [row(0, [1], 7621.46), row(1, [10], 10000)].map((r) => ({ ...r, stats: [{ ...r.stats[0], metric: 'goodput_mbps' }] }));
    const inGbps = sweepPlot(plan, rows, 0, { scale: 1e-3 });
    expect(inGbps.yTicks.map((t) => Number(t.label))).toContain(10);
    expect(Math.max(...inGbps.yTicks.map((t) => Number(t.label)))).toBeLessThan(100);
  });

  it("ends Jain's index's axis at 1 (a fraction of 1 at most), not at a rounded 1.2", () => {
    const plan: PlanInfo = { runs: 2, points: 2, seeds: 1, params: [{ column: 'n0', values: [1, 10] }], metrics: ['jain_index'], header: [], seed_param: null, notes: [] };
    const jain = (point: number, mean: number): PointRow => ({ ...row(point, [point ? 10 : 1], mean), stats: [{ metric: 'jain_index', mean, ci: null, n: 1 }] });
    const p = sweepPlot(plan, [jain(0, 0.98), jain(1, 1)], 0);
    expect(p.yTicks[p.yTicks.length - 1].label).toBe('1');
    // A point at 1 stays clear of the top by a little headroom, with no tick above 1.
    const one = p.lines[0].points[1];
    expect(one.y).toBeGreaterThan(p.plot.top);
    expect(one.y - p.plot.top).toBeLessThan(0.05 * (p.plot.bottom - p.plot.top));
    expect(p.yTicks[p.yTicks.length - 1].y).toBeCloseTo(one.y, 9);
    // A mean a rounding above 1, or a 95 % interval reaching past it, does not lift the axis to 1.2.
    const jainCi = (point: number, mean: number, ci: number): PointRow => ({ ...row(point, [point ? 10 : 1], mean), stats: [{ metric: 'jain_index', mean, ci, n: 3 }] });
    for (const rows of [[jain(0, 0.9), jain(1, 1.0000000000000002)], [jainCi(0, 0.97, 0.06), jainCi(1, 0.99, 0.02)]]) {
      const r = sweepPlot(plan, rows, 0);
      expect(r.yTicks.map((t) => Number(t.label)).every((v) => v <= 1)).toBe(true);
      expect(r.yTicks[r.yTicks.length - 1].label).toBe('1');
      for (const q of r.lines[0].points) {
        expect(q.y).toBeGreaterThan(r.plot.top);
        if (q.hi !== null) expect(q.hi).toBeGreaterThan(r.plot.top);
      }
    }
    // QA: no cell lost at any point drew a cells-lost axis of 0, 0.2 … 1: a count has whole ticks.
    const none = sweepPlot({ ...plan, metrics: ['lost_cells'] }, [row(0, [1], 0), row(1, [10], 0)].map((r) => ({ ...r, stats: [{ ...r.stats[0], metric: 'lost_cells' }] })), 0);
    expect(none.yTicks.map((t) => t.label)).toEqual(['0', '1']);
    const few = sweepPlot({ ...plan, metrics: ['timeouts'] }, [row(0, [1], 0), row(1, [10], 3)].map((r) => ({ ...r, stats: [{ ...r.stats[0], metric: 'timeouts' }] })), 0);
    expect(few.yTicks.every((t) => Number.isInteger(Number(t.label)))).toBe(true);
    const mean = sweepPlot({ ...plan, metrics: ['port.P.mean_queue_cells'] }, [row(0, [1], 0), row(1, [10], 0.8)].map((r) => ({ ...r, stats: [{ ...r.stats[0], metric: 'port.P.mean_queue_cells' }] })), 0);
    expect(mean.yTicks.some((t) => !Number.isInteger(Number(t.label)))).toBe(true);
    // An unbounded metric keeps its headroom.
    const q = sweepPlot({ ...plan, metrics: ['dropped_cells'] }, [row(0, [1], 98), row(1, [10], 100)], 0);
    expect(Number(q.yTicks[q.yTicks.length - 1].label)).toBeGreaterThan(100);
  });
});
