// Edits of a scenario's network (nodes, links, connections) as pure functions: scenario in,
// new scenario out, the input untouched. The engine validates the result when it is loaded;
// these functions only keep the document coherent (no link or connection left pointing at a
// node that is gone, no recorded change of a deleted switch).

import type { DefaultAlgorithms, ParamSpec } from '../contract/engine';
import type { ScenarioFields } from '../contract/generated/ScenarioFields';
import type { NodeKind, Scenario, ScenarioConnection, ScenarioLink, ScenarioNode } from '../contract/scenario';
import { checkParamValue, specOf } from './params';
import { keepResolvableReferences } from './referenceEdits';

const PREFIX: Record<NodeKind, string> = { source: 'S', switch: 'SW', destination: 'D' };

/** The smallest `<prefix><n>` (n ≥ 1) not used as an id in the list. */
export function nextId(used: readonly { id: string }[], prefix: string): string {
  const taken = new Set(used.map((x) => x.id));
  let n = 1;
  while (taken.has(`${prefix}${n}`)) n++;
  return `${prefix}${n}`;
}

/**
 * Adds a node at canvas position (x, y). A switch runs, named in the document, the engine's
 * default algorithm on ATM (`defaults`: the catalogue's `default_algorithm`) and FECN on
 * Ethernet, where the engine's default (no feedback) would show nothing to watch.
 */
export function addNode(
  s: Scenario,
  kind: NodeKind,
  x: number,
  y: number,
  defaults: DefaultAlgorithms,
): { scenario: Scenario; id: string } {
  const id = nextId(s.nodes, PREFIX[kind]);
  const node: ScenarioNode = { id, kind, x: Math.round(x), y: Math.round(y) };
  if (kind === 'switch') node.algorithm = s.ethernet ? 'fecn' : defaults.atm;
  return { scenario: { ...s, nodes: [...s.nodes, node] }, id };
}

export function moveNode(s: Scenario, id: string, x: number, y: number): Scenario {
  return { ...s, nodes: s.nodes.map((n) => (n.id === id ? { ...n, x: Math.round(x), y: Math.round(y) } : n)) };
}

/** Several nodes moved at once (a box selection dragged): one edit, one undo. */
export function moveNodes(s: Scenario, to: ReadonlyMap<string, { x: number; y: number }>): Scenario {
  return { ...s, nodes: s.nodes.map((n) => { const q = to.get(n.id); return q ? { ...n, x: Math.round(q.x), y: Math.round(q.y) } : n; }) };
}

/** Whether two networks differ at most in where their nodes are drawn (the run is the same). */
export function sameButLayout(a: Scenario, b: Scenario): boolean {
  const unplaced = (s: Scenario) => JSON.stringify({ ...s, nodes: s.nodes.map(({ x: _x, y: _y, ...n }) => n) });
  return unplaced(a) === unplaced(b);
}

/** The text fields of a scenario: what it is called and says, never what it runs. */
const TEXT_FIELDS = ['name', 'group', 'description', 'lesson', 'source'] as const;

/**
 * Whether two scenarios run the same: they differ at most in where their nodes are drawn and
 * in their text (name, description, lesson…), so that neither needs a restart.
 */
export function sameRun(a: Scenario, b: Scenario): boolean {
  const textless = (s: Scenario) => {
    const t: Partial<Scenario> = { ...s };
    for (const f of TEXT_FIELDS) delete t[f];
    return t as Scenario;
  };
  return sameButLayout(textless(a), textless(b));
}

/** The longest scenario name, in characters (it titles the panel and the picker). */
export const MAX_NAME_CHARS = 80;

/** Names a scenario (the name shown in the picker, the panel and its file). */
export function renameScenario(s: Scenario, name: string): EditResult {
  const n = name.trim();
  if (n === '') return { ok: false, rule: 'name: give the scenario a name (it cannot be empty)' };
  if ([...n].length > MAX_NAME_CHARS) return { ok: false, rule: `name: at most ${MAX_NAME_CHARS} characters (this one has ${[...n].length})` };
  return { ok: true, scenario: n === s.name ? s : { ...s, name: n }, id: s.id };
}

