import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SeriesMeta } from '../contract/engine';
import { ColumnDecimator, SampleStore } from './sampleStore';

const meta = (n: number): SeriesMeta[] =>
  Array.from({ length: n }, (_, i) => ({ id: `s${i}`, kind: 'acr', label: `s${i}`, unit: 'Mbps', owner: `C${i}`, held: true }));

/** Rows [t, f0(t), f1(t), ...] for t = t0, t0+dt, ... */
function rows(n: number, width: number, t0 = 0, dt = 1, f = (t: number, s: number) => t * (s + 1)) {
  const out = new Float64Array(n * width);
  for (let r = 0; r < n; r++) {
    const t = t0 + r * dt;
    out[r * width] = t;
    for (let s = 1; s < width; s++) out[r * width + s] = f(t, s - 1);
  }
  return out;
}

describe('SampleStore', () => {
  it('drops the rows at a time and after when the run goes back, and takes the replayed ones as if it never had', () => {
    const whole = new SampleStore();
    whole.reset(meta(2));
    whole.append(rows(100, 3), 3);
    const back = new SampleStore();
    back.reset(meta(2));
    back.append(rows(70, 3), 3);
    const layout = back.layout;
    back.truncateFrom(40);
    expect(back.length).toBe(40);
    expect(back.times()[39]).toBe(39);
    expect(back.layout).toBeGreaterThan(layout); // charts reading it start over
    back.append(rows(60, 3, 40), 3);
    expect([...back.times()]).toEqual([...whole.times()]);
    expect([...back.series(1)]).toEqual([...whole.series(1)]);
    back.truncateFrom(1000);
    expect(back.length).toBe(100);
  });

  it('drops whole min/max buckets once decimated, and buckets the rows that come again', () => {
    const store = new SampleStore(16, 1);
    store.reset(meta(1));
    store.append(rows(1000, 2), 2);
    const per = store.samplesPerBucket;
    expect(per).toBeGreaterThan(1);
    store.truncateFrom(500);
    const t = store.times();
    expect(t[t.length - 1]).toBeLessThan(500);
    expect(store.length % 2).toBe(0);
    expect(t[t.length - 1]).toBeGreaterThanOrEqual(500 - 2 * per);
    store.append(rows(500, 2, 500), 2);
    expect(store.times()[store.length - 1]).toBe(999);
    expect(store.length).toBeLessThanOrEqual(store.maxRows);
  });

  it('keeps a run longer than its budget as min/max buckets that hold every extreme of the samples', () => {
    // Three columns (time + 2 series): 256 rows fit (the least kept), 10,000 samples do not.
    const store = new SampleStore(16, 1);
    store.reset(meta(2));
    const saw = (t: number, s: number) => (s === 0 ? t : t % 10 === 7 ? NaN : (t * 7) % 13);
    const all = rows(10_000, 3, 0, 1, saw);
    // In uneven slices, as the worker posts them.
    for (let at = 0, k = 1; at < 10_000; at += k, k = (k * 7) % 97 + 1) {
      store.append(all.subarray(at * 3, Math.min(10_000, at + k) * 3), 3);
      expect(store.length).toBeLessThanOrEqual(store.maxRows);
    }
    expect(store.maxRows).toBe(256);
    const per = store.samplesPerBucket;
    expect(per).toBeGreaterThanOrEqual(10_000 / 128);
    expect(store.length / 2).toBe(Math.ceil(10_000 / per));
    const t = store.times();
    for (let b = 0; b < store.length / 2; b++) {
      const first = b * per;
      const last = Math.min(10_000, (b + 1) * per) - 1;
      expect([t[2 * b], t[2 * b + 1]]).toEqual([first, last]);
      for (let s = 0; s < 2; s++) {
        const values = Array.from({ length: last - first + 1 }, (_, i) => saw(first + i, s)).filter((v) => !Number.isNaN(v));
        expect(store.series(s)[2 * b]).toBe(Math.min(...values));
        expect(store.series(s)[2 * b + 1]).toBe(Math.max(...values));
      }
    }
  });

  it('restarts a decimator whose rows were merged into buckets', () => {
    const store = new SampleStore(16, 1);
    store.reset(meta(1));
    const dec = new ColumnDecimator(store);
    store.append(rows(256, 2), 2);
    dec.update([0], 0, 1000, 10);
    store.append(rows(1, 2, 256), 2); // the 257th row: merged into buckets of 4
    expect(store.samplesPerBucket).toBe(4);
    dec.update([0], 0, 1000, 10);
    // Column 2 covers 200–299 ms: its largest value is the last sample, whatever was merged.
    expect(dec.max[0][2]).toBe(256);
    expect(dec.min[0][2]).toBe(200);
  });

  it('appends row-major rows into columns', () => {
    const store = new SampleStore(4);
    store.reset(meta(2));
    store.append(rows(3, 3), 3);
    expect(store.length).toBe(3);
    expect([...store.times()]).toEqual([0, 1, 2]);
    expect([...store.series(0)]).toEqual([0, 1, 2]);
    expect([...store.series(1)]).toEqual([0, 2, 4]);
    expect(store.last(1)).toBe(4);
  });

  // Issue 14: a reset for the ~30,000 series of 10,000 sources allocated 1,024 rows of each
  // (245 MB) at once and froze the page for seconds.
  it('issue 14: a reset for 30,000 series allocates room for a few rows only, and grows as rows come', () => {
    const store = new SampleStore();
    store.reset(meta(30_000));
    expect(store.capacity * 8 * 30_001).toBeLessThanOrEqual(8 * 1024 * 1024);
    store.append(rows(40, 30_001), 30_001);
    expect(store.length).toBe(40);
    expect(store.series(29_999)[39]).toBe(39 * 30_000);
    store.reset(meta(2)); // a small run keeps its 1,024 rows ahead
    expect(store.capacity).toBe(1024);
  });

  it('grows past its initial capacity without losing rows', () => {
    const store = new SampleStore(2);
    store.reset(meta(1));
    for (let i = 0; i < 50; i++) store.append(rows(7, 2, i * 7), 2);
    expect(store.length).toBe(350);
    expect(store.capacity).toBeGreaterThanOrEqual(350);
    const t = store.times();
    for (let i = 0; i < 350; i++) expect(t[i]).toBe(i);
    expect(store.series(0)[349]).toBe(349);
  });

  it('rejects rows whose width does not match the series', () => {
    const store = new SampleStore();
    store.reset(meta(2));
    expect(() => store.append(rows(1, 2), 2)).toThrow(/width/);
  });

  it('finds the row nearest to a time', () => {
    const store = new SampleStore();
    store.reset(meta(1));
    expect(store.nearest(3)).toBe(-1);
    store.append(rows(10, 2, 0, 0.5), 2); // 0, 0.5, ... 4.5
    expect(store.nearest(-1)).toBe(0);
    expect(store.nearest(1.2)).toBe(2);
    expect(store.nearest(1.3)).toBe(3);
    expect(store.nearest(99)).toBe(9);
  });

  it('finds the latest row at or before a time, which a later row does not change', () => {
    const store = new SampleStore();
    store.reset(meta(1));
    expect(store.atOrBefore(3)).toBe(-1);
    store.append(rows(3, 2, 0, 0.5), 2); // 0, 0.5, 1
    expect(store.atOrBefore(-1)).toBe(-1);
    expect(store.atOrBefore(0.5)).toBe(1);
    expect(store.atOrBefore(1.4)).toBe(2);
    expect(store.nearest(1.4)).toBe(2);
    store.append(new Float64Array([1.5, 0]), 2);
    expect(store.atOrBefore(1.4)).toBe(2);
    expect(store.nearest(1.4)).toBe(3);
  });

  it('reset empties the store and bumps the generation', () => {
    const store = new SampleStore();
    store.reset(meta(1));
    store.append(rows(5, 2), 2);
    const g = store.generation;
    store.reset(meta(3));
    expect(store.length).toBe(0);
    expect(store.generation).toBe(g + 1);
    expect(store.last(0)).toBeNaN();
  });
});

