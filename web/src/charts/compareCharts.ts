// The charts of a comparison, in two modes. Side by side: one sample store per variant, built
// once from the rows the batch worker sent, and per quantity one chart per variant on a y axis
// shared across them (the highest value any of them draws), so that the charts read against each
// other. Overlaid: per quantity one chart holding every variant's lines, one colour per variant
// and one dash pattern per series (connection or port), from one store that merges the variants'
// rows on a common time axis. Either way the charts share one cursor and zoom (a ChartGroup).

import type { SeriesMeta } from '../contract/engine';
import { chartSvg, svgLayout, wrapWords } from './export';
import { kindNameWith } from './legend';
import type { ChartLook } from './look';
import { colourAt } from './palette';
import { SampleStore } from './sampleStore';
import { CHARTS, chartView, linesFor, unitFor, type ChartLine, type ChartSpec, type ChartView, type NetworkView } from './specs';

/** The quantities a comparison charts. */
export const COMPARE_CHARTS: ChartSpec[] = CHARTS.filter((c) => c.id === 'rate' || c.id === 'queue');

/** A store holding a finished run's rows (row-major [time, v…], width meta.length + 1), min/max
 *  pairs over buckets of `perBucket` samples when a batch worker bucketed them. */
export function storeOf(meta: SeriesMeta[], rows: Float64Array, perBucket = 1): SampleStore {
  const store = new SampleStore(Math.max(1, Math.floor(rows.length / (meta.length + 1))));
  store.reset(meta);
  store.append(rows, meta.length + 1);
  store.bucketed(perBucket);
  return store;
}

/** The y floor (in shown units) that makes every variant's chart reach the highest value any of them draws. */
export function sharedYFloor(panels: { store: SampleStore; lines: ChartLine[] }[], floor: number, scale: number): number {
  let hi = -Infinity;
  for (const { store, lines } of panels) {
    for (const l of lines) {
      for (const v of store.series(l.index)) if (Number.isFinite(v) && v > hi) hi = v;
    }
  }
  return Number.isFinite(hi) ? Math.max(floor, hi * scale) : floor;
}

/** The last sample time (ms) of any variant: the common time axis ends there. */
function endOf(stores: (SampleStore | null)[]): number {
  return Math.max(1, ...stores.map((st) => (st && st.length ? st.times()[st.length - 1] : 0)));
}

/** One variant's chart of one quantity (side by side); null where the variant has no series. */
export interface SidePanel {
  spec: ChartSpec;
  runs: ({ store: SampleStore; lines: ChartLine[]; view: ChartView } | null)[];
  yFloor: number;
  endMs: number;
}

/** Side by side: per quantity, one chart per variant on a shared y axis. */
export function sidePanels(stores: (SampleStore | null)[], net: NetworkView): SidePanel[] {
  const endMs = endOf(stores);
  return COMPARE_CHARTS.map((spec) => {
    const runs = stores.map((store) => (store ? { store, lines: linesFor(spec, store.meta), view: chartView(spec, unitFor(spec, store.meta), net) } : null));
    const drawn = runs.filter((r) => r !== null);
    const view = drawn[0]?.view;
    const yFloor = view ? sharedYFloor(drawn, Math.max(...drawn.map((r) => r.view.yFloor)), view.scale) : 0;
    return { spec, runs, yFloor, endMs };
  });
}

/**
 * The variants' rows in one store on the union of their sample times: variant i's series come
 * at offsets[i] (-1: no store), with ids and labels marked by the variant (`<i>:<id>`,
 * `<label> · <name>`). A variant sampled on another grid holds its last value between its own
 * samples (drawn as steps); before its first and after its last sample it has no value.
 */
export function mergeStores(stores: (SampleStore | null)[], names: string[]): { store: SampleStore; offsets: number[] } {
  const meta: SeriesMeta[] = [];
  const offsets = stores.map((st, i) => {
    if (!st) return -1;
    const at = meta.length;
    for (const m of st.meta) meta.push({ ...m, id: `${i}:${m.id}`, label: `${m.label} · ${names[i]}` });
    return at;
  });
  const times = [...new Set(stores.flatMap((st) => (st ? Array.from(st.times()) : [])))].sort((a, b) => a - b);
  const width = meta.length + 1;
  const rows = new Float64Array(times.length * width).fill(NaN);
  stores.forEach((st, i) => {
    if (!st || st.length === 0) return;
    const own = st.times();
    const cols = st.meta.map((_, k) => st.series(k));
    const lastTime = own[own.length - 1];
    let r = -1;
    times.forEach((t, row) => {
      while (r + 1 < st.length && own[r + 1] <= t) r++;
      if (r < 0 || t > lastTime) return;
      for (let k = 0; k < cols.length; k++) rows[row * width + 1 + offsets[i] + k] = cols[k][r];
    });
  });
  times.forEach((t, row) => (rows[row * width] = t));
  // Overlaid, the tooltip names the widest bucket of any run.
  const perBucket = Math.max(1, ...stores.map((st) => st?.samplesPerBucket ?? 1));
  return { store: storeOf(meta, rows, perBucket), offsets };
}

