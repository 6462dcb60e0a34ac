// The network editor's canvas as pure functions: where nodes are drawn, how far a key moves one,
// which node a tool may pick, and the labels. No React, no DOM: tested alone (React Flow does
// the view: zoom, pan, drag, focus).

import type { NodeKind, Scenario, ScenarioConnection, ScenarioLink } from '../../contract/scenario';
import { routeOf } from '../../scenario/topologyEdits';

export type Tool = 'select' | 'link' | 'flow';
export type Selection = { kind: 'node' | 'link' | 'connection'; id: string } | null;

export interface Point {
  x: number;
  y: number;
}

/** The nodes being dragged (one, or a box selection), where they are now. */
export type Drag = ReadonlyMap<string, Point>;

export const KIND_LABEL: Record<NodeKind, string> = { source: 'Source', switch: 'Switch', destination: 'Destination' };

/** The origin of an edited scenario: "<where it came from> (edited)". */
export function editedOrigin(origin: string) {
  return origin.endsWith(' (edited)') ? origin : `${origin} (edited)`;
}

/** The scenario an edit's origin names (`two-sources (edited)` → `two-sources`); null when
 *  the origin is not an edit's (a file, a link). */
export function editedScenario(origin: string): string | null {
  return origin.endsWith(' (edited)') ? origin.slice(0, -' (edited)'.length) : null;
}

/**
 * End systems shrink when they crowd (the 30-source networks) so that each stays grabbable;
 * their names and the link labels show only where they fit (else in the tooltip).
 */
export function nodeSize(s: Scenario | null) {
  const pts = (s?.nodes ?? []).filter((n) => n.kind !== 'switch').map((n) => [n.x ?? 0, n.y ?? 0]);
  let gap = Infinity;
  for (let i = 0; i < pts.length; i++)
    for (let j = i + 1; j < pts.length; j++) gap = Math.min(gap, Math.hypot(pts[i][0] - pts[j][0], pts[i][1] - pts[j][1]));
  const r = Math.max(4, Math.min(17, gap / 2.2));
  return { r, nodeLabels: r >= 12, linkLabels: (s?.links.length ?? 0) <= 12 };
}

/** A link's rate: "155.52 Mbps", "10 Gbps" (Gbps from 1000 Mbps up). */
export function linkRateText(rateMbps: number): string {
  return rateMbps >= 1000 ? `${+(rateMbps / 1000).toFixed(3)} Gbps` : `${rateMbps} Mbps`;
}

/** "L4 · 155.52 Mbps · 100 km". */
export function linkLabel(l: ScenarioLink) {
  const length = l.delay_us !== undefined ? ` · ${l.delay_us} µs` : l.distance_km !== undefined ? ` · ${l.distance_km} km` : '';
  return `${l.id} · ${linkRateText(l.rate_mbps)}${length}`;
}

const KIND_ORDER: Record<NodeKind, number> = { source: 0, switch: 1, destination: 2 };
const byName = new Intl.Collator('en', { numeric: true }).compare;

/**
 * The order Tab visits the canvas in, as "node:<id>" and "link:<id>": the nodes first, as a
 * network is read (sources, then switches, then destinations, each by name with S2 before
 * S10), then the links by name. Not the order React Flow draws them in (links under nodes),
 * nor where they are drawn: an arrow-key move does not reshuffle it under the user's hands.
 */
export function tabOrder(s: Scenario): string[] {
  const nodes = [...s.nodes].sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || byName(a.id, b.id));
  const links = [...s.links].sort((a, b) => byName(a.id, b.id));
  return [...nodes.map((n) => `node:${n.id}`), ...links.map((l) => `link:${l.id}`)];
}

/** How far an arrow key moves the focused node (canvas units), and with Shift. */
export const NUDGE = { step: 10, shiftStep: 50 };
const ARROWS: Record<string, Point> = { ArrowLeft: { x: -1, y: 0 }, ArrowRight: { x: 1, y: 0 }, ArrowUp: { x: 0, y: -1 }, ArrowDown: { x: 0, y: 1 } };

/** Where an arrow key moves a node at `at` (null: not an arrow key). */
export function nudged(at: Point, key: string, shift: boolean): Point | null {
  const d = ARROWS[key];
  if (!d) return null;
  const k = shift ? NUDGE.shiftStep : NUDGE.step;
  return { x: at.x + d.x * k, y: at.y + d.y * k };
}

/** Where each node is drawn: those being dragged where the drag has them, the others where
 *  the scenario puts them (or in a row when it does not). */
export function positions(s: Scenario, drag: Drag): Map<string, Point> {
  return new Map(s.nodes.map((n, i) => [n.id, drag.get(n.id) ?? { x: n.x ?? 80 + i * 90, y: n.y ?? 200 }]));
}

/** The clearance a new node keeps from every other (canvas units): enough that end systems
 *  keep their full size and their names (`nodeSize`). */
