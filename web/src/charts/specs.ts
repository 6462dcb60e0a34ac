// Which series go in which chart, and how they are drawn. Units come from the series metadata
// (the engine's), never from here.

import type { SeriesKind, SeriesMeta } from '../sim/engine';
import type { ChartLine } from './drawChart';
import { colourByOwner, type LineStyle } from './palette';

export interface ChartSpec {
  id: 'rate' | 'queue' | 'utilization' | 'algorithm';
  title: string;
  kinds: { kind: SeriesKind; style: LineStyle }[];
  /** The y axis reaches at least this value. */
  yFloor: number;
}

export const CHARTS: ChartSpec[] = [
  {
    id: 'rate',
    title: 'Allowed cell rate (ACR) of each source',
    kinds: [
      { kind: 'acr', style: 'solid' },
      { kind: 'share', style: 'dashed' },
      { kind: 'target', style: 'dotted' },
    ],
    yFloor: 1,
  },
  { id: 'queue', title: 'Queue length at each switch output port', kinds: [{ kind: 'queue', style: 'solid' }], yFloor: 10 },
  {
    id: 'utilization',
    title: 'Utilisation of each switch output port',
    kinds: [{ kind: 'utilization', style: 'solid' }],
    yFloor: 100,
  },
];

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

/** The quantity an `algorithm` series reports: the last part of `algorithm:<port>:<name>`. */
export function quantityOf(m: SeriesMeta): string {
  return m.id.slice(m.id.lastIndexOf(':') + 1);
}

/** The algorithm quantities of a run, in order of first appearance. */
export function algorithmQuantities(meta: SeriesMeta[]): string[] {
  return [...new Set(meta.filter((m) => m.kind === 'algorithm').map(quantityOf))];
}

/** Keeps one algorithm quantity (every other series passes). */
export const onlyQuantity = (name: string | null) => (m: SeriesMeta) => m.kind !== 'algorithm' || quantityOf(m) === name;

/**
 * The lines of a chart: the series of its kinds that `keep` accepts. Colours go by owner over
 * all the chart's series, so a port keeps its colour whichever quantity is shown.
 */
export function linesFor(spec: ChartSpec, meta: SeriesMeta[], keep: (m: SeriesMeta) => boolean = () => true): ChartLine[] {
  const kinds = new Map(spec.kinds.map((k) => [k.kind, k.style]));
  const all = meta.map((m, index) => ({ m, index })).filter(({ m }) => kinds.has(m.kind));
  const colours = colourByOwner(all.map(({ m }) => m.owner));
  const mine = all.filter(({ m }) => keep(m));
  return mine.map(({ m, index }) => ({
    index,
    owner: m.owner,
    kind: m.kind,
    color: colours.get(m.owner)!,
    style: kinds.get(m.kind)!,
    label: m.label,
    unit: m.unit,
  }));
}

/** The y-axis unit of a chart: the unit of its first series. */
export function unitFor(spec: ChartSpec, meta: SeriesMeta[], keep: (m: SeriesMeta) => boolean = () => true): string {
  return meta.find((m) => m.kind === spec.kinds[0].kind && keep(m))?.unit ?? '';
}
