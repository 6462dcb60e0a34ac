import { describe, expect, it } from 'vitest';
import type { Scenario } from '../contract/scenario';
import { twoSources } from '../test/fakes';
import type { AlgorithmSpec } from '../contract/engine';
import {
  algorithmOf,
  algorithmsFor,
  bufferOf,
  bufferSpecOf,
  describeChange,
  discardsFor,
  problemsByField,
  sameButChanges,
  schedulersFor,
  usesEpdThreshold,
  withAlgorithm,
  withBuffer,
  withDiscard,
  withEpdThreshold,
  withoutChanges,
  withParam,
  withScheduler,
  withChangesSince,
  withLiveChange,
  withVsvd,
} from './switchEdits';
import { parseParamInput } from './params';
import { ENGINE_CATALOGUE } from '../test/engineCatalogue';

const SWITCH_FIELDS = ENGINE_CATALOGUE.fields.switch;

const base = () => {
  const s = JSON.parse(twoSources()) as Scenario;
  s.nodes[2].params = { target_utilization: 0.8 };
  s.changes = [
    { at_ms: 40, node: 'SW1', param: 'target_utilization', value: 0.6 },
    { at_ms: 50, node: 'SW2', param: 'target_utilization', value: 0.7 },
  ];
  return s;
};

describe('switch edits', () => {
  it('a new algorithm starts from its defaults and drops the switch recorded changes only', () => {
    const s = base();
    const before = JSON.stringify(s);
    const e = withAlgorithm(s, 'SW1', 'erica_plus');
    expect(e.nodes[2]).toEqual({ id: 'SW1', kind: 'switch', algorithm: 'erica_plus', x: 260, y: 150 });
    expect(e.changes).toEqual([{ at_ms: 50, node: 'SW2', param: 'target_utilization', value: 0.7 }]);
    expect(e.nodes[3]).toBe(s.nodes[3]);
    expect(JSON.stringify(s)).toBe(before); // the input is untouched
    expect('changes' in withAlgorithm(e, 'SW2', 'ut')).toBe(false);
  });

  it('sets and clears the scheduler, the buffer and starting parameter values', () => {
    const s = base();
    expect(withScheduler(s, 'SW1', 'per_vc').nodes[2].scheduler).toBe('per_vc');
    expect(withBuffer(s, 'SW1', 4000).nodes[2].buffer_cells).toBe(4000);
    expect('buffer_cells' in withBuffer(withBuffer(s, 'SW1', 4000), 'SW1', null).nodes[2]).toBe(false);
    expect(withParam(s, 'SW1', 'delta', 0.2).nodes[2].params).toEqual({ target_utilization: 0.8, delta: 0.2 });
    expect('params' in withParam(s, 'SW1', 'target_utilization', null).nodes[2]).toBe(false);
    expect(withParam(s, 'SW1', 'delta', 0.2).changes).toBe(s.changes);
    expect('changes' in withoutChanges(s)).toBe(false);
  });

  it('tells the two sides of a live change (only the recorded changes differ) from an edit', () => {
    const s = base();
    const live = { ...s, changes: [...s.changes!, { at_ms: 60, node: 'SW1', param: 'delta', value: 0.2 }] };
    expect(sameButChanges(s, live)).toBe(true);
    expect(sameButChanges(s, withoutChanges(s))).toBe(true);
    expect(sameButChanges({ ...s, name: 'renamed' }, live)).toBe(true); // text: no other run
    expect(sameButChanges(s, withBuffer(live, 'SW1', 4000))).toBe(false);
    expect(sameButChanges(s, withAlgorithm(s, 'SW1', 'erica_plus'))).toBe(false);
  });

  it('makes an edit again on top of the live changes recorded since it was made, keeping what it did to the changes', () => {
    const s = base();
    // Made after going back to 30 ms: it replaced SW1's change recorded for 40 ms.
    const live = { at_ms: 30, node: 'SW1', param: 'target_utilization', value: 0.5 };
    const loaded = { ...s, changes: [s.changes![1], live] };
    const buffered = withBuffer(s, 'SW2', 4000);
    const again = withChangesSince(s, buffered, loaded);
    expect(again.nodes.find((n) => n.id === 'SW2')!.buffer_cells).toBe(4000);
    expect(again.changes).toEqual([s.changes![1], live]);
    // An edit that dropped recorded changes keeps them dropped; a live change of a switch that
    // now runs another algorithm goes with them.
    const other = withChangesSince(s, withAlgorithm(s, 'SW1', 'erica_plus'), loaded);
    expect(other.changes).toEqual([s.changes![1]]);
    expect('changes' in withChangesSince(s, withAlgorithm(withAlgorithm(s, 'SW1', 'none'), 'SW2', 'none'), loaded)).toBe(false);
    // Nothing recorded since: the edit as it was.
    expect(withChangesSince(s, buffered, s)).toEqual(buffered);
  });

  it('refuses to edit a node that is not a switch', () => {
    expect(() => withBuffer(base(), 'S1', 10)).toThrow(/no switch/);
  });

  it('describes a recorded change in one line', () => {
    expect(describeChange({ at_ms: 40, node: 'SW1', param: 'target_utilization', value: 0.6 })).toBe(
      'at 40.00 ms: SW1 target_utilization → 0.6',
    );
  });

  it('sorts the engine problems of an edit by field of the switch', () => {
    const { fields, other } = problemsByField(base(), 'SW1', [
      { path: 'nodes[2].buffer_cells', rule: 'buffer_cells = 0 must be between 1 and 10000000' },
      { path: 'nodes[2].params.delta', rule: 'delta = 3 is out of range: must be between 0 and 1' },
      { path: 'changes[0].param', rule: "'x' is not a parameter of ERICA+" },
    ]);
    expect(fields).toEqual({
      buffer_cells: 'buffer_cells = 0 must be between 1 and 10000000',
      'params.delta': 'delta = 3 is out of range: must be between 0 and 1',
    });
    expect(other).toEqual([{ path: 'changes[0].param', rule: "'x' is not a parameter of ERICA+" }]);
  });

  it('reads the buffer field as a whole number of cells, empty for the default', () => {
    const cells = bufferSpecOf(base(), SWITCH_FIELDS);
    expect(parseParamInput(cells, ' 4000 ')).toEqual({ ok: true, value: 4000 });
    expect(parseParamInput(cells, '')).toEqual({ ok: true, value: null });
    for (const bad of ['0', '-3', '12.5', 'lots']) expect(parseParamInput(cells, bad).ok).toBe(false);
    expect(parseParamInput(cells, '0')).toEqual({ ok: false, rule: 'buffer_cells = 0 is out of range: must be between 1 and 10000000 cells' });
  });

  it('offers the algorithms of the scenario network: ATM ones on ATM, Ethernet ones on Ethernet', () => {
    const alg = (id: string, network: AlgorithmSpec['network']): AlgorithmSpec => ({ id, name: id, short_name: id, summary: '', params: [], network, feedback: 'nothing' });
    const catalogue = [alg('erica', 'atm'), alg('fecn', 'ethernet'), alg('none', 'both'), alg('older', 'both')];
    const atm = base();
    expect(algorithmsFor(catalogue, atm).map((a) => a.id)).toEqual(['erica', 'none', 'older']);
    const ethernet = { ...atm, ethernet: { frame_bytes: 1500 } } as Scenario;
    expect(algorithmsFor(catalogue, ethernet).map((a) => a.id)).toEqual(['fecn', 'none', 'older']);
    // The buffer is counted in bytes on Ethernet.
    expect(bufferSpecOf(ethernet, SWITCH_FIELDS)).toMatchObject({ name: 'buffer_bytes', unit: 'bytes', integer: true });
    const e = withBuffer(ethernet, 'SW1', 300_000);
    expect(e.nodes[2]).toMatchObject({ buffer_bytes: 300_000 });
    expect('buffer_cells' in e.nodes[2]).toBe(false);
    expect(bufferOf(e, e.nodes[2])).toBe(300_000);
  });

  it("takes the buffer's unit, default and range from the catalogue's switch fields, and its schedulers", () => {
    const settings = [
      { name: 'buffer_cells', unit: 'cells', default: 2000, min: 1, max: 5000, integer: true, meaning: 'ATM buffer' },
      { name: 'buffer_bytes', unit: 'bytes', default: 150_000, min: 64, max: 1e10, integer: true, meaning: 'Ethernet buffer' },
    ];
    const cells = bufferSpecOf(base(), settings);
    expect(cells).toEqual(settings[0]);
    expect(parseParamInput(cells, '6000')).toEqual({ ok: false, rule: 'buffer_cells = 6000 is out of range: must be between 1 and 5000 cells' });
    const bytes = bufferSpecOf({ ...base(), ethernet: { frame_bytes: 1500 } } as Scenario, settings);
    expect(bytes.default).toBe(150_000);
    expect(parseParamInput(bytes, '32')).toEqual({
      ok: false,
      rule: 'buffer_bytes = 32 is out of range: must be between 64 and 10000000000 bytes',
    });
    expect(() => bufferSpecOf(base(), settings.slice(1))).toThrow(/declares no field 'buffer_cells'/);
    expect(schedulersFor(['fifo', 'per_vc']).map((x) => x.label)).toEqual(['FIFO (one queue per port)', 'Per-VC queues, round-robin']);
    expect(schedulersFor(['fifo', 'wfq']).map((x) => x.id)).toEqual(['fifo', 'wfq']);
    // The discard policies are the catalogue's, in its order, with their labels.
    expect(discardsFor(ENGINE_CATALOGUE.discard_policies).map((d) => d.id)).toEqual(ENGINE_CATALOGUE.discard_policies);
    expect(discardsFor(['tail', 'red']).map((d) => d.label)).toEqual(['Tail drop', 'red']);
  });
});

