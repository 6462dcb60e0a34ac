// The Network view's drawing, computed apart from React: where each node goes (the editor's
// positions, scaled up so that switch cards have room; a huge network sampled as the side
// panel's thumbnail samples it), each link's two lanes (one per direction, traffic on the
// right), a point a given fraction along a lane, and the colour and width of a lane from its
// utilisation.

import type { Scenario } from '../../contract/scenario';
import { topologyDrawing, W } from '../topologyDrawing';
import type { CardRow, PortGroup, PortView } from '../../lab/networkPorts';

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

/** RM cells waiting at a node toward one link drawn apart (queueSpot); more share the last spot,
 *  and a badge says how many more. */
export const QUEUE_SHOWN = 4;
/** Between two cells of a queue drawn at a lane's start (px: a marker is 12–16 px across). */
export const QUEUE_GAP_PX = 14;

/**
 * Where the `place`-th RM cell (0: the next to leave) waiting at the start of `lane` is drawn: the
 * first at the lane's start, where it sets out from; each later one a gap further out on the
 * lane's outer side (away from the other direction's lane), the newest furthest; from
 * QUEUE_SHOWN - 1 on, all on the last spot (queueBadgeSpot: the badge counting them beside it).
 * Beside the lane, not along it: the next cell steps toward the lane as the first leaves, never
 * back along its way, and the first sets out from where it waited. QA: gfc1's cells queued at
 * a switch were drawn on one spot, one over another.
 */
export function queueSpot(lane: Pick<Lane, 'a' | 'b'>, place: number): Point {
  return besideStart(lane, Math.min(Math.max(0, place), QUEUE_SHOWN - 1));
}

/** Where the badge of a queue longer than drawn ("+N", `widthPx` wide) is centred: beside its
 *  last spot, toward the lane's end (away from the node, whose card the queue stands along).
 *  On a lane too short for that (it would reach over the next node's card: presenting gfc1 at
 *  1280 px, its 18 px "+17" 20 px into SW2's card), a spot further out than the last, halfway
 *  along the lane: clear of the markers, over the cards' edges at most. */
export function queueBadgeSpot(lane: Pick<Lane, 'a' | 'b'>, widthPx: number): Point {
  const dx = lane.b.x - lane.a.x;
  const dy = lane.b.y - lane.a.y;
  const len = Math.hypot(dx, dy) || 1;
  // A box is centred there: half its width or half a line along the lane, whichever it heads along.
  const half = Math.max(Math.abs(dx / len) * (widthPx / 2), Math.abs(dy / len) * 8);
  // Clear of the last marker (8 px from its centre) by a few px, along the lane.
  const off = 11 + half;
  const fits = off + half <= len;
  const from = besideStart(lane, fits ? QUEUE_SHOWN - 1 : QUEUE_SHOWN);
  const along = fits ? off : len / 2;
  return { x: from.x + (dx / len) * along, y: from.y + (dy / len) * along };
}

/** `k` gaps from the start of `lane` on its outer side. */
function besideStart(lane: Pick<Lane, 'a' | 'b'>, k: number): Point {
  const dx = lane.b.x - lane.a.x;
  const dy = lane.b.y - lane.a.y;
  const len = Math.hypot(dx, dy) || 1;
  // The lane's right (offsetSegment's side): its outer side.
  return { x: lane.a.x + (-dy / len) * k * QUEUE_GAP_PX, y: lane.a.y + (dx / len) * k * QUEUE_GAP_PX };
}

/** The lane's direction on screen (degrees, 0 = to the right, clockwise). */
export function laneAngle(lane: Pick<Lane, 'a' | 'b'>): number {
  return (Math.atan2(lane.b.y - lane.a.y, lane.b.x - lane.a.x) * 180) / Math.PI;
}

/** Half the size (px) of what is drawn for a node: lanes end at its edge, not its centre. */
export type HalfSize = (node: { id: string; kind: string }) => { w: number; h: number };

/** Radius of an end system's circle (px). */
export const END_RADIUS_PX = 12;

/** A switch card's look (app.css: `.nv-switch`, and `.app.present .nv-switch` presenting): its
 *  type, border and width (px), and its marks' labels' type against the card's (em). */
