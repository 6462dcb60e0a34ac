import { describe, expect, it } from 'vitest';
import type { SeriesMeta } from '../sim/engine';
import { CHARTS, linesFor, unitFor } from './specs';

const meta: SeriesMeta[] = [
  { id: 'C1.acr', kind: 'acr', label: 'C1 ACR', unit: 'Mbps', owner: 'C1' },
  { id: 'C1.share', kind: 'share', label: 'C1 share', unit: 'Mbps', owner: 'C1' },
  { id: 'C1.target', kind: 'target', label: 'C1 target', unit: 'Mbps', owner: 'C1' },
  { id: 'C2.acr', kind: 'acr', label: 'C2 ACR', unit: 'Mbps', owner: 'C2' },
  { id: 'C2.share', kind: 'share', label: 'C2 share', unit: 'Mbps', owner: 'C2' },
  { id: 'P.queue', kind: 'queue', label: 'P queue', unit: 'cells', owner: 'SW1->SW2' },
  { id: 'P.util', kind: 'utilization', label: 'P util', unit: '%', owner: 'SW1->SW2' },
];

describe('chart specs', () => {
  it('draws a source ACR, share and target in one colour, with solid, dashed and dotted lines', () => {
    const rate = linesFor(CHARTS.find((c) => c.id === 'rate')!, meta);
    expect(rate.map((l) => [l.index, l.style])).toEqual([
      [0, 'solid'],
      [1, 'dashed'],
      [2, 'dotted'],
      [3, 'solid'],
      [4, 'dashed'],
    ]);
    expect(new Set(rate.slice(0, 3).map((l) => l.color)).size).toBe(1);
    expect(rate[3].color).not.toBe(rate[0].color);
  });

  it('takes each chart unit from the series metadata', () => {
    expect(CHARTS.map((c) => unitFor(c, meta))).toEqual(['Mbps', 'cells', '%']);
  });
});
