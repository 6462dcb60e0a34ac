import { describe, expect, it } from 'vitest';
import { LIBRARY } from './library';
import type { ParamSpec, Problem } from '../contract/engine';
import type { Scenario } from '../contract/scenario';
import {
  connectionProblems,
  kindFields,
  kindMeaning,
  kindOf,
  kindSettings,
  kindsFor,
  setKind,
  setKindField,
  setSourceDefault,
  setSourceParam,
  setTiming,
  sourceDefaultsProblems,
  sourceParamsFor,
} from './connectionEdits';
import { specOf } from './params';
import { ENGINE_CATALOGUE as CAT } from '../test/engineCatalogue';

const lib = (id: string) => structuredClone(LIBRARY.entries.find((e) => e.id === id)!.scenario);
const ok = <T extends { ok: boolean }>(r: T) => {
  if (!r.ok) throw new Error(JSON.stringify(r));
  return r as Extract<T, { ok: true }>;
};
const ICR: ParamSpec = { name: 'icr_mbps', unit: 'Mbps', default: 25, min: 0.001, max: 100000, integer: false, meaning: 'initial cell rate' };
const NRM: ParamSpec = { name: 'nrm', unit: 'cells', default: 32, min: 2, max: 256, integer: true, meaning: 'cells per RM cell' };