export interface CardLook {
  fontPx: number;
  borderPx: number;
  widthPx: number;
  markEm: number;
  /** The least its type reads at on screen (px): grown cards shrink toward it, no further, to
   *  leave the lanes between them room (switchCardGrowth). */
  readPx: number;
  /** Short rows: a row is its name's line and a line of its bar with the queue's number beside
   *  it, no line for the marks' labels (the bar's tooltip names them); the head names the
   *  switch alone (the algorithm is said above the drawing). */
  compact: boolean;
}
/** As wide as its widest line: "max 1000 cells" (a queue of four figures and its unit; the
 *  buffer is in the tooltip), ~7.6 em. QA: cards 150 px wide for "max 0 / 1000 cells" took ~685
 *  of gfc1's ~740 px at 1280 px beside the side panel, leaving lanes of 15 px for the cells. */
export const PAGE_CARD: CardLook = { fontPx: 12, borderPx: 2, widthPx: 116, markEm: 1, readPx: 11, compact: false };
/**
 * Presenting: type of 18 px on screen, as the rest of presenting (a classroom reads it from the
 * back), on a card short and narrow enough to grow that far on gfc1 at 1280 × 720 (its cards
 * meet the sources above SW2 first, then its lanes): compact rows, and the queue's number
 * alone (its unit and a group's "max" in the legend). QA: 14 px cards, three lines a row and a
 * line for the marks' labels, read at 12.5 px there.
 */
export const PRESENT_CARD: CardLook = { fontPx: 18, borderPx: 3, widthPx: 118, markEm: 1, readPx: 18, compact: true };

/** Between a card's border and its rows, each side (px; app.css: `.nv-switch`'s padding). */
const CARD_PAD_X_PX = 8;

/** What a group's row writes on its one line: its destinations (`text`), and whether their
 *  count follows ("(9)"). */
export interface GroupLine {
  text: string;
  count: boolean;
}

/**
 * A group's row's line in a card of `look`, the first of these that fits beside its arrow:
 * its label with the count (`DD1–DD6 (6)`), the names shortened (`DD1–6 (6)`, then without the
 * count), the count alone (`9 destinations`, `9 dest.`). Every name is in the row's tooltip and
 * accessible name (QA: gfc1's rows read "DD1–D… (6)" and "9 destinat…", which told none).
 * Widths are markTextPx's estimates, a little over the fonts'; CSS still ends a line that does
 * not fit in an ellipsis.
 */
export function groupLine(group: Pick<PortGroup, 'label' | 'names' | 'short' | 'ports'>, look: CardLook = PAGE_CARD): GroupLine {
  const n = group.ports.length;
  const em = (look.widthPx - 2 * CARD_PAD_X_PX - 2 * look.borderPx) / look.fontPx;
  // The arrow and the gap after it; a gap and "(9)" for the count.
  const arrowEm = 1.2;
  const countEm = 0.3 + markTextPx(`(${n})`, 1);
  const fits = (text: string, count: boolean) => arrowEm + markTextPx(text, 1) + (count ? countEm : 0) <= em;
  const listed = group.label === group.names;
  const tries: GroupLine[] = [
    ...(listed ? [{ text: group.label, count: true }] : []),
    { text: group.short, count: true },
    { text: group.short, count: false },
    { text: `${n} destinations`, count: false },
  ];
  return tries.find((t) => fits(t.text, t.count)) ?? { text: `${n} dest.`, count: false };
}

/** What sets a card row's height: a port's row or a group's (its names on a line of their
 *  own), marks on its bar (a line for their labels above it), marks beyond the buffer (a line
 *  naming them under it). */
export interface RowShape {
  group: boolean;
  marked: boolean;
  beyond: boolean;
}

/** A port's marks on its bar (within the buffer), and those beyond it (named under the bar). */
export const marksOnBar = (p: Pick<PortView, 'marks' | 'buffer'>) => p.marks.filter((m) => m.at <= p.buffer);
export const marksBeyond = (p: Pick<PortView, 'marks' | 'buffer'>) => p.marks.filter((m) => m.at > p.buffer);

/** A card row's shape, as parts.tsx draws it (a group's bar is its first port's: they are alike). */
export function rowShape(row: CardRow): RowShape {
  const p = row.port ?? row.group.ports[0];
  return { group: !row.port, marked: marksOnBar(p).length > 0, beyond: marksBeyond(p).length > 0 };
}

/** The card's heights in em of its type, as app.css sets them (`--nv-line` and the rules of
 *  `.nv-switch`): every line of a card is one height, and nothing in it wraps (a group's names
 *  end in an ellipsis), so that the card is as tall as the layout takes it to be (QA: a group's
 *  names on two lines made gfc1's SW5 taller than the lanes and the growth assumed). */