/** Removes a node with its links, the connections that start, end or pass there, and its changes. */
export function deleteNode(s: Scenario, id: string): Scenario {
  const links = s.links.filter((l) => l.from !== id && l.to !== id);
  const out: Scenario = { ...s, nodes: s.nodes.filter((n) => n.id !== id), links };
  out.connections = s.connections.filter((c) => c.from !== id && c.to !== id && !(c.path ?? []).includes(id));
  return keepResolvableReferences(routable(withChanges(out, (c) => c.node !== id)));
}

/** Several nodes deleted at once (a box selection), with what they carried: one edit. */
export function deleteNodes(s: Scenario, ids: readonly string[]): Scenario {
  return ids.reduce(deleteNode, s);
}

/**
 * Links carry the capacity and delay of the network's first link. The first link of a network
 * is, on ATM, of the engine's default capacity (the catalogue's `rate_mbps`) and 1 km long; on
 * Ethernet, 10 Gbps with 1 µs of delay (a data-centre link: the editor's choice, the engine has
 * no Ethernet default). The length is always the editor's: the engine asks for one.
 */
function newLinkTemplate(s: Scenario, linkFields: readonly ParamSpec[]): Omit<ScenarioLink, 'id' | 'from' | 'to'> {
  const first = s.links[0];
  if (first) {
    const t: Omit<ScenarioLink, 'id' | 'from' | 'to'> = { rate_mbps: first.rate_mbps };
    if (first.delay_us !== undefined) t.delay_us = first.delay_us;
    else t.distance_km = first.distance_km ?? 1;
    return t;
  }
  const rate = specOf(linkFields, 'rate_mbps').default;
  return s.ethernet || rate === null ? { rate_mbps: 10_000, delay_us: 1 } : { rate_mbps: rate, distance_km: 1 };
}

export type EditResult = { ok: true; scenario: Scenario; id: string } | { ok: false; rule: string };

/**
 * Connects two nodes with a link (from `a` to `b`); refuses a loop, a duplicate, or end systems
 * joined directly to each other. `linkFields`: the catalogue's `fields.link`.
 */
export function addLink(s: Scenario, a: string, b: string, linkFields: readonly ParamSpec[]): EditResult {
  if (a === b) return { ok: false, rule: 'a link joins two different nodes' };
  const na = s.nodes.find((n) => n.id === a);
  const nb = s.nodes.find((n) => n.id === b);
  if (!na || !nb) return { ok: false, rule: 'a link joins two existing nodes' };
  if (s.links.some((l) => (l.from === a && l.to === b) || (l.from === b && l.to === a))) {
    return { ok: false, rule: `${a} and ${b} are already linked` };
  }
  if (na.kind !== 'switch' && nb.kind !== 'switch') return { ok: false, rule: 'sources and destinations connect to switches' };
  const id = nextId(s.links, 'L');
  return { ok: true, scenario: { ...s, links: [...s.links, { id, from: a, to: b, ...newLinkTemplate(s, linkFields) }] }, id };
}

/** Removes a link and the connections that can no longer be routed. */
export function deleteLink(s: Scenario, id: string): Scenario {
  const link = s.links.find((l) => l.id === id);
  if (!link) return s;
  const out = { ...s, links: s.links.filter((l) => l.id !== id) };
  return keepResolvableReferences(routable(out));
}

/** Keeps the connections whose given path (or, without one, some path) still exists. */
function routable(s: Scenario): Scenario {
  const ok = (c: ScenarioConnection) => (c.path ? pathExists(s, c.path) : shortestPath(s, c.from, c.to) !== null);
  const connections = s.connections.filter(ok);
  if (connections.length === s.connections.length) return s;
  return { ...s, connections };
}

function linked(s: Scenario, a: string, b: string) {
  return s.links.some((l) => (l.from === a && l.to === b) || (l.from === b && l.to === a));
}

function pathExists(s: Scenario, path: string[]) {
  return path.every((n, i) => i === 0 || linked(s, path[i - 1], n));
}

/**
 * The path with the fewest hops from `from` to `to` through switches only (ties: the first
 * found, links in document order), or null. The engine routes a connection without a path the
 * same way.
 */
