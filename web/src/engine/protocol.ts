// The message protocol between the UI (client.ts) and the engine worker (worker.ts).
// Time series travel as transferred Float64Arrays, never as JSON per sample.

import type { Explain, ParamChange, Problem, RmDirection, RmRecord, SeriesMeta } from '../contract/engine';

/** Playback speed: a multiple of real time, or as fast as the engine goes. */
export type Speed = number | 'max';

/** RM-cell events the engine keeps between two drains (one slice) when the trace is on. */
export const ENGINE_TRACE_CAPACITY = 20_000;

/**
 * What a "next RM event" search looks for: an RM-cell event at `node`, of `direction` and of
 * `connection` (a connection or virtual path id, as the event log's connection filter picks a
 * loop); '' or absent: any.
 */
export interface RmQuery {
  node: string;
  direction?: RmDirection;
  connection?: string;
}

export type ToWorker =
  /** First message: load the engine (answered by `ready`, or `unavailable`). */
  | { type: 'init' }
  /** Validate and load a scenario (JSON text); on problems the current run is kept. `seq` comes
   *  back in the answer (`loaded` or `invalid`), so that it is told from a reset's `loaded`. */
  | { type: 'load'; scenario: string; seq?: number }
  /** Play at the set speed; with `stopsMs` (a lesson's step times), pause at the first one
   *  ahead of the run. */
  | { type: 'play'; stopsMs?: readonly number[] }
  | { type: 'pause' }
  /** Advance by this much simulated time, as fast as possible, then pause. */
  | { type: 'step'; ms: number }
  /** Advance to this simulated time, as fast as possible, then pause. */
  | { type: 'runUntil'; ms: number }
  /** Restart the loaded scenario from time 0 (paused). */
  | { type: 'reset' }
  | { type: 'speed'; speed: Speed }
  /**
   * Change a switch parameter from the current simulated time on (no reset); the change is
   * recorded in the scenario, and a later reset (or a reload after a crash) replays it.
   */
  | { type: 'setParam'; node: string; param: string; value: number }
  /**
   * Records RM-cell events from now on (and in every later run), keeping at most `capacity` in
   * the engine between two drains; 0 stops. Recorded events come in `rmEvents` messages.
   */
  | { type: 'rmTrace'; capacity: number }
  /** Asks the algorithm of a switch port (`SW1->SW2` or the node it leads to) to explain its
   *  state now; answered by `explained` with the same `id`. */
  | { type: 'explain'; id: number; switchId: string; port: string }
  /**
   * Steps the run, event by event, until an RM-cell event is recorded at `node` (of
   * `direction` and of `connection`, when given), then pauses; answered by `rmFound`. Turns the
   * trace on if off. An unknown node, direction or connection is refused (`error`, naming it).
   */
  | ({ type: 'nextRmEvent' } & RmQuery)
  /**
   * Goes to simulated time `ms` (clamped to the run), backwards too, and pauses there: every
   * event at `ms` has run. Answered at once by `scrubbed`; the rows and RM-cell events at `ms`
   * and after then come again (from a replay, when going back), those before `ms` do not.
   * `replayFromMs`: going back, the replay starts at or before it (the RM-cell events from the
   * replay's start come again: a trace just turned on gets the cells in flight at `ms`).
   * `rmHeldFrom`: the number (in the run) of the first RM-cell event the page still holds
   * (it keeps the newest): if it holds every one from the replay's start, and the trace
   * recorded them without a gap, the replay does not send them again (see `rmKept`).
   */
  | { type: 'scrub'; ms: number; replayFromMs?: number; rmHeldFrom?: number };

export type Mode = 'idle' | 'paused' | 'playing' | 'seeking' | 'done';

