import { describe, expect, it } from 'vitest';
import type { SeriesMeta } from '../contract/engine';
import { SvgPathPen, traceColumns } from './columnPath';
import { ColumnDecimator, SampleStore } from './sampleStore';

const meta: SeriesMeta[] = [{ id: 'queue:SW1->SW2', kind: 'queue', label: 'SW1->SW2 queue', unit: 'cells', owner: 'SW1->SW2', held: false }];
const acr: SeriesMeta[] = [{ id: 'acr:C1', kind: 'acr', label: 'C1 ACR', unit: 'Mbps', owner: 'C1', held: true }];

function decimated(values: number[], columns: number, series = meta) {
  const store = new SampleStore();
  store.reset(series);
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

  it('joins the columns of a value that holds between changes (ACR) in steps: level, then up or down', () => {
    // One row a column: ACR 4, then cut to 2 (an EFCI cut), held, then raised to 3.
    const dec = decimated([4, 2, 2, 3], 4, acr);
    const pen = new SvgPathPen();
    traceColumns(dec, 0, (c) => c * 10, (v) => v, pen);
    // Held at 4 until the sample that saw 2, then straight down; no step where nothing changed.
    expect(pen.d).toBe('M0 4L0 4L10 4L10 2L10 2L20 2L20 2L30 2L30 3L30 3');
    // The same rows as a queue (not held) go in slopes.
    const sloped = new SvgPathPen();
    traceColumns(decimated([4, 2, 2, 3], 4), 0, (c) => c * 10, (v) => v, sloped);
    expect(sloped.d).toBe('M0 4L0 4L10 2L10 2L20 2L20 2L30 3L30 3');
  });

  it('steps from the last value of the column before, across columns without a sample', () => {
    // Rows at t = 0 and 2 of 4 columns (zoomed in past the sample interval): column 1 is empty.
    const store = new SampleStore();
    store.reset(acr);
    store.append(new Float64Array([0, 5, 2, 1]), 2);
    const dec = new ColumnDecimator(store);
    dec.update([0], 0, 4, 4);
    const pen = new SvgPathPen();
    traceColumns(dec, 0, (c) => c * 10, (v) => v, pen);
    expect(pen.d).toBe('M0 5L0 5L20 5L20 1L20 1');
  });
});
