// Regression: a step from a time the engine holds to the picosecond (0.30123 ms…) by a fraction
// of a ms used to stay 'seeking' for ever: the engine rounds the target to its picosecond and
// stopped a hair short of it, which the worker never counted as arrived.
import { expect, it } from 'vitest';
import type { RunStatus } from './protocol';
import { FakeHost, twoSources } from '../test/fakes';
import { WASM_INTERACTIVE } from '../test/wasmEngine';
import { WorkerCore } from './workerCore';

it('small steps from an uneven time each end paused, at the time asked for (to the picosecond)', () => {
  const host = new FakeHost();
  const core = new WorkerCore(WASM_INTERACTIVE, host);
  core.handle({ type: 'load', scenario: twoSources() });
  const last = () => (host.take('status').at(-1) as { status: RunStatus }).status;
  core.handle({ type: 'runUntil', ms: 0.3012345671 });
  host.run();
  let now = last().nowMs;
  for (let i = 0; i < 40; i++) {
    core.handle({ type: 'step', ms: 0.01 });
    host.run();
    const s = last();
    expect(s.mode, `step ${i} from ${now} ms`).toBe('paused');
    expect(Math.abs(s.nowMs - (now + 0.01))).toBeLessThan(1e-9);
    now = s.nowMs;
  }
});

// Going to a time by the slider or a chart click is a scrub, which took the time as given: an
// uneven one (helper-38: 371.19999 ms on gfc1) lies a hair past where the engine stops, and the
// run stayed 'seeking' for ever, as steps once did.
it('a scrub to an uneven time, forwards and back, ends paused at that time (to the picosecond)', () => {
  const host = new FakeHost();
  const core = new WorkerCore(WASM_INTERACTIVE, host);
  core.handle({ type: 'load', scenario: twoSources() });
  for (const ms of [3.7123456789, 1.2345678901, 7.99999999999, 0.30123456711]) {
    core.handle({ type: 'scrub', ms });
    host.run();
    const s = host.lastStatus()!;
    expect(s.mode, `scrub to ${ms} ms`).toBe('paused');
    expect(Math.abs(s.nowMs - ms)).toBeLessThan(1e-9);
  }
});