export interface RunStatus {
  /** Run counter: increases with every load and reset; samples carry it. */
  run: number;
  mode: Mode;
  nowMs: number;
  endMs: number;
  done: boolean;
  events: number;
  speed: Speed;
  /** Measured simulated time per wall time over the last second, while running. */
  achievedSpeed: number | null;
  /** Measured engine events per wall-clock second, while running. */
  eventsPerSec: number | null;
  /** Wall time spent inside the engine on this run so far (ms): its advances, not the posting of
   *  rows or the pauses between slices (`npm run bench` reports it for gfc1 at max speed). */
  engineMs: number;
}

export type FromWorker =
  | { type: 'ready'; engine: 'wasm'; catalogue: string }
  /** The engine could not be loaded (not built, or the browser refused it): nothing will run. */
  | { type: 'unavailable'; message: string }
  /** A scenario (re)started at t = 0: the answer to `load` (with its `seq`), or a reset. A
   *  loaded scenario's `sweep` block does not stop it from running: its problems come along;
   *  so do its `notes` (the engine's, what to know before running it; omitted when none). */
  | { type: 'loaded'; run: number; scenarioId: string; meta: SeriesMeta[]; endMs: number; seq?: number; sweepProblems?: Problem[]; notes?: string[] }
  | { type: 'invalid'; problems: Problem[]; seq?: number }
  /** Rows since the last message, row-major: [time_ms, v_0 .. v_{n-1}], width = n + 1. */
  | { type: 'samples'; run: number; width: number; data: Float64Array }
  | { type: 'status'; status: RunStatus }
  /**
   * The answer to a setParam: the recorded change, or the problem that refused it (path
   * relative to the change: `node`, `param` or `value`); `replaced`: the changes of that
   * parameter recorded for later times, which it replaced (a run gone back in time keeps its
   * recording); `scenario` is the scenario with every change recorded so far (JSON),
   * unchanged when the change was refused.
   */
  | {
      type: 'paramSet';
      run: number;
      request: { node: string; param: string; value: number };
      change: ParamChange | null;
      replaced: ParamChange[];
      problem: Problem | null;
      scenario: string;
    }
  /** The run summary (JSON, the same as `abrsim run` prints), sent when a run reaches its end. */
  | { type: 'summary'; run: number; summary: string; digest: string }
  /** RM-cell events recorded since the last message, oldest first (a JSON copy, never a view
   *  of wasm memory); `dropped`: how many the engine's buffer dropped in this run so far. */
  | { type: 'rmEvents'; run: number; records: RmRecord[]; dropped: number }
  /** The answer to `explain`: the record, or the problem (path `switch` or `port`). */
  | { type: 'explained'; run: number; id: number; switchId: string; port: string; explain: Explain | null; problem: Problem | null }
  /** The answer to `nextRmEvent`, with what it looked for: the event the run stopped at, or
   *  null: the run ended first (`ended`), the engine refused the search (`problem`: the field
   *  and the rule), or the search was stopped (a pause, a step, a reset). */
  | ({ type: 'rmFound'; run: number; record: RmRecord | null; ended: boolean; problem: Problem | null } & RmQuery)
  /**
   * The answer to `scrub`: the run goes to `ms`. The page drops its rows and RM-cell events at
   * `ms` and after (those of the time left, and any sent before this message); the ones that
   * follow this message are the run's from `ms` on, the very ones it had before going back.
   */
  /** The run went to `ms`: the page drops its rows at `ms` and after, and keeps the first
   *  `rmKept` RM-cell events of the run (the worker sends the others again as the run replays). */
  | { type: 'scrubbed'; run: number; ms: number; rmKept: number }
  /** The page keeps the first `rmKept` RM-cell events of the run: a replay that did not send
   *  again the events the page held stopped short of some (it reached the time gone back to),
   *  or no longer records what they were (a live change, the trace turned on or off). */
  | { type: 'rmKept'; run: number; rmKept: number }
  /** The engine panicked: this worker is unusable and must be replaced. */
  | { type: 'crashed'; message: string }
  /** A command that could not be carried out (the worker is still fine); `command`: the one
   *  refused, when it is one the page waits on an answer to (a reset, a live change). */
  | { type: 'error'; message: string; command?: ToWorker['type'] };
