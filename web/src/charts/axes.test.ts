import { describe, expect, it } from 'vitest';
import { formatTick, niceDomain, ticks, timeAxis } from './axes';

describe('axes', () => {
  it('start the y axis at 0, pad above the data and end on a round number', () => {
    expect(niceDomain(3, 147, 1)).toEqual([0, 160]);
    // Data within the floor: the floor (100 % utilisation stays the top).
    expect(niceDomain(0, 100, 100)).toEqual([0, 100]);
    // No data yet: the floor.
    expect(niceDomain(Infinity, -Infinity, 10)).toEqual([0, 10]);
    expect(niceDomain(-4, 8, 1)[0]).toBeLessThanOrEqual(-4);
  });

  it('tick round values and label big ones with k and M', () => {
    expect(ticks(0, 160, 4)).toEqual([0, 50, 100, 150]);
    expect(formatTick(25_000)).toBe('25k');
    expect(formatTick(2_500_000)).toBe('2.5M');
    expect(formatTick(0.125)).toBe('0.125');
  });

  it('shows the time in seconds from a 10 s window on', () => {
    expect(timeAxis(9_999)).toEqual({ label: 'time (ms)', factor: 1 });
    expect(timeAxis(10_000)).toEqual({ label: 'time (s)', factor: 1e-3 });
  });
});
