// Which series go in which chart, and how they are drawn. Units come from the series metadata
// (the engine's), never from here.

import type { SeriesKind, SeriesMeta } from '../sim/engine';
import type { ChartLine } from './drawChart';
import { colourByOwner, type LineStyle } from './palette';

export interface ChartSpec {
  id: 'rate' | 'queue' | 'utilization';
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

export function linesFor(spec: ChartSpec, meta: SeriesMeta[]): ChartLine[] {
  const kinds = new Map(spec.kinds.map((k) => [k.kind, k.style]));
  const mine = meta.map((m, index) => ({ m, index })).filter(({ m }) => kinds.has(m.kind));
  const colours = colourByOwner(mine.map(({ m }) => m.owner));
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
export function unitFor(spec: ChartSpec, meta: SeriesMeta[]): string {
  return meta.find((m) => m.kind === spec.kinds[0].kind)?.unit ?? '';
}
