// A small JavaScript stand-in for the wasm engine: same interface, plausible curves, no cells.
// It lets the UI and the worker protocol be developed and unit-tested without the Rust build;
// the UI labels it "mock engine" whenever it is in use.
//
// Model: each connection's ACR relaxes (with a damped overshoot) from ICR towards its max-min
// share with capacities scaled by the target utilisation; queues integrate the excess of
// inflow over port capacity. Shares are computed by water-filling over the active set.
// Its catalogue is a small stand-in (ERICA with two parameters, and none); live parameter
// changes are recorded and replayed like the engine's: a change at time t affects the samples
// after t, whether it was made live or loaded from the scenario's `changes`.

import type { Catalogue, EngineModule, Problem, SeriesMeta, Simulation } from '../contract/engine';
import type { ParamChange, Scenario } from '../contract/scenario';
import { checkParamValue } from '../scenario/params';

const CELL_BITS = 424;

export const MOCK_CATALOGUE: Catalogue = {
  algorithms: [
    {
      id: 'erica',
      name: 'ERICA',
      network: 'atm',
      summary: 'Mock: each source relaxes towards its max-min share at the target utilisation.',
      params: [
        {
          name: 'target_utilization',
          unit: '',
          default: 0.9,
          min: 0.1,
          max: 1,
          integer: false,
          meaning: 'Fraction U of the link that is allocated',
        },
        {
          name: 'interval_cells',
          unit: 'cells',
          default: 100,
          min: 1,
          max: 1_000_000,
          integer: true,
          meaning: 'Averaging interval by count (the mock ignores it)',
        },
      ],
    },
    { id: 'none', name: 'None (FIFO)', network: 'both', summary: 'Mock: no feedback; sources share the whole link.', params: [] },
  ],
  source_params: [],
};

const algorithmOf = (id: string | undefined) => MOCK_CATALOGUE.algorithms.find((a) => a.id === (id ?? 'erica'));

/** The mock's version of the engine's check of one parameter change (paths relative to it). */
function checkChange(s: Scenario, ch: ParamChange): Problem | null {
  if (!(ch.at_ms >= 0 && ch.at_ms <= s.run.duration_ms)) {
    return { path: 'at_ms', rule: `at_ms = ${ch.at_ms} must be within the run (0 to ${s.run.duration_ms} ms)` };
  }
  const node = s.nodes.find((n) => n.id === ch.node);
  if (!node) return { path: 'node', rule: `no node has id '${ch.node}'` };
  if (node.kind !== 'switch') return { path: 'node', rule: `'${ch.node}' is not a switch` };
  const alg = algorithmOf(node.algorithm);
  const spec = alg?.params.find((p) => p.name === ch.param);
  if (!alg || !spec) return { path: 'param', rule: `'${ch.param}' is not a parameter of ${alg?.name ?? node.algorithm}` };
  const rule = checkParamValue(spec, ch.value);
  return rule ? { path: 'value', rule } : null;
}

export interface MockOptions {
  /** Throw like a wasm panic ("unreachable") once simulated time reaches this (ms). */
  panicAtMs?: number;
  /** Pretend cost of one sample interval, in events (default: derived from the cell rates). */
  eventsPerSample?: number;
}

