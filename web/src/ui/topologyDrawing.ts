// The side panel's small drawing of the network, computed apart from React: where each node
// goes, how big it is drawn, and, for a huge network, which nodes stand for the rest. Drawing
// 10,000 sources took over a second (every pair of nodes compared, one SVG group each) and showed
// nothing readable: past MAX_DRAWN nodes the drawing keeps every switch and destination and an
// evenly spread sample of the sources, and says how many there are.

import { evenlySpread as spread } from '../charts/spread';
import type { Scenario } from '../contract/scenario';

/** The drawing's box (SVG units) and its margin. */
export interface Frame {
  width: number;
  height: number;
  pad: number;
  /** Across, the margin an end system needs when too many are drawn to name them (its circle
   *  only): less than `pad`, which a switch's box or a name takes; the switches spread the
   *  wider for it. Absent: `pad`. */
  endPad?: number;
}

/** On the page: a thumbnail, 9-unit names. */
export const PAGE_FRAME: Frame = { width: 320, height: 150, pad: 22 };
/** Presenting: names of 20 units (app.css) in boxes of 50 × 30, in the same 320 units of width.
 *  Taller, so that a network held by its height (GFC-1's fans of sources) spreads its switches
 *  wider: at 150 units GFC-1's five sat 40 units apart, under the width of their names. Its
 *  unnamed sources go nearer the edges (12 units: a circle's 11 at most), so that GFC-1's
 *  boxes stand 10 units apart (QA h65: 52 units apart with its fans 30 from the sides, their
 *  boxes, then 46 wide, nearly touched). */
export const PRESENT_FRAME: Frame = { width: 320, height: 220, pad: 30, endPad: 12 };
export const W = PAGE_FRAME.width;
/** Nodes drawn at most; past this the sources are sampled. */
export const MAX_DRAWN = 120;

export interface DrawnNode {
  id: string;
  kind: string;
  x: number;
  y: number;
}

export interface TopologyDrawing {
  nodes: DrawnNode[];
  links: { id: string; a: DrawnNode; b: DrawnNode; rateMbps: number }[];
  /** Radius of an end system's circle (smaller when they crowd). */
  r: number;
  /** How many nodes of each kind the network has, when not all are drawn (null: all are). */
  summary: { kind: string; count: number }[] | null;
  /** End systems are named (few enough for a name beside each). */
  endNames: boolean;
}

/** Where a drawing's nodes go along one axis: the scale `k` and the offset `o` (a node at `v`
 *  goes to `o + k v`) that spread them widest with each node `reach[i]` or more from the
 *  edges (0 and `size`), centred. Nodes are classed by reach (a few distinct values), so the
 *  scale is the least over pairs of classes, not over pairs of nodes. */
function axisFit(values: readonly number[], reach: readonly number[], size: number): { k: number; o: (k: number) => number } {
  const classes = new Map<number, { lo: number; hi: number }>();
  values.forEach((v, i) => {
    const c = classes.get(reach[i]);
    if (c) [c.lo, c.hi] = [Math.min(c.lo, v), Math.max(c.hi, v)];
    else classes.set(reach[i], { lo: v, hi: v });
  });
  let k = Infinity;
  for (const [ra, a] of classes)
    for (const [rb, b] of classes) if (a.hi - b.lo > 0) k = Math.min(k, (size - ra - rb) / (a.hi - b.lo));
  const o = (k: number) => {
    let [lo, hi] = [-Infinity, Infinity];
    for (const [r, c] of classes) [lo, hi] = [Math.max(lo, r - k * c.lo), Math.min(hi, size - r - k * c.hi)];
    return Number.isFinite(lo) ? (lo + hi) / 2 : size / 2;
  };
  return { k, o };
}

/** The radius of an end system's circle: smaller when they crowd (`gap`: the nearest two nodes). */
const endRadius = (gap: number) => Math.max(2.5, Math.min(11, gap / 2.3));
/** From this radius an end system's name is drawn (inside its circle, or under it presenting). */
const NAMED_FROM_R = 9;

function nearestGap(nodes: readonly { x: number; y: number }[]): number {
  let gap = Infinity;
  for (let i = 0; i < nodes.length; i++)
    for (let j = i + 1; j < nodes.length; j++) gap = Math.min(gap, Math.hypot(nodes[i].x - nodes[j].x, nodes[i].y - nodes[j].y));
  return gap;
}

export function topologyDrawing(scenario: Pick<Scenario, 'nodes' | 'links'>, maxDrawn = MAX_DRAWN, frame: Frame = PAGE_FRAME): TopologyDrawing {
  const { width: W, height: H, pad: PAD } = frame;
  const all = scenario.nodes.map((n, i) => ({ id: n.id, kind: n.kind, x: n.x ?? i * 100, y: n.y ?? 0 }));
  let kept = all;
  let summary: TopologyDrawing['summary'] = null;
  if (all.length > maxDrawn) {
    const others = all.filter((n) => n.kind !== 'source');
    const sources = all.filter((n) => n.kind === 'source');
    const chosen = new Set([...spread(others, maxDrawn), ...spread(sources, Math.max(2, maxDrawn - others.length))]);
    kept = all.filter((n) => chosen.has(n));
    const counts = new Map<string, number>();
    for (const n of all) counts.set(n.kind, (counts.get(n.kind) ?? 0) + 1);
    summary = [...counts].map(([kind, count]) => ({ kind, count }));
  }
  // Placed with every node `pad` from the edges; then, presenting, unnamed end systems only
  // their circle's width from the sides (`endPad`), the switches spread wider.
  const place = (endPad: number) => {
    const across = axisFit(kept.map((n) => n.x), kept.map((n) => (n.kind === 'switch' ? PAD : endPad)), W);
    const down = axisFit(kept.map((n) => n.y), kept.map(() => PAD), H);
    // One node, or all at one place: drawn at the centre, at scale 1.
    const k = Math.min(across.k, down.k, Number.isFinite(Math.min(across.k, down.k)) ? Infinity : 1);
    const [ox, oy] = [across.o(k), down.o(k)];
    return kept.map((n) => ({ id: n.id, kind: n.kind, x: ox + n.x * k, y: oy + n.y * k }));
  };
  let nodes = place(PAD);
  let gap = nearestGap(nodes);
  const endNames = endRadius(gap) >= NAMED_FROM_R;
  if (!endNames && frame.endPad !== undefined && frame.endPad < PAD) {
    nodes = place(frame.endPad);
    gap = nearestGap(nodes);
  }
  const pos = new Map(nodes.map((n) => [n.id, n]));
  const links = scenario.links.flatMap((l) => {
    const a = pos.get(l.from);
    const b = pos.get(l.to);
    return a && b ? [{ id: l.id, a, b, rateMbps: l.rate_mbps }] : [];
  });
  // Shrink the nodes when they crowd (many sources); unnamed, never to a name's size.
  const r = endNames ? endRadius(gap) : Math.min(endRadius(gap), NAMED_FROM_R - 0.5);
  return { nodes, links, r, summary, endNames };
}

const KIND_WORDS: Record<string, [string, string]> = {
  source: ['source', 'sources'],
  switch: ['switch', 'switches'],
  destination: ['destination', 'destinations'],
};

/** "10,000 sources, 2 switches, 1 destination". */
export function countsText(summary: { kind: string; count: number }[]): string {
  return summary
    .map(({ kind, count }) => {
      const [one, many] = KIND_WORDS[kind] ?? [kind, kind];
      return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
    })
    .join(', ');
}
