// Charts' view of a run's samples: the store itself is the engine layer's (engine/sampleStore.ts,
// re-exported here for the charts and the UI); a ColumnDecimator aggregates some of its series
// per pixel column for drawing.

import type { SampleStore } from '../engine/sampleStore';

export { SampleStore, STORE_BUDGET_BYTES } from '../engine/sampleStore';

/**
 * Per-pixel-column aggregation of some series of a store over a time window [t0, t1]:
 * for each column, the first, last, min and max value of the rows that fall in it (NaN when
 * none). `update()` consumes only rows appended since the previous call; a reset of the store
 * or a new window/width starts over. Rows the store dropped or changed (a scrub back, a widened
 * bucket) cut the columns back instead: those before the column of the last row left are kept,
 * that column is made again from its rows, the ones after it emptied, so a step back costs
 * what it removed. Either way the columns are those a fresh decimator makes of the same rows.
 *
 *   columns:  | kept … | c* (made again from rows [a, kept)) | emptied … up to the old last |
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
   * chart draw only the new part. `cut`: some of the changed columns lost values (rows were
   * dropped), so what was drawn there must go too.
   */
  restarted = true;
  changedFrom = 0;
  changedTo = -1;
  cut = false;
  private consumed = 0;
  private inGap: boolean[] = [];
  private generation = -1;
  private revision = -1;
  private key = '';

  constructor(private readonly store: SampleStore) {}

  /** Brings the columns up to date; returns true if anything changed. */
  update(series: number[], t0: number, t1: number, columns: number): boolean {
    const cols = Math.max(1, Math.floor(columns));
    const key = `${series.join(',')}|${t0}|${t1}|${cols}`;
    let restart = key !== this.key || this.generation !== this.store.generation;
    let cutFrom = cols;
    let cutTo = -1;
    if (!restart) {
      const kept = Math.min(this.consumed, this.store.unchangedSince(this.revision));
      if (kept === 0 && this.consumed > 0) restart = true;
      else if (kept < this.consumed) [cutFrom, cutTo] = this.cutTo(kept, series);
    }
    this.revision = this.store.revision;
    if (restart) {
      this.key = key;
      this.restarted = true;
      this.cut = false;
      this.changedFrom = 0;
      this.changedTo = cols - 1;
      this.generation = this.store.generation;
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
      this.cut = cutFrom <= cutTo;
      this.changedFrom = cutFrom;
      this.changedTo = cutTo;
    }
    const n = this.store.length;
    if (this.consumed === n) return this.restarted || this.cut;
    const time = this.store.times();
    const span = t1 - t0;
    if (!this.restarted) {
      // Times increase: the first new row in the window falls in the first column changed.
      let r = this.consumed;
      while (r < n && time[r] < t0) r++;
      const column = (t: number) => Math.min(cols - 1, Math.floor(((t - t0) / span) * cols));
      if (r < n && time[r] <= t1 && span > 0) {
        this.changedFrom = Math.min(this.changedFrom, column(time[r]));
        this.changedTo = Math.max(this.changedTo, time[n - 1] <= t1 ? column(time[n - 1]) : cols - 1);
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

  /**
   * Forgets the rows from `kept` on (dropped or changed in the store; `kept` > 0): empties the
   * columns they reached, and leaves the column of the last row kept to be made again from its
   * rows, which it will consume next. Returns the columns that changed, [from, to] (from > to:
   * none in the window).
   */
  private cutTo(kept: number, series: number[]): [number, number] {
    const time = this.store.times();
    const { t0, t1, columns: cols } = this;
    const span = t1 - t0;
    const column = (t: number) => Math.min(cols - 1, Math.floor(((t - t0) / span) * cols));
    const lastKept = kept - 1;
    // The rows gone all lay past the window (times increase): nothing drawn changes.
    if (span > 0 && time[lastKept] > t1) {
      this.consumed = kept;
      return [cols, -1];
    }
    // From: the first column to make again; again: the first row to consume again.
    let from = 0;
    let again = kept;
    if (span > 0 && time[lastKept] >= t0) {
      from = column(time[lastKept]);
      again = lastKept;
      while (again > 0 && time[again - 1] >= t0 && column(time[again - 1]) === from) again--;
    }
    let to = -1;
    for (let s = 0; s < series.length; s++) to = Math.max(to, this.lastValued[s]);
    for (let s = 0; s < series.length; s++) {
      for (let c = from; c <= this.lastValued[s]; c++) {
        this.first[s][c] = NaN;
        this.last[s][c] = NaN;
        this.min[s][c] = NaN;
        this.max[s][c] = NaN;
        this.gapBefore[s][c] = 0;
      }
      let c = Math.min(from, this.lastValued[s] + 1) - 1;
      while (c >= this.firstValued[s] && c >= 0 && Number.isNaN(this.first[s][c])) c--;
      if (c < this.firstValued[s] || c < 0) this.firstValued[s] = this.lastValued[s] = -1;
      else this.lastValued[s] = c;
      // A NaN row sets the gap and a value clears it: the gap before row `again` is whether the
      // row before it, if it fell in the window, had no value.
      const v = this.store.series(series[s]);
      this.inGap[s] = again > 0 && span > 0 && time[again - 1] >= t0 && Number.isNaN(v[again - 1]);
      // The range of what is left (over the columns kept: this scan is the width, not the run).
      let lo = Infinity;
      let hi = -Infinity;
      for (let k = this.firstValued[s]; k >= 0 && k <= this.lastValued[s]; k++) {
        if (this.min[s][k] < lo) lo = this.min[s][k];
        if (this.max[s][k] > hi) hi = this.max[s][k];
      }
      this.loOf[s] = lo;
      this.hiOf[s] = hi;
    }
    this.lo = Math.min(Infinity, ...this.loOf);
    this.hi = Math.max(-Infinity, ...this.hiOf);
    this.consumed = again;
    return to >= from ? [from, to] : [cols, -1];
  }

  /** The time (ms) at the middle of column c. */
  timeOf(c: number): number {
    return this.t0 + ((c + 0.5) * (this.t1 - this.t0)) / this.columns;
  }
}
