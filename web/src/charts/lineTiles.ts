// Where a chart's lines are redrawn while a run grows: in tiles, fixed vertical strips of the
// canvas, each holding a fixed run of decimator columns. A frame redraws only the tiles that the
// new columns reach, as one region (cleared, clipped, every line stroked through the columns that
// can reach it); anything else draws every line whole. A line is traced in a tile from its last
// value before the columns that reach it, so a redrawn tile shows the same lines as a whole
// drawing; only the anti-aliasing where a tile meets the next may differ (tests/e2e/charts.spec.ts
// measures it).
//
//   pixels:  | tile 0 | tile 1 | tile 2 | …          tile k: [start(k), start(k + 1))
//   a line in tile 1:  from the last value left of  [start(1) − reach, start(2) + reach]
//                      to the first value right of it (the segments that cross into the tile)
//
// Pure functions: lineLayer.ts draws with them, and the tests check them without a canvas.

/** Decimator columns per tile (a column is one CSS px of the plot). */
export const TILE_COLUMNS = 64;

/** How a chart's canvas is cut into tiles (all in canvas px). */
export interface TileGrid {
  /** The decimator's column count. */
  columns: number;
  /** The plot's left edge and the canvas px one column takes. */
  left: number;
  columnPx: number;
  /** The canvas's width: the last tile ends there. */
  canvasWidth: number;
  /** How far a stroke can reach beyond its vertices (half the widest line and its anti-aliasing). */
  reach: number;
}

export function tileCount(g: TileGrid): number {
  return Math.max(1, Math.ceil(g.columns / TILE_COLUMNS));
}

/** The first canvas pixel column of tile k (the first tile starts at the canvas's edge). */
export function tileStart(g: TileGrid, k: number): number {
  if (k <= 0) return 0;
  if (k >= tileCount(g)) return g.canvasWidth;
  return Math.min(g.canvasWidth, Math.max(0, Math.round(g.left + k * TILE_COLUMNS * g.columnPx)));
}

/** The columns whose vertices can reach tile k's pixels: [lo, hi] (lo > hi: none). */
export function reachingColumns(g: TileGrid, k: number): [number, number] {
  const from = tileStart(g, k) - g.reach;
  const to = tileStart(g, k + 1) + g.reach;
  const lo = Math.max(0, Math.ceil((from - g.left) / g.columnPx - 0.5));
  const hi = Math.min(g.columns - 1, Math.floor((to - g.left) / g.columnPx - 0.5));
  return [lo, hi];
}

/** One line's columns, as a span needs them: `first` (NaN: no value) and where its values lie. */
export interface LineColumns {
  first: Float64Array;
  /** The first and the last column with a value (-1: none). */
  firstValued: number;
  lastValued: number;
}

/**
 * The columns a line is traced through to draw columns [lo, hi] (the columns that reach a region
 * of tiles): from the last valued column before lo (its segment into them crosses the region's
 * edge) to the first valued one after hi, or as far as the line goes. Null: no value there.
 */
export function spanOf(lo: number, hi: number, line: LineColumns): [number, number] | null {
  const { first, firstValued: fv, lastValued: lv } = line;
  if (lv < 0 || lo > hi) return null;
  let a = -1;
  for (let c = Math.min(lo - 1, lv); c >= fv; c--)
    if (!Number.isNaN(first[c])) {
      a = c;
      break;
    }
  if (a < 0)
    for (let c = Math.max(lo, fv); c <= Math.min(hi, lv); c++)
      if (!Number.isNaN(first[c])) {
        a = c;
        break;
      }
  let b = -1;
  for (let c = Math.max(hi + 1, fv); c <= lv; c++)
    if (!Number.isNaN(first[c])) {
      b = c;
      break;
    }
  if (b < 0)
    for (let c = Math.min(hi, lv); c >= Math.max(lo, fv); c--)
      if (!Number.isNaN(first[c])) {
        b = c;
        break;
      }
  if (a < 0 || b < 0 || a > b) return null;
  return [a, b];
}

/** The columns that reach tiles first … last: [lo, hi]. */
export function regionColumns(g: TileGrid, first: number, last: number): [number, number] {
  return [reachingColumns(g, first)[0], reachingColumns(g, last)[1]];
}

