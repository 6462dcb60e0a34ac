import { describe, expect, it } from 'vitest';
import { SCRUB_STEPS, scrubStepMs } from './scrub';

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
