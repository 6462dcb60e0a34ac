// RM cells as the Network view draws them, from the RM-cell trace (lab/rmLog.ts), apart from
// React: the trace's records grouped into cells (one cell = one RM cell's loop, from `sent` to
// `received`), where each cell is at a given time (between which two nodes, how far along), and
// a cell's journey (where it turned around, which switches lowered its ER, by how much).
//
// A record names its connection (and, for a virtual path's own cells, which travel under a
// member connection, the path: `vp`) and `rm_seq`, but the loops of one connection each number
// their own cells (a VS/VD switch starts a loop; a QCN switch numbers its notifications apart),
// so the same (connection, rm_seq) can be two cells at once. Records are matched to cells in time
// order: `sent` (or `notification`) opens a cell at its node; any other record joins the open
// cell of the same (connection or path, rm_seq) that is in the right phase (forward before the
// turnaround, backward after) and was last seen at this node or a neighbour, the oldest first;
// `received` closes it, and so does `lost` (a full buffer dropped it at the node of its last
// record). A `received` record also tells the source's ACR after the cell (acrAt).

import type { RmDirection, RmRecord } from '../contract/engine';
import { ATM_WORDS, erText, ETHERNET_WORDS, loopName, MBPS, rateText, timeText, type Phase, type RateUnit, type RmWords } from './rmLog';
import { textHash } from '../scenario/storage';

export type { Phase };

export interface RmCell {
  /** Unique in a run, and the same in any index of it that holds the cell's first record (one
   *  cut back as the run went back, one built afresh from the records the log keeps): its loop,
   *  number, first node and time, `<connection>/<rm_seq>@<first node>@<µs>` (`vp:<path>/…` for
   *  a path's). A cell picked is followed by it across a scrub. */
  id: string;
  /** The connection it travels under. */
  connection: string;
  /** The virtual path whose own cell it is, or ''. */
  vp: string;
  seq: number;
  /** The node whose loop it is (the source or virtual source that sent it, the switch that
   *  notified), or the first node it was seen at when its start is no longer kept. */
  origin: string;
  /** Its records, oldest first. */
  records: RmRecord[];
  closed: boolean;
}

/** Where a record leaves the cell: forward before its turnaround, backward after. */
export function phaseAfter(d: RmDirection): Phase {
  if (d === 'sent' || d === 'forward') return 'forward';
  if (d === 'notification') return 'notification';
  return 'backward';
}

/** Where a record leaves its cell (phaseAfter), a switch's notification passing another
 *  switch on its way back (`backward` with BN = 1) still a notification: its phase is its kind. */
export function recordPhase(r: Pick<RmRecord, 'direction' | 'bn'>): Phase {
  return r.direction === 'backward' && r.bn ? 'notification' : phaseAfter(r.direction);
}

/** The phase a cell must be in for record `r` to join it: a `backward` or `received` record
 *  with BN = 1 continues a notification (QCN's, passing a switch between the one that sent it
 *  and the source, or home), one without a backward RM cell. */
function phaseBefore(r: Pick<RmRecord, 'direction' | 'bn'>): Phase {
  if (r.direction === 'forward' || r.direction === 'turnaround') return 'forward';
  if (r.direction === 'backward') return r.bn ? 'notification' : 'backward';
  // Received: a notification's (BN = 1), or a backward RM cell's (a connection through a FECN
  // and a QCN switch has both, numbered apart: one number can be one of each at once).
  return r.bn ? 'notification' : 'backward';
}

/** What adding one record changed, to take it back (`RmCellIndex.cut`). */
interface Added {
  cell: RmCell;
  /** The record opened its cell. */
  opened: boolean;
  /** The key of the hop it ended (LearntHops), or null. */
  hop: string | null;
  /** It closed its cell. */
  closed: boolean;
  /** It gave its source's ACR. */
  acr: boolean;
}

/**
 * The cells of one run's trace, built incrementally: `add` the records as they come (oldest
 * first). `neighbours(a)` are the nodes linked to `a` (for matching, see above). `cut(n)` takes
 * back all but the first `n` records added, as if only those had come (a run going back in
 * time): what each record changed is journalled, for the newest `journal` records.
 */
export class RmCellIndex {
  /** Every cell, in the order opened. */
  readonly cells: RmCell[] = [];
  private open = new Map<string, RmCell[]>();
  private byRecord = new WeakMap<RmRecord, RmCell>();
  private opened = 0;
  /** The hops the cells of each loop made from each node, to place a cell whose next record
   *  has not come by the time drawn (LearntHops). */
  readonly hops = new LearntHops();
  /** Each connection's ACR at its source as its `received` records give it (after the cell),
   *  oldest first: times (µs) and rates (Mbps). */
  private acrs = new Map<string, { us: number[]; mbps: number[] }>();
  /** What the newest records added changed, oldest first; `journalFrom` is the number (among
   *  the records added) of its first. */
  private changes: Added[] = [];
  private journalFrom = 0;
  /** The order each cell was opened in (open lists keep it). */
  private openedAs = new WeakMap<RmCell, number>();
  /** Records added (and not cut). */
  private count = 0;
  /** Changes with every record added or taken back and every forgetting (a drawing's key). */
  version = 0;