export const NEW_NODE_CLEARANCE = 60;

/**
 * Where a new node of a kind goes: in the column of the nodes of its kind (sources at the
 * left-most source, destinations at the right-most destination, switches at their middle; a
 * kind's first node where a network is usually drawn), at the first free place down that
 * column, `NEW_NODE_CLEARANCE` away from every node.
 */
export function placeForNew(s: Scenario, kind: NodeKind): Point {
  const at = [...positions(s, new Map()).values()];
  const column = s.nodes.flatMap((n, i) => (n.kind === kind ? [at[i]] : []));
  const xs = column.map((p) => p.x);
  const x = !xs.length
    ? kind === 'source'
      ? 80
      : kind === 'switch'
        ? 260
        : Math.max(800, ...at.map((p) => p.x))
    : kind === 'source'
      ? Math.min(...xs)
      : kind === 'destination'
        ? Math.max(...xs)
        : Math.round((Math.min(...xs) + Math.max(...xs)) / 2);
  const top = Math.min(60, ...column.map((p) => p.y));
  const clear = (y: number) => at.every((p) => Math.hypot(p.x - x, p.y - y) >= NEW_NODE_CLEARANCE);
  for (let y = top; ; y += NEW_NODE_CLEARANCE / 2) if (clear(y)) return { x, y };
}

/** Whether the tool may pick this node now (a link joins two nodes; a connection goes from a
 *  source to a destination). */
export function pickable(tool: Tool, pick: string | null, kind: NodeKind | undefined, id: string): boolean {
  return (
    tool === 'select' ||
    (tool === 'link' && (pick === null || pick !== id)) ||
    (tool === 'flow' && (pick === null ? kind === 'source' : kind === 'destination'))
  );
}

/** The selection as it stands in another version of the network (after an undo or a redo):
 *  kept while the element it names is still there, so its form stays open; null once it is gone. */
export function selectionIn(s: Scenario, selection: Selection): Selection {
  if (!selection) return null;
  const all: readonly { id: string }[] = selection.kind === 'node' ? s.nodes : selection.kind === 'link' ? s.links : s.connections;
  return all.some((e) => e.id === selection.id) ? selection : null;
}

/** The connection in the inspector: the selected one, or the first one a selected source sends. */
export function inspectedConnection(s: Scenario, selection: Selection): ScenarioConnection | undefined {
  if (selection?.kind === 'connection') return s.connections.find((c) => c.id === selection.id);
  const kind = s.nodes.find((n) => n.id === selection?.id)?.kind;
  if (selection?.kind === 'node' && kind === 'source') return s.connections.find((c) => c.from === selection.id);
  return undefined;
}

/** The links a connection takes, as "a>b" in both directions (highlighted on the canvas). */
export function linksOnRoute(s: Scenario, c: ScenarioConnection | undefined): Set<string> {
  const route = c ? routeOf(s, c) : [];
  return new Set(route.slice(1).flatMap((n, i) => [`${route[i]}>${n}`, `${n}>${route[i]}`]));
}

/** A switch's box (canvas units at zoom 1); end systems are circles of radius `nodeSize().r`. */
export const SWITCH_PX = { width: 48, height: 30 };

/** Link labels: their type size (as `.ed-link-label`), a generous width per character (wide
 *  sans-serif faces included), and the gap kept to their line and to nodes (canvas units). */
export const LINK_LABEL = { fontPx: 11, charPx: 6.6, gapPx: 3 };

/** Presenting, the least size on screen of the canvas's names and link labels (px): they are
 *  drawn in canvas units and zoom with the drawing, so a big network fitted to the canvas read
 *  at 7–12 px (QA h65); below this they are set larger in canvas units, by `labelScale`. */
export const PRESENT_LABEL_MIN_PX = 16;

/** How much larger than its own `fontPx` (canvas units) a label is set at `zoom` so that it
 *  reads at `minPx` or more on screen; 1 where it does anyway. */
export function labelScale(fontPx: number, zoom: number, minPx: number): number {
  return zoom > 0 ? Math.max(1, minPx / (fontPx * zoom)) : 1;
}

/** A label's place: its centre and the text that fits there. */
export type PlacedLabel = { x: number; y: number; text: string };
type Box = { x0: number; y0: number; x1: number; y1: number };

const overlaps = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/** Whether the segment p–q passes through the box (clipped against its four sides). */
export function crosses(p: Point, q: Point, box: Box): boolean {
  let t0 = 0;
  let t1 = 1;
  const d = { x: q.x - p.x, y: q.y - p.y };
  for (const [num, den] of [
    [p.x - box.x0, -d.x],
    [box.x1 - p.x, d.x],
    [p.y - box.y0, -d.y],
    [box.y1 - p.y, d.y],
  ]) {
    if (den === 0) {
      if (num < 0) return false;
    } else {
      const t = num / den;
      if (den < 0) t0 = Math.max(t0, t);
      else t1 = Math.min(t1, t);
      if (t0 > t1) return false;
    }
  }
  return true;
}

