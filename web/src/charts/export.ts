// A chart as a file: its visible data as CSV (the visible series over the visible window, at full
// resolution), and the chart itself as a standalone SVG (title, legend, axes, lines) that the
// PNG export rasterises. Pure: they read the sample store and return text.

import { chartDomain, formatTick, ticks, timeAxis } from './axes';
import { placePublishedLabels, PLOT_GROUND, publishedWords, type PublishedLine } from './published';
import { coincidenceAtRow } from './readout';
import { traceColumns, SvgPathPen } from './columnPath';
import { coincidentOwners, legendModel, mainKindOf, markersShown, MARKER_LEGEND, type LegendModel } from './legend';
import { DASH, drawOrder, MARKER_COLOUR, PINNED_ALPHA, PINNED_SWATCH, type LineStyle } from './palette';
import { NORMAL_LOOK, type ChartLook } from './look';
import { ColumnDecimator, type SampleStore } from './sampleStore';
import { dashOf, type ChartLine } from './specs';

/** What is on screen: the lines shown (hidden ones left out) over the time window shown. */
export interface ChartExport {
  title: string;
  /** The lines shown, in legend order. */
  lines: ChartLine[];
  /** Time window (ms). */
  t0: number;
  t1: number;
  /** The shown unit and the factor from the engine's unit (shown = stored × yScale). */
  yUnit: string;
  yScale: number;
  yFloor: number;
  /** Parameter changes (ms). */
  markers: number[];
  /** Names of the line kinds in the style key. */
  kindName?: (kind: string) => string;
  /** A pinned run drawn faintly behind the lines (as on screen), named in the legend. */
  pinned?: PinnedExport;
  /** The study's published steady values (engine unit), drawn as on screen: dashed from the
   *  steady window's start to the run's end (`endMs`), each in range, each labelled. */
  published?: readonly PublishedLine[];
  /** The run's end (ms): where the published lines end (default: t1). */
  endMs?: number;
  /** Where the y axis ends while there is nothing to draw (shown unit), as on screen. */
  yReach?: number | null;
  /** Text sizes, line widths and inks: the chart's on screen (presentation mode's for a slide). */
  look?: ChartLook;
  /** A small line under the chart naming the run it shows (`imageCaption`: the scenario, the
   *  seed, the lab's version): absent, none (a chart composed into the compare image, which
   *  has its own). */
  caption?: string;
  /** The room for at least this many lines of title (charts side by side keep their plots level
   *  when one's title wraps onto more lines than another's). */
  titleLines?: number;
}

/** The pinned run in an export: its rows, for each of `lines` its series there (-1: none), and
 *  its settings in words (the legend's "pinned: …"). */
export interface PinnedExport {
  store: SampleStore;
  series: number[];
  label: string;
}