  constructor(
    private readonly neighbours: (node: string) => ReadonlySet<string>,
    private readonly journal = 30_000,
  ) {}

  add(records: readonly RmRecord[]) {
    if (records.length) this.version += 1;
    for (const r of records) this.addOne(r);
    // Trimmed in chunks: a steady stream costs one copy per quarter of the journal.
    const over = this.changes.length - this.journal;
    if (over > this.journal / 4) {
      this.changes = this.changes.slice(over);
      this.journalFrom += over;
    }
  }

  /** Records added (and not cut). */
  get size(): number {
    return this.count;
  }

  /**
   * Keeps the first `n` records added, as if the others had never come; false (and nothing
   * changed) if that reaches back past the journal: the caller builds the index afresh. Cells
   * forgotten since (forgetBefore) stay forgotten: the caller takes back no record older than
   * the time it forgot them before.
   */
  cut(n: number): boolean {
    if (n >= this.count) return true;
    if (n < this.journalFrom) return false;
    this.version += 1;
    while (this.count > n) {
      const a = this.changes.pop()!;
      this.count -= 1;
      const r = a.cell.records.pop()!;
      this.byRecord.delete(r);
      const key = cellKey(r.connection, r.vp, r.rm_seq);
      // (Forgetting may have taken its reading already, with every older one.)
      const readings = a.acr ? this.acrs.get(r.connection) : undefined;
      if (readings && readings.us[readings.us.length - 1] === r.time_us) {
        readings.us.pop();
        readings.mbps.pop();
        if (readings.us.length === 0) this.acrs.delete(r.connection);
      }
      if (a.closed) {
        // Back among the open cells in the order they were opened (the oldest is matched first).
        a.cell.closed = false;
        const list = this.open.get(key) ?? [];
        const n = this.openedAs.get(a.cell)!;
        let at = list.length;
        while (at > 0 && this.openedAs.get(list[at - 1])! > n) at--;
        list.splice(at, 0, a.cell);
        this.open.set(key, list);
      }
      if (a.hop !== null) this.hops.pop(a.hop);
      if (a.opened) {
        this.cells.pop();
        this.opened -= 1;
        const list = this.open.get(key)!;
        list.pop();
        if (list.length === 0) this.open.delete(key);
      }
    }
    return true;
  }

  /**
   * `connection`'s ACR at its source at `us` as the trace last told it (null: no reading): the
   * rate a backward RM cell left it at, at the latest `received` at or before `us`. The samples
   * come every sample interval; between two, this one can be newer.
   */
  acrAt(connection: string, us: number): { us: number; mbps: number } | null {
    const a = this.acrs.get(connection);
    if (!a) return null;
    let lo = 0;
    let hi = a.us.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (a.us[mid] <= us + SAME_TIME_US) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? null : { us: a.us[lo - 1], mbps: a.mbps[lo - 1] };
  }

  /** The cell a record belongs to. */
  cellOf(r: RmRecord): RmCell | undefined {
    return this.byRecord.get(r);
  }

  /**
   * Forgets the oldest cells whose last record is before `us` (their records are no longer kept),
   * closed or not: a cell a full buffer dropped never closes.
   */
  forgetBefore(us: number) {
    let k = 0;
    while (k < this.cells.length && this.cells[k].records[this.cells[k].records.length - 1].time_us < us) {
      const c = this.cells[k++];
      if (c.closed) continue;
      const key = cellKey(c.connection, c.vp, c.seq);
      const list = this.open.get(key)?.filter((o) => o !== c) ?? [];
      if (list.length) this.open.set(key, list);
      else this.open.delete(key);
    }
    if (k > 0) {
      this.cells.splice(0, k);
      this.version += 1;
    }
    // The hops that ended before any kept cell set out, but for the last of each (the hop the
    // oldest kept cell learns from).
    this.hops.forgetBefore(Math.min(us, this.cells[0]?.records[0].time_us ?? us));
    // The ACR readings before `us`, but for the last one (the rate until the next).
    for (const a of this.acrs.values()) {
      let n = 0;
      while (n + 1 < a.us.length && a.us[n + 1] <= us) n++;
      if (n > 0) {
        a.us.splice(0, n);
        a.mbps.splice(0, n);
      }
    }
  }

