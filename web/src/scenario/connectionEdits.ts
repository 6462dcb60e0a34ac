// Edits of one connection in a scenario, as pure functions (scenario in, new scenario out, the
// input untouched): its TM 4.0 (or Ethernet) source parameters, start and stop times, and its
// kind (greedy ABR, a misbehaving ABR source, CBR/VBR background, TCP, Ethernet arrivals).
// The ranges mirror the engine's `validate` (engine/sim/src/scenario.rs) so that a value refused
// here reads as the engine would refuse it.

import type { ParamSpec } from '../contract/engine';
import type { Scenario, ScenarioConnection } from '../contract/scenario';
import { checkParamValue } from './params';
import type { EditResult } from './topologyEdits';

/** What a connection carries; one choice in the inspector. */
export type ConnectionKind =
  | 'greedy'
  | 'dishonest'
  | 'fixed_rate'
  | 'on_off'
  | 'cbr'
  | 'vbr_on_off'
  | 'tcp'
  | 'bernoulli'
  | 'constant';

export const KIND_LABELS: Record<ConnectionKind, string> = {
  greedy: 'Greedy ABR source',
  dishonest: 'Behaviour: dishonest',
  fixed_rate: 'Behaviour: fixed rate',
  on_off: 'Behaviour: on/off',
  cbr: 'Background: CBR',
  vbr_on_off: 'Background: VBR on/off',
  tcp: 'TCP (Reno) over the VC',
  bernoulli: 'Bernoulli arrivals',
  constant: 'Constant arrivals',
};

/** The kinds a connection may take on the scenario's network. */
export function kindsFor(s: Scenario): ConnectionKind[] {
  return s.ethernet ? ['bernoulli', 'constant'] : ['greedy', 'dishonest', 'fixed_rate', 'on_off', 'cbr', 'vbr_on_off', 'tcp'];
}

export function kindOf(c: ScenarioConnection, ethernet: boolean): ConnectionKind {
  if (ethernet) return c.traffic?.kind ?? 'bernoulli';
  if (c.tcp) return 'tcp';
  if (c.background) return c.background.kind === 'cbr' ? 'cbr' : 'vbr_on_off';
  return c.behavior?.kind ?? 'greedy';
}

/** One numeric field of a kind: name, unit, range (inclusive) and the value a new one starts at. */
export interface KindField {
  name: string;
  unit: string;
  min: number;
  max: number;
  start: number;
  integer?: boolean;
  meaning: string;
}

const LOAD: KindField = { name: 'load_percent', unit: '%', min: 0.001, max: 100, start: 100, meaning: 'offered load, % of the access link' };

/** The numeric fields of each kind (TCP also has `llc` and `service`, see below). */
export const KIND_FIELDS: Record<ConnectionKind, KindField[]> = {
  greedy: [],
  dishonest: [
    { name: 'from_ms', unit: 'ms', min: 0, max: 600_000, start: 0, meaning: 'when the misbehaviour begins' },
    { name: 'factor', unit: '×', min: 1, max: 100, start: 2, meaning: 'sends factor × ACR (at most PCR) while greedy' },
    { name: 'greedy_ms', unit: 'ms', min: 0.001, max: 600_000, start: 10, meaning: 'length of a greedy spell' },
    { name: 'normal_ms', unit: 'ms', min: 0, max: 600_000, start: 10, meaning: 'length of an honest spell' },
  ],
  fixed_rate: [
    { name: 'from_ms', unit: 'ms', min: 0, max: 600_000, start: 0, meaning: 'when it stops following ACR' },
    { name: 'rate_mbps', unit: 'Mbps', min: 0.001, max: 100_000, start: 50, meaning: 'the rate it sends at, whatever ACR says' },
  ],
  on_off: [
    { name: 'on_ms', unit: 'ms', min: 0.001, max: 600_000, start: 10, meaning: 'time with data to send' },
    { name: 'off_ms', unit: 'ms', min: 0, max: 600_000, start: 10, meaning: 'time with none' },
  ],
  cbr: [{ name: 'rate_mbps', unit: 'Mbps', min: 0.001, max: 100_000, start: 20, meaning: 'constant rate, served before ABR' }],
  vbr_on_off: [
    { name: 'peak_mbps', unit: 'Mbps', min: 0.001, max: 100_000, start: 50, meaning: 'rate while on, served before ABR' },
    { name: 'mean_on_ms', unit: 'ms', min: 0.001, max: 600_000, start: 10, meaning: 'mean of the exponential on times' },
    { name: 'mean_off_ms', unit: 'ms', min: 0.001, max: 600_000, start: 10, meaning: 'mean of the exponential off times' },
  ],
  tcp: [
    { name: 'mss_bytes', unit: 'bytes', min: 64, max: 65_495, start: 1460, integer: true, meaning: 'maximum segment size' },
    { name: 'window_bytes', unit: 'bytes', min: 64, max: 1.0737e9, start: 65_535, meaning: "the receiver's window (≥ MSS; scaling allows more than 64 KB)" },
    { name: 'timer_granularity_ms', unit: 'ms', min: 1, max: 10_000, start: 100, meaning: 'granularity of the retransmission timer' },
  ],
  bernoulli: [LOAD],
  constant: [LOAD],
};

