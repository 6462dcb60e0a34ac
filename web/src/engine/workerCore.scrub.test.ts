// Going back in time in the interactive worker, with the real engine: scrubbing back to t and
// playing on gives the very rows, RM-cell events and digest of a run that never went back.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { RmRecord } from '../contract/engine';
import { FakeHost, repoFile, twoSources } from '../test/fakes';
import { WASM_INTERACTIVE } from '../test/wasmEngine';
import type { FromWorker, ToWorker } from './protocol';
import { WorkerCore } from './workerCore';

const gfc1 = () => readFileSync(repoFile('scenarios/gfc1.json'), 'utf8');

/** What the page keeps of the worker's messages: rows and RM-cell events, dropping the rows at
 *  a scrubbed time and after, and the events after the first it is told to keep, as the lab
 *  does. */
function page(messages: readonly FromWorker[]) {
  let rows: number[][] = [];
  let records: RmRecord[] = [];
  let digest: string | null = null;
  for (const m of messages) {
    if (m.type === 'samples') for (let i = 0; i < m.data.length; i += m.width) rows.push([...m.data.subarray(i, i + m.width)]);
    if (m.type === 'rmEvents') records = records.concat(m.records);
    if (m.type === 'summary') digest = m.digest;
    if (m.type === 'scrubbed') {
      rows = rows.filter((r) => r[0] < m.ms);
      records = records.slice(0, m.rmKept);
      digest = null;
    }
  }
  return { rows, records, digest };
}

function run(scenario: string, commands: ToWorker[]) {
  const host = new FakeHost();
  const core = new WorkerCore(WASM_INTERACTIVE, host);
  // Room for every event of a slice: the fake clock lets one slice run to its target.
  core.handle({ type: 'rmTrace', capacity: 10_000_000 });
  core.handle({ type: 'load', scenario });
  for (const c of commands) {
    core.handle(c);
    host.run();
  }
  return { host, core, page: page(host.messages) };
}

