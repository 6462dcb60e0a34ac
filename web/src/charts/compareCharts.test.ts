import { describe, expect, it } from 'vitest';
import type { SeriesMeta } from '../contract/engine';
import { sharedYFloor, storeOf } from './compareCharts';
import type { ChartLine } from './specs';

const meta = [{ id: 'a' }, { id: 'b' }] as unknown as SeriesMeta[];
const line = (index: number) => ({ index }) as ChartLine;

describe('compare small multiples', () => {
  it('fills a store from row-major rows', () => {
    const s = storeOf(meta, new Float64Array([0, 1, 10, 0.5, 2, 20]));
    expect(s.length).toBe(2);
    expect(Array.from(s.times())).toEqual([0, 0.5]);
    expect(Array.from(s.series(1))).toEqual([10, 20]);
  });

  it('shares the highest value drawn by any variant as the y floor, scaled to shown units', () => {
    const a = storeOf(meta, new Float64Array([0, 1, 10, 0.5, 2, 20]));
    const b = storeOf(meta, new Float64Array([0, 5, 99, 0.5, NaN, 3]));
    expect(sharedYFloor([{ store: a, lines: [line(1)] }, { store: b, lines: [line(0)] }], 1, 1)).toBe(20);
    expect(sharedYFloor([{ store: a, lines: [line(0)] }, { store: b, lines: [line(0)] }], 1, 0.5)).toBe(2.5);
    expect(sharedYFloor([{ store: a, lines: [] }], 7, 1)).toBe(7);
  });
});
