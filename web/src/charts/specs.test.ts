import { describe, expect, it } from 'vitest';
import type { SeriesMeta } from '../contract/engine';
import { ENGINE_CATALOGUE } from '../test/engineCatalogue';
import {
  algorithmEmptyText,
  algorithmQuantities,
  quantityLabel,
  ALGORITHM_CHART,
  ATM_VIEW,
  CHARTS,
  chartView,
  drawnLines,
  linesFor,
  MAX_OWNERS_DRAWN,
  sampledText,
  networkView,
  onlyQuantity,
  topRateMbps,
  unitFor,
} from './specs';
import { LIBRARY } from '../scenario/library';
import { colourByGroup, PALETTE } from './palette';

const meta: SeriesMeta[] = [
  { id: 'C1.acr', kind: 'acr', label: 'C1 ACR', unit: 'Mbps', owner: 'C1', held: true },
  { id: 'C1.share', kind: 'share', label: 'C1 share', unit: 'Mbps', owner: 'C1', held: true },
  { id: 'C1.target', kind: 'target', label: 'C1 target', unit: 'Mbps', owner: 'C1', held: true },
  { id: 'C2.acr', kind: 'acr', label: 'C2 ACR', unit: 'Mbps', owner: 'C2', held: true },
  { id: 'C2.share', kind: 'share', label: 'C2 share', unit: 'Mbps', owner: 'C2', held: true },
  { id: 'P.queue', kind: 'queue', label: 'P queue', unit: 'cells', owner: 'SW1->SW2', held: false },
  { id: 'P.queue_peak', kind: 'queue_peak', label: 'P queue (peak)', unit: 'cells', owner: 'SW1->SW2', held: false },
  { id: 'P.util', kind: 'utilization', label: 'P util', unit: '%', owner: 'SW1->SW2', held: false },
];

const alg = (port: string, name: string): SeriesMeta => ({
  id: `algorithm:${port}:${name}`,
  kind: 'algorithm',
  label: `${port} ${name}`,
  unit: name.endsWith('_mbps') ? 'Mbps' : '',
  owner: port,
  held: true,
});
// SW1 runs DEBRA, SW2 ERICA.
const withAlgorithms = [
  ...meta,
  alg('SW1->SW2', 'aggregate_bid_mbps'),
  alg('SW1->SW2', 'allocation_mbps'),
  alg('SW2->D1', 'overload'),
  alg('SW2->D1', 'fair_share_mbps'),
  alg('SW2->D2', 'overload'),
  alg('SW2->D2', 'fair_share_mbps'),
];

