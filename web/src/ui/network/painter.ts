// The Network view's per-frame drawing, outside React: React (and React Flow) draw the network
// once; on every animation frame of the charts' loop (ChartGroup) this writes the state at the
// shown time straight into the elements the node and edge components registered — each lane's
// colour and width, each queue bar and its number, each source's ACR, the RM cells as markers —
// so that a frame costs a few dozen attribute writes and no React render.

import type { ChartGroup, FrameClient } from '../../charts/chartGroup';
import type { SampleStore } from '../../charts/sampleStore';
import type { Scenario } from '../../contract/scenario';
import type { Lab } from '../../lab/lab';
import { nextShown, rmCellsMove, type LinkHop, type Shown } from '../../lab/networkClock';
import { barFraction, groupQueue, type PortGroup, type PortView } from '../../lab/networkPorts';
import { approximateNote, sampledQueue, shownRow } from '../../lab/queueSamples';
import { cellHash, cellsUnderWay, lastLoop, neighboursOf, RmCellIndex, SAME_TIME_US, shareOf, type CellAt, type HopGuess, type LastLoop, type Phase } from '../../lab/rmCells';
import { routeOf } from '../../scenario/topologyEdits';
import { ATM_WORDS, loopName, markerText, MBPS, rateText, type RateUnit, type RmWords } from '../../lab/rmLog';
import { LabelRoom, laneAngle, laneLook, pointOnLane, QUEUE_SHOWN, queueBadgeSpot, queueSpot, sourceUtilisation, type Box, type NetworkLayout } from './geometry';

/** A queue or buffer (cells or frames) as a card writes it: a whole number to 99 999, then
 *  short ("10M": gfc-edge's buffer of ten million cells overran the card's line, which does not
 *  wrap). A queue is a count (the engine samples it as one; QA read "1.0 / 1000 cells"); only a
 *  buffer given in bytes, in frames under 10, keeps a decimal. */
export function queueCount(v: number): string {
  if (v < 10 && !Number.isInteger(v)) return v.toFixed(1);
  if (v < 100_000) return v.toFixed(0);
  return COMPACT.format(v);
}
const COMPACT = new Intl.NumberFormat('en', { notation: 'compact', maximumSignificantDigits: 3 });

/** A queue with its unit, one of it singular: "1 cell", "0 cells", "2.5 frames". */
export function countText(v: number, unit: string): string {
  const n = queueCount(v);
  return `${n} ${n === '1' ? unit.replace(/s$/, '') : unit}`;
}

/** The RM cells' labels' type on the page (px; app.css: `.nv-rm-labels text`). */
export const RM_LABEL_PX = 11;
/** …and presenting (app.css: `.app.present .nv-rm-labels text`), as the rest of presenting. */
export const RM_LABEL_PRESENT_PX = 18;
/** Where a marker's label sits: its baseline above the marker (flow px)… */
const LABEL_BASELINE_PX = -11;
/** …or, where that is taken (another label, a node's name, a card), below it: the top of its
 *  box (LabelRoom's, 1.1 em over the baseline) this far under the marker… */
const LABEL_BELOW_GAP_PX = 2;
/** …which reaches this far from its centre (flow px; `marker`: a triangle's tip 8 px, a
 *  diamond's 7, a square's corner 6 across). */
const MARKER_HALF_PX = 8;
/** The samples after a cell's record its guessed wait reads at most (the first ones after it:
 *  as the time drawn goes on, what they tell only grows). */
const SINCE_SAMPLES = 64;
/** RM cells drawn at most at once. */
export const MAX_MARKERS = 300;
/** Lanes are drawn in utilisation steps of this many percent. */
export const UTIL_STEP_PERCENT = 2;
const SVG = 'http://www.w3.org/2000/svg';

export interface PainterModel {
  scenario: Scenario;
  layout: NetworkLayout;
  ports: PortView[];
  /** Ports drawn as one row of their switch's card (lab/networkPorts: cardRows): their largest queue. */
  groups?: PortGroup[];
  /** The type of the RM cells' labels (px; app.css: `.nv-rm-labels text`, larger presenting). */
  labelPx?: number;
  /** What the labels keep clear of (geometry.ts: endTextBoxes): names, ACR lines, cards. */
  reserved?: readonly Box[];
  /** The speed under which RM cells are drawn moving (networkClock.rmSpeedLimit). */
  rmLimit: number;
  /** How long before the shown time a cell under way can have started (µs). */
  lookbackUs: number;
  /** Each link's hop by `from->to` (networkClock.linkHopsUs), for a hop no RM cell of a loop
   *  has made yet. */
  linkHopUs?: ReadonlyMap<string, LinkHop>;
  /** The unit rates are shown in (the charts': Gbps on Ethernet); Mbps if not given. */
  rate?: RateUnit;
  /** The network's words for its markers (ATM's if not given). */
  words?: RmWords;
  /** A card writes the queue's number alone (presenting: PRESENT_CARD's short rows; the legend
   *  gives its unit, and says a group's is the largest): "12", not "12 cells" or "max 12 cells". */
  bareQueues?: boolean;
}

interface QueueTarget {
  fill: HTMLElement;
  text: HTMLElement;
}