describe('WorkerCore going back in time', () => {
  for (const [name, json, endMs] of [
    ['two-sources', twoSources, 100],
    ['gfc1', gfc1, 400],
  ] as const) {
    it(`${name}: scrubbing back and playing on gives the rows, events and digest of the run that never went back`, () => {
      const straight = run(json(), [{ type: 'runUntil', ms: endMs }]).page;
      expect(straight.digest).not.toBeNull();
      expect(straight.rows.length).toBeGreaterThan(100);
      const scrubbed = run(json(), [
        { type: 'runUntil', ms: endMs * 0.7 },
        { type: 'scrub', ms: endMs * 0.25 },
        { type: 'runUntil', ms: endMs * 0.5 },
        { type: 'scrub', ms: endMs * 0.4 }, // back again, to between two checkpoints
        { type: 'speed', speed: 'max' },
        { type: 'play' },
      ]);
      const s = scrubbed.page;
      expect(s.rows.length).toBe(straight.rows.length);
      expect(s.rows).toEqual(straight.rows);
      expect(s.records.length).toBe(straight.records.length);
      expect(JSON.stringify(s.records) === JSON.stringify(straight.records)).toBe(true);
      expect(s.digest).toBe(straight.digest);
      // It did go back: each scrub was answered, and replayed rows were not sent twice.
      expect(scrubbed.host.take('scrubbed').map((m) => m.ms)).toEqual([endMs * 0.25, endMs * 0.4]);
      // gfc1 runs three times over: about 3 s alone, past vitest's 5 s default beside other work.
    }, 30_000);
  }

  // QA (the event log after a backfill): a checkpoint noted how many RM-cell events had been sent
  // when the pass that took it went by. Going back, playing on with the recording off and then
  // backfilling kept those notes: the page kept events the replay then sent again, and the log
  // showed the replayed ones above the later ones, as if new.
  it('recording on, off, back and on again: the page keeps each RM-cell event once, in time order', () => {
    const { page: p } = run(twoSources(), [
      // Recorded: the checkpoints at 20 and 45 note the events sent by then.
      { type: 'runUntil', ms: 20 },
      { type: 'runUntil', ms: 45 },
      { type: 'runUntil', ms: 60 },
      { type: 'rmTrace', capacity: 0 },
      { type: 'scrub', ms: 25 },
      { type: 'runUntil', ms: 55 }, // not recorded
      { type: 'rmTrace', capacity: 10_000_000 },
      { type: 'scrub', ms: 55, replayFromMs: 54 }, // the Network view's backfill
      { type: 'scrub', ms: 50 }, // back within the replay
    ]);
    const keys = p.records.map((r) => `${r.time_us}/${r.connection}/${r.rm_seq}/${r.node}/${r.direction}`);
    expect(new Set(keys).size).toBe(keys.length);
    const times = p.records.map((r) => r.time_us);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times[times.length - 1]).toBeLessThanOrEqual(50_000);
    // What was recorded before the checkpoint at 20 is kept, and what the replays sent; the
    // pass from 20 to 25, not recorded, has no events.
    expect(times.some((t) => t < 19_000)).toBe(true);
    expect(times.some((t) => t > 49_000)).toBe(true);
    expect(times.filter((t) => t > 20_000 && t < 25_000)).toEqual([]);
  });

  it('pauses at the time scrubbed to, with every row before it and none after on the page', () => {
    const { host, page: p } = run(twoSources(), [
      { type: 'runUntil', ms: 80 },
      { type: 'scrub', ms: 30 },
    ]);
    expect(host.lastStatus()).toMatchObject({ mode: 'paused', nowMs: 30 });
    const times = p.rows.map((r) => r[0]);
    expect(times[times.length - 1]).toBe(30); // the row at 30 came again from the replay
    expect(new Set(times).size).toBe(times.length);
    expect(p.records.every((r) => r.time_us <= 30_000)).toBe(true);
    expect(p.records.some((r) => r.time_us > 29_000)).toBe(true);
  });

  it('goes forwards as a run to that time, and back from the end of a finished run', () => {
    const forward = run(twoSources(), [{ type: 'scrub', ms: 40 }]);
    expect(forward.host.lastStatus()).toMatchObject({ mode: 'paused', nowMs: 40 });
    expect(forward.page.rows.map((r) => r[0]).slice(-1)).toEqual([40]);
    const done = run(twoSources(), [
      { type: 'runUntil', ms: 100 },
      { type: 'scrub', ms: 10 },
    ]);
    expect(done.host.lastStatus()).toMatchObject({ mode: 'paused', nowMs: 10, done: false });
    expect(done.page.digest).toBeNull(); // the summary belonged to the end
  });

  it('a change set again after going back replaces the later one: the run is as if only it had been made', () => {
    const again = run(twoSources(), [
      { type: 'runUntil', ms: 60 },
      { type: 'setParam', node: 'SW1', param: 'target_utilization', value: 0.6 },
      { type: 'runUntil', ms: 70 },
      { type: 'scrub', ms: 20 },
      { type: 'setParam', node: 'SW1', param: 'target_utilization', value: 0.7 },
      { type: 'runUntil', ms: 100 },
    ]);
    const only = run(twoSources(), [
      { type: 'runUntil', ms: 20 },
      { type: 'setParam', node: 'SW1', param: 'target_utilization', value: 0.7 },
      { type: 'runUntil', ms: 100 },
    ]);
    expect(again.page.rows).toEqual(only.page.rows);
    expect(again.page.digest).toBe(only.page.digest);
    const answers = again.host.messages.filter((m) => m.type === 'paramSet');
    expect(answers.at(-1)).toMatchObject({ change: { at_ms: 20, value: 0.7 }, replaced: [{ at_ms: 60, value: 0.6 }] });
  });

  it('keeps a live change made before going back: the replay has it, as a reset would', () => {
    const changed = run(twoSources(), [
      { type: 'runUntil', ms: 20 },
      { type: 'setParam', node: 'SW1', param: 'target_utilization', value: 0.6 },
      { type: 'runUntil', ms: 60 },
      { type: 'scrub', ms: 50 },
      { type: 'runUntil', ms: 100 },
    ]);
    const straight = run(twoSources(), [
      { type: 'runUntil', ms: 20 },
      { type: 'setParam', node: 'SW1', param: 'target_utilization', value: 0.6 },
      { type: 'runUntil', ms: 100 },
    ]);
    expect(changed.page.rows).toEqual(straight.page.rows);
    expect(changed.page.digest).toBe(straight.page.digest);
    expect(run(twoSources(), [{ type: 'runUntil', ms: 100 }]).page.digest).not.toBe(straight.page.digest);
  });
});
