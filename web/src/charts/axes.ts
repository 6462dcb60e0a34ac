// Axis arithmetic shared by the charts on screen and their exports: the y domain, tick values
// and labels, and the time axis (ms, or s once the window reaches 10 s).

import { scaleLinear } from 'd3-scale';

/** A y domain that starts at 0 (or below, for negative data) and ends on a nice number. */
export function niceDomain(lo: number, hi: number, floorHi: number): [number, number] {
  const a = Math.min(0, Number.isFinite(lo) ? lo : 0);
  // Pad above the data, unless the data stays within the floor (e.g. 100 % utilisation).
  const b = Number.isFinite(hi) && hi > floorHi ? hi * 1.05 : floorHi;
  const d = scaleLinear().domain([a, b]).nice(6).domain();
  return [d[0], d[1]];
}

/** What sets a time chart's y axis besides its data (shown = engine value × yScale). */
export interface YAxisFacts {
  yScale: number;
  /** The axis reaches at least this value (shown unit). */
  yFloor: number;
  /** Where the axis ends while there is nothing to draw (shown unit; null: at the floor). */
  yReach?: number | null;
  /** Values marked on the chart (the study's published figures; engine unit): always in range. */
  published?: readonly { value: number }[];
}

/**
 * A time chart's y domain (shown unit), from the extent of what it draws (engine unit; lo = +∞,
 * hi = −∞ when it draws nothing). With nothing drawn and nothing marked, as before a run's first
 * sample, the axis ends at `yReach`: the range the chart has once a line gets that far, rather
 * than the bare floor (0–1 Mbps looked broken).
 */
export function chartDomain(lo: number, hi: number, y: YAxisFacts): [number, number] {
  for (const p of y.published ?? []) hi = Math.max(hi, p.value);
  if (!Number.isFinite(hi) && y.yReach != null) return niceDomain(0, y.yReach, y.yFloor);
  return niceDomain(lo * y.yScale, hi * y.yScale, y.yFloor);
}

/** About `count` round tick values in [min, max]. */
export function ticks(min: number, max: number, count: number): number[] {
  return scaleLinear().domain([min, max]).ticks(Math.max(2, count));
}

export function formatTick(v: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e6) return `${+(v / 1e6).toFixed(1)}M`;
  if (a >= 1e4) return `${+(v / 1e3).toFixed(1)}k`;
  return `${+v.toFixed(3)}`;
}

/** The time axis shows seconds once the window ends at 10 s or later. */
export function timeAxis(t1Ms: number): { label: string; factor: number } {
  return t1Ms >= 10_000 ? { label: 'time (s)', factor: 1e-3 } : { label: 'time (ms)', factor: 1 };
}
