// The event log's data, outside React: the RM-cell events of the current run as the engine
// worker sends them (oldest first), bounded in the page to the newest PAGE_TRACE_CAPACITY, with
// what was dropped counted; and the pure functions the log panel uses to filter and show them.

import type { Catalogue, Feedback, Problem, RmDirection, RmRecord } from '../contract/engine';
import type { Scenario } from '../contract/scenario';
import type { RmQuery } from '../engine/protocol';
import type { DisplayUnit } from '../contract/units';
import { algorithmOf } from '../scenario/switchEdits';

/** RM-cell events kept in the page (the newest). */
export const PAGE_TRACE_CAPACITY = 20_000;

export const RM_DIRECTIONS: readonly RmDirection[] = ['sent', 'forward', 'turnaround', 'backward', 'received', 'notification', 'lost'];

export class RmLog {
  private events: RmRecord[] = [];
  /** Dropped by the engine's buffer (it was not drained in time), this run. */
  private engineDropped = 0;
  /** Dropped here, the oldest, to keep PAGE_TRACE_CAPACITY. */
  private pageDropped = 0;
  private listeners = new Set<() => void>();
  /** Changes with every append and reset (a snapshot key for useSyncExternalStore). */
  version = 0;
  /** Counts the times events already received were taken back (a reset, a run going back): a
   *  reader that consumes them as they come starts again when it changes, though as many new
   *  ones may have come since as were taken back. */
  cuts = 0;
  /** The latest cuts: the events of the run the log held after each (-1: a reset). */
  private cutLog: { cuts: number; held: number }[] = [];

  constructor(readonly capacity = PAGE_TRACE_CAPACITY) {}

  subscribe = (fn: () => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };
  getVersion = () => this.version;

  /** A new run: nothing recorded yet. */
  reset() {
    this.events = [];
    this.engineDropped = 0;
    this.pageDropped = 0;
    this.cut(-1);
    this.changed();
  }

  private cut(held: number) {
    this.cuts += 1;
    this.cutLog.push({ cuts: this.cuts, held });
    if (this.cutLog.length > 64) this.cutLog.splice(0, 32);
  }

  /**
   * The fewest events of the run the log held after any cut since cut number `cuts` (Infinity:
   * none since; null: a reset since, or too long ago to tell): a reader that consumed the events
   * as they came keeps the first that many and takes the rest again.
   */
  heldSince(cuts: number): number | null {
    if (cuts === this.cuts) return Infinity;
    const since = this.cutLog.filter((c) => c.cuts > cuts);
    if (since.length !== this.cuts - cuts || since.some((c) => c.held < 0)) return null;
    return Math.min(...since.map((c) => c.held));
  }

  /** Events from the engine (oldest first); `engineDropped`: the engine's count so far. */
  append(records: readonly RmRecord[], engineDropped: number) {
    this.engineDropped = engineDropped;
    for (const r of records) this.events.push(r);
    // Trimmed in chunks, so that a steady stream costs one copy per tenth of the capacity.
    const over = this.events.length - this.capacity;
    if (over > 0 && (over >= this.capacity / 10 || records.length >= this.capacity)) {
      this.events = this.events.slice(over);
      this.pageDropped += over;
    }
    this.changed();
  }

  /**
   * Keeps the run's first `n` events, dropping the later ones (the run went back, and sends
   * those again as it replays). Events already let go count among the first `n`: if all the
   * first `n` are gone, none is kept and they are the ones not kept.
   */
  keepFirst(n: number) {
    const keep = Math.max(0, Math.min(this.events.length, n - this.pageDropped));
    if (keep === this.events.length && this.pageDropped <= n) return;
    this.events = this.events.slice(0, keep);
    this.pageDropped = Math.min(this.pageDropped, n);
    this.cut(this.received());
    this.changed();
  }

  /** The events kept, oldest first (at most `capacity`). */
  records(): readonly RmRecord[] {
    const n = this.events.length;
    return n > this.capacity ? this.events.slice(n - this.capacity) : this.events;
  }

  /** Events that reached the page this run, kept or not (a reader that consumes them as they
   *  come finds the new ones at the end of records()). */
  received(): number {
    return this.pageDropped + this.events.length;
  }

  /** The number in the run (counting from 0, as `received` does) of the oldest event kept. */
  heldFrom(): number {
    return this.received() - this.records().length;
  }

  /** Events of this run that are no longer kept (by the engine or here). */
  dropped(): number {
    return this.engineDropped + this.pageDropped + Math.max(0, this.events.length - this.capacity);
  }

  private changed() {
    this.version += 1;
    for (const l of this.listeners) l();
  }
}