/** The box a label of this text takes when centred at (x, y), its type `scale` times its own. */
export function labelBox(x: number, y: number, text: string, scale = 1): Box {
  const w = text.length * LINK_LABEL.charPx * scale;
  const h = (LINK_LABEL.fontPx + 2) * scale;
  return { x0: x - w / 2, y0: y - h / 2, x1: x + w / 2, y1: y + h / 2 };
}

/** The box a node takes (its circle's square, or its switch box), with the gap around it. */
export function nodeBox(kind: NodeKind, at: Point, r: number): Box {
  const g = LINK_LABEL.gapPx;
  const hw = (kind === 'switch' ? SWITCH_PX.width / 2 : r) + g;
  const hh = (kind === 'switch' ? SWITCH_PX.height / 2 : r) + g;
  return { x0: at.x - hw, y0: at.y - hh, x1: at.x + hw, y1: at.y + hh };
}

/**
 * Where each link's label goes so that it covers no node, no other label and not its own line,
 * and stays within the drawing: beside the line (above it, else below; right of a vertical
 * one, else left), near its middle, with the first of `texts` (longest first, e.g. the full
 * label then the link's name) that fits, at a place across no other link if it has one (else
 * across one: its halo keeps it legible). A link whose labels fit nowhere gets none (its
 * tooltip and its form still say it all). Links are placed in name order. `scale`: the
 * labels' type that many times its own (presenting, zoomed out: `labelScale`).
 */
export function placeLinkLabels(s: Scenario, pos: ReadonlyMap<string, Point>, r: number, texts: ReadonlyMap<string, string[]>, scale = 1): Map<string, PlacedLabel> {
  const nodes = s.nodes.flatMap((n) => {
    const at = pos.get(n.id);
    return at ? [nodeBox(n.kind, at, r)] : [];
  });
  // Within the drawing (the nodes' extent and a little more): the fitted view shows no more.
  const m = 2 * LINK_LABEL.fontPx * scale;
  const inside = (box: Box) =>
    nodes.length > 0 &&
    box.x0 >= Math.min(...nodes.map((n) => n.x0)) - m &&
    box.x1 <= Math.max(...nodes.map((n) => n.x1)) + m &&
    box.y0 >= Math.min(...nodes.map((n) => n.y0)) - m &&
    box.y1 <= Math.max(...nodes.map((n) => n.y1)) + m;
  const segments = s.links.flatMap((l) => {
    const a = pos.get(l.from);
    const b = pos.get(l.to);
    return a && b ? [{ id: l.id, a, b }] : [];
  });
  const taken: Box[] = [];
  const placed = new Map<string, PlacedLabel>();
  const links = s.links.filter((l) => texts.has(l.id)).sort((a, b) => byName(a.id, b.id));
  for (const l of links) {
    const a = pos.get(l.from);
    const b = pos.get(l.to);
    const len = a && b ? Math.hypot(b.x - a.x, b.y - a.y) : 0;
    if (!a || !b || len === 0) continue;
    // The unit normal, turned to point up (or right, for a vertical line).
    let nx = -(b.y - a.y) / len;
    let ny = (b.x - a.x) / len;
    if (ny > 1e-9 || (Math.abs(ny) <= 1e-9 && nx < 0)) [nx, ny] = [-nx, -ny];
    const spot = (text: string, acrossLinks: boolean): PlacedLabel | null => {
      const { x0, x1, y0, y1 } = labelBox(0, 0, text, scale);
      // How far the centre must be from the line for the box to clear it.
      const clear = Math.abs(nx) * ((x1 - x0) / 2) + Math.abs(ny) * ((y1 - y0) / 2) + LINK_LABEL.gapPx;
      for (const t of [0.5, 0.4, 0.6])
        for (const side of [1, -1])
          for (const extra of [0, LINK_LABEL.fontPx * scale]) {
            const d = side * (clear + extra);
            const x = a.x + (b.x - a.x) * t + nx * d;
            const y = a.y + (b.y - a.y) * t + ny * d;
            const box = labelBox(x, y, text, scale);
            if (!inside(box) || nodes.some((n) => overlaps(n, box)) || taken.some((o) => overlaps(o, box))) continue;
            if (!acrossLinks && segments.some((g) => g.id !== l.id && crosses(g.a, g.b, box))) continue;
            taken.push(box);
            return { x, y, text };
          }
      return null;
    };
    search: for (const text of texts.get(l.id)!)
      for (const acrossLinks of [false, true]) {
        const at = spot(text, acrossLinks);
        if (at) {
          placed.set(l.id, at);
          break search;
        }
      }
  }
  return placed;
}
