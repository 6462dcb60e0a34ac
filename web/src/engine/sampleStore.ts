// Time series of one run, outside React: one growable Float64Array per column (time first).
// Appends are amortised O(1); charts read it on requestAnimationFrame through a
// ColumnDecimator (charts/sampleStore.ts), which keeps per-pixel-column min/max and only
// consumes new rows, so the cost of a frame does not grow with the length of the run. It sits
// in the engine layer because a batch worker keeps a compare variant's rows in one too
// (batchCore.ts).
//
// What is kept is bounded (STORE_BUDGET_BYTES), as the engine bounds its own history
// (engine/sim/src/history.rs): every row while they fit, then buckets of 4, 8, 16… samples,
// each kept as two rows — the minimum and the maximum of every series over the bucket, at its
// first and last sample times — so that a run of any length plays to its end and no peak is
// lost from the charts and exports.

import type { SeriesMeta } from '../contract/engine';

/** Bytes a reset allocates ahead of the first rows, at most (beyond MIN_ROWS rows). */
const FIRST_BYTES = 4 * 1024 * 1024;
const MIN_ROWS = 16;
/** Bytes the rows of one run may take; beyond, min/max buckets (see above). */
export const STORE_BUDGET_BYTES = 96 * 1024 * 1024;
/** Rows kept at least, however many series (a huge network then exceeds the budget). */
const MIN_KEEP_ROWS = 256;
/** Revisions a store remembers (see SampleStore.changes). */
const CHANGES_KEPT = 64;

/** `width` columns of `rows` rows, views of one buffer: one allocation, not one per series
 *  (30,000 of them took ~70 ms). */
function columns(width: number, rows: number): Float64Array[] {
  const buffer = new Float64Array(width * rows);
  return Array.from({ length: width }, (_, c) => buffer.subarray(c * rows, (c + 1) * rows));
}

export class SampleStore {
  meta: SeriesMeta[] = [];
  /** Number of rows. */
  length = 0;
  /** Bumped on every reset: consumers holding row indices must start over. */
  generation = 0;
  /** Bumped when rows are merged into buckets or dropped: row indices held from before are stale. */
  layout = 0;
  /** Bumped whenever rows already kept change (dropped, merged, a bucket widened): see
   *  `unchangedSince`. */
  revision = 0;
  /** The most rows kept (an even number). */
  maxRows = MIN_KEEP_ROWS;
  private cols: Float64Array[] = [new Float64Array(0)];
  /** Samples per bucket is 2^level (level 0: every row as sampled). */
  private level = 0;
  /** Samples in the last bucket (level > 0). */
  private open = 0;
  /**
   * What each revision left as it was: after revision `rev`, rows [0, kept) were the same as
   * before it. Kept increasing in both (an entry whose kept is not below a later one's tells
   * nothing more), and at most CHANGES_KEPT long (the oldest two merged into one that keeps the
   * fewer rows: a reader that old is told less than it could keep, never more).
   */
  private changes: { rev: number; kept: number }[] = [];

  constructor(
    private readonly initialCapacity = 1024,
    private readonly budgetBytes = STORE_BUDGET_BYTES,
  ) {
    this.reset([]);
  }

  /** Samples behind each pair of rows once decimated; 1 while every sample is kept. */
  get samplesPerBucket(): number {
    return 2 ** this.level;
  }

  /** The rows no sample to come changes (until buckets merge): all while every sample is
   *  kept; once decimated, all but the last bucket while it is still filling (each sample
   *  widens it: its max row's time moves on and its values may grow). */
  get settledRows(): number {
    return this.level > 0 && this.open < this.samplesPerBucket ? Math.max(0, this.length - 2) : this.length;
  }

  reset(meta: SeriesMeta[]) {
    this.meta = meta;
    this.length = 0;
    this.generation += 1;
    // Room for the first rows only, within FIRST_BYTES: 1,024 rows ahead for the ~30,000 series
    // of 10,000 sources was 245 MB allocated (and zeroed) at once, seconds of a frozen page.
    const width = meta.length + 1;
    this.maxRows = Math.max(MIN_KEEP_ROWS, Math.floor(this.budgetBytes / (8 * width))) & ~1;
    this.level = 0;
    this.open = 0;
    this.changes = [];
    const rows = Math.min(this.initialCapacity, this.maxRows, Math.max(MIN_ROWS, Math.floor(FIRST_BYTES / (8 * width))));
    this.cols = columns(width, rows);
  }