/**
 * A subscription to `subscribe`'s changes that tells `notify` at most once per `intervalMs`: the
 * first change after a quiet spell at once, the latest of a burst on a trailing edge (never
 * lost). For useSyncExternalStore, whose snapshot is read whenever the reader renders anyway:
 * the run coming to a stand renders the page, so a stopped run's log is read as it is.
 * QA: after Run to, the log said "0 events" for 200 ms (the first change waited for the timer).
 */
export function throttledSubscribe(subscribe: (fn: () => void) => () => void, intervalMs: number, now: () => number = () => performance.now()) {
  return (notify: () => void) => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let lastAt = -Infinity;
    const tell = () => {
      timer = null;
      lastAt = now();
      notify();
    };
    const stop = subscribe(() => {
      if (timer) return; // the trailing edge is on its way
      const waitMs = lastAt + intervalMs - now();
      if (waitMs <= 0) tell();
      else timer = setTimeout(tell, waitMs);
    });
    return () => {
      stop();
      if (timer) clearTimeout(timer);
    };
  };
}

/**
 * Whose RM cell a record is about, as the log and the Network view name it: the virtual path's
 * for a path's own cells (`vp`: they travel under a member connection), else the connection's.
 */
export function loopName(r: Pick<RmRecord, 'connection' | 'vp'>): string {
  return r.vp || r.connection;
}

/** What the log shows: "" for any. */
export interface RmFilter {
  connection: string;
  node: string;
  direction: RmDirection | '';
}

export const NO_FILTER: RmFilter = { connection: '', node: '', direction: '' };

/**
 * The filter as it applies to the open scenario: a connection or node it does not offer (one
 * chosen in the scenario open before) is "any", as its menu then shows. QA: after parking-lot-3's
 * SW3 and a switch to two-sources, the menu said "any" and the search button "at SW3".
 */
export function filterWithin(f: RmFilter, connections: readonly string[], nodes: readonly string[]): RmFilter {
  const connection = f.connection && !connections.includes(f.connection) ? '' : f.connection;
  const node = f.node && !nodes.includes(f.node) ? '' : f.node;
  return connection === f.connection && node === f.node ? f : { ...f, connection, node };
}

/** The events that pass the filter, newest first. */
export function filterRm(records: readonly RmRecord[], f: RmFilter): RmRecord[] {
  const out: RmRecord[] = [];
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i];
    if ((f.connection && loopName(r) !== f.connection) || (f.node && r.node !== f.node) || (f.direction && r.direction !== f.direction)) continue;
    out.push(r);
  }
  return out;
}

/**
 * What a "next RM event" search looks for, in words, naming each of the log's filters ("any"
 * for one left open): "RM-cell event at SW1, direction backward, connection C2", or "RM-cell
 * event at any node, any direction, any connection". `paths`: the scenario's virtual path ids
 * (a connection filter may pick one).
 */
export function rmQueryText(q: RmQuery, paths: readonly string[] = [], words: RmWords = ATM_WORDS): string {
  const node = q.node ? `at ${q.node}` : 'at any node';
  const direction = q.direction ? `direction ${q.direction}` : 'any direction';
  const connection = !q.connection ? `any ${words.connection}` : `${paths.includes(q.connection) ? 'virtual path' : words.connection} ${q.connection}`;
  return `${words.event} ${node}, ${direction}, ${connection}`;
}

/** Where a cell (or frame) is in its loop: on its way out, on its way back, or a switch's
 *  notification (rmCells.ts places cells by it, the Network view draws a marker per phase). */
export type Phase = 'forward' | 'backward' | 'notification';

/** The log's and the Network view's words for what they show: ATM's RM cells, or Ethernet's
 *  tags and notifications. */
export interface RmWords {
  /** One recorded event, in a sentence: "RM-cell event". */
  event: string;
  /** The same, short, as the search button says it: "RM event". */
  short: string;
  /** What the connection filter picks. */
  connection: string;
  /** A source's rate, as its charts name it: "ACR", or an Ethernet host's "rate limit". */
  sourceRate: string;
  /** The rate a forward/backward marker carries: an RM cell's "ER", a rate-discovery tag's "tag rate". */
  er: string;
  /** What carries it to the destination and back: "RM cell", "rate-discovery frame". */
  cell: string;
  /** What the destination does with it: ATM's "turned around", FECN's "reflected". */
  turned: string;
  /** Whose loop a cell makes, as a cell's panel says it: "the loop of S1". */
  loopOf: (origin: string) => string;
  /** A marker of each phase, as the Network view's legend names it and a sentence says it
   *  ("reflected rate-discovery frame"): a noun phrase, the phase first as ATM's is. */
  phase: Record<Phase, string>;
}

