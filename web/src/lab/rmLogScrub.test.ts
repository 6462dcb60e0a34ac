// The event log through a scrub back, with the real engine and worker: a log that keeps only the
// newest events has let the early ones go by the end of a long run; going back to an early time
// must still show the events up to it (those the worker replays), not an empty log.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FromWorker, ToWorker } from '../engine/protocol';
import { WorkerCore } from '../engine/workerCore';
import { FakeHost, repoFile } from '../test/fakes';
import { WASM_INTERACTIVE } from '../test/wasmEngine';
import { RmLog } from './rmLog';

const gfc1 = () => readFileSync(repoFile('scenarios/gfc1.json'), 'utf8');

/** Runs the commands, handing the worker's messages to `log` as the lab does. */
function run(commands: ToWorker[], log: RmLog) {
  const host = new FakeHost();
  const core = new WorkerCore(WASM_INTERACTIVE, host);
  core.handle({ type: 'rmTrace', capacity: 10_000_000 });
  core.handle({ type: 'load', scenario: gfc1() });
  let seen = 0;
  const feed = () => {
    for (const m of host.messages.slice(seen) as FromWorker[]) {
      if (m.type === 'rmEvents') log.append(m.records, m.dropped);
      if (m.type === 'scrubbed') log.keepFirst(m.rmKept);
    }
    seen = host.messages.length;
  };
  for (const c of commands) {
    core.handle(c);
    host.run();
    feed();
  }
}

describe('the event log after going back in a long run', () => {
  it('holds the events up to the time gone back to, and counts exactly those not kept', () => {
    const everything = new RmLog(10_000_000);
    run([{ type: 'runUntil', ms: 400 }], everything);
    const all = everything.records();
    const small = new RmLog(1000);
    run(
      [
        { type: 'runUntil', ms: 400 },
        { type: 'scrub', ms: 17 },
      ],
      small,
    );
    expect(all.length).toBeGreaterThan(20_000); // the early events were let go by the end
    const before = all.filter((r) => r.time_us <= 17_000);
    const kept = small.records();
    // Not empty: at least the events since the checkpoint replayed (a 32nd of the run).
    expect(kept.length).toBeGreaterThan(100);
    expect(kept.length).toBeLessThanOrEqual(before.length);
    // The newest events up to 17 ms, exactly as the run that never went back had them.
    expect(JSON.stringify(kept)).toBe(JSON.stringify(before.slice(before.length - kept.length)));
    expect(small.dropped()).toBe(before.length - kept.length);
    // Two 400 ms runs of a long loop: seconds alone, past vitest's 5 s default beside other work.
  }, 30_000);
});