describe('chart specs', () => {
  it('draws a source ACR, share and target in one colour, with solid, dashed and dotted lines', () => {
    const rate = linesFor(CHARTS.find((c) => c.id === 'rate')!, meta);
    expect(rate.map((l) => [l.index, l.style])).toEqual([
      [0, 'solid'],
      [1, 'dashed'],
      [2, 'dotted'],
      [3, 'solid'],
      [4, 'dashed'],
    ]);
    expect(new Set(rate.slice(0, 3).map((l) => l.color)).size).toBe(1);
    expect(rate[3].color).not.toBe(rate[0].color);
  });

  it('takes each chart unit from the series metadata', () => {
    expect(CHARTS.slice(0, 3).map((c) => unitFor(c, meta))).toEqual(['Mbps', 'cells', '%']);
  });

  it('draws each port queue as its peak in each sample interval, which misses no burst', () => {
    const queue = CHARTS.find((c) => c.id === 'queue')!;
    expect(linesFor(queue, meta).map((l) => l.label)).toEqual(['P queue (peak)']);
  });

  it('has charts of cells delivered and loss ratio, and TCP charts only for TCP runs', () => {
    const ids = CHARTS.map((c) => c.id);
    expect(ids).toEqual(['rate', 'queue', 'utilization', 'delivered', 'loss', 'cwnd', 'goodput']);
    const tcp = CHARTS.filter((c) => c.optional).map((c) => c.id);
    expect(tcp).toEqual(['cwnd', 'goodput']);
    const cwnd = CHARTS.find((c) => c.id === 'cwnd')!;
    expect(linesFor(cwnd, meta)).toEqual([]);
    const withTcp: SeriesMeta[] = [...meta, { id: 'cwnd:C1', kind: 'cwnd', label: 'C1 TCP window', unit: 'KB', owner: 'C1', held: true }];
    expect(linesFor(cwnd, withTcp).map((l) => l.label)).toEqual(['C1 TCP window']);
  });

  it('shows ATM charts in the engine units, with their ATM titles', () => {
    const rate = CHARTS.find((c) => c.id === 'rate')!;
    expect(chartView(rate, 'Mbps', ATM_VIEW)).toEqual({ title: rate.title, unit: 'Mbps', scale: 1, yFloor: 1, yReach: null });
    const loss = CHARTS.find((c) => c.id === 'loss')!;
    expect(chartView(loss, '', ATM_VIEW).unit).toBe('lost / sent');
    expect(networkView({})).toBe(ATM_VIEW);
  });

  it("takes an Ethernet network's frame size from the scenario, else from the engine's catalogue, never a copy", () => {
    const frameDefault = ENGINE_CATALOGUE.fields.ethernet.find((f) => f.name === 'frame_bytes')!.default;
    expect(networkView({ ethernet: {} }, ENGINE_CATALOGUE.fields.ethernet).frameBytes).toBe(frameDefault);
    expect(networkView({ ethernet: { frame_bytes: 9000 } }, ENGINE_CATALOGUE.fields.ethernet).frameBytes).toBe(9000);
    // Not known (no catalogue yet): queues stay in frames rather than use a guessed size.
    const unknown = networkView({ ethernet: {} });
    expect(unknown.frameBytes).toBeNull();
    expect(chartView(CHARTS.find((c) => c.id === 'queue')!, 'frames', unknown, 'KB')).toMatchObject({ unit: 'frames', scale: 1 });
  });

  it("gives the rate charts the network's top rate as their range before any sample: the fastest link or a larger PCR", () => {
    const links = [{ rate_mbps: 155.52 }, { rate_mbps: 100 }];
    expect(topRateMbps({ links })).toBe(155.52);
    expect(topRateMbps({ links, connections: [{}, { params: { pcr_mbps: 300 } }] })).toBe(300);
    expect(topRateMbps({ links, defaults: { source: { pcr_mbps: 622 } } })).toBe(622);
    // A PCR under the links' rates changes nothing (the faster link's rate still shows).
    expect(topRateMbps({ links, connections: [{ params: { pcr_mbps: 10 } }] })).toBe(155.52);
    expect(topRateMbps({})).toBeNull();
    const twoSources = LIBRARY.entries.find((e) => e.id === 'two-sources')!.scenario;
    const net = networkView(twoSources);
    expect(net.topRateMbps).toBe(155.52);
    const view = (id: string, unit: string, n = net) => chartView(CHARTS.find((c) => c.id === id)!, unit, n);
    expect(view('rate', 'Mbps').yReach).toBe(155.52);
    expect(view('goodput', 'Mbps').yReach).toBe(155.52);
    expect(chartView(ALGORITHM_CHART, 'Mbps', net).yReach).toBe(155.52);
    // Charts of other units keep their floor.
    expect(view('queue', 'cells').yReach).toBeNull();
    expect(view('utilization', '%').yReach).toBeNull();
    expect(chartView(ALGORITHM_CHART, '', net).yReach).toBeNull();
    // Ethernet: in the shown unit, Gbps.
    const eth = networkView({ ethernet: { frame_bytes: 1500 }, links: [{ rate_mbps: 10_000 }] });
    expect(view('rate', 'Mbps', eth)).toMatchObject({ unit: 'Gbps', yReach: 10 });
  });

  it('shows Ethernet rates in Gbps, queues in KB or frames, and titles without cells or ACR', () => {
    const net = networkView({ ethernet: { frame_bytes: 1500 } });
    const view = (id: string, unit: string, q?: 'KB' | 'frames') => chartView(CHARTS.find((c) => c.id === id)!, unit, net, q);
    expect(view('rate', 'Mbps')).toMatchObject({ title: 'Rate limit of each flow', unit: 'Gbps', scale: 0.001 });
    expect(view('queue', 'frames', 'KB')).toMatchObject({ unit: 'KB', scale: 1.5 });
    expect(view('queue', 'frames', 'frames')).toMatchObject({ unit: 'frames', scale: 1 });
    // Delivered counts stay in frames whatever the queue unit.
    expect(view('delivered', 'frames', 'KB')).toMatchObject({ unit: 'frames', scale: 1 });
    expect(view('goodput', 'Mbps').unit).toBe('Gbps');
    for (const c of CHARTS) expect(view(c.id, '').title).not.toMatch(/\bcells?\b|ACR/i);
    expect(chartView(ALGORITHM_CHART, 'Mbps', net)).toMatchObject({ unit: 'Gbps', scale: 0.001 });
  });

  it('offers each algorithm quantity once, in order, and draws one for every port that has it', () => {
    expect(algorithmQuantities(withAlgorithms)).toEqual(['aggregate_bid_mbps', 'allocation_mbps', 'overload', 'fair_share_mbps']);
    expect(algorithmQuantities(meta)).toEqual([]);
    const overload = linesFor(ALGORITHM_CHART, withAlgorithms, onlyQuantity('overload'));
    expect(overload.map((l) => l.label)).toEqual(['SW2->D1 overload', 'SW2->D2 overload']);
    expect(unitFor(ALGORITHM_CHART, withAlgorithms, onlyQuantity('overload'))).toBe('');
    expect(unitFor(ALGORITHM_CHART, withAlgorithms, onlyQuantity('allocation_mbps'))).toBe('Mbps');
    // A port keeps its colour whichever quantity is shown.
    const share = linesFor(ALGORITHM_CHART, withAlgorithms, onlyQuantity('fair_share_mbps'));
    expect(share.map((l) => l.color)).toEqual(overload.map((l) => l.color));
    const bid = linesFor(ALGORITHM_CHART, withAlgorithms, onlyQuantity('aggregate_bid_mbps'));
    expect(bid[0].color).not.toBe(share[0].color);
  });
});

