// The Network view's drawing, computed apart from React: where each node goes (the editor's
// positions, scaled up so that switch cards have room; a huge network sampled as the side
// panel's thumbnail samples it), each link's two lanes (one per direction, traffic on the
// right), a point a given fraction along a lane, and the colour and width of a lane from its
// utilisation.

import type { Scenario } from '../../contract/scenario';
import { topologyDrawing, W } from '../topologyDrawing';

/** Nodes drawn at most (past this, sources are sampled, as in the thumbnail). */
export const NETWORK_MAX_DRAWN = 160;
/** Switch centres are at least this far apart (px), so their cards do not overlap. */
export const SWITCH_GAP_PX = 300;
/** The drawing is at least this wide (px) before React Flow fits it to the view. */
const MIN_WIDTH_PX = 1000;
/** Half the distance between a link's two lanes (px). */
export const LANE_OFFSET_PX = 5;

export interface Point {
  x: number;
  y: number;
}

export interface NetworkNode extends Point {
  id: string;
  kind: string;
}

/** One direction of a link: the port `from->to`, offset to the right of its direction. */
export interface Lane {
  port: string;
  from: string;
  to: string;
  a: Point;
  b: Point;
}

export interface NetworkLink {
  id: string;
  from: string;
  to: string;
  rateMbps: number;
  lanes: [Lane, Lane];
}

export interface NetworkLayout {
  nodes: NetworkNode[];
  links: NetworkLink[];
  /** Lanes by port id (`SW1->SW2`). */
  lanes: Map<string, Lane>;
  /** Node counts by kind when not every node is drawn (null: all are). */
  summary: { kind: string; count: number }[] | null;
  /** The smallest distance between two end systems (px; Infinity with fewer than two). */
  endGapPx: number;
}

/** End systems closer than this (px) are drawn without their rate labels, which would overlap. */
export const LABEL_GAP_PX = 70;

/** The segment from `a` to `b` moved `offset` px to its right (y grows downwards). */
export function offsetSegment(a: Point, b: Point, offset: number): [Point, Point] {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len = Math.hypot(dx, dy) || 1;
  // Right of the direction of travel on screen: (-dy, dx) / len.
  const ox = (-dy / len) * offset;
  const oy = (dx / len) * offset;
  return [
    { x: a.x + ox, y: a.y + oy },
    { x: b.x + ox, y: b.y + oy },
  ];
}

/** The point `fraction` of the way along a lane (clamped to its ends). */
export function pointOnLane(lane: Pick<Lane, 'a' | 'b'>, fraction: number): Point {
  const f = Math.min(1, Math.max(0, fraction));
  return { x: lane.a.x + (lane.b.x - lane.a.x) * f, y: lane.a.y + (lane.b.y - lane.a.y) * f };
}

/** The lane's direction on screen (degrees, 0 = to the right, clockwise). */
export function laneAngle(lane: Pick<Lane, 'a' | 'b'>): number {
  return (Math.atan2(lane.b.y - lane.a.y, lane.b.x - lane.a.x) * 180) / Math.PI;
}

/** Half the size (px) of what is drawn for a node: lanes end at its edge, not its centre. */
export type HalfSize = (node: { id: string; kind: string }) => { w: number; h: number };

/** Radius of an end system's circle (px). */
export const END_RADIUS_PX = 12;

/** A switch card's half size with `ports` port rows (its CSS: 190 px wide, ~30 px a row). */
export function switchHalfSize(ports: number): { w: number; h: number } {
  return { w: 95, h: (32 + 30 * ports) / 2 };
}

/** How far (0..1) along a → b the segment leaves a box of half size `half` centred on a. */
export function exitFraction(a: Point, b: Point, half: { w: number; h: number }): number {
  const dx = Math.abs(b.x - a.x);
  const dy = Math.abs(b.y - a.y);
  const t = Math.min(dx > 0 ? half.w / dx : Infinity, dy > 0 ? half.h / dy : Infinity);
  return Math.min(0.45, t);
}

