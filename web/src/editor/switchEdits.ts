// Edits of one switch in a scenario, as pure functions (scenario in, new scenario out, the
// input untouched). Which edits need a reload and which apply live is decided by the Lab
// (app/lab.ts); this file only knows the document.

import type { Problem } from '../sim/engine';
import type { ParamChange, Scenario, ScenarioNode, Scheduler } from '../scenario/types';

/** The engine's default buffer of a switch output port (engine/sim/src/scenario.rs). */
export const DEFAULT_BUFFER_CELLS = 1000;

export const SCHEDULERS: { id: Scheduler; label: string }[] = [
  { id: 'fifo', label: 'FIFO (one queue per port)' },
  { id: 'per_vc', label: 'Per-VC queues, round-robin' },
];

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

/** Sets a switch's buffer per output port (cells); null = the engine's default. */
export function withBuffer(s: Scenario, node: string, cells: number | null): Scenario {
  return editNode(s, node, (n) => (cells === null ? withoutKey(n, 'buffer_cells') : { ...n, buffer_cells: cells }));
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

/**
 * Reads the buffer field: empty = the default; else a whole number of cells ≥ 1 (the engine
 * checks the upper bound and says so at the field).
 */
export function parseBufferInput(text: string): { ok: true; value: number | null } | { ok: false; rule: string } {
  const t = text.trim();
  if (t === '') return { ok: true, value: null };
  const v = Number(t);
  if (!Number.isInteger(v) || v < 1) return { ok: false, rule: `buffer_cells must be a whole number of cells ≥ 1 (got “${t}”)` };
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
 * `buffer_cells`, `params.<name>`) where the path names one, else left in `other`.
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
