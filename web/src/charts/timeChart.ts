// One time chart on uPlot, outside React. uPlot draws the axes, the grid, the cursor (synced over
// the ChartGroup) and the drag selection; the lines themselves come from a ColumnDecimator (the
// per-pixel-column min/max), drawn by a LineLayer on a canvas over uPlot's, so a frame costs
// O(width) whatever the run's length, and the data never pass through React. The group's frame
// loop calls frame(): it re-decimates only new rows (or everything once when the window or the
// width changes; a step back cuts the columns back to the rows kept) and redraws only the line
// tiles the changed columns reach; uPlot redraws (and the
// layer draws every tile) only when the axes or the lines' look change: a y-range step, a zoom,
// a resize, a legend toggle, a mark.

import uPlot from 'uplot';
import { chartDomain, formatTick, ticks, timeAxis } from './axes';
import type { ChartGroup, FrameClient } from './chartGroup';
import { traceColumns } from './columnPath';
import { LineLayer, type LineGeometry, type LineInk } from './lineLayer';
import { tilesToRedraw } from './lineTiles';
import { axisFont, NORMAL_LOOK, type ChartLook } from './look';
import { drawOrder, MARKER_COLOUR, PINNED_ALPHA } from './palette';
import { pinnedSeries, type PinnedRun } from './pinned';
import { placePublishedLabels, PLOT_GROUND, publishedWords, type PublishedLine } from './published';
import { ColumnDecimator, type SampleStore } from './sampleStore';
import { dashOf, type ChartLine } from './specs';

/** What a chart draws (besides the samples). */
export interface ChartConfig {
  lines: ChartLine[];
  /** The run's end (ms): the whole-run window is [0, endMs]. */
  endMs: number;
  yUnit: string;
  /** The y axis reaches at least this value (in the shown unit). */
  yFloor: number;
  /** Shown value = stored value × yScale (e.g. Mbps shown as Gbps: 0.001). */
  yScale: number;
  /** Where the y axis ends while there is nothing to draw yet (shown unit; null: at the floor). */
  yReach?: number | null;
  /** Times (ms) of the parameter changes, drawn as dashed vertical lines under the series. */
  markers: number[];
  /** A pinned run of the same network, drawn faintly under the live lines (same colours). */
  pinned?: PinnedRun | null;
  /** The study's published steady values, as dashed horizontal lines (engine unit, like the series). */
  published?: PublishedLine[];
  /** Fonts, strokes and inks (presentation mode's or the everyday ones). */
  look?: ChartLook;
  /** Height of the whole chart (CSS px; full screen makes it taller). */
  height?: number;
}

/** The cursor, as the chart's legend and tooltip need it. */
export interface CursorAt {
  /** The store row nearest the cursor's time. */
  row: number;
  /** Whether the mouse is over this chart (the others follow it through the sync). */
  hovered: boolean;
  /** Viewport position of the cursor (px). */
  clientX: number;
  clientY: number;
}

/** Height of the whole chart (plot and axes), CSS px. */
export const CHART_HEIGHT = 250;
/** Alpha of the lines not highlighted while a legend entry is hovered. */
const DIMMED = 0.15;
/** A chart this close to the viewport (CSS px) is drawn as if on screen. */
const OFF_SCREEN_MARGIN_PX = 0;
/** A drag narrower than this (CSS px) is a click, not a zoom. */
const MIN_DRAG_PX = 4;

/** Whether two configurations draw the same lines in the same unit (else uPlot is rebuilt). */
function sameShape(a: ChartConfig, b: ChartConfig): boolean {
  if (a.yUnit !== b.yUnit || a.lines.length !== b.lines.length || (a.look ?? NORMAL_LOOK) !== (b.look ?? NORMAL_LOOK)) return false;
  return a.lines.every((l, i) => {
    const m = b.lines[i];
    return l.index === m.index && l.color === m.color && l.style === m.style && l.label === m.label;
  });
}

