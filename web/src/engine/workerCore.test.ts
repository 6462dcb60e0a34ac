import { describe, expect, it } from 'vitest';
import { createFakeEngine, type FakeOptions } from '../test/fakeEngine';
import { withWallMs, WorkerCore } from './workerCore';
import { costly, FakeHost, twoSources } from '../test/fakes';

// two-sources: 100 ms, a sample every 0.5 ms -> 201 rows (t = 0 .. 100).
const ROWS = 201;

function setup(opts: FakeOptions = { eventsPerSample: 100 }, eventsPerMs = 1000) {
  const host = new FakeHost();
  const core = new WorkerCore(costly(createFakeEngine(opts), host, eventsPerMs), host);
  return { host, core };
}

function rowsOf(host: FakeHost, run?: number) {
  return host
    .take('samples')
    .filter((m) => run === undefined || m.run === run)
    .reduce((n, m) => n + m.data.length / m.width, 0);
}

describe('WorkerCore', () => {
  it('answers a load with the series metadata and a paused status at t = 0', () => {
    const { host, core } = setup();
    core.handle({ type: 'load', scenario: twoSources() });
    const [loaded] = host.take('loaded');
    expect(loaded.run).toBe(1);
    expect(loaded.scenarioId).toBe('two-sources');
    expect(loaded.endMs).toBe(100);
    expect(loaded.meta.map((m) => m.kind)).toContain('acr');
    expect(host.lastStatus()).toMatchObject({ run: 1, mode: 'paused', nowMs: 0, done: false });
  });

  it('rejects an invalid scenario with paths and rules, keeping the loaded one', () => {
    const { host, core } = setup();
    core.handle({ type: 'load', scenario: twoSources() });
    const bad = JSON.parse(twoSources());
    bad.run.duration_ms = -5;
    bad.links[0].from = 'NOPE';
    core.handle({ type: 'load', scenario: JSON.stringify(bad) });
    const [invalid] = host.take('invalid');
    expect(invalid.problems).toEqual(
      expect.arrayContaining([
        { path: 'run.duration_ms', rule: 'must be > 0' },
        { path: 'links[0].from', rule: 'unknown node "NOPE"' },
      ]),
    );
    expect(host.take('loaded')).toHaveLength(1);
    core.handle({ type: 'runUntil', ms: 10 });
    host.run();
    expect(host.lastStatus()).toMatchObject({ run: 1, nowMs: 10, mode: 'paused' });
  });

  it('reports text that is not JSON as a problem of the document', () => {
    const { host, core } = setup();
    core.handle({ type: 'load', scenario: '{ nope' });
    expect(host.take('invalid')[0].problems[0].path).toBe('');
  });

  it('plays at max speed to the end in budget-sized slices, sending every row once', () => {
    const { host, core } = setup();
    core.handle({ type: 'load', scenario: twoSources() });
    core.handle({ type: 'speed', speed: 'max' });
    core.handle({ type: 'play' });
    host.run();
    expect(host.lastStatus()).toMatchObject({ mode: 'done', done: true, nowMs: 100 });
    expect(rowsOf(host)).toBe(ROWS);
    // The run summary comes once, at the end.
    const summaries = host.take('summary');
    expect(summaries).toHaveLength(1);
    expect(JSON.parse(summaries[0].summary)).toMatchObject({ id: 'two-sources', sim_ms: 100 });
    // Its wall_ms is the time the engine worked on the run (the fake clock: 20,100 events at
    // 1,000 an ms), as abrsim run's is the run's wall time; the engine alone leaves it 0.
    expect(JSON.parse(summaries[0].summary).wall_ms).toBeCloseTo(20.1, 3);
    expect(JSON.parse(summaries[0].summary).wall_ms).toBe(host.lastStatus()!.engineMs);
    // With the run's digest, which a shared link's run must match.
    expect(summaries[0].digest).toMatch(/^[0-9a-f]+$/);
    // 20,100 events at 1,000 events per wall ms with a 10 ms budget: several slices.
    expect(host.take('samples').length).toBeGreaterThan(1);
    const times = host.take('samples').flatMap((m) => [...m.data].filter((_, i) => i % m.width === 0));
    expect(times).toEqual(Array.from({ length: ROWS }, (_, i) => i * 0.5));
  });

  it('pauses a playing run at the time it was told (a lesson step), at any speed, and plays on from there', () => {
    for (const speed of ['max', 0.5] as const) {
      const { host, core } = setup();
      core.handle({ type: 'load', scenario: twoSources() });
      core.handle({ type: 'speed', speed });
      core.handle({ type: 'play', stopsMs: [0, 40, 70] });
      host.run();
      expect(host.lastStatus(), `at ${speed}`).toMatchObject({ mode: 'paused', nowMs: 40 });
      // Played again, it pauses at the next stop (the one it is at is passed); without stops
      // ahead, it runs to the end.
      core.handle({ type: 'play', stopsMs: [0, 40, 70] });
      host.run();
      expect(host.lastStatus(), `at ${speed}`).toMatchObject({ mode: 'paused', nowMs: 70 });
      core.handle({ type: 'play', stopsMs: [0, 40, 70] });
      host.run();
      expect(host.lastStatus(), `at ${speed}`).toMatchObject({ mode: 'done', nowMs: 100 });
    }
  });

  it('plays at a multiple of real time against the wall clock', () => {
    const { host, core } = setup();
    core.handle({ type: 'load', scenario: twoSources() });
    core.handle({ type: 'speed', speed: 0.1 });
    core.handle({ type: 'play' });
    host.run(200); // 200 ms of wall time at 0.1x -> about 20 ms of simulated time
    const now = host.lastStatus()!.nowMs;
    expect(now).toBeGreaterThanOrEqual(18);
    expect(now).toBeLessThanOrEqual(21);
    expect(host.lastStatus()!.achievedSpeed).toBeCloseTo(0.1, 1);
  });

  it('runs as fast as it can, without building a debt, when the engine is slower than asked', () => {
    // 1 event per wall ms and 100 events per 0.5 ms sample: the engine does 0.005x real time.
    const { host, core } = setup({ eventsPerSample: 100 }, 1);
    core.handle({ type: 'load', scenario: twoSources() });
    core.handle({ type: 'speed', speed: 1 });
    core.handle({ type: 'play' });
    host.run(2000);
    const s = host.lastStatus()!;
    expect(s.mode).toBe('playing');
    expect(s.achievedSpeed!).toBeGreaterThan(0.003);
    expect(s.achievedSpeed!).toBeLessThan(0.007);
  });

  it('pauses between slices and resumes where it stopped', () => {
    const { host, core } = setup();
    core.handle({ type: 'load', scenario: twoSources() });
    core.handle({ type: 'speed', speed: 0.1 });
    core.handle({ type: 'play' });
    host.run(100);
    core.handle({ type: 'pause' });
    const paused = host.lastStatus()!;
    expect(paused.mode).toBe('paused');
    host.run();
    expect(host.pendingTasks).toBe(0);
    expect(host.lastStatus()!.nowMs).toBe(paused.nowMs);
    core.handle({ type: 'speed', speed: 'max' });
    core.handle({ type: 'play' });
    host.run();
    expect(host.lastStatus()).toMatchObject({ mode: 'done', nowMs: 100 });
    expect(rowsOf(host)).toBe(ROWS);
  });

  it('steps by an interval and runs until a time, then pauses', () => {
    const { host, core } = setup();
    core.handle({ type: 'load', scenario: twoSources() });
    core.handle({ type: 'step', ms: 2.5 });
    host.run();
    expect(host.lastStatus()).toMatchObject({ mode: 'paused', nowMs: 2.5 });
    expect(rowsOf(host)).toBe(6); // t = 0, 0.5, ... 2.5
    core.handle({ type: 'step', ms: 1 });
    host.run();
    expect(host.lastStatus()!.nowMs).toBe(3.5);
    core.handle({ type: 'runUntil', ms: 40 });
    host.run();
    expect(host.lastStatus()).toMatchObject({ mode: 'paused', nowMs: 40 });
    core.handle({ type: 'runUntil', ms: 500 });
    host.run();
    expect(host.lastStatus()).toMatchObject({ mode: 'done', nowMs: 100 });
  });

  it('reset starts a new run at t = 0 and later samples carry the new run number', () => {
    const { host, core } = setup();
    core.handle({ type: 'load', scenario: twoSources() });
    core.handle({ type: 'runUntil', ms: 30 });
    host.run();
    core.handle({ type: 'reset' });
    expect(host.take('loaded').map((m) => m.run)).toEqual([1, 2]);
    expect(host.lastStatus()).toMatchObject({ run: 2, nowMs: 0, mode: 'paused' });
    core.handle({ type: 'runUntil', ms: 100 });
    host.run();
    expect(rowsOf(host, 2)).toBe(ROWS);
  });

  it('applies a live parameter change without a reset, records it, and refuses a bad one', () => {
    const { host, core } = setup();
    core.handle({ type: 'load', scenario: twoSources() });
    core.handle({ type: 'runUntil', ms: 40 });
    host.run();
    core.handle({ type: 'setParam', node: 'SW1', param: 'target_utilization', value: 0.6 });
    const [ok] = host.take('paramSet');
    expect(ok).toMatchObject({
      run: 1,
      problem: null,
      change: { at_ms: 40, node: 'SW1', param: 'target_utilization', value: 0.6 },
    });
    expect(JSON.parse(ok.scenario).changes).toEqual([ok.change]);
    expect(host.take('loaded')).toHaveLength(1); // no reset
    expect(host.lastStatus()).toMatchObject({ run: 1, nowMs: 40 });

    core.handle({ type: 'setParam', node: 'SW1', param: 'target_utilization', value: 1.5 });
    core.handle({ type: 'setParam', node: 'S1', param: 'target_utilization', value: 0.5 });
    const [, range, notSwitch] = host.take('paramSet');
    expect(range.change).toBeNull();
    expect(range.problem).toEqual({
      path: 'value',
      rule: 'target_utilization = 1.5 is out of range: must be between 0.1 and 1',
    });
    expect(notSwitch.problem).toMatchObject({ path: 'node' });
    // A refused change leaves the recorded scenario as it was.
    expect(range.scenario).toBe(ok.scenario);
  });

  it('replays the recorded changes after a reset: the same rows as the live run', () => {
    const { host, core } = setup();
    core.handle({ type: 'load', scenario: twoSources() });
    core.handle({ type: 'runUntil', ms: 30 });
    host.run();
    core.handle({ type: 'setParam', node: 'SW1', param: 'target_utilization', value: 0.5 });
    core.handle({ type: 'runUntil', ms: 100 });
    host.run();
    core.handle({ type: 'reset' });
    core.handle({ type: 'runUntil', ms: 100 });
    host.run();
    const rowsOfRun = (run: number) => host.take('samples').filter((m) => m.run === run).flatMap((m) => [...m.data]);
    const live = rowsOfRun(1);
    expect(live.length).toBeGreaterThan(0);
    expect(rowsOfRun(2)).toEqual(live);
  });

  it('answers commands before any load with an error, not a crash', () => {
    const { host, core } = setup();
    core.handle({ type: 'play' });
    expect(host.take('error')[0].message).toMatch(/no scenario loaded/);
    expect(host.take('crashed')).toHaveLength(0);
  });

  it('reports an engine panic as a crash and touches the engine no more', () => {
    const { host, core } = setup({ eventsPerSample: 100, panicAtMs: 12 });
    core.handle({ type: 'load', scenario: twoSources() });
    core.handle({ type: 'speed', speed: 'max' });
    core.handle({ type: 'play' });
    host.run();
    const crashes = host.take('crashed');
    expect(crashes).toHaveLength(1);
    expect(crashes[0].message).toMatch(/RuntimeError: unreachable/);
    const before = host.messages.length;
    core.handle({ type: 'reset' });
    core.handle({ type: 'play' });
    host.run();
    expect(host.messages.length).toBe(before);
  });
});

// QA: the Summary JSON read "sim_ms": 120 where abrsim run prints 120.0 — the wall time was set
// by parsing and stringifying the engine's text, which drops a number's trailing zeros.
describe('withWallMs', () => {
  it("sets the wall time and leaves every other number as the engine wrote it", () => {
    const engine = '{"scenario":"x \\"wall_ms\\":1","seed":1,"sim_ms":120.0,"wall_ms":0.0,"connections":[{"mean_rate_mbps":0.0,"fair_share_mbps":5000.0}]}';
    expect(withWallMs(engine, 12.3456)).toBe(engine.replace('"wall_ms":0.0', '"wall_ms":12.346'));
    expect(withWallMs(engine, 7)).toBe(engine.replace('"wall_ms":0.0', '"wall_ms":7.0'));
    expect(JSON.parse(withWallMs(engine, 7)).scenario).toBe('x "wall_ms":1');
    expect(withWallMs('{"a":1.0}', 5)).toBe('{"a":1.0}');
  });
});