export class NetworkPainter implements FrameClient {
  private model: PainterModel | null = null;
  private lanes = new Map<string, SVGPathElement>();
  private queues = new Map<string, QueueTarget>();
  private acrs = new Map<string, HTMLElement>();
  private clock: HTMLElement | null = null;
  private approx: HTMLElement | null = null;
  /** A polite live region: says when the focused marker's cell is no longer drawn. */
  private announcer: HTMLElement | null = null;
  private markers: SVGGElement | null = null;
  private pool: SVGGElement[] = [];
  /** The layer of the markers' labels, over every marker, and its pooled texts (the labels',
   *  and the badges of queues longer than drawn: "+N"). */
  private labels: SVGGElement | null = null;
  private labelPool: SVGTextElement[] = [];
  private morePool: SVGTextElement[] = [];
  /** Column of each connection's ACR; of each lane's utilisation (or the connections its source sends). */
  private acrIndex = new Map<string, number>();
  private laneSources = new Map<string, { connections: { id: string; startMs: number; stopMs: number }[]; rateMbps: number }>();
  /** Each connection's nodes, source to destination (routeOf). */
  private routes = new Map<string, string[]>();
  /** A hop as the network tells it (for one no cell of a loop has made yet, or behind a longer
   *  queue than the one that made it had): to the next node of the route, over that link
   *  (`travelUs`), after the cells (frames) the port's queue held then. QA: gfc1's
   *  first cells at SW1, ~2 ms in its queue, were drawn along the 5 ms link from their arrival
   *  and jumped back to SW1 when the link's delay was up.
   *  The queue is the port's latest sample before the record (the last the cell could know of),
   *  not the nearest: in a live run the next sample comes after the cell is drawn, and as the
   *  nearest it lengthened the wait and drew a cell already on the link back in the queue. A
   *  sample before the record has come with it or before it (the worker posts a flush's
   *  samples before its RM events; one at the record's very time may come after it), so the
   *  wait is the same in every frame, and in a live run and a replay of it.
   *  The samples after it, up to the time drawn, can only shorten the wait (`leftByUs`): a
   *  queue of q cells at s, the cell among them, is sent by s + q cells' transmission (where the
   *  port sends in order; a per-VC port, or one that sends background traffic first, may send
   *  it later, as the queue before it may take longer than its q cells: the same estimate,
   *  newer); so a cell waiting out a long queue learnt from a more congested moment leaves its
   *  queue when a sample says the queue is gone, and a sample still to come never draws it
   *  back. Read the same way at every port, the samples keep a loop's cells in their order. */
  private readonly guess: HopGuess = (cell, r, phase, us) => {
    const next = nextOnRoute(this.routes.get(cell.connection), r.node, phase);
    const hop = next === undefined ? undefined : this.model?.linkHopUs?.get(`${r.node}->${next}`);
    if (next === undefined || !hop) return undefined;
    const port = this.queueOf.get(`${r.node}->${next}`);
    if (port === undefined) return { next, us: hop.us, travelUs: hop.us };
    // (A long run's samples in buckets: the bounds they give, lab/queueSamples.ts.)
    const { queued, sampledUs, leftByUs } = sampledQueue(this.store, port, r.time_us - SAME_TIME_US, us, hop.cellUs, SINCE_SAMPLES, SAME_TIME_US);
    return { next, us: hop.us + queued * hop.cellUs, travelUs: hop.us, leftByUs, sampledUs };
  };
  /** Each port's queue column in the store (cells on ATM, frames on Ethernet: a link's hop's
   *  `cellUs` is one of either's transmission). */
  private queueOf = new Map<string, number>();
  private utilIndex = new Map<string, number>();
  private shown: Shown | null = null;
  private index: RmCellIndex | null = null;
  private consumed = 0;
  /** The log's `cuts` when the index was built. */
  private consumedCuts = 0;
  /** The run number of the oldest record kept when the index last forgot the cells before it:
   *  a cut goes no further back (the cells of older records may be gone). */
  private forgotFrom = 0;
  private picked: string | null = null;
  /** A press on a marker under way: the cell it began on, and its pointer. */
  private press: { cell: string; pointerId: number } | null = null;
  /** A press was picked at its release: the click the browser sends after it picks nothing more. */
  private pressPicked = false;
  private pickListeners = new Set<(id: string | null) => void>();
  /** With no cell drawn, the latest that set out by the shown time (lastLoop), else null. */
  private last: LastLoop | null = null;
  private lastListeners = new Set<() => void>();
  /** What was written last, by element key, so that an unchanged value is not written again. */
  private written = new Map<string, string>();
  /** The cells drawn in the last frame (for tests and the e2e hook: `data-*` attributes too). */
  drawn: CellAt[] = [];
  /** What the markers were last drawn from (drawCells): a frame with the same draws nothing. A
   *  paused run's view is drawn every animation frame, and laying the markers out again cost
   *  ~7 ms a frame (gfc1, the run over: 40 % of an idle main thread; all of it at 4× CPU throttling). */
  private cellsDrawnFrom: { key: string; model: PainterModel; index: RmCellIndex | null; layer: SVGGElement; labels: SVGGElement | null } | null = null;

  constructor(
    private readonly store: SampleStore,
    private readonly lab: Lab,
    private readonly group: ChartGroup,
  ) {}