describe('connection edits', () => {
  it('sets a source parameter in range, clears it back to the default, refuses one out of range with the rule', () => {
    const s = lib('two-sources');
    const a = ok(setSourceParam(s, 'C1', ICR, '10')).scenario;
    expect(a.connections[0].params).toEqual({ icr_mbps: 10 });
    expect(s.connections[0].params).toBeUndefined(); // the input is untouched
    expect(ok(setSourceParam(a, 'C1', ICR, ' ')).scenario.connections[0].params).toBeUndefined();
    expect(setSourceParam(s, 'C1', NRM, '1000')).toEqual({ ok: false, rule: 'nrm = 1000 is out of range: must be between 2 and 256 cells' });
    expect(setSourceParam(s, 'C1', NRM, '3.5')).toEqual({ ok: false, rule: 'nrm = 3.5 must be a whole number' });
    expect(setSourceParam(s, 'C1', ICR, 'fast')).toMatchObject({ ok: false, rule: expect.stringContaining('icr_mbps must be a number') });
  });

  it('sets a parameter every source takes (defaults.source), clears it, refuses one out of range', () => {
    const s = lib('two-sources'); // defaults.source: icr_mbps 25, rif 1
    const a = ok(setSourceDefault(s, NRM, '16')).scenario;
    expect(a.defaults?.source).toEqual({ icr_mbps: 25, rif: 1, nrm: 16 });
    expect(s.defaults?.source).toEqual({ icr_mbps: 25, rif: 1 }); // the input is untouched
    expect(a.connections).toBe(s.connections);
    const b = ok(setSourceDefault(ok(setSourceDefault(s, ICR, '')).scenario, specOf(CAT.source_params, 'rif'), '')).scenario;
    expect(b.defaults).toBeUndefined(); // nothing left: no empty objects in the file
    expect(setSourceDefault(s, NRM, '1000')).toEqual({ ok: false, rule: 'nrm = 1000 is out of range: must be between 2 and 256 cells' });
  });

  it("the engine's problems with defaults.source go to their parameter, every connection's rule said", () => {
    const problems: Problem[] = [
      { path: 'defaults.source.icr_mbps', rule: 'C1: icr_mbps = 200 must not exceed pcr_mbps = 155.52' },
      { path: 'defaults.source.icr_mbps', rule: 'C2: icr_mbps = 200 must not exceed pcr_mbps = 155.52' },
      { path: 'connections[0].params.nrm', rule: 'nrm = 1 is out of range' },
    ];
    expect(sourceDefaultsProblems(problems)).toEqual({
      icr_mbps: 'C1: icr_mbps = 200 must not exceed pcr_mbps = 155.52; C2: icr_mbps = 200 must not exceed pcr_mbps = 155.52',
    });
  });

  it('sets start and stop times within their ranges', () => {
    const s = lib('two-sources');
    const a = ok(setTiming(s, 'C2', 'start_ms', '5', CAT.fields.connection)).scenario;
    expect(a.connections[1].start_ms).toBe(5);
    expect(ok(setTiming(a, 'C2', 'stop_ms', '40', CAT.fields.connection)).scenario.connections[1]).toMatchObject({ start_ms: 5, stop_ms: 40 });
    // Stop before start is the engine's rule (its problem is shown at the field): not re-coded here.
    expect(ok(setTiming(a, 'C2', 'stop_ms', '3', CAT.fields.connection)).scenario.connections[1]).toMatchObject({ start_ms: 5, stop_ms: 3 });
    expect(setTiming(a, 'C2', 'start_ms', '-1', CAT.fields.connection)).toEqual({ ok: false, rule: 'start_ms = -1 is out of range: must be between 0 and 3600000 ms' });
    expect(ok(setTiming(a, 'C2', 'start_ms', '', CAT.fields.connection)).scenario.connections[1].start_ms).toBeUndefined();
  });

  it('switches the kind: behaviour, background, TCP, and back to greedy ABR', () => {
    const s = lib('two-sources');
    const d = ok(setKind(s, 'C1', 'dishonest', CAT.fields)).scenario;
    expect(d.connections[0].behavior).toEqual({ kind: 'dishonest', from_ms: 0, factor: 2, greedy_ms: 10, normal_ms: 10 });
    expect(kindOf(d.connections[0], false, CAT.defaults)).toBe('dishonest');
    const b = ok(setKind(d, 'C1', 'vbr_on_off', CAT.fields)).scenario.connections[0];
    expect(b.behavior).toBeUndefined();
    expect(b.background).toEqual({ kind: 'on_off', peak_mbps: 50, mean_on_ms: 10, mean_off_ms: 10 });
    const t = ok(setKind(d, 'C1', 'tcp', CAT.fields)).scenario;
    expect(t.connections[0]).toMatchObject({ tcp: {} });
    expect(t.connections[0].behavior).toBeUndefined();
    expect(ok(setKind(t, 'C1', 'greedy', CAT.fields)).scenario.connections[0]).toEqual(s.connections[0]);
    expect(setKind(s, 'C1', 'bernoulli', CAT.fields)).toEqual({ ok: false, rule: 'traffic applies to Ethernet sources' });
    const vp = { ...s, virtual_paths: [{ id: 'VP1', connections: ['C1'], from: 'SW1', to: 'SW2' }] };
    expect(setKind(vp, 'C1', 'cbr', CAT.fields)).toEqual({ ok: false, rule: 'background connections cannot join a virtual path' });
  });

  it('edits the settings of a kind within their ranges', () => {
    let s = ok(setKind(lib('two-sources'), 'C1', 'tcp', CAT.fields)).scenario;
    s = ok(setKindField(s, 'C1', 'service', 'ubr', CAT)).scenario;
    s = ok(setKindField(s, 'C1', 'mss_bytes', '512', CAT)).scenario;
    s = ok(setKindField(s, 'C1', 'llc', false, CAT)).scenario;
    expect(s.connections[0].tcp).toEqual({ service: 'ubr', mss_bytes: 512, llc: false });
    expect(kindSettings(s.connections[0], false, CAT.defaults)).toEqual({ service: 'ubr', mss_bytes: 512, llc: false });
    expect(ok(setKindField(s, 'C1', 'window_bytes', '100', CAT)).scenario.connections[0].tcp?.window_bytes).toBe(100); // the engine's rule decides
    expect(setKindField(s, 'C1', 'mss_bytes', '10', CAT)).toEqual({ ok: false, rule: 'mss_bytes = 10 is out of range: must be between 64 and 65495 bytes' });
    expect(setKindField(s, 'C1', 'mss_bytes', '100.5', CAT)).toEqual({ ok: false, rule: 'mss_bytes = 100.5 must be a whole number' });
    expect(ok(setKindField(s, 'C1', 'mss_bytes', '', CAT)).scenario.connections[0].tcp).toEqual({ service: 'ubr', llc: false });
    const f = ok(setKind(s, 'C1', 'fixed_rate', CAT.fields)).scenario;
    expect(ok(setKindField(f, 'C1', 'rate_mbps', '80', CAT)).scenario.connections[0].behavior).toEqual({ kind: 'fixed_rate', from_ms: 0, rate_mbps: 80 });
    expect(setKindField(f, 'C1', 'rate_mbps', '0', CAT)).toEqual({ ok: false, rule: 'rate_mbps = 0 is out of range: must be between 0.001 and 100000 Mbps' });
    expect(setKindField(lib('two-sources'), 'C1', 'factor', '2', CAT)).toMatchObject({ ok: false });
  });

  it('on ATM: a greedy source, the behaviours and background kinds the catalogue declares, and TCP', () => {
    expect(kindsFor(lib('two-sources'), CAT.fields)).toEqual(['greedy', 'dishonest', 'fixed_rate', 'on_off', 'cbr', 'vbr_on_off', 'tcp']);
    const noBackground = { ...CAT.fields, background: [] };
    expect(kindsFor(lib('two-sources'), noBackground)).toEqual(['greedy', 'dishonest', 'fixed_rate', 'on_off', 'tcp']);
  });

  it('on Ethernet: Bernoulli or constant arrivals at a load, and the Ethernet source parameters', () => {
    const s = lib('fecn-hotspot');
    expect(kindsFor(s, CAT.fields)).toEqual(['bernoulli', 'constant']);
    // The kinds come from the engine's catalogue: one it stops declaring is no longer offered.
    const fewer = { ...CAT.fields, traffic: CAT.fields.traffic.filter((k) => k.kind !== 'constant') };
    expect(kindsFor(s, fewer)).toEqual(['bernoulli']);
    const c = ok(setKind(s, s.connections[0].id, 'constant', CAT.fields)).scenario;
    expect(c.connections[0].traffic).toEqual({ kind: 'constant', load_percent: 100 });
    const l = ok(setKindField(c, c.connections[0].id, 'load_percent', '50', CAT)).scenario;
    expect(l.connections[0].traffic).toEqual({ kind: 'constant', load_percent: 50 });
    expect(setKindField(c, c.connections[0].id, 'load_percent', '120', CAT)).toEqual({ ok: false, rule: 'load_percent = 120 is out of range: must be between 0.001 and 100 %' });
    expect(setKind(s, s.connections[0].id, 'tcp', CAT.fields)).toMatchObject({ ok: false });
    // A flow without traffic is Bernoulli at 100 %: setting its load keeps the kind.
    const bare = { ...s, connections: [{ id: 'F9', from: 'EP0', to: 'EP4' }] };
    expect(ok(setKindField(bare, 'F9', 'load_percent', '60', CAT)).scenario.connections[0].traffic).toEqual({ kind: 'bernoulli', load_percent: 60 });
    const cat = { source_params: [ICR], ethernet_source_params: [NRM] };
    expect(sourceParamsFor(s, cat)).toEqual([NRM]);
    expect(sourceParamsFor(lib('two-sources'), cat)).toEqual([ICR]);
  });

  it("takes each kind's fields, defaults and ranges from the catalogue", () => {
    const fields = {
      ...CAT.fields,
      behavior: [{ kind: 'on_off', meaning: 'bursts', fields: [{ ...specOf(CAT.fields.connection, 'start_ms'), name: 'on_ms', default: 7, max: 50 }, { ...specOf(CAT.fields.connection, 'start_ms'), name: 'off_ms', default: 3 }] }],
    };
    expect(kindFields(fields, 'on_off').map((f) => f.name)).toEqual(['on_ms', 'off_ms']);
    expect(kindMeaning(fields, 'on_off')).toBe('bursts');
    expect(kindFields(fields, 'greedy')).toEqual([]);
    expect(kindFields(fields, 'tcp')).toBe(CAT.fields.tcp);
    const s = ok(setKind(lib('two-sources'), 'C1', 'on_off', fields)).scenario;
    expect(s.connections[0].behavior).toEqual({ kind: 'on_off', on_ms: 7, off_ms: 3 });
    expect(setKindField(s, 'C1', 'on_ms', '60', { ...CAT, fields })).toEqual({
      ok: false,
      rule: 'on_ms = 60 is out of range: must be between 0 and 50 ms',
    });
    expect(() => kindFields({ ...CAT.fields, behavior: [] }, 'dishonest')).toThrow(/declares no kind 'dishonest'/);
    // The VBR kind is the catalogue's background "on_off"; TCP's service is one of its services.
    expect(kindFields(CAT.fields, 'vbr_on_off').map((f) => f.name)).toEqual(['peak_mbps', 'mean_on_ms', 'mean_off_ms']);
    const t = ok(setKind(lib('two-sources'), 'C1', 'tcp', CAT.fields)).scenario;
    expect(setKindField(t, 'C1', 'service', 'cbr', CAT)).toEqual({ ok: false, rule: 'service must be one of abr, ubr' });
    expect(setKindField(t, 'C1', 'service', 'abr', { ...CAT, services: ['ubr'] })).toEqual({ ok: false, rule: 'service must be one of ubr' });
    // TCP's recovery is one of the catalogue's; its random delay is a catalogued field.
    expect(ok(setKindField(t, 'C1', 'recovery', 'reno', CAT)).scenario.connections[0].tcp).toEqual({ recovery: 'reno' });
    expect(setKindField(t, 'C1', 'recovery', 'tahoe', CAT)).toEqual({ ok: false, rule: 'recovery must be one of newreno, reno' });
    expect(ok(setKindField(t, 'C1', 'random_delay_us', '500', CAT)).scenario.connections[0].tcp).toEqual({ random_delay_us: 500 });
    expect(setKindField(t, 'C1', 'random_delay_us', '-1', CAT)).toMatchObject({ ok: false, rule: expect.stringContaining('random_delay_us = -1 is out of range') });
  });
});