  private addOne(r: RmRecord) {
    let acr = false;
    if (r.direction === 'received' && r.acr_after_mbps !== null) {
      acr = true;
      const a = this.acrs.get(r.connection) ?? { us: [], mbps: [] };
      a.us.push(r.time_us);
      a.mbps.push(r.acr_after_mbps);
      this.acrs.set(r.connection, a);
    }
    const key = cellKey(r.connection, r.vp, r.rm_seq);
    const list = this.open.get(key) ?? [];
    let cell: RmCell | undefined;
    if (r.direction === 'lost') {
      // Dropped where its last record was written (it had just entered that node's port).
      cell = list.find((c) => c.records[c.records.length - 1].node === r.node);
    } else if (r.direction !== 'sent' && r.direction !== 'notification') {
      const want = phaseBefore(r);
      const near = this.neighbours(r.node);
      const fits = (c: RmCell) => {
        const last = c.records[c.records.length - 1];
        const phase = recordPhase(last);
        const phaseOk = phase === want;
        // A loop never turns around at its own start (a VS/VD switch's own cells pass it).
        if (r.direction === 'turnaround' && c.origin === r.node) return false;
        // A cell comes from a neighbour, except where its own source sends it on (sent, then
        // forward, at one node) or takes it in (backward, then received).
        const here = last.node === r.node && ((r.direction === 'forward' && last.direction === 'sent') || r.direction === 'received');
        return phaseOk && (here || near.has(last.node));
      };
      // A cell is received where its loop started (a virtual source's just after its backward
      // record there): that one first.
      const home = r.direction === 'received' || r.direction === 'backward';
      cell = (home && list.find((c) => c.origin === r.node && fits(c))) || list.find(fits);
    }
    const opened = !cell;
    let hop: string | null = null;
    if (!cell) {
      ++this.opened;
      cell = { id: `${key}@${r.node}@${r.time_us}`, connection: r.connection, vp: r.vp, seq: r.rm_seq, origin: r.node, records: [], closed: false };
      this.cells.push(cell);
      list.push(cell);
      this.open.set(key, list);
    } else {
      const last = cell.records[cell.records.length - 1];
      if (last.node !== r.node) {
        hop = hopKey(cell, last);
        this.hops.push(hop, { next: r.node, us: r.time_us - last.time_us, fromUs: last.time_us, toUs: r.time_us });
      }
    }
    cell.records.push(r);
    this.byRecord.set(r, cell);
    const closed = r.direction === 'received' || r.direction === 'lost';
    if (closed) {
      cell.closed = true;
      list.splice(list.indexOf(cell), 1);
      if (list.length === 0) this.open.delete(key);
    }
    if (opened) this.openedAs.set(cell, this.opened);
    this.changes.push({ cell, opened, hop, closed, acr });
    this.count += 1;
  }
}

/** A hop a cell made from a node: to `next`, setting out at `fromUs` (its record there),
 *  arriving at `toUs` (its record at `next`), `us` later (µs). */
export interface LearntHop {
  next: string;
  us: number;
  fromUs: number;
  toUs: number;
}

/**
 * The hops the cells of each loop made, by `<loop>|<origin>|<node>|<phase>` (hopKey), in the
 * order their records came (the order they ended). A cell learns only from the hops that ended
 * by the time it set out (`before`), never from one that ended later: what is drawn at a time
 * then depends only on the records at or before it, the same while a run plays (a later record
 * not come yet) as after a scrub back (it has), and a cell is never drawn back along its way
 * when a slower hop of the cell ahead (a queue building) ends. Every hop since the oldest cell
 * kept set out is kept, as the cells' records are (forgetBefore).
 */
export class LearntHops {
  private lists = new Map<string, { hops: LearntHop[]; /** The latest `fromUs` among the hops up to each. */ latestFromUs: number[] }>();

  push(key: string, hop: LearntHop) {
    let l = this.lists.get(key);
    if (!l) this.lists.set(key, (l = { hops: [], latestFromUs: [] }));
    l.hops.push(hop);
    l.latestFromUs.push(Math.max(hop.fromUs, l.latestFromUs.at(-1) ?? -Infinity));
  }

  /** Each key's hops, oldest first (for tests). */
  *[Symbol.iterator](): IterableIterator<[string, readonly LearntHop[]]> {
    for (const [key, l] of this.lists) yield [key, l.hops];
  }

  /** Takes back the newest hop of `key` (its record taken back: RmCellIndex.cut). */
  pop(key: string) {
    const l = this.lists.get(key);
    if (!l) return;
    l.hops.pop();
    l.latestFromUs.pop();
    if (l.hops.length === 0) this.lists.delete(key);
  }

