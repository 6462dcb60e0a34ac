import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RmRecord } from '../contract/engine';
import { readFileSync } from 'node:fs';
import type { Scenario } from '../contract/scenario';
import { acrText, erText, filterOptions, filterRm, filterWithin, flagsText, loopName, lowererName, MBPS, nearestRow, NO_FILTER, nodeFilterOrder, RmLog, rmLogColumns, throttledSubscribe, cellPhases, movingText, markerText, markerLegend, rmNotFoundText, rmQueryText, rmWords, scenarioFeedback, type Phase } from './rmLog';
import { rmRecord } from '../test/rmRecord';
import { ENGINE_CATALOGUE } from '../test/engineCatalogue';
import { repoFile } from '../test/fakes';

const rec = (i: number, over: Partial<RmRecord> = {}): RmRecord =>
  rmRecord({
    time_us: i * 10,
    connection: i % 2 ? 'C2' : 'C1',
    rm_seq: i,
    node: i % 3 ? 'SW1' : 'SW2',
    direction: i % 4 ? 'forward' : 'backward',
    ...over,
  });

// QA: after Run to, the log said "0 events" for 200 ms: its refresh waited a whole interval
// before the first events of a quiet log.
describe('throttledSubscribe', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('tells the first change after a quiet spell at once, then at most once per interval, the last never lost', () => {
    vi.useFakeTimers();
    const log = new RmLog(100);
    const told: number[] = [];
    const stop = throttledSubscribe(log.subscribe, 200, () => Date.now())(() => told.push(log.version));
    log.append([rec(0)], 0);
    expect(told).toEqual([1]); // at once, not 200 ms later
    log.append([rec(1)], 0);
    log.append([rec(2)], 0);
    vi.advanceTimersByTime(199);
    expect(told).toEqual([1]);
    vi.advanceTimersByTime(1);
    expect(told).toEqual([1, 3]); // the latest of the burst, on the trailing edge
    vi.advanceTimersByTime(1000);
    log.append([rec(3)], 0);
    expect(told).toEqual([1, 3, 4]); // quiet again: at once
    log.append([rec(4)], 0);
    stop();
    vi.advanceTimersByTime(1000);
    expect(told).toEqual([1, 3, 4]); // unsubscribed: the pending edge is dropped
  });
});

