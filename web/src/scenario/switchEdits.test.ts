import { describe, expect, it } from 'vitest';
import type { Scenario } from '../contract/scenario';
import { twoSources } from '../test/fakes';
import type { AlgorithmSpec } from '../contract/engine';
import {
  algorithmOf,
  algorithmsFor,
  bufferFieldOf,
  bufferOf,
  describeChange,
  parseBufferInput,
  schedulersFor,
  problemsByField,
  withAlgorithm,
  withBuffer,
  withoutChanges,
  withParam,
  withScheduler,
  defaultEpdThreshold,
  parseEpdThresholdInput,
  withDiscard,
  withEpdThreshold,
  withVsvd,
  DISCARDS,
  usesEpdThreshold,
} from './switchEdits';

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
    const cells = bufferFieldOf(base());
    expect(parseBufferInput(cells, ' 4000 ')).toEqual({ ok: true, value: 4000 });
    expect(parseBufferInput(cells, '')).toEqual({ ok: true, value: null });
    for (const bad of ['0', '-3', '12.5', 'lots']) expect(parseBufferInput(cells, bad).ok).toBe(false);
    expect(parseBufferInput(cells, '0')).toEqual({ ok: false, rule: 'buffer_cells must be a whole number of cells ≥ 1 (got “0”)' });
  });

  it('offers the algorithms of the scenario network: ATM ones on ATM, Ethernet ones on Ethernet', () => {
    const alg = (id: string, network: AlgorithmSpec['network']): AlgorithmSpec => ({ id, name: id, summary: '', params: [], network });
    const catalogue = [alg('erica', 'atm'), alg('fecn', 'ethernet'), alg('none', 'both'), alg('older', 'both')];
    const atm = base();
    expect(algorithmsFor(catalogue, atm).map((a) => a.id)).toEqual(['erica', 'none', 'older']);
    const ethernet = { ...atm, ethernet: { frame_bytes: 1500 } } as Scenario;
    expect(algorithmsFor(catalogue, ethernet).map((a) => a.id)).toEqual(['fecn', 'none', 'older']);
    // The buffer is counted in bytes on Ethernet.
    expect(bufferFieldOf(ethernet)).toEqual({ name: 'buffer_bytes', unit: 'bytes', default: 600_000 });
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
    const cells = bufferFieldOf(base(), settings);
    expect(cells).toEqual({ name: 'buffer_cells', unit: 'cells', default: 2000, min: 1, max: 5000, meaning: 'ATM buffer' });
    expect(parseBufferInput(cells, '6000')).toEqual({ ok: false, rule: 'buffer_cells must be at most 5000 cells (got “6000”)' });
    const bytes = bufferFieldOf({ ...base(), ethernet: { frame_bytes: 1500 } } as Scenario, settings);
    expect(bytes.default).toBe(150_000);
    expect(parseBufferInput(bytes, '32')).toEqual({ ok: false, rule: 'buffer_bytes must be a whole number of bytes ≥ 64 (got “32”)' });
    expect(schedulersFor(['fifo', 'per_vc']).map((x) => x.label)).toEqual(['FIFO (one queue per port)', 'Per-VC queues, round-robin']);
    expect(schedulersFor(['fifo', 'wfq']).map((x) => x.id)).toEqual(['fifo', 'wfq']);
    expect(schedulersFor(undefined)).toHaveLength(2);
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

  it('sets the discard policy, tail drop being the implicit default', () => {
    const s = base();
    expect(withDiscard(s, 'SW1', 'epd_ppd').nodes[2].discard).toBe('epd_ppd');
    expect('discard' in withDiscard(withDiscard(s, 'SW1', 'epd'), 'SW1', 'tail').nodes[2]).toBe(false);
  });

  it('sets the EPD threshold, null going back to 90 % of the buffer', () => {
    const s = base();
    expect(withEpdThreshold(s, 'SW1', 800).nodes[2].epd_threshold_cells).toBe(800);
    expect('epd_threshold_cells' in withEpdThreshold(withEpdThreshold(s, 'SW1', 800), 'SW1', null).nodes[2]).toBe(false);
    expect(defaultEpdThreshold(1000)).toBe(900);
    expect(defaultEpdThreshold(1001)).toBe(900);
  });

  it('refuses an EPD threshold outside 0 – buffer or not whole', () => {
    expect(parseEpdThresholdInput(1000, '')).toEqual({ ok: true, value: null });
    expect(parseEpdThresholdInput(1000, '0')).toEqual({ ok: true, value: 0 });
    expect(parseEpdThresholdInput(1000, '1000')).toEqual({ ok: true, value: 1000 });
    for (const bad of ['1001', '-1', '2.5', 'x']) {
      const r = parseEpdThresholdInput(1000, bad);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.rule).toMatch(/0 – 1000/);
    }
  });

  it('refuses to edit a node that is not a switch', () => {
    expect(() => withVsvd(base(), 'S1', true)).toThrow(/no switch/);
  });
});

describe('the EPD threshold', () => {
  it('belongs to the policies that refuse whole frames early (EPD, EPD + PPD)', () => {
    expect(DISCARDS.filter((d) => usesEpdThreshold(d.id)).map((d) => d.id)).toEqual(['epd', 'epd_ppd']);
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
