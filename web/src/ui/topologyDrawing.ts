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
}

/** On the page: a thumbnail, 9-unit names. */
export const PAGE_FRAME: Frame = { width: 320, height: 150, pad: 22 };
/** Presenting: names of 20 units (app.css) in boxes of 46 × 30, in the same 320 units of width.
 *  Taller, so that a network held by its height (GFC-1's fans of sources) spreads its switches
 *  wider: at 150 units GFC-1's five sat 40 units apart, under the width of their names. */
export const PRESENT_FRAME: Frame = { width: 320, height: 220, pad: 30 };
export const W = PAGE_FRAME.width;
export const H = PAGE_FRAME.height;
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
  // Bounds by loop (spreading 10,000 values into Math.min can overflow the stack).
  let [x0, x1, y0, y1] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const n of kept) {
    x0 = Math.min(x0, n.x);
    x1 = Math.max(x1, n.x);
    y0 = Math.min(y0, n.y);
    y1 = Math.max(y1, n.y);
  }
  if (kept.length === 0) [x0, x1, y0, y1] = [0, 0, 0, 0];
  const k = Math.min((W - 2 * PAD) / Math.max(1, x1 - x0), (H - 2 * PAD) / Math.max(1, y1 - y0));
  const ox = (W - (x1 - x0) * k) / 2;
  const oy = (H - (y1 - y0) * k) / 2;
  const nodes = kept.map((n) => ({ id: n.id, kind: n.kind, x: ox + (n.x - x0) * k, y: oy + (n.y - y0) * k }));
  const pos = new Map(nodes.map((n) => [n.id, n]));
  const links = scenario.links.flatMap((l) => {
    const a = pos.get(l.from);
    const b = pos.get(l.to);
    return a && b ? [{ id: l.id, a, b, rateMbps: l.rate_mbps }] : [];
  });
  // Shrink the nodes when they crowd (many sources), and drop labels that would not fit.
  let gap = Infinity;
  for (let i = 0; i < nodes.length; i++)
    for (let j = i + 1; j < nodes.length; j++) gap = Math.min(gap, Math.hypot(nodes[i].x - nodes[j].x, nodes[i].y - nodes[j].y));
  const r = Math.max(2.5, Math.min(11, gap / 2.3));
  return { nodes, links, r, summary };
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