export class TimeChartController implements FrameClient {
  private u: uPlot | null = null;
  private readonly dec: ColumnDecimator;
  /** The pinned run's lines: its decimator, and per line its position in it (-1: none). */
  private pinnedDec: ColumnDecimator | null = null;
  private pinnedAt: number[] = [];
  private pinnedSeries: number[] = [];
  /** uPlot series i + 1 draws line order[i]. */
  private order: number[] = [];
  private visible: boolean[] = [];
  private focus: boolean[] | null = null;
  private dirty = true;
  /** The lines, drawn on their own canvas (null until uPlot is built). */
  private layer: LineLayer | null = null;
  /** The y range uPlot drew the axes for ("lo,hi"): a new one redraws everything. */
  private drawnY = '';
  /** Drawings of the lines since the chart was built: whole, and of new tiles only (the host's
   *  data-line-draws says "whole/tiles", for the tests). */
  private draws = { whole: 0, tiles: 0 };
  private hovered = false;
  /** The axis labels ("time (ms)", the unit): page text, so that they scale and can be read. */
  private axisLabels: { x: HTMLElement; y: HTMLElement } | null = null;
  /** The time marked (picked in the event log, the slider's, a click): a thin solid line. */
  private markLine: HTMLElement | null = null;
  /** The group's cursor mark this chart has moved its cursor to, and the one its host says. */
  private markSeen = 0;
  private markNoted = 0;
  private width = 0;
  private readonly resizeObserver: ResizeObserver;
  /** Whether the chart is on screen (or nearly): off screen, frames draw nothing. */
  private onScreen = true;
  private readonly intersectionObserver: IntersectionObserver | null;
  /** Called on every cursor move (null: the cursor left the charts). */
  onCursor: (at: CursorAt | null) => void = () => {};

  constructor(
    private readonly host: HTMLElement,
    private readonly store: SampleStore,
    private readonly group: ChartGroup,
    private cfg: ChartConfig,
  ) {
    this.dec = new ColumnDecimator(store);
    this.width = Math.floor(host.clientWidth);
    this.matchPinned();
    this.build();
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(host);
    // A chart scrolled out of view (below the Network view, say) is not drawn while a run plays:
    // nobody sees it. Back in view, its next frame catches up with one full drawing.
    this.intersectionObserver =
      typeof IntersectionObserver === 'undefined'
        ? null
        : new IntersectionObserver(
            (entries) => {
              const seen = entries[entries.length - 1].isIntersecting;
              if (seen && !this.onScreen) this.dirty = true;
              this.onScreen = seen;
              host.dataset.onScreen = seen ? 'yes' : 'no';
            },
            { rootMargin: `${OFF_SCREEN_MARGIN_PX}px` },
          );
    this.intersectionObserver?.observe(host);
    group.add(this);
  }

  configure(cfg: ChartConfig) {
    const rebuild = !sameShape(this.cfg, cfg);
    const height = this.heightOf(cfg);
    const resized = this.u !== null && this.u.height !== height;
    this.cfg = cfg;
    this.matchPinned();
    if (rebuild) this.build();
    else if (resized && this.u) this.u.setSize({ width: this.width, height });
    this.dirty = true;
  }

  private heightOf(cfg: ChartConfig): number {
    return cfg.height ?? CHART_HEIGHT;
  }

  private get look(): ChartLook {
    return this.cfg.look ?? NORMAL_LOOK;
  }

  /** Finds each line's series in the pinned run (by id), for the lines' configuration now. */
  private matchPinned() {
    const pinned = this.cfg.pinned;
    if (!pinned) {
      this.pinnedDec = null;
      this.pinnedAt = [];
      this.pinnedSeries = [];
      return;
    }
    const ids = pinnedSeries(this.cfg.lines, this.store, pinned.store);
    this.pinnedSeries = ids.filter((i) => i >= 0);
    let k = 0;
    this.pinnedAt = ids.map((i) => (i >= 0 ? k++ : -1));
    // A fresh decimator: the pinned rows never change, so it is filled once per window.
    this.pinnedDec = new ColumnDecimator(pinned.store);
  }

  /** Shows or hides lines (by position in the config's lines). */
  setVisible(visible: boolean[]) {
    if (visible.length === this.visible.length && visible.every((v, i) => v === this.visible[i])) return;
    this.visible = visible;
    this.dirty = true;
  }