function csvField(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A value of a chart's CSV: to 12 significant digits, so that float noise (69.98400000000001,
 *  or a scale's 0.30000000000000004) does not show; the run's CSV keeps every digit. */
function shown(v: number): string {
  return String(+v.toPrecision(12));
}

/**
 * The column a CSV of a bucketed store has after `time_ms` (null while every sample is kept):
 * past its byte budget the store keeps, per bucket of n samples, a row of each series' minimum
 * (at the bucket's first time) and one of its maximum (at its last), and a row of the CSV must
 * say which it is (QA: a long run's CSV read as samples, every second one each series' maximum,
 * so a mean over it came out high).
 */
export function bucketColumn(store: SampleStore): { header: string; of: (row: number) => string } | null {
  const n = store.samplesPerBucket;
  return n > 1 ? { header: `min_max_of_${n}_samples`, of: (row) => (row % 2 === 0 ? 'min' : 'max') } : null;
}

/**
 * A chart CSV's column head: the line's label, then its unit in the one bracket of the head
 * (`SW1->SW2 queue peak (cells)`). Words the label brackets itself — the engine's
 * `queue (peak)`, `TCP goodput (8-sample average)`, a compare run's `current (2)` — become a
 * plain suffix: two brackets made the unit one of two (QA: `… queue (peak) (cells)`).
 */
export function csvColumn(label: string, unit: string): string {
  const plain = label.replace(/\s*[([]([^()[\]]*)[)\]]/g, ' $1').replace(/\s+/g, ' ').trim();
  return unit ? `${plain} (${unit})` : plain;
}

/**
 * The visible data: a header `time_ms,<label> (<unit>),…` (`csvColumn`) and one row per sample in the window,
 * values in the unit shown (an empty field where a series has no value). Of a long run kept as
 * min/max buckets, a second column says which each row is (`bucketColumn`).
 */
export function chartCsv(store: SampleStore, c: ChartExport): string {
  const unitOf = (l: ChartLine) => (c.yScale !== 1 ? c.yUnit : l.unit || c.yUnit);
  const bucket = bucketColumn(store);
  const header = ['time_ms', ...(bucket ? [bucket.header] : []), ...c.lines.map((l) => csvColumn(l.label, unitOf(l)))]
    .map(csvField)
    .join(',');
  const out = [header];
  const time = store.times();
  const cols = c.lines.map((l) => store.series(l.index));
  for (let r = Math.max(0, store.nearest(c.t0) - 1); r >= 0 && r < store.length; r++) {
    const t = time[r];
    if (t < c.t0) continue;
    if (t > c.t1) break;
    const row = [String(t), ...(bucket ? [bucket.of(r)] : [])];
    for (const col of cols) row.push(Number.isNaN(col[r]) ? '' : shown(col[r] * c.yScale));
    out.push(row.join(','));
  }
  return out.join('\n') + '\n';
}

/**
 * Layout of the SVG (px) in a chart look: sized like the chart on screen (the PNG export doubles
 * it); presentation mode's larger text takes proportionally more room around the plot.
 */
export function svgLayout(look: ChartLook = NORMAL_LOOK) {
  const k = look.fontPx / NORMAL_LOOK.fontPx;
  return {
    pad: 16,
    titleSize: Math.round(15 * k),
    font: look.fontPx,
    legendRow: Math.round(20 * k),
    plotLeft: Math.round(68 * k),
    plotRight: 18,
    plotHeight: 220,
    axisBelow: Math.round(46 * k),
    lineWidth: look.lineWidth,
    axisInk: look.axisInk,
    gridInk: look.gridInk,
    tickInk: look.tickInk,
  };
}
const FONT_FAMILY = 'ui-sans-serif, system-ui, -apple-system, Segoe UI, Roboto, sans-serif';
/** A rough text width (px) at `size`: enough to flow the legend into rows. */
const textWidth = (s: string, size: number) => s.length * size * 0.62;

/** From one line of a chart's title to the next (px). */
const titleLineGap = (size: number) => Math.round(size * 1.3);

/** Words flowed into lines no wider than `max` px at `size` (a word wider than a line has a line
 *  of its own). */
export function wrapWords(s: string, max: number, size: number): string[] {
  const lines: string[] = [];
  for (const word of s.split(' ')) {
    const last = lines.length ? lines[lines.length - 1] : null;
    if (last !== null && textWidth(`${last} ${word}`, size) <= max) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}


interface LegendItem {
  label: string;
  color: string;
  style: LineStyle;
  dash?: number[];
  opacity?: number;
  /** A parameter change's marker: drawn upright, as on the plot. */
  marker?: boolean;
}

/** The change markers' stroke: on the plot and in the legend's swatch. */
const MARKER_STROKE = `stroke="${MARKER_COLOUR}" stroke-width="1.5" stroke-dasharray="4 3"`;

const dashAttr = (dash: number[]) => (dash.length ? ` stroke-dasharray="${dash.join(' ')}"` : '');

function swatch(x: number, y: number, it: LegendItem, widths: Record<LineStyle, number>): string {
  if (it.marker) return `<line class="marker-swatch" x1="${x + 10}" y1="${y - 7}" x2="${x + 10}" y2="${y + 7}" ${MARKER_STROKE}/>`;
  const cap = it.style === 'dotted' ? ' stroke-linecap="round"' : '';
  const opacity = it.opacity === undefined ? '' : ` stroke-opacity="${it.opacity}"`;
  const w = widths[it.style] + (it.opacity === undefined ? 0.4 : 1.4);
  return `<line x1="${x}" y1="${y}" x2="${x + 20}" y2="${y}" stroke="${it.color}" stroke-width="${w}"${dashAttr(it.dash ?? DASH[it.style])}${cap}${opacity}/>`;
}

/**
 * The room right of the plot (px): the layout's, or more when the time label of the tick
 * nearest the right end would otherwise reach past the image's edge less a margin (QA: the
 * last label, "100", sat against the edge of the PNG).
 */
function plotRightOf(c: ChartExport, width: number, L: ReturnType<typeof svgLayout>): number {
  const plotW = Math.max(10, width - L.plotLeft - L.plotRight);
  const axis = timeAxis(c.t1);
  const all = ticks(c.t0, c.t1, Math.floor(plotW / 80));
  if (all.length === 0) return L.plotRight;
  const last = all[all.length - 1];
  const fromRight = ((c.t1 - last) / (c.t1 - c.t0 || 1)) * plotW;
  const half = textWidth(formatTick(last * axis.factor), L.font) / 2;
  return Math.max(L.plotRight, Math.ceil(half + L.pad * 0.75 - fromRight));
}

/** Whether series a and b of `dec` (its positions) are drawn on one another in every column:
 *  each column's first, last, lowest and highest values no more than `within` apart, and a
 *  value in the same columns. */
function columnsAlike(dec: ColumnDecimator, a: number, b: number, within: number): boolean {
  if (a < 0 || b < 0) return false;
  const near = (x: number, y: number) => (Number.isNaN(x) ? Number.isNaN(y) : Math.abs(x - y) <= within);
  for (let x = 0; x < dec.columns; x++) {
    if (!near(dec.first[a][x], dec.first[b][x]) || !near(dec.last[a][x], dec.last[b][x])) return false;
    if (!near(dec.min[a][x], dec.min[b][x]) || !near(dec.max[a][x], dec.max[b][x])) return false;
  }
  return true;
}

/** The legend's entries for the owners outside any group: one per owner, or one per set of
 *  owners drawn on one another ("C1 = C2", in the colour of the last, the line on top). */
function ownerItems(owners: LegendModel['owners'], together: string[][]): LegendItem[] {
  const setOf = new Map(together.flatMap((set) => set.map((o) => [o, set] as const)));
  const colorOf = new Map(owners.map((o) => [o.owner, o.color]));
  const items: LegendItem[] = [];
  for (const o of owners) {
    if (o.group !== undefined) continue;
    const set = setOf.get(o.owner);
    if (set && set[0] !== o.owner) continue;
    items.push(set ? { label: set.join(' = '), color: colorOf.get(set[set.length - 1])!, style: 'solid' } : { label: o.owner, color: o.color, style: 'solid' });
  }
  return items;
}

/**
 * The chart as a standalone SVG document of the given width (px), and its height. `idPrefix`
 * keeps its element ids apart from other charts' when several are composed into one image.
 */
export function chartSvg(store: SampleStore, c: ChartExport, width: number, idPrefix = ''): { svg: string; width: number; height: number } {
  const L = svgLayout(c.look);
  const parts: string[] = [];
  // Title, on as many lines as it takes (a half-width chart's long title ran off the image).
  let y = L.pad;
  const titleLines = wrapWords(c.title, width - 2 * L.pad, L.titleSize);
  titleLines.forEach((line, i) => {
    y += i ? titleLineGap(L.titleSize) : L.titleSize;
    parts.push(`<text class="title" x="${L.pad}" y="${y}" font-size="${L.titleSize}" font-weight="600" fill="#1f2937">${esc(line)}</text>`);
  });
  y += Math.max(0, (c.titleLines ?? 0) - titleLines.length) * titleLineGap(L.titleSize);
  // The plot's left and right (the right far enough in for the last time label to be whole).
  const left = L.plotLeft;
  const right = width - plotRightOf(c, width, L);
  const plotW = Math.max(10, right - left);
  // The lines, decimated to the plot's width, and the y domain of the lines shown.
  const dec = new ColumnDecimator(store);
  dec.update(
    c.lines.map((l) => l.index),
    c.t0,
    c.t1,
    Math.round(plotW),
  );
  // The pinned run's lines count in the y domain, as on screen.
  const pinned = c.pinned;
  const pinnedLines = pinned ? c.lines.map((_, i) => i).filter((i) => (pinned.series[i] ?? -1) >= 0) : [];
  const pinnedDec = pinned ? new ColumnDecimator(pinned.store) : null;
  pinnedDec?.update(
    pinnedLines.map((i) => pinned!.series[i]),
    c.t0,
    c.t1,
    Math.round(plotW),
  );
  const lo = Math.min(dec.lo, pinnedDec?.lo ?? Infinity);
  const hi = Math.max(dec.hi, pinnedDec?.hi ?? -Infinity);
  const [y0, y1] = chartDomain(lo, hi, c);
  // Within a pixel of each other, lines are drawn on one another (engine units, like the columns).
  const withinValue = (y1 - y0) / L.plotHeight / (c.yScale || 1);
  const drawnAlike = (a: ChartLine, b: ChartLine) => columnsAlike(dec, c.lines.indexOf(a), c.lines.indexOf(b), withinValue);
  // Legend: groups and the owners outside them, then the style key (or the series' dashes), then
  // the pinned run, then the change markers if the window shows any, flowed into rows. Owners
  // whose lines lie on one another over the whole image share one entry, "C1 = C2".
  const legend = legendModel(c.lines, c.kindName);
  const markers = markersShown(c.markers, c.t0, c.t1);
  const mainKind = mainKindOf(c.lines);
  const together = coincidentOwners(c.lines, mainKind, drawnAlike);
  const items: LegendItem[] = [
    ...legend.groups.map((g) => ({ label: `${g.group} (${g.owners.length})`, color: g.color, style: 'solid' as LineStyle })),
    ...ownerItems(legend.owners, together),
    ...legend.styles.map((s) => ({ label: s.names.join(' / '), color: PINNED_SWATCH, style: s.style })),
    ...legend.series.map((s) => ({ label: s.series, color: PINNED_SWATCH, style: 'solid' as LineStyle, dash: s.dash })),
    ...(c.pinned ? [{ label: `pinned: ${c.pinned.label}`, color: PINNED_SWATCH, style: 'solid' as LineStyle, opacity: PINNED_ALPHA + 0.15 }] : []),
    ...(markers.length ? [{ label: MARKER_LEGEND, color: MARKER_COLOUR, style: 'dashed' as LineStyle, marker: true }] : []),
  ];
  y += 10;
  let x = L.pad;
  let row = y + L.legendRow / 2;
  for (const it of items) {
    const w = 26 + textWidth(it.label, L.font) + 14;
    if (x + w > width - L.pad && x > L.pad) {
      x = L.pad;
      row += L.legendRow;
    }
    parts.push(swatch(x, row, it, L.lineWidth));
    parts.push(`<text x="${x + 26}" y="${row + 4}" font-size="${L.font}" fill="#4b5563">${esc(it.label)}</text>`);
    x += w;
  }
  // Under the legend, the note the screen shows without a cursor: lines that lie on one another
  // at the last sample shown, not all along (the legend names those), "at 100 ms: C1 = C2"
  // (QA: lines meeting only at the end kept an entry each, and the image did not say it).
  let below = items.length ? row + L.legendRow / 2 : y;
  const endRow = store.atOrBefore(c.t1);
  const end = endRow >= 0 && store.times()[endRow] >= c.t0 ? coincidenceAtRow(store, endRow, c.lines, c.yScale, mainKind, (y1 - y0) / L.plotHeight) : null;
  const said = new Set(together.flatMap((set) => [set.join(' = '), set.join(' ≈ ')]));
  const endNotes = end?.notes.filter((n) => !said.has(n)) ?? [];
  if (end && endNotes.length) {
    for (const line of wrapWords(`${end.at}: ${endNotes.join(' · ')}`, width - 2 * L.pad, L.font)) {
      below += L.font + 4;
      parts.push(`<text class="note" x="${L.pad}" y="${below}" font-size="${L.font}" fill="#4b5563">${esc(line)}</text>`);
    }
    below += 4;
  }
  const top = below + 12;
  const bottom = top + L.plotHeight;
  // The caption, under the time axis, in grey: as many lines as it takes.
  const captionSize = L.font;
  const captionLines = c.caption ? wrapWords(c.caption, width - 2 * L.pad, captionSize) : [];
  const captionTop = bottom + L.axisBelow;
  const height = captionTop + (captionLines.length ? captionLines.length * (captionSize + 4) + 6 : 0);
  captionLines.forEach((line, i) => {
    const y = captionTop + (i + 1) * (captionSize + 4);
    parts.push(`<text class="caption" x="${L.pad}" y="${y}" font-size="${captionSize}" fill="#6b7280">${esc(line)}</text>`);
  });

  const xOf = (t: number) => left + ((t - c.t0) / (c.t1 - c.t0 || 1)) * plotW;
  const yOf = (v: number) => bottom - ((v - y0) / (y1 - y0 || 1)) * L.plotHeight;

  // Grid, ticks and their labels.
  const axis = timeAxis(c.t1);
  for (const v of ticks(y0, y1, 5)) {
    const py = yOf(v).toFixed(1);
    parts.push(`<line x1="${left}" y1="${py}" x2="${right}" y2="${py}" stroke="${L.gridInk}"/>`);
    parts.push(`<text x="${left - 8}" y="${py}" font-size="${L.font}" fill="${L.axisInk}" text-anchor="end" dominant-baseline="middle">${formatTick(v)}</text>`);
  }
  for (const v of ticks(c.t0, c.t1, Math.floor(plotW / 80))) {
    const px = xOf(v).toFixed(1);
    parts.push(`<line x1="${px}" y1="${top}" x2="${px}" y2="${bottom}" stroke="${L.gridInk}"/>`);
    parts.push(`<line x1="${px}" y1="${bottom}" x2="${px}" y2="${bottom + 4}" stroke="${L.tickInk}"/>`);
    parts.push(`<text x="${px}" y="${bottom + L.font + 6}" font-size="${L.font}" fill="${L.axisInk}" text-anchor="middle">${formatTick(v * axis.factor)}</text>`);
  }
  parts.push(`<path d="M${left} ${top}V${bottom}H${right}" fill="none" stroke="${L.tickInk}"/>`);
  parts.push(`<text x="${left + plotW / 2}" y="${bottom + 2 * L.font + 14}" font-size="${L.font}" fill="${L.axisInk}" text-anchor="middle">${axis.label}</text>`);
  if (c.yUnit) {
    parts.push(
      `<text transform="translate(${L.pad + 4} ${(top + bottom) / 2}) rotate(-90)" font-size="${L.font}" fill="${L.axisInk}" text-anchor="middle">${esc(c.yUnit)}</text>`,
    );
  }
  // Parameter changes, under the lines.
  for (const t of markers) {
    const px = xOf(t).toFixed(1);
    parts.push(`<line class="marker" x1="${px}" y1="${top}" x2="${px}" y2="${bottom}" ${MARKER_STROKE}/>`);
  }
  // Lines: the published values under everything, the pinned run's faintly under the live ones;
  // dotted under dashed under solid; clipped to the plot.
  const clip = `${idPrefix}plot`;
  const order = drawOrder(c.lines.map((l) => l.style));
  parts.push(`<clipPath id="${clip}"><rect x="${left}" y="${top - 2}" width="${plotW + 2}" height="${L.plotHeight + 4}"/></clipPath>`);
  parts.push(...publishedSvg(c, { left, right, top, bottom, font: L.font, xOf, yOf }, clip));
  parts.push(`<g clip-path="url(#${clip})" fill="none" stroke-linejoin="round">`);
  const path = (d: ColumnDecimator, s: number, l: ChartLine, extra: string) => {
    const pen = new SvgPathPen();
    const colW = plotW / d.columns;
    traceColumns(d, s, (col) => left + (col + 0.5) * colW, (v) => yOf(v * c.yScale), pen);
    if (!pen.d) return;
    const cap = l.style === 'dotted' ? ' stroke-linecap="round"' : '';
    parts.push(`<path ${extra} d="${pen.d}" stroke="${l.color}"${dashAttr(dashOf(l))}${cap}/>`);
  };
  if (pinnedDec) {
    for (const s of order) {
      const p = pinnedLines.indexOf(s);
      if (p >= 0) path(pinnedDec, p, c.lines[s], `data-pinned="${esc(c.lines[s].label)}" stroke-width="${L.lineWidth[c.lines[s].style] + 1}" stroke-opacity="${PINNED_ALPHA}"`);
    }
  }
  for (const s of order) path(dec, s, c.lines[s], `data-series="${esc(c.lines[s].label)}" stroke-width="${L.lineWidth[c.lines[s].style]}"`);
  parts.push('</g>');

  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT_FAMILY}">` +
    `<rect width="100%" height="100%" fill="#ffffff"/>` +
    parts.join('') +
    `</svg>\n`;
  return { svg, width, height };
}

/** The published lines of an export, as the screen draws them (timeChart.ts `drawPublished`):
 *  long-dash-dot in their owners' colours, the word "published" at the right end of each, above
 *  or under it, one of lines too close to tell apart (`placePublishedLabels`). */
function publishedSvg(
  c: ChartExport,
  box: { left: number; right: number; top: number; bottom: number; font: number; xOf: (t: number) => number; yOf: (v: number) => number },
  clip: string,
): string[] {
  const published = c.published ?? [];
  if (published.length === 0) return [];
  const right = Math.min(box.right, box.xOf(c.endMs ?? c.t1));
  const fontPx = Math.round((box.font * 5) / 6);
  const drawn: { y: number; color: string; text: string }[] = [];
  const out = [`<g clip-path="url(#${clip})" data-published="${published.length}" stroke-width="1.5" stroke-dasharray="12 4 2 4">`];
  for (const p of published) {
    const from = Math.max(box.left, box.xOf(p.fromMs));
    if (from >= right) continue;
    const y = Math.round(box.yOf(p.value * c.yScale)) + 0.5;
    out.push(`<line x1="${from.toFixed(1)}" y1="${y}" x2="${right.toFixed(1)}" y2="${y}" stroke="${p.color}"><title>${esc(p.label)}</title></line>`);
    drawn.push({ y, color: p.color, text: publishedWords(p.value * c.yScale) });
  }
  out.push('</g>');
  const inPlot = drawn.filter((l) => l.y >= box.top && l.y <= box.bottom);
  const o = { fontPx, gapPx: 2, top: box.top, bottom: box.bottom, left: box.left, right: right - 4, widthOf: (t: string) => textWidth(t, fontPx) };
  for (const l of placePublishedLabels(inPlot, o)) {
    const halo = l.halo ? ` stroke="${PLOT_GROUND}" stroke-width="4" stroke-linejoin="round" paint-order="stroke"` : '';
    out.push(`<text x="${l.right.toFixed(1)}" y="${l.baseline.toFixed(1)}" font-size="${fontPx}" fill="${l.color}" text-anchor="end"${halo}>${esc(l.text)}</text>`);
  }
  return out;
}

/**
 * A number as Rust's `{}` prints an f64 (what `abrsim run --series-csv` writes): the shortest
 * text that reads back to the same value, never in exponent notation (1e-7 is 0.0000001), `-0`
 * for negative zero, `inf` for infinities.
 */
export function rustFloat(v: number): string {
  if (v === Infinity) return 'inf';
  if (v === -Infinity) return '-inf';
  if (Number.isNaN(v)) return 'NaN';
  if (Object.is(v, -0)) return '-0';
  const s = String(v);
  const e = s.indexOf('e');
  if (e < 0) return s;
  // Expand d.ddd e±x: JavaScript's shortest digits, placed without an exponent.
  const sign = s.startsWith('-') ? '-' : '';
  const mantissa = s.slice(sign.length, e);
  const exp = Number(s.slice(e + 1));
  const digits = mantissa.replace('.', '');
  const point = (mantissa.indexOf('.') < 0 ? mantissa.length : mantissa.indexOf('.')) + exp;
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * Every series of the run as one CSV, with the columns of `abrsim run --series-csv`: `time_ms`,
 * then `<series id> (<unit>)` (the bare id for a series without a unit) for each series in the engine's order, every sample, values in
 * the engine's units as the CLI prints them (an empty field where a series has no value). A run
 * too long to keep every sample (min/max buckets) has `min_max_of_<n>_samples` after `time_ms`,
 * saying which each row is; only the CLI then gives every sample.
 */
export function runCsv(store: SampleStore): string {
  const bucket = bucketColumn(store);
  const header = ['time_ms', ...(bucket ? [bucket.header] : []), ...store.meta.map((m) => (m.unit ? `${m.id} (${m.unit})` : m.id))].join(',');
  const out = [header];
  const times = store.times();
  const cols = store.meta.map((_, i) => store.series(i));
  for (let r = 0; r < store.length; r++) {
    const row = [rustFloat(times[r]), ...(bucket ? [bucket.of(r)] : [])];
    for (const col of cols) row.push(Number.isNaN(col[r]) ? '' : rustFloat(col[r]));
    out.push(row.join(','));
  }
  return out.join('\n') + '\n';
}

/**
 * JSON text indented by two spaces (as serde_json's pretty printer and `abrsim run` lay it
 * out), every number kept as the engine wrote it (`1.0` stays `1.0`). The input must be JSON.
 */
export function prettyJson(json: string): string {
  const tokens = json.match(/"(?:[^"\\]|\\.)*"|[{}[\],:]|[^\s{}[\],:"]+/g) ?? [];
  let out = '';
  let depth = 0;
  const newline = () => '\n' + '  '.repeat(depth);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t === '{' || t === '[') {
      const close = t === '{' ? '}' : ']';
      if (tokens[i + 1] === close) {
        out += t + close;
        i++;
        continue;
      }
      depth++;
      out += t + newline();
    } else if (t === '}' || t === ']') {
      depth--;
      out += newline() + t;
    } else if (t === ',') out += ',' + newline();
    else if (t === ':') out += ': ';
    else out += t;
  }
  return out;
}