export function validateMock(json: string): Problem[] {
  let s: Scenario;
  try {
    s = JSON.parse(json);
  } catch (e) {
    return [{ path: '', rule: `not valid JSON: ${(e as Error).message}` }];
  }
  const problems: Problem[] = [];
  if (typeof s !== 'object' || s === null) return [{ path: '', rule: 'expected an object' }];
  if (s.version !== 1) problems.push({ path: 'version', rule: 'unsupported scenario version; this engine reads version 1' });
  if (!s.run || typeof s.run.duration_ms !== 'number') problems.push({ path: 'run.duration_ms', rule: 'missing field' });
  else if (!(s.run.duration_ms > 0)) problems.push({ path: 'run.duration_ms', rule: 'must be > 0' });
  if (!Array.isArray(s.nodes)) problems.push({ path: 'nodes', rule: 'missing field' });
  if (!Array.isArray(s.links)) problems.push({ path: 'links', rule: 'missing field' });
  if (!Array.isArray(s.connections)) problems.push({ path: 'connections', rule: 'missing field' });
  if (!Array.isArray(s.nodes) || !Array.isArray(s.links) || !Array.isArray(s.connections)) return problems;
  const ids = new Set<string>();
  s.nodes.forEach((n, i) => {
    if (ids.has(n.id)) problems.push({ path: `nodes[${i}].id`, rule: `duplicate node id "${n.id}"` });
    ids.add(n.id);
    if (n.kind !== 'switch') return;
    const alg = algorithmOf(n.algorithm);
    if (!alg) {
      const known = MOCK_CATALOGUE.algorithms.map((a) => a.id).join(', ');
      problems.push({ path: `nodes[${i}].algorithm`, rule: `unknown algorithm '${n.algorithm}'; known algorithms: ${known}` });
      return;
    }
    for (const [name, value] of Object.entries(n.params ?? {})) {
      const spec = alg.params.find((p) => p.name === name);
      const rule = spec
        ? checkParamValue(spec, value)
        : `unknown parameter '${name}'; known parameters: ${alg.params.map((p) => p.name).join(', ')}`;
      if (rule) problems.push({ path: `nodes[${i}].params.${name}`, rule });
    }
    if (n.buffer_cells !== undefined && !(Number.isInteger(n.buffer_cells) && n.buffer_cells >= 1)) {
      problems.push({ path: `nodes[${i}].buffer_cells`, rule: 'buffer_cells must be a whole number ≥ 1' });
    }
  });
  s.links.forEach((l, i) => {
    for (const end of ['from', 'to'] as const)
      if (!ids.has(l[end])) problems.push({ path: `links[${i}].${end}`, rule: `unknown node "${l[end]}"` });
    if (!(l.rate_mbps > 0)) problems.push({ path: `links[${i}].rate_mbps`, rule: 'must be > 0' });
  });
  s.connections.forEach((c, i) => {
    for (const end of ['from', 'to'] as const)
      if (!ids.has(c[end])) problems.push({ path: `connections[${i}].${end}`, rule: `unknown node "${c[end]}"` });
  });
  if (!problems.length) {
    (s.changes ?? []).forEach((ch, i) => {
      const p = checkChange(s, ch);
      if (p) problems.push({ path: `changes[${i}].${p.path}`, rule: p.rule });
    });
  }
  return problems;
}

interface Port {
  id: string;
  /** The switch (or source) the port belongs to. */
  node: string;
  capacityMbps: number;
  targetMbps: number;
  conns: number[];
  /** Internal quantities reported for the port (the algorithm's), in meta order. */
  internals: ('overload' | 'fair_share_mbps')[];
}

/** Shortest path (fewest hops) from a to b over the links; null if none. */
function shortestPath(s: Scenario, a: string, b: string): string[] | null {
  const prev = new Map<string, string>([[a, '']]);
  const queue = [a];
  while (queue.length) {
    const u = queue.shift()!;
    if (u === b) break;
    for (const l of s.links) {
      const v = l.from === u ? l.to : l.to === u ? l.from : null;
      if (v !== null && !prev.has(v)) {
        prev.set(v, u);
        queue.push(v);
      }
    }
  }
  if (!prev.has(b)) return null;
  const path = [b];
  while (path[0] !== a) path.unshift(prev.get(path[0])!);
  return path;
}

