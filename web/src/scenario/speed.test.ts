import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LIBRARY } from './library';
import { LESSON_WALL_MAX_MS, LESSON_WALL_MIN_MS, lessonSpeed, parseSpeed, SLOW_MOTION_SPEEDS, SPEEDS, speedText, wallMs } from './speed';

describe('lessonSpeed: a default speed that plays a scenario in 10–30 s', () => {
  it('every library scenario plays in 10–30 s of wall time at its default speed', () => {
    expect(LIBRARY.entries.length).toBeGreaterThan(10);
    for (const e of LIBRARY.entries) {
      const d = e.scenario.run.duration_ms;
      const wall = wallMs(d, lessonSpeed(d));
      expect(wall, `${e.id} (${d} ms at ${lessonSpeed(d)}×)`).toBeGreaterThanOrEqual(LESSON_WALL_MIN_MS);
      expect(wall, `${e.id} (${d} ms at ${lessonSpeed(d)}×)`).toBeLessThanOrEqual(LESSON_WALL_MAX_MS);
    }
  });

  it('any duration the offered speeds can cover fits the window, with a speed the toolbar offers', () => {
    const finite = SPEEDS.filter((s): s is number => s !== 'max' && !SLOW_MOTION_SPEEDS.includes(s));
    const lo = finite[0] * LESSON_WALL_MIN_MS;
    const hi = finite[finite.length - 1] * LESSON_WALL_MAX_MS;
    fc.assert(
      fc.property(fc.double({ min: lo, max: hi, noNaN: true }), (d) => {
        const s = lessonSpeed(d);
        expect(SPEEDS).toContain(s);
        expect(wallMs(d, s)).toBeGreaterThanOrEqual(LESSON_WALL_MIN_MS * (1 - 1e-12));
        expect(wallMs(d, s)).toBeLessThanOrEqual(LESSON_WALL_MAX_MS * (1 + 1e-12));
      }),
    );
  });

  it('a 15 s scenario plays at 1× (15 s), not at 0.01× (25 min); a 100 ms one at 0.005× (20 s)', () => {
    expect(lessonSpeed(15_000)).toBe(1);
    expect(lessonSpeed(100)).toBe(0.005);
  });

  it('slow motion is offered but never a default: a 1 ms run still defaults to 0.001×', () => {
    expect(SPEEDS.slice(0, SLOW_MOTION_SPEEDS.length)).toEqual(SLOW_MOTION_SPEEDS);
    expect(Math.max(...(SLOW_MOTION_SPEEDS as number[]))).toBeLessThan(0.001);
    expect(lessonSpeed(1)).toBe(0.001);
  });

  it('durations out of reach get the nearest end, and nonsense the slowest speed', () => {
    expect(lessonSpeed(1)).toBe(0.001);
    expect(lessonSpeed(1e9)).toBe(10);
    for (const d of [0, -5, NaN, Infinity]) expect(lessonSpeed(d)).toBe(0.001);
  });
});

describe('speeds in links', () => {
  it('every offered speed reads back from its text; anything else is none', () => {
    for (const s of SPEEDS) expect(parseSpeed(speedText(s))).toBe(s);
    for (const t of ['', '0', '3', '1e9', 'fast', '-1', 'NaN']) expect(parseSpeed(t), t).toBeNull();
  });
});
