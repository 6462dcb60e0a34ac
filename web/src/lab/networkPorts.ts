// What the Network view draws at each switch output port, apart from React: the port's series
// (queue, utilisation) by index in the sample rows, its buffer, and the algorithm's marks on the
// queue bar (ERICA+'s target queue, Series-D's Q1…Q4, EFCI's thresholds, EPRCA's QT/DQT,
// DEBRA's discard threshold, FECN/QCN's Qeq), read from the scenario's parameters (with their
// live changes up to the time shown) or else the engine catalogue's defaults. Queues are in the
// engine's queue unit: cells on ATM, frames on Ethernet (a byte parameter is divided by the
// frame size).

import type { Catalogue, ParamSpec, SeriesMeta } from '../contract/engine';
import type { Scenario } from '../contract/scenario';
import { paramAt } from '../scenario/params';
import { algorithmOf, bufferNameOf } from '../scenario/switchEdits';

/** Bits of an ATM cell (53 bytes): a link of C Mbps carries C·10⁶/424 cells/s. */
const CELL_BITS = 424;

/** One mark on a queue bar: where (in queue units) and what it is. */
export interface QueueMark {
  /** The parameter it comes from (`target_delay_us`, `q1_cells`…). */
  param: string;
  /** Short label drawn at the mark ("T0·C", "Q1", "Qeq"). */
  label: string;
  /** Position in the queue's unit (cells or frames). */
  at: number;
}

/** What a switch output port shows. */
export interface PortView {
  /** `SW1->SW2`. */
  port: string;
  switchId: string;
  /** The node the port leads to. */
  to: string;
  /** The algorithm id, and its name as the catalogue gives it, whole and where room is short
   *  (`Uniform Tracking`, `UT`). */
  algorithm: string;
  algorithmName: string;
  algorithmShort: string;
  /** The buffer, in `unit`. */
  buffer: number;
  unit: 'cells' | 'frames';
  marks: QueueMark[];
  /** Column of the port's queue series in the store (-1: none), and of its utilisation. */
  queueIndex: number;
  utilIndex: number;
}

/** How each algorithm's queue parameters become marks: the parameter, its label, and whether
 *  it is a time (µs at the port's rate), a count of cells, or bytes. */
const MARKS: Record<string, { param: string; label: string; as: 'delay_us' | 'cells' | 'bytes' }[]> = {
  erica_plus: [{ param: 'target_delay_us', label: 'T0·C', as: 'delay_us' }],
  series_d: [
    { param: 'q1_cells', label: 'Q1', as: 'cells' },
    { param: 'q2_cells', label: 'Q2', as: 'cells' },
    { param: 'q3_cells', label: 'Q3', as: 'cells' },
    { param: 'q4_cells', label: 'Q4', as: 'cells' },
  ],
  efci: [
    { param: 'low_threshold_cells', label: 'low', as: 'cells' },
    { param: 'high_threshold_cells', label: 'high', as: 'cells' },
  ],
  eprca: [
    { param: 'queue_threshold_cells', label: 'QT', as: 'cells' },
    { param: 'dqt_cells', label: 'DQT', as: 'cells' },
  ],
  debra: [{ param: 'discard_threshold_cells', label: 'discard', as: 'cells' }],
  fecn: [{ param: 'qeq_bytes', label: 'Qeq', as: 'bytes' }],
  qcn: [{ param: 'qeq_bytes', label: 'Qeq', as: 'bytes' }],
};

/**
 * The marks of `algorithm` on a port of `rateMbps`, from `valueOf(param)` (the scenario's value,
 * undefined: the catalogue default in `specs`). `frameBytes`: the Ethernet frame size (null on
 * ATM). A mark whose parameter has no value at all is left out.
 */
