// Edits of a scenario's virtual paths, as pure functions (scenario in, new scenario out, the
// input untouched). The engine checks the rest (members share the switches from `from` to `to`,
// one path per connection, ATM only) and its problems come back by field (problemsOfVirtualPath).

import type { Problem } from '../contract/engine';
import type { Scenario } from '../contract/scenario';
import type { Service } from '../contract/generated/Service';
import type { VirtualPath } from '../contract/generated/VirtualPath';

/** How the panel names each service of a virtual path (presentation only: the list and its
 *  order are the catalogue's `services`). */
const SERVICE_LABELS: Record<string, string> = {
  abr: 'ABR (shaped at the explicit rate returned to the edge)',
  ubr: 'UBR (shaped at PCR)',
};

/** The services the engine offers (its catalogue's list, in its order), with their labels. */
export function servicesFor(ids: readonly string[]): { id: Service; label: string }[] {
  return ids.map((id) => ({ id: id as Service, label: SERVICE_LABELS[id] ?? id }));
}

/** The first free id VP1, VP2, … among the scenario's virtual paths. */
export function nextVirtualPathId(s: Scenario): string {
  const taken = new Set((s.virtual_paths ?? []).map((vp) => vp.id));
  let i = 1;
  while (taken.has(`VP${i}`)) i++;
  return `VP${i}`;
}

export interface NewVirtualPath {
  connections: string[];
  from: string;
  to: string;
  service: Service;
}

/** Adds a virtual path (with the next free id) at the end of the list; returns it with its id. */
export function addVirtualPath(s: Scenario, vp: NewVirtualPath): { scenario: Scenario; id: string; index: number } {
  const id = nextVirtualPathId(s);
  const list = s.virtual_paths ?? [];
  const added: VirtualPath = { id, connections: [...vp.connections], from: vp.from, to: vp.to, service: vp.service };
  return { scenario: { ...s, virtual_paths: [...list, added] }, id, index: list.length };
}

/** Removes a virtual path; the list goes when it is empty. */
export function deleteVirtualPath(s: Scenario, id: string): Scenario {
  const list = (s.virtual_paths ?? []).filter((vp) => vp.id !== id);
  if (list.length === (s.virtual_paths ?? []).length) throw new Error(`no virtual path has id '${id}'`);
  if (list.length) return { ...s, virtual_paths: list };
  const out = { ...s };
  delete out.virtual_paths;
  return out;
}

/**
 * Problems of the virtual path at `index`, by its field (`id`, `connections`, `from`, `to`,
 * `service`, `buffer_cells`; `connections[k]` counts as `connections`), the rest in `other`.
 */
export function problemsOfVirtualPath(index: number, problems: Problem[]) {
  const prefix = `virtual_paths[${index}].`;
  const fields: Record<string, string> = {};
  const other: Problem[] = [];
  for (const p of problems) {
    if (p.path.startsWith(prefix)) {
      const field = p.path.slice(prefix.length).split(/[.[]/)[0];
      fields[field] ??= p.rule;
    } else other.push(p);
  }
  return { fields, other };
}