/**
 * The tiles to redraw after the decimator took new rows into columns [changedFrom, changedTo]
 * (its columns before changedFrom unchanged): every tile whose span (tileSpan) a new value
 * enters. A line's span in tile k reaches past its reaching columns only to its next value, so a
 * new value at column c ≥ changedFrom enters tile k's span iff the line's last value before
 * changedFrom (its `previous`) is not right of the tile's reaching columns, or c itself reaches
 * the tile. `previous[s]` is line s's last valued column before changedFrom (-1: none), null for a
 * line that took no new value. Returns [first, last] tile, or null: none.
 */
export function tilesToRedraw(g: TileGrid, changedFrom: number, changedTo: number, previous: (number | null)[]): [number, number] | null {
  let from = Infinity;
  for (const p of previous) if (p !== null) from = Math.min(from, p < 0 ? changedFrom : p);
  if (from === Infinity || changedFrom > changedTo) return null;
  const n = tileCount(g);
  let first = 0;
  while (first < n && reachingColumns(g, first)[1] < from) first++;
  // The last tile a changed column's stroke reaches (tiles right of it see no new vertex).
  let last = first;
  while (last + 1 < n && reachingColumns(g, last + 1)[0] <= changedTo) last++;
  return first < n ? [first, last] : null;
}

/** One line's columns as traceColumns draws them (per column: first, min, max, last; a gap flag;
 *  `held`: joined in steps). */
export interface LineVertices {
  first: Float64Array;
  min: Float64Array;
  max: Float64Array;
  last: Float64Array;
  gapBefore: Uint8Array;
  held?: boolean;
}

/**
 * How far along its sub-path (canvas px) each column's first vertex lies, for a dashed line: a
 * dash pattern starts over at every sub-path, so a path starting mid-line takes this as its dash
 * offset. Walks the vertices as traceColumns draws them (first, min, max, last), and keeps what
 * it measured: columns before the first one changed since are not measured again.
 */
export class DashArcs {
  private arc = new Float64Array(0);
  /** The length at each column's last vertex. */
  private tail = new Float64Array(0);
  /** Columns before this are measured and final. */
  private measured = 0;

  /** Forgets everything (the geometry changed). */
  reset() {
    this.measured = 0;
  }

  /** The offset at column c's first vertex (0 where unmeasured or no value). */
  at(c: number): number {
    const v = c < this.measured ? this.arc[c] : NaN;
    return Number.isNaN(v) ? 0 : v;
  }

  /**
   * Measures columns up to `upTo`, starting again at `changedFrom` (the columns from there on
   * may have changed) or where it stopped before.
   */
  measure(line: LineVertices, x: (c: number) => number, y: (v: number) => number, changedFrom: number, upTo: number) {
    const n = line.first.length;
    if (this.arc.length !== n) {
      this.arc = new Float64Array(n);
      this.tail = new Float64Array(n);
      this.measured = 0;
    }
    let from = Math.min(this.measured, Math.max(0, changedFrom));
    // Resume after the last valued column before `from`, at its last vertex.
    let p = from - 1;
    while (p >= 0 && Number.isNaN(line.first[p])) p--;
    let started = p >= 0;
    let length = started ? this.tail[p] : 0;
    let px = started ? x(p) : 0;
    let py = started ? y(line.last[p]) : 0;
    const to = (nx: number, ny: number) => {
      length += Math.hypot(nx - px, ny - py);
      px = nx;
      py = ny;
    };
    const end = Math.min(upTo, n - 1);
    for (let c = from; c <= end; c++) {
      const f = line.first[c];
      if (Number.isNaN(f)) {
        this.arc[c] = NaN;
        continue;
      }
      const cx = x(c);
      if (!started || line.gapBefore[c]) {
        length = 0;
        px = cx;
        py = y(f);
        started = true;
      } else {
        if (line.held && line.last[p] !== f) to(cx, y(line.last[p]));
        to(cx, y(f));
      }
      p = c;
      this.arc[c] = length;
      if (line.max[c] !== line.min[c]) {
        to(cx, y(line.min[c]));
        to(cx, y(line.max[c]));
      }
      to(cx, y(line.last[c]));
      this.tail[c] = length;
    }
    this.measured = Math.max(from, end + 1);
  }
}