  setModel(model: PainterModel) {
    const scenarioChanged = this.model?.scenario !== model.scenario;
    this.model = model;
    const meta = this.store.meta;
    this.acrIndex = new Map(meta.flatMap((m, i) => (m.kind === 'acr' ? [[m.owner, i] as const] : [])));
    this.utilIndex = new Map(model.ports.filter((p) => p.utilIndex >= 0).map((p) => [p.port, p.utilIndex]));
    this.queueOf = new Map(model.ports.filter((p) => p.queueIndex >= 0).map((p) => [p.port, p.queueIndex]));
    this.laneSources = new Map();
    this.routes = new Map(model.scenario.connections.map((c) => [c.id, routeOf(model.scenario, c)]));
    const kinds = new Map(model.scenario.nodes.map((n) => [n.id, n.kind]));
    for (const link of model.layout.links) {
      for (const lane of link.lanes) {
        if (kinds.get(lane.from) !== 'source') continue;
        const connections = model.scenario.connections
          .filter((c) => c.from === lane.from && this.acrIndex.has(c.id))
          .map((c) => ({ id: c.id, startMs: c.start_ms ?? 0, stopMs: c.stop_ms ?? Infinity }));
        this.laneSources.set(lane.port, { connections, rateMbps: link.rateMbps });
      }
    }
    if (scenarioChanged) this.index = null;
    this.written.clear();
  }

  // Registration by the components (each returns its unregistration, for a ref callback's cleanup).
  lane(port: string, el: SVGPathElement | null) {
    if (el) this.lanes.set(port, el);
    else this.lanes.delete(port);
    this.written.delete(`lane:${port}`);
  }
  queue(port: string, target: QueueTarget | null) {
    if (target) this.queues.set(port, target);
    else this.queues.delete(port);
    this.written.delete(`queue:${port}`);
  }
  acr(connection: string, el: HTMLElement | null) {
    if (el) this.acrs.set(connection, el);
    else this.acrs.delete(connection);
    this.written.delete(`acr:${connection}`);
  }
  clockText = (el: HTMLElement | null) => {
    this.clock = el;
    this.written.delete('clock');
  };
  /** Where a long run's note goes (approximateNote: its samples kept in buckets). */
  approxText = (el: HTMLElement | null) => {
    this.approx = el;
    this.written.delete('approx');
  };
  announcerText = (el: HTMLElement | null) => {
    this.announcer = el;
  };
  /** The layer the RM-cell markers go in (a stable callback: a new layer starts an empty pool). */
  markerLayer = (el: SVGGElement | null) => {
    if (el === this.markers) return;
    this.markers = el;
    this.pool = [];
    this.press = null;
    el?.replaceChildren();
  };
  /** The layer the markers' labels go in, over the markers (a stable callback, as markerLayer). */
  labelLayer = (el: SVGGElement | null) => {
    if (el === this.labels) return;
    this.labels = el;
    this.labelPool = [];
    this.morePool = [];
    this.cellsDrawnFrom = null;
    el?.replaceChildren();
  };