export const CARD_EM = {
  line: 1.3,
  padTop: 1 / 3,
  padBottom: 0.5,
  head: 1.5,
  rowGap: 0.25,
  /** Between a mark's label and the top of its tick (which rises 3 px over the bar). */
  markGap: 0.15,
  collapseGap: 1 / 3,
} as const;

/** The room above a marked bar for its marks' labels (em of the card's type). */
export const markRoomEm = (look: CardLook) => look.markEm + CARD_EM.markGap;

/** A switch card's half size (px, before it grows) from its rows, and the collapse button of
 *  an opened group. */
export function switchHalfSize(rows: readonly RowShape[], collapse = false, look: CardLook = PAGE_CARD): { w: number; h: number } {
  const e = CARD_EM;
  let em = e.padTop + e.head + e.padBottom + (collapse ? e.collapseGap + e.line : 0);
  for (const r of rows)
    em += e.rowGap + (look.compact ? 2 : r.group ? 3 : 2) * e.line + (r.marked && !look.compact ? markRoomEm(look) : 0) + (r.beyond ? e.line : 0);
  return { w: look.widthPx / 2, h: (em * look.fontPx + 2 * look.borderPx) / 2 };
}

/** A mark's label as drawn above its bar: its text (marks too close to be told apart share
 *  one, "Q1, Q2"), the marks it names, and its left edge and width (px from the bar's left). */
export interface MarkLabel {
  text: string;
  params: string[];
  leftPx: number;
  widthPx: number;
}

/** A label's width (px) in type of `fontPx`, from its characters' widths (em; a little over
 *  DejaVu Sans's and the system sans fonts': capitals, then digits and lower case, then the
 *  narrow punctuation and spaces of "Q1, Q2" and "T0·C"). */