  /** Highlights some lines (the others fade), or none (null). */
  highlight(focus: boolean[] | null) {
    const same = focus === this.focus || (focus !== null && this.focus !== null && focus.length === this.focus.length && focus.every((f, i) => f === this.focus![i]));
    if (same) return;
    this.focus = focus;
    this.dirty = true;
  }

  /** The window (ms) drawn now. */
  get window(): [number, number] {
    return this.dec.columns ? [this.dec.t0, this.dec.t1] : [0, this.cfg.endMs];
  }

  /** The span of shown value (engine value × the chart's scale) one CSS pixel of the plot's
   *  height stands for (0 before the chart is drawn): lines closer than that lie on each other. */
  get valuePerPixel(): number {
    const u = this.u;
    if (!u || u.scales.y.min == null || u.scales.y.max == null) return 0;
    const px = Math.abs(u.valToPos(1, 'y') - u.valToPos(0, 'y'));
    return px > 0 && Number.isFinite(px) ? 1 / px : 0;
  }

  frame() {
    const u = this.u;
    if (!u || this.width === 0) return;
    const [t0, t1] = this.group.window(this.cfg.endMs, this.store.generation);
    const mark = this.group.cursorMark;
    // The host says the mark at once, on screen or off (the tests read it).
    if ((mark?.n ?? 0) !== this.markNoted) {
      this.markNoted = mark?.n ?? 0;
      this.host.dataset.cursorMs = mark ? String(mark.ms) : '';
    }
    const marked = (mark?.n ?? 0) !== this.markSeen;
    // Off screen, only a zoom is drawn, not the run's progress nor a mark: dragging the time
    // slider marks every chart at every step, and six charts below the Network view redrew and
    // rasterised their canvases for nobody (most of a drag's time). The mark is drawn with the
    // frame that brings the chart back into view.
    if (!this.onScreen && t0 === this.dec.t0 && t1 === this.dec.t1 && this.dec.columns > 0) return;
    const columns = Math.max(1, Math.round(u.bbox.width / uPlot.pxRatio));
    const changed = this.dec.update(
      this.cfg.lines.map((l) => l.index),
      t0,
      t1,
      columns,
    );
    const pinnedChanged = this.pinnedDec?.update(this.pinnedSeries, t0, t1, columns) ?? false;
    const [ylo, yhi] = this.yDomain();
    const yKey = `${ylo},${yhi}`;
    const axes = this.dirty || pinnedChanged || (changed && this.dec.restarted) || yKey !== this.drawnY;
    if (axes) {
      // uPlot redraws (a microtask later), and its draw hook all the lines.
      this.dirty = false;
      this.drawnY = yKey;
      u.setData(this.data(), true);
    } else if (changed) this.drawNewColumns(u);
    // A mark only moves uPlot's cursor (page elements over the canvas): nothing is drawn again
    // for it. (It redrew the whole chart, axes and lines, at every step of a slider's drag.)
    if (marked) {
      this.markSeen = mark?.n ?? 0;
      if (!axes) this.placeMark(u); // (a redraw places it)
      // No mark: the cursor leaves the plot (uPlot hides it off the plot's left edge).
      u.setCursor(mark ? { left: u.valToPos(mark.ms, 'x'), top: u.bbox.height / uPlot.pxRatio / 2 } : { left: -10, top: -10 });
    }
  }

  /** The lines as the layer draws them, in draw order (hidden ones left out). */
  private inks(): LineInk[] {
    const pr = uPlot.pxRatio;
    const out: LineInk[] = [];
    for (const line of this.order) {
      if (this.visible[line] === false) continue;
      const l = this.cfg.lines[line];
      out.push({
        series: line,
        color: l.color,
        width: Math.round(this.look.lineWidth[l.style] * pr * 1000) / 1000,
        dash: dashOf(l),
        cap: l.style === 'dotted' ? 'round' : 'butt',
        alpha: this.focus === null || this.focus[line] ? 1 : DIMMED,
      });
    }
    return out;
  }