describe('ColumnDecimator', () => {
  it('keeps first, last, min and max of the rows in each pixel column', () => {
    const store = new SampleStore();
    store.reset(meta(1));
    // 100 rows over [0, 100): values zig-zag so that each column of 10 rows has a known range.
    store.append(rows(100, 2, 0, 1, (t) => (t % 10) * (t % 2 === 0 ? 1 : -1)), 2);
    const dec = new ColumnDecimator(store);
    expect(dec.update([0], 0, 100, 10)).toBe(true);
    for (let c = 0; c < 10; c++) {
      expect(dec.first[0][c]).toBe(0);
      expect(dec.last[0][c]).toBe(-9);
      expect(dec.min[0][c]).toBe(-9);
      expect(dec.max[0][c]).toBe(8);
    }
    expect(dec.lo).toBe(-9);
    expect(dec.hi).toBe(8);
  });

  it('leaves columns without rows empty (NaN) and ignores rows outside the window', () => {
    const store = new SampleStore();
    store.reset(meta(1));
    store.append(rows(3, 2, 0, 10), 2); // t = 0, 10, 20
    const dec = new ColumnDecimator(store);
    dec.update([0], 5, 105, 100);
    expect(dec.first[0][5]).toBe(10);
    expect(dec.first[0][15]).toBe(20);
    expect(dec.first[0].filter((v) => !Number.isNaN(v)).length).toBe(2);
  });

  it('marks where a series resumes after NaN rows (no value), so lines are not joined across', () => {
    const store = new SampleStore();
    store.reset(meta(1));
    // Values at t = 0..9, NaN for t = 10..19, values again from t = 20.
    store.append(rows(30, 2, 0, 1, (t) => (t >= 10 && t < 20 ? NaN : t)), 2);
    const dec = new ColumnDecimator(store);
    dec.update([0], 0, 30, 30);
    expect([...dec.gapBefore[0]].map((g, i) => (g ? i : -1)).filter((i) => i >= 0)).toEqual([20]);
    expect(dec.first[0][15]).toBeNaN();
    expect(dec.lo).toBe(0);
    expect(dec.hi).toBe(29);
  });

  it('keeps the range of each series apart, over the window only', () => {
    const store = new SampleStore();
    store.reset(meta(2));
    // s0 = t, s1 = 2t for t = 0..99.
    store.append(rows(100, 3), 3);
    const dec = new ColumnDecimator(store);
    dec.update([1, 0], 20, 40, 10);
    expect([dec.loOf, dec.hiOf]).toEqual([
      [40, 20],
      [80, 40],
    ]);
    expect([dec.lo, dec.hi]).toEqual([20, 80]);
    expect([dec.t0, dec.t1, dec.columns]).toEqual([20, 40, 10]);
    expect(dec.timeOf(0)).toBe(21);
    expect(dec.first[1][0]).toBe(20);
    expect(dec.last[1][9]).toBe(40);
  });

  it('incremental updates give the same columns as one full pass', () => {
    const f = (t: number, s: number) => Math.sin(t / 7 + s) * 100 + s;
    const all = rows(1000, 3, 0, 0.1, f);
    const a = new SampleStore();
    a.reset(meta(2));
    const incremental = new ColumnDecimator(a);
    for (let i = 0; i < 1000; i += 37) {
      a.append(all.subarray(i * 3, Math.min(1000, i + 37) * 3), 3);
      incremental.update([0, 1], 0, 100, 123);
    }
    const b = new SampleStore();
    b.reset(meta(2));
    b.append(all, 3);
    const full = new ColumnDecimator(b);
    full.update([0, 1], 0, 100, 123);
    for (const key of ['first', 'last', 'min', 'max', 'gapBefore'] as const) {
      expect(incremental[key].map((c) => [...c])).toEqual(full[key].map((c) => [...c]));
    }
  });

  it('does no work when nothing was appended, and starts over after a store reset', () => {
    const store = new SampleStore();
    store.reset(meta(1));
    store.append(rows(10, 2), 2);
    const dec = new ColumnDecimator(store);
    expect(dec.update([0], 0, 10, 5)).toBe(true);
    expect(dec.update([0], 0, 10, 5)).toBe(false);
    store.reset(meta(1));
    expect(dec.update([0], 0, 10, 5)).toBe(true);
    expect(dec.first[0].every(Number.isNaN)).toBe(true);
  });

  it('cost per frame is bounded by the new rows, not by the run length', () => {
    const store = new SampleStore();
    store.reset(meta(1));
    store.append(rows(200_000, 2, 0, 0.001), 2);
    const dec = new ColumnDecimator(store);
    dec.update([0], 0, 200, 800);
    // Count the samples an update reads (not the time it takes: a wall-clock bound fails on a
    // busy machine and proves nothing on an idle one).
    let reads = 0;
    const series = store.series.bind(store);
    store.series = (i: number) =>
      new Proxy(series(i), {
        get: (target, key) => {
          if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
          return Reflect.get(target, key);
        },
      });
    // A frame with a few new rows reads only those; one with none reads nothing.
    store.append(rows(5, 2, 200, 0.001), 2);
    dec.update([0], 0, 200, 800);
    const afterNew = reads;
    expect(afterNew).toBeGreaterThan(0); // the one at t = 200 ms is in the window
    expect(afterNew).toBeLessThanOrEqual(5);
    for (let i = 0; i < 1000; i++) dec.update([0], 0, 200, 800);
    expect(reads).toBe(afterNew);
  });
});