export function shortestPath(s: Scenario, from: string, to: string): string[] | null {
  const kind = new Map(s.nodes.map((n) => [n.id, n.kind]));
  if (!kind.has(from) || !kind.has(to)) return null;
  const prev = new Map<string, string>([[from, '']]);
  const queue = [from];
  while (queue.length) {
    const at = queue.shift()!;
    if (at === to) break;
    if (at !== from && kind.get(at) !== 'switch') continue; // end systems do not relay
    for (const l of s.links) {
      const next = l.from === at ? l.to : l.to === at ? l.from : null;
      if (next !== null && !prev.has(next)) {
        prev.set(next, at);
        queue.push(next);
      }
    }
  }
  if (!prev.has(to)) return null;
  const path = [to];
  while (path[0] !== from) path.unshift(prev.get(path[0])!);
  return path;
}

/** The nodes a connection goes through: its own path, else the shortest (empty when there is none). */
export function routeOf(s: Scenario, c: ScenarioConnection): string[] {
  return c.path ?? shortestPath(s, c.from, c.to) ?? [];
}

/** Adds a connection from a source to a destination, routed on the shortest path. */
export function addConnection(s: Scenario, from: string, to: string): EditResult {
  const kind = (id: string) => s.nodes.find((n) => n.id === id)?.kind;
  if (kind(from) !== 'source') return { ok: false, rule: 'a connection starts at a source' };
  if (kind(to) !== 'destination') return { ok: false, rule: 'a connection ends at a destination' };
  if (!shortestPath(s, from, to)) return { ok: false, rule: `no path of links from ${from} to ${to}` };
  const id = nextId(s.connections, 'C');
  return { ok: true, scenario: { ...s, connections: [...s.connections, { id, from, to }] }, id };
}

export function deleteConnection(s: Scenario, id: string): Scenario {
  return keepResolvableReferences({ ...s, connections: s.connections.filter((c) => c.id !== id) });
}

function withChanges(s: Scenario, keep: (c: NonNullable<Scenario['changes']>[number]) => boolean): Scenario {
  if (!s.changes) return s;
  const changes = s.changes.filter(keep);
  if (changes.length === s.changes.length) return s;
  const out = { ...s };
  if (changes.length) out.changes = changes;
  else delete out.changes;
  return out;
}

/**
 * An empty network to draw from, with the run settings of the given one: ATM (cells) or
 * Ethernet (the `ethernet` block: the given network's frame size, else the catalogue's default
 * from `fields.ethernet`). Source defaults are kept only on the same kind of network (their
 * parameters differ between the two).
 */
export function emptyNetwork(
  s: Scenario,
  fields: Pick<ScenarioFields, 'ethernet'>,
  network: 'atm' | 'ethernet' = s.ethernet ? 'ethernet' : 'atm',
): Scenario {
  const out: Scenario = { ...s, id: 'my-network', name: 'My network', nodes: [], links: [], connections: [] };
  for (const k of ['changes', 'lesson', 'source', 'description', 'group', 'virtual_paths', 'reference'] as const) delete out[k];
  if ((network === 'ethernet') !== !!s.ethernet) delete out.defaults;
  if (network === 'ethernet') {
    const frameBytes = s.ethernet?.frame_bytes ?? specOf(fields.ethernet, 'frame_bytes').default;
    out.ethernet = frameBytes === null ? {} : { frame_bytes: frameBytes };
  }
  else delete out.ethernet;
  return out;
}

/** Capacity presets offered for links (Mbps), by network. */
export const LINK_PRESETS = {
  atm: [
    { label: 'T3 (44.736 Mbps)', rate_mbps: 44.736 },
    { label: 'OC-3 (155.52 Mbps)', rate_mbps: 155.52 },
    { label: 'OC-12 (622.08 Mbps)', rate_mbps: 622.08 },
  ],
  ethernet: [
    { label: '1 Gbps', rate_mbps: 1000 },
    { label: '10 Gbps', rate_mbps: 10_000 },
    { label: '40 Gbps', rate_mbps: 40_000 },
    { label: '100 Gbps', rate_mbps: 100_000 },
  ],
} as const;

/** A link's length: a distance (km; the catalogue's `delay_us_per_km` makes it a delay) or a
 *  propagation delay (µs). */
export type LinkLength = { distance_km: number } | { delay_us: number };