type Fields = Record<string, number | boolean | string>;

/** The current values of the kind's settings (the object under behavior / background / tcp / traffic). */
export function kindSettings(c: ScenarioConnection, ethernet: boolean): Fields {
  const k = kindOf(c, ethernet);
  const raw = (ethernet ? c.traffic : k === 'tcp' ? c.tcp : k === 'cbr' || k === 'vbr_on_off' ? c.background : c.behavior) ?? {};
  const out: Fields = {};
  for (const [key, v] of Object.entries(raw)) if (key !== 'kind') out[key] = v as number | boolean | string;
  return out;
}

function edit(s: Scenario, id: string, fn: (c: ScenarioConnection) => ScenarioConnection | string): EditResult {
  const c = s.connections.find((x) => x.id === id);
  if (!c) return { ok: false, rule: `no connection ${id}` };
  const next = fn({ ...c });
  if (typeof next === 'string') return { ok: false, rule: next };
  return { ok: true, scenario: { ...s, connections: s.connections.map((x) => (x.id === id ? next : x)) }, id };
}

function clearKind(c: ScenarioConnection) {
  delete c.behavior;
  delete c.background;
  delete c.tcp;
  delete c.traffic;
  return c;
}

/** Makes the connection another kind; its settings start from the kind's starting values. */
export function setKind(s: Scenario, id: string, kind: ConnectionKind): EditResult {
  if (!kindsFor(s).includes(kind)) {
    return { ok: false, rule: s.ethernet ? 'on Ethernet a source has Bernoulli or constant traffic' : 'traffic applies to Ethernet sources' };
  }
  if ((kind === 'cbr' || kind === 'vbr_on_off') && (s.virtual_paths ?? []).some((vp) => vp.connections.includes(id))) {
    return { ok: false, rule: 'background connections cannot join a virtual path' };
  }
  return edit(s, id, (c) => {
    const start = Object.fromEntries(KIND_FIELDS[kind].map((f) => [f.name, f.start]));
    clearKind(c);
    if (kind === 'greedy') return c;
    if (kind === 'tcp') {
      delete c.volume_mb;
      c.tcp = {};
    } else if (kind === 'cbr') c.background = { kind: 'cbr', rate_mbps: start.rate_mbps };
    else if (kind === 'vbr_on_off') c.background = { kind: 'on_off', peak_mbps: start.peak_mbps, mean_on_ms: start.mean_on_ms, mean_off_ms: start.mean_off_ms };
    else if (kind === 'bernoulli' || kind === 'constant') c.traffic = { kind, load_percent: start.load_percent };
    else c.behavior = { kind, ...start } as ScenarioConnection['behavior'];
    if (kind === 'cbr' || kind === 'vbr_on_off') delete c.volume_mb;
    return c;
  });
}

/** "1 – 100 ms", "64 – 65495 bytes, whole numbers" */
export function describeField(f: KindField) {
  return `${f.min} – ${f.max}${f.unit ? ` ${f.unit}` : ''}${f.integer ? ', whole numbers' : ''}`;
}

