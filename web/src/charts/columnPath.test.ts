import { describe, expect, it } from 'vitest';
import type { SeriesMeta } from '../contract/engine';
import { SvgPathPen, traceColumns } from './columnPath';
import { ColumnDecimator, SampleStore } from './sampleStore';

const meta: SeriesMeta[] = [{ id: 'acr:C1', kind: 'acr', label: 'C1 ACR', unit: 'Mbps', owner: 'C1' }];

function decimated(values: number[], columns: number) {
  const store = new SampleStore();
  store.reset(meta);
  const rows = new Float64Array(values.flatMap((v, t) => [t, v]));
  store.append(rows, 2);
  const dec = new ColumnDecimator(store);
  dec.update([0], 0, values.length, columns);
  return dec;
}

describe('traceColumns', () => {
  it('draws first, min, max and last of each column, so a one-row spike stays visible', () => {
    // Four columns of two rows; a spike to 9 in the second column.
    const dec = decimated([1, 1, 9, 2, 2, 2, 3, 3], 4);
    const pen = new SvgPathPen();
    traceColumns(dec, 0, (c) => c, (v) => v, pen);
    expect(pen.d).toBe('M0 1L0 1L1 9L1 2L1 9L1 2L2 2L2 2L3 3L3 3');
  });

  it('lifts the pen over a gap (rows with no value) instead of joining across it', () => {
    const dec = decimated([1, 1, NaN, NaN, 5, 5], 6);
    const pen = new SvgPathPen();
    traceColumns(dec, 0, (c) => c * 10, (v) => v, pen);
    expect(pen.d).toBe('M0 1L0 1L10 1L10 1M40 5L40 5L50 5L50 5');
  });
});
