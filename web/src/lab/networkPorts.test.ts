import { describe, expect, it } from 'vitest';
import type { SeriesMeta } from '../contract/engine';
import type { Scenario } from '../contract/scenario';
import { LIBRARY } from '../scenario/library';
import { ENGINE_CATALOGUE } from '../test/engineCatalogue';
import { WASM_INTERACTIVE } from '../test/wasmEngine';
import { barFraction, cardRows, GROUP_FROM_PORTS, groupQueue, portViews, queueMarks, rangesLabel, switchAlgorithmsText } from './networkPorts';

const scenarioOf = (id: string): Scenario => structuredClone(LIBRARY.entries.find((e) => e.id === id)!.scenario);
const specsOf = (algorithm: string) => ENGINE_CATALOGUE.algorithms.find((a) => a.id === algorithm)!.params;
const metaOf = (s: Scenario): SeriesMeta[] => {
  const sim = WASM_INTERACTIVE.createSimulation(JSON.stringify(s));
  try {
    return JSON.parse(sim.seriesMeta()) as SeriesMeta[];
  } finally {
    sim.free();
  }
};
const none = () => undefined;

describe('queueMarks: the algorithm marks on a queue bar, from parameters or catalogue defaults', () => {
  it("ERICA+'s target queue is T0 × the port's rate in cells (500 µs at 155.52 Mbps ≈ 183.4 cells)", () => {
    const [m] = queueMarks('erica_plus', (p) => (p === 'target_delay_us' ? 500 : undefined), specsOf('erica_plus'), 155.52, null);
    expect(m.param).toBe('target_delay_us');
    expect(m.at).toBeCloseTo((500e-6 * 155.52e6) / 424, 9);
    // A scenario's own T0 moves the mark; half the delay, half the queue.
    const [half] = queueMarks('erica_plus', (p) => (p === 'target_delay_us' ? 250 : undefined), specsOf('erica_plus'), 155.52, null);
    expect(half.at).toBeCloseTo(m.at / 2, 9);
  });

  it("Series-D's four region bounds, in order, from the catalogue's defaults when the scenario sets none", () => {
    const specs = specsOf('series_d');
    const marks = queueMarks('series_d', none, specs, 155.52, null);
    expect(marks.map((m) => m.label)).toEqual(['Q1', 'Q2', 'Q3', 'Q4']);
    const dflt = (n: string) => specs.find((s) => s.name === n)!.default;
    expect(marks.map((m) => m.at)).toEqual([dflt('q1_cells'), dflt('q2_cells'), dflt('q3_cells'), dflt('q4_cells')]);
    // A set value wins over the default.
    expect(queueMarks('series_d', (p) => (p === 'q3_cells' ? 777 : undefined), specs, 155.52, null)[2].at).toBe(777);
  });

  it("EFCI's thresholds; FECN's and QCN's Qeq in frames of the scenario's size; nothing for ERICA", () => {
    expect(queueMarks('efci', (p) => ({ low_threshold_cells: 20, high_threshold_cells: 40 })[p], specsOf('efci'), 155.52, null).map((m) => [m.label, m.at])).toEqual([
      ['low', 20],
      ['high', 40],
    ]);
    expect(queueMarks('fecn', (p) => (p === 'qeq_bytes' ? 30_000 : undefined), specsOf('fecn'), 10_000, 1500)).toEqual([{ param: 'qeq_bytes', label: 'Qeq', at: 20 }]);
    const qcnDefault = specsOf('qcn').find((s) => s.name === 'qeq_bytes')!.default!;
    expect(queueMarks('qcn', none, specsOf('qcn'), 10_000, 1000)[0].at).toBeCloseTo(qcnDefault / 1000, 12);
    expect(queueMarks('erica', none, specsOf('erica'), 155.52, null)).toEqual([]);
  });
});