export function markTextPx(text: string, fontPx: number): number {
  let em = 0;
  for (const ch of text) em += /[ ,.·:;'il|!]/.test(ch) ? 0.36 : /[A-Z]/.test(ch) ? 0.8 : 0.65;
  return em * fontPx;
}

/**
 * Where the labels of a bar's marks go (`fraction`: where on the bar, 0..1) on a bar `barPx`
 * wide, in type of `fontPx`: each centred on its mark, kept within the bar, and labels that
 * would touch (`gapPx` apart or less) joined into one at their marks' middle, until none do
 * (Series-D's Q1–Q4 on a buffer of ten million cells all sit at its start: one label, "Q1, Q2,
 * Q3, Q4" where the bar is that wide, else "Q1–Q4").
 */
export function markLabels(marks: readonly { label: string; param: string; fraction: number }[], barPx: number, fontPx: number, gapPx = 4): MarkLabel[] {
  type Run = { texts: string[]; params: string[]; xs: number[] };
  const box = (r: Run) => {
    // Three or more joined and wider than the bar: its first and last, "Q1–Q4" (each is in the
    // bar's tooltip). QA: "Q1, Q2, Q3, Q4" reached out of a card narrow enough to leave the
    // lanes room.
    const full = r.texts.join(', ');
    const text = r.texts.length > 2 && markTextPx(full, fontPx) > barPx ? `${r.texts[0]}–${r.texts[r.texts.length - 1]}` : full;
    const widthPx = markTextPx(text, fontPx);
    const mid = r.xs.reduce((a, b) => a + b, 0) / r.xs.length;
    // Within the bar; a label wider than the bar ends at its right end, over the port's name.
    const leftPx = Math.min(Math.max(0, mid - widthPx / 2), barPx - widthPx);
    return { text, params: r.params, leftPx, widthPx };
  };
  const runs: Run[] = [];
  for (const m of [...marks].sort((a, b) => a.fraction - b.fraction)) {
    runs.push({ texts: [m.label], params: [m.param], xs: [m.fraction * barPx] });
    // Join the newest run with the one before while they touch (a joined run is wider, and
    // may then touch the one before it).
    while (runs.length > 1) {
      const [a, b] = [box(runs[runs.length - 2]), box(runs[runs.length - 1])];
      if (a.leftPx + a.widthPx + gapPx <= b.leftPx) break;
      const last = runs.pop()!;
      const prev = runs[runs.length - 1];
      prev.texts.push(...last.texts);
      prev.params.push(...last.params);
      prev.xs.push(...last.xs);
    }
  }
  return runs.map(box);
}

/**
 * How much the switch cards may grow (a factor ≥ 1 on `half`) before one meets another card or
 * an end system's circle (`marginPx` apart; two cards `laneRoomPx` apart, the lane between
 * them): the Network view enlarges them, up to this, so that their type reads at the drawing's
 * zoom (QA: 6–8 px on core-edge and gfc1 at 1280 px).
 */
export function cardGrowthLimit(nodes: readonly NetworkNode[], halfSize: HalfSize, marginPx = 12, laneRoomPx = marginPx): number {
  const switches = nodes.filter((n) => n.kind === 'switch');
  let limit = Infinity;
  for (const a of switches) {
    const ha = halfSize(a);
    for (const b of nodes) {
      if (b === a) continue;
      const dx = Math.abs(a.x - b.x);
      const dy = Math.abs(a.y - b.y);
      // Grown by k, a and b overlap while dx < k·(wa + wb) + margin and dy < k·(ha + hb) + margin
      // (an end system's circle does not grow).
      const k =
        b.kind === 'switch'
          ? (() => {
              const hb = halfSize(b);
              return Math.max((dx - laneRoomPx) / (ha.w + hb.w), (dy - laneRoomPx) / (ha.h + hb.h));
            })()
          : Math.max((dx - marginPx - END_RADIUS_PX) / ha.w, (dy - marginPx - END_RADIUS_PX) / ha.h);
      limit = Math.min(limit, k);
    }
  }
  return Math.max(1, limit);
}

/** The room (px on screen) the lanes between two switch cards keep as the cards grow: a cell
 *  and its label ("155.52" is some 45 px), the feedback loop seen going by. */
export const LANE_ROOM_PX = 60;

/**
 * How much the switch cards grow at the drawing's `zoom` (the view's zoomStep): as the type
 * (textGrowth), so that it reads at its size on screen, but no further than leaves each lane
 * between two cards LANE_ROOM_PX on screen, unless the type would then read under the look's
 * least (`readPx`); and never so far that cards meet (cardGrowthLimit). QA: on gfc1 and
 * core-edge the cards grew until 12 px apart, and the lanes between them were 20–30 px on
 * screen, ~190 RM cells piled there unlabelled. (Fitted at 1280 px beside the side panel, gfc1's
 * cards at 11 px leave no more room than that: the lanes grow from 1440 px, and full screen.)
 * Two switches no link joins keep the lanes' room too: this does not know the links.
 */
export function switchCardGrowth(nodes: readonly NetworkNode[], halfSize: HalfSize, zoom: number, look: CardLook = PAGE_CARD): number {
  const grow = textGrowth(zoom);
  const apart = cardGrowthLimit(nodes, halfSize);
  const laned = cardGrowthLimit(nodes, halfSize, 12, LANE_ROOM_PX / zoom);
  const readable = look.readPx / (look.fontPx * zoom);
  return Math.min(grow, apart, Math.max(readable, laned));
}

/** The factor on type (and on the switch cards, up to `cardGrowthLimit`) that keeps it at its
 *  own size on screen when the drawing is zoomed out to fit (`zoom` < 1); 1 zoomed in. */
export function textGrowth(zoom: number): number {
  return zoom > 0 && zoom < 1 ? 1 / zoom : 1;
}

/** Steps of the zoom the view's text follows, per doubling: 16, each 2^(1/16) ≈ 4.4 % apart. */
const ZOOM_STEPS_PER_DOUBLING = 16;

/** The drawing's zoom as the view's text follows it: in steps of about 4.4 % of itself (a
 *  wheel's every small move would lay the names out again), rounded down so that type never
 *  reads below its size. Relative steps: steps of 0.05 made gfc1, fitted at 0.487, size its
 *  type for 0.45 (8 % larger than it needs, its lanes the narrower), and at 0.12 for 0.10. */
export function zoomStep(zoom: number): number {
  if (!(zoom > 0.05)) return 0.05;
  const k = Math.floor(Math.log2(zoom) * ZOOM_STEPS_PER_DOUBLING + 1e-9);
  return Math.max(0.05, Math.min(zoom, 2 ** (k / ZOOM_STEPS_PER_DOUBLING)));
}

/** How far (0..1) along a → b the segment leaves a box of half size `half` centred on a. */
export function exitFraction(a: Point, b: Point, half: { w: number; h: number }): number {
  const dx = Math.abs(b.x - a.x);
  const dy = Math.abs(b.y - a.y);
  const t = Math.min(dx > 0 ? half.w / dx : Infinity, dy > 0 ? half.h / dy : Infinity);
  return Math.min(0.45, t);
}

/** Where the nodes go, before any lane: the editor's positions scaled so that switches sit
 *  SWITCH_GAP_PX apart. They do not depend on what is drawn at a node (its card's size), so the
 *  Network view places them once, grows its cards as far as they allow (cardGrowthLimit), and
 *  then lays the lanes between the grown cards (`laneLayout`). */
export interface NodePlacement {
  nodes: NetworkNode[];
  /** The drawing's links, with their rates (Mbps). */
  drawn: { id: string; rateMbps: number }[];
  summary: NetworkLayout['summary'];
  endGapPx: number;
}

export function placeNodes(scenario: Pick<Scenario, 'nodes' | 'links'>, maxDrawn = NETWORK_MAX_DRAWN): NodePlacement {
  const drawing = topologyDrawing(scenario, maxDrawn);
  const switches = drawing.nodes.filter((n) => n.kind === 'switch');
  let gap = Infinity;
  for (let i = 0; i < switches.length; i++)
    for (let j = i + 1; j < switches.length; j++) gap = Math.min(gap, Math.hypot(switches[i].x - switches[j].x, switches[i].y - switches[j].y));
  const scale = Math.min(40, Math.max(MIN_WIDTH_PX / W, Number.isFinite(gap) && gap > 0 ? SWITCH_GAP_PX / gap : 0));
  const nodes = drawing.nodes.map((n) => ({ id: n.id, kind: n.kind, x: n.x * scale, y: n.y * scale }));
  const ends = nodes.filter((n) => n.kind !== 'switch');
  let endGapPx = Infinity;
  for (let i = 0; i < ends.length; i++)
    for (let j = i + 1; j < ends.length; j++) endGapPx = Math.min(endGapPx, Math.hypot(ends[i].x - ends[j].x, ends[i].y - ends[j].y));
  return { nodes, drawn: drawing.links.map((l) => ({ id: l.id, rateMbps: l.rateMbps })), summary: drawing.summary, endGapPx };
}

/** The placed nodes with each link's two lanes, from edge to edge of what is drawn at its ends. */
export function laneLayout(scenario: Pick<Scenario, 'links'>, placed: NodePlacement, halfSize: HalfSize = () => ({ w: 0, h: 0 })): NetworkLayout {
  const { nodes } = placed;
  const pos = new Map(nodes.map((n) => [n.id, n]));
  const lanes = new Map<string, Lane>();
  const links = placed.drawn.map((l) => {
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
  return { nodes, links, lanes, summary: placed.summary, endGapPx: placed.endGapPx };
}

/** `placeNodes` and `laneLayout` at once, for a drawing whose node sizes are known up front. */
export function networkLayout(scenario: Pick<Scenario, 'nodes' | 'links'>, maxDrawn = NETWORK_MAX_DRAWN, halfSize: HalfSize = () => ({ w: 0, h: 0 })): NetworkLayout {
  return laneLayout(scenario, placeNodes(scenario, maxDrawn), halfSize);
}

/** Where an end system's name sits around its circle; null: not shown (too crowded there: the
 *  name stays in the node's text for screen readers, and in its tooltip). */
export type LabelSpot = 'above' | 'below' | 'left' | 'right' | null;

/** Between an end system's circle and its name (NetworkView hands it to `.nv-label-*` in app.css). */
export const NAME_CLEARANCE_PX = 5;

/** The side of a source's circle its ACR lines hang on: the one its link does not leave by
 *  (above when the link heads down to its switch, else below), so that the link does not run
 *  through the text. */
export type InfoSide = 'above' | 'below';

export function infoSide(layout: Pick<NetworkLayout, 'nodes' | 'links'>, id: string): InfoSide {
  const n = layout.nodes.find((m) => m.id === id);
  const other = n && hubOf(layout, n.id, (h) => layout.nodes.find((m) => m.id === h));
  return n && other && other.y > n.y ? 'above' : 'below';
}

/** The node at the other end of an end system's link (undefined when it has none). */
function hubOf<T>(layout: Pick<NetworkLayout, 'links'>, id: string, node: (id: string) => T | undefined): T | undefined {
  const link = layout.links.find((l) => l.from === id || l.to === id);
  return link ? node(link.from === id ? link.to : link.from) : undefined;
}

/** An axis-aligned box (px, flow coordinates). */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const overlaps = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/** The box of a name `chars` long in bold type of `fontPx`, at `spot` around an end system at `c`
 *  (an estimate: digits and capitals are about 0.65 em wide). */
export function labelBox(c: Point, spot: Exclude<LabelSpot, null>, chars: number, fontPx: number): Box {
  const w = chars * 0.65 * fontPx;
  const h = 1.2 * fontPx;
  const gap = END_RADIUS_PX + NAME_CLEARANCE_PX;
  switch (spot) {
    case 'above':
      return { x0: c.x - w / 2, y0: c.y - gap - h, x1: c.x + w / 2, y1: c.y - gap };
    case 'below':
      return { x0: c.x - w / 2, y0: c.y + gap, x1: c.x + w / 2, y1: c.y + gap + h };
    case 'left':
      return { x0: c.x - gap - w, y0: c.y - h / 2, x1: c.x - gap, y1: c.y + h / 2 };
    case 'right':
      return { x0: c.x + gap, y0: c.y - h / 2, x1: c.x + gap + w, y1: c.y + h / 2 };
  }
}

/** A name for a crowd of end systems of one kind on one switch (`SD1–SD6`), where their own
 *  names would not fit; `members` in order. */
export interface GroupLabel {
  text: string;
  members: string[];
  spot: Exclude<LabelSpot, null>;
  /** Where the label's box is centred (px, flow coordinates). */
  at: Point;
  box: Box;
}

export interface EndLabels {
  spots: Map<string, LabelSpot>;
  groups: GroupLabel[];
}

const SIDES = ['above', 'below', 'right', 'left'] as const;

/**
 * Where end systems' names go so that no two names, and no name and node, overlap: each at the
 * side facing away from the switch it hangs on (sources above a chain named above, destinations
 * below it below), else another side. Where the names of a crowd (the sources or destinations
 * with one name and consecutive numbers on one switch, as gfc1's groups of six, 16 px apart)
 * cannot all be placed, the crowd gets one name instead (`SD1–SD6`) beside it, and its members
 * none of their own (they keep their names as text for screen readers and as tooltips).
 * `fontPx`: the names' type (larger when presenting); `info`: the sources with ACR lines, and
 * the side they take (no name there; see `infoSide`).
 */
export function endLabels(layout: Pick<NetworkLayout, 'nodes' | 'links'>, halfSize: HalfSize, fontPx: number, info: ReadonlyMap<string, InfoSide> = new Map()): EndLabels {
  const pos = new Map(layout.nodes.map((n) => [n.id, n]));
  const nodeBoxes: Box[] = layout.nodes.map((n) => {
    const half = n.kind === 'switch' ? halfSize(n) : { w: END_RADIUS_PX, h: END_RADIUS_PX };
    return { x0: n.x - half.w, y0: n.y - half.h, x1: n.x + half.w, y1: n.y + half.h };
  });
  const ends = layout.nodes.filter((n) => n.kind !== 'switch');
  // The switch each hangs on, and the side away from it.
  const hub = new Map<string, string>();
  const away = new Map<string, Exclude<LabelSpot, null>>();
  for (const n of ends) {
    const other = hubOf(layout, n.id, (h) => pos.get(h));
    hub.set(n.id, other?.id ?? '');
    away.set(n.id, awayFrom(n, other));
  }
  // Crowds: one kind, one switch, one name with consecutive numbers.
  const crowds = new Map<string, NetworkNode[]>();
  for (const n of ends) {
    const m = /^(.*?)(\d+)$/.exec(n.id);
    const key = m ? `${n.kind}|${hub.get(n.id)}|${m[1]}` : `one|${n.id}`;
    crowds.set(key, [...(crowds.get(key) ?? []), n]);
  }
  const number = (n: NetworkNode) => Number(/(\d+)$/.exec(n.id)![1]);
  const place = (taken: Box[], tries: [Exclude<LabelSpot, null>, Box][]) => {
    for (const [spot, box] of tries)
      if (!taken.some((t) => overlaps(t, box))) {
        taken.push(box);
        return spot;
      }
    return null;
  };
  const ownTries = (n: NetworkNode) =>
    sidesFrom(away.get(n.id)!)
      .filter((s) => s !== info.get(n.id))
      .map((s): [Exclude<LabelSpot, null>, Box] => [s, labelBox(n, s, n.id.length, fontPx)]);
  // A first try, every end system named on its own, finds the crowds that do not fit.
  const trial = [...nodeBoxes];
  const unplaced = new Set(ends.filter((n) => place(trial, ownTries(n)) === null).map((n) => n.id));
  const named: NetworkNode[][] = [];
  for (const members of crowds.values()) {
    const nums = members.length > 1 && /\d+$/.test(members[0].id) ? members.map(number).sort((a, b) => a - b) : null;
    const consecutive = !!nums && nums.every((v, i) => i === 0 || v === nums[i - 1] + 1);
    if (consecutive && members.some((n) => unplaced.has(n.id))) named.push([...members].sort((a, b) => number(a) - number(b)));
  }
  const taken = [...nodeBoxes];
  const spots = new Map<string, LabelSpot>();
  const groups: GroupLabel[] = [];
  for (const members of named) {
    const text = `${members[0].id}–${members[members.length - 1].id}`;
    const b = members.reduce<Box>((u, n) => ({ x0: Math.min(u.x0, n.x), y0: Math.min(u.y0, n.y), x1: Math.max(u.x1, n.x), y1: Math.max(u.y1, n.y) }), {
      x0: Infinity,
      y0: Infinity,
      x1: -Infinity,
      y1: -Infinity,
    });
    const tries = sidesFrom(away.get(members[0].id)!).map((s): [Exclude<LabelSpot, null>, Box] => {
      // The crowd's box side: centred on it, as a name is on its circle.
      const c = s === 'above' ? { x: (b.x0 + b.x1) / 2, y: b.y0 } : s === 'below' ? { x: (b.x0 + b.x1) / 2, y: b.y1 } : s === 'left' ? { x: b.x0, y: (b.y0 + b.y1) / 2 } : { x: b.x1, y: (b.y0 + b.y1) / 2 };
      return [s, labelBox(c, s, text.length, fontPx)];
    });
    const spot = place(taken, tries) ?? tries[0][0];
    const box = tries.find(([s]) => s === spot)![1];
    groups.push({ text, members: members.map((n) => n.id), spot, box, at: { x: (box.x0 + box.x1) / 2, y: (box.y0 + box.y1) / 2 } });
    for (const n of members) spots.set(n.id, null);
  }
  for (const n of ends) if (!spots.has(n.id)) spots.set(n.id, place(taken, ownTries(n)));
  return { spots, groups };
}

/** The side of `n` away from `from` (above when it is alone). */
function awayFrom(n: Point, from: Point | undefined): Exclude<LabelSpot, null> {
  const dx = from ? n.x - from.x : 0;
  const dy = from ? n.y - from.y : -1;
  return Math.abs(dy) >= Math.abs(dx) ? (dy < 0 ? 'above' : 'below') : dx < 0 ? 'left' : 'right';
}

/** `first`, then the other sides. */
function sidesFrom(first: Exclude<LabelSpot, null>) {
  return [first, ...SIDES.filter((s) => s !== first)];
}

/** Lane colours from idle to full: a sequential blue ramp (ColorBrewer "Blues", colour-blind safe). */
export const UTILISATION_RAMP = ['#c6dbef', '#9ecae1', '#6baed6', '#3182bd', '#08519c', '#08306b'] as const;
/** A lane whose utilisation nothing measures (unmeasuredText). */
export const UNMEASURED_COLOUR = '#bdbdbd';

/**
 * What the legend says of the grey lanes: the engine samples utilisation at the switch ports a
 * connection's data leaves by (network.rs, `reported`), and a source's own lane is drawn from
 * its connections' rates; a lane no data goes along, whatever its ends (toward a source, a
 * switch's lane back toward the switch before it, a destination's toward its switch), carries
 * the loop's feedback only and is not measured. `feedback`: the markers that go back (the
 * legend's words, one of each: "backward RM cell"). QA: Ethernet's SW2→SW1 lane was said to be
 * "toward a host". `ubr`: the network has a UBR connection, whose source's lane is grey though
 * data goes along it.
 */
export function unmeasuredText(ethernet: boolean, feedback: readonly string[], ubr = false): string {
  const what = feedback.length ? `: ${feedback.map((f) => `${f}s`).join(' and ')}` : '';
  // A UBR source's own lane is drawn from an allowed rate it does not have: grey too, with data.
  const ubrLane = ubr ? ", or a UBR source's own link (no allowed rate to draw it from)" : '';
  return `not measured: no data ${ethernet ? 'frames go' : 'goes'} this way (feedback only${what})${ubrLane}`;
}
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

/**
 * Places the labels of things drawn close together (RM cells going the same way) so that none
 * covers another, nor what the drawing writes for good (`reserved`: the end systems' names, the
 * sources' ACR lines, the switch cards; see `endTextBoxes`): a label `text` centred on `x` with
 * its baseline at `y` (flow px) in type of `fontPx` is placed, and true returned, unless its box
 * meets one placed before or a reserved one (then false: leave it out; the cell's own marker,
 * its tooltip and its journey still tell it).
 */
export class LabelRoom {
  private placed: Box[];
  /** The labels placed (among `placed`). */
  private labels: Box[] = [];

  constructor(
    private readonly fontPx: number,
    reserved: readonly Box[] = [],
  ) {
    this.placed = [...reserved];
  }

  /** Keeps the labels placed from now on clear of `boxes` too. */
  reserve(boxes: readonly Box[]) {
    this.placed.push(...boxes);
  }

  place(text: string, x: number, y: number): boolean {
    return this.placeFirst(text, x, [y]) !== null;
  }

  /** The first of the baselines `ys` where `text` fits (and is placed), or null; it keeps clear
   *  of `avoid` too, for this label only; `own` (one of the boxes reserved or avoided: the
   *  marker the text labels) does not count. */
  placeFirst(text: string, x: number, ys: readonly number[], own?: Box, avoid: readonly Box[] = []): number | null {
    const w = text.length * 0.62 * this.fontPx + 4;
    const h = this.fontPx * 1.1;
    const meets = (box: Box) => (b: Box) => b !== own && overlaps(b, box);
    for (const y of ys) {
      const box = { x0: x - w / 2, x1: x + w / 2, y0: y - h, y1: y + 0.25 * this.fontPx };
      if (this.placed.some(meets(box)) || avoid.some(meets(box))) continue;
      this.placed.push(box);
      this.labels.push(box);
      return y;
    }
    return null;
  }

  /** Whether a label placed lies over `box` (a marker that a label of its own would not name). */
  labelOver(box: Box): boolean {
    return this.labels.some((b) => overlaps(b, box));
  }
}

/** A source's ACR lines, as `endTextBoxes` needs them: the side they hang on and their text
 *  (at its longest: "C1 ACR 155.52 Mbps"). */
export interface InfoText {
  side: InfoSide;
  lines: readonly string[];
}

/**
 * What the Network view writes for good around its nodes, as boxes (px, flow coordinates) that
 * RM cells' labels keep clear of (QA: on long-rtt a cell's "155.52" lay over "S1" and "C1 ACR
 * …"): each end system's name where `endLabels` put it (a crowd's one name too), the ACR lines
 * of the sources that have them, and the switch cards (`halfSize`). `namePx`, `infoPx`: their
 * type (larger presenting); estimates, as `labelBox` is.
 */
export function endTextBoxes(
  layout: Pick<NetworkLayout, 'nodes'>,
  halfSize: HalfSize,
  names: EndLabels,
  namePx: number,
  info: ReadonlyMap<string, InfoText>,
  infoPx: number,
): Box[] {
  const out: Box[] = [];
  for (const n of layout.nodes) {
    if (n.kind === 'switch') {
      const half = halfSize(n);
      out.push({ x0: n.x - half.w, y0: n.y - half.h, x1: n.x + half.w, y1: n.y + half.h });
      continue;
    }
    const spot = names.spots.get(n.id);
    if (spot) out.push(labelBox(n, spot, n.id.length, namePx));
    const lines = info.get(n.id);
    if (lines && lines.lines.length) {
      const w = Math.max(...lines.lines.map((l) => l.length)) * 0.6 * infoPx;
      const h = lines.lines.length * 1.25 * infoPx;
      // app.css: .nv-info-above / -below, 2 px off the circle.
      const edge = END_RADIUS_PX + 2;
      const [y0, y1] = lines.side === 'above' ? [n.y - edge - h, n.y - edge] : [n.y + edge, n.y + edge + h];
      out.push({ x0: n.x - w / 2, y0, x1: n.x + w / 2, y1 });
    }
  }
  for (const g of names.groups) out.push(g.box);
  return out;
}
