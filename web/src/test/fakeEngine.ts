// A small fake of the wasm engine for the unit tests of the worker protocol (WorkerCore,
// SimClient, Lab). Same interface as the engine and the engine's own catalogue
// (engineCatalogue.ts), none of its model: one ACR series per connection whose value follows the
// switches' `target_utilization` (so that live changes show in the rows), a sample every
// `run.sample_interval_us`, the catalogue's rules for the few fields the tests break, and live
// changes recorded and replayed like the engine's. Never shipped: nothing outside src/test/ and
// the tests imports it.

import type { EngineModule, Problem, SeriesMeta, TracingSimulation } from '../contract/engine';
import type { ParamChange, Scenario } from '../contract/scenario';
import { checkParamValue } from '../scenario/params';
import { defaultAlgorithm } from '../scenario/switchEdits';
import { ENGINE_CATALOGUE } from './engineCatalogue';

export interface FakeOptions {
  /** Throw like a wasm panic ("RuntimeError: unreachable") once simulated time reaches this (ms). */
  panicAtMs?: number;
  /** Pretend cost of one sample interval, in events. */
  eventsPerSample?: number;
}

const CATALOGUE = ENGINE_CATALOGUE;
const algorithmOf = (s: Scenario, id: string | undefined) =>
  CATALOGUE.algorithms.find((a) => a.id === (id ?? defaultAlgorithm(s, CATALOGUE.default_algorithm)));
const BUFFER_CELLS = CATALOGUE.fields.switch.find((p) => p.name === 'buffer_cells')!;

/** One live change against the scenario (paths relative to the change, as the engine's). */
function checkChange(s: Scenario, ch: ParamChange): Problem | null {
  const node = s.nodes.find((n) => n.id === ch.node);
  if (!node) return { path: 'node', rule: `no node has id '${ch.node}'` };
  if (node.kind !== 'switch') return { path: 'node', rule: `'${ch.node}' is not a switch` };
  const alg = algorithmOf(s, node.algorithm);
  const spec = alg?.params.find((p) => p.name === ch.param);
  if (!alg || !spec) return { path: 'param', rule: `'${ch.param}' is not a parameter of ${alg?.name ?? node.algorithm}` };
  const rule = checkParamValue(spec, ch.value);
  return rule ? { path: 'value', rule } : null;
}

export function validateFake(json: string): Problem[] {
  let s: Scenario;
  try {
    s = JSON.parse(json);
  } catch (e) {
    return [{ path: '', rule: `not valid JSON: ${(e as Error).message}` }];
  }
  if (typeof s !== 'object' || s === null) return [{ path: '', rule: 'expected an object' }];
  const problems: Problem[] = [];
  if (s.version !== 1) problems.push({ path: 'version', rule: 'unsupported scenario version; this engine reads version 1' });
  if (!s.run || !(s.run.duration_ms > 0)) problems.push({ path: 'run.duration_ms', rule: 'must be > 0' });
  if (!Array.isArray(s.nodes) || !Array.isArray(s.links) || !Array.isArray(s.connections)) {
    return [...problems, { path: '', rule: 'nodes, links and connections are lists' }];
  }
  const ids = new Set(s.nodes.map((n) => n.id));
  s.nodes.forEach((n, i) => {
    if (n.kind !== 'switch') return;
    const alg = algorithmOf(s, n.algorithm);
    if (!alg) return problems.push({ path: `nodes[${i}].algorithm`, rule: `unknown algorithm '${n.algorithm}'` });
    for (const [name, value] of Object.entries(n.params ?? {})) {
      const spec = alg.params.find((p) => p.name === name);
      const rule = spec ? checkParamValue(spec, value) : `unknown parameter '${name}'`;
      if (rule) problems.push({ path: `nodes[${i}].params.${name}`, rule });
    }
    const bufferRule = n.buffer_cells === undefined ? null : checkParamValue(BUFFER_CELLS, n.buffer_cells);
    if (bufferRule) problems.push({ path: `nodes[${i}].buffer_cells`, rule: bufferRule });
  });
  const connections = new Set(s.connections.map((c) => c.id));
  (s.virtual_paths ?? []).forEach((vp, i) =>
    vp.connections.forEach((id, k) => {
      if (!connections.has(id)) problems.push({ path: `virtual_paths[${i}].connections[${k}]`, rule: `no connection has id '${id}'` });
    }),
  );
  s.links.forEach((l, i) => {
    for (const end of ['from', 'to'] as const)
      if (!ids.has(l[end])) problems.push({ path: `links[${i}].${end}`, rule: `unknown node "${l[end]}"` });
  });
  if (!problems.length) {
    (s.changes ?? []).forEach((ch, i) => {
      const p = checkChange(s, ch);
      if (p) problems.push({ path: `changes[${i}].${p.path}`, rule: p.rule });
    });
  }
  return problems;
}

class FakeSimulation implements TracingSimulation {
  private readonly s: Scenario;
  private readonly meta: SeriesMeta[];
  private readonly intervalMs: number;
  /** Changes not applied yet, in the order they apply. */
  private queued: ParamChange[];
  /** target_utilization by switch, as it stands at the current time. */
  private readonly utilization = new Map<string, number>();
  private k = 0; // the next sample
  private now = 0;
  private events = 0;
  private pending: number[] = [];
  private hash = 0x811c9dc5;