describe('ColumnDecimator: what an update changed', () => {
  const rows = (from: number, to: number) => {
    const out: number[] = [];
    for (let t = from; t < to; t++) out.push(t, t * 2);
    return new Float64Array(out);
  };
  it('names the columns new rows fell in, and a restart when the window or the run changes', () => {
    const store = new SampleStore();
    store.reset(meta(1));
    const dec = new ColumnDecimator(store);
    store.append(rows(0, 30), 2);
    expect(dec.update([0], 0, 100, 100)).toBe(true);
    expect(dec.restarted).toBe(true);
    store.append(rows(30, 45), 2);
    expect(dec.update([0], 0, 100, 100)).toBe(true);
    expect([dec.restarted, dec.changedFrom, dec.changedTo]).toEqual([false, 30, 44]);
    // Nothing new: nothing changed.
    expect(dec.update([0], 0, 100, 100)).toBe(false);
    expect(dec.changedFrom).toBe(100);
    // A zoom starts over.
    expect(dec.update([0], 0, 50, 100)).toBe(true);
    expect(dec.restarted).toBe(true);
    // A scrub back (rows dropped) cuts the columns back: the column of the last row kept
    // (t = 39, the rows of column 39 of this 0.5 ms grid) and the ones after it.
    store.truncateFrom(40);
    expect(dec.update([0], 0, 50, 100)).toBe(true);
    expect([dec.restarted, dec.cut, dec.changedFrom, dec.changedTo]).toEqual([false, true, 78, 88]);
    expect(dec.lastValued[0]).toBe(78);
    expect(dec.first[0][80]).toBeNaN();
  });
});