describe('connection groups', () => {
  it('give the lines of one group one hue, on every chart of connections', () => {
    const groups = new Map([['C1', 'A'], ['C2', 'A']]);
    const rate = linesFor(CHARTS.find((c) => c.id === 'rate')!, meta, undefined, (o) => groups.get(o));
    const c1 = rate.find((l) => l.owner === 'C1')!.color;
    const c2 = rate.find((l) => l.owner === 'C2')!.color;
    expect(c1).not.toBe(c2);
    // Both are shades of the group's hue (the first palette colour), not C2's own second colour.
    expect([c1, c2]).toEqual([...colourByGroup(['C1', 'C2'], () => 'A').values()]);
    const ungrouped = linesFor(CHARTS.find((c) => c.id === 'rate')!, meta);
    expect(ungrouped.find((l) => l.owner === 'C2')!.color).toBe(PALETTE[1]);
  });
});

describe('algorithm quantity labels', () => {
  it('read as words, with acronyms in capitals and the unit left to the axis', () => {
    expect(quantityLabel('macr_pct_of_target')).toBe('MACR, % of target');
    expect(quantityLabel('fair_share_mbps')).toBe('fair share');
    expect(quantityLabel('advertised_rate_mbps')).toBe('advertised rate');
    expect(quantityLabel('effective_vcs')).toBe('effective VCs');
    expect(quantityLabel('overload')).toBe('overload');
  });

  // QA: fecn-hotspot's algorithm chart CSV was headed "SW1->EP4 advertised_rate_mbps (Gbps)",
  // its values in Gbps: the engine's name with its unit beside the unit the chart shows.
  it("name a chart's lines (tooltip, CSV header) as the picker does, without the engine's unit", () => {
    const lines = linesFor(ALGORITHM_CHART, [...withAlgorithms, alg('SW1->EP4', 'advertised_rate_mbps')], onlyQuantity('advertised_rate_mbps'));
    expect(lines.map((l) => l.label)).toEqual(['SW1->EP4 advertised rate']);
    expect(linesFor(ALGORITHM_CHART, withAlgorithms, onlyQuantity('overload')).map((l) => l.label)).toEqual(['SW2->D1 overload', 'SW2->D2 overload']);
  });
});

describe('virtual paths on the rate chart', () => {
  it('draw one solid line per ABR virtual path, in the first colours', () => {
    const vp: SeriesMeta = { id: 'vp_acr:VP1', kind: 'vp_acr', label: 'VP1 ACR', unit: 'Mbps', owner: 'VP1', held: true };
    const rate = CHARTS.find((c) => c.id === 'rate')!;
    const lines = linesFor(rate, [...meta, vp]);
    const vpLine = lines.find((l) => l.owner === 'VP1')!;
    expect(vpLine.style).toBe('solid');
    expect(vpLine.color).toBe(PALETTE[0]);
    expect(lines.find((l) => l.owner === 'C1')!.color).toBe(PALETTE[1]);
  });
});