const NOTIFICATION = 'QCN congestion notification';
export const ATM_WORDS: RmWords = {
  event: 'RM-cell event',
  short: 'RM event',
  connection: 'connection',
  sourceRate: 'ACR',
  er: 'ER',
  cell: 'RM cell',
  turned: 'turned around',
  loopOf: (origin) => `the loop of ${origin}`,
  phase: { forward: 'forward RM cell', backward: 'backward RM cell', notification: NOTIFICATION },
};
/** QA: an Ethernet run's log said "RM-cell events" of frames that carry tags or notifications. */
export const ETHERNET_WORDS: RmWords = {
  event: 'feedback event',
  short: 'feedback event',
  connection: 'flow',
  sourceRate: 'rate limit',
  er: 'tag rate',
  cell: 'rate-discovery frame',
  turned: 'reflected',
  // QA: "the loop of EP1" is ATM's word for where a frame goes and comes back from.
  loopOf: (origin) => `sent by ${origin}, reflected back to it`,
  // QA: "Rate-discovery frame, reflected of F0" read as a list, not a name.
  phase: { forward: 'forward rate-discovery frame', backward: 'reflected rate-discovery frame', notification: NOTIFICATION },
};

export const rmWords = (ethernet: boolean): RmWords => (ethernet ? ETHERNET_WORDS : ATM_WORDS);

/** Why a "next RM event" search found nothing: the engine refused it (its reason: the field
 *  and the rule), the run ended first, or it was stopped. */
export function rmNotFoundText(
  found: RmQuery & { ended: boolean; problem?: Problem | null },
  paths: readonly string[] = [],
  words: RmWords = ATM_WORDS,
): string {
  const what = rmQueryText(found, paths, words);
  if (found.problem) return `Cannot search for the next ${what}: ${found.problem.path}: ${found.problem.rule}.`;
  return found.ended ? `The run ended with no further ${what}.` : `Stopped searching for the next ${what}.`;
}

/**
 * What a filter can pick for a field: the ids the scenario declares (`known`, in their order),
 * then any other the events carry, sorted. A connection filter picks a loop (`loopName`): a
 * connection or a virtual path.
 */
export function filterOptions(records: readonly RmRecord[], field: 'connection' | 'node', known: readonly string[]): string[] {
  // Once each: a virtual path may share its id with a connection.
  const seen = new Set(known);
  const extra = new Set<string>();
  for (const r of records) {
    const id = field === 'connection' ? loopName(r) : r.node;
    if (!seen.has(id)) extra.add(id);
  }
  return [...seen, ...[...extra].sort(NATURALLY.compare)];
}

/** Numbers in names compared as numbers: S2 before S10. */
const NATURALLY = new Intl.Collator('en', { numeric: true });
const KIND_ORDER: Record<string, number> = { source: 0, switch: 1, destination: 2 };

/**
 * A network's nodes as the event log's node filter lists them: sources, switches, then
 * destinations, each in natural order (S1, S2, …, S16: gfc1's file lists S1–S15, D1–D15,
 * S16, …).
 */
export function nodeFilterOrder(nodes: readonly { id: string; kind: string }[]): string[] {
  return [...nodes].sort((a, b) => (KIND_ORDER[a.kind] ?? 3) - (KIND_ORDER[b.kind] ?? 3) || NATURALLY.compare(a.id, b.id)).map((n) => n.id);
}

/** Index (in a newest-first list) of the event nearest to `timeUs`; -1 for an empty list. */
export function nearestRow(newestFirst: readonly RmRecord[], timeUs: number): number {
  let lo = 0;
  let hi = newestFirst.length - 1;
  if (hi < 0) return -1;
  // Times decrease with the index: find the first row at or before timeUs.
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (newestFirst[mid].time_us > timeUs) lo = mid + 1;
    else hi = mid;
  }
  const before = lo > 0 ? newestFirst[lo - 1] : null;
  return before && Math.abs(before.time_us - timeUs) < Math.abs(newestFirst[lo].time_us - timeUs) ? lo - 1 : lo;
}

/** How the log shows a rate: the charts' unit for the network (Mbps on ATM, Gbps on Ethernet)
 *  and the factor from the engine's Mbps to it. */
export type RateUnit = DisplayUnit;

export const MBPS: RateUnit = { unit: 'Mbps', scale: 1 };

/** A rate of the log (Mbps, null: unknown) in `unit`: two decimals below 1000 of it, one above. */
export function rateText(mbps: number | null, unit: RateUnit = MBPS): string {
  if (mbps === null) return '—';
  // Two decimals below 1000, as the switch explanation writes them (139.97, not 140.0).
  const v = mbps * unit.scale;
  return v.toFixed(v >= 1000 ? 1 : 2);
}

