// Edits of one connection in a scenario, as pure functions (scenario in, new scenario out, the
// input untouched): its TM 4.0 (or Ethernet) source parameters, start and stop times, and its
// kind (greedy ABR, a misbehaving ABR source, CBR/VBR background, TCP, Ethernet arrivals).
// Every field, its unit, range, default and meaning, is the engine's catalogue's (`fields`,
// `services`, the source parameters), checked as the engine checks it (params.ts), so that a
// value refused here reads as the engine would refuse it.

import type { Catalogue, ParamSpec, Problem } from '../contract/engine';
import type { ChoiceDefaults } from '../contract/generated/ChoiceDefaults';
import type { KindFields } from '../contract/generated/KindFields';
import type { ScenarioFields } from '../contract/generated/ScenarioFields';
import type { Scenario, ScenarioConnection } from '../contract/scenario';
import { describeRange, parseParamInput, specOf } from './params';
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
  tcp: 'TCP over the VC',
  bernoulli: 'Bernoulli arrivals',
  constant: 'Constant arrivals',
};

/** The kinds a connection may take on the scenario's network, from the engine's catalogue: on
 *  Ethernet the traffic kinds it declares; on ATM a greedy source, its behaviours, its
 *  background kinds and TCP. A kind the catalogue declares but this form has no label for is
 *  left out (it could not be shown). */
export function kindsFor(s: Scenario, fields: ScenarioFields): ConnectionKind[] {
  const known = (block: 'behavior' | 'background' | 'traffic', tag: string) =>
    (Object.keys(KIND_BLOCK) as ConnectionKind[]).find((k) => KIND_BLOCK[k].block === block && KIND_BLOCK[k].tag === tag);
  const of = (block: 'behavior' | 'background' | 'traffic') =>
    fields[block].map((k) => known(block, k.kind)).filter((k): k is ConnectionKind => k !== undefined);
  return s.ethernet ? of('traffic') : ['greedy', ...of('behavior'), ...of('background'), 'tcp'];
}

/** What the connection carries; on Ethernet a source that names no traffic has the engine's
 *  (`defaults.traffic` of the catalogue). */
export function kindOf(c: ScenarioConnection, ethernet: boolean, defaults: Pick<ChoiceDefaults, 'traffic'>): ConnectionKind {
  if (ethernet) return (c.traffic ?? defaults.traffic).kind;
  if (c.tcp) return 'tcp';
  if (c.background) return c.background.kind === 'cbr' ? 'cbr' : 'vbr_on_off';
  return c.behavior?.kind ?? 'greedy';
}

/** Where a kind's settings live in the scenario, and under which `kind` tag the catalogue
 *  declares their fields. */
const KIND_BLOCK: Record<ConnectionKind, { block: 'behavior' | 'background' | 'tcp' | 'traffic' | null; tag: string }> = {
  greedy: { block: null, tag: 'greedy' },
  dishonest: { block: 'behavior', tag: 'dishonest' },
  fixed_rate: { block: 'behavior', tag: 'fixed_rate' },
  on_off: { block: 'behavior', tag: 'on_off' },
  cbr: { block: 'background', tag: 'cbr' },
  vbr_on_off: { block: 'background', tag: 'on_off' },
  tcp: { block: 'tcp', tag: 'tcp' },
  bernoulli: { block: 'traffic', tag: 'bernoulli' },
  constant: { block: 'traffic', tag: 'constant' },
};

function declared(kinds: readonly KindFields[], tag: string): KindFields {
  const k = kinds.find((x) => x.kind === tag);
  if (!k) throw new Error(`the engine's catalogue declares no kind '${tag}' (it has ${kinds.map((x) => x.kind).join(', ')})`);
  return k;
}

/** The numeric settings of a kind, as the engine's catalogue declares them (TCP also has `llc`
 *  and `service`, see setKindField). */
export function kindFields(fields: ScenarioFields, kind: ConnectionKind): readonly ParamSpec[] {
  const { block, tag } = KIND_BLOCK[kind];
  if (block === null) return [];
  if (block === 'tcp') return fields.tcp;
  return declared(fields[block], tag).fields;
}

/** What a kind does, in the catalogue's words (null for a greedy source and TCP, which the
 *  catalogue declares no kind for). */
