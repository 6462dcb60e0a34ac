// Canvas drawing of one time chart: D3 scales for the mapping and the ticks, lines from the
// per-pixel-column aggregates of a ColumnDecimator (so a frame costs O(width), whatever the
// run's length).

import { scaleLinear } from 'd3-scale';
import type { ColumnDecimator } from './sampleStore';
import type { SeriesKind } from '../contract/engine';
import { DASH, type LineStyle } from './palette';

export interface ChartLine {
  /** Series index in the sample store. */
  index: number;
  /** Connection or port the series belongs to (one colour per owner). */
  owner: string;
  kind: SeriesKind;
  color: string;
  style: LineStyle;
  label: string;
  unit: string;
}

export interface ChartFrame {
  width: number; // CSS px
  height: number; // CSS px
  dpr: number;
  t0: number; // ms
  t1: number; // ms
  y0: number;
  y1: number;
  yUnit: string;
  cursorX: number | null; // CSS px within the canvas
  /** Times (ms) of the parameter changes made during the run, drawn as thin vertical lines. */
  markers: number[];
  /** Shown value = stored value × scale (e.g. Mbps shown as Gbps: 0.001); y0, y1 are shown values. */
  scale?: number;
}

export const MARGIN = { left: 56, right: 14, top: 10, bottom: 30 };

export function plotWidth(width: number) {
  return Math.max(10, Math.floor(width - MARGIN.left - MARGIN.right));
}

const FONT = '11px ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

export function scales(f: ChartFrame) {
  const x = scaleLinear().domain([f.t0, f.t1]).range([MARGIN.left, MARGIN.left + plotWidth(f.width)]);
  const y = scaleLinear()
    .domain([f.y0, f.y1])
    .range([f.height - MARGIN.bottom, MARGIN.top]);
  return { x, y };
}

/** A y domain that starts at 0 (or below, for negative data) and ends on a nice number. */
export function niceDomain(lo: number, hi: number, floorHi: number): [number, number] {
  const a = Math.min(0, Number.isFinite(lo) ? lo : 0);
  // Pad above the data, unless the data stays within the floor (e.g. 100 % utilisation).
  const b = Number.isFinite(hi) && hi > floorHi ? hi * 1.05 : floorHi;
  const d = scaleLinear().domain([a, b]).nice(6).domain();
  return [d[0], d[1]];
}

function formatTick(v: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e6) return `${+(v / 1e6).toFixed(1)}M`;
  if (a >= 1e4) return `${+(v / 1e3).toFixed(1)}k`;
  return `${+v.toFixed(3)}`;
}

export function drawChart(
  ctx: CanvasRenderingContext2D,
  f: ChartFrame,
  dec: ColumnDecimator,
  lines: ChartLine[],
) {
  const { x, y } = scales(f);
  const left = MARGIN.left;
  const right = left + plotWidth(f.width);
  const top = MARGIN.top;
  const bottom = f.height - MARGIN.bottom;

  ctx.save();
  ctx.setTransform(f.dpr, 0, 0, f.dpr, 0, 0);
  ctx.clearRect(0, 0, f.width, f.height);
  ctx.font = FONT;

  // Grid and y axis.
  ctx.strokeStyle = '#e7ebf0';
  ctx.lineWidth = 1;
  ctx.fillStyle = '#5b6675';
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const v of y.ticks(5)) {
    const py = Math.round(y(v)) + 0.5;
    ctx.beginPath();
    ctx.moveTo(left, py);
    ctx.lineTo(right, py);
    ctx.stroke();
    ctx.fillText(formatTick(v), left - 6, py);
  }
  // x axis: in seconds once the run is 10 s or longer.
  const seconds = x.domain()[1] >= 10_000;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const v of x.ticks(Math.max(2, Math.floor((right - left) / 80)))) {
    const px = Math.round(x(v)) + 0.5;
    ctx.strokeStyle = '#f0f2f5';
    ctx.beginPath();
    ctx.moveTo(px, top);
    ctx.lineTo(px, bottom);
    ctx.stroke();
    ctx.strokeStyle = '#9aa5b1';
    ctx.beginPath();
    ctx.moveTo(px, bottom);
    ctx.lineTo(px, bottom + 4);
    ctx.stroke();
    ctx.fillText(formatTick(seconds ? v / 1000 : v), px, bottom + 6);
  }
  ctx.strokeStyle = '#9aa5b1';
  ctx.beginPath();
  ctx.moveTo(left + 0.5, top);
  ctx.lineTo(left + 0.5, bottom + 0.5);
  ctx.lineTo(right, bottom + 0.5);
  ctx.stroke();
  // Axis titles with units.
  ctx.fillStyle = '#5b6675';
  ctx.textAlign = 'right';
  ctx.textBaseline = 'bottom';
  ctx.fillText(seconds ? 'time (s)' : 'time (ms)', right, f.height - 1);
  ctx.save();
  ctx.translate(12, (top + bottom) / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(f.yUnit, 0, 0);
  ctx.restore();

  // Parameter changes: under the series, so they never hide a value.
  ctx.strokeStyle = 'rgba(217, 119, 6, 0.75)';
  ctx.setLineDash([4, 3]);
  for (const t of f.markers) {
    if (t < f.t0 || t > f.t1) continue;
    const px = Math.round(x(t)) + 0.5;
    ctx.beginPath();
    ctx.moveTo(px, top);
    ctx.lineTo(px, bottom);
    ctx.stroke();
  }
  ctx.setLineDash([]);

  // Series, clipped to the plot area. Draw reference lines (dashed/dotted) under the solid ones.
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, top - 2, right - left + 2, bottom - top + 4);
  ctx.clip();
  const k = f.scale ?? 1;
  const ys = (v: number) => y(v * k);
  const order = lines.map((_, i) => i).sort((a, b) => rank(lines[b].style) - rank(lines[a].style));
  for (const s of order) {
    const line = lines[s];
    const first = dec.first[s];
    if (!first) continue;
    const min = dec.min[s];
    const max = dec.max[s];
    const last = dec.last[s];
    const gap = dec.gapBefore[s];
    ctx.strokeStyle = line.color;
    ctx.lineWidth = line.style === 'solid' ? 1.75 : 1.5;
    ctx.setLineDash(DASH[line.style]);
    ctx.lineCap = line.style === 'dotted' ? 'round' : 'butt';
    ctx.lineJoin = 'round';
    ctx.beginPath();
    let started = false;
    for (let c = 0; c < first.length; c++) {
      if (Number.isNaN(first[c])) continue;
      const px = left + c + 0.5;
      if (!started || gap[c]) {
        ctx.moveTo(px, ys(first[c]));
        started = true;
      } else {
        ctx.lineTo(px, ys(first[c]));
      }
      if (max[c] !== min[c]) {
        ctx.lineTo(px, ys(min[c]));
        ctx.lineTo(px, ys(max[c]));
      }
      ctx.lineTo(px, ys(last[c]));
    }
    ctx.stroke();
  }
  ctx.restore();

  if (f.cursorX !== null && f.cursorX >= left && f.cursorX <= right) {
    ctx.strokeStyle = 'rgba(31, 41, 55, 0.55)';
    ctx.lineWidth = 1;
    ctx.setLineDash([]);
    ctx.beginPath();
    ctx.moveTo(Math.round(f.cursorX) + 0.5, top);
    ctx.lineTo(Math.round(f.cursorX) + 0.5, bottom);
    ctx.stroke();
  }
  ctx.restore();
}

function rank(style: LineStyle) {
  return style === 'solid' ? 0 : style === 'dashed' ? 1 : 2;
}
