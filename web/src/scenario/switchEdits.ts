// Edits of one switch in a scenario, as pure functions (scenario in, new scenario out, the
// input untouched). Which edits need a reload and which apply live is decided by the Lab
// (app/lab.ts); this file only knows the document.

import type { AlgorithmSpec, DefaultAlgorithms, ParamSpec, Problem } from '../contract/engine';
import type { Discard, ParamChange, Scenario, ScenarioNode, Scheduler } from '../contract/scenario';

/**
 * The buffer field of a switch: cells on ATM, bytes on Ethernet, as the engine's catalogue
 * declares it (`fields.switch`: unit, default, range, meaning).
 */
export interface BufferField {
  name: 'buffer_cells' | 'buffer_bytes';
  unit: string;
  default: number;
  min?: number;
  max?: number;
  meaning?: string;
}

/** Used only before the catalogue has arrived. */
const BUFFER_FALLBACK = {
  buffer_cells: { unit: 'cells', default: 1000 },
  buffer_bytes: { unit: 'bytes', default: 600_000 },
};

export function bufferFieldOf(s: Scenario, settings: readonly ParamSpec[] = []): BufferField {
  const name = networkOf(s) === 'ethernet' ? 'buffer_bytes' : 'buffer_cells';
  const spec = settings.find((p) => p.name === name);
  if (!spec) return { name, ...BUFFER_FALLBACK[name] };
  return {
    name,
    unit: spec.unit,
    default: spec.default ?? BUFFER_FALLBACK[name].default,
    min: spec.min,
    max: spec.max,
    meaning: spec.meaning,
  };
}

/** The switch's buffer as the scenario sets it (undefined: the default). */
export function bufferOf(s: Scenario, node: ScenarioNode): number | undefined {
  const v = node[bufferFieldOf(s).name];
  return v === undefined ? undefined : Number(v);
}

export const SCHEDULERS: { id: Scheduler; label: string }[] = [
  { id: 'fifo', label: 'FIFO (one queue per port)' },
  { id: 'per_vc', label: 'Per-VC queues, round-robin' },
];

/** The schedulers the engine offers (its catalogue's list, in its order), with their labels. */
export function schedulersFor(ids: readonly string[] | undefined): { id: Scheduler; label: string }[] {
  if (!ids) return SCHEDULERS;
  return ids.map((id) => SCHEDULERS.find((s) => s.id === id) ?? { id: id as Scheduler, label: id });
}

/** The kind of network a scenario describes: Ethernet when it has Ethernet settings, else ATM. */
export function networkOf(s: Scenario): 'atm' | 'ethernet' {
  return s.ethernet ? 'ethernet' : 'atm';
}

/** The algorithm a switch runs when the scenario names none: the engine's default for the
 *  network, from its catalogue (`default_algorithm`). */
export function defaultAlgorithm(s: Pick<Scenario, 'ethernet'>, defaults: DefaultAlgorithms): string {
  return s.ethernet ? defaults.ethernet : defaults.atm;
}

/** The algorithm a switch runs: its own, else the engine's default for the network. */
export function algorithmOf(s: Pick<Scenario, 'ethernet'>, node: Pick<ScenarioNode, 'algorithm'>, defaults: DefaultAlgorithms): string {
  return node.algorithm ?? defaultAlgorithm(s, defaults);
}

/** The catalogue's algorithms that run on the scenario's network, in catalogue order. */
export function algorithmsFor(algorithms: AlgorithmSpec[], s: Scenario): AlgorithmSpec[] {
  const net = networkOf(s);
  return algorithms.filter((a) => a.network === 'both' || a.network === net);
}

function editNode(s: Scenario, id: string, fn: (n: ScenarioNode) => ScenarioNode): Scenario {
  if (!s.nodes.some((n) => n.id === id && n.kind === 'switch')) throw new Error(`no switch has id '${id}'`);
  return { ...s, nodes: s.nodes.map((n) => (n.id === id ? fn({ ...n }) : n)) };
}

function withoutKey<T extends object, K extends keyof T>(o: T, key: K): T {
  const copy = { ...o };
  delete copy[key];
  return copy;
}

/**
 * Gives a switch another algorithm. Its parameters start again from the new algorithm's
 * defaults, and its recorded changes are dropped (they name the old algorithm's parameters).
 */
export function withAlgorithm(s: Scenario, node: string, algorithm: string): Scenario {
  const edited = editNode(s, node, (n) => withoutKey({ ...n, algorithm }, 'params'));
  const changes = (s.changes ?? []).filter((c) => c.node !== node);
  return changes.length ? { ...edited, changes } : withoutKey(edited, 'changes');
}

export function withScheduler(s: Scenario, node: string, scheduler: Scheduler): Scenario {
  return editNode(s, node, (n) => ({ ...n, scheduler }));
}