  /** The number of hops of `key` that ended at or before `us`. */
  private endedBy(key: string, us: number): number {
    const hops = this.lists.get(key)?.hops;
    if (!hops) return 0;
    let lo = 0;
    let hi = hops.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (hops[mid].toUs <= us + SAME_TIME_US) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The latest hop of `key` that ended at or before `us` (undefined: none). */
  before(key: string, us: number): LearntHop | undefined {
    const n = this.endedBy(key, us);
    return n === 0 ? undefined : this.lists.get(key)!.hops[n - 1];
  }

  /**
   * The least `length` of the hops of `key` that ended after `sinceUs` and by `us` (undefined:
   * none): what the hop took the cells of its loop ahead of a cell that set out at `sinceUs` (a
   * port keeps a loop's cells in order), newer than what it learnt when it set out (`before`),
   * each as `length` weighs it (its `us` unless told). Of at most `SINCE_HOPS` of them, the first
   * to end: as `us` goes on the answer only shortens.
   */
  shortestSince(key: string, sinceUs: number, us: number, length: (h: LearntHop) => number = (h) => h.us): number | undefined {
    const hops = this.lists.get(key)?.hops;
    if (!hops) return undefined;
    const from = this.endedBy(key, sinceUs);
    const to = Math.min(this.endedBy(key, us), from + SINCE_HOPS);
    let best = Infinity;
    for (let i = from; i < to; i++) best = Math.min(best, length(hops[i]));
    return best === Infinity ? undefined : best;
  }

  /** Whether a hop of `key` that set out after `sinceUs` had ended by `us`: a later cell of the
   *  loop made the hop a cell at the node since `sinceUs` has not (cells of a loop keep their
   *  order: that one never will; the trace missed its end). */
  madeSince(key: string, sinceUs: number, us: number): boolean {
    const n = this.endedBy(key, us);
    return n > 0 && this.lists.get(key)!.latestFromUs[n - 1] > sinceUs + SAME_TIME_US;
  }

  /** Forgets the hops that ended before `us`, but for the latest of each key. */
  forgetBefore(us: number) {
    for (const [key, l] of this.lists) {
      let n = 0;
      while (n + 1 < l.hops.length && l.hops[n + 1].toUs < us) n++;
      if (n === 0) continue;
      l.hops.splice(0, n);
      l.latestFromUs = [];
      for (const h of l.hops) l.latestFromUs.push(Math.max(h.fromUs, l.latestFromUs.at(-1) ?? -Infinity));
      this.lists.set(key, l);
    }
  }
}

/** The hops that ended since a cell set out that it reads (LearntHops.shortestSince): the cells
 *  of its loop ahead of it on one hop are rarely more. */
const SINCE_HOPS = 256;

/** Whose loop: a path's own cells apart from their carrier connection's (ids hold no ':'). */
const loopKey = (connection: string, vp: string) => (vp ? `vp:${vp}` : connection);
const cellKey = (connection: string, vp: string, seq: number) => `${loopKey(connection, vp)}/${seq}`;
const hopKey = (cell: RmCell, r: RmRecord) => `${loopKey(cell.connection, cell.vp)}|${cell.origin}|${r.node}|${recordPhase(r)}`;

/** Where a cell is at a time: on its way from `from` to `to` (the same node: at it), `fraction`
 *  of the way, in `phase`; `record` is its latest record at or before that time. */
export interface CellAt {
  cell: RmCell;
  from: string;
  to: string;
  fraction: number;
  phase: Phase;
  record: RmRecord;
  /** On its way to a node its records have not told by the time (the hop learnt or the
   *  network's): false at a node. */
  guessed: boolean;
}

/** The hop a cell makes next from its record `r` (at r.node, in `phase`), as the network tells
 *  it at `us`, the time drawn: before any cell of its loop has made it, and where its queue then
 *  was longer than the one the cell that made it had (the painter's: the next node of its
 *  route, over that link's delay, one cell's transmission and the port's queue then, µs);
 *  `travelUs`, the link's part of any hop to `next` (its delay and one cell's transmission: the
 *  rest is a wait in the queue); `leftByUs`, when it has left the port's queue at the latest as
 *  what the network recorded after `r` and by `us` tells (the painter's: a sample of the queue
 *  at s holding q cells, a cell there then gone by s + q cells' transmission), read from
 *  nothing later than `us`, so that it only comes earlier as `us` goes on; `sampledUs`, the
 *  time of what `us` read the queue from (the painter's sample before `r`); undefined where it
 *  tells none. */
export type HopGuess = (
  cell: RmCell,
  r: RmRecord,
  phase: Phase,
  us: number,
) => { next: string; us: number; travelUs?: number; leftByUs?: number; sampledUs?: number } | undefined;

/**
 * Times this close (µs: the engine's picosecond) are the same: a time shown in ms (an event
 * picked, `time_us / 1000`; the engine's `nowMs`) and back in µs can land a rounding before
 * the record it is the time of.
 */
export const SAME_TIME_US = 1e-6;

/** How far along a hop whose next record has not come a cell is drawn at most: short of the
 *  next node (it is there when its record is). */
export const GUESS_REACH = 0.95;

/**
 * Where `cell` is at `us`, from its records at or before `us` and nothing later (causal): null
 * before its first record, after it was received, or when a later cell of its loop is known to
 * have made the hop it is on (cells of a loop keep their order: this one never will, the trace
 * missed its end). From its latest record it goes by the hop the cells of its loop last made
 * from there before it set out (`hops.before`), or the network's hop (`guess`: where none of
 * its loop made it yet, and where the port's queue, sampled since that hop set out, makes it
 * longer: the newer of the two tells): it waits at its node for
 * the hop's queue part (the hop less the link's, `travelUs`), moves along the lane over the
 * link's part, and then stays where it got to, short of the next node (GUESS_REACH), however
 * late (in a queue: the engine records a cell a full buffer drops, `lost`), until its record
 * there comes. What is recorded after it set out, up to `us`, is followed where it says the
 * cell is further on, never where it says it is further back: the quickest hop the cells of its
 * loop ahead of it made since (`hops.shortestSince`; a port keeps a loop's cells in order, so it
 * is never drawn behind one that came after it), and the port's samples since (`leftByUs`: the
 * queue it joined sent). So what is drawn at a time is the same whatever records later than it
 * have come (a run playing, the trace ahead of the shown time by a flush or not; a scrub back),
 * and a cell's progress along its route never falls as the time goes on: it only jumps forward,
 * to where a newer record puts it (`rmCellsCausal.test.ts` states these as properties). Every
 * kind of cell takes the network's hop (a forward or backward RM cell, a switch's notification
 * on its way back to the source); a cell nothing tells the way of (no guess: a node off its
 * connection's route, a link the network does not draw; no cell of its loop made the hop) waits
 * at the node of its last record until it is known to have left.
 * QA: two-sources with EFCI paused at 30 ms, its forward cells 50 µs in SW1's queue, were drawn
 * 95 % of the way to SW2 while still queued (now: the network's longer hop, its queue at SW1);
 * gfc1's first cells ran 95 % along a 1000 km link and jumped back to their switch, and a cell
 * late on a learnt hop did the same (now: it stays where it got to); gfc1's first cells, queued
 * at a switch longer than four typical hops, vanished (now: drawn while they wait). An event
 * picked is always drawn where it happened.
 */
export function cellAt(cell: RmCell, us: number, hops: RmCellIndex['hops'] | null = null, guess: HopGuess | null = null): CellAt | null {
  const rs = cell.records;
  const atOrAfter = us + SAME_TIME_US;
  if (rs.length === 0 || atOrAfter < rs[0].time_us) return null;
  // The latest record at or before `us` (records are in time order); those after it are not
  // read: they are not known at `us`.
  let i = rs.length - 1;
  while (i > 0 && rs[i].time_us > atOrAfter) i--;
  const r = rs[i];
  if (r.direction === 'received' || r.direction === 'lost') return null;
  const phase = recordPhase(r);
  const key = hopKey(cell, r);
  if (hops?.madeSince(key, r.time_us, us)) return null;
  const learnt = hops?.before(key, r.time_us);
  // No cell of its loop had made this hop when it set out (a loop's first cells, a whole round
  // trip on a WAN; a switch's first notifications to a source): the network's own hop, where it
  // tells one (the link toward the next node of the route, and the port's queue), else it waits
  // at its node. QA: qcn-hotspot's first notifications waited at SW1 and vanished.
  const network = guess?.(cell, r, phase, us);
  // (A hop its loop made since it set out, where neither tells the way.)
  const next = learnt?.next ?? network?.next ?? hops?.before(key, us)?.next;
  if (next === undefined) return { cell, from: r.node, to: r.node, fraction: 0, phase, record: r, guessed: false };
  const told = network?.next === next ? network : undefined;
  // A hop of its loop against the port's sample the network read: the newer of the two tells
  // the queue. A hop that set out by the sample tells no more than the sample does: where the
  // sample's queue is longer, the network's pace (a queue building since that cell went: QA,
  // gfc1 at 12 ms, the first cells of a queue growing to 971 cells, out quickly, let the cells
  // behind them out of it). One that set out after it met the queue the sample only foretold:
  // its own time (QA: the sample, up to 500 µs older, said "1 cell", and forward cells waited a
  // cell time at every switch behind cells ahead that had met no queue).
  const paced = (h: LearntHop) => (told?.sampledUs !== undefined && h.fromUs <= told.sampledUs ? Math.max(h.us, told.us) : h.us);
  let hopUs = learnt?.next === next ? paced(learnt) : (told?.us ?? Infinity);
  // Newer records than those, up to the time drawn, are followed where they tell it was quicker
  // (never slower: a cell is not drawn back). A cell of its loop ahead of it made the hop in
  // less since (a queue that had drained; QA: on a hop learnt from a more congested moment, a
  // cell sat in its queue while the cells after it went by): that hop, paced as above; and a
  // sample since says it has left its queue (`leftByUs`).
  const since = hops?.shortestSince(key, r.time_us, us, (h) => (h.next !== next ? Infinity : paced(h)));
  if (since !== undefined) hopUs = Math.min(hopUs, since);
  // The link's part of the hop (where the network tells it) is the move along the lane; the
  // rest is a wait in the port's queue, drawn at the node (QA: a cell 40 µs in SW1's queue
  // crept along the link instead).
  const travelUs = told?.travelUs !== undefined ? Math.min(hopUs, told.travelUs) : hopUs;
  let waitUs = hopUs - travelUs;
  if (told?.leftByUs !== undefined) waitUs = Math.max(0, Math.min(waitUs, told.leftByUs - r.time_us));
  const goneUs = us - r.time_us - waitUs;
  if (goneUs < 0) return { cell, from: r.node, to: r.node, fraction: 0, phase, record: r, guessed: false };
  const fraction = travelUs > 0 ? Math.min(GUESS_REACH, goneUs / travelUs) : 0;
  return { cell, from: r.node, to: next, fraction, phase, record: r, guessed: true };
}

/**
 * The cells under way at `us`, newest first, from those opened within `lookbackUs` before it (a
 * loop takes at most that long). When more than `max` are under way, an
 * even share of them over the whole look-back, not the newest `max`: on a long loop the newest
 * are all near its start, and the cells coming back are as much the loop. The share is drawn by
 * a hash of each cell's id, so a cell shown stays shown from frame to frame, and a coarser share
 * (more cells under way) keeps a subset of a finer one. A cell named in `keep` (the one picked, the
 * one with the keyboard's focus) is kept whatever its hash.
 */
export function cellsAt(
  index: RmCellIndex,
  us: number,
  lookbackUs: number,
  max: number,
  keep: readonly (string | null | undefined)[] = [],
  guess: HopGuess | null = null,
): CellAt[] {
  return shareOf(cellsUnderWay(index, us, lookbackUs, guess), max, keep);
}

/** Every cell under way at `us`, newest first (cellsAt before its share: what counts them). */
export function cellsUnderWay(index: RmCellIndex, us: number, lookbackUs: number, guess: HopGuess | null = null): CellAt[] {
  const out: CellAt[] = [];
  const cells = index.cells;
  // Cells are in the order opened, so by first record time: skip those opened after `us`.
  let hi = cells.length;
  let lo = 0;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cells[mid].records[0].time_us <= us + SAME_TIME_US) lo = mid + 1;
    else hi = mid;
  }
  for (let k = lo - 1; k >= 0; k--) {
    const c = cells[k];
    if (c.records[0].time_us < us - lookbackUs) break;
    const at = cellAt(c, us, index.hops, guess);
    if (at) out.push(at);
  }
  return out;
}

