// Which series go in which chart, and how they are drawn. Units come from the series metadata
// (the engine's), never from here.

import type { DefaultAlgorithms, ParamSpec, ProbeSpec, SeriesKind, SeriesMeta } from '../contract/engine';
import type { Scenario } from '../contract/scenario';
import type { DisplayUnit } from '../contract/units';
import { colourByGroup, DASH, type LineStyle } from './palette';
import { evenlySpread } from './spread';

/** One line of a chart: a series of the sample store and how it is drawn. */
export interface ChartLine {
  /** Series index in the sample store. */
  index: number;
  /** Connection, port or virtual path the series belongs to (one colour per owner). */
  owner: string;
  kind: SeriesKind;
  color: string;
  style: LineStyle;
  label: string;
  /** The engine's unit of the series (the chart may show it converted). */
  unit: string;
  /** The owner's connection group (`connections[].group`), if it has one. */
  group?: string;
  /** Overlaid compare charts: the series this line is one variant's copy of (its dash names it in
   *  the legend's series key), and that dash pattern instead of the style's. */
  series?: string;
  dash?: number[];
}

/** The dash pattern a line is drawn with: its own (overlaid compare charts) or its style's. */
export const dashOf = (l: ChartLine): number[] => l.dash ?? DASH[l.style];

export interface ChartSpec {
  id: 'rate' | 'queue' | 'utilization' | 'delivered' | 'loss' | 'cwnd' | 'goodput' | 'algorithm';
  title: string;
  /** The title on Ethernet networks (frames and rate limits, no cells or ACR). */
  ethernetTitle?: string;
  kinds: { kind: SeriesKind; style: LineStyle }[];
  /** The y axis reaches at least this value (in the unit shown). */
  yFloor: number;
  /** Drawn only when the run has series of its kinds (e.g. TCP connections). */
  optional?: boolean;
}

export const CHARTS: ChartSpec[] = [
  {
    id: 'rate',
    title: 'Allowed cell rate (ACR) of each source',
    ethernetTitle: 'Rate limit of each flow',
    kinds: [
      { kind: 'acr', style: 'solid' },
      { kind: 'vp_acr', style: 'solid' },
      { kind: 'share', style: 'dashed' },
      { kind: 'target', style: 'dotted' },
      { kind: 'vp_target', style: 'dotted' },
    ],
    yFloor: 1,
  },
  // The peak over each sample interval, so that the chart misses no burst between samples (and
  // its highest point is the summary's largest queue).
  {
    id: 'queue',
    title: 'Queue length at each switch output port (peak in each sample interval)',
    kinds: [{ kind: 'queue_peak', style: 'solid' }],
    yFloor: 10,
  },
  {
    id: 'utilization',
    title: 'Utilisation of each switch output port',
    kinds: [{ kind: 'utilization', style: 'solid' }],
    yFloor: 100,
  },
  {
    id: 'delivered',
    title: 'Cells delivered to each destination (cumulative)',
    ethernetTitle: 'Frames delivered to each destination (cumulative)',
    kinds: [{ kind: 'delivered', style: 'solid' }],
    yFloor: 10,
  },
  {
    id: 'loss',
    title: 'Cell loss ratio of each source (lost / sent, cumulative)',
    ethernetTitle: 'Frame loss ratio of each flow (dropped / sent, cumulative)',
    kinds: [{ kind: 'loss_ratio', style: 'solid' }],
    yFloor: 0.01,
  },
  {
    id: 'cwnd',
    title: 'TCP congestion window of each connection',
    kinds: [{ kind: 'cwnd', style: 'solid' }],
    yFloor: 10,
    optional: true,
  },
  {
    id: 'goodput',
    title: 'TCP goodput of each connection',
    kinds: [{ kind: 'goodput', style: 'solid' }],
    yFloor: 1,
    optional: true,
  },
];

/** What the scenario's network changes in the display: Ethernet shows Gbps, frames and KB. */
export interface NetworkView {
  ethernet: boolean;
  /** Bytes per frame (Ethernet), to show queues in KB (null: not known, queues stay in frames). */
  frameBytes: number | null;
  /** The largest rate a series of the run can reach (Mbps): the fastest link, or a larger PCR
   *  (null: the scenario names no link). The rate charts start with their y axis there. */
  topRateMbps: number | null;
}

