// Small multiples for a comparison: one sample store per variant, built once from the rows the
// batch worker sent, and a y axis shared across the variants of one chart (the highest value any
// of them draws), so that the charts read against each other.

import type { SeriesMeta } from '../contract/engine';
import { SampleStore } from './sampleStore';
import type { ChartLine } from './specs';

/** A store holding a finished run's rows (row-major [time, v…], width meta.length + 1). */
export function storeOf(meta: SeriesMeta[], rows: Float64Array): SampleStore {
  const store = new SampleStore(Math.max(1, Math.floor(rows.length / (meta.length + 1))));
  store.reset(meta);
  store.append(rows, meta.length + 1);
  return store;
}

/** The y floor (in shown units) that makes every variant's chart reach the highest value any of them draws. */
export function sharedYFloor(panels: { store: SampleStore; lines: ChartLine[] }[], floor: number, scale: number): number {
  let hi = -Infinity;
  for (const { store, lines } of panels) {
    for (const l of lines) {
      for (const v of store.series(l.index)) if (Number.isFinite(v) && v > hi) hi = v;
    }
  }
  return Number.isFinite(hi) ? Math.max(floor, hi * scale) : floor;
}