  /** The RM cell picked (clicked), or null. */
  get pickedCell(): string | null {
    return this.picked;
  }
  pick(id: string | null) {
    this.picked = id;
    for (const l of this.pickListeners) l(id);
  }
  /**
   * A press on a marker notes the cell the marker stands for at the press: the one the user sees
   * under the pointer. Its release picks that cell. The markers are pooled (the i-th cell drawn in
   * the i-th element), so a frame drawn between press and release can give the element another
   * cell (a cell setting out moves every other one to the next element), or put another element
   * under the pointer, or none. Read at the click, the cell was lost: the browser sends the click
   * to what the two elements share (the layer, naming no cell, or the pane), and after a touch to
   * what the tap is nearest to by then. The layer captures the pointer so that the release comes
   * back here wherever the cells have gone.
   */
  pressed = (e: { button: number; pointerId: number; target: EventTarget | null; currentTarget: EventTarget | null }) => {
    this.pressPicked = false;
    const cell = e.button === 0 ? cellOf(e.target) : null;
    this.press = cell === null ? null : { cell, pointerId: e.pointerId };
    // (jsdom has no pointer capture.)
    if (this.press && e.currentTarget instanceof Element) e.currentTarget.setPointerCapture?.(e.pointerId);
  };
  released = (e: { pointerId: number }) => {
    if (!this.press || this.press.pointerId !== e.pointerId) return;
    const { cell } = this.press;
    this.press = null;
    this.pressPicked = true;
    this.pick(cell);
  };
  /** A press the browser took over (a touch that became a scroll): no pick. */
  pressCancelled = () => {
    this.press = null;
  };
  /** A click in the marker layer with no press before it (assistive technology's): picks the
   *  cell clicked, or none. After a press, its release has picked. */
  clicked = (e: { target: EventTarget | null }) => {
    if (this.pressPicked) {
      this.pressPicked = false;
      return;
    }
    this.pick(cellOf(e.target));
  };
  /** Enter or Space on a focused marker picks its cell, as a click does (and does not play): the
   *  cell it had when it got the focus, as it keeps it while the cell is drawn (markerSlots). */
  keyed = (e: { key: string; target: EventTarget | null; preventDefault(): void; stopPropagation(): void }) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    const id = cellOf(e.target);
    if (id === null) return;
    e.preventDefault();
    e.stopPropagation();
    this.pick(id);
  };
  onPick(fn: (id: string | null) => void): () => void {
    this.pickListeners.add(fn);
    return () => this.pickListeners.delete(fn);
  }

  /** Where no cell is drawn at the shown time: the latest that set out by then (null: a cell
   *  is drawn, cells are not drawn at this speed, or none is recorded). */
  get lastLoop(): LastLoop | null {
    return this.last;
  }
  onLastLoop(fn: () => void): () => void {
    this.lastListeners.add(fn);
    return () => this.lastListeners.delete(fn);
  }

  /** The cells of this run's trace (null before any record). */
  cells(): RmCellIndex | null {
    return this.index;
  }

  /** The time shown by the last frame (ms). */
  get shownMs(): number | null {
    return this.shown?.ms ?? null;
  }

  frame() {
    const model = this.model;
    const status = this.lab.freshStatus();
    if (!model || !status) return;
    const speed = this.lab.getState().speed;
    // The time marked on the charts counts until the run moves (the mark stays drawn there).
    const mark = this.group.cursorMark;
    this.shown = nextShown(
      this.shown,
      { run: status.run, mode: status.mode, nowMs: status.nowMs, speed, markMs: mark?.ms ?? null, markedAtMs: mark?.atMs ?? -Infinity, movedAtMs: this.lab.runMovedAtMs },
      performance.now(),
    );
    const ms = this.shown.ms;
    this.write('clock', this.clock, `t = ${ms.toFixed(3)} ms`, (el, v) => (el.textContent = v));
    this.write('approx', this.approx, approximateNote(this.store) ?? '', (el, v) => {
      el.textContent = v;
      el.hidden = v === '';
    });
    const row = shownRow(this.store, ms);
    const value = (col: number | undefined) => (row >= 0 && col !== undefined && col >= 0 ? this.store.series(col)[row] : NaN);
    // A source's ACR: the sample's, or the trace's when a backward RM cell set it since.
    this.consume(model);
    const rowMs = row >= 0 ? this.store.times()[row] : -Infinity;
    const acr = (conn: string) => {
      const read = this.index?.acrAt(conn, ms * 1000);
      return read && read.us / 1000 > rowMs ? read.mbps : value(this.acrIndex.get(conn));
    };

    for (const [port, el] of this.lanes) {
      const util = this.utilIndex.get(port);
      const src = this.laneSources.get(port);
      // A source sends at its ACR while it runs, and nothing before its start or after its stop
      // (its ACR is there all the same: fecn-hotspot's hosts looked fully used before 5 ms).
      const sending = (c: { id: string; startMs: number; stopMs: number }) => (ms >= c.startMs && ms < c.stopMs ? acr(c.id) : 0);
      const raw = util !== undefined ? value(util) : src ? sourceUtilisation(src.connections.map(sending), src.rateMbps) : null;
      // In steps of UTIL_STEP_PERCENT: a lane is painted again only when its look changes visibly.
      const pct = raw === null || Number.isNaN(raw) ? null : Math.round(raw / UTIL_STEP_PERCENT) * UTIL_STEP_PERCENT;
      const look = laneLook(pct);
      this.write(`lane:${port}`, el, pct === null ? '' : String(pct), (e) => {
        e.style.stroke = look.colour;
        e.style.strokeWidth = `${look.widthPx.toFixed(1)}px`;
        e.dataset.util = pct === null ? '' : pct.toFixed(1);
      });
    }
    for (const p of model.ports) {
      const t = this.queues.get(p.port);
      if (!t) continue;
      const q = value(p.queueIndex);
      // The queue alone: the bar sets it against the buffer, whose size the tooltip and the
      // port's name tell (a card narrow enough to leave the lanes room; QA: gfc1's cards, as
      // wide as "max 0 / 1000 cells", left lanes of 15 px at 1280 px).
      const text = Number.isNaN(q) ? '—' : model.bareQueues ? queueCount(q) : countText(q, p.unit);
      this.write(`queue:${p.port}`, t.fill, text, (fill) => {
        // A transform, not a width: the card's layout is not computed again every frame.
        fill.style.transform = `scaleX(${barFraction(q, p.buffer).toFixed(4)})`;
        t.text.textContent = text;
        t.text.title = Number.isNaN(q) ? '' : `${queueCount(q)} / ${queueCount(p.buffer)} ${p.unit} (queue / buffer)`;
        t.text.dataset.queue = Number.isNaN(q) ? '' : String(q);
      });
    }
    for (const g of model.groups ?? []) {
      const t = this.queues.get(g.key);
      if (!t) continue;
      const q = groupQueue(g, value);
      const { buffer, unit } = g.ports[0];
      const text = Number.isNaN(q) ? '—' : model.bareQueues ? queueCount(q) : `max ${countText(q, unit)}`;
      this.write(`queue:${g.key}`, t.fill, text, (fill) => {
        fill.style.transform = `scaleX(${barFraction(q, buffer).toFixed(4)})`;
        t.text.textContent = text;
        t.text.title = Number.isNaN(q) ? '' : `max ${queueCount(q)} / ${queueCount(buffer)} ${unit} (largest queue / buffer)`;
        t.text.dataset.queue = Number.isNaN(q) ? '' : String(q);
      });
    }
    for (const [conn, el] of this.acrs) {
      const v = acr(conn);
      const rate = model.rate ?? MBPS;
      this.write(`acr:${conn}`, el, Number.isNaN(v) ? '—' : `${rateText(v, rate)} ${rate.unit}`, (e, s) => (e.textContent = s));
    }
    this.drawCells(model, ms * 1000, status.mode === 'playing' && !rmCellsMove(speed, model.rmLimit));
  }

  /** Feeds the trace's new records to the cell index; a new run (or scenario) starts afresh.
   *  The run going back cuts the log: the index is cut as far back (its newest records taken
   *  back), not built again from the ~20,000 the log keeps, at every step of a slider's drag. */
  private consume(model: PainterModel) {
    const log = this.lab.rmLog;
    const received = log.received();
    if (this.index && log.cuts !== this.consumedCuts) {
      // The run number of the index's first record, and the fewest the log held since.
      const first = this.consumed - this.index.size;
      const held = log.heldSince(this.consumedCuts);
      // Not back past the records the index forgot the cells before (forgetBefore).
      if (held !== null && held >= first && held >= this.forgotFrom && this.index.cut(held - first)) {
        this.consumed = Math.min(this.consumed, held);
        this.consumedCuts = log.cuts;
      }
    }
    if (!this.index || log.cuts !== this.consumedCuts || received < this.consumed) {
      this.index = new RmCellIndex(neighboursOf(model.scenario.links));
      this.consumed = 0;
      this.forgotFrom = 0;
      this.consumedCuts = log.cuts;
    }
    if (received === this.consumed) return;
    const kept = log.records();
    const fresh = Math.min(kept.length, received - this.consumed);
    this.index.add(kept.slice(kept.length - fresh));
    this.consumed = received;
    if (kept.length) {
      this.index.forgetBefore(kept[0].time_us);
      this.forgotFrom = received - kept.length;
    }
  }

  private drawCells(model: PainterModel, us: number, hidden: boolean) {
    const layer = this.markers;
    if (!layer) return;
    const focused = this.focusedMarker(layer);
    const key = `${us}|${hidden}|${this.index?.version}|${this.picked}|${focused?.slot}|${focused?.cell}`;
    const from = this.cellsDrawnFrom;
    if (from && from.key === key && from.model === model && from.index === this.index && from.layer === layer && from.labels === this.labels) return;
    this.cellsDrawnFrom = { key, model, index: this.index, layer, labels: this.labels };
    const under = hidden || !this.index ? [] : cellsUnderWay(this.index, us, model.lookbackUs, this.guess);
    const cells = shareOf(under, MAX_MARKERS, [this.picked, focused?.cell]);
    this.drawn = cells;
    const last = !hidden && cells.length === 0 && this.index ? lastLoop(this.index, us) : null;
    if (last?.cell.id !== this.last?.cell.id || last?.toUs !== this.last?.toUs) {
      this.last = last;
      for (const l of this.lastListeners) l();
    }
    while (this.pool.length < cells.length) this.pool.push(layer.appendChild(marker()));
    const slots = markerSlots(cells, focused);
    // A cell at a node whose next record has not come waits at the node's edge toward the
    // next node of its connection's route (a notification or a backward cell toward the
    // source, a forward one toward the destination): not at a switch's centre, over its
    // card's bar and marks, the cells of every loop on one spot (QA: fecn-hotspot's reflected
    // frames at SW1; two-sources' first backward cells at SW2, whose sources are a switch
    // away). The cells waiting there are drawn as a queue beside the lane (queueSpot).
    const laneFor = (c: CellAt) => {
      const toward = c.from === c.to ? nextOnRoute(this.routes.get(c.cell.connection), c.from, c.phase) : undefined;
      const key = `${c.from}->${toward ?? c.to}`;
      return model.layout.lanes.has(key) ? key : undefined;
    };
    const laneOf = slots.map((c) => (c ? laneFor(c) : undefined));
    const queues = queuePlaces(slots.map((c, i) => (c && c.from === c.to && laneOf[i] !== undefined ? { queue: laneOf[i]!, sinceUs: c.record.time_us, id: c.cell.id } : null)));
    // Every cell waiting, by queue, drawn or left out of the share (QA: 400 waiting at SW1 read
    // "+206", the share drawn, and jumped as it changed).
    const waiting = new Map<string, { n: number; notifications: number }>();
    for (const c of under) {
      const lane = c.from === c.to ? laneFor(c) : undefined;
      if (lane === undefined) continue;
      const w = waiting.get(lane) ?? { n: 0, notifications: 0 };
      w.n += 1;
      if (c.phase === 'notification') w.notifications += 1;
      waiting.set(lane, w);
    }
    // Where each drawn cell is, for its label: placed once every marker is (below).
    const drawn: { g: SVGGElement; c: CellAt; x: number; y: number; below: boolean; sided: boolean }[] = [];
    for (let i = 0; i < this.pool.length; i++) {
      const g = this.pool[i];
      const c = slots[i];
      if (!c) {
        if (g.style.display !== 'none') hide(g);
        continue;
      }
      const lane = laneOf[i] === undefined ? undefined : model.layout.lanes.get(laneOf[i]!);
      let x: number;
      let y: number;
      let angle = 0;
      // Its label goes on its lane's outer side, away from the cells going the other way (a lane
      // lies to the right of its direction: below a lane heading right); only there on a lane
      // more across than up or down, whose sides are above and below it (`sided`).
      let outerBelow = false;
      let sided = false;
      if (lane) {
        ({ x, y } = queues.place[i] >= 0 ? queueSpot(lane, queues.place[i]) : pointOnLane(lane, c.fraction));
        // The triangle points along its lane; a diamond (or a notification's square) stays
        // upright, as the legend draws it (QA: turned with a sloping lane, a backward cell's
        // diamond read as a square).
        angle = c.phase === 'forward' ? laneAngle(lane) : 0;
        outerBelow = lane.b.x > lane.a.x;
        sided = Math.abs(lane.b.x - lane.a.x) >= Math.abs(lane.b.y - lane.a.y);
      } else {
        // At a node (a notification, a cell between two records at one node), or between two
        // nodes no drawn link joins (a sampled network): at the node it left.
        const n = model.layout.nodes.find((k) => k.id === c.from);
        if (!n) {
          hide(g);
          continue;
        }
        ({ x, y } = n);
      }
      g.style.display = '';
      g.setAttribute('transform', `translate(${x.toFixed(1)},${y.toFixed(1)})`);
      (g.firstChild as SVGGElement).setAttribute('transform', `rotate(${angle.toFixed(0)})`);
      const cls = `nv-rm nv-rm-${c.phase}${c.cell.id === this.picked ? ' picked' : ''} nopan`;
      if (g.getAttribute('class') !== cls) g.setAttribute('class', cls);
      g.dataset.cell = c.cell.id;
      g.dataset.connection = c.cell.connection;
      g.dataset.vp = c.cell.vp;
      g.dataset.x = x.toFixed(1);
      g.dataset.y = y.toFixed(1);
      drawn.push({ g, c, x, y, below: outerBelow, sided });
    }
    // Labels keep clear of the names, the cards, each other and the markers they do not label.
    // The picked cell's first, over any marker: the cell followed keeps its label. Then each
    // cell's, in the drawing's order, clear of every marker: a lane of cells apart reads as
    // before (QA: on long-rtt, markers drawn later covered the labels of the cells before them,
    // leaving "5.52" and "52" along S1's link; the labels now lie in a layer over the markers).
    // Then, where markers are too close for that, some labels over unlabelled markers, clear of
    // the labelled ones, in the order of a hash of each cell's id (the same cells from frame to
    // frame, spread along the lane). QA: long-rtt's dense link showed no label at all.
    const labelPx = model.labelPx ?? RM_LABEL_PX;
    const room = new LabelRoom(labelPx, model.reserved);
    // A queue longer than drawn apart says how many more wait (under its last marker, or left
    // out of the share drawn): "+N" beyond it.
    const more = [...waiting].flatMap(([port, { n, notifications }]) => {
      const apart = Math.min(queues.size.get(port) ?? 0, QUEUE_SHOWN);
      const lane = n > apart ? model.layout.lanes.get(port) : undefined;
      if (!lane) return [];
      const text = moreText(n - apart);
      const name = moreName(n - apart, n, notifications, model.words ?? ATM_WORDS);
      const w = moreWidthPx(text, labelPx);
      const at = queueBadgeSpot(lane, w);
      // Centred on its spot (the baseline a third of the type under it).
      const box = { x0: at.x - w / 2, x1: at.x + w / 2, y0: at.y - 0.75 * labelPx, y1: at.y + 0.5 * labelPx };
      return [{ port, n, text, name, x: at.x, y: at.y + labelPx / 3, box }];
    });
    room.reserve(more.map((m) => m.box));
    this.writeMore(more);
    const below = MARKER_HALF_PX + LABEL_BELOW_GAP_PX + 1.1 * labelPx;
    const picked = drawn.findIndex((d) => d.c.cell.id === this.picked);
    if (picked > 0) drawn.unshift(...drawn.splice(picked, 1));
    const boxes = drawn.map(({ x, y }) => ({ x0: x - MARKER_HALF_PX, x1: x + MARKER_HALF_PX, y0: y - MARKER_HALF_PX, y1: y + MARKER_HALF_PX }));
    const texts = drawn.map(({ c }) => markerText(c.phase, loopName(c.cell), c.record, model.words ?? ATM_WORDS, model.rate ?? MBPS));
    const at: (number | null)[] = drawn.map(() => null);
    const labelled: Box[] = [];
    const label = (i: number, avoid: readonly Box[]) => {
      const { label: full } = texts[i];
      // On its lane's outer side: on a lane whose sides are above and below it, there or not at
      // all (QA: a backward cell's ER, its own side taken, lay on the forward cells' side and
      // read as theirs); along a steep lane, above it, else below. Not on a marker a label
      // already lies over.
      if (!full || at[i] !== null || room.labelOver(boxes[i])) return;
      const { x, y, below: outerBelow, sided } = drawn[i];
      const ys = outerBelow ? [y + below, y + LABEL_BASELINE_PX] : [y + LABEL_BASELINE_PX, y + below];
      at[i] = room.placeFirst(full, x, sided ? ys.slice(0, 1) : ys, boxes[i], avoid);
      if (at[i] !== null) labelled.push(boxes[i]);
    };
    if (picked >= 0) label(0, []);
    for (let i = 0; i < drawn.length; i++) label(i, boxes);
    const rest = drawn.map((_, i) => i).filter((i) => at[i] === null);
    const hash = new Map(rest.map((i) => [i, cellHash(drawn[i].c.cell)]));
    rest.sort((a, b) => hash.get(a)! - hash.get(b)!);
    for (const i of rest) label(i, labelled);
    // Focusable (Tab), named for a screen reader: Enter shows its fields and journey.
    for (let i = 0; i < drawn.length; i++) {
      const { g } = drawn[i];
      if (g.getAttribute('aria-label') !== texts[i].name) g.setAttribute('aria-label', texts[i].name);
    }
    this.writeLabels(drawn.flatMap((d, i) => (at[i] === null ? [] : [{ cell: d.c.cell.id, text: texts[i].label, x: d.x, y: at[i]! }])));
    // The focused marker's cell is gone (its journey drawn to the end, or pushed out by newer
    // cells): the marker now stands for another cell, or for none. Said once, as it happens:
    // its new name alone would not be read out, and Enter would open a cell the user never heard.
    if (focused && this.announcer && !slots.some((c) => c?.cell.id === focused.cell)) {
      this.announcer.textContent = goneText(focused.name, this.pool[focused.slot]);
    }
  }

  /** The markers' labels, each centred on its marker with its baseline at `y` (flow px), in the
   *  pooled texts of the label layer (hidden: none there). */
  private writeLabels(labels: readonly { cell: string; text: string; x: number; y: number }[]) {
    writeTexts(this.labels, this.labelPool, labels, { testId: 'rm-label', hidden: true }, (t, l) => {
      if (l) t.dataset.cell = l.cell;
      else delete t.dataset.cell;
    });
  }

  /** The badges of queues longer than drawn ("+N", centred on `x` with its baseline at `y`), in
   *  pooled texts of the label layer; `name` (moreName) is their tooltip and accessible name. */
  private writeMore(badges: readonly { port: string; n: number; text: string; name: string; x: number; y: number }[]) {
    writeTexts(this.labels, this.morePool, badges, { testId: 'rm-queue-more', className: 'nv-rm-more' }, (t, b) => {
      if (b) {
        t.dataset.port = b.port;
        t.dataset.waiting = String(b.n);
        if (t.getAttribute('role') !== 'img') t.setAttribute('role', 'img');
        const title = t.querySelector('title') ?? t.appendChild(document.createElementNS(SVG, 'title'));
        if (title.textContent !== b.name) title.textContent = b.name;
      } else delete t.dataset.port;
    });
  }

  /** The marker that has the keyboard's focus (its place in the pool, and its cell), or null. */
  private focusedMarker(layer: SVGGElement): { slot: number; cell: string; name: string } | null {
    const active = layer.ownerDocument.activeElement;
    const slot = active && active.parentNode === layer ? this.pool.indexOf(active as SVGGElement) : -1;
    const cell = slot < 0 ? undefined : this.pool[slot].dataset.cell;
    return cell === undefined ? null : { slot, cell, name: this.pool[slot].getAttribute('aria-label') ?? 'The RM cell' };
  }

  private write<E>(key: string, el: E | null, value: string, apply: (el: E, value: string) => void) {
    if (!el || this.written.get(key) === value) return;
    this.written.set(key, value);
    apply(el, value);
  }
}

