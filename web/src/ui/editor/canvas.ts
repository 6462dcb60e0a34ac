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

/** "L4 · 155.52 Mbps · 100 km" (Gbps from 1000 Mbps up). */
export function linkLabel(l: ScenarioLink) {
  const rate = l.rate_mbps >= 1000 ? `${+(l.rate_mbps / 1000).toFixed(3)} Gbps` : `${l.rate_mbps} Mbps`;
  const length = l.delay_us !== undefined ? ` · ${l.delay_us} µs` : l.distance_km !== undefined ? ` · ${l.distance_km} km` : '';
  return `${l.id} · ${rate}${length}`;
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

/** Where a new node of a kind goes: sources left, destinations right, switches in between. */
export function placeForNew(s: Scenario, kind: NodeKind): Point {
  const count = s.nodes.filter((n) => n.kind === kind).length;
  const x = kind === 'source' ? 80 : kind === 'switch' ? 260 + 180 * (count % 3) : 800;
  return { x, y: 60 + ((count * 70) % 380) };
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
