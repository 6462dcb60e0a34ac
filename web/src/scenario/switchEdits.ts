// Edits of one switch in a scenario, as pure functions (scenario in, new scenario out, the
// input untouched), and the switch's fields as the engine's catalogue declares them. Which
// edits need a reload and which apply live is decided by the Lab (lab/switchCommands.ts); this
// file only knows the document.

import type { AlgorithmSpec, DefaultAlgorithms, ParamSpec, Problem } from '../contract/engine';
import type { Discard, ParamChange, Scenario, ScenarioNode, Scheduler } from '../contract/scenario';
import { specOf } from './params';
import { sameRun } from './topologyEdits';

/** The name of a switch's buffer field: cells on ATM, bytes on Ethernet. */
export function bufferNameOf(s: Pick<Scenario, 'ethernet'>): 'buffer_cells' | 'buffer_bytes' {
  return s.ethernet ? 'buffer_bytes' : 'buffer_cells';
}

/** A switch's buffer field as the engine's catalogue declares it (`fields.switch`: unit,
 *  default, range, meaning). */
export function bufferSpecOf(s: Pick<Scenario, 'ethernet'>, switchFields: readonly ParamSpec[]): ParamSpec {
  return specOf(switchFields, bufferNameOf(s));
}

/** The switch's buffer as the scenario sets it (undefined: the default). */
export function bufferOf(s: Scenario, node: ScenarioNode): number | undefined {
  const v = node[bufferNameOf(s)];
  return v === undefined ? undefined : Number(v);
}

/** How the inspector names each scheduler and discard policy the engine offers (presentation
 *  only: the list, its order and the ids come from the catalogue). */
const SCHEDULER_LABELS: Record<string, string> = {
  fifo: 'FIFO (one queue per port)',
  per_vc: 'Per-VC queues, round-robin',
};
const DISCARD_LABELS: Record<string, string> = {
  tail: 'Tail drop',
  epd: 'EPD (early packet discard)',
  ppd: 'PPD (partial packet discard)',
  epd_ppd: 'EPD + PPD',
};

/** The schedulers the engine offers (its catalogue's list, in its order), with their labels. */
export function schedulersFor(ids: readonly string[]): { id: Scheduler; label: string }[] {
  return ids.map((id) => ({ id: id as Scheduler, label: SCHEDULER_LABELS[id] ?? id }));
}

/** The discard policies the engine offers (its catalogue's `discard_policies`), with their labels. */
export function discardsFor(ids: readonly string[]): { id: Discard; label: string }[] {
  return ids.map((id) => ({ id: id as Discard, label: DISCARD_LABELS[id] ?? id }));
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
  const name = bufferNameOf(s);
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

/** Sets a switch's discard policy (ATM only); the engine's default (`implicit`, the catalogue's
 *  `defaults.discard`) is left implicit. */
export function withDiscard(s: Scenario, node: string, discard: Discard, implicit: Discard | null): Scenario {
  return editNode(s, node, (n) => (discard === implicit ? withoutKey(n, 'discard') : { ...n, discard }));
}

/** Sets a switch's EPD threshold in cells (null = the default, 90 % of the buffer). */
export function withEpdThreshold(s: Scenario, node: string, cells: number | null): Scenario {
  return editNode(s, node, (n) => (cells === null ? withoutKey(n, 'epd_threshold_cells') : { ...n, epd_threshold_cells: cells }));
}

/** The scenario without the changes recorded during runs. */
export function withoutChanges(s: Scenario): Scenario {
  return withoutKey(s, 'changes');
}

/**
 * Whether two scenarios run alike but for their recorded changes (and drawing and text): the two
 * sides of a live change, which the run at any time can be rebuilt for by replaying to it.
 */
export function sameButChanges(a: Scenario, b: Scenario): boolean {
  return sameRun(withoutChanges(a), withoutChanges(b));
}

/** A recorded change as one item of a list, in the scenario's own terms. */
export const changeKey = (c: ParamChange) => JSON.stringify([c.at_ms, c.node, c.param, c.value]);

/**
 * An edit made on `before` (giving `next`), made again on `loaded`: `before` with the live
 * changes the engine recorded since (the two differ only in `changes`). What the edit did to
 * the recorded changes stays done (a deleted switch's are gone), and the live changes stay
 * too: those recorded since are added, those they replaced are dropped. A live change of a
 * switch the edit deleted, or gave another algorithm, goes as that switch's recorded changes do.
 */
export function withChangesSince(before: Scenario, next: Scenario, loaded: Scenario): Scenario {
  const was = before.changes ?? [];
  const now = loaded.changes ?? [];
  const [wasThere, isThere] = [new Set(was.map(changeKey)), new Set(now.map(changeKey))];
  const replaced = new Set(was.filter((c) => !isThere.has(changeKey(c))).map(changeKey));
  const algorithm = (s: Scenario, id: string) => {
    const n = s.nodes.find((x) => x.id === id && x.kind === 'switch');
    return n ? (n.algorithm ?? null) : undefined;
  };
  const kept = (c: ParamChange) => algorithm(next, c.node) !== undefined && algorithm(next, c.node) === algorithm(loaded, c.node);
  const added = now.filter((c) => !wasThere.has(changeKey(c)) && kept(c));
  const changes = [...(next.changes ?? []).filter((c) => !replaced.has(changeKey(c))), ...added];
  return changes.length ? { ...next, changes } : withoutKey(next, 'changes');
}

/**
 * A live change recorded at `atMs` as the engine records one (`Simulation::set_param`): the later
 * changes of the same parameter are replaced, and the change joins the list's end. Used only for
 * a change the engine had not answered when the page went away, at the time the page last saw.
 */
export function withLiveChange(s: Scenario, atMs: number, change: { node: string; param: string; value: number }): Scenario {
  const later = (c: ParamChange) => c.at_ms > atMs && c.node === change.node && c.param === change.param;
  return { ...s, changes: [...(s.changes ?? []).filter((c) => !later(c)), { at_ms: atMs, ...change }] };
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