export const ATM_VIEW: NetworkView = { ethernet: false, frameBytes: null, topRateMbps: null };

/** What of a scenario the display depends on. */
interface ShownNetwork {
  ethernet?: { frame_bytes?: number } | null;
  links?: readonly { rate_mbps: number }[];
  connections?: readonly { params?: { [name: string]: number | undefined } }[];
  defaults?: { source?: { [name: string]: number | undefined } };
}

/**
 * The largest rate of a network (Mbps): ACRs, shares and targets stay within the PCRs (a source's
 * PCR is its access link's rate unless it names one), goodputs and fair shares within the links.
 */
export function topRateMbps(scenario: ShownNetwork): number | null {
  let top = -Infinity;
  for (const l of scenario.links ?? []) top = Math.max(top, l.rate_mbps);
  const pcrs = [scenario.defaults?.source?.pcr_mbps, ...(scenario.connections ?? []).map((c) => c.params?.pcr_mbps)];
  for (const pcr of pcrs) if (pcr !== undefined) top = Math.max(top, pcr);
  return top > 0 && Number.isFinite(top) ? top : null;
}

/** The view of a scenario's network; an Ethernet scenario that names no frame size has the
 *  engine's (`ethernetFields`: the catalogue's `fields.ethernet`). */
export function networkView(scenario: ShownNetwork | null | undefined, ethernetFields: readonly ParamSpec[] | null = null): NetworkView {
  const top = scenario ? topRateMbps(scenario) : null;
  const eth = scenario?.ethernet;
  if (!eth) return top === null ? ATM_VIEW : { ...ATM_VIEW, topRateMbps: top };
  const engineDefault = ethernetFields?.find((f) => f.name === 'frame_bytes')?.default ?? null;
  return { ethernet: true, frameBytes: eth.frame_bytes ?? engineDefault, topRateMbps: top };
}

/** How an Ethernet queue is shown: in frames or in KB (frames × frame size / 1000). */
export type QueueUnit = 'frames' | 'KB';

/** A chart as shown: title, y unit and the factor from the engine's unit to the shown one. */
export interface ChartView {
  title: string;
  unit: string;
  /** shown value = engine value × scale */
  scale: number;
  yFloor: number;
  /** Where the y axis ends before there is anything to draw (shown unit; null: at the floor):
   *  a chart of rates, at the network's top rate. */
  yReach: number | null;
}

/**
 * The display conversion of the engine's units (the data stay in the engine's units): on
 * Ethernet, Mbps are shown as Gbps, and queues in frames or KB.
 */
export type { DisplayUnit };

export function displayUnit(unit: string, net: NetworkView, queueUnit: QueueUnit = 'frames'): DisplayUnit {
  if (net.ethernet && unit === 'Mbps') return { unit: 'Gbps', scale: 1e-3 };
  if (net.ethernet && unit === 'frames' && queueUnit === 'KB' && net.frameBytes !== null) return { unit: 'KB', scale: net.frameBytes / 1000 };
  return { unit, scale: 1 };
}

export function chartView(spec: ChartSpec, engineUnit: string, net: NetworkView, queueUnit: QueueUnit = 'frames'): ChartView {
  const { unit, scale } = displayUnit(engineUnit, net, spec.id === 'queue' ? queueUnit : 'frames');
  const title = net.ethernet && spec.ethernetTitle ? spec.ethernetTitle : spec.title;
  // The floor is in the engine's unit for ATM; Gbps charts reach at least 1 Gbps.
  const yFloor = unit === 'Gbps' ? 1 : spec.yFloor * (unit === 'KB' ? scale : 1);
  const yReach = engineUnit === 'Mbps' && net.topRateMbps !== null ? net.topRateMbps * scale : null;
  return { title, unit: unit || (spec.id === 'loss' ? 'lost / sent' : ''), scale, yFloor, yReach };
}

/**
 * The fourth chart: one internal quantity of the switch algorithms (the user picks which, as
 * units differ), drawn for every port that reports it.
 */
export const ALGORITHM_CHART: ChartSpec = {
  id: 'algorithm',
  title: 'Algorithm state at each switch output port',
  kinds: [{ kind: 'algorithm', style: 'solid' }],
  yFloor: 1,
};