  constructor(scenario: Scenario, private readonly opts: FakeOptions) {
    this.s = { ...scenario, changes: [...(scenario.changes ?? [])] };
    this.queued = this.s.changes!.map((c, i) => ({ c, i })).sort((a, b) => a.c.at_ms - b.c.at_ms || a.i - b.i).map(({ c }) => c);
    this.intervalMs = (this.s.run.sample_interval_us ?? 500) / 1000;
    this.meta = this.s.connections.map((c) => ({ id: `${c.id}.acr`, kind: 'acr', label: `${c.id} ACR`, unit: 'Mbps', owner: c.id, held: true }));
    for (const n of this.s.nodes) if (n.kind === 'switch') this.utilization.set(n.id, n.params?.target_utilization ?? 0.9);
  }

  seriesMeta() {
    return JSON.stringify(this.meta);
  }

  private sample(t: number) {
    while (this.queued.length && this.queued[0].at_ms < t) {
      const ch = this.queued.shift()!;
      if (ch.param === 'target_utilization') this.utilization.set(ch.node, ch.value);
    }
    const u = [...this.utilization.values()].reduce((a, b) => a * b, 1);
    const row = [t, ...this.s.connections.map((_, c) => (c + 1) * 100 * u)];
    for (const v of row) {
      this.pending.push(v);
      const b = new Uint8Array(new Float64Array([v]).buffer);
      for (let i = 0; i < 8; i++) this.hash = Math.imul(this.hash ^ b[i], 0x01000193) >>> 0;
    }
    return this.opts.eventsPerSample ?? 100;
  }

  advance(untilMs: number, maxEvents: number): number {
    const until = Math.min(untilMs, this.s.run.duration_ms);
    let spent = 0;
    for (;;) {
      const t = this.k * this.intervalMs;
      if (t > until + 1e-9 || spent >= maxEvents) break;
      if (this.opts.panicAtMs !== undefined && t >= this.opts.panicAtMs) {
        const e = new Error('unreachable');
        e.name = 'RuntimeError';
        throw e;
      }
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
    return this.s.run.duration_ms;
  }
  done() {
    return this.now >= this.s.run.duration_ms;
  }
  eventsProcessed() {
    return this.events;
  }
  takeSamples() {
    const out = Float64Array.from(this.pending);
    this.pending = [];
    return out;
  }
  summary() {
    return JSON.stringify({ engine: 'fake', id: this.s.id, events: this.events, sim_ms: this.now, wall_ms: 0 });
  }
  digest() {
    return this.hash.toString(16).padStart(8, '0');
  }
  setParam(node: string, param: string, value: number) {
    const change: ParamChange = { at_ms: this.now, node, param, value };
    const problem = checkChange(this.s, change);
    if (problem) return JSON.stringify(problem);
    // Later changes of the same parameter are replaced, and the change goes after the queued
    // changes at the same time, like the engine.
    const later = (c: ParamChange) => c.at_ms > change.at_ms && c.node === node && c.param === param;
    const replaced = this.queued.filter(later);
    this.queued = this.queued.filter((c) => !later(c));
    this.s.changes = this.s.changes!.filter((c) => !later(c));
    const at = this.queued.findIndex((c) => c.at_ms > change.at_ms);
    this.queued.splice(at < 0 ? this.queued.length : at, 0, change);
    this.s.changes.push(change);
    return JSON.stringify({ replaced });
  }
  // No model, so nothing to note (the tests of the notes use the real engine, test/wasmEngine.ts).
  notes() {
    return '[]';
  }
  scenario() {
    const { changes, ...rest } = this.s;
    return JSON.stringify(changes!.length ? { ...rest, changes } : rest);
  }
  free() {}
  stateBytes() {
    return 1000;
  }
  snapshot(): FakeSimulation {
    // The data only: a wrapper's own methods (costly's advance) belong to this instance.
    const data = Object.fromEntries(Object.entries(this).filter(([, v]) => typeof v !== 'function'));
    const copy = Object.assign(Object.create(FakeSimulation.prototype) as FakeSimulation, data);
    return Object.assign(copy, {
      s: { ...this.s, changes: [...this.s.changes!] },
      queued: [...this.queued],
      utilization: new Map(this.utilization),
      pending: [...this.pending],
    });
  }
  // No model, so no RM cells: the trace stays empty and no switch can explain itself (the
  // tests of the trace and of explain use the real engine, test/wasmEngine.ts).
  setRmTrace() {}
  takeRmTrace() {
    return '[]';
  }
  rmTraceDropped() {
    return 0;
  }
  advanceToRmEvent(_node: string, _direction: string, _connection: string, untilMs: number, maxEvents: number) {
    return JSON.stringify({ events: this.advance(untilMs, maxEvents), found: null });
  }
  explain(switchId: string) {
    return JSON.stringify({ problem: { path: 'switch', rule: `the fake engine has no model of '${switchId}'` } });
  }
}

export function createFakeEngine(opts: FakeOptions = {}): EngineModule {
  return {
    kind: 'wasm',
    catalogue: () => JSON.stringify(CATALOGUE),
    validateScenario: (json) => JSON.stringify(validateFake(json)),
    // The fake plans no sweep; a block whose `vary` is not a list is its one problem.
    sweepPlan: (json) => {
      const vary = (JSON.parse(json) as { sweep?: { vary?: unknown } }).sweep?.vary;
      return JSON.stringify(Array.isArray(vary) ? { plan: null } : { problems: [{ path: 'sweep.vary', rule: 'the fake engine needs a list' }] });
    },
    createSimulation: (json) => {
      const problems = validateFake(json);
      if (problems.length) throw new Error(problems.map((p) => `${p.path}: ${p.rule}`).join('; '));
      return new FakeSimulation(JSON.parse(json), opts);
    },
  };
}