  /** Where the lines go: both scales are linear, so a column's x and a value's y are affine
   *  (taken from uPlot's valToPos once, not asked of it per vertex). */
  private geometry(u: uPlot): LineGeometry {
    const k = this.cfg.yScale;
    const dec = this.dec;
    const { left, top, width, height } = u.bbox;
    const x0 = u.valToPos(dec.timeOf(0), 'x', true);
    const dx = u.valToPos(dec.timeOf(1), 'x', true) - x0;
    const y0 = u.valToPos(0, 'y', true);
    const dy = u.valToPos(k, 'y', true) - y0;
    return { left, top, width, height, x: (c) => x0 + c * dx, y: (v) => y0 + v * dy };
  }

  /** uPlot's draw hook: every line, whole, over what uPlot just drew. */
  private drawAllLines(u: uPlot) {
    const layer = this.layer;
    if (!layer) return;
    layer.fit(u.ctx.canvas);
    layer.drawAll(this.geometry(u), this.inks());
    this.draws.whole++;
    this.host.dataset.lineDraws = `${this.draws.whole}/${this.draws.tiles}`;
  }

  /** Only the tiles that the columns the decimator just changed reach. */
  private drawNewColumns(u: uPlot) {
    const layer = this.layer;
    const dec = this.dec;
    if (!layer || dec.changedFrom > dec.changedTo) return;
    const inks = this.inks();
    // Per line: its last value before the new columns, if it took a new value (else null); after
    // a cut (a step back), every line: the values it lost are drawn over too.
    const previous = inks.map(({ series }) => {
      const first = dec.first[series];
      if (dec.lastValued[series] < dec.changedFrom && !dec.cut) return null;
      let p = dec.changedFrom - 1;
      while (p >= dec.firstValued[series] && Number.isNaN(first[p])) p--;
      return p >= dec.firstValued[series] ? p : -1;
    });
    const geo = this.geometry(u);
    const tiles = tilesToRedraw(layer.grid(geo, inks), dec.changedFrom, dec.changedTo, previous);
    if (!tiles) return;
    layer.drawTiles(geo, inks, tiles[0], tiles[1], dec.changedFrom);
    this.draws.tiles++;
    this.host.dataset.lineDraws = `${this.draws.whole}/${this.draws.tiles}`;
  }

  destroy() {
    this.group.remove(this);
    this.resizeObserver.disconnect();
    this.intersectionObserver?.disconnect();
    this.u?.destroy();
    this.u = null;
    this.layer = null;
    this.axisLabels?.x.remove();
    this.axisLabels?.y.remove();
    this.axisLabels = null;
  }

  private resize() {
    const w = Math.floor(this.host.clientWidth);
    if (w === this.width) return;
    this.width = w;
    // Width 0: the charts are hidden (the network editor is open); keep the plot as it was.
    if (w === 0) return;
    if (!this.u) this.build();
    else this.u.setSize({ width: w, height: this.heightOf(this.cfg) });
    this.dirty = true;
  }

  /** uPlot's data: the window's two ends and no values. uPlot only sets the scales from it (their
   *  ranges come from the window and yDomain); the lines are the layer's, the cursor's readout
   *  comes from the store. */
  private data(): uPlot.AlignedData {
    const [t0, t1] = this.window;
    return [
      [t0, t1],
      [null, null],
    ];
  }

  private yDomain(): [number, number] {
    let lo = Infinity;
    let hi = -Infinity;
    this.cfg.lines.forEach((_, s) => {
      if (this.visible[s] === false) return;
      if (this.dec.loOf[s] !== undefined) {
        lo = Math.min(lo, this.dec.loOf[s]);
        hi = Math.max(hi, this.dec.hiOf[s]);
      }
      const p = this.pinnedAt[s] ?? -1;
      if (p >= 0 && this.pinnedDec?.loOf[p] !== undefined) {
        lo = Math.min(lo, this.pinnedDec.loOf[p]);
        hi = Math.max(hi, this.pinnedDec.hiOf[p]);
      }
    });
    return chartDomain(lo, hi, this.cfg);
  }