describe('portViews: the ports the Network view draws', () => {
  it("two-sources: SW1's and SW2's data ports, ERICA's, with the catalogue's default buffer and the engine's series", () => {
    const s = scenarioOf('two-sources');
    const meta = metaOf(s);
    const ports = portViews(s, ENGINE_CATALOGUE, meta, 0);
    expect(ports.map((p) => p.port)).toEqual(['SW1->SW2', 'SW2->D1', 'SW2->D2']);
    const bufferDefault = ENGINE_CATALOGUE.fields.switch.find((f) => f.name === 'buffer_cells')!.default;
    for (const p of ports) {
      expect(p.algorithmName).toBe('ERICA');
      expect(p.buffer).toBe(bufferDefault);
      expect(p.unit).toBe('cells');
      expect(meta[p.queueIndex].id).toBe(`queue:${p.port}`);
      expect(meta[p.utilIndex].id).toBe(`utilization:${p.port}`);
    }
  });

  it('a port names its algorithm whole and short, as the catalogue does (the narrow card shows the short one)', () => {
    const s = scenarioOf('two-sources');
    s.nodes.find((n) => n.id === 'SW1')!.algorithm = 'ut';
    s.nodes.find((n) => n.id === 'SW2')!.algorithm = 'none';
    const ports = portViews(s, ENGINE_CATALOGUE, metaOf(s), 0);
    expect(ports.map((p) => [p.port, p.algorithmName, p.algorithmShort])).toEqual([
      ['SW1->SW2', 'Uniform Tracking', 'UT'],
      ['SW2->D1', 'None (FIFO)', 'FIFO'],
      ['SW2->D2', 'None (FIFO)', 'FIFO'],
    ]);
  });

  it('an ERICA+ switch with its own buffer and a live change of T0: the mark follows the change from its time on', () => {
    const s = scenarioOf('two-sources');
    const sw1 = s.nodes.find((n) => n.id === 'SW1')!;
    sw1.algorithm = 'erica_plus';
    sw1.params = { target_delay_us: 100 };
    sw1.buffer_cells = 5000;
    s.changes = [{ at_ms: 50, node: 'SW1', param: 'target_delay_us', value: 300 }];
    const meta = metaOf({ ...s, changes: [] });
    const at = (ms: number) => portViews(s, ENGINE_CATALOGUE, meta, ms).find((p) => p.port === 'SW1->SW2')!;
    expect(at(0).buffer).toBe(5000);
    expect(at(0).algorithmName).toBe('ERICA+');
    expect(at(10).marks[0].at).toBeCloseTo((100 * 155.52) / 424, 9);
    expect(at(60).marks[0].at).toBeCloseTo((300 * 155.52) / 424, 9);
  });

  it("an Ethernet network: buffers and Qeq in frames", () => {
    const s = scenarioOf('qcn-hotspot');
    const ports = portViews(s, ENGINE_CATALOGUE, metaOf(s), 0);
    expect(ports.length).toBeGreaterThan(0);
    const frame = s.ethernet!.frame_bytes ?? ENGINE_CATALOGUE.fields.ethernet.find((f) => f.name === 'frame_bytes')!.default!;
    for (const p of ports) {
      expect(p.unit).toBe('frames');
      const node = s.nodes.find((n) => n.id === p.switchId)!;
      const bytes = node.buffer_bytes ?? ENGINE_CATALOGUE.fields.switch.find((f) => f.name === 'buffer_bytes')!.default!;
      expect(p.buffer).toBeCloseTo(bytes / frame, 9);
      if (p.algorithm === 'qcn') expect(p.marks.map((m) => m.label)).toEqual(['Qeq']);
    }
  });
});

describe('barFraction', () => {
  it('is the share of the buffer, clamped; an unknown buffer or value draws nothing', () => {
    expect(barFraction(250, 1000)).toBe(0.25);
    expect(barFraction(2000, 1000)).toBe(1);
    expect(barFraction(-1, 1000)).toBe(0);
    expect(barFraction(5, 0)).toBe(0);
    expect(barFraction(NaN, 100)).toBe(0);
  });
});