export function kindMeaning(fields: ScenarioFields, kind: ConnectionKind): string | null {
  const { block, tag } = KIND_BLOCK[kind];
  return block === null || block === 'tcp' ? null : declared(fields[block], tag).meaning;
}

type Fields = Record<string, number | boolean | string>;

/** The current values of the kind's settings (the object under behavior / background / tcp / traffic). */
export function kindSettings(c: ScenarioConnection, ethernet: boolean, defaults: Pick<ChoiceDefaults, 'traffic'>): Fields {
  const k = kindOf(c, ethernet, defaults);
  const raw = (ethernet ? (c.traffic ?? defaults.traffic) : k === 'tcp' ? c.tcp : k === 'cbr' || k === 'vbr_on_off' ? c.background : c.behavior) ?? {};
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

/** Makes the connection another kind; its settings start from the catalogue's defaults (TCP's
 *  are left to the engine). */
export function setKind(s: Scenario, id: string, kind: ConnectionKind, fields: ScenarioFields): EditResult {
  if (!kindsFor(s, fields).includes(kind)) {
    return { ok: false, rule: s.ethernet ? 'on Ethernet a source has Bernoulli or constant traffic' : 'traffic applies to Ethernet sources' };
  }
  if ((kind === 'cbr' || kind === 'vbr_on_off') && (s.virtual_paths ?? []).some((vp) => vp.connections.includes(id))) {
    return { ok: false, rule: 'background connections cannot join a virtual path' };
  }
  return edit(s, id, (c) => {
    // A behaviour, background or traffic block names every one of its fields (the schema has
    // no defaults inside them): each starts at the catalogue's default.
    const start = Object.fromEntries(kindFields(fields, kind).map((f) => [f.name, f.default ?? f.min]));
    const { block, tag } = KIND_BLOCK[kind];
    clearKind(c);
    if (block === null) return c;
    if (block === 'tcp') c.tcp = {};
    else if (block === 'background') c.background = { kind: tag, ...start } as ScenarioConnection['background'];
    else if (block === 'traffic') c.traffic = { kind: tag, ...start } as ScenarioConnection['traffic'];
    else c.behavior = { kind: tag, ...start } as ScenarioConnection['behavior'];
    if (block === 'tcp' || block === 'background') delete c.volume_mb;
    return c;
  });
}

/**
 * Sets one setting of the connection's kind. Numbers are checked against the field's catalogue
 * entry; TCP's optional fields may be emptied (back to the engine's default); `llc` is a boolean,
 * `service` one of the catalogue's services and `recovery` one of its recoveries.
 */
export function setKindField(
  s: Scenario,
  id: string,
  name: string,
  text: string | boolean,
  cat: Pick<Catalogue, 'fields' | 'services' | 'recoveries' | 'defaults'>,
): EditResult {
  const eth = !!s.ethernet;
  return edit(s, id, (c) => {
    const kind = kindOf(c, eth, cat.defaults);
    if (kind === 'greedy') return 'a greedy ABR source has no settings of its own';
    if (kind === 'tcp' && name === 'llc') return { ...c, tcp: { ...c.tcp, llc: Boolean(text) } };
    if (kind === 'tcp' && name === 'service') {
      const service = String(text);
      if (!cat.services.includes(service)) return `service must be one of ${cat.services.join(', ')}`;
      return { ...c, tcp: { ...c.tcp, service: service as NonNullable<ScenarioConnection['tcp']>['service'] } };
    }
    if (kind === 'tcp' && name === 'recovery') {
      const recovery = String(text);
      if (!cat.recoveries.includes(recovery)) return `recovery must be one of ${cat.recoveries.join(', ')}`;
      return { ...c, tcp: { ...c.tcp, recovery: recovery as NonNullable<ScenarioConnection['tcp']>['recovery'] } };
    }
    const f = kindFields(cat.fields, kind).find((x) => x.name === name);
    if (!f) return `${KIND_LABELS[kind]} has no field ${name}`;
    const parsed = parseParamInput(f, String(text));
    if (!parsed.ok) return parsed.rule;
    const v = parsed.value;
    if (v === null) {
      if (kind !== 'tcp') return `${name} needs a value (${describeRange(f)})`;
      const tcp = { ...c.tcp } as Record<string, unknown>;
      delete tcp[name];
      return { ...c, tcp };
    }
    // Rules across fields (window_bytes at least mss_bytes) are the engine's: it checks the
    // edit once sent, and its problem is shown at the field (connectionProblems).
    if (kind === 'tcp') return { ...c, tcp: { ...c.tcp, [name]: v } };
    if (eth) return { ...c, traffic: { ...(c.traffic ?? cat.defaults.traffic), [name]: v } };
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
    const parsed = parseParamInput(spec, text);
    if (!parsed.ok) return parsed.rule;
    const params = { ...(c.params ?? {}) };
    if (parsed.value === null) delete params[spec.name];
    else params[spec.name] = parsed.value;
    const next: ScenarioConnection = { ...c, params };
    if (!Object.keys(params).length) delete next.params;
    return next;
  });
}

/**
 * Sets a source parameter every connection takes unless it sets its own (`defaults.source`;
 * empty text: back to the catalogue's default), checked against its catalogue entry. A rule
 * across fields (ICR ≤ a connection's PCR) is the engine's, said at `defaults.source.<name>`.
 */
export function setSourceDefault(s: Scenario, spec: ParamSpec, text: string): EditResult {
  const parsed = parseParamInput(spec, text);
  if (!parsed.ok) return { ok: false, rule: parsed.rule };
  const source = { ...(s.defaults?.source ?? {}) };
  if (parsed.value === null) delete source[spec.name];
  else source[spec.name] = parsed.value;
  const defaults: NonNullable<Scenario['defaults']> = { ...(s.defaults ?? {}), source };
  if (!Object.keys(source).length) delete defaults.source;
  const next: Scenario = { ...s, defaults };
  if (!Object.keys(defaults).length) delete next.defaults;
  return { ok: true, scenario: next, id: 'defaults.source' };
}

/**
 * The engine's problems with `defaults.source`, by parameter name: each parameter's rules, one
 * per connection the engine names (`C1: icr_mbps = 200 must not exceed …; C2: …`).
 */
export function sourceDefaultsProblems(problems: readonly Problem[]): Record<string, string> {
  const prefix = 'defaults.source.';
  const out: Record<string, string> = {};
  for (const p of problems) {
    for (const path of [p.path, ...(p.also ?? [])]) {
      if (!path.startsWith(prefix)) continue;
      const name = path.slice(prefix.length);
      out[name] = out[name] === undefined ? p.rule : `${out[name]}; ${p.rule}`;
    }
  }
  return out;
}

/**
 * Sets start_ms or stop_ms against its catalogue entry (`fields.connection`; empty: the
 * engine's default, t = 0 and never). That stop comes after start is the engine's rule, shown
 * at the field once it refuses the edit.
 */
export function setTiming(
  s: Scenario,
  id: string,
  field: 'start_ms' | 'stop_ms',
  text: string,
  connectionFields: readonly ParamSpec[],
): EditResult {
  return edit(s, id, (c) => {
    const parsed = parseParamInput(specOf(connectionFields, field), text);
    if (!parsed.ok) return parsed.rule;
    const next = { ...c };
    if (parsed.value === null) delete next[field];
    else next[field] = parsed.value;
    return next;
  });
}

/**
 * The engine's problems with one connection's fields, by the key its form uses: `start_ms`, a
 * kind's setting (`window_bytes`, from `connections[i].tcp.window_bytes`), `params.icr_mbps`.
 * A rule across source parameters (ICR ≤ PCR) goes to each of the connection's fields the
 * engine lists for it (the problem's `path` and `also`), so that it shows at the one just
 * typed; one about a value the connection takes from `defaults.source` is said there by the
 * engine, naming the connection first (`C1: icr_mbps = 25 must not exceed …`), and shown here
 * without the name. The rules stay the engine's; the form only puts each next to its fields.
 */
export function connectionProblems(s: Scenario, id: string, problems: readonly Problem[]): Record<string, string> {
  const i = s.connections.findIndex((c) => c.id === id);
  const prefix = `connections[${i}].`;
  const out: Record<string, string> = {};
  if (i < 0) return out;
  const named = `${id}: `;
  for (const p of problems) {
    const rule = !p.path.startsWith(prefix) && p.rule.startsWith(named) ? p.rule.slice(named.length) : p.rule;
    for (const path of [p.path, ...(p.also ?? [])]) {
      if (!path.startsWith(prefix)) continue;
      out[path.slice(prefix.length).replace(/^(tcp|behavior|background|traffic)\./, '')] ??= rule;
    }
  }
  return out;
}