export function networkLayout(scenario: Pick<Scenario, 'nodes' | 'links'>, maxDrawn = NETWORK_MAX_DRAWN, halfSize: HalfSize = () => ({ w: 0, h: 0 })): NetworkLayout {
  const drawing = topologyDrawing(scenario, maxDrawn);
  const switches = drawing.nodes.filter((n) => n.kind === 'switch');
  let gap = Infinity;
  for (let i = 0; i < switches.length; i++)
    for (let j = i + 1; j < switches.length; j++) gap = Math.min(gap, Math.hypot(switches[i].x - switches[j].x, switches[i].y - switches[j].y));
  const scale = Math.min(40, Math.max(MIN_WIDTH_PX / W, Number.isFinite(gap) && gap > 0 ? SWITCH_GAP_PX / gap : 0));
  const nodes = drawing.nodes.map((n) => ({ id: n.id, kind: n.kind, x: n.x * scale, y: n.y * scale }));
  const pos = new Map(nodes.map((n) => [n.id, n]));
  const lanes = new Map<string, Lane>();
  const links = drawing.links.map((l) => {
    const src = scenario.links.find((k) => k.id === l.id)!;
    const a = pos.get(src.from)!;
    const b = pos.get(src.to)!;
    const lane = (from: NetworkNode, to: NetworkNode): Lane => {
      // From edge to edge: a cell waiting at a node sits at its edge, beside it, not under it.
      const t0 = exitFraction(from, to, halfSize(from));
      const t1 = 1 - exitFraction(to, from, halfSize(to));
      const [p, q] = offsetSegment(pointOnLane({ a: from, b: to }, t0), pointOnLane({ a: from, b: to }, t1), LANE_OFFSET_PX);
      return { port: `${from.id}->${to.id}`, from: from.id, to: to.id, a: p, b: q };
    };
    const pair: [Lane, Lane] = [lane(a, b), lane(b, a)];
    for (const ln of pair) lanes.set(ln.port, ln);
    return { id: l.id, from: src.from, to: src.to, rateMbps: l.rateMbps, lanes: pair };
  });
  const ends = nodes.filter((n) => n.kind !== 'switch');
  let endGapPx = Infinity;
  for (let i = 0; i < ends.length; i++)
    for (let j = i + 1; j < ends.length; j++) endGapPx = Math.min(endGapPx, Math.hypot(ends[i].x - ends[j].x, ends[i].y - ends[j].y));
  return { nodes, links, lanes, summary: drawing.summary, endGapPx };
}

/** Lane colours from idle to full: a sequential blue ramp (ColorBrewer "Blues", colour-blind safe). */
export const UTILISATION_RAMP = ['#c6dbef', '#9ecae1', '#6baed6', '#3182bd', '#08519c', '#08306b'] as const;
/** A lane whose utilisation nothing measures (toward a source: only backward RM cells). */
export const UNMEASURED_COLOUR = '#bdbdbd';
export const MIN_LANE_PX = 2;
export const MAX_LANE_PX = 10;

function mix(a: string, b: string, t: number): string {
  const ch = (h: string, i: number) => parseInt(h.slice(1 + 2 * i, 3 + 2 * i), 16);
  return `#${[0, 1, 2]
    .map((i) => Math.round(ch(a, i) + (ch(b, i) - ch(a, i)) * t).toString(16).padStart(2, '0'))
    .join('')}`;
}

/**
 * A lane's look from its utilisation (%; null: not measured): the colour along the ramp and a
 * width from MIN_LANE_PX (idle) to MAX_LANE_PX (full), both growing with the utilisation.
 */
export function laneLook(utilPercent: number | null): { colour: string; widthPx: number } {
  if (utilPercent === null || !Number.isFinite(utilPercent)) return { colour: UNMEASURED_COLOUR, widthPx: MIN_LANE_PX };
  const u = Math.min(1, Math.max(0, utilPercent / 100));
  const pos = u * (UTILISATION_RAMP.length - 1);
  const i = Math.min(UTILISATION_RAMP.length - 2, Math.floor(pos));
  return { colour: mix(UTILISATION_RAMP[i], UTILISATION_RAMP[i + 1], pos - i), widthPx: MIN_LANE_PX + (MAX_LANE_PX - MIN_LANE_PX) * u };
}

/**
 * A source's own link carries what its connections send: their ACRs over the link's rate (%),
 * capped at 100 (null when none of them has an ACR, e.g. UBR).
 */
export function sourceUtilisation(acrsMbps: readonly number[], rateMbps: number): number | null {
  const known = acrsMbps.filter(Number.isFinite);
  if (known.length === 0 || !(rateMbps > 0)) return null;
  return Math.min(100, (100 * known.reduce((a, b) => a + b, 0)) / rateMbps);
}