/**
 * Dash patterns (CSS px) of the series in an overlaid chart, in order: the first series solid,
 * then patterns that stay apart at a glance; they repeat after the last.
 */
export const SERIES_DASHES: number[][] = [[], [8, 4], [2, 3], [12, 3, 2, 3], [4, 4], [14, 5], [1, 6], [6, 2, 1, 2, 1, 2]];

/** One quantity with every variant's lines in one chart. */
export interface OverlayPanel {
  spec: ChartSpec;
  lines: ChartLine[];
  view: ChartView;
  endMs: number;
}

/**
 * Overlaid: per quantity, one chart of `merged` (mergeStores) with each variant's own lines (the
 * sources' rates, the ports' queues; not the reference shares, which would double the dashes)
 * in the variant's colour, each series (connection or port) in its dash. In the legend the
 * owners are the variants and the series key names the dashes.
 */
export function overlayPanels(stores: (SampleStore | null)[], names: string[], merged: { store: SampleStore; offsets: number[] }, net: NetworkView): OverlayPanel[] {
  const endMs = endOf(stores);
  return COMPARE_CHARTS.map((spec) => {
    const own = { ...spec, kinds: spec.kinds.filter((k) => k.style === 'solid') };
    const dashOf = new Map<string, number[]>();
    const lines: ChartLine[] = [];
    let view: ChartView | null = null;
    stores.forEach((store, i) => {
      if (!store) return;
      view ??= chartView(spec, unitFor(spec, store.meta), net);
      for (const l of linesFor(own, store.meta)) {
        if (!dashOf.has(l.owner)) dashOf.set(l.owner, SERIES_DASHES[dashOf.size % SERIES_DASHES.length]);
        lines.push({
          index: merged.offsets[i] + l.index,
          owner: names[i],
          kind: l.kind,
          color: colourAt(i),
          style: 'solid',
          label: merged.store.meta[merged.offsets[i] + l.index].label,
          unit: l.unit,
          series: l.owner,
          dash: dashOf.get(l.owner)!,
        });
      }
    });
    return { spec, lines, view: view ?? chartView(spec, '', net), endMs };
  });
}

/** Names for the variants in one chart's legend: their labels, numbered where two are alike. */
export function variantNames(labels: string[]): string[] {
  return labels.map((l, i) => (labels.indexOf(l) !== i || labels.lastIndexOf(l) !== i ? `${l} (${i + 1})` : l));
}

/** How the comparison's charts are laid out. */
export type CompareMode = 'overlaid' | 'side';

/**
 * The charts as shown, each as a standalone SVG for the compare image: overlaid, one per quantity
 * at the full width; side by side, one per quantity and variant, `columns` to a row. Every chart
 * over the window `[t0, t1]` (ms) the view shows; ids kept apart by a prefix per chart.
 */
export function compareChartSvgs(
  mode: CompareMode,
  side: SidePanel[],
  overlay: { panels: OverlayPanel[]; store: SampleStore },
  names: string[],
  window: [number, number],
  width: number,
  look?: ChartLook,
  kindNames?: Record<string, string>,
): { charts: { svg: string; width: number; height: number }[]; columns: number } {
  const [t0, t1] = window;
  const base = { t0, t1, markers: [] as number[], look, kindName: kindNameWith(kindNames) };
  if (mode === 'overlaid') {
    const charts = overlay.panels.map((p, k) =>
      chartSvg(overlay.store, { ...base, title: p.view.title, lines: p.lines, yUnit: p.view.unit, yScale: p.view.scale, yFloor: p.view.yFloor }, width, `c${k}-`),
    );
    return { charts, columns: 1 };
  }
  const columns = Math.max(1, names.length);
  const L = svgLayout(look);
  const charts = side.flatMap((p, k) => {
    const titles = p.runs.map((r, i) => (r ? `${r.view.title} · ${names[i]}` : ''));
    // A row's plots level: each chart has room for the longest title of its row.
    const titleLines = Math.max(...titles.map((t) => wrapWords(t, width / columns - 2 * L.pad, L.titleSize).length));
    return p.runs.map((r, i) =>
      r
        ? chartSvg(r.store, { ...base, title: titles[i], titleLines, lines: r.lines, yUnit: r.view.unit, yScale: r.view.scale, yFloor: p.yFloor }, width / columns, `c${k}-${i}-`)
        : { svg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>', width: width / columns, height: 0 },
    );
  });
  return { charts, columns };
}
