// "A switch explains itself": which ports of a switch can be asked, the request kept while a
// port is picked (asked again whenever the paused run is at a new time), and the generic
// presentation of any algorithm's Explain record (its quantities, and its per-VC table).

import type { Explain, Problem, Quantity } from '../contract/engine';
import type { Scenario } from '../contract/scenario';
import type { RunStatus } from '../engine/protocol';
import { routeOf } from '../scenario/topologyEdits';

/** The output ports of a switch (`SW1->SW2`), one per link to another node: those carrying
 *  the most connections' data first (their algorithm has the most to explain), ties in link
 *  order with the ones toward a source last (they carry only backward RM cells). */
export function switchPorts(s: Scenario, switchId: string): string[] {
  const kind = new Map(s.nodes.map((n) => [n.id, n.kind]));
  const others = s.links.flatMap((l) => (l.from === switchId ? [l.to] : l.to === switchId ? [l.from] : []));
  const unique = [...new Set(others)];
  const ordered = [...unique.filter((o) => kind.get(o) !== 'source'), ...unique.filter((o) => kind.get(o) === 'source')];
  const carried = new Map<string, number>();
  for (const c of s.connections) {
    const route = routeOf(s, c);
    const at = route.indexOf(switchId);
    if (at >= 0 && at + 1 < route.length) carried.set(route[at + 1], (carried.get(route[at + 1]) ?? 0) + 1);
  }
  // A stable sort: ties keep the order above.
  return ordered.sort((a, b) => (carried.get(b) ?? 0) - (carried.get(a) ?? 0)).map((o) => `${switchId}->${o}`);
}

/** Whether a CBR/VBR background connection crosses the output port `SW1->SW2` (its route
 *  goes from the one node to the other). */
export function portCarriesBackground(s: Scenario, port: string): boolean {
  const [from, to] = port.split('->');
  return s.connections.some((c) => {
    if (!c.background) return false;
    const route = routeOf(s, c);
    const at = route.indexOf(from);
    return at >= 0 && route[at + 1] === to;
  });
}

/**
 * An explanation as the port's traffic makes it read: where no CBR/VBR background crosses the
 * port, the VBR rate its labels subtract is nought and goes (QA: ERICA said "Target rate U·C −
 * VBR" in scenarios without background). Only the labels change, never a value.
 */
export function withoutAbsentVbr(e: Explain, background: boolean): Explain {
  if (background) return e;
  const plain = (label: string) => label.replace('·(C − VBR)', '·C').replace(/ − VBR\b/g, '');
  const relabel = (q: Quantity): Quantity => (q.label.includes('VBR') ? { ...q, label: plain(q.label) } : q);
  return { ...e, values: e.values.map(relabel), vcs: e.vcs.map((vc) => ({ ...vc, values: vc.values.map(relabel) })) };
}

/** What the inspector shows of an explanation (null: none asked for). */
export interface Explanation {
  switchId: string;
  port: string;
  explain: Explain | null;
  problem: Problem | null;
}

/** A quantity's value with its unit ("69.98 Mbps", "0.90", "yes"); "—" when undefined. */
export function quantityText(q: Quantity): string {
  if (q.value === null) return '—';
  if (q.unit === '0/1') return q.value ? 'yes' : 'no';
  const v = q.value;
  const digits = Number.isInteger(v) ? 0 : Math.abs(v) >= 1000 ? 1 : Math.abs(v) >= 10 ? 2 : 3;
  const num = v.toFixed(digits);
  // A count of one is said in the singular ("1 cell", not "1 cells").
  const unit = v === 1 && (q.unit === 'cells' || q.unit === 'frames') ? q.unit.slice(0, -1) : q.unit;
  return unit ? `${num} ${unit}` : num;
}

/** The per-VC table of an explanation: one column per quantity (by name, in first-seen order,
 *  headed by its label and unit), one row per VC; a VC without a quantity shows "". */
export function vcTable(e: Explain): { columns: { name: string; label: string }[]; rows: { connection: string; cells: string[] }[] } {
  const columns: { name: string; label: string }[] = [];
  const seen = new Set<string>();
  for (const vc of e.vcs)
    for (const q of vc.values)
      if (!seen.has(q.name)) {
        seen.add(q.name);
        columns.push({ name: q.name, label: q.unit && q.unit !== '0/1' ? `${q.label} (${q.unit})` : q.label });
      }
  const rows = e.vcs.map((vc) => {
    const byName = new Map(vc.values.map((q) => [q.name, q]));
    return { connection: vc.connection, cells: columns.map((c) => cellText(byName.get(c.name))) };
  });
  return { columns, rows };
}

/** Whether the record says nothing (an algorithm that writes no feedback, such as `none`). */
export function explainsNothing(e: Explain): boolean {
  return !e.rule && e.values.length === 0 && e.vcs.length === 0;
}

/** A table cell: the value without its unit (the column heading has it). */
function cellText(q: Quantity | undefined): string {
  if (!q) return '';
  return quantityText(q.unit === '0/1' ? q : { ...q, unit: '' });
}

/** Whether the run is stopped, so an explanation describes the moment shown. */
export function explainable(status: RunStatus | null): boolean {
  return !!status && (status.mode === 'paused' || status.mode === 'done');
}

/** A switch output port to explain. */
export type ExplainTarget = { switchId: string; port: string };

/**
 * The port the inspectors ask about, asked again whenever the stopped run is at a new time (a
 * step, a pause, the next RM event) or a new run starts. Several inspectors may hold a port at
 * once (the side panel's, and the full-screen Network view's over it): the one that picked last
 * is asked about; when it lets go, the one before it is asked about again.
 */
export class ExplainRequests {
  /** Each holder's port, the latest pick last. */
  private held = new Map<string, ExplainTarget>();
  private askedAt: { run: number; nowMs: number } | null = null;
  private id = 0;
  /** The id of the last request sent (answers to older ones are stale). */
  latest = 0;

  constructor(private readonly ask: (id: number, switchId: string, port: string) => void) {}

  /** `holder` picks a port (null: lets go) and, if the port asked about changed, it is asked at
   *  once when the run is stopped. */
  pick(holder: string, target: ExplainTarget | null, status: RunStatus | null) {
    const before = this.picked;
    this.held.delete(holder);
    if (target) this.held.set(holder, target);
    const now = this.picked;
    if (before?.switchId === now?.switchId && before?.port === now?.port) return;
    this.askedAt = null;
    this.refresh(status);
  }

  /** The port asked about (the latest pick's), or null. */
  get picked(): ExplainTarget | null {
    let last: ExplainTarget | null = null;
    for (const t of this.held.values()) last = t;
    return last;
  }

  /** Asks again if the stopped run is at another time than last asked. */
  refresh(status: RunStatus | null) {
    const target = this.picked;
    if (!target || !status || !explainable(status)) return;
    if (this.askedAt && this.askedAt.run === status.run && this.askedAt.nowMs === status.nowMs) return;
    this.askedAt = { run: status.run, nowMs: status.nowMs };
    this.latest = ++this.id;
    this.ask(this.latest, target.switchId, target.port);
  }
}