/** Sets a switch's buffer per output port (cells on ATM, bytes on Ethernet); null = the default. */
export function withBuffer(s: Scenario, node: string, size: number | null): Scenario {
  const { name } = bufferFieldOf(s);
  // buffer_bytes is a u64 in the engine, typed bigint by ts-rs; in JSON it is a plain number.
  return editNode(s, node, (n) => (size === null ? withoutKey(n, name) : ({ ...n, [name]: size } as ScenarioNode)));
}

/** Sets a parameter's starting value (null = the catalogue default). */
export function withParam(s: Scenario, node: string, param: string, value: number | null): Scenario {
  return editNode(s, node, (n) => {
    const params = { ...(n.params ?? {}) };
    if (value === null) delete params[param];
    else params[param] = value;
    return Object.keys(params).length ? { ...n, params } : withoutKey(n, 'params');
  });
}

/** Makes a switch a virtual source / virtual destination for its ABR connections, or not (ATM only). */
export function withVsvd(s: Scenario, node: string, on: boolean): Scenario {
  return editNode(s, node, (n) => (on ? { ...n, vsvd: true } : withoutKey(n, 'vsvd')));
}

/** Whether a discard policy uses the EPD threshold (EPD alone or with PPD). */
export const usesEpdThreshold = (discard: Discard) => discard === 'epd' || discard === 'epd_ppd';

export const DISCARDS: { id: Discard; label: string }[] = [
  { id: 'tail', label: 'Tail drop' },
  { id: 'epd', label: 'EPD (early packet discard)' },
  { id: 'ppd', label: 'PPD (partial packet discard)' },
  { id: 'epd_ppd', label: 'EPD + PPD' },
];

/** Sets a switch's discard policy (ATM only); `tail`, the engine's default, is left implicit. */
export function withDiscard(s: Scenario, node: string, discard: Discard): Scenario {
  return editNode(s, node, (n) => (discard === 'tail' ? withoutKey(n, 'discard') : { ...n, discard }));
}

/** Sets a switch's EPD threshold in cells (null = the default, 90 % of the buffer). */
export function withEpdThreshold(s: Scenario, node: string, cells: number | null): Scenario {
  return editNode(s, node, (n) => (cells === null ? withoutKey(n, 'epd_threshold_cells') : { ...n, epd_threshold_cells: cells }));
}

/** The EPD threshold the engine uses when none is set: 90 % of the buffer, in whole cells. */
export function defaultEpdThreshold(bufferCells: number): number {
  return Math.floor(bufferCells * 0.9);
}

/** Reads the EPD threshold field: empty = the default; else a whole number of cells in 0 – buffer. */
export function parseEpdThresholdInput(
  bufferCells: number,
  text: string,
): { ok: true; value: number | null } | { ok: false; rule: string } {
  const t = text.trim();
  if (t === '') return { ok: true, value: null };
  const v = Number(t);
  if (!Number.isInteger(v) || v < 0 || v > bufferCells) {
    return { ok: false, rule: `epd_threshold_cells must be a whole number of cells in 0 – ${bufferCells} (the buffer) (got “${t}”)` };
  }
  return { ok: true, value: v };
}

/**
 * Reads the buffer field: empty = the default; else a whole number ≥ 1 (the engine checks the
 * bounds and says so at the field).
 */
export function parseBufferInput(
  field: BufferField,
  text: string,
): { ok: true; value: number | null } | { ok: false; rule: string } {
  const t = text.trim();
  if (t === '') return { ok: true, value: null };
  const v = Number(t);
  const min = field.min ?? 1;
  if (!Number.isInteger(v) || v < min) {
    return { ok: false, rule: `${field.name} must be a whole number of ${field.unit} ≥ ${min} (got “${t}”)` };
  }
  if (field.max !== undefined && v > field.max) {
    return { ok: false, rule: `${field.name} must be at most ${field.max} ${field.unit} (got “${t}”)` };
  }
  return { ok: true, value: v };
}

/** The scenario without the changes recorded during runs. */
export function withoutChanges(s: Scenario): Scenario {
  return withoutKey(s, 'changes');
}

/** How many recorded changes an algorithm change on this switch would drop. */
export function changesOf(s: Scenario, node: string): ParamChange[] {
  return (s.changes ?? []).filter((c) => c.node === node);
}

/** "at 40.00 ms: SW1 target_utilization → 0.6" */
export function describeChange(c: ParamChange): string {
  return `at ${c.at_ms.toFixed(2)} ms: ${c.node} ${c.param} → ${c.value}`;
}

/**
 * Problems of a switch edit, by field of the switch (`algorithm`, `scheduler`,
 * `buffer_cells` or `buffer_bytes`, `params.<name>`) where the path names one, else in `other`.
 */
export function problemsByField(s: Scenario, node: string, problems: Problem[]) {
  const i = s.nodes.findIndex((n) => n.id === node);
  const prefix = `nodes[${i}].`;
  const fields: Record<string, string> = {};
  const other: Problem[] = [];
  for (const p of problems) {
    if (i >= 0 && p.path.startsWith(prefix)) fields[p.path.slice(prefix.length)] ??= p.rule;
    else other.push(p);
  }
  return { fields, other };
}