  private build() {
    this.u?.destroy();
    this.u = null;
    if (this.width === 0) return;
    const lines = this.cfg.lines;
    this.order = drawOrder(lines.map((l) => l.style));
    const look = this.look;
    const axis = {
      font: axisFont(look),
      labelFont: axisFont(look),
      stroke: look.axisInk,
      grid: { stroke: look.gridInk, width: 1 },
      ticks: { stroke: look.tickInk, width: 1, size: 4 },
      labelSize: look.labelPx,
      labelGap: 0,
    };
    const opts: uPlot.Options = {
      width: this.width,
      height: this.heightOf(this.cfg),
      // Room on the right for half the last time tick's text.
      padding: [22, Math.max(14, Math.round(look.fontPx * 1.3)), 0, 0],
      legend: { show: false },
      scales: {
        x: { time: false, auto: true, range: () => this.window },
        y: { auto: true, range: () => this.yDomain() },
      },
      axes: [
        {
          ...axis,
          size: look.xAxisPx,
          space: 80,
          splits: (u, _i, min, max) => ticks(min, max, Math.floor(u.bbox.width / uPlot.pxRatio / 80)),
          values: (_u, splits) => splits.map((v) => formatTick(v * timeAxis(this.window[1]).factor)),
          // The axis labels are text in the page (axisLabels below): uPlot keeps their room.
          label: '',
        },
        {
          ...axis,
          size: look.yAxisPx,
          splits: (_u, _i, min, max) => ticks(min, max, 5),
          values: (_u, splits) => splits.map(formatTick),
          label: '',
        },
      ],
      // One series that draws nothing, for the y scale: the lines are the layer's.
      series: [{}, { label: 'lines', paths: () => null, points: { show: false }, spanGaps: false }],
      cursor: {
        y: false,
        sync: { key: this.group.syncKey, setSeries: false },
        drag: { x: true, y: false, setScale: false },
        points: { show: false },
        focus: { prox: -1 },
        bind: {
          dblclick: () => () => {
            this.group.reset();
            return null;
          },
        },
      },
      hooks: {
        drawAxes: [(u) => this.drawMarkers(u), (u) => this.drawPinned(u), (u) => this.drawPublished(u), (u) => this.placeAxisLabels(u)],
        draw: [(u) => this.drawAllLines(u)],
        setSelect: [(u) => this.zoomToSelection(u)],
        setCursor: [(u) => this.cursorMoved(u)],
        setScale: [
          (u, key) => {
            if (key !== 'x' && key !== 'y') return;
            this.host.dataset[`${key}Min`] = String(u.scales[key].min);
            this.host.dataset[`${key}Max`] = String(u.scales[key].max);
          },
        ],
      },
    };
    this.axisLabels?.x.remove();
    this.axisLabels?.y.remove();
    this.axisLabels = { x: axisLabel('x'), y: axisLabel('y') };
    const u = new uPlot(opts, [[]], this.host);
    this.host.append(this.axisLabels.x, this.axisLabels.y);
    // The lines' canvas lies over uPlot's and under its cursor and selection; the mark (a page
    // element, moved without drawing anything) between uPlot's canvas and the lines.
    this.layer = new LineLayer(this.dec);
    u.over.before(this.layer.canvas);
    this.markLine?.remove();
    this.markLine = markLine();
    this.layer.canvas.before(this.markLine);
    this.drawnY = '';
    // A click (not a drag, which zooms) marks its time on every chart; the event log goes there.
    let downX: number | null = null;
    u.over.addEventListener('mousedown', (e) => (downX = e.clientX));
    u.over.addEventListener('click', (e) => {
      const left = u.cursor.left ?? -1;
      if (downX === null || Math.abs(e.clientX - downX) >= MIN_DRAG_PX || left < 0) return;
      const [t0, t1] = this.window;
      this.group.cursorTo(Math.min(t1, Math.max(t0, u.posToVal(left, 'x'))));
    });
    u.over.addEventListener('mouseenter', () => (this.hovered = true));
    u.over.addEventListener('mouseleave', () => {
      this.hovered = false;
      this.onCursor(null);
    });
    this.u = u;
    this.dirty = true;
  }

