// The interactive worker's RM-cell trace, explain and "next RM event at a node", with the real
// engine (the fake has no RM cells).
import { describe, expect, it } from 'vitest';
import type { RmRecord } from '../contract/engine';
import { FakeHost, twoSources } from '../test/fakes';
import { WASM_INTERACTIVE } from '../test/wasmEngine';
import { WorkerCore } from './workerCore';

function setup() {
  const host = new FakeHost();
  // The fake clock does not move during engine calls: a slice ends after its first batch.
  const core = new WorkerCore(WASM_INTERACTIVE, host);
  core.handle({ type: 'load', scenario: twoSources() });
  return { host, core };
}

const recordsOf = (host: FakeHost, run = 1): RmRecord[] =>
  host.take('rmEvents').filter((m) => m.run === run).flatMap((m) => m.records);

describe('WorkerCore RM-cell trace', () => {
  it('sends no RM-cell events until the trace is turned on', () => {
    const { host, core } = setup();
    core.handle({ type: 'runUntil', ms: 5 });
    host.run();
    expect(host.take('rmEvents')).toHaveLength(0);
  });

  it('drains the trace with the samples: every event once, in time order, within the run so far', () => {
    const { host, core } = setup();
    core.handle({ type: 'rmTrace', capacity: 20_000 });
    core.handle({ type: 'runUntil', ms: 5 });
    host.run();
    core.handle({ type: 'runUntil', ms: 10 });
    host.run();
    const records = recordsOf(host);
    expect(records.length).toBeGreaterThan(50);
    const times = records.map((r) => r.time_us);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times[times.length - 1]).toBeLessThanOrEqual(10_000);
    // Each RM cell's events are distinct: (connection, rm_seq, node, direction) never repeats.
    const keys = records.map((r) => `${r.connection}/${r.rm_seq}/${r.node}/${r.direction}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(records.map((r) => r.direction))).toEqual(new Set(['sent', 'forward', 'turnaround', 'backward', 'received']));
    expect(host.take('rmEvents').every((m) => m.dropped === 0)).toBe(true);
  });

  it('keeps the trace on across a reset, and stops it with capacity 0', () => {
    const { host, core } = setup();
    core.handle({ type: 'rmTrace', capacity: 1000 });
    core.handle({ type: 'reset' });
    core.handle({ type: 'runUntil', ms: 3 });
    host.run();
    expect(recordsOf(host, 2).length).toBeGreaterThan(0);
    core.handle({ type: 'rmTrace', capacity: 0 });
    const before = host.take('rmEvents').length;
    core.handle({ type: 'runUntil', ms: 6 });
    host.run();
    expect(host.take('rmEvents').length).toBe(before);
  });

  it('explains a switch port at the current time, and names the field of a bad request', () => {
    const { host, core } = setup();
    core.handle({ type: 'runUntil', ms: 20 });
    host.run();
    core.handle({ type: 'explain', id: 7, switchId: 'SW1', port: 'SW2' });
    const [ok] = host.take('explained');
    expect(ok).toMatchObject({ id: 7, run: 1, problem: null });
    expect(ok.explain!.algorithm).toBe('erica');
    expect(ok.explain!.port).toBe('SW1->SW2');
    expect(ok.explain!.time_us).toBeCloseTo(20_000, 6);
    const value = (name: string) => ok.explain!.values.find((q) => q.name === name)?.value;
    // ERICA's own terms, consistent with each other: FairShare = target rate / N.
    expect(value('fair_share_mbps')).toBeCloseTo(value('target_rate_mbps')! / value('active_vcs')!, 9);
    expect(ok.explain!.vcs.map((v) => v.connection).sort()).toEqual(['C1', 'C2']);
    core.handle({ type: 'explain', id: 8, switchId: 'NOPE', port: 'SW2' });
    core.handle({ type: 'explain', id: 9, switchId: 'SW1', port: 'D1' });
    const [, noSwitch, noPort] = host.take('explained');
    expect(noSwitch).toMatchObject({ id: 8, explain: null, problem: { path: 'switch' } });
    expect(noPort).toMatchObject({ id: 9, explain: null, problem: { path: 'port' } });
  });

  it('steps to the next RM-cell event at a node and direction, pausing at its time', () => {
    const { host, core } = setup();
    core.handle({ type: 'runUntil', ms: 10 });
    host.run();
    core.handle({ type: 'nextRmEvent', node: 'SW1', direction: 'backward' });
    host.run();
    const [found] = host.take('rmFound');
    expect(found.record).not.toBeNull();
    const r = found.record!;
    expect(r).toMatchObject({ node: 'SW1', direction: 'backward' });
    expect(r.time_us).toBeGreaterThan(10_000);
    const s = host.lastStatus()!;
    expect(s.mode).toBe('paused');
    expect(s.nowMs * 1000).toBeCloseTo(r.time_us, 6);
    // The found event reached the page with the others, and none at SW1 backward came earlier.
    const records = recordsOf(host);
    expect(records).toContainEqual(r);
    const earlier = records.filter((x) => x.node === 'SW1' && x.direction === 'backward' && x.time_us > 10_000 && x.time_us < r.time_us);
    expect(earlier).toHaveLength(0);
    // Again: the next one is later still.
    core.handle({ type: 'nextRmEvent', node: 'SW1', direction: 'backward' });
    host.run();
    const [, again] = host.take('rmFound');
    expect(again.record!.time_us).toBeGreaterThan(r.time_us);
  });

  it("answers a search the engine refuses with the engine's reason, naming the node, and pauses (QA: 'Stopped searching…')", () => {
    const { host, core } = setup();
    core.handle({ type: 'nextRmEvent', node: 'SW9' });
    host.run();
    expect(host.take('rmFound')).toMatchObject([{ node: 'SW9', record: null, ended: false, problem: { path: 'node', rule: '"SW9" is not a node of this scenario' } }]);
    expect(host.take('error')).toEqual([]);
    expect(host.lastStatus()).toMatchObject({ mode: 'paused', nowMs: 0 });
  });

  it('ends the search with nothing found when the run ends first', () => {
    const { host, core } = setup();
    core.handle({ type: 'runUntil', ms: 99.9 });
    host.run();
    core.handle({ type: 'nextRmEvent', node: 'S1', direction: 'notification' });
    host.run();
    expect(host.take('rmFound')).toEqual([{ type: 'rmFound', run: 1, node: 'S1', direction: 'notification', record: null, ended: true, problem: null }]);
    expect(host.lastStatus()!.mode).toBe('done');
  });

  it("stops at the next event of the connection sought, not at another connection's (QA: it stopped at C1's, which the log's C2 filter hid)", () => {
    const { host, core } = setup();
    core.handle({ type: 'rmTrace', capacity: 20_000 });
    core.handle({ type: 'runUntil', ms: 10 });
    host.run();
    const before = recordsOf(host);
    // C1's backward RM cells at SW1 came first and come on: a search that ignores the
    // connection stops at one of them.
    expect(before.some((r) => r.connection === 'C1' && r.node === 'SW1' && r.direction === 'backward')).toBe(true);
    core.handle({ type: 'nextRmEvent', node: 'SW1', direction: 'backward', connection: 'C2' });
    host.run();
    const [found] = host.take('rmFound');
    // The answer carries what was sought, for the page to say so.
    expect(found).toMatchObject({ node: 'SW1', direction: 'backward', connection: 'C2', ended: false });
    expect(found.record).toMatchObject({ connection: 'C2', node: 'SW1', direction: 'backward' });
    expect(host.lastStatus()!.nowMs * 1000).toBeCloseTo(found.record!.time_us, 6);
    // It is the first such event after 10 ms in the records the page got.
    const after = recordsOf(host).filter((r) => r.time_us > 10_000);
    expect(after.find((r) => r.connection === 'C2' && r.node === 'SW1' && r.direction === 'backward')).toEqual(found.record);
  });

  it('names the connection of a search the engine refuses, and pauses', () => {
    const { host, core } = setup();
    core.handle({ type: 'nextRmEvent', node: 'SW1', connection: 'C9' });
    host.run();
    expect(host.take('rmFound')).toMatchObject([
      { node: 'SW1', connection: 'C9', record: null, ended: false, problem: { path: 'connection', rule: '"C9" is not a connection of this scenario' } },
    ]);
    expect(host.take('error')).toEqual([]);
    expect(host.lastStatus()).toMatchObject({ mode: 'paused', nowMs: 0 });
  });
});

describe('WorkerCore RM-cell trace before a load', () => {
  it('takes the trace setting before any scenario and applies it to the first run', () => {
    const host = new FakeHost();
    const core = new WorkerCore(WASM_INTERACTIVE, host);
    core.handle({ type: 'rmTrace', capacity: 500 });
    expect(host.take('error')).toHaveLength(0);
    core.handle({ type: 'load', scenario: twoSources() });
    core.handle({ type: 'runUntil', ms: 2 });
    host.run();
    expect(recordsOf(host).length).toBeGreaterThan(0);
  });
});

describe('WorkerCore RM-event search stopped', () => {
  it('says the search was stopped, not that the run ended, when paused first', () => {
    const { host, core } = setup();
    core.handle({ type: 'nextRmEvent', node: 'S1', direction: 'notification' }); // never happens on ATM
    core.handle({ type: 'pause' });
    host.run();
    expect(host.take('rmFound')).toEqual([{ type: 'rmFound', run: 1, node: 'S1', direction: 'notification', record: null, ended: false, problem: null }]);
    expect(host.lastStatus()!.mode).toBe('paused');
  });
});