  get capacity() {
    return this.cols[0].length;
  }

  /** Appends row-major rows [time, v_0 .. v_{n-1}]; width must be meta.length + 1. */
  append(rows: Float64Array, width: number) {
    if (width !== this.cols.length) {
      throw new Error(`sample width ${width} does not match ${this.cols.length} columns`);
    }
    const n = Math.floor(rows.length / width);
    if (n === 0) return;
    if (this.level === 0 && this.length + n <= this.maxRows) {
      this.reserve(this.length + n);
      for (let c = 0; c < width; c++) {
        const col = this.cols[c];
        for (let r = 0, i = c, at = this.length; r < n; r++, i += width, at++) col[at] = rows[i];
      }
      this.length += n;
      return;
    }
    for (let r = 0; r < n; r++) this.push(rows, r * width);
  }

  /**
   * Drops the rows at `ms` and after (the run went back to `ms`; it sends them again). Once
   * rows are merged into buckets, a bucket that reaches `ms` goes whole: the samples of it
   * before `ms` are not sent again, so the charts miss at most one bucket there.
   */
  truncateFrom(ms: number) {
    const time = this.cols[0];
    let n = this.length;
    if (this.level === 0) while (n > 0 && time[n - 1] >= ms) n--;
    else {
      while (n > 0 && time[n - 1] >= ms) n -= 2;
      if (n < this.length) this.open = this.samplesPerBucket; // the next row starts a bucket
    }
    if (n === this.length) return;
    this.length = n;
    this.layout += 1;
    this.changed(n);
  }

  /**
   * How many leading rows are as they were when the store's `revision` was `since` (of this
   * generation): a reader that consumed rows then keeps what it made of these and reads the
   * rest again (a scrub back drops only the rows after its time).
   */
  unchangedSince(since: number): number {
    let kept = this.length;
    // Kept increases with the revision: the first entry after `since` keeps the fewest rows.
    for (const c of this.changes)
      if (c.rev > since) {
        kept = Math.min(kept, c.kept);
        break;
      }
    return kept;
  }

  /** Notes a new revision that left rows [0, kept) as they were. */
  private changed(kept: number) {
    this.revision += 1;
    const log = this.changes;
    const top = log[log.length - 1];
    // A bucket widened again (once a sample while it fills): the same entry, newer.
    if (top?.kept === kept) {
      top.rev = this.revision;
      return;
    }
    while (log.length > 0 && log[log.length - 1].kept >= kept) log.pop();
    log.push({ rev: this.revision, kept });
    if (log.length > CHANGES_KEPT) log.splice(0, 2, { rev: log[1].rev, kept: log[0].kept });
  }

  /** One row (at `at` in row-major `rows`) past the budget's first rows. */
  private push(rows: Float64Array, at: number) {
    if (this.level === 0) {
      if (this.length < this.maxRows) {
        this.reserve(this.length + 1);
        this.cols.forEach((col, c) => (col[this.length] = rows[at + c]));
        this.length += 1;
        return;
      }
      this.merge(4);
    }
    if (this.open === this.samplesPerBucket && this.length + 2 > this.maxRows) this.merge(2);
    if (this.open < this.samplesPerBucket) {
      // Widen the last bucket.
      const [lo, hi] = [this.length - 2, this.length - 1];
      this.changed(lo);
      this.cols[0][hi] = rows[at];
      for (let c = 1; c < this.cols.length; c++) {
        const v = rows[at + c];
        const col = this.cols[c];
        if (v < col[lo] || Number.isNaN(col[lo])) col[lo] = v;
        if (v > col[hi] || Number.isNaN(col[hi])) col[hi] = v;
      }
      this.open += 1;
      return;
    }
    this.reserve(this.length + 2);
    this.cols.forEach((col, c) => {
      col[this.length] = rows[at + c];
      col[this.length + 1] = rows[at + c];
    });
    this.length += 2;
    this.open = 1;
  }

