// A sweep metric against the first varied parameter, one line per value of the others (e.g. per
// loop delay for each Qeq), with the 95 % intervals as bars: the geometry, pure, for the React
// SVG in ui/SweepView.tsx. A sweep has at most a few thousand points: no decimation needed.
// Values that are not numbers (algorithm ids) are categories: evenly spaced, points not joined
// (a line between ERICA and DEBRA would claim values in between).

import type { PlanInfo } from '../contract/engine';
import type { DisplayUnit } from '../contract/units';
import type { PointRow } from '../lab/sweepTable';
import { niceDomain, ticks } from './axes';
import { colourAt } from './palette';

export interface SweepPlotLine {
  label: string;
  color: string;
  /** Its points are joined by a line (false: x is categorical, points only). */
  joined: boolean;
  /** In the plot's pixels; `lo`/`hi` the interval's ends (null: none). */
  points: { x: number; y: number; lo: number | null; hi: number | null; point: number }[];
  /** The label of an earlier line this one lies on at every point (drawn dashed, so both
   *  colours show, and said in the legend); null when it is a line of its own. */
  sameAs: string | null;
}

export interface SweepPlotModel {
  metric: string;
  width: number;
  height: number;
  plot: { left: number; top: number; right: number; bottom: number };
  xLabel: string;
  /** `value` is the sweep's own (an algorithm id), `label` what the plot shows (its name). */
  xTicks: { x: number; label: string; value: string }[];
  /** x is categorical: evenly spaced values that are not numbers. */
  categorical: boolean;
  /** The x tick labels are slanted (30°) because they would not fit side by side. */
  xTicksSlanted: boolean;
  yTicks: { y: number; label: string }[];
  log: boolean;
  lines: SweepPlotLine[];
}

export const SWEEP_PLOT = { width: 360, height: 220, left: 58, right: 14, top: 12, bottom: 40 };
/** Presentation mode's plot (18 px text: more room for the ticks and the axis label). */
export const SWEEP_PLOT_PRESENT = { width: 560, height: 330, left: 90, right: 24, top: 16, bottom: 62 };
/** The tick text of a sweep plot (px), as usual and in presentation mode. */
export const SWEEP_TICK_PX = 11;
/** About how wide a character of a tick label is, per px of text, and the slant of crowded labels. */
const TICK_CHAR_EM = 6.2 / 11;
const SLANT_RAD = Math.PI / 6;

function label(v: number | string): string {
  return typeof v === 'number' ? `${+v.toPrecision(6)}` : v;
}

/** Metrics that are fractions of 1 at most: their axis ends at 1, not at a rounded 1.2. */
const AT_MOST_ONE = new Set(['jain_index', 'jain_among_virtual_paths', 'max_utilization', 'on_target_fraction']);
/** Fields of a connection, port or link that are fractions of 1 at most. */
const AT_MOST_ONE_FIELD = /^(conn|port|link|vp)\..+\.(mean_utilization|reverse_mean_utilization|loss_ratio)$/;
const atMostOne = (metric: string) => AT_MOST_ONE.has(metric) || AT_MOST_ONE_FIELD.test(metric);
/** Metrics that count (cells, frames, timeouts, events): whole numbers, so whole ticks only. */
const isCount = (metric: string) => /^(timeouts|events)$/.test(metric) || (metric.endsWith('_cells') && !/(^|\.)mean_/.test(metric));
/** Above 1 such an axis keeps this much of its span free (no tick there), so points at 1 clear the top. */
const AT_MOST_ONE_HEADROOM = 0.04;

const MBPS: DisplayUnit = { unit: 'Mbps', scale: 1 };

/** Fractions of 1 in the engine and the CSV shown in %, as the rest of the lab shows them:
 *  utilisations (`max_utilization`, a port's or link's `mean_utilization`), the part of the
 *  steady window on target (`on_target_fraction`, Compare's "% of steady window") and a loss
 *  ratio. Jain's index stays an index. */
const isPercent = (metric: string) =>
  metric === 'max_utilization' || metric === 'on_target_fraction' || /^(port|link)\..+\.(mean_utilization|reverse_mean_utilization)$/.test(metric) || /^(conn|port|link|vp)\..+\.loss_ratio$/.test(metric);

/** The factor from a metric's engine value to the value shown: a rate (`*_mbps`) in `rate`'s
 *  unit (Gbps on Ethernet, as the charts and Compare show it), a fraction `isPercent` in % (QA:
 *  the sweep said "largest utilisation (of 1)" 0.524478), anything else as it is. The CSV keeps
 *  the engine's values. */