/** The switch whose output port a port series belongs to: the node before "->" in its owner. */
const portNode = (owner: string): string => owner.split('->')[0];

/**
 * Why the algorithm chart has no line, in words (it has none when no series of the
 * `algorithm` kind reaches it). The engine reports a switch output port only when some
 * connection's forward traffic crosses it, and then as many quantities as its algorithm keeps,
 * so the reasons are told apart in that order: no switch, every switch runs "none", no
 * connection, no connection through a switch port (no port series in `meta`), the crossed
 * switches run "none", and last algorithms that keep no internal state. `names` maps an
 * algorithm id to its catalogue name.
 */
export function algorithmEmptyText(
  scenario: Pick<Scenario, 'nodes' | 'connections' | 'ethernet'> | null | undefined,
  meta: readonly SeriesMeta[],
  defaults: DefaultAlgorithms | null | undefined,
  names: Readonly<Record<string, string>> = {},
): string {
  const fallback = 'No switch reports internal state.';
  if (!scenario || !defaults) return fallback;
  const runs = (id: string) => {
    const node = scenario.nodes.find((n) => n.id === id);
    return node?.algorithm ?? (scenario.ethernet ? defaults.ethernet : defaults.atm);
  };
  const switches = scenario.nodes.filter((n) => n.kind === 'switch').map((n) => n.id);
  if (switches.length === 0) return 'The network has no switch, so no algorithm state to show.';
  if (switches.every((id) => runs(id) === 'none')) return 'No switch reports internal state (every switch runs “none”).';
  if (scenario.connections.length === 0) return 'There is no connection, so no switch port carries traffic to report on.';
  const crossed = [...new Set(meta.filter((m) => m.kind === 'queue').map((m) => portNode(m.owner)))];
  if (crossed.length === 0) return 'No connection crosses a switch output port, so no switch algorithm has traffic to report on.';
  const algorithms = [...new Set(crossed.map(runs))];
  if (algorithms.every((a) => a === 'none')) return 'Every switch a connection crosses runs “none”, which keeps no internal state.';
  const named = algorithms.filter((a) => a !== 'none').map((a) => names[a] ?? a);
  return `The algorithms of the switches the connections cross (${named.join(', ')}) keep no internal state.`;
}

/** The quantity an `algorithm` series reports: the last part of `algorithm:<port>:<name>`. */
export function quantityOf(m: SeriesMeta): string {
  return m.id.slice(m.id.lastIndexOf(':') + 1);
}

const ACRONYMS: Record<string, string> = { macr: 'MACR', mair: 'MAIR', mrf: 'MRF', vcs: 'VCs' };

/** How a quantity reads in the picker: words, acronyms in capitals, the unit left to the axis
 *  ("macr_pct_of_target" → "MACR, % of target", "fair_share_mbps" → "fair share"). */
export function quantityLabel(name: string): string {
  const pct = name.endsWith('_pct_of_target');
  const words = name
    .replace(/_mbps$|_pct_of_target$/, '')
    .split('_')
    .map((w) => ACRONYMS[w] ?? w);
  return words.join(' ') + (pct ? ', % of target' : '');
}

/** The algorithm quantities of a run, in order of first appearance. */
export function algorithmQuantities(meta: SeriesMeta[]): string[] {
  return [...new Set(meta.filter((m) => m.kind === 'algorithm').map(quantityOf))];
}

/** Keeps one algorithm quantity (every other series passes). */
export const onlyQuantity = (name: string | null) => (m: SeriesMeta) => m.kind !== 'algorithm' || quantityOf(m) === name;

/**
 * The lines of a chart: the series of its kinds that `keep` accepts (of the owners in `only`,
 * when given). Colours go by owner over
 * all the chart's series, so a port keeps its colour whichever quantity is shown; owners of one
 * group (`groupOf`, the scenario's `connections[].group`) share a hue. Virtual paths come first
 * (first colours, first in the legend): one line each stands for several connections.
 */