export function queueMarks(
  algorithm: string,
  valueOf: (param: string) => number | undefined,
  specs: readonly ParamSpec[],
  rateMbps: number,
  frameBytes: number | null,
): QueueMark[] {
  return (MARKS[algorithm] ?? []).flatMap(({ param, label, as }) => {
    const v = valueOf(param) ?? specs.find((s) => s.name === param)?.default ?? null;
    if (v === null || !Number.isFinite(v)) return [];
    let at: number;
    if (as === 'delay_us') {
      // T0 × link rate, in the port's unit.
      const bitsPerUnit = frameBytes === null ? CELL_BITS : frameBytes * 8;
      at = (v * rateMbps) / bitsPerUnit;
    } else if (as === 'bytes') at = frameBytes === null ? v / 53 : v / frameBytes;
    else at = v;
    return [{ param, label, at }];
  });
}

/**
 * Every switch output port of the scenario that has a queue series (the ports toward sources
 * carry only backward RM cells and have none), in the order of the series; each with its buffer,
 * its algorithm and its marks as they stand at `atMs` (live parameter changes included).
 */
export function portViews(scenario: Scenario, catalogue: Catalogue, meta: readonly SeriesMeta[], atMs: number): PortView[] {
  const frameBytes = scenario.ethernet ? (scenario.ethernet.frame_bytes ?? catalogue.fields.ethernet.find((f) => f.name === 'frame_bytes')?.default ?? 1500) : null;
  const bufferName = bufferNameOf(scenario);
  const bufferDefault = catalogue.fields.switch.find((f) => f.name === bufferName)?.default ?? 0;
  const nodes = new Map(scenario.nodes.map((n) => [n.id, n]));
  const rate = new Map<string, number>();
  for (const l of scenario.links) {
    rate.set(`${l.from}->${l.to}`, l.rate_mbps);
    rate.set(`${l.to}->${l.from}`, l.rate_mbps);
  }
  const utilIndex = new Map<string, number>();
  meta.forEach((m, i) => m.kind === 'utilization' && utilIndex.set(m.owner, i));
  const out: PortView[] = [];
  meta.forEach((m, i) => {
    if (m.kind !== 'queue') return;
    const [switchId, to] = m.owner.split('->');
    const node = nodes.get(switchId);
    if (!node || to === undefined) return;
    const algorithm = algorithmOf(scenario, node, catalogue.default_algorithm);
    const spec = catalogue.algorithms.find((a) => a.id === algorithm);
    const rawBuffer = Number(node[bufferName] ?? bufferDefault);
    out.push({
      port: m.owner,
      switchId,
      to,
      algorithm,
      algorithmName: spec?.name ?? algorithm,
      algorithmShort: spec?.short_name ?? algorithm,
      buffer: frameBytes === null ? rawBuffer : rawBuffer / frameBytes,
      unit: frameBytes === null ? 'cells' : 'frames',
      marks: queueMarks(algorithm, (p) => paramAt(scenario, switchId, p, atMs), spec?.params ?? [], rate.get(m.owner) ?? 0, frameBytes),
      queueIndex: i,
      utilIndex: utilIndex.get(m.owner) ?? -1,
    });
  });
  return out;
}

/** Where a queue (or a mark) sits on its bar: the share of the buffer, within [0, 1]. */
export function barFraction(value: number, buffer: number): number {
  if (!(buffer > 0) || !Number.isFinite(value)) return 0;
  return Math.min(1, Math.max(0, value / buffer));
}

/** Ports of one switch toward destinations shown as one row of its card (`SW2->DD1` … `SW2->DD6`). */
export interface PortGroup {
  /** `SW2->DD1–DD6`: the row's key, for the painter and the tests. */
  key: string;
  switchId: string;
  /** `DD1–DD6`, `DB1–DB3, DE1–DE6` or `9 destinations` (rangesLabel). */
  label: string;
  /** Every destination, however many runs (`DB1, DB3, DE1–DE6, X`; namesText): the row's
   *  tooltip and accessible name, where its label is a count or cut short by the card. */
  names: string;
  /** `names` with each run's last name shortened to its number (`DB1, Q7, DB3, DE1–6`): a row
   *  too narrow for the names says this. */
  short: string;
  ports: PortView[];
}

/** A row of a switch card: a port, or its ports toward destinations together. */
export type CardRow = { port: PortView; group?: undefined } | { group: PortGroup; port?: undefined };