  /** Puts the axis labels in the room uPlot left for them, with the time unit of the window. */
  private placeAxisLabels(u: uPlot) {
    const labels = this.axisLabels;
    if (!labels) return;
    const pr = uPlot.pxRatio;
    const { left, top, width, height } = u.bbox;
    const look = this.look;
    const set = (el: HTMLElement, text: string, box: Record<string, number>) => {
      if (el.textContent !== text) el.textContent = text;
      el.style.fontSize = `${look.fontPx}px`;
      el.style.color = look.axisInk;
      for (const [k, v] of Object.entries(box)) el.style.setProperty(k, `${v}px`);
    };
    set(labels.x, timeAxis(this.window[1]).label, { left: left / pr, width: width / pr, top: u.height - look.labelPx, height: look.labelPx });
    set(labels.y, this.cfg.yUnit, { left: 0, width: look.labelPx, top: top / pr, height: height / pr });
  }

  private drawMarkers(u: uPlot) {
    this.placeMark(u);
    const markers = this.cfg.markers;
    if (markers.length === 0) return;
    const { left, top, width, height } = u.bbox;
    const [t0, t1] = this.window;
    const ctx = u.ctx;
    const pr = uPlot.pxRatio;
    ctx.save();
    ctx.strokeStyle = MARKER_COLOUR;
    ctx.lineWidth = 1.5 * pr;
    ctx.setLineDash([4 * pr, 3 * pr]);
    ctx.beginPath();
    for (const t of markers) {
      if (t < t0 || t > t1) continue;
      const x = Math.round(u.valToPos(t, 'x', true)) + 0.5;
      if (x < left || x > left + width) continue;
      ctx.moveTo(x, top);
      ctx.lineTo(x, top + height);
    }
    ctx.stroke();
    ctx.restore();
  }

  /** The time marked (picked in the event log, the slider's): a thin solid line, apart from the
   *  dashed change markers, under the lines. A page element, so that a mark moves it without
   *  drawing the chart again. */
  private placeMark(u: uPlot) {
    const el = this.markLine;
    if (!el) return;
    const mark = this.group.cursorMark;
    const [t0, t1] = this.window;
    if (!mark || mark.ms < t0 || mark.ms > t1) {
      el.style.display = 'none';
      return;
    }
    const pr = uPlot.pxRatio;
    const { left, top, height } = u.bbox;
    el.style.display = '';
    el.style.left = `${Math.round(left / pr + u.valToPos(mark.ms, 'x'))}px`;
    el.style.top = `${top / pr}px`;
    el.style.height = `${height / pr}px`;
  }

  /** The pinned run's lines, faint and under the live ones, in the live lines' draw order. */
  private drawPinned(u: uPlot) {
    const dec = this.pinnedDec;
    if (!dec || this.pinnedSeries.length === 0) return;
    const { left, top, width, height } = u.bbox;
    const ctx = u.ctx;
    const pr = uPlot.pxRatio;
    const k = this.cfg.yScale;
    ctx.save();
    ctx.beginPath();
    ctx.rect(left, top, width, height);
    ctx.clip();
    ctx.globalAlpha = PINNED_ALPHA;
    ctx.lineJoin = 'round';
    for (const line of this.order) {
      const p = this.pinnedAt[line];
      if (p < 0 || this.visible[line] === false) continue;
      const l = this.cfg.lines[line];
      const path = new Path2D();
      traceColumns(
        dec,
        p,
        (c) => u.valToPos(dec.timeOf(c), 'x', true),
        (v) => u.valToPos(v * k, 'y', true),
        path,
      );
      ctx.strokeStyle = l.color;
      ctx.lineWidth = (this.look.lineWidth[l.style] + 1) * pr;
      ctx.setLineDash(dashOf(l).map((d) => d * pr));
      ctx.lineCap = l.style === 'dotted' ? 'round' : 'butt';
      ctx.stroke(path);
    }
    ctx.restore();
  }