export function linesFor(
  spec: ChartSpec,
  meta: SeriesMeta[],
  keep: (m: SeriesMeta) => boolean = () => true,
  groupOf: (owner: string) => string | undefined = () => undefined,
  only: ReadonlySet<string> | null = null,
): ChartLine[] {
  const kinds = new Map(spec.kinds.map((k) => [k.kind, k.style]));
  const isVp = (m: SeriesMeta) => m.kind === 'vp_acr' || m.kind === 'vp_target';
  const indexed: { m: SeriesMeta; index: number }[] = [];
  meta.forEach((m, index) => {
    if (kinds.has(m.kind) && (!only || only.has(m.owner))) indexed.push({ m, index });
  });
  const all = [...indexed.filter(({ m }) => isVp(m)), ...indexed.filter(({ m }) => !isVp(m))];
  const colours = colourByGroup(
    all.map(({ m }) => m.owner),
    groupOf,
  );
  const mine = all.filter(({ m }) => keep(m));
  return mine.map(({ m, index }) => {
    const group = groupOf(m.owner);
    return {
      index,
      owner: m.owner,
      kind: m.kind,
      color: colours.get(m.owner)!,
      style: kinds.get(m.kind)!,
      // An algorithm's quantity in words, as the picker says it: the engine's name carries the
      // engine's unit (`advertised_rate_mbps`), which the chart may show otherwise (Gbps).
      label: m.kind === 'algorithm' ? `${m.owner} ${quantityLabel(quantityOf(m))}` : m.label,
      unit: m.unit,
      ...(group === undefined ? {} : { group }),
    };
  });
}

/** The y-axis unit of a chart: the unit of its first series, else (no series yet) the catalogue's for its first kind. */
export function unitFor(
  spec: ChartSpec,
  meta: SeriesMeta[],
  keep: (m: SeriesMeta) => boolean = () => true,
  probes: readonly ProbeSpec[] = [],
  ethernet = false,
): string {
  const kind = spec.kinds[0].kind;
  const seen = meta.find((m) => m.kind === kind && keep(m))?.unit;
  if (seen !== undefined) return seen;
  // A chart without series (every connection deleted) keeps its axis unit: the catalogue's
  // unit of its kind on this network (QA: bare 0–1 axes after the last connection went).
  const probe = probes.find((p) => p.kind === kind);
  return (ethernet ? probe?.ethernet_unit : probe?.unit) ?? '';
}

/** Owners (connections, ports) a chart draws lines for at most. Past this the chart draws an
 *  evenly spread sample, every connection group represented: 10,000 lines are unreadable, and
 *  building them blocked the page for seconds (issue 14). */
export const MAX_OWNERS_DRAWN = 40;

/**
 * The lines a chart draws: linesFor's, for at most `max` owners (all when there are fewer),
 * with how many owners there are and how many are drawn. The sample is chosen before the lines
 * are built and coloured, so that a huge network costs little more than its sample.
 */
export function drawnLines(
  spec: ChartSpec,
  meta: SeriesMeta[],
  keep: (m: SeriesMeta) => boolean = () => true,
  groupOf: (owner: string) => string | undefined = () => undefined,
  max = MAX_OWNERS_DRAWN,
): { lines: ChartLine[]; owners: number; drawn: number } {
  const kinds = new Set(spec.kinds.map((k) => k.kind));
  const groups = new Map<string, string[]>();
  const seen = new Set<string>();
  for (const m of meta) {
    if (!kinds.has(m.kind) || !keep(m) || seen.has(m.owner)) continue;
    seen.add(m.owner);
    const key = groupOf(m.owner) ?? '';
    const members = groups.get(key);
    if (members) members.push(m.owner);
    else groups.set(key, [m.owner]);
  }
  const owners = seen.size;
  if (owners <= max) return { lines: linesFor(spec, meta, keep, groupOf), owners, drawn: owners };
  const each = Math.max(1, Math.floor(max / groups.size));
  const kept = new Set([...groups.values()].slice(0, max).flatMap((m) => evenlySpread(m, each)));
  return { lines: linesFor(spec, meta, keep, groupOf, kept), owners, drawn: kept.size };
}

/** What a chart says when it draws a sample of its owners (null when it draws them all). */
export function sampledText(specId: ChartSpec['id'], d: { owners: number; drawn: number }): string | null {
  if (d.drawn >= d.owners) return null;
  const what = specId === 'queue' || specId === 'utilization' || specId === 'algorithm' ? 'ports' : 'connections';
  return `${d.drawn} of ${d.owners.toLocaleString('en-US')} ${what} drawn, evenly spread (the run's CSV export has them all)`;
}