/** At most `max` of the cells under way (`out`), as cellsAt draws them. */
export function shareOf(out: CellAt[], max: number, keep: readonly (string | null | undefined)[] = []): CellAt[] {
  if (out.length <= max) return out;
  // One cell in `share` (a power of two): the fewest left out that still fit.
  for (let share = 2; ; share *= 2) {
    const kept = out.filter((a) => cellHash(a.cell) % share === 0 || keep.includes(a.cell.id));
    if (kept.length <= max) return kept;
    // A share far finer than the cells: the few left are there by chance; the newest of them.
    if (share > 4 * out.length) return kept.slice(0, max);
  }
}

/** The latest cell that set out by a time, where none is under way (lastLoop). */
export interface LastLoop {
  cell: RmCell;
  /** Its first record and its last at or before the time (µs). */
  fromUs: number;
  toUs: number;
  /** A time it is drawn on its way (µs): halfway between those two, on the hop under way then
   *  (a loop's middle is mostly its turnaround, where it sets out on its way back). */
  showUs: number;
}

/**
 * The cell that set out last at or before `us` (null: none recorded). On a LAN an RM cell or a
 * frame goes round in a few µs, and the next sets out a millisecond later: a paused run shows
 * none under way at most times, and the view offers to show this one instead (QA: slowed down
 * on a paused qcn-hotspot, nothing was drawn at all).
 */