describe("cardRows: a switch card's ports toward destinations share a row when there are many", () => {
  const gfc1 = scenarioOf('gfc1');
  const ports = portViews(gfc1, ENGINE_CATALOGUE, metaOf(gfc1), 0);
  const kinds = new Map(gfc1.nodes.map((n) => [n.id, n.kind]));
  const isDestination = (id: string) => kinds.get(id) === 'destination';
  const of = (sw: string) => ports.filter((p) => p.switchId === sw);

  it("GFC-1's SW2: its trunk, then DD1–DD6 as one row (where DD1 was)", () => {
    const rows = cardRows(of('SW2'), isDestination);
    expect(rows.map((r) => r.port?.port ?? r.group!.key)).toEqual(['SW2->SW3', 'SW2->DD1–DD6']);
    expect(rows[1].group!.ports.map((p) => p.to)).toEqual(['DD1', 'DD2', 'DD3', 'DD4', 'DD5', 'DD6']);
  });

  it('keeps every port when expanded, below GROUP_FROM_PORTS, or when the bars differ', () => {
    expect(cardRows(of('SW2'), isDestination, true).map((r) => r.port!.port)).toEqual(of('SW2').map((p) => p.port));
    // Two-sources' SW2 has two ports toward destinations.
    const two = scenarioOf('two-sources');
    const twoPorts = portViews(two, ENGINE_CATALOGUE, metaOf(two), 0).filter((p) => p.switchId === 'SW2');
    expect(GROUP_FROM_PORTS).toBeGreaterThan(2);
    expect(cardRows(twoPorts, (id) => id.startsWith('D')).every((r) => r.port)).toBe(true);
    // One port toward a destination on a faster link: ERICA+'s T0·C mark sits elsewhere.
    const differ = of('SW2').map((p) => (p.to === 'DD3' ? { ...p, marks: p.marks.map((m) => ({ ...m, at: m.at * 2 })) } : p));
    expect(differ[0].marks.length).toBeGreaterThan(0);
    expect(cardRows(differ, isDestination).every((r) => r.port)).toBe(true);
  });

  it('names a group by its runs of consecutive names, or by its count beyond two runs', () => {
    expect(rangesLabel(['DD1', 'DD2', 'DD3'])).toBe('DD1–DD3');
    // GFC-1's SW5: DB1–DB3 and DE1–DE6.
    const sw5 = cardRows(of('SW5'), isDestination).find((r) => r.group)!.group!;
    expect(sw5.label).toBe('DB1–DB3, DE1–DE6');
    expect(rangesLabel(['D1', 'D3', 'X', 'D4'])).toBe('4 destinations');
    expect(rangesLabel(['A', 'B7', 'B8'])).toBe('A, B7–B8');
  });

  // Regression: beyond two runs a group's row, its tooltip and its accessible name all said
  // "9 destinations": nothing told which.
  it('a group beyond two runs still names every destination (its tooltip and accessible name)', () => {
    const renamed = new Map([['DB2', 'Q7']]);
    const ports = of('SW5').map((p) => ({ ...p, to: renamed.get(p.to) ?? p.to }));
    const group = cardRows(ports, (id) => id === 'Q7' || isDestination(id)).find((r) => r.group)!.group!;
    expect(group.label).toBe('9 destinations');
    expect(group.names).toBe('DB1, Q7, DB3, DE1–DE6');
    // Two runs or fewer: the label is the list.
    expect(cardRows(of('SW5'), isDestination).find((r) => r.group)!.group!.names).toBe('DB1–DB3, DE1–DE6');
  });

  it("shows the largest of the group's queues, ignoring ports without a value yet", () => {
    const group = cardRows(of('SW2'), isDestination)[1].group!;
    const values = new Map(group.ports.map((p, i) => [p.queueIndex, [NaN, 2, 7, 0, 1, 3][i]]));
    expect(groupQueue(group, (c) => values.get(c)!)).toBe(7);
    expect(groupQueue(group, () => NaN)).toBeNaN();
  });
});

describe('switchAlgorithmsText: the switches\' algorithms in one line (presenting: a card names its switch alone)', () => {
  it('one name when every switch runs one algorithm, else each switch with its own; none without ports', () => {
    const gfc1 = LIBRARY.entries.find((e) => e.id === 'gfc1')!.scenario;
    expect(switchAlgorithmsText(portViews(gfc1, ENGINE_CATALOGUE, metaOf(gfc1), 0))).toBe('Switches: ERICA+');
    const port = (switchId: string, algorithmName: string) => ({ switchId, algorithmName });
    expect(switchAlgorithmsText([port('SW1', 'ERICA+'), port('SW1', 'ERICA+'), port('SW2', 'EPRCA')])).toBe('Switches: SW1 ERICA+, SW2 EPRCA');
    expect(switchAlgorithmsText([])).toBe('');
  });
});
