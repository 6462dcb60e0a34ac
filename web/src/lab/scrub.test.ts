import { describe, expect, it } from 'vitest';
import { SCRUB_STEPS, scrubStepMs } from './scrub';
import { labOnFakeEngine } from '../test/fakeLab';

describe('scrubStepMs', () => {
  it('steps one sample interval through a short run', () => {
    expect(scrubStepMs(100, 500)).toBe(0.5); // two-sources
    expect(scrubStepMs(400, 1000)).toBe(1); // gfc1
  });

  it('steps whole sample intervals, at most SCRUB_STEPS of them, through a long run', () => {
    const step = scrubStepMs(250_000, 1000);
    expect(step).toBe(250);
    expect(250_000 / step).toBeLessThanOrEqual(SCRUB_STEPS);
    expect(scrubStepMs(1000, 700) / 0.7).toBe(2);
  });

  it('has a usable step for a run not loaded yet', () => {
    expect(scrubStepMs(0)).toBe(1);
    expect(scrubStepMs(NaN, 500)).toBe(1);
  });
});

describe('Lab.scrubPending', () => {
  it('holds from a scrub asked for until the engine answers it, and a new run answers none of the old', () => {
    const t = labOnFakeEngine();
    try {
      t.lab.runUntil(50);
      t.pump();
      expect(t.lab.scrubPending()).toBe(false);
      t.lab.scrub(40);
      t.lab.scrub(30);
      expect(t.lab.scrubPending()).toBe(true);
      t.pump();
      expect(t.lab.scrubPending()).toBe(false);
      expect(t.lab.getState().status).toMatchObject({ mode: 'paused', nowMs: 30 });
      t.lab.scrub(20);
      t.lab.reset();
      t.pump();
      expect(t.lab.scrubPending()).toBe(false);
    } finally {
      t.lab.dispose();
    }
  });
});