  /**
   * Merges every `k` units into one bucket of two rows (min, max), in place: raw rows by fours
   * into the first buckets, or neighbouring buckets (k = 2, pairs of rows) into one.
   */
  private merge(k: 4 | 2) {
    const raw = this.level === 0;
    const unit = raw ? 1 : 2; // rows per unit
    const units = this.length / unit;
    const buckets = Math.ceil(units / k);
    const per = this.samplesPerBucket;
    for (let c = 0; c < this.cols.length; c++) {
      const col = this.cols[c];
      for (let b = 0; b < buckets; b++) {
        const first = b * k * unit;
        const end = Math.min(units, (b + 1) * k) * unit;
        let lo = NaN;
        let hi = NaN;
        for (let r = first; r < end; r++) {
          // A raw row counts as both extremes; a bucket's min row and max row count as such.
          const v = col[r];
          if (raw || (r - first) % 2 === 0) lo = Number.isNaN(lo) || v < lo ? v : lo;
          if (raw || (r - first) % 2 === 1) hi = Number.isNaN(hi) || v > hi ? v : hi;
        }
        if (c === 0) {
          lo = col[first];
          hi = col[end - 1];
        }
        col[2 * b] = lo;
        col[2 * b + 1] = hi;
      }
    }
    const lastUnits = units - (buckets - 1) * k;
    this.level = raw ? 2 : this.level + 1;
    this.open = raw ? lastUnits : lastUnits * per;
    this.length = 2 * buckets;
    this.layout += 1;
    this.changed(0);
  }

  private reserve(rows: number) {
    if (rows <= this.capacity) return;
    let cap = this.capacity || 1;
    while (cap < rows) cap *= 2;
    cap = Math.max(rows, Math.min(cap, this.maxRows));
    const grown = columns(this.cols.length, cap);
    this.cols.forEach((old, c) => grown[c].set(old.subarray(0, this.length)));
    this.cols = grown;
  }

  /** The time column (ms), a view valid until the next append. */
  times(): Float64Array {
    return this.cols[0].subarray(0, this.length);
  }

  /** Series i's column (in meta order), a view valid until the next append. */
  series(i: number): Float64Array {
    return this.cols[i + 1].subarray(0, this.length);
  }

  index(id: string): number {
    return this.meta.findIndex((m) => m.id === id);
  }

  /** Index of the row whose time is nearest to t (-1 when empty). */
  nearest(t: number): number {
    const n = this.length;
    if (n === 0) return -1;
    const time = this.cols[0];
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (time[mid] < t) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0 && Math.abs(time[lo - 1] - t) <= Math.abs(time[lo] - t)) return lo - 1;
    return lo;
  }

  /** Index of the latest row at or before t (-1: none, or empty): unlike `nearest`, a row that
   *  comes later never changes it (while rows are not merged into buckets). */
  atOrBefore(t: number): number {
    const time = this.cols[0];
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (time[mid] <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  /** A copy of the rows so far (its own columns, trimmed to the length), with the same series. */
  copy(): SampleStore {
    const c = new SampleStore(0);
    c.meta = this.meta;
    c.length = this.length;
    c.cols = this.cols.map((col) => col.slice(0, this.length));
    c.maxRows = this.maxRows;
    c.level = this.level;
    c.open = this.open;
    return c;
  }

  /**
   * Declares the rows appended so far, while every row was kept as it came, to be min/max pairs
   * over buckets of `perBucket` samples already (a batch worker's, from `rowMajor` of a store
   * that bucketed them: batchCore.ts), so that `samplesPerBucket` tells the truth. Does nothing
   * once this store has bucketed rows itself, or for a bucket size that is not a power of two.
   */
  bucketed(perBucket: number) {
    const level = Math.log2(perBucket);
    if (this.level !== 0 || level < 1 || !Number.isInteger(level) || this.length % 2 !== 0) return;
    this.level = level;
    this.open = perBucket; // the last bucket is closed: a new sample starts one
  }

  /** The rows kept, row-major `[time, v_0 … v_{n-1}]`, as `append` takes them. */
  rowMajor(): Float64Array {
    const width = this.cols.length;
    const out = new Float64Array(this.length * width);
    for (let c = 0; c < width; c++) {
      const col = this.cols[c];
      for (let r = 0, i = c; r < this.length; r++, i += width) out[i] = col[r];
    }
    return out;
  }

  /** Last value of series i (NaN when empty). */
  last(i: number): number {
    return this.length ? this.cols[i + 1][this.length - 1] : NaN;
  }
}