/** Max-min fair shares by water-filling: capacity per port, the ports each connection uses. */
export function waterFill(capacities: number[], uses: number[][], active: boolean[]): number[] {
  const n = uses.length;
  const share = new Array<number>(n).fill(0);
  const frozen = active.map((a) => !a);
  const left = capacities.slice();
  for (;;) {
    let best = Infinity;
    let bestPort = -1;
    left.forEach((cap, p) => {
      const users = uses.filter((u, c) => !frozen[c] && u.includes(p)).length;
      if (users > 0 && cap / users < best) {
        best = cap / users;
        bestPort = p;
      }
    });
    if (bestPort < 0) break;
    for (let c = 0; c < n; c++) {
      if (frozen[c] || !uses[c].includes(bestPort)) continue;
      share[c] = best;
      frozen[c] = true;
      for (const p of uses[c]) left[p] -= best;
    }
  }
  return share;
}

class MockSimulation implements Simulation {
  private readonly meta: SeriesMeta[] = [];
  private readonly endMsValue: number;
  private readonly intervalMs: number;
  private readonly ports: Port[] = [];
  private readonly uses: number[][] = [];
  private readonly icr: number[] = [];
  private readonly start: number[] = [];
  private readonly stop: number[] = [];
  private readonly delivered: number[];
  private readonly queue: number[];
  private acr: number[];
  private k = 0; // index of the next sample
  private now = 0;
  private events = 0;
  private pending: number[] = [];
  private hash = 0x811c9dc5;
  /** Changes not applied yet, in the order they apply. */
  private queued: ParamChange[];
  private readonly s: Scenario;

  constructor(scenario: Scenario, private readonly opts: MockOptions) {
    this.s = { ...scenario, changes: [...(scenario.changes ?? [])] };
    const s = this.s;
    this.queued = s.changes!.map((c, i) => ({ c, i })).sort((a, b) => a.c.at_ms - b.c.at_ms || a.i - b.i).map(({ c }) => c);
    this.endMsValue = s.run.duration_ms;
    this.intervalMs = (s.run.sample_interval_us ?? 500) / 1000;
    const nodeKind = new Map(s.nodes.map((n) => [n.id, n]));
    const portIndex = new Map<string, number>();
    s.connections.forEach((c, ci) => {
      const path = c.path ?? shortestPath(s, c.from, c.to) ?? [c.from, c.to];
      const used: number[] = [];
      for (let h = 0; h + 1 < path.length; h++) {
        const node = nodeKind.get(path[h]);
        const link = s.links.find(
          (l) => (l.from === path[h] && l.to === path[h + 1]) || (l.to === path[h] && l.from === path[h + 1]),
        );
        const cap = link?.rate_mbps ?? 155.52;
        const id = `${path[h]}->${path[h + 1]}`;
        let p = portIndex.get(id);
        if (p === undefined) {
          const erica = node?.kind === 'switch' && (node.algorithm ?? 'erica') === 'erica';
          p = this.ports.length;
          portIndex.set(id, p);
          this.ports.push({
            id,
            node: path[h],
            capacityMbps: cap,
            targetMbps: cap,
            conns: [],
            internals: erica ? ['overload', 'fair_share_mbps'] : [],
          });
          this.retarget(this.ports[p]);
        }
        this.ports[p].conns.push(ci);
        used.push(p);
      }
      this.uses.push(used);
      const params = { ...(s.defaults?.source ?? {}), ...(c.params ?? {}) };
      this.icr.push(params.icr_mbps ?? 7.49);
      this.start.push(c.start_ms ?? 0);
      this.stop.push(c.stop_ms ?? Infinity);
    });
    for (const c of s.connections) {
      this.meta.push(
        { id: `${c.id}.acr`, kind: 'acr', label: `${c.id} ACR`, unit: 'Mbps', owner: c.id },
        { id: `${c.id}.share`, kind: 'share', label: `${c.id} max-min share`, unit: 'Mbps', owner: c.id },
        { id: `${c.id}.target`, kind: 'target', label: `${c.id} target share`, unit: 'Mbps', owner: c.id },
        { id: `${c.id}.throughput`, kind: 'throughput', label: `${c.id} throughput`, unit: 'Mbps', owner: c.id },
        { id: `${c.id}.delivered`, kind: 'delivered', label: `${c.id} delivered`, unit: 'cells', owner: c.id },
      );
    }
    const switchPorts = this.ports.filter((p) => nodeKind.get(p.id.split('->')[0])?.kind === 'switch');
    for (const p of switchPorts) {
      this.meta.push(
        { id: `${p.id}.queue`, kind: 'queue', label: `${p.id} queue`, unit: 'cells', owner: p.id },
        { id: `${p.id}.utilization`, kind: 'utilization', label: `${p.id} utilisation`, unit: '%', owner: p.id },
      );
    }
    for (const p of switchPorts) {
      for (const name of p.internals) {
        this.meta.push({
          id: `algorithm:${p.id}:${name}`,
          kind: 'algorithm',
          label: `${p.id} ${name}`,
          unit: name.endsWith('_mbps') ? 'Mbps' : '',
          owner: p.id,
        });
      }
    }
    this.switchPortIdx = switchPorts.map((p) => this.ports.indexOf(p));
    this.delivered = new Array(s.connections.length).fill(0);
    this.queue = new Array(this.ports.length).fill(0);
    this.acr = this.icr.slice();
  }