/**
 * Sets one setting of the connection's kind. Numbers are checked against the field's range;
 * TCP's optional fields may be emptied (back to the engine's default); `llc` is a boolean and
 * `service` is `abr` or `ubr`.
 */
export function setKindField(s: Scenario, id: string, name: string, text: string | boolean): EditResult {
  const eth = !!s.ethernet;
  return edit(s, id, (c) => {
    const kind = kindOf(c, eth);
    if (kind === 'greedy') return 'a greedy ABR source has no settings of its own';
    if (kind === 'tcp' && name === 'llc') return { ...c, tcp: { ...c.tcp, llc: Boolean(text) } };
    if (kind === 'tcp' && name === 'service') {
      if (text !== 'abr' && text !== 'ubr') return 'service must be abr or ubr';
      return { ...c, tcp: { ...c.tcp, service: text } };
    }
    const f = KIND_FIELDS[kind].find((x) => x.name === name);
    if (!f) return `${KIND_LABELS[kind]} has no field ${name}`;
    const t = String(text).trim();
    if (t === '' && kind === 'tcp') {
      const tcp = { ...c.tcp } as Record<string, unknown>;
      delete tcp[name];
      return { ...c, tcp };
    }
    const v = t === '' ? NaN : Number(t);
    if (!Number.isFinite(v) || v < f.min || v > f.max) return `${name} = ${t || '(empty)'} must be between ${f.min} and ${f.max}${f.unit ? ` ${f.unit}` : ''}`;
    if (f.integer && !Number.isInteger(v)) return `${name} = ${t} must be a whole number`;
    if (kind === 'tcp') {
      const tcp = { ...c.tcp, [name]: v };
      if ((tcp.window_bytes ?? 65_535) < (tcp.mss_bytes ?? 1460)) return `window_bytes must be at least mss_bytes (${tcp.mss_bytes ?? 1460} bytes)`;
      return { ...c, tcp };
    }
    if (eth) return { ...c, traffic: { kind: c.traffic?.kind ?? 'bernoulli', load_percent: v } }; // no traffic: Bernoulli
    if (kind === 'cbr' || kind === 'vbr_on_off') return { ...c, background: { ...c.background!, [name]: v } };
    return { ...c, behavior: { ...c.behavior!, [name]: v } };
  });
}

/** The source parameters of the scenario's network: TM 4.0 on ATM, FECN/QCN source settings on Ethernet. */
export function sourceParamsFor(s: Scenario, cat: { source_params: ParamSpec[]; ethernet_source_params?: ParamSpec[] } | null): ParamSpec[] {
  if (!cat) return [];
  return s.ethernet ? (cat.ethernet_source_params ?? []) : cat.source_params;
}

/** Sets a source parameter of the connection (empty text: back to the default), checked against its catalogue entry. */
export function setSourceParam(s: Scenario, id: string, spec: ParamSpec, text: string): EditResult {
  return edit(s, id, (c) => {
    const t = text.trim();
    const params = { ...(c.params ?? {}) };
    if (t === '') delete params[spec.name];
    else {
      const v = Number(t);
      if (Number.isNaN(v)) return `${spec.name} must be a number (${spec.min} – ${spec.max}${spec.unit ? ` ${spec.unit}` : ''})`;
      const rule = checkParamValue(spec, v);
      if (rule) return rule;
      params[spec.name] = v;
    }
    const next: ScenarioConnection = { ...c, params };
    if (!Object.keys(params).length) delete next.params;
    return next;
  });
}

/** Sets start_ms (empty: 0) or stop_ms (empty: never); stop must come after start. */
export function setTiming(s: Scenario, id: string, field: 'start_ms' | 'stop_ms', text: string): EditResult {
  return edit(s, id, (c) => {
    const t = text.trim();
    const next = { ...c };
    if (t === '') delete next[field];
    else {
      const v = Number(t);
      if (!Number.isFinite(v) || v < 0 || v > 600_000) return `${field} = ${t} must be between 0 and 600000 ms`;
      next[field] = v;
    }
    if (next.stop_ms !== undefined && !(next.stop_ms > (next.start_ms ?? 0))) {
      return `stop_ms = ${next.stop_ms} must be after start_ms = ${next.start_ms ?? 0}`;
    }
    return next;
  });
}
