import { describe, expect, it } from 'vitest';
import type { RunStatus } from '../engine/protocol';
import { INITIAL_STATE } from '../lab/state';
import { sameButTime } from './useLab';

const status = (patch: Partial<RunStatus> = {}): RunStatus => ({
  run: 1,
  mode: 'playing',
  nowMs: 10,
  endMs: 400,
  done: false,
  events: 100,
  speed: 1,
  achievedSpeed: 1,
  eventsPerSec: 1e6,
  engineMs: 5,
  ...patch,
});

describe('sameButTime: whether the page as a whole may skip a state', () => {
  const a = { ...INITIAL_STATE, status: status() };

  it('skips a later report of the same run playing (its time and figures only)', () => {
    expect(sameButTime(a, { ...a, status: status({ nowMs: 20, events: 900, achievedSpeed: 0.8 }) })).toBe(true);
    expect(sameButTime(a, a)).toBe(true);
  });

  it('renders a change of mode, run, end or speed, or of anything else in the state', () => {
    expect(sameButTime(a, { ...a, status: status({ mode: 'paused' }) })).toBe(false);
    expect(sameButTime(a, { ...a, status: status({ run: 2, nowMs: 0 }) })).toBe(false);
    expect(sameButTime(a, { ...a, status: status({ endMs: 500 }) })).toBe(false);
    expect(sameButTime(a, { ...a, status: status({ speed: 'max' }) })).toBe(false);
    expect(sameButTime(a, { ...a, status: status({ done: true }) })).toBe(false);
    // Standing still at another time (a step, a run-to or a scrub ended, paused): a change.
    const still = { ...a, status: status({ mode: 'paused', nowMs: 40 }) };
    expect(sameButTime(still, { ...still, status: status({ mode: 'paused', nowMs: 2.5 }) })).toBe(false);
    expect(sameButTime(still, { ...still, status: status({ mode: 'paused', nowMs: 40, events: 7 }) })).toBe(true);
    expect(sameButTime(a, { ...a, status: null })).toBe(false);
    expect(sameButTime(a, { ...a, status: status({ nowMs: 20 }), summary: null, notice: { kind: 'info', text: 'x' } as never })).toBe(false);
  });
});