export function metricScale(metric: string, rate: DisplayUnit = MBPS): number {
  return metric.endsWith('_mbps') ? rate.scale : isPercent(metric) ? 100 : 1;
}

/**
 * How a swept parameter's values are written: by their catalogue names (algorithm id → "ERICA+")
 * when every one of them has one, else as they are. The table and the plots say the same (QA:
 * the table read `erica_plus` where its plots said "ERICA+"); the CSV keeps the ids.
 */
export function valueText(values: readonly (number | string)[], names: Readonly<Record<string, string>> = {}): (v: number | string) => string {
  const named = values.length > 0 && values.every((v) => typeof v === 'string' && Object.hasOwn(names, v));
  return (v) => (named ? names[String(v)] : label(v));
}

/**
 * A sweep metric in words, with its unit: the totals of `abrsim sweep`'s columns, a connection's
 * or port's field; on Ethernet (`unit` frames) the engine's `*_cells` count frames, and a rate
 * is said in `rate`'s unit (Gbps). Anything else is its column name.
 */
export function metricTitle(metric: string, unit: 'cells' | 'frames' = 'cells', rate: DisplayUnit = MBPS): string {
  const mbps = rate.unit;
  const totals: Record<string, string> = {
    jain_index: "Jain's index",
    jain_among_virtual_paths: "Jain's index among virtual paths",
    convergence_ms: 'convergence (ms)',
    on_target_fraction: 'within 10 % of target (% of steady window)',
    events: 'events',
    lost_cells: `${unit} lost`,
    dropped_cells: `${unit} dropped`,
    max_queue_cells: `largest queue (${unit})`,
    max_utilization: 'largest utilisation (%)',
    goodput_mbps: `goodput (${mbps})`,
    timeouts: 'TCP timeouts',
  };
  if (totals[metric]) return totals[metric];
  const field = /^(conn|port|link|vp)\.(.+)\.([a-z_]+)$/.exec(metric);
  if (field) {
    const [, , owner, name] = field;
    const words: Record<string, string> = {
      mean_rate_mbps: `mean rate (${mbps})`,
      fair_share_mbps: `max-min share (${mbps})`,
      target_share_mbps: `target share (${mbps})`,
      goodput_mbps: `goodput (${mbps})`,
      throughput_mbps: `throughput (${mbps})`,
      mean_utilization: 'utilisation (%)',
      reverse_mean_utilization: 'reverse utilisation (%)',
      loss_ratio: 'loss ratio (%)',
      max_queue_cells: `largest queue (${unit})`,
      mean_queue_cells: `mean queue (${unit})`,
      dropped_cells: `${unit} dropped`,
      lost_cells: `${unit} lost`,
      delivered_cells: `${unit} delivered`,
      sent_cells: `${unit} sent`,
    };
    if (words[name]) return `${owner} ${words[name]}`;
  }
  return metric;
}

export interface SweepPlotOptions {
  size?: typeof SWEEP_PLOT;
  /** Names to show for categorical values (algorithm id → its catalogue name), used when every value has one. */
  names?: Readonly<Record<string, string>>;
  /** The factor from the engine's values to those shown (`metricScale`: a rate in Gbps). */
  scale?: number;
  /** The tick labels' text size (px): how wide they are, to slant them when they crowd. */
  fontPx?: number;
}