describe('VS/VD and discard edits', () => {
  it('turns VS/VD on and off, leaving the input untouched and off implicit', () => {
    const s = base();
    const on = withVsvd(s, 'SW1', true);
    expect(on.nodes[2].vsvd).toBe(true);
    expect('vsvd' in s.nodes[2]).toBe(false);
    expect('vsvd' in withVsvd(on, 'SW1', false).nodes[2]).toBe(false);
    expect(on.changes).toBe(s.changes);
  });

  it("sets the discard policy, the engine's default left implicit", () => {
    const s = base();
    const implicit = ENGINE_CATALOGUE.defaults.discard;
    expect(withDiscard(s, 'SW1', 'epd_ppd', implicit).nodes[2].discard).toBe('epd_ppd');
    expect('discard' in withDiscard(withDiscard(s, 'SW1', 'epd', implicit), 'SW1', implicit, implicit).nodes[2]).toBe(false);
  });

  it("sets the EPD threshold, null going back to the engine's default (90 % of the buffer)", () => {
    const s = base();
    expect(withEpdThreshold(s, 'SW1', 800).nodes[2].epd_threshold_cells).toBe(800);
    expect('epd_threshold_cells' in withEpdThreshold(withEpdThreshold(s, 'SW1', 800), 'SW1', null).nodes[2]).toBe(false);
  });

  it('refuses to edit a node that is not a switch', () => {
    expect(() => withVsvd(base(), 'S1', true)).toThrow(/no switch/);
  });
});

