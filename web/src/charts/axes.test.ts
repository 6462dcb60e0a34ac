import { describe, expect, it } from 'vitest';
import { chartDomain, formatTick, niceDomain, ticks, timeAxis } from './axes';

describe('axes', () => {
  it('start the y axis at 0, pad above the data and end on a round number', () => {
    expect(niceDomain(3, 147, 1)).toEqual([0, 160]);
    // Data within the floor: the floor (100 % utilisation stays the top).
    expect(niceDomain(0, 100, 100)).toEqual([0, 100]);
    // No data yet: the floor.
    expect(niceDomain(Infinity, -Infinity, 10)).toEqual([0, 10]);
    expect(niceDomain(-4, 8, 1)[0]).toBeLessThanOrEqual(-4);
  });

  it("before any sample, a rate chart's axis already ends where the run's lines can reach (not 0–1 Mbps)", () => {
    const rate = { yScale: 1, yFloor: 1, yReach: 155.52 };
    const nothing = chartDomain(Infinity, -Infinity, rate);
    expect(nothing).toEqual([0, 180]);
    // The range a run whose ACR gets to the top rate has.
    expect(chartDomain(25, 155.52, rate)).toEqual(nothing);
    // Ethernet, shown in Gbps (the reach is in the shown unit already).
    expect(chartDomain(Infinity, -Infinity, { yScale: 1e-3, yFloor: 1, yReach: 10 })).toEqual([0, 12]);
    // No reach (not a rate chart): the floor, as before.
    expect(chartDomain(Infinity, -Infinity, { yScale: 1, yFloor: 10 })).toEqual([0, 10]);
  });

  it('once there are samples, the reach no longer counts: the axis follows the data', () => {
    const rate = { yScale: 1, yFloor: 1, yReach: 155.52 };
    expect(chartDomain(0, 40, rate)).toEqual(niceDomain(0, 40, 1));
    expect(chartDomain(0, 0.5, rate)).toEqual([0, 1]);
    // Published figures set the range as they did (with data or without).
    const published = { ...rate, published: [{ value: 50 }] };
    expect(chartDomain(Infinity, -Infinity, published)).toEqual(niceDomain(0, 50, 1));
    expect(chartDomain(0, 80, published)).toEqual(niceDomain(0, 80, 1));
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