/**
 * Which cell each pooled marker draws: the i-th cell in the i-th marker, but the cell of the marker
 * that has the keyboard's focus stays in it while the cell is drawn (it trades places with the
 * cell that would have gone there). Else a cell setting out, which moves every other cell to the
 * next marker, would move the focus to a neighbour between Tab and Enter. (Gone, the cell leaves
 * its marker to the one that comes.)
 */
export function markerSlots<C extends { cell: { id: string } }>(cells: readonly C[], focused: { slot: number; cell: string } | null): (C | undefined)[] {
  const slots: (C | undefined)[] = cells.slice();
  const at = focused ? cells.findIndex((c) => c.cell.id === focused.cell) : -1;
  if (focused && at >= 0 && at !== focused.slot) {
    slots[at] = cells[focused.slot];
    slots[focused.slot] = cells[at];
  }
  return slots;
}

/**
 * A queue's badge: how many more RM cells wait than are drawn apart, in at most five characters
 * for any queue up to a buffer of ten million cells (Series-D's): "+996", "+1.2k", "+12k",
 * "+1M". The exact count is the badge's `data-waiting`.
 */
export function moreText(n: number): string {
  if (n < 1000) return `+${n}`;
  const [unit, size] = n < 999_500 ? ['k', 1e3] : ['M', 1e6];
  const v = n / size;
  return `+${v < 9.95 ? Number(v.toFixed(1)) : Math.round(v)}${unit}`;
}