/** Everything a decimator shows, to compare two. */
function shown(dec: ColumnDecimator) {
  const cols = (a: ArrayLike<number>[]) => a.map((c) => Array.from(c));
  return {
    first: cols(dec.first),
    last: cols(dec.last),
    min: cols(dec.min),
    max: cols(dec.max),
    gapBefore: cols(dec.gapBefore),
    loOf: dec.loOf,
    hiOf: dec.hiOf,
    lo: dec.lo,
    hi: dec.hi,
    firstValued: dec.firstValued,
    lastValued: dec.lastValued,
  };
}

/** A decimator made at once from the rows `store` keeps now. */
function freshFrom(store: SampleStore, series: number[], t0: number, t1: number, columns: number) {
  const copy = new SampleStore();
  copy.reset(store.meta);
  copy.append(store.rowMajor(), store.meta.length + 1);
  const dec = new ColumnDecimator(copy);
  dec.update(series, t0, t1, columns);
  return dec;
}

describe('ColumnDecimator: a step back', () => {
  it('cuts a column in two: keeps the values of the rows before the cut, forgets the ones after', () => {
    const store = new SampleStore();
    store.reset(meta(1));
    // t = 0..99, one column per 10 ms; in column 4 (40–49 ms) the values 40..45 then 1000.
    store.append(rows(100, 2, 0, 1, (t) => (t >= 46 && t < 50 ? 1000 : t)), 2);
    const dec = new ColumnDecimator(store);
    dec.update([0], 0, 100, 10);
    expect(dec.max[0][4]).toBe(1000);
    store.truncateFrom(46);
    dec.update([0], 0, 100, 10);
    expect([dec.first[0][4], dec.last[0][4], dec.min[0][4], dec.max[0][4]]).toEqual([40, 45, 40, 45]);
    expect([dec.first[0][3], dec.last[0][3]]).toEqual([30, 39]);
    expect(dec.first[0][5]).toBeNaN();
    expect([dec.lastValued[0], dec.hi]).toEqual([4, 45]);
    expect([dec.changedFrom, dec.changedTo]).toEqual([4, 9]);
  });

  it('reads again only the rows of the last column kept, not the run', () => {
    const store = new SampleStore();
    store.reset(meta(1));
    store.append(rows(200_000, 2, 0, 0.001), 2); // 200 ms, 250 rows a column
    const dec = new ColumnDecimator(store);
    dec.update([0], 0, 200, 800);
    let reads = 0;
    const series = store.series.bind(store);
    store.series = (i: number) =>
      new Proxy(series(i), {
        get: (target, key) => {
          if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
          return Reflect.get(target, key);
        },
      });
    store.truncateFrom(150.1); // in the middle of column 600 (150–150.25 ms)
    dec.update([0], 0, 200, 800);
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThanOrEqual(250 + 1);
    expect(dec.last[0][600]).toBeCloseTo(150.099, 9);
  });

  // Random rows (some without a value), windows, widths and steps back, with rows appended
  // between: after every update the columns are those a decimator makes of the same rows at
  // once, and what the update said it changed covers every column that did.
  it('shows what a fresh decimator shows of the rows kept, after any steps back and forth', () => {
    const value = fc.oneof(fc.constant(NaN), fc.integer({ min: -50, max: 50 }));
    const row = fc.tuple(fc.oneof(fc.constant(0), fc.double({ min: 0.01, max: 3, noNaN: true })), value, value);
    // Each step: rows appended, an update (or not), a step back to a fraction of the time
    // reached (or none; below 0: to the start), an update (or not: steps pile up).
    const step = fc.record({
      rows: fc.array(row, { maxLength: 30 }),
      seenBefore: fc.boolean(),
      back: fc.option(fc.oneof(fc.double({ min: 0, max: 1.1, noNaN: true }), fc.constant(-1)), { nil: null }),
      seenAfter: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 1, maxLength: 25 }),
        fc.double({ min: -5, max: 30, noNaN: true }),
        fc.double({ min: 0, max: 60, noNaN: true }),
        fc.integer({ min: 1, max: 40 }),
        fc.boolean(),
        fc.constantFrom<number[]>([0, 1], [1], [1, 0]),
        (steps, t0, width, columns, small, series) => {
          // A small budget (256 rows) merges rows into buckets and widens the last one in place.
          const store = small ? new SampleStore(16, 1) : new SampleStore();
          store.reset(meta(2));
          const dec = new ColumnDecimator(store);
          const t1 = t0 + width;
          const seen = () => {
            const before = dec.columns === columns ? shown(dec) : null;
            dec.update(series, t0, t1, columns);
            const now = shown(dec);
            expect(now).toEqual(shown(freshFrom(store, series, t0, t1, columns)));
            if (!before || dec.restarted) return;
            const changedOutside: string[] = [];
            for (const key of ['first', 'last', 'min', 'max', 'gapBefore'] as const)
              for (let s = 0; s < series.length; s++)
                for (let c = 0; c < columns; c++) {
                  const [a, b] = [now[key][s][c], before[key][s][c]];
                  if ((c < dec.changedFrom || c > dec.changedTo) && !Object.is(a, b)) changedOutside.push(`${key}[${s}][${c}]: ${b} → ${a}`);
                }
            expect(changedOutside).toEqual([]);
          };
          let t = 0;
          for (const { rows: some, seenBefore, back, seenAfter } of steps) {
            const n = small ? some.length * 12 : some.length;
            const out = new Float64Array(n * 3);
            for (let r = 0; r < n; r++) {
              const [dt, a, b] = some[r % some.length];
              t += dt;
              out.set([t, a, b], r * 3);
            }
            store.append(out, 3);
            if (seenBefore) seen();
            if (back !== null) {
              store.truncateFrom(back * t);
              t = Math.min(t, store.length ? store.times()[store.length - 1] : 0);
            }
            if (seenAfter) seen();
          }
          seen();
        },
      ),
      { numRuns: 200 },
    );
    // (A time limit for a loaded machine, not a speed requirement: a run takes about a second.)
  }, 30_000);
});