export function lastLoop(index: RmCellIndex, us: number): LastLoop | null {
  const cells = index.cells;
  for (let k = cells.length - 1; k >= 0; k--) {
    const rs = cells[k].records;
    if (rs[0].time_us > us + SAME_TIME_US) continue;
    let i = rs.length - 1;
    while (i > 0 && rs[i].time_us > us + SAME_TIME_US) i--;
    const fromUs = rs[0].time_us;
    const toUs = rs[i].time_us;
    return { cell: cells[k], fromUs, toUs, showUs: (fromUs + toUs) / 2 };
  }
  return null;
}

/**
 * What the Network view says where nothing is under way, naming the latest cell (lastLoop) in
 * the network's words: "Nothing under way now. The latest, RM cell #14 of C1, took 21.0 µs
 * (19.950 → 19.971 ms)."
 */
export function lastLoopText(last: LastLoop, words: RmWords = ATM_WORDS): string {
  const c = last.cell;
  const notification = c.records[0].direction === 'notification';
  const name = notification ? `${words.phase.notification} #${c.seq} for ${loopName(c)}` : `${words.cell} #${c.seq} of ${loopName(c)}`;
  const us = last.toUs - last.fromUs;
  const span = us < 1000 ? `${us.toFixed(1)} µs` : `${(us / 1000).toFixed(3)} ms`;
  return `Nothing under way now. The latest, ${name}, took ${span} (${timeText(last.fromUs)} → ${timeText(last.toUs)} ms).`;
}