  /** The published steady values: long dashes over the steady window (from `fromMs` to the
   *  run's end), in their owners' colours, under the live lines. */
  private drawPublished(u: uPlot) {
    const published = this.cfg.published ?? [];
    if (published.length === 0) return;
    const { left, top, width, height } = u.bbox;
    const ctx = u.ctx;
    const pr = uPlot.pxRatio;
    ctx.save();
    ctx.beginPath();
    ctx.rect(left, top, width, height);
    ctx.clip();
    ctx.lineWidth = 1.5 * pr;
    ctx.setLineDash([12 * pr, 4 * pr, 2 * pr, 4 * pr]);
    // The axis text's size less a sixth: 10 px on the page, 15 px presenting.
    const fontPx = Math.round((this.look.fontPx * 5) / 6) * pr;
    ctx.font = `${fontPx}px sans-serif`;
    ctx.textAlign = 'right';
    const right = Math.min(left + width, u.valToPos(this.cfg.endMs, 'x', true));
    const lines: { y: number; color: string; text: string }[] = [];
    for (const p of published) {
      const from = Math.max(left, u.valToPos(p.fromMs, 'x', true));
      if (from >= right) continue; // zoomed in before the steady window
      const y = Math.round(u.valToPos(p.value * this.cfg.yScale, 'y', true)) + 0.5;
      ctx.strokeStyle = p.color;
      ctx.beginPath();
      ctx.moveTo(from, y);
      ctx.lineTo(right, y);
      ctx.stroke();
      lines.push({ y, color: p.color, text: publishedWords(p.value * this.cfg.yScale) });
    }
    // Each line's words (its value), above it or under it, no two touching.
    const labels = placePublishedLabels(lines, { fontPx, gapPx: 2 * pr, top, bottom: top + height, left, right: right - 4 * pr, widthOf: (t) => ctx.measureText(t).width });
    ctx.lineJoin = 'round';
    ctx.lineWidth = 4 * pr;
    ctx.strokeStyle = PLOT_GROUND;
    ctx.setLineDash([]);
    for (const l of labels) {
      if (l.halo) ctx.strokeText(l.text, l.right, l.baseline);
      ctx.fillStyle = l.color;
      ctx.fillText(l.text, l.right, l.baseline);
    }
    // The words' boxes (CSS px, in the canvas) and words, for the tests to see they stay apart.
    this.host.dataset.publishedLabels = labels
      .map((l) => [l.right - l.width, l.top, l.width, l.bottom - l.top].map((v) => (v / pr).toFixed(1)).join(' '))
      .join(';');
    this.host.dataset.publishedWords = labels.map((l) => l.text).join(';');
    ctx.restore();
  }

  private zoomToSelection(u: uPlot) {
    const { left, width } = u.select;
    if (width < MIN_DRAG_PX) return;
    const a = u.posToVal(left, 'x');
    const b = u.posToVal(left + width, 'x');
    u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
    this.group.zoomTo(a, b, this.cfg.endMs);
  }

  private cursorMoved(u: uPlot) {
    const left = u.cursor.left ?? -1;
    if (left < 0 || this.store.length === 0) return this.onCursor(null);
    const [t0, t1] = this.window;
    const t = Math.min(t1, Math.max(t0, u.posToVal(left, 'x')));
    const row = this.store.nearest(t);
    if (row < 0) return this.onCursor(null);
    const rect = u.over.getBoundingClientRect();
    this.onCursor({ row, hovered: this.hovered, clientX: rect.left + left, clientY: rect.top + Math.max(0, u.cursor.top ?? 0) });
  }
}

function markLine(): HTMLElement {
  const el = document.createElement('div');
  el.className = 'chart-mark';
  el.dataset.testid = 'chart-mark';
  Object.assign(el.style, { position: 'absolute', width: '1px', background: MARKER_COLOUR, pointerEvents: 'none', display: 'none' });
  return el;
}

function axisLabel(axis: 'x' | 'y'): HTMLElement {
  const el = document.createElement('div');
  el.className = `chart-axis-label chart-axis-label-${axis}`;
  el.dataset.axis = axis;
  return el;
}
