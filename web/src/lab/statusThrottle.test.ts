import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunStatus } from '../engine/protocol';
import { runStatus as at } from '../test/fakes';
import { SEEK_SHOWN_AFTER_MS, StatusThrottle } from './statusThrottle';

describe('StatusThrottle', () => {
  let clock = 0;
  let shown: RunStatus | null;
  let log: RunStatus[];
  let throttle: StatusThrottle;
  beforeEach(() => {
    vi.useFakeTimers();
    clock = 1000;
    shown = null;
    log = [];
    throttle = new StatusThrottle(
      () => shown,
      (s) => {
        shown = s;
        log.push(s);
      },
      () => clock,
    );
  });
  afterEach(() => vi.useRealTimers());
  const wait = (ms: number) => {
    clock += ms;
    vi.advanceTimersByTime(ms);
  };

  it('shows a change of mode at once and reports of the time at most every 100 ms, the last one kept', () => {
    throttle.push(at('playing', 0));
    wait(10);
    throttle.push(at('playing', 1));
    wait(10);
    throttle.push(at('playing', 2));
    expect(log.map((s) => s.nowMs)).toEqual([0]);
    wait(100);
    expect(log.map((s) => s.nowMs)).toEqual([0, 2]);
    throttle.push(at('paused', 3));
    expect(log.map((s) => s.mode)).toEqual(['playing', 'playing', 'paused']);
  });

  it('a short seek from a paused run never shows "seeking", only where it ends, at once', () => {
    throttle.push(at('paused', 50));
    for (let k = 1; k <= 60; k++) {
      throttle.push(at('seeking', 50));
      wait(2);
      throttle.push(at('paused', 50 - k / 2));
      expect(shown).toMatchObject({ mode: 'paused', nowMs: 50 - k / 2 });
      wait(3);
    }
    wait(500);
    expect(log.map((s) => s.mode)).toEqual(Array(61).fill('paused'));
  });

  it('a play while a short seek is not shown yet is shown at once', () => {
    throttle.push(at('paused', 50));
    throttle.push(at('paused', 50));
    throttle.push(at('seeking', 40));
    throttle.push(at('paused', 40));
    throttle.push(at('seeking', 30));
    throttle.push(at('playing', 30));
    expect(shown).toMatchObject({ mode: 'playing', nowMs: 30 });
  });

  it('a seek that lasts is shown once it has lasted long enough, and its end at once', () => {
    throttle.push(at('done', 100));
    throttle.push(at('seeking', 100));
    wait(SEEK_SHOWN_AFTER_MS / 2);
    throttle.push(at('seeking', 10));
    expect(shown?.mode).toBe('done');
    wait(SEEK_SHOWN_AFTER_MS / 2 - 1);
    expect(shown?.mode).toBe('done');
    wait(1);
    expect(shown).toMatchObject({ mode: 'seeking', nowMs: 10 });
    throttle.push(at('paused', 30));
    expect(shown).toMatchObject({ mode: 'paused', nowMs: 30 });
  });

  it('a seek while playing, or into another run, is shown at once', () => {
    throttle.push(at('playing', 40));
    throttle.push(at('seeking', 40));
    expect(shown?.mode).toBe('seeking');
    throttle.push(at('paused', 20));
    throttle.push(at('seeking', 0, 2));
    expect(shown).toMatchObject({ mode: 'seeking', run: 2 });
  });
});