const hashes = new WeakMap<RmCell, number>();

/**
 * A cell's loop and RM sequence number hashed (`textHash`): the same cell, the same number, in
 * any index of the run, even one that holds only the end of its loop. Not its id, which also
 * holds where and when the index first saw it (and once held a counter of the cells opened,
 * which differed between an index cut back and one built afresh: the view opened again drew
 * another share of the cells). The segments of a VS/VD loop share a number, so they are shown
 * or left out together.
 */
export function cellHash(cell: RmCell): number {
  let h = hashes.get(cell);
  if (h === undefined) hashes.set(cell, (h = textHash(cellKey(cell.connection, cell.vp, cell.seq))));
  return h;
}

/** One stop of a cell's journey: its record's fields, and how much ER fell there (Mbps; 0 when
 *  it did not, null when unknown). */
export type JourneyStop = Pick<
  RmRecord,
  'time_us' | 'node' | 'direction' | 'er_in_mbps' | 'er_out_mbps' | 'by' | 'feedback' | 'acr_before_mbps' | 'acr_after_mbps' | 'ci' | 'ni' | 'bn'
> & {
  loweredMbps: number | null;
  /** The bits set at this stop (clear as the cell came, set as it left): who marked it. */
  set: ('CI' | 'NI')[];
};

export interface Journey {
  stops: JourneyStop[];
  /** Where it turned around (null: not yet, or a notification, which never does). */
  turnedAt: string | null;
  /** The stops that lowered ER, in order. */
  lowered: JourneyStop[];
  /** ER as it was sent and as it last left a node (null: unknown). */
  erSentMbps: number | null;
  erNowMbps: number | null;
  /** Whether it reached the node whose loop it closes. */
  complete: boolean;
  /** Where a full buffer dropped it (null: it was not). */
  lostAt: string | null;
}

/** A cell's journey: its stops, where it turned around, where and by whom its ER was lowered. */
export function journeyOf(cell: RmCell): Journey {
  const stops: JourneyStop[] = cell.records.map((r, i) => {
    const lowered = r.er_in_mbps !== null && r.er_out_mbps !== null ? Math.max(0, r.er_in_mbps - r.er_out_mbps) : null;
    // A cell first seen mid-way came with what it had: a bit counts as set where it is seen set
    // after a record without it.
    const before = i > 0 ? cell.records[i - 1] : null;
    const set = before ? ([r.ci && !before.ci ? 'CI' : null, r.ni && !before.ni ? 'NI' : null].filter(Boolean) as ('CI' | 'NI')[]) : [];
    return { ...r, loweredMbps: lowered, set };
  });
  const turned = cell.records.find((r) => r.direction === 'turnaround');
  const first = cell.records[0];
  const last = cell.records[cell.records.length - 1];
  return {
    stops,
    turnedAt: turned?.node ?? null,
    lowered: stops.filter((s) => (s.loweredMbps ?? 0) > 0),
    erSentMbps: first.er_in_mbps ?? first.er_out_mbps,
    erNowMbps: last.er_out_mbps,
    complete: cell.closed && last.direction !== 'lost',
    lostAt: last.direction === 'lost' ? last.node : null,
  };
}

/** Rates this close (Mbps) are the same: the trace's rates are the engine's, rounded by nothing. */
const SAME_RATE_MBPS = 1e-6;

/**
 * Why an ATM source's ACR moved when it received a backward RM cell, by TM 4.0's rules 8 and 9
 * (reference/algorithms.md §1.2): CI = 1 cuts it by RDF; CI = 0 and NI = 0 let it rise by RIF ×
 * PCR at most; NI = 1 alone lets it neither rise nor fall by that rule; then ER caps it (never
 * below MCR). Told from the stop's own numbers (ACR before and after, the ER it brought, its
 * bits), naming the rule that set the new ACR: "CI = 1: cut by RDF", "CI = 0, NI = 0: up to ER",
 * "NI = 1: no increase; down to ER", … '' when the trace has no ACR for it.
 */
