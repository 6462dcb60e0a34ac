// Playback speeds: the list the toolbar offers, the default speed of a scenario (one that plays
// it in front of a class in about 20 s of wall time), and the speed a share link carries.

import type { Speed } from '../engine/protocol';

/**
 * The speeds a scenario may default to (simulated time per wall-clock time), in a 1–2–5 series
 * so that any run of the library has a speed that plays it in 10–30 s: neighbours differ by at
 * most 2.5×.
 */
const LESSON_SPEEDS: readonly Speed[] = [
  0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 'max',
];

/**
 * Slow motion, below the lesson speeds: an RM cell crosses a LAN hop (a few µs) in tens of ms of
 * wall time, so the Network view can show it moving. Never a scenario's default speed.
 */
export const SLOW_MOTION_SPEEDS: readonly Speed[] = [0.0001, 0.0002, 0.0005];

/** Every speed the toolbar offers, slowest first. */
export const SPEEDS: readonly Speed[] = [...SLOW_MOTION_SPEEDS, ...LESSON_SPEEDS];

/** The wall time a scenario's default speed aims at (ms), and the window it must fall in. */
export const LESSON_WALL_MS = 20_000;
export const LESSON_WALL_MIN_MS = 10_000;
export const LESSON_WALL_MAX_MS = 30_000;

export function speedLabel(s: Speed): string {
  return s === 'max' ? 'max' : `${s}×`;
}

/**
 * The default speed of a run lasting `durationMs` of simulated time: of the lesson speeds that
 * play it in 10–30 s, the one whose wall time is nearest (by ratio) to LESSON_WALL_MS. Runs too
 * short or too long for any offered speed to fit that window get the nearest all the same (the
 * slowest or the fastest finite speed).
 */
export function lessonSpeed(durationMs: number): number {
  const finite = LESSON_SPEEDS.filter((s): s is number => s !== 'max');
  if (!(durationMs > 0) || !Number.isFinite(durationMs)) return finite[0];
  const miss = (s: number) => Math.abs(Math.log(wallMs(durationMs, s) / LESSON_WALL_MS));
  const fits = finite.filter((s) => wallMs(durationMs, s) >= LESSON_WALL_MIN_MS && wallMs(durationMs, s) <= LESSON_WALL_MAX_MS);
  const pool = fits.length > 0 ? fits : finite;
  return pool.reduce((best, s) => (miss(s) < miss(best) ? s : best));
}

/** The wall time (ms) a run of `durationMs` takes at `speed` (0 at max: as fast as it goes). */
export function wallMs(durationMs: number, speed: Speed): number {
  return speed === 'max' ? 0 : durationMs / speed;
}

/** A speed as a link writes it (`0.005`, `max`). */
export function speedText(s: Speed): string {
  return String(s);
}

/** The speed a link names, or null when it names none the toolbar offers. */
export function parseSpeed(text: string): Speed | null {
  return SPEEDS.find((s) => speedText(s) === text) ?? null;
}