/**
 * Sets a link's capacity and/or length (a distance replaces a delay and the reverse); refuses a
 * value outside its catalogue entry (`linkFields`: the catalogue's `fields.link`) with its rule.
 */
export function setLink(
  s: Scenario,
  id: string,
  patch: { rate_mbps?: number; length?: LinkLength },
  linkFields: readonly ParamSpec[],
): EditResult {
  const link = s.links.find((l) => l.id === id);
  if (!link) return { ok: false, rule: `no link ${id}` };
  const rateRule = patch.rate_mbps === undefined ? null : checkParamValue(specOf(linkFields, 'rate_mbps'), patch.rate_mbps);
  if (rateRule) return { ok: false, rule: rateRule };
  const next: ScenarioLink = { ...link };
  if (patch.rate_mbps !== undefined) next.rate_mbps = patch.rate_mbps;
  if (patch.length) {
    const [field, v] = 'distance_km' in patch.length ? ['distance_km', patch.length.distance_km] : ['delay_us', patch.length.delay_us];
    const rule = checkParamValue(specOf(linkFields, field), v);
    if (rule) return { ok: false, rule };
    delete next.distance_km;
    delete next.delay_us;
    if (field === 'distance_km') next.distance_km = v;
    else next.delay_us = v;
  }
  return { ok: true, scenario: { ...s, links: s.links.map((l) => (l.id === id ? next : l)) }, id };
}

/**
 * The loop-free paths from `from` to `to` that relay only through switches, fewest hops first
 * (equal lengths in the order found, links in document order), at most `limit` of them. The
 * first is the shortest path the engine takes by default.
 */
export function loopFreePaths(s: Scenario, from: string, to: string, limit = 12): string[][] {
  const kind = new Map(s.nodes.map((n) => [n.id, n.kind]));
  if (!kind.has(from) || !kind.has(to) || from === to) return [];
  const next = new Map<string, string[]>();
  for (const l of s.links) {
    next.set(l.from, [...(next.get(l.from) ?? []), l.to]);
    next.set(l.to, [...(next.get(l.to) ?? []), l.from]);
  }
  const found: string[][] = [];
  const cap = 2000; // enough alternatives to sort; a dense mesh is cut off here
  const walk = (path: string[]) => {
    if (found.length >= cap) return;
    const at = path[path.length - 1];
    for (const n of next.get(at) ?? []) {
      if (path.includes(n)) continue;
      if (n === to) found.push([...path, n]);
      else if (kind.get(n) === 'switch') walk([...path, n]);
    }
  };
  walk([from]);
  const shortest = shortestPath(s, from, to);
  const key = (p: string[]) => p.join('>');
  const ranked = found.map((p, i) => ({ p, i })).sort((a, b) => a.p.length - b.p.length || a.i - b.i).map(({ p }) => p);
  // The engine's shortest path (breadth-first) comes first even when a depth-first tie precedes it.
  if (shortest) {
    const k = key(shortest);
    return [shortest, ...ranked.filter((p) => key(p) !== k)].slice(0, limit);
  }
  return ranked.slice(0, limit);
}

/** Routes a connection on a given path; the shortest path is stored as no path (the engine's default). */
export function setPath(s: Scenario, id: string, path: string[]): EditResult {
  const c = s.connections.find((x) => x.id === id);
  if (!c) return { ok: false, rule: `no connection ${id}` };
  if (path.length < 2 || path[0] !== c.from || path[path.length - 1] !== c.to) {
    return { ok: false, rule: `a path must start at '${c.from}' and end at '${c.to}'` };
  }
  if (new Set(path).size !== path.length) return { ok: false, rule: 'a path visits each node once' };
  if (!pathExists(s, path)) return { ok: false, rule: 'a path follows links' };
  const kind = new Map(s.nodes.map((n) => [n.id, n.kind]));
  if (path.slice(1, -1).some((n) => kind.get(n) !== 'switch')) return { ok: false, rule: 'a path relays through switches only' };
  const next: ScenarioConnection = { ...c };
  const shortest = shortestPath(s, c.from, c.to);
  if (shortest && shortest.join('>') === path.join('>')) delete next.path;
  else next.path = path;
  return { ok: true, scenario: { ...s, connections: s.connections.map((x) => (x.id === id ? next : x)) }, id };
}