// Issue 13: rules across fields are the engine's alone; its problems are put at the form's fields.
describe('connectionProblems', () => {
  it("puts each of the engine's problems with a connection at the field its form shows", () => {
    const s = lib('two-sources');
    const problems = [
      { path: 'connections[1].stop_ms', rule: 'stop_ms = 3 must be after start_ms = 5' },
      { path: 'connections[1].tcp.window_bytes', rule: 'window_bytes = 100 must be at least mss_bytes = 512' },
      { path: 'connections[1].params.nrm', rule: 'nrm = 1000 is out of range' },
      { path: 'connections[0].stop_ms', rule: 'another connection' },
      { path: 'run.duration_ms', rule: 'not a connection' },
    ];
    expect(connectionProblems(s, 'C2', problems)).toEqual({
      stop_ms: 'stop_ms = 3 must be after start_ms = 5',
      window_bytes: 'window_bytes = 100 must be at least mss_bytes = 512',
      'params.nrm': 'nrm = 1000 is out of range',
    });
    expect(connectionProblems(s, 'nope', problems)).toEqual({});
  });

  it("puts a rule across source parameters at each of the connection's fields the engine lists for it", async () => {
    const { WASM_ENGINE } = await import('../test/wasmEngine');
    const problemsOf = (doc: Scenario) => JSON.parse(WASM_ENGINE.validateScenario(JSON.stringify(doc))) as Problem[];
    // C1's own PCR below the default ICR: said at defaults.source.icr_mbps, naming C1.
    const low = lib('two-sources');
    low.defaults = { ...low.defaults, source: { ...low.defaults?.source, icr_mbps: 25 } };
    low.connections[0].params = { pcr_mbps: 10 };
    const atDefaults = problemsOf(low);
    expect(atDefaults).toEqual([expect.objectContaining({ path: 'defaults.source.icr_mbps', rule: expect.stringMatching(/^C1: icr_mbps = 25 must not exceed pcr_mbps = 10/) })]);
    const rule = atDefaults[0].rule.slice('C1: '.length);
    expect(connectionProblems(low, 'C1', atDefaults)).toEqual({ 'params.icr_mbps': rule, 'params.pcr_mbps': rule });
    expect(connectionProblems(low, 'C2', atDefaults)).toEqual({});
    // C2's own MCR above the default PCR: at its MCR and its (empty) PCR, where typing mends it.
    const own = lib('two-sources');
    own.defaults = { ...own.defaults, source: { ...own.defaults?.source, pcr_mbps: 10, icr_mbps: 5 } };
    own.connections[1].params = { mcr_mbps: 50 };
    const atOwn = problemsOf(own);
    expect(atOwn).toEqual([expect.objectContaining({ path: 'connections[1].params.mcr_mbps' })]);
    expect(connectionProblems(own, 'C2', atOwn)).toEqual({ 'params.mcr_mbps': atOwn[0].rule, 'params.pcr_mbps': atOwn[0].rule });
    // An ICR above the access link's rate (no PCR set anywhere): at ICR and PCR alike.
    const fast = lib('two-sources');
    fast.connections[0].params = { icr_mbps: 200 };
    const atLink = problemsOf(fast);
    expect(atLink).toEqual([expect.objectContaining({ path: 'connections[0].params.icr_mbps', rule: expect.stringContaining('the rate of its access link') })]);
    expect(connectionProblems(fast, 'C1', atLink)).toEqual({ 'params.icr_mbps': atLink[0].rule, 'params.pcr_mbps': atLink[0].rule });
  });
});