/** A column of the log: its id (`RmColumnId`), its heading and what the heading's hover says. */
export type RmColumnId = 'time' | 'loop' | 'seq' | 'node' | 'direction' | 'er' | 'ccr' | 'flags' | 'by' | 'acr';
export interface RmColumn {
  id: RmColumnId;
  label: string;
  title?: string;
}

/** The kinds of feedback the switches of a scenario give (the catalogue's `feedback`, the
 *  network's default algorithm for a switch that names none). */
export function scenarioFeedback(s: Pick<Scenario, 'nodes'> & Partial<Pick<Scenario, 'ethernet'>> | null | undefined, catalogue: Pick<Catalogue, 'algorithms' | 'default_algorithm'> | null | undefined): Set<Feedback> {
  const out = new Set<Feedback>();
  if (!s || !catalogue) return out;
  for (const n of s.nodes) {
    if (n.kind !== 'switch') continue;
    const id = algorithmOf(s, n, catalogue.default_algorithm);
    const f = catalogue.algorithms.find((a) => a.id === id)?.feedback;
    if (f) out.add(f);
  }
  return out;
}

/**
 * What moves along a network's links, by phase: ATM's forward and backward RM cells; on
 * Ethernet, FECN's rate-discovery frames (forward, reflected) where a switch tags them and QCN's
 * notifications where one sends them (QA: the Network view of qcn-hotspot named rate-discovery
 * frames "labelled with their ER, Mbps" that it never draws).
 */
export function cellPhases(ethernet: boolean, feedback: ReadonlySet<Feedback>): Phase[] {
  if (!ethernet) return ['forward', 'backward'];
  return [...(feedback.has('rate_tag') ? (['forward', 'backward'] as const) : []), ...(feedback.has('notification') ? (['notification'] as const) : [])];
}

/** What the Network view says moves along the links: "RM cells", "QCN notifications", … */
export function movingText(ethernet: boolean, feedback: ReadonlySet<Feedback>): string {
  if (!ethernet) return 'RM cells';
  const tags = feedback.has('rate_tag') ? 'rate-discovery frames' : '';
  const notes = feedback.has('notification') ? 'QCN notifications' : '';
  const text = [tags, notes].filter(Boolean).join(' and ') || 'control frames';
  return text[0].toUpperCase() + text.slice(1);
}

/**
 * A marker of the Network view: its label (the rate it carries, in `rate`'s unit that the legend
 * names; "CN" for a notification) and its name for a screen reader, in the network's words:
 * "Backward RM cell of C1, ER 69.98 Mbps", "Reflected rate-discovery frame of F0, tag rate
 * 4.21 Gbps", "QCN congestion notification for F3, feedback |Fb| 63" (a switch sends it to F3's
 * host: it is for the flow, not one of its own frames).
 */
export function markerText(phase: Phase, loop: string, r: Pick<RmRecord, 'er_in_mbps' | 'er_out_mbps' | 'feedback'>, words: RmWords = ATM_WORDS, rate: RateUnit = MBPS): { label: string; name: string } {
  const label = r.er_out_mbps === null ? (phase === 'notification' ? 'CN' : '') : rateText(r.er_out_mbps, rate);
  const carried = r.feedback !== null ? `, feedback ${erText(r)}` : r.er_out_mbps === null ? '' : `, ${words.er} ${rateText(r.er_out_mbps, rate)} ${rate.unit}`;
  const what = words.phase[phase];
  const whose = phase === 'notification' ? 'for' : 'of';
  return { label, name: `${what[0].toUpperCase()}${what.slice(1)} ${whose} ${loop}${carried}` };
}

/**
 * What the Network view's legend says of a phase's marker, and of its label as `markerText`
 * writes it: a forward marker carries the rate the switches have left in it so far (the
 * source's PCR until one lowers it), a backward one the rate it brings back, and both are
 * labelled with it; a notification is labelled "CN" (QA: the legend said only backward cells
 * were labelled, and forward ones showed "155.52").
 */
export function markerLegend(phase: Phase, words: RmWords = ATM_WORDS, rate: RateUnit = MBPS): string {
  if (phase === 'notification') return `${words.phase.notification}, from the switch to the source (labelled CN)`;
  return `${words.phase[phase]} (labelled with the ${words.er} it carries, ${rate.unit})`;
}

