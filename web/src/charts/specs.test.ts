import { describe, expect, it } from 'vitest';
import type { SeriesMeta } from '../sim/engine';
import { algorithmQuantities, ALGORITHM_CHART, CHARTS, linesFor, onlyQuantity, unitFor } from './specs';

const meta: SeriesMeta[] = [
  { id: 'C1.acr', kind: 'acr', label: 'C1 ACR', unit: 'Mbps', owner: 'C1' },
  { id: 'C1.share', kind: 'share', label: 'C1 share', unit: 'Mbps', owner: 'C1' },
  { id: 'C1.target', kind: 'target', label: 'C1 target', unit: 'Mbps', owner: 'C1' },
  { id: 'C2.acr', kind: 'acr', label: 'C2 ACR', unit: 'Mbps', owner: 'C2' },
  { id: 'C2.share', kind: 'share', label: 'C2 share', unit: 'Mbps', owner: 'C2' },
  { id: 'P.queue', kind: 'queue', label: 'P queue', unit: 'cells', owner: 'SW1->SW2' },
  { id: 'P.util', kind: 'utilization', label: 'P util', unit: '%', owner: 'SW1->SW2' },
];

const alg = (port: string, name: string): SeriesMeta => ({
  id: `algorithm:${port}:${name}`,
  kind: 'algorithm',
  label: `${port} ${name}`,
  unit: name.endsWith('_mbps') ? 'Mbps' : '',
  owner: port,
});
// SW1 runs DEBRA, SW2 ERICA.
const withAlgorithms = [
  ...meta,
  alg('SW1->SW2', 'aggregate_bid_mbps'),
  alg('SW1->SW2', 'allocation_mbps'),
  alg('SW2->D1', 'overload'),
  alg('SW2->D1', 'fair_share_mbps'),
  alg('SW2->D2', 'overload'),
  alg('SW2->D2', 'fair_share_mbps'),
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

  it('offers each algorithm quantity once, in order, and draws one for every port that has it', () => {
    expect(algorithmQuantities(withAlgorithms)).toEqual(['aggregate_bid_mbps', 'allocation_mbps', 'overload', 'fair_share_mbps']);
    expect(algorithmQuantities(meta)).toEqual([]);
    const overload = linesFor(ALGORITHM_CHART, withAlgorithms, onlyQuantity('overload'));
    expect(overload.map((l) => l.label)).toEqual(['SW2->D1 overload', 'SW2->D2 overload']);
    expect(unitFor(ALGORITHM_CHART, withAlgorithms, onlyQuantity('overload'))).toBe('');
    expect(unitFor(ALGORITHM_CHART, withAlgorithms, onlyQuantity('allocation_mbps'))).toBe('Mbps');
    // A port keeps its colour whichever quantity is shown.
    const share = linesFor(ALGORITHM_CHART, withAlgorithms, onlyQuantity('fair_share_mbps'));
    expect(share.map((l) => l.color)).toEqual(overload.map((l) => l.color));
    const bid = linesFor(ALGORITHM_CHART, withAlgorithms, onlyQuantity('aggregate_bid_mbps'));
    expect(bid[0].color).not.toBe(share[0].color);
  });
});