/**
 * A queue badge's tooltip and accessible name: what its `more` counts, beside a card's bar that
 * counts every cell of the port's queue (QA: "+12" by "407 cells" read as 12 more of those), in
 * the network's words, exactly: "+12: 12 more RM cells waiting here". `waiting`: every cell
 * waiting there, `notifications` of them QCN notifications.
 */
export function moreName(more: number, waiting: number, notifications: number, words: RmWords): string {
  const plural = (w: string) => (more === 1 ? w : `${w}s`);
  const what = notifications === 0 ? plural(words.cell) : notifications === waiting ? plural(words.phase.notification) : more === 1 ? `${words.cell} or ${words.phase.notification}` : `${words.cell}s and ${words.phase.notification}s`;
  return `${moreText(more)}: ${more} more ${what} waiting here`;
}

/** A badge's width (px) in the labels' bold type of `fontPx`: bold digits are ~0.7 em (DejaVu
 *  Sans Bold's 0.696), "+" a little more; with a little room either side. */
export function moreWidthPx(text: string, fontPx: number): number {
  return text.length * 0.74 * fontPx + 4;
}

/** What the live region says when the focused marker's cell (`name`) is no longer drawn and
 *  `marker` (the focused one) now shows another cell, or none (hidden: it lost the focus). */
