// The line of one series through the per-pixel-column aggregates of a ColumnDecimator: in each
// column, from the first value to the min and max and on to the last, so a spike inside a column
// stays visible and a frame costs O(columns) whatever the run's length. A series whose value
// holds between changes (ACR, a share, an algorithm's state: `SeriesMeta.held`) goes from one
// column to the next in a step, level and then straight up or down, as TM 4.0 changes a rate;
// the others in a straight line. One tracer for the screen (a uPlot path builder draws with it)
// and for the SVG export, so both draw the same line.

import type { ColumnDecimator } from './sampleStore';

/** Where a line goes: Path2D and the SVG path builder below both fit. */
export interface Pen {
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
}

/**
 * Traces series s (its position in the decimator's series list). `x(c)` is the position of
 * column c, `y(v)` that of a value; a gap (no value in between) starts a new sub-path. Columns
 * [from, to] only, when given (a chart's tile traces the columns that reach it), starting there.
 */
export function traceColumns(
  dec: ColumnDecimator,
  s: number,
  x: (c: number) => number,
  y: (v: number) => number,
  pen: Pen,
  from = 0,
  to = Infinity,
) {
  const first = dec.first[s];
  if (!first) return;
  const min = dec.min[s];
  const max = dec.max[s];
  const last = dec.last[s];
  const gap = dec.gapBefore[s];
  const held = dec.held[s] === true;
  let started = false;
  let before = NaN; // the last value of the previous column with one
  const end = Math.min(first.length - 1, to);
  for (let c = Math.max(0, from); c <= end; c++) {
    if (Number.isNaN(first[c])) continue;
    const px = x(c);
    if (!started || gap[c]) {
      pen.moveTo(px, y(first[c]));
      started = true;
    } else {
      if (held && before !== first[c]) pen.lineTo(px, y(before));
      pen.lineTo(px, y(first[c]));
    }
    before = last[c];
    if (max[c] !== min[c]) {
      pen.lineTo(px, y(min[c]));
      pen.lineTo(px, y(max[c]));
    }
    pen.lineTo(px, y(last[c]));
  }
}

/** A pen that writes an SVG path's `d` (coordinates rounded to 0.01 px). */
export class SvgPathPen implements Pen {
  private parts: string[] = [];
  private static n(v: number) {
    return `${Math.round(v * 100) / 100}`;
  }
  moveTo(x: number, y: number) {
    this.parts.push(`M${SvgPathPen.n(x)} ${SvgPathPen.n(y)}`);
  }
  lineTo(x: number, y: number) {
    this.parts.push(`L${SvgPathPen.n(x)} ${SvgPathPen.n(y)}`);
  }
  get d() {
    return this.parts.join('');
  }
}