/** The plot of metric `m` (its position in the table's stats) over the points' rows. */
export function sweepPlot(plan: PlanInfo, rows: PointRow[], m: number, { size = SWEEP_PLOT, names = {}, scale = 1, fontPx = SWEEP_TICK_PX }: SweepPlotOptions = {}): SweepPlotModel {
  const { width, height } = size;
  const first = plan.params[0]?.values ?? [];
  const numeric = first.length > 0 && first.every((v) => typeof v === 'number');
  const tickLabel = valueText(first, names);
  // Labels too wide for their spacing (algorithm names, say) are slanted, and the plot leaves
  // room below for them.
  const longest = Math.max(0, ...first.map((v) => tickLabel(v).length)) * TICK_CHAR_EM * fontPx;
  const slanted = first.length > 1 && longest > (width - size.left - size.right) / first.length - 4;
  const below = slanted ? Math.min(70, longest * Math.sin(SLANT_RAD)) : 0;
  const plot = { left: size.left, top: size.top, right: width - size.right, bottom: height - size.bottom - below };
  const nums = first as number[];
  const log = numeric && Math.min(...nums) > 0 && Math.max(...nums) / Math.min(...nums) >= 100;
  // x: the values' positions (log or linear), or categories at the middles of equal bands.
  const lo = numeric ? Math.min(...nums) : 0;
  const hi = numeric ? Math.max(...nums) : 0;
  const t = (v: number) => (log ? Math.log10(v) : v);
  const span = t(hi) - t(lo) || 1;
  const pad = (plot.right - plot.left) * 0.04;
  const band = (plot.right - plot.left) / Math.max(1, first.length);
  const xOf = (v: number | string) =>
    numeric
      ? plot.left + pad + ((t(v as number) - t(lo)) / span) * (plot.right - plot.left - 2 * pad)
      : plot.left + (first.indexOf(v) + 0.5) * band;
  // y: over every mean and interval.
  let yLo = Infinity;
  let yHi = -Infinity;
  for (const r of rows) {
    const s = r.stats[m];
    if (!s || s.mean === null) continue;
    yLo = Math.min(yLo, (s.mean - (s.ci ?? 0)) * scale);
    yHi = Math.max(yHi, (s.mean + (s.ci ?? 0)) * scale);
  }
  // A fraction of 1 at most: a mean a rounding above 1, or an interval's end past it (the
  // normal approximation knows no bound), stops at 1, and so does the axis but for headroom.
  const metric = rows[0]?.stats[m]?.metric ?? plan.metrics[m] ?? '';
  const bounded = atMostOne(metric);
  const count = isCount(metric);
  // Its bound as shown: 1, or 100 for a fraction shown in %.
  const bound = scale;
  const cap = (v: number) => (bounded ? Math.min(v, bound) : v);
  const [y0, niceTop] = niceDomain(yLo, cap(yHi), bounded ? bound : !(Number.isFinite(yHi) && yHi > 0) ? 1 : 0);
  const y1 = bounded ? bound + AT_MOST_ONE_HEADROOM * (bound - y0) : niceTop;
  const yOf = (v: number) => plot.bottom - ((cap(v) - y0) / (y1 - y0 || 1)) * (plot.bottom - plot.top);
  // One line per combination of the other parameters, in plan order.
  const groups = new Map<string, PointRow[]>();
  for (const r of rows) {
    const key = r.values.slice(1).map(label).join(', ');
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const others = plan.params.slice(1).map((p) => p.column);
  // Categories with several lines: each line's points a little apart in their band, so that
  // equal values (every algorithm at Jain's 1) stay visible side by side.
  const dodge = !numeric && groups.size > 1 ? Math.min(8, (band * 0.6) / groups.size) : 0;
  const drawn = [...groups].map(([key, members], i) => ({
    label: others.length ? `${others.join(', ')} = ${key}` : (plan.metrics[m] ?? ''),
    color: colourAt(i),
    joined: numeric,
    points: members.flatMap((r) => {
      const s = r.stats[m];
      if (!s || s.mean === null) return [];
      return [
        {
          x: xOf(r.values[0]) + (i - (groups.size - 1) / 2) * dodge,
          y: yOf(s.mean * scale),
          lo: s.ci === null ? null : yOf((s.mean - s.ci) * scale),
          hi: s.ci === null ? null : yOf((s.mean + s.ci) * scale),
          point: r.point,
        },
      ];
    }),
  }));
  const lines = drawn.map((l, i) => ({ ...l, sameAs: drawn.slice(0, i).find((e) => liesOn(l, e))?.label ?? null }));
  return {
    metric: rows[0]?.stats[m]?.metric ?? '',
    width,
    height,
    plot,
    xLabel: (plan.params[0]?.column ?? '') + (log ? ' (log scale)' : ''),
    xTicks: first.map((v) => ({ x: xOf(v), label: tickLabel(v), value: label(v) })),
    categorical: !numeric,
    xTicksSlanted: slanted,
    yTicks: ticks(y0, y1, 4)
      .filter((v) => (!bounded || v <= bound) && (!count || Number.isInteger(v)))
      .map((v) => ({ y: yOf(v), label: `${+v.toPrecision(4)}` })),
    log,
    lines,
  };
}

/** Within half a pixel, the size below which two lines look like one. */
const SAME_PX = 0.5;

/** Whether `line` lies on `other` (the same x with the same y and interval at every point):
 *  drawn over it, it would hide it. Categories are dodged apart, so only joined lines can. */
function liesOn(line: Omit<SweepPlotLine, 'sameAs'>, other: Omit<SweepPlotLine, 'sameAs'>): boolean {
  const near = (a: number | null, b: number | null) => (a === null ? b === null : b !== null && Math.abs(a - b) <= SAME_PX);
  return (
    line.joined &&
    line.points.length > 0 &&
    line.points.length === other.points.length &&
    line.points.every((q, k) => {
      const o = other.points[k];
      return near(q.x, o.x) && near(q.y, o.y) && near(q.lo, o.lo) && near(q.hi, o.hi);
    })
  );
}
