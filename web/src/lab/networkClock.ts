// The Network view's time, apart from React: which simulated time a frame shows, and when RM
// cells are slow enough to be drawn.
//
// The engine reports its time a few dozen times a second, in steps; a frame shows a time that
// advances smoothly at the playing speed between reports, never ahead of the engine (so every
// RM-cell record up to it has arrived), and catches up when it falls too far behind. Paused, it
// shows the engine's time, or the time marked on the charts (an event picked in the log, a click
// on a chart) when it was marked since the run last moved: a Step, Run to or Next RM event takes
// the view to the run's new time (and an event it finds is marked after it).

import type { Scenario } from '../contract/scenario';
import type { Mode, RunStatus, Speed } from '../engine/protocol';

/** How far (wall ms) the shown time may trail the engine's before it jumps to it. */
export const MAX_LAG_WALL_MS = 150;
/** A hop must take at least this much wall time for RM cells to be drawn moving along it. */
export const MIN_HOP_WALL_MS = 25;

export interface ClockInput {
  run: number;
  mode: Mode;
  nowMs: number;
  speed: Speed;
  /** The time marked on the charts (null: none). */
  markMs: number | null;
  /** When it was marked, and when the run last moved (runMoved): wall ms, on one clock. */
  markedAtMs: number;
  movedAtMs: number;
}

export interface Shown {
  run: number;
  ms: number;
  /** The wall time (ms, performance.now) it was shown at. */
  wallMs: number;
}

/** The time to show at wall time `wallMs`, after `prev` (null: the first frame). */
export function nextShown(prev: Shown | null, input: ClockInput, wallMs: number): Shown {
  const { run, mode, nowMs, speed, markMs, markedAtMs, movedAtMs } = input;
  // A mark made before the run last moved is a time it has left (ties count: the same instant).
  if (mode !== 'playing') return { run, ms: markMs !== null && markedAtMs >= movedAtMs ? markMs : nowMs, wallMs };
  if (!prev || prev.run !== run || speed === 'max' || prev.ms > nowMs) return { run, ms: nowMs, wallMs };
  let ms = Math.min(nowMs, prev.ms + (wallMs - prev.wallMs) * speed);
  if (nowMs - ms > MAX_LAG_WALL_MS * speed) ms = nowMs;
  return { run, ms: Math.max(prev.ms, ms), wallMs };
}

/**
 * Whether the run moved from `prev` to `next`, two statuses in a row (null: none before): another
 * run, another time, or running (playing or seeking: a Step, Run to, Next RM event, scrub). The
 * engine's statuses, not the page's throttled ones: a short seek from a still run is never shown
 * (statusThrottle.ts), and a Step is one.
 */
export function runMoved(prev: RunStatus | null, next: RunStatus): boolean {
  return !prev || prev.run !== next.run || prev.nowMs !== next.nowMs || next.mode === 'playing' || next.mode === 'seeking';
}

/**
 * A typical hop of the network (µs): the median over its links of the propagation delay plus one
 * cell's (frame's) transmission time. `delayUsPerKm` is the catalogue's.
 */
export function typicalHopUs(scenario: Pick<Scenario, 'links' | 'ethernet'>, delayUsPerKm: number, frameBytes: number): number {
  return median(hopsUs(scenario, delayUsPerKm, frameBytes));
}

/** The middle value (the mean of the two middle ones for an even count); 0 for none. */
function median(values: readonly number[]): number {
  const v = [...values].sort((a, b) => a - b);
  if (v.length === 0) return 0;
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/** Each link's hop (µs): its propagation delay plus one cell's (frame's) transmission time. */
function hopsUs(scenario: Pick<Scenario, 'links' | 'ethernet'>, delayUsPerKm: number, frameBytes: number): number[] {
  const bits = scenario.ethernet ? frameBytes * 8 : 424;
  return scenario.links.map((l) => (l.delay_us ?? (l.distance_km ?? 0) * delayUsPerKm) + bits / l.rate_mbps).filter(Number.isFinite);
}

/** A link's hop: its propagation delay plus one cell's (frame's) transmission time (`us`), and
 *  that transmission time alone (`cellUs`, what each cell queued ahead adds). */
export interface LinkHop {
  us: number;
  cellUs: number;
}

/** Each link's hop, both ways, by `from->to` (the Network view's guess for a hop no RM cell has
 *  made yet). */
export function linkHopsUs(scenario: Pick<Scenario, 'links' | 'ethernet'>, delayUsPerKm: number, frameBytes: number): Map<string, LinkHop> {
  const bits = scenario.ethernet ? frameBytes * 8 : 424;
  const hops = new Map<string, LinkHop>();
  for (const l of scenario.links) {
    const cellUs = bits / l.rate_mbps;
    const hop = { us: (l.delay_us ?? (l.distance_km ?? 0) * delayUsPerKm) + cellUs, cellUs };
    if (!Number.isFinite(hop.us)) continue;
    hops.set(`${l.from}->${l.to}`, hop);
    hops.set(`${l.to}->${l.from}`, hop);
  }
  return hops;
}

/**
 * How far back (µs) the cells drawn at a time may have started (a loop with its waits in
 * queues): a few round trips over every link of the network, at least 10 ms. Counted from each
 * link's own hop, not from the typical one, so that on a network of unequal links (a 25,000 km
 * access link beside LAN ones) the cells on the long link are drawn all along it.
 */
export function loopLookbackUs(scenario: Pick<Scenario, 'links' | 'ethernet'>, delayUsPerKm: number, frameBytes: number): number {
  const hops = hopsUs(scenario, delayUsPerKm, frameBytes);
  return Math.max(10_000, 8 * hops.length * median(hops), 8 * hops.reduce((a, b) => a + b, 0));
}

/** The fastest speed at which a hop of `hopUs` still takes MIN_HOP_WALL_MS of wall time. */
export function rmSpeedLimit(hopUs: number): number {
  return hopUs / 1000 / MIN_HOP_WALL_MS;
}

/** Whether RM cells are drawn moving at `speed` (and the trace is recorded for them). */
export function rmCellsMove(speed: Speed, limit: number): boolean {
  return speed !== 'max' && speed <= limit;
}

/** The fastest of `speeds` at which RM cells are drawn (null: none is slow enough). */
export function slowEnough(speeds: readonly Speed[], limit: number): number | null {
  const ok = speeds.filter((s): s is number => s !== 'max' && s <= limit);
  return ok.length ? Math.max(...ok) : null;
}

/**
 * The Network view's own step (µs), for following RM cells on a paused run: about half a
 * typical hop, rounded down to 1, 2 or 5 times a power of ten, so that a cell moves a little
 * each step. QA: the toolbar's step of 1 ms went past a whole LAN loop (a few µs), and the
 * student saw the cells only by typing 0.005 in its field.
 */
export function hopStepUs(hopUs: number): number {
  const half = hopUs / 2;
  if (!(half > 0) || !Number.isFinite(half)) return 1;
  const p = 10 ** Math.floor(Math.log10(half));
  const nice = [5, 2, 1].map((m) => m * p).find((v) => v <= half * (1 + 1e-9))!;
  return Number(nice.toPrecision(1));
}

/** A step of `us` as the view's button says it: "2 µs", "0.5 µs", "10 ms". */
export function stepText(us: number): string {
  return us >= 1000 ? `${us / 1000} ms` : `${us} µs`;
}
