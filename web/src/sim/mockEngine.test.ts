import { describe, expect, it } from 'vitest';
import { createMockEngine, validateMock, waterFill } from './mockEngine';
import { twoSources } from '../test/fakes';

describe('mock engine max-min shares (water-filling)', () => {
  it('splits one bottleneck equally', () => {
    expect(waterFill([150], [[0], [0], [0]], [true, true, true])).toEqual([50, 50, 50]);
  });
  it('gives the capacity left by a tighter bottleneck to the others', () => {
    // C0 crosses ports 0 and 1; C1 only port 0; C2 only port 1 (capacity 20).
    const s = waterFill([100, 20], [[0, 1], [0], [1]], [true, true, true]);
    expect(s).toEqual([10, 90, 10]);
  });
  it('gives inactive connections nothing', () => {
    expect(waterFill([100], [[0], [0]], [true, false])).toEqual([100, 0]);
  });
});

describe('mock engine parameter changes', () => {
  const run = (json: string, change?: { atMs: number; value: number }) => {
    const sim = createMockEngine().createSimulation(json);
    if (change) {
      sim.advance(change.atMs, Infinity);
      expect(sim.setParam('SW1', 'target_utilization', change.value)).toBe('');
    }
    sim.advance(sim.endMs(), Infinity);
    return sim;
  };

  it('replays a recorded change bit for bit (same digest as the live run)', () => {
    const live = run(twoSources(), { atMs: 37.5, value: 0.5 });
    const plain = run(twoSources());
    expect(live.digest()).not.toBe(plain.digest());
    const recorded = JSON.parse(live.scenario());
    expect(recorded.changes).toEqual([{ at_ms: 37.5, node: 'SW1', param: 'target_utilization', value: 0.5 }]);
    expect(run(live.scenario()).digest()).toBe(live.digest());
  });

  it('refuses a change with the rule and the part of the change that breaks it', () => {
    const sim = createMockEngine().createSimulation(twoSources());
    expect(JSON.parse(sim.setParam('SW1', 'target_utilization', 2))).toEqual({
      path: 'value',
      rule: 'target_utilization = 2 is out of range: must be between 0.1 and 1',
    });
    expect(JSON.parse(sim.setParam('SW1', 'interval_cells', 2.5)).rule).toMatch(/whole number/);
    expect(JSON.parse(sim.setParam('SW1', 'nope', 1)).path).toBe('param');
    expect(JSON.parse(sim.setParam('D1', 'target_utilization', 0.5)).path).toBe('node');
    expect(JSON.parse(sim.scenario()).changes).toBeUndefined();
  });

  it('reports ERICA internals per switch port, and none for a switch without an algorithm', () => {
    const s = JSON.parse(twoSources());
    s.nodes.find((n: { id: string }) => n.id === 'SW2').algorithm = 'none';
    const meta = JSON.parse(createMockEngine().createSimulation(JSON.stringify(s)).seriesMeta());
    expect(meta.filter((m: { kind: string }) => m.kind === 'algorithm')).toEqual([
      { id: 'algorithm:SW1->SW2:overload', kind: 'algorithm', label: 'SW1->SW2 overload', unit: '', owner: 'SW1->SW2' },
      {
        id: 'algorithm:SW1->SW2:fair_share_mbps',
        kind: 'algorithm',
        label: 'SW1->SW2 fair_share_mbps',
        unit: 'Mbps',
        owner: 'SW1->SW2',
      },
    ]);
  });

  it('validates switch parameters and recorded changes by path', () => {
    const s = JSON.parse(twoSources());
    s.nodes[2].params = { target_utilization: 1.5 };
    s.changes = [{ at_ms: 10, node: 'SW2', param: 'gain', value: 1 }];
    expect(validateMock(JSON.stringify(s))).toEqual([
      { path: 'nodes[2].params.target_utilization', rule: 'target_utilization = 1.5 is out of range: must be between 0.1 and 1' },
    ]);
    s.nodes[2].params = {};
    expect(validateMock(JSON.stringify(s))).toEqual([{ path: 'changes[0].param', rule: "'gain' is not a parameter of ERICA" }]);
  });
});