/**
 * The log's columns for a network, as its charts show it: ATM's RM cells (ER, CCR, CI/NI and
 * the source's ACR, in `rate`'s unit), or Ethernet's frames (in Gbps, as its charts): FECN's
 * rate-discovery tags (the rate a switch wrote in, the rate the source sent at) and QCN's
 * notifications (their quantised feedback |Fb|, no unit); an Ethernet run has no CI/NI, and a
 * column only one of them fills is shown only when the run has it.
 */
export function rmLogColumns(ethernet: boolean, feedback: ReadonlySet<Feedback>, rate: RateUnit): RmColumn[] {
  const u = rate.unit;
  const head: RmColumn[] = [
    { id: 'time', label: 't (ms)' },
    { id: 'loop', label: ethernet ? 'flow' : 'conn' },
    { id: 'seq', label: '#', title: ethernet ? 'The number of the tag (or notification) among its flow’s' : 'The number of the RM cell among its connection’s' },
    { id: 'node', label: 'node' },
    { id: 'direction', label: 'direction' },
  ];
  if (!ethernet) {
    return [
      ...head,
      { id: 'er', label: `ER (${u})`, title: 'Explicit rate as the cell came → as it left' },
      { id: 'ccr', label: `CCR (${u})`, title: 'The current cell rate the source wrote in the cell' },
      { id: 'flags', label: 'CI/NI' },
      { id: 'by', label: 'lowered by' },
      {
        id: 'acr',
        label: `source ACR (${u})`,
        title: "The source's allowed rate before and after it applied the cell it received (TM 4.0: a CI cuts ACR by RDF, else it rises by RIF × PCR; either way at most ER and PCR)",
      },
    ];
  }
  const tags = feedback.has('rate_tag');
  const notes = feedback.has('notification');
  const er = [tags ? `tag rate (${u})` : '', notes ? 'feedback |Fb|' : ''].filter(Boolean).join(' / ');
  const erTitle = [
    tags ? 'FECN: the rate in the rate-discovery tag as it came → as it left (a switch writes the lower of its rate and the tag’s)' : '',
    notes ? 'QCN: the quantised feedback |Fb| (1–63, no unit) of a congestion notification' : '',
  ]
    .filter(Boolean)
    .join('; ');
  return [
    ...head,
    ...(er ? [{ id: 'er' as const, label: er, title: erTitle }] : []),
    ...(tags ? [{ id: 'ccr' as const, label: `sent at (${u})`, title: 'The rate limit of the source when it tagged the frame' }] : []),
    ...(tags ? [{ id: 'by' as const, label: 'lowered by' }] : []),
    {
      id: 'acr',
      label: `rate limit (${u})`,
      title: "The host's rate limit before and after it applied what it received (a reflected tag's rate, or a notification's cut)",
    },
  ];
}

/** Who lowered ER, in the UI's words: the algorithm's catalogue name ("ERICA+"), "the virtual
 *  source" (a VS/VD loop's), else as recorded (the trace and its CSV keep the id). */
export function lowererName(by: string, algorithms: readonly { id: string; name: string }[]): string {
  return algorithms.find((a) => a.id === by)?.name ?? (by === 'virtual_source' ? 'the virtual source' : by);
}

/** ER as the cell came and as it left: "69.98 → 35.00", or one number when unchanged; a
 *  notification's feedback, which has no unit: "|Fb| 63" (QCN's quantised feedback). */
export function erText(r: Pick<RmRecord, 'er_in_mbps' | 'er_out_mbps' | 'feedback'>, unit: RateUnit = MBPS): string {
  if (r.feedback !== null) return `|Fb| ${r.feedback}`;
  return r.er_in_mbps === r.er_out_mbps ? rateText(r.er_out_mbps, unit) : `${rateText(r.er_in_mbps, unit)} → ${rateText(r.er_out_mbps, unit)}`;
}

/** The source's allowed rate before and after a cell it received: "25.00 → 69.98" (in `unit`),
 *  or "" on any other event (or when the trace does not know it). */
export function acrText(r: Pick<RmRecord, 'acr_before_mbps' | 'acr_after_mbps'>, unit: RateUnit = MBPS): string {
  if (r.acr_before_mbps === null || r.acr_after_mbps === null) return '';
  return `${rateText(r.acr_before_mbps, unit)} → ${rateText(r.acr_after_mbps, unit)}`;
}

/** CI/NI flags as the cell left: "CI", "NI", "CI NI" or "". */
export function flagsText(r: RmRecord): string {
  return [r.ci ? 'CI' : '', r.ni ? 'NI' : ''].filter(Boolean).join(' ');
}

/** A time of the log (µs) in ms, to the µs. */
export function timeText(timeUs: number): string {
  return (timeUs / 1000).toFixed(3);
}