describe('RmLog', () => {
  it('keeps the run\'s first events when the run goes back, the later ones to come again', () => {
    const log = new RmLog(100);
    log.append(Array.from({ length: 50 }, (_, i) => rec(i)), 0);
    const v = log.version;
    log.keepFirst(20);
    expect(log.records().map((r) => r.rm_seq)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(log.version).toBeGreaterThan(v);
    log.keepFirst(500);
    expect(log.records()).toHaveLength(20);
    expect(log.received()).toBe(20);
  });

  it('tells a reader the fewest events it held since a cut it saw, and nothing across a reset', () => {
    const log = new RmLog(100);
    log.append(Array.from({ length: 80 }, (_, i) => rmRecord({ time_us: i })), 0);
    const seen = log.cuts;
    expect(log.heldSince(seen)).toBe(Infinity);
    log.keepFirst(60);
    log.append(Array.from({ length: 20 }, (_, i) => rmRecord({ time_us: 60 + i })), 0);
    log.keepFirst(70);
    expect(log.heldSince(seen)).toBe(60);
    expect(log.heldSince(log.cuts - 1)).toBe(70);
    log.reset();
    expect(log.heldSince(seen)).toBeNull();
    expect(log.heldFrom()).toBe(0);
  });

  it('going back past what it let go keeps nothing, and counts exactly the first events as not kept', () => {
    const log = new RmLog(100);
    for (let k = 0; k < 10; k++) log.append(Array.from({ length: 50 }, (_, i) => rec(k * 50 + i)), 0);
    expect(log.dropped()).toBe(400);
    // Back to a copy taken after the run's 150th event: all the events kept came later.
    log.keepFirst(150);
    expect(log.records()).toHaveLength(0);
    expect(log.dropped()).toBe(150);
    // The replay sends the rest again: the log holds them as it did.
    log.append(Array.from({ length: 350 }, (_, i) => rec(150 + i)), 0);
    expect(log.records().map((r) => r.rm_seq)).toEqual(Array.from({ length: 100 }, (_, i) => 400 + i));
    expect(log.dropped()).toBe(400);
    // Back to within what it keeps.
    log.keepFirst(450);
    expect(log.records().map((r) => r.rm_seq)).toEqual(Array.from({ length: 50 }, (_, i) => 400 + i));
    expect(log.dropped()).toBe(400);
  });

  it('keeps the newest events up to its capacity and counts the rest as dropped', () => {
    const log = new RmLog(100);
    for (let k = 0; k < 7; k++) log.append(Array.from({ length: 37 }, (_, i) => rec(k * 37 + i)), 3);
    const kept = log.records();
    expect(kept).toHaveLength(100);
    expect(kept[kept.length - 1].rm_seq).toBe(7 * 37 - 1);
    expect(kept[0].rm_seq).toBe(7 * 37 - 100);
    // 159 dropped in the page, 3 by the engine.
    expect(log.dropped()).toBe(7 * 37 - 100 + 3);
  });

  it('counts every event received this run, so a reader finds the new ones at the end of records()', () => {
    const log = new RmLog(100);
    let seen = 0;
    const read: number[] = [];
    for (let k = 0; k < 9; k++) {
      log.append(Array.from({ length: 29 }, (_, i) => rec(k * 29 + i)), 0);
      const kept = log.records();
      const fresh = log.received() - seen;
      read.push(...kept.slice(kept.length - fresh).map((r) => r.rm_seq));
      seen = log.received();
    }
    expect(read).toEqual(Array.from({ length: 9 * 29 }, (_, i) => i));
    log.reset();
    expect(log.received()).toBe(0);
  });

  it('tells its listeners of every change, and a reset empties it', () => {
    const log = new RmLog(10);
    let told = 0;
    log.subscribe(() => told++);
    log.append([rec(1)], 0);
    const v = log.getVersion();
    log.reset();
    expect(told).toBe(2);
    expect(log.getVersion()).toBeGreaterThan(v);
    expect(log.records()).toHaveLength(0);
    expect(log.dropped()).toBe(0);
  });
});

describe('event log filter and text', () => {
  const all = Array.from({ length: 60 }, (_, i) => rec(i));

  it('filters by connection, node and direction, newest first', () => {
    const f = filterRm(all, { connection: 'C1', node: 'SW1', direction: 'backward' });
    expect(f.length).toBeGreaterThan(0);
    expect(f.every((r) => r.connection === 'C1' && r.node === 'SW1' && r.direction === 'backward')).toBe(true);
    expect(f.map((r) => r.time_us)).toEqual(all.filter((r) => f.includes(r)).map((r) => r.time_us).reverse());
    expect(filterRm(all, NO_FILTER)).toHaveLength(all.length);
  });

  it('offers the scenario ids first, then any other id the events carry', () => {
    expect(filterOptions(all, 'connection', ['C2', 'C9'])).toEqual(['C2', 'C9', 'C1']);
    expect(filterOptions([...all, rec(3, { node: 'X1' })], 'node', ['SW2'])).toEqual(['SW2', 'SW1', 'X1']);
    expect(filterOptions([rec(1, { node: 'X10' }), rec(2, { node: 'X9' })], 'node', [])).toEqual(['X9', 'X10']);
  });

  it("lists a network's nodes for the node filter by kind, then in natural order (gfc1's file does not)", () => {
    const gfc1Like = [
      { id: 'S1', kind: 'source' },
      { id: 'S15', kind: 'source' },
      { id: 'D1', kind: 'destination' },
      { id: 'S16', kind: 'source' },
      { id: 'SW10', kind: 'switch' },
      { id: 'SW2', kind: 'switch' },
      { id: 'D16', kind: 'destination' },
      { id: 'S2', kind: 'source' },
    ];
    expect(nodeFilterOrder(gfc1Like)).toEqual(['S1', 'S2', 'S15', 'S16', 'SW2', 'SW10', 'D1', 'D16']);
  });

  it("names a virtual path's own RM cells by the path, not by the member connection they travel under", () => {
    const path = rec(61, { connection: 'C1', vp: 'VP1' });
    const withPath = [...all, path];
    expect(loopName(path)).toBe('VP1');
    expect(loopName(all[0])).toBe('C1');
    expect(filterRm(withPath, { ...NO_FILTER, connection: 'VP1' })).toEqual([path]);
    expect(filterRm(withPath, { ...NO_FILTER, connection: 'C1' })).not.toContain(path);
    expect(filterOptions(withPath, 'connection', ['C1', 'C2'])).toEqual(['C1', 'C2', 'VP1']);
    expect(filterOptions(withPath, 'connection', ['C1', 'C2', 'C1'])).toEqual(['C1', 'C2', 'VP1']);
  });

  it('finds the row nearest a time in a newest-first list', () => {
    const newest = filterRm(all, NO_FILTER); // times 590, 580, ... 0
    expect(nearestRow(newest, 583)).toBe(newest.findIndex((r) => r.time_us === 580));
    expect(nearestRow(newest, 587)).toBe(newest.findIndex((r) => r.time_us === 590));
    expect(nearestRow(newest, 1e9)).toBe(0);
    expect(nearestRow(newest, -5)).toBe(newest.length - 1);
    expect(nearestRow([], 5)).toBe(-1);
  });

  it('shows ER in → out only when a switch changed it, and the flags set', () => {
    expect(erText(rec(1, { er_in_mbps: 155.52, er_out_mbps: 69.984 }))).toBe('155.52 → 69.98');
    // As the switch explanation writes them: 139.97, not 140.0; Ethernet's Gbps in Mbps with one.
    expect(erText(rec(1, { er_in_mbps: 139.968, er_out_mbps: 139.968 }))).toBe('139.97');
    expect(erText(rec(1, { er_in_mbps: 10000, er_out_mbps: 2500.04 }))).toBe('10000.0 → 2500.0');
    expect(erText(rec(1, { er_in_mbps: 69.984, er_out_mbps: 69.984 }))).toBe('69.98');
    expect(erText(rec(1, { er_in_mbps: null, er_out_mbps: 12 }))).toBe('— → 12.00');
    expect(flagsText(rec(1, { ci: true, ni: true }))).toBe('CI NI');
    expect(flagsText(rec(1))).toBe('');
    // A notification's feedback has no unit: not a rate.
    expect(erText(rec(1, { direction: 'notification', er_in_mbps: null, er_out_mbps: null, feedback: 63 }))).toBe('|Fb| 63');
  });

  it('shows the source\'s ACR before and after a cell it received, nothing elsewhere', () => {
    expect(acrText(rec(1, { direction: 'received', acr_before_mbps: 25, acr_after_mbps: 69.984 }))).toBe('25.00 → 69.98');
    expect(acrText(rec(1))).toBe('');
  });

  it('names who lowered ER as the UI does (the catalogue name), the trace keeping the id', () => {
    const algorithms = [
      { id: 'erica', name: 'ERICA' },
      { id: 'erica_plus', name: 'ERICA+' },
    ];
    expect(lowererName('erica_plus', algorithms)).toBe('ERICA+');
    expect(lowererName('virtual_source', algorithms)).toBe('the virtual source');
    expect(lowererName('something_new', algorithms)).toBe('something_new');
  });
});

describe("the log's columns follow the network's kind, as the charts do", () => {
  const GBPS = { unit: 'Gbps', scale: 1e-3 };
  const library = (id: string): Scenario => JSON.parse(readFileSync(repoFile(`scenarios/${id}.json`), 'utf8'));
  const columnsOf = (id: string) => {
    const s = library(id);
    return rmLogColumns(!!s.ethernet, scenarioFeedback(s, ENGINE_CATALOGUE), s.ethernet ? GBPS : MBPS);
  };
  const labels = (id: string) => columnsOf(id).map((c) => c.label);

  it('ATM: ER, CCR and the source ACR in Mbps, with CI/NI', () => {
    expect(labels('two-sources')).toEqual(['t (ms)', 'conn', '#', 'node', 'direction', 'ER (Mbps)', 'CCR (Mbps)', 'CI/NI', 'lowered by', 'source ACR (Mbps)']);
  });

  it('QCN (QA: "ER (Mbps)" where the charts say Gbps): the notification\'s |Fb| and the rate limit in Gbps; no CCR, CI/NI or "lowered by", which no notification fills', () => {
    expect(labels('qcn-hotspot')).toEqual(['t (ms)', 'flow', '#', 'node', 'direction', 'feedback |Fb|', 'rate limit (Gbps)']);
  });

  it("FECN: the tag's rate, the rate it was sent at and the rate limit, in Gbps", () => {
    expect(labels('fecn-hotspot')).toEqual(['t (ms)', 'flow', '#', 'node', 'direction', 'tag rate (Gbps)', 'sent at (Gbps)', 'lowered by', 'rate limit (Gbps)']);
  });

  it('shows rates in the unit of the columns: 9,500 Mbps as 9.50 Gbps', () => {
    const r = rmRecord({ er_in_mbps: 10_000, er_out_mbps: 2_500, acr_before_mbps: 9_500, acr_after_mbps: 2_500 });
    expect(erText(r, GBPS)).toBe('10.00 → 2.50');
    expect(acrText(r, GBPS)).toBe('9.50 → 2.50');
    expect(acrText(r)).toBe('9500.0 → 2500.0');
  });
});

describe('what a "next RM event" search looked for, in words', () => {
  it("gives the engine's reason for a refused search, naming the field and the rule (QA: it said 'Stopped searching…')", () => {
    const refused = { node: 'SW9', ended: false, problem: { path: 'node', rule: '"SW9" is not a node of this scenario' } };
    expect(rmNotFoundText(refused)).toBe('Cannot search for the next RM-cell event at SW9, any direction, any connection: node: "SW9" is not a node of this scenario.');
    expect(rmNotFoundText({ ...refused, problem: null })).toBe('Stopped searching for the next RM-cell event at SW9, any direction, any connection.');
  });

  it('names the node, direction and connection searched, or says "any" for each left open (QA: "No RM-cell event at  before the run ended.")', () => {
    expect(rmNotFoundText({ node: '', direction: 'lost', ended: true })).toBe('The run ended with no further RM-cell event at any node, direction lost, any connection.');
    expect(rmNotFoundText({ node: 'SW1', direction: 'backward', connection: 'C2', ended: true })).toBe(
      'The run ended with no further RM-cell event at SW1, direction backward, connection C2.',
    );
    expect(rmNotFoundText({ node: '', ended: false })).toBe('Stopped searching for the next RM-cell event at any node, any direction, any connection.');
  });

  it('calls a virtual path picked by the connection filter a virtual path', () => {
    expect(rmQueryText({ node: 'X', connection: 'VP3' }, ['VP1', 'VP3'])).toBe('RM-cell event at X, any direction, virtual path VP3');
    expect(rmQueryText({ node: 'X', connection: 'C9' }, ['VP1', 'VP3'])).toBe('RM-cell event at X, any direction, connection C9');
  });
});

describe('filterWithin', () => {
  // QA: SW3 chosen in parking-lot-3 stayed the search's node in two-sources, whose menu said "any".
  it("makes a connection or node the open scenario does not offer 'any', and keeps the rest", () => {
    const f = { connection: 'C3', node: 'SW3', direction: 'backward' as const };
    expect(filterWithin(f, ['C1', 'C2'], ['S1', 'SW1', 'SW2'])).toEqual({ connection: '', node: '', direction: 'backward' });
    expect(filterWithin(f, ['C1', 'C3'], ['SW1'])).toEqual({ connection: 'C3', node: '', direction: 'backward' });
    // Unchanged: the same object, so that what depends on it is not worked out again.
    expect(filterWithin(f, ['C3'], ['SW3'])).toBe(f);
    expect(filterWithin(NO_FILTER, [], [])).toBe(NO_FILTER);
  });
});

describe('rmWords', () => {
  // QA: an Ethernet run's log spoke of RM cells and connections.
  it("names Ethernet's events feedback events of flows, ATM's RM-cell events of connections", () => {
    const eth = rmWords(true);
    expect(rmQueryText({ node: 'SW1', connection: 'F2' }, [], eth)).toBe('feedback event at SW1, any direction, flow F2');
    expect(rmNotFoundText({ node: '', ended: true }, [], eth)).toBe('The run ended with no further feedback event at any node, any direction, any flow.');
    expect(rmQueryText({ node: 'SW1' }, [], rmWords(false))).toBe('RM-cell event at SW1, any direction, any connection');
    expect([eth.short, rmWords(false).short]).toEqual(['feedback event', 'RM event']);
  });

  // QA: a rate-discovery frame's panel said "(the loop of EP1)", ATM's word.
  it("says whose loop a cell makes in the network's words", () => {
    expect(rmWords(false).loopOf('S1')).toBe('the loop of S1');
    expect(rmWords(true).loopOf('EP1')).toBe('sent by EP1, reflected back to it');
  });
});

// QA: qcn-hotspot's Network view spoke ATM: rate-discovery frames "labelled with their ER, Mbps"
// it never draws, hosts' rates in Mbps.
describe("the Network view's words for a network", () => {
  const GBPS = { unit: 'Gbps', scale: 0.001 };
  const note = { er_in_mbps: null, er_out_mbps: null, feedback: 63 };
  const tag = { er_in_mbps: 5000, er_out_mbps: 4210, feedback: null };

  it('draws the phases its switches send: ATM both ways, FECN tags, QCN notifications', () => {
    expect(cellPhases(false, new Set())).toEqual(['forward', 'backward']);
    expect(cellPhases(true, new Set(['notification']))).toEqual(['notification']);
    expect(cellPhases(true, new Set(['rate_tag']))).toEqual(['forward', 'backward']);
    expect(movingText(true, new Set(['notification']))).toBe('QCN notifications');
    expect(movingText(true, new Set(['rate_tag', 'notification']))).toBe('Rate-discovery frames and QCN notifications');
    expect(movingText(false, new Set(['explicit_rate']))).toBe('RM cells');
  });

  it("names a marker and labels it in the network's unit: ER in Mbps, a tag's rate in Gbps, a notification's |Fb|", () => {
    expect(markerText('backward', 'C1', { er_in_mbps: 80, er_out_mbps: 69.98, feedback: null })).toEqual({ label: '69.98', name: 'Backward RM cell of C1, ER 69.98 Mbps' });
    expect(markerText('backward', 'F0', tag, rmWords(true), GBPS)).toEqual({ label: '4.21', name: 'Reflected rate-discovery frame of F0, tag rate 4.21 Gbps' });
    expect(markerText('notification', 'F3', note, rmWords(true), GBPS)).toEqual({ label: 'CN', name: 'QCN congestion notification for F3, feedback |Fb| 63' });
    expect(rmWords(true).sourceRate).toBe('rate limit');
  });

  // QA: the legend said backward RM cells were labelled with their ER; forward ones were too
  // ("155.52"), and the legend said nothing of it.
  it('the legend says a marker is labelled, and with what, for every phase the drawing labels', () => {
    const carried = { er_in_mbps: 155.52, er_out_mbps: 155.52, feedback: null };
    for (const [ethernet, rate] of [[false, MBPS], [true, GBPS]] as const) {
      const words = rmWords(ethernet);
      for (const phase of cellPhases(ethernet, new Set(['rate_tag', 'notification']))) {
        const { label } = markerText(phase, 'C1', phase === 'notification' ? note : carried, words, rate);
        expect(label).not.toBe('');
        const legend = markerLegend(phase, words, rate);
        expect(legend.startsWith(words.phase[phase])).toBe(true);
        expect(legend).toContain(phase === 'notification' ? `labelled ${label}` : `labelled with the ${words.er} it carries, ${rate.unit}`);
      }
    }
    expect(markerLegend('forward')).toBe('forward RM cell (labelled with the ER it carries, Mbps)');
    expect(markerLegend('backward')).toBe('backward RM cell (labelled with the ER it carries, Mbps)');
  });

  // QA: a FECN frame's name read "Rate-discovery frame, reflected of F0, …", a list, not a name.
  it('names every kind of marker as a noun phrase, the phase first: "<Phase> <thing> of|for <loop>, <what it carries>"', () => {
    const cases: [Phase, boolean, string][] = [
      ['forward', false, 'Forward RM cell of C1, ER 69.98 Mbps'],
      ['backward', false, 'Backward RM cell of C1, ER 69.98 Mbps'],
      ['forward', true, 'Forward rate-discovery frame of C1, tag rate 69.98 Mbps'],
      ['backward', true, 'Reflected rate-discovery frame of C1, tag rate 69.98 Mbps'],
    ];
    for (const [phase, ethernet, name] of cases) expect(markerText(phase, 'C1', { er_in_mbps: 80, er_out_mbps: 69.98, feedback: null }, rmWords(ethernet)).name).toBe(name);
    // No stray comma inside a name (before its "of"), and no word twice.
    for (const words of [rmWords(false), rmWords(true)])
      for (const phase of Object.keys(words.phase) as Phase[]) {
        expect(words.phase[phase]).not.toContain(',');
        expect(markerText(phase, 'X', note, words).name).toMatch(/^[A-Z][A-Za-z-]*( [A-Za-z-]+)* (of|for) X, feedback \|Fb\| 63$/);
      }
  });
});