/** A switch with this many ports toward destinations or more shows them as one row. */
export const GROUP_FROM_PORTS = 3;

/**
 * A switch card's rows, in the order of `ports` (one switch's). Ports toward destinations
 * (`isDestination`) mostly hold a cell at most, and a switch with many of them (GFC-1's egress
 * switches: six each) would draw a tall card of empty bars that shrinks the whole drawing. So at
 * GROUP_FROM_PORTS or more they share one row, where the first of them was, that shows the
 * largest of their queues — unless `expanded`, or their bars differ (buffer, unit or marks:
 * one bar could not show them all).
 */
export function cardRows(ports: readonly PortView[], isDestination: (node: string) => boolean, expanded = false): CardRow[] {
  const members = ports.filter((p) => isDestination(p.to));
  const bar = (p: PortView) => JSON.stringify([p.buffer, p.unit, p.marks.map((m) => [m.param, m.at.toPrecision(6)])]);
  const alike = members.every((p) => bar(p) === bar(members[0]));
  if (expanded || members.length < GROUP_FROM_PORTS || !alike) return ports.map((port) => ({ port }));
  const label = rangesLabel(members.map((p) => p.to));
  const group: PortGroup = { key: `${members[0].switchId}->${label}`, switchId: members[0].switchId, label, names: namesText(members.map((p) => p.to)), short: namesText(members.map((p) => p.to), true), ports: members };
  const rows: CardRow[] = [];
  for (const port of ports) {
    if (port === members[0]) rows.push({ group });
    else if (!members.includes(port)) rows.push({ port });
  }
  return rows;
}

/**
 * Names as runs of one prefix and consecutive numbers (`DD1–DD6`; `DB1–DB3, DE1–DE6`; a name
 * alone when its run has one), or their count when that takes more than two runs.
 */
export function rangesLabel(names: readonly string[]): string {
  const runs = nameRuns(names);
  return runs.length > 2 ? `${names.length} destinations` : runs.join(', ');
}

/** Names as runs (rangesLabel's), all of them, however many: `DB1, DB3, DE1–DE6, X`; `short`:
 *  a run's last name as its number alone, `DE1–6`. */
export function namesText(names: readonly string[], short = false): string {
  return nameRuns(names, short).join(', ');
}

function nameRuns(names: readonly string[], short = false): string[] {
  const runs: { prefix: string; to: number; first: string; last: string }[] = [];
  for (const name of names) {
    const m = /^(.*?)(\d+)$/.exec(name);
    const prev = runs[runs.length - 1];
    if (m && prev && prev.prefix === m[1] && Number(m[2]) === prev.to + 1) {
      prev.to += 1;
      prev.last = name;
    } else runs.push({ prefix: m ? m[1] : name, to: m ? Number(m[2]) : NaN, first: name, last: name });
  }
  return runs.map((r) => (r.first === r.last ? r.first : `${r.first}–${short ? r.to : r.last}`));
}

/** The largest of a group's queues in a sample (`value` of a column; NaN: no value yet). */
export function groupQueue(group: PortGroup, value: (column: number) => number): number {
  let most = NaN;
  for (const p of group.ports) {
    const q = value(p.queueIndex);
    if (!Number.isNaN(q) && !(q <= most)) most = q;
  }
  return most;
}

/**
 * The switches' algorithms in one line, for presenting, where a card's head has room for the
 * switch's name alone: "Switches: ERICA+" when every switch runs one, else each switch's, in
 * the order of `ports` ("Switches: SW1 ERICA+, SW2 EPRCA"); '' without ports.
 */
export function switchAlgorithmsText(ports: readonly Pick<PortView, 'switchId' | 'algorithmName'>[]): string {
  const bySwitch = new Map<string, string>();
  for (const p of ports) if (!bySwitch.has(p.switchId)) bySwitch.set(p.switchId, p.algorithmName);
  const names = new Set(bySwitch.values());
  if (names.size === 0) return '';
  if (names.size === 1) return `Switches: ${[...names][0]}`;
  return `Switches: ${[...bySwitch].map(([id, name]) => `${id} ${name}`).join(', ')}`;
}