export function goneText(name: string, marker: SVGGElement | undefined): string {
  const now = marker && marker.style.display !== 'none' && marker.dataset.cell !== undefined ? marker.getAttribute('aria-label') : null;
  return `${name}: no longer drawn. ${now ? `This marker now shows ${now}.` : 'No RM cell is drawn in its place.'}`;
}

/**
 * The RM cells waiting at a node as queues, one per lane they will leave by (`queue`: its port):
 * each cell's place in its queue (0: the first to leave, the one that came first; ties by id;
 * -1: not waiting) and each queue's length, for queueSpot.
 */
export function queuePlaces(cells: readonly ({ queue: string; sinceUs: number; id: string } | null)[]): { place: number[]; size: Map<string, number> } {
  const place = cells.map(() => -1);
  const size = new Map<string, number>();
  const order = cells.flatMap((c, i) => (c ? [i] : []));
  order.sort((i, j) => {
    const a = cells[i]!;
    const b = cells[j]!;
    return a.queue < b.queue ? -1 : a.queue > b.queue ? 1 : a.sinceUs - b.sinceUs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  });
  for (const i of order) {
    const q = cells[i]!.queue;
    const n = size.get(q) ?? 0;
    place[i] = n;
    size.set(q, n + 1);
  }
  return { place, size };
}