export function acrReason(s: Pick<JourneyStop, 'acr_before_mbps' | 'acr_after_mbps' | 'er_out_mbps' | 'ci' | 'ni'>): string {
  const before = s.acr_before_mbps;
  const after = s.acr_after_mbps;
  if (before === null || after === null) return '';
  const er = s.er_out_mbps;
  const atEr = er !== null && Math.abs(after - er) <= SAME_RATE_MBPS * Math.max(1, er);
  const up = after > before + SAME_RATE_MBPS;
  const down = after < before - SAME_RATE_MBPS;
  // Held above ER: the source's MCR is the floor (rule 9).
  const floor = er !== null && after > er + SAME_RATE_MBPS * Math.max(1, er) ? '; held at MCR, above ER' : '';
  if (s.ci) return `CI = 1: cut by RDF${atEr && !floor ? ', then down to ER' : ''}${floor}`;
  if (s.ni) return `NI = 1: no increase${down && atEr ? '; down to ER' : ''}${floor}`;
  if (floor) return `CI = 0, NI = 0${floor}`;
  if (atEr) return up ? 'CI = 0, NI = 0: up to ER (at most RIF × PCR more)' : down ? 'CI = 0, NI = 0: down to ER' : 'CI = 0, NI = 0: at ER';
  return up ? 'CI = 0, NI = 0: up by RIF × PCR (at most PCR, below ER)' : 'CI = 0, NI = 0: at PCR';
}

/** The nodes linked to each node (for RmCellIndex). */
export function neighboursOf(links: readonly { from: string; to: string }[]): (node: string) => ReadonlySet<string> {
  const map = new Map<string, Set<string>>();
  const add = (a: string, b: string) => {
    const s = map.get(a) ?? new Set<string>();
    s.add(b);
    map.set(a, s);
  };
  for (const l of links) {
    add(l.from, l.to);
    add(l.to, l.from);
  }
  const empty = new Set<string>();
  return (node) => map.get(node) ?? empty;
}

/** An RM cell's fields as the trace has them, as it left its latest node at or before `us`. */
export interface CellFields {
  /** DIR: forward (0) before its turnaround, backward (1) after; or a switch's notification. */
  dir: Phase;
  erMbps: number | null;
  ccrMbps: number | null;
  ci: boolean;
  ni: boolean;
  /** Backward notification: made by a switch, not turned around by the destination. */
  bn: boolean;
  /** The record they are read from. */
  at: RmRecord;
}

export function fieldsAt(cell: RmCell, us: number): CellFields | null {
  const rs = cell.records;
  let i = rs.length - 1;
  while (i >= 0 && rs[i].time_us > us) i--;
  if (i < 0) return null;
  const r = rs[i];
  // A lost cell keeps the direction it was going in.
  const way = r.direction === 'lost' && i > 0 ? rs[i - 1] : r;
  return { dir: recordPhase(way), erMbps: r.er_out_mbps, ccrMbps: r.ccr_mbps, ci: r.ci, ni: r.ni, bn: r.bn, at: r };
}

/** A field of a cell as the Network view's panel lists it: its name, what it says, and the
 *  `data-name` it is found by. */
export interface CellFieldRow {
  name: string;
  label: string;
  value: string;
}

const ATM_DIR = { forward: 'forward (DIR = 0)', backward: 'backward (DIR = 1)', notification: 'congestion notification' } as const;
const ETHERNET_DIR = { forward: 'forward', backward: 'reflected', notification: 'congestion notification' } as const;

/**
 * A cell's fields in its network's words (rmWords) and unit (`rate`): an ATM RM cell's
 * DIR, ER, CCR, CI, NI and BN; a rate-discovery frame's direction, tag rate and the rate it was
 * sent at; a QCN notification's quantised feedback |Fb| (no rate, no CI/NI/BN: Ethernet has
 * none). QA: qcn-hotspot's notification listed ER —, CCR —, CI 0, NI 0, BN 1.
 */
export function cellFields(f: CellFields, ethernet = false, rate: RateUnit = MBPS): CellFieldRow[] {
  const r = (mbps: number | null) => (mbps === null ? '—' : `${rateText(mbps, rate)} ${rate.unit}`);
  const bit = (b: boolean) => (b ? '1' : '0');
  if (!ethernet) {
    return [
      { name: 'dir', label: 'DIR', value: ATM_DIR[f.dir] },
      { name: 'er', label: 'ER', value: r(f.erMbps) },
      { name: 'ccr', label: 'CCR', value: r(f.ccrMbps) },
      { name: 'ci', label: 'CI', value: bit(f.ci) },
      { name: 'ni', label: 'NI', value: bit(f.ni) },
      { name: 'bn', label: 'BN', value: bit(f.bn) },
    ];
  }
  const dir = { name: 'dir', label: 'direction', value: ETHERNET_DIR[f.dir] };
  if (f.dir === 'notification') return [dir, { name: 'feedback', label: 'feedback', value: f.at.feedback === null ? '—' : erText(f.at) }];
  return [dir, { name: 'er', label: ETHERNET_WORDS.er, value: r(f.erMbps) }, { name: 'ccr', label: 'sent at', value: r(f.ccrMbps) }];
}
