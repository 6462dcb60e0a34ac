import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DashArcs, reachingColumns, regionColumns, spanOf, TILE_COLUMNS, tileCount, tileStart, tilesToRedraw, type LineColumns, type TileGrid } from './lineTiles';

const grid = (columns: number, over: Partial<TileGrid> = {}): TileGrid => ({ columns, left: 50, columnPx: 1, canvasWidth: 50 + columns + 14, reach: 3.5, ...over });

/** A line from a pattern: a number is a value, null none. */
function line(values: (number | null)[]): LineColumns & { min: Float64Array; max: Float64Array; last: Float64Array; gapBefore: Uint8Array } {
  const first = new Float64Array(values.map((v) => (v === null ? NaN : v)));
  const valued = values.flatMap((v, c) => (v === null ? [] : [c]));
  return {
    first,
    min: first.slice(),
    max: first.slice(),
    last: first.slice(),
    gapBefore: new Uint8Array(values.length),
    firstValued: valued.length ? valued[0] : -1,
    lastValued: valued.length ? valued[valued.length - 1] : -1,
  };
}

describe('tiles', () => {
  it('cut the canvas into strips from its left edge to its right one, a fixed run of columns each', () => {
    const g = grid(200);
    const n = tileCount(g);
    expect(n).toBe(Math.ceil(200 / TILE_COLUMNS));
    expect(tileStart(g, 0)).toBe(0);
    expect(tileStart(g, n)).toBe(g.canvasWidth);
    for (let k = 1; k < n; k++) {
      expect(tileStart(g, k)).toBe(50 + k * TILE_COLUMNS);
      expect(tileStart(g, k)).toBeGreaterThan(tileStart(g, k - 1));
    }
  });

  it('are reached by the columns within a stroke of them', () => {
    const g = grid(200);
    // Column c sits at x = 50 + c + 0.5; tile 1 covers [50 + 64, 50 + 128).
    const [lo, hi] = reachingColumns(g, 1);
    expect(lo).toBe(TILE_COLUMNS - 4); // x = 110.5, 3.5 px short of the tile: reaches it
    expect(hi).toBe(2 * TILE_COLUMNS + 3); // x = 181.5, 3.5 px past its end: reaches back into it
    // The first and the last tile reach the canvas's edges: every column reaches some tile.
    expect(reachingColumns(g, 0)[0]).toBe(0);
    expect(reachingColumns(g, tileCount(g) - 1)[1]).toBe(199);
  });
});

describe('spanOf', () => {
  it('takes a dense line from the column before the region to the one after it', () => {
    const l = line(Array.from({ length: 40 }, (_, c) => c));
    expect(spanOf(10, 20, l)).toEqual([9, 21]);
    expect(spanOf(0, 39, l)).toEqual([0, 39]);
  });

  it('reaches back and on to the nearest values of a sparse line (their segments cross the region)', () => {
    const v: (number | null)[] = Array(40).fill(null);
    v[2] = 1;
    v[15] = 2;
    v[33] = 3;
    const l = line(v);
    expect(spanOf(10, 20, l)).toEqual([2, 33]);
    // Nothing after the region yet: the line ends at its last value.
    expect(spanOf(20, 39, l)).toEqual([15, 33]);
    // Past its last value nothing of it reaches the region.
    expect(spanOf(34, 39, l)).toBeNull();
    // Nothing before it: it starts at its first value.
    expect(spanOf(0, 5, l)).toEqual([2, 15]);
  });

  it('is null for a line with no value', () => {
    expect(spanOf(0, 9, line(Array(10).fill(null)))).toBeNull();
  });
});

describe('tilesToRedraw', () => {
  it("redraws from the tile a line's last value before the new columns reaches to the last a new one reaches", () => {
    const g = grid(640);
    // New columns 300..340; a dense line's previous value is 299 (tile 4's reach, 252..323).
    expect(tilesToRedraw(g, 300, 340, [299])).toEqual([4, 5]);
    // A sparse line last valued at column 100 (tile 1): its segment to the new value crosses tiles 1..4.
    expect(tilesToRedraw(g, 300, 340, [299, 100])).toEqual([1, 5]);
    // A line's first value ever: from the tile the new column reaches.
    expect(tilesToRedraw(g, 300, 340, [-1])).toEqual([4, 5]);
    // No line took a value: nothing to redraw.
    expect(tilesToRedraw(g, 300, 340, [null, null])).toBeNull();
  });

  it('includes every tile whose traced columns change when new columns come (any line, any cut)', () => {
    // Lines as value patterns; the run grows from `cut` columns to all of them. A tile must be
    // redrawn if its span (what it traces) differs, or reaches a new column.
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.boolean(), { minLength: 300, maxLength: 300 }), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 299 }),
        (patterns, cut) => {
          const g = grid(300);
          const after = patterns.map((p) => line(p.map((on, c) => (on ? c : null))));
          const before = patterns.map((p) => line(p.map((on, c) => (on && c < cut ? c : null))));
          const previous = after.map((l, i) => (l.lastValued < cut ? null : before[i].lastValued));
          const lastNew = Math.max(...after.map((l) => l.lastValued));
          const redrawn = tilesToRedraw(g, cut, Math.max(cut, lastNew), previous);
          for (let k = 0; k < tileCount(g); k++) {
            const [lo, hi] = regionColumns(g, k, k);
            const changed = after.some((l, i) => {
              const a = spanOf(lo, hi, l);
              const b = spanOf(lo, hi, before[i]);
              return JSON.stringify(a) !== JSON.stringify(b) || (a !== null && a[1] >= cut);
            });
            if (changed) expect(redrawn !== null && redrawn[0] <= k && k <= redrawn[1], `tile ${k}`).toBe(true);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('DashArcs', () => {
  const x = (c: number) => c * 10;
  const y = (v: number) => v;

  it("measures how far along its sub-path each column's first vertex is, starting over after a gap", () => {
    const l = line([0, 0, 30, null, 5, 5]);
    l.gapBefore[4] = 1;
    const arcs = new DashArcs();
    arcs.measure(l, x, y, 0, 5);
    expect([0, 1, 2, 4, 5].map((c) => arcs.at(c))).toEqual([0, 10, 10 + Math.hypot(10, 30), 0, 10]);
  });

  it('measures a held line along its steps, as traceColumns draws it', () => {
    const l = { ...line([0, 30, null, 30, 5]), held: true };
    const arcs = new DashArcs();
    arcs.measure(l, x, y, 0, 4);
    // 0 → level to column 1, up 30; level over the empty column to 3; level to 4, down 25.
    expect([0, 1, 3, 4].map((c) => arcs.at(c))).toEqual([0, 40, 60, 95]);
  });

  it('measured as the run grows gives what one measurement of the whole gives', () => {
    const whole = line([1, 4, 2, 8, 5, 7, 3, 9]);
    const growing = line([1, 4, 2, 8, null, null, null, null]);
    const step = new DashArcs();
    step.measure(growing, x, y, 0, 7);
    // Column 3 took more rows (its last value moved) and four more columns came.
    growing.last[3] = 6;
    whole.last[3] = 6;
    for (let c = 4; c < 8; c++) {
      growing.first[c] = growing.min[c] = growing.max[c] = growing.last[c] = whole.first[c];
    }
    step.measure(growing, x, y, 3, 7);
    const once = new DashArcs();
    once.measure(whole, x, y, 0, 7);
    for (let c = 0; c < 8; c++) expect(step.at(c)).toBeCloseTo(once.at(c), 9);
  });
});