/** The node after `node` on `route` going `phase`'s way: toward the destination forward,
 *  toward the source backward (and for a notification); undefined off the route or at its end. */
export function nextOnRoute(route: readonly string[] | undefined, node: string, phase: Phase): string | undefined {
  const i = route ? route.indexOf(node) : -1;
  if (i < 0) return undefined;
  return route![phase === 'forward' ? i + 1 : i - 1];
}

/** The cell of the marker an event came from (null: none). */
function cellOf(target: EventTarget | null): string | null {
  const g = target instanceof Element ? target.closest<SVGGElement>('[data-cell]') : null;
  return g?.dataset.cell ?? null;
}

/** A pooled marker not in use: hidden, and naming no cell. */
function hide(g: SVGGElement) {
  g.style.display = 'none';
  delete g.dataset.cell;
}

/** One pooled marker: the three shapes (CSS shows the one of its phase; its label is in the
 *  label layer, over every marker). */
function marker(): SVGGElement {
  const g = document.createElementNS(SVG, 'g');
  g.setAttribute('class', 'nv-rm nopan');
  g.setAttribute('data-testid', 'rm-cell');
  g.setAttribute('tabindex', '0');
  g.setAttribute('role', 'button');
  const shapes = document.createElementNS(SVG, 'g');
  // Forward: a triangle pointing along the lane; backward: a diamond; notification: a square.
  const tri = document.createElementNS(SVG, 'path');
  tri.setAttribute('class', 'nv-shape-forward');
  tri.setAttribute('d', 'M8,0 L-6,-6 L-6,6 Z');
  const diamond = document.createElementNS(SVG, 'path');
  diamond.setAttribute('class', 'nv-shape-backward');
  diamond.setAttribute('d', 'M0,-7 L7,0 L0,7 L-7,0 Z');
  const square = document.createElementNS(SVG, 'rect');
  square.setAttribute('class', 'nv-shape-notification');
  square.setAttribute('x', '-6');
  square.setAttribute('y', '-6');
  square.setAttribute('width', '12');
  square.setAttribute('height', '12');
  shapes.append(tri, diamond, square);
  g.append(shapes);
  return g;
}

/**
 * Writes `items` into the pooled SVG texts `pool` of `layer` (each centred on its `x`, its
 * baseline at `y`; flow px), adding texts as needed and hiding those left over; `mark` sets
 * an item's data on its text (null: the text is hidden). Only what changed is written. `hidden`:
 * the texts are hidden from a screen reader (what they say is said elsewhere).
 */
function writeTexts<T extends { text: string; x: number; y: number }>(
  layer: SVGGElement | null,
  pool: SVGTextElement[],
  items: readonly T[],
  look: { testId: string; className?: string; hidden?: boolean },
  mark: (t: SVGTextElement, item: T | null) => void,
) {
  if (!layer) return;
  while (pool.length < items.length) {
    const t = document.createElementNS(SVG, 'text');
    t.setAttribute('text-anchor', 'middle');
    if (look.className) t.setAttribute('class', look.className);
    t.setAttribute('data-testid', look.testId);
    if (look.hidden) t.setAttribute('aria-hidden', 'true');
    // Its text in its first child (after it, a badge's <title>).
    t.append('');
    pool.push(layer.appendChild(t));
  }
  pool.forEach((t, i) => {
    const item = items[i];
    if (!item) {
      if (t.style.display !== 'none') t.style.display = 'none';
      mark(t, null);
      return;
    }
    t.style.display = '';
    const text = t.firstChild!;
    if (text.textContent !== item.text) text.textContent = item.text;
    t.setAttribute('x', item.x.toFixed(1));
    t.setAttribute('y', item.y.toFixed(1));
    mark(t, item);
  });
}