  private readonly switchPortIdx: number[];

  /** Port target capacity from its switch's current target_utilization (1 without ERICA). */
  private retarget(port: Port) {
    const node = this.s.nodes.find((n) => n.id === port.node);
    const erica = node?.kind === 'switch' && (node.algorithm ?? 'erica') === 'erica';
    const spec = algorithmOf('erica')!.params.find((p) => p.name === 'target_utilization')!;
    const tu = erica ? (this.live.get(port.node)?.target_utilization ?? node.params?.target_utilization ?? spec.default!) : 1;
    port.targetMbps = port.capacityMbps * tu;
  }

  /** Parameter values changed during the run, by switch. */
  private readonly live = new Map<string, Record<string, number>>();

  private applyChangesBefore(t: number) {
    while (this.queued.length && this.queued[0].at_ms < t) {
      const ch = this.queued.shift()!;
      this.live.set(ch.node, { ...this.live.get(ch.node), [ch.param]: ch.value });
      for (const p of this.ports) if (p.node === ch.node) this.retarget(p);
    }
  }

  seriesMeta(): string {
    return JSON.stringify(this.meta);
  }

  private shares(t: number, target: boolean): number[] {
    const active = this.start.map((st, c) => t >= st && t < this.stop[c]);
    const caps = this.ports.map((p) => (target ? p.targetMbps : p.capacityMbps));
    return waterFill(caps, this.uses, active);
  }

