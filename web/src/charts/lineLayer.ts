// A time chart's lines on a canvas of their own, over uPlot's (which keeps the axes, the grid and
// what lies under the lines) and under its cursor layer. Drawn whole (one stroke per line) when
// anything but the data changed; while a run grows, only the tiles the new columns reach
// (lineTiles.ts), so a frame costs what is new, not everything drawn so far.
// Each line is stroked as uPlot strokes a series (width in canvas px rounded so, the half-pixel
// offset of odd widths, round joins), clipped to the plot and half the widest line's width around it.

import { traceColumns } from './columnPath';
import { DashArcs, regionColumns, spanOf, tileStart, type TileGrid } from './lineTiles';
import type { ColumnDecimator } from './sampleStore';

/** One line as drawn: its decimator series and its look (widths and dashes in canvas px). */
export interface LineInk {
  series: number;
  color: string;
  width: number;
  dash: number[];
  cap: CanvasLineCap;
  alpha: number;
}

/** Where the plot is and how columns and values map to the canvas (canvas px). */
export interface LineGeometry {
  left: number;
  top: number;
  width: number;
  height: number;
  /** The x of column c and the y of a stored value. */
  x(c: number): number;
  y(v: number): number;
}

/** Canvas px of anti-aliasing beyond a stroke's geometric edge, kept inside a tile's reach. */
const AA_PX = 2;

export class LineLayer {
  readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  /** The dashed lines' dash offsets (by decimator series), kept while the geometry holds. */
  private readonly arcs = new Map<number, DashArcs>();

  constructor(private readonly dec: ColumnDecimator) {
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'chart-lines';
    this.canvas.setAttribute('aria-hidden', 'true');
    this.ctx = this.canvas.getContext('2d')!;
  }

  /** Takes the size of the chart's own canvas (which clears the lines). */
  fit(chart: HTMLCanvasElement) {
    if (this.canvas.width !== chart.width) this.canvas.width = chart.width;
    if (this.canvas.height !== chart.height) this.canvas.height = chart.height;
    if (this.canvas.style.width !== chart.style.width) this.canvas.style.width = chart.style.width;
    if (this.canvas.style.height !== chart.style.height) this.canvas.style.height = chart.style.height;
  }

  /** The tiles of the drawing now. */
  grid(geo: LineGeometry, lines: LineInk[]): TileGrid {
    const columns = Math.max(1, this.dec.columns);
    return { columns, left: geo.left, columnPx: geo.width / columns, canvasWidth: this.canvas.width, reach: widestOf(lines) / 2 + 0.5 + AA_PX };
  }

  /**
   * Clears canvas columns [x0, x1) and clips what follows to them and to uPlot's bounds (the
   * plot and half the widest line around it), lines joined round; false: nothing of the plot
   * lies there. The caller restores the context.
   */
  private clipped(geo: LineGeometry, lines: LineInk[], x0: number, x1: number): boolean {
    const ctx = this.ctx;
    ctx.clearRect(x0, 0, x1 - x0, this.canvas.height);
    const half = widestOf(lines) / 2;
    const cl = Math.max(x0, geo.left - half);
    const cr = Math.min(x1, geo.left + geo.width + half);
    if (cr <= cl) return false;
    ctx.save();
    ctx.beginPath();
    ctx.rect(cl, geo.top - half, cr - cl, geo.height + 2 * half);
    ctx.clip();
    ctx.lineJoin = 'round';
    return true;
  }

  /** Draws every line whole, one stroke each (as fast as a full drawing gets). */
  drawAll(geo: LineGeometry, lines: LineInk[]) {
    const dec = this.dec;
    const ctx = this.ctx;
    for (const a of this.arcs.values()) a.reset();
    if (!this.clipped(geo, lines, 0, this.canvas.width)) return;
    for (const l of lines) {
      if (l.width <= 0 || l.alpha <= 0 || !dec.first[l.series]) continue;
      const off = offsetOf(l.width);
      const path = new Path2D();
      traceColumns(dec, l.series, (c) => geo.x(c) + off, (v) => geo.y(v) + off, path);
      this.ink(l, 0);
      ctx.stroke(path);
    }
    ctx.restore();
  }

  private ink(l: LineInk, dashOffset: number) {
    const ctx = this.ctx;

    ctx.globalAlpha = l.alpha;
    ctx.strokeStyle = l.color;
    ctx.lineWidth = l.width;
    ctx.lineCap = l.cap;
    ctx.setLineDash(l.dash);
    ctx.lineDashOffset = dashOffset;
  }

  /**
   * Redraws tiles first … last, as one region (cleared, clipped, each line stroked once through
   * the columns that reach it): the columns from `changedFrom` on are new since the last drawing.
   */
  drawTiles(geo: LineGeometry, lines: LineInk[], first: number, last: number, changedFrom: number) {
    const g = this.grid(geo, lines);
    const dec = this.dec;
    const ctx = this.ctx;
    const x0 = tileStart(g, first);
    const x1 = tileStart(g, last + 1);
    if (x1 <= x0 || !this.clipped(geo, lines, x0, x1)) return;
    const [lo, hi] = regionColumns(g, first, last);
    for (const l of lines) {
      const s = l.series;
      if (l.width <= 0 || l.alpha <= 0 || !dec.first[s]) continue;
      const span = spanOf(lo, hi, { first: dec.first[s], firstValued: dec.firstValued[s], lastValued: dec.lastValued[s] });
      if (!span) continue;
      const off = offsetOf(l.width);
      const x = (c: number) => geo.x(c) + off;
      const y = (v: number) => geo.y(v) + off;
      if (l.dash.length === 0) {
        const path = new Path2D();
        traceColumns(dec, s, x, y, path, span[0], span[1]);
        this.ink(l, 0);
        ctx.stroke(path);
        continue;
      }
      // A dash pattern starts over at each sub-path: one stroke per sub-path, each from its own
      // place in the pattern.
      const line = { first: dec.first[s], min: dec.min[s], max: dec.max[s], last: dec.last[s], gapBefore: dec.gapBefore[s], held: dec.held[s] };
      let arcs = this.arcs.get(s);
      if (!arcs) this.arcs.set(s, (arcs = new DashArcs()));
      arcs.measure(line, x, y, changedFrom, span[1]);
      let from = span[0];
      while (from <= span[1]) {
        let to = from + 1;
        while (to <= span[1] && !(line.gapBefore[to] && !Number.isNaN(line.first[to]))) to++;
        const path = new Path2D();
        traceColumns(dec, s, x, y, path, from, to - 1);
        this.ink(l, arcs.at(from));
        ctx.stroke(path);
        from = to;
      }
    }
    ctx.restore();
  }
}

/** The widest line's width (canvas px). */
function widestOf(lines: LineInk[]): number {
  let widest = 0;
  for (const l of lines) widest = Math.max(widest, l.width);
  return widest;
}

/** uPlot's half-pixel offset for lines of odd width (canvas px). */
function offsetOf(width: number): number {
  return (width % 2) / 2;
}