describe('the EPD threshold', () => {
  it('belongs to the policies that refuse whole frames early (EPD, EPD + PPD)', () => {
    expect(discardsFor(ENGINE_CATALOGUE.discard_policies).filter((d) => usesEpdThreshold(d.id)).map((d) => d.id)).toEqual([
      'epd',
      'epd_ppd',
    ]);
  });
});

describe('the algorithm a switch runs', () => {
  it("is its own, else the catalogue's default for the network", () => {
    const defaults = { atm: 'erica', ethernet: 'none' };
    expect(algorithmOf({}, { algorithm: 'debra' }, defaults)).toBe('debra');
    expect(algorithmOf({}, {}, defaults)).toBe('erica');
    expect(algorithmOf({ ethernet: { frame_bytes: 1500 } }, {}, defaults)).toBe('none');
    expect(algorithmOf({}, {}, { atm: 'erica_plus', ethernet: 'qcn' })).toBe('erica_plus');
  });
});

describe('withLiveChange', () => {
  it('records a change as the engine does: later changes of the parameter replaced, the change last', async () => {
    const { WASM_INTERACTIVE } = await import('../test/wasmEngine');
    const s: Scenario = {
      ...(JSON.parse(twoSources()) as Scenario),
      changes: [
        { at_ms: 10, node: 'SW1', param: 'target_utilization', value: 0.8 },
        { at_ms: 50, node: 'SW1', param: 'target_utilization', value: 0.7 },
        { at_ms: 60, node: 'SW2', param: 'target_utilization', value: 0.5 },
      ],
    };
    const sim = WASM_INTERACTIVE.createSimulation(JSON.stringify(s));
    sim.advance(30, 1e9);
    expect(sim.nowMs()).toBe(30);
    expect(JSON.parse(sim.setParam('SW1', 'target_utilization', 0.6))).toHaveProperty('replaced');
    const engine = (JSON.parse(sim.scenario()) as Scenario).changes;
    sim.free();
    expect(withLiveChange(s, 30, { node: 'SW1', param: 'target_utilization', value: 0.6 }).changes).toEqual(engine);
    expect(engine).toHaveLength(3); // the one at 50 ms went
  });
});