  private sample(t: number) {
    const dt = this.intervalMs;
    const share = this.shares(t, false);
    const target = this.shares(t, true);
    const tau = 2.5; // ms
    const row: number[] = [t];
    const nConn = this.acr.length;
    let eventCost = 0;
    for (let c = 0; c < nConn; c++) {
      const active = t >= this.start[c] && t < this.stop[c];
      if (!active) {
        this.acr[c] = t < this.start[c] ? this.icr[c] : this.acr[c];
      } else {
        const age = t - this.start[c];
        const goal = target[c];
        // Damped approach from ICR with a small overshoot, then settle.
        const env = Math.exp(-age / tau);
        const wobble = Math.cos(age / (1.6 * tau));
        const prev = this.acr[c];
        const ideal = goal + (this.icr[c] - goal) * env * wobble;
        this.acr[c] = prev + (ideal - prev) * Math.min(1, dt / 0.8);
      }
      const thr = active ? this.acr[c] : 0;
      this.delivered[c] += (thr * 1e6 * dt) / 1000 / CELL_BITS;
      eventCost += ((thr * 1e6 * dt) / 1000 / CELL_BITS) * 4 * this.uses[c].length;
      row.push(active ? this.acr[c] : 0, share[c], target[c], thr, Math.floor(this.delivered[c]));
    }
    const inflows = this.switchPortIdx.map((p) => {
      const port = this.ports[p];
      let inflow = 0;
      for (const c of port.conns) if (t >= this.start[c] && t < this.stop[c]) inflow += this.acr[c];
      const excessCells = ((inflow - port.capacityMbps) * 1e6 * dt) / 1000 / CELL_BITS;
      this.queue[p] = Math.max(0, this.queue[p] + excessCells);
      row.push(Math.round(this.queue[p]), Math.min(100, (100 * inflow) / port.capacityMbps));
      return inflow;
    });
    this.switchPortIdx.forEach((p, k) => {
      const port = this.ports[p];
      const activeHere = port.conns.filter((c) => t >= this.start[c] && t < this.stop[c]).length;
      for (const name of port.internals) {
        row.push(name === 'overload' ? inflows[k] / port.targetMbps : port.targetMbps / Math.max(1, activeHere));
      }
    });
    for (const v of row) {
      this.pending.push(v);
      this.mix(v);
    }
    return Math.max(1, Math.round(this.opts.eventsPerSample ?? eventCost));
  }

  private mix(v: number) {
    const f = new Float64Array([v]);
    const b = new Uint8Array(f.buffer);
    for (let i = 0; i < 8; i++) this.hash = Math.imul(this.hash ^ b[i], 0x01000193) >>> 0;
  }

  advance(untilMs: number, maxEvents: number): number {
    const until = Math.min(untilMs, this.endMsValue);
    let spent = 0;
    for (;;) {
      const t = this.k * this.intervalMs;
      if (t > until + 1e-9 || spent >= maxEvents) break;
      if (this.opts.panicAtMs !== undefined && t >= this.opts.panicAtMs) {
        const e = new Error('unreachable');
        e.name = 'RuntimeError';
        throw e;
      }
      this.applyChangesBefore(t);
      spent += this.sample(t);
      this.now = t;
      this.k++;
    }
    if (spent < maxEvents) this.now = Math.max(this.now, until);
    this.events += spent;
    return spent;
  }

  nowMs() {
    return this.now;
  }
  endMs() {
    return this.endMsValue;
  }
  done() {
    return this.now >= this.endMsValue;
  }
  eventsProcessed() {
    return this.events;
  }
  takeSamples(): Float64Array {
    const out = Float64Array.from(this.pending);
    this.pending = [];
    return out;
  }
  summary(): string {
    return JSON.stringify({ engine: 'mock', id: this.s.id, events: this.events, sim_ms: this.now });
  }
  digest(): string {
    return this.hash.toString(16).padStart(8, '0');
  }
  setParam(node: string, param: string, value: number): string {
    const change: ParamChange = { at_ms: this.now, node, param, value };
    const problem = checkChange(this.s, change);
    if (problem) return JSON.stringify(problem);
    // After the queued changes at the same time, like the engine.
    const at = this.queued.findIndex((c) => c.at_ms > change.at_ms);
    this.queued.splice(at < 0 ? this.queued.length : at, 0, change);
    this.s.changes!.push(change);
    return '';
  }
  scenario(): string {
    const { changes, ...rest } = this.s;
    return JSON.stringify(changes!.length ? { ...rest, changes } : rest);
  }
  free() {}
}

export function createMockEngine(opts: MockOptions = {}): EngineModule {
  return {
    kind: 'mock',
    catalogue: () => JSON.stringify(MOCK_CATALOGUE),
    validateScenario: (json) => JSON.stringify(validateMock(json)),
    createSimulation: (json) => {
      const problems = validateMock(json);
      if (problems.length) throw new Error(problems.map((p) => `${p.path}: ${p.rule}`).join('; '));
      return new MockSimulation(JSON.parse(json), opts);
    },
  };
}