// Issue 14: a line for each of 10,000 sources' series took seconds to build and drew nothing
// readable; a chart draws at most MAX_OWNERS_DRAWN owners, every group represented.
describe('charts of huge networks', () => {
  const series = (owner: string, kind: SeriesMeta['kind'] = 'acr'): SeriesMeta => ({ id: `${kind}:${owner}`, kind, owner, label: owner, unit: 'Mbps', held: false });
  const rate = CHARTS.find((c) => c.id === 'rate')!;

  it('issue 14: draws an evenly spread sample of 10,000 connections, and says so', () => {
    const meta = Array.from({ length: 10_000 }, (_, i) => [series(`C${i + 1}`), series(`C${i + 1}`, 'share')]).flat();
    const d = drawnLines(rate, meta);
    expect(d.owners).toBe(10_000);
    expect(d.drawn).toBe(MAX_OWNERS_DRAWN);
    const owners = [...new Set(d.lines.map((l) => l.owner))];
    expect(owners).toHaveLength(MAX_OWNERS_DRAWN);
    expect(owners[0]).toBe('C1');
    expect(owners.at(-1)).toBe('C10000');
    expect(d.lines).toHaveLength(2 * MAX_OWNERS_DRAWN); // both lines of each drawn connection
    expect(d.lines[1]).toMatchObject({ owner: 'C1', index: 1 }); // indices stay the store's
    expect(new Set(d.lines.map((l) => l.color)).size).toBeGreaterThan(1);
    expect(sampledText('rate', d)).toBe(`${MAX_OWNERS_DRAWN} of 10,000 connections drawn, evenly spread (the run's CSV export has them all)`);
  });

  it('keeps every group represented, and every line of a small network as linesFor draws it', () => {
    const meta = [...Array.from({ length: 60 }, (_, i) => series(`A${i}`)), ...Array.from({ length: 3 }, (_, i) => series(`B${i}`))];
    const groupOf = (o: string) => o[0];
    const d = drawnLines(rate, meta, undefined, groupOf, 10);
    expect(new Set(d.lines.map((l) => l.group))).toEqual(new Set(['A', 'B']));
    const small = meta.slice(0, 5);
    expect(drawnLines(rate, small)).toEqual({ lines: linesFor(rate, small), owners: 5, drawn: 5 });
    expect(sampledText('queue', drawnLines(rate, small))).toBeNull();
  });
});

describe('algorithmEmptyText', () => {
  const defaults = { atm: 'erica', ethernet: 'qcn' };
  const twoSources = LIBRARY.entries.find((s) => s.id === 'two-sources')!.scenario;
  const names = { erica: 'ERICA', efci: 'EFCI' };

  // QA: deleting L3 in two-sources took both connections; the chart said every switch runs
  // "none" although SW1 runs ERICA.
  it('says there is no connection when the connections are gone, not that switches run none', () => {
    const text = algorithmEmptyText({ ...twoSources, connections: [] }, [], defaults, names);
    expect(text).toBe('There is no connection, so no switch port carries traffic to report on.');
    expect(text).not.toContain('none');
  });

  it('says no connection crosses a switch port when no port series is recorded', () => {
    const connOnly = meta.filter((m) => m.owner.startsWith('C'));
    expect(algorithmEmptyText(twoSources, connOnly, defaults, names)).toBe(
      'No connection crosses a switch output port, so no switch algorithm has traffic to report on.',
    );
  });

  it('says every switch runs none only when each one does', () => {
    const none = { ...twoSources, nodes: twoSources.nodes.map((n) => (n.kind === 'switch' ? { ...n, algorithm: 'none' } : n)) };
    expect(algorithmEmptyText(none, meta, defaults, names)).toBe('No switch reports internal state (every switch runs “none”).');
  });

  it('names the crossed switches running none, or the algorithms without state', () => {
    const sw1None = { ...twoSources, nodes: twoSources.nodes.map((n) => (n.id === 'SW1' ? { ...n, algorithm: 'none' } : n)) };
    expect(algorithmEmptyText(sw1None, meta, defaults, names)).toBe('Every switch a connection crosses runs “none”, which keeps no internal state.');
    const sw1Efci = { ...twoSources, nodes: twoSources.nodes.map((n) => (n.id === 'SW1' ? { ...n, algorithm: 'efci' } : n)) };
    expect(algorithmEmptyText(sw1Efci, meta, defaults, names)).toBe('The algorithms of the switches the connections cross (EFCI) keep no internal state.');
  });

  it('says the network has no switch', () => {
    const noSwitch = { ...twoSources, nodes: twoSources.nodes.filter((n) => n.kind !== 'switch') };
    expect(algorithmEmptyText(noSwitch, [], defaults, names)).toBe('The network has no switch, so no algorithm state to show.');
  });
});

// QA: after the last connection was deleted the rate, queue and utilisation charts showed bare
// 0–1 axes: with no series their unit came out empty.
describe('unitFor on a chart without series', () => {
  const probes = ENGINE_CATALOGUE.probes;
  const byId = (id: string) => CHARTS.find((c) => c.id === id)!;

  it('keeps the catalogue unit of the chart kind', () => {
    expect(unitFor(byId('rate'), [], undefined, probes)).toBe('Mbps');
    expect(unitFor(byId('queue'), [], undefined, probes)).toBe('cells');
    expect(unitFor(byId('utilization'), [], undefined, probes)).toBe('%');
    expect(unitFor(byId('queue'), [], undefined, probes, true)).toBe('frames');
  });

  it('still prefers the unit of a series the run has', () => {
    expect(unitFor(byId('queue'), [{ ...meta[6], kind: 'queue_peak', unit: 'frames' }], undefined, probes)).toBe('frames');
  });
});
