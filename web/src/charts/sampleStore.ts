// Charts' view of a run's samples: the store itself is the engine layer's (engine/sampleStore.ts,
// re-exported here for the charts and the UI); a ColumnDecimator aggregates some of its series
// per pixel column for drawing.

import type { SampleStore } from '../engine/sampleStore';

export { SampleStore, STORE_BUDGET_BYTES } from '../engine/sampleStore';

/**
 * Per-pixel-column aggregation of some series of a store over a time window [t0, t1]:
 * for each column, the first, last, min and max value of the rows that fall in it (NaN when
 * none). `update()` consumes only rows appended since the previous call; a reset of the store
 * or a new window/width starts over.
 */
export class ColumnDecimator {
  first: Float64Array[] = [];
  last: Float64Array[] = [];
  min: Float64Array[] = [];
  max: Float64Array[] = [];
  /** 1 where the line must not be joined to the previous column (a NaN = no value came between). */
  gapBefore: Uint8Array[] = [];
  /** Per series: its value holds between samples (`SeriesMeta.held`), so it is drawn in steps. */
  held: boolean[] = [];
  /** Smallest and largest value seen in the window over all the series. */
  lo = Infinity;
  hi = -Infinity;
  /** The same per series (so a chart can fit its y axis to the series it shows). */
  loOf: number[] = [];
  /** Per series, the first and the last column with a value (-1: none yet). */
  firstValued: number[] = [];
  lastValued: number[] = [];
  hiOf: number[] = [];
  /** The window and column count of the last update (columns of width (t1 - t0) / columns). */
  t0 = 0;
  t1 = 0;
  columns = 0;
  /**
   * What the last update() changed: `restarted` when it started over (every column is new),
   * else the columns the new rows fell in, [changedFrom, changedTo] (changedFrom = `columns`
   * when none fell in the window). The other columns are as they were, which is what lets a
   * chart draw only the new part.
   */
  restarted = true;
  changedFrom = 0;
  changedTo = -1;
  private consumed = 0;
  private inGap: boolean[] = [];
  private generation = -1;
  private layout = -1;
  private key = '';

  constructor(private readonly store: SampleStore) {}

  /** Brings the columns up to date; returns true if anything changed. */
  update(series: number[], t0: number, t1: number, columns: number): boolean {
    const cols = Math.max(1, Math.floor(columns));
    const key = `${series.join(',')}|${t0}|${t1}|${cols}`;
    if (key !== this.key || this.generation !== this.store.generation || this.layout !== this.store.layout || this.consumed > this.store.length) {
      this.key = key;
      this.restarted = true;
      this.changedFrom = 0;
      this.changedTo = cols - 1;
      this.generation = this.store.generation;
      this.layout = this.store.layout;
      this.consumed = 0;
      this.lo = Infinity;
      this.hi = -Infinity;
      this.loOf = series.map(() => Infinity);
      this.hiOf = series.map(() => -Infinity);
      this.t0 = t0;
      this.t1 = t1;
      this.columns = cols;
      const fresh = () => series.map(() => new Float64Array(cols).fill(NaN));
      this.first = fresh();
      this.last = fresh();
      this.min = fresh();
      this.max = fresh();
      this.gapBefore = series.map(() => new Uint8Array(cols));
      this.held = series.map((i) => this.store.meta[i]?.held === true);
      this.inGap = series.map(() => false);
      this.firstValued = series.map(() => -1);
      this.lastValued = series.map(() => -1);
      if (this.store.length === 0) return true;
      // Rows before the window cannot fall in it (times increase): a zoomed window starts at t0.
      this.consumed = Math.max(0, this.store.nearest(t0) - 1);
    } else {
      this.restarted = false;
      this.changedFrom = this.columns;
      this.changedTo = -1;
    }
    const n = this.store.length;
    if (this.consumed === n) return this.restarted;
    const time = this.store.times();
    const span = t1 - t0;
    if (!this.restarted) {
      // Times increase: the first new row in the window falls in the first column changed.
      let r = this.consumed;
      while (r < n && time[r] < t0) r++;
      const column = (t: number) => Math.min(cols - 1, Math.floor(((t - t0) / span) * cols));
      if (r < n && time[r] <= t1 && span > 0) {
        this.changedFrom = column(time[r]);
        this.changedTo = time[n - 1] <= t1 ? column(time[n - 1]) : cols - 1;
      }
    }
    for (let s = 0; s < series.length; s++) {
      const v = this.store.series(series[s]);
      let lo = this.loOf[s];
      let hi = this.hiOf[s];
      const first = this.first[s];
      const last = this.last[s];
      const min = this.min[s];
      const max = this.max[s];
      const gap = this.gapBefore[s];
      for (let r = this.consumed; r < n; r++) {
        const t = time[r];
        if (t > t1) break;
        if (t < t0 || span <= 0) continue;
        const x = Math.min(cols - 1, Math.floor(((t - t0) / span) * cols));
        const y = v[r];
        if (Number.isNaN(y)) {
          this.inGap[s] = true;
          continue;
        }
        if (this.inGap[s]) {
          gap[x] = 1;
          this.inGap[s] = false;
        }
        if (Number.isNaN(first[x])) {
          first[x] = y;
          min[x] = y;
          max[x] = y;
        } else {
          if (y < min[x]) min[x] = y;
          if (y > max[x]) max[x] = y;
        }
        last[x] = y;
        if (x > this.lastValued[s]) {
          if (this.lastValued[s] < 0) this.firstValued[s] = x;
          this.lastValued[s] = x;
        }
        if (y < lo) lo = y;
        if (y > hi) hi = y;
      }
      this.loOf[s] = lo;
      this.hiOf[s] = hi;
      if (lo < this.lo) this.lo = lo;
      if (hi > this.hi) this.hi = hi;
    }
    this.consumed = n;
    return true;
  }

  /** The time (ms) at the middle of column c. */
  timeOf(c: number): number {
    return this.t0 + ((c + 0.5) * (this.t1 - this.t0)) / this.columns;
  }
}
