// The engine worker's logic, free of any Worker global so that it can be tested in Vitest:
// it owns one Simulation, answers control messages, and while playing advances the engine in
// slices sized to a wall-clock budget, so control messages are handled between slices.

import type { EngineModule, Explain, ParamChange, Problem, RmRecord, SeriesMeta, TracingSimulation as Simulation } from '../contract/engine';
import { Checkpoints } from './checkpoints';
import { ENGINE_TRACE_CAPACITY, type FromWorker, type Mode, type RmQuery, type RunStatus, type Speed, type ToWorker } from './protocol';
import type { Scenario } from '../contract/scenario';

/** The engine's time resolution: picoseconds per ms (engine/sim/src/time.rs). */
const PS_PER_MS = 1e9;

export interface WorkerHost {
  post(msg: FromWorker, transfer?: Transferable[]): void;
  /** Wall clock, ms (performance.now in the worker). */
  now(): number;
  /** Run fn after delayMs (0 = as soon as pending messages are handled); returns a canceller. */
  schedule(fn: () => void, delayMs: number): () => void;
}

export interface CoreOptions {
  /** Wall time one slice may take (ms). */
  sliceBudgetMs?: number;
  /** Wall time to wait when playback is ahead of its schedule (ms). */
  idleDelayMs?: number;
}

const MIN_EVENTS = 1_000;
const MAX_EVENTS = 5_000_000;
/** When playback lags its schedule by more than this much wall time, drop the debt. */
const MAX_LAG_WALL_MS = 250;
const SPEED_WINDOW_MS = 1000;

export class WorkerCore {
  private sim: Simulation | null = null;
  private scenarioJson = '';
  private scenarioId = '';
  private meta: SeriesMeta[] = [];
  private width = 1;
  private run = 0;
  private mode: Mode = 'idle';
  private speed: Speed = 1;
  private seekTargetMs = 0;
  /** While playing: the simulated time to pause at (a lesson's next step), else null. Every
   *  `play` sets it afresh from its stops. */
  private pauseAtMs: number | null = null;
  private anchorWall = 0;
  private anchorSim = 0;
  private eventsPerMs = 2_000;
  private history: { wall: number; sim: number; events: number }[] = [];
  /** Wall time inside the engine's advances on this run (ms). */
  private engineMs = 0;
  private cancel: (() => void) | null = null;
  private crashed = false;
  /** RM-cell trace capacity (0: off); kept across runs. */
  private traceCapacity = 0;
  /** While seeking the next RM-cell event: what is sought. */
  private seekRm: RmQuery | null = null;
  /** Copies of the run at evenly spaced times, to go back to (see checkpoints.ts). */
  private checkpoints: Checkpoints<Simulation> | null = null;
  /** After going back to this time (ms): rows before it are on the page already, and a replay
   *  does not send them again (its RM-cell events it does, from the copy's time on). */
  private sentBeforeMs: number | null = null;
  /** RM-cell events of this run sent to the page (a checkpoint notes it when taken). */
  private rmSent = 0;
  /**
   * Events the replay after going back is not sending again: the page holds them already, as
   * the events after the `rmSent` it has (see `scrub`). The page holds `rmSent + rmSkip`.
   */
  private rmSkip = 0;
  /** The time (µs) of each RM-cell event the page holds, by its number in the run (times never
   *  decrease): going back with the trace off keeps those up to the time gone to. */
  private rmTimes: number[] = [];
  /** Events run when the trace last came on (Infinity: off): events after it were recorded
   *  and sent without a gap, so a replay from a copy taken after it records the same ones. */
  private rmOnSinceEvents = Infinity;
  /** The engine's count of events its buffer dropped when that stretch began: more since, and
   *  the page lacks some (a slice at max speed can record more than the buffer holds). */
  private rmDroppedAt = 0;
  private readonly budget: number;
  private readonly idleDelay: number;

  constructor(
    private readonly engine: EngineModule,
    private readonly host: WorkerHost,
    opts: CoreOptions = {},
  ) {
    this.budget = opts.sliceBudgetMs ?? 10;
    this.idleDelay = opts.idleDelayMs ?? 12;
  }

  handle(msg: ToWorker): void {
    if (this.crashed) return;
    try {
      this.dispatch(msg);
    } catch (e) {
      this.crash(e);
    }
  }

  private dispatch(msg: ToWorker) {
    switch (msg.type) {
      case 'init':
        return; // handled by worker.ts before the core exists
      case 'load':
        return this.load(msg.scenario, msg.seq);
      case 'speed':
        this.speed = msg.speed;
        this.reanchor();
        return this.postStatus();
      case 'reset':
        if (!this.sim) return this.error('nothing loaded', msg.type);
        return this.start();
      case 'rmTrace':
        // Also before a load (a replacement worker is told at once): every run takes it.
      {
        const capacity = Math.max(0, Math.floor(msg.capacity));
        // What the page holds past the replay stops matching what the run records from now.
        if (capacity !== this.traceCapacity) this.settleRmSkip(true);
        if (capacity === 0) this.rmOnSinceEvents = Infinity;
        else if (capacity !== this.traceCapacity) this.traceOnFromNow();
        this.traceCapacity = capacity;
        this.sim?.setRmTrace(this.traceCapacity);
        return;
      }
    }
    if (!this.sim) return this.error(`cannot ${msg.type}: no scenario loaded`, msg.type);
    switch (msg.type) {
      case 'play':
        if (this.sim.done()) return this.postStatus();
        this.mode = 'playing';
        this.pauseAtMs = msg.stopsMs?.find((t) => t > this.sim!.nowMs()) ?? null;
        this.reanchor();
        this.history = [];
        this.kick();
        return this.postStatus();
      case 'pause':
        this.stopLoop();
        this.endRmSearch(null);
        if (this.mode !== 'done') this.mode = 'paused';
        return this.postStatus();
      case 'setParam':
        return this.setParam(this.sim, msg.node, msg.param, msg.value);
      case 'explain':
        return this.explain(this.sim, msg.id, msg.switchId, msg.port);
      case 'scrub':
        return this.scrub(this.sim, msg.ms, msg.replayFromMs, msg.rmHeldFrom);
      case 'nextRmEvent': {
        const query: RmQuery = { node: msg.node, direction: msg.direction, connection: msg.connection };
        if (this.sim.done()) return this.host.post({ type: 'rmFound', run: this.run, ...query, record: null, ended: true, problem: null });
        if (this.traceCapacity === 0) {
          this.traceCapacity = ENGINE_TRACE_CAPACITY;
          this.sim.setRmTrace(this.traceCapacity);
          this.traceOnFromNow();
        }
        this.flushSamples(this.sim); // events recorded before the search are not what it finds
        this.endRmSearch(null);
        this.seekRm = query;
        this.seekTargetMs = this.sim.endMs();
        this.mode = 'seeking';
        this.history = [];
        this.kick();
        return this.postStatus();
      }
      case 'step':
      case 'runUntil': {
        this.endRmSearch(null);
        // To the engine's picosecond, as it rounds a target: a sum like 0.30123… + 0.01 would
        // otherwise lie a hair past where the engine stops, and the seek never end.
        const target = Math.round((msg.type === 'step' ? this.sim.nowMs() + msg.ms : msg.ms) * PS_PER_MS) / PS_PER_MS;
        if (!(target > this.sim.nowMs()) || this.sim.done()) return this.postStatus();
        this.seekTargetMs = Math.min(target, this.sim.endMs());
        this.mode = 'seeking';
        this.history = [];
        this.kick();
        return this.postStatus();
      }
    }
  }

  private load(json: string, seq?: number) {
    let problems: Problem[];
    try {
      problems = JSON.parse(this.engine.validateScenario(json)) as Problem[];
    } catch (e) {
      problems = [{ path: '', rule: (e as Error).message }];
    }
    if (problems.length) {
      this.host.post({ type: 'invalid', problems, seq });
      return;
    }
    let sim: Simulation;
    try {
      sim = this.engine.createSimulation(json);
    } catch (e) {
      this.host.post({ type: 'invalid', problems: [{ path: '', rule: (e as Error).message }], seq });
      return;
    }
    this.scenarioJson = json;
    let doc: { id?: unknown; sweep?: unknown } = {};
    try {
      doc = JSON.parse(json) as typeof doc;
    } catch {
      // validated above: the engine read it
    }
    this.scenarioId = String(doc.id ?? '');
    this.start(sim, seq, doc.sweep === undefined ? undefined : this.sweepProblems(json));
  }

  /** The problems of a scenario's `sweep` block (the scenario itself is valid): they do not stop
   *  it from running here, and the lab says them (abrsim run warns of them too). */
  private sweepProblems(json: string): Problem[] {
    try {
      const answer = JSON.parse(this.engine.sweepPlan(json)) as { problems?: Problem[] };
      return answer.problems ?? [];
    } catch (e) {
      return [{ path: 'sweep', rule: (e as Error).message }];
    }
  }

  /**
   * A live parameter change, between two slices (so at an event boundary). The scenario kept
   * for reset becomes the engine's, with the change recorded: a reset replays it.
   */
  private setParam(sim: Simulation, node: string, param: string, value: number) {
    const request = { node, param, value };
    const answer = JSON.parse(sim.setParam(node, param, value)) as Problem | { replaced: ParamChange[] };
    if (!('replaced' in answer)) {
      this.host.post({ type: 'paramSet', run: this.run, request, change: null, replaced: [], problem: answer, scenario: this.scenarioJson });
      return;
    }
    this.scenarioJson = sim.scenario();
    // The copies were taken without the change: going back replays the scenario with it. The
    // events the page holds past now (a replay not yet there) are the run's before the change.
    this.settleRmSkip(true);
    this.checkpoints?.clear();
    const changes = (JSON.parse(this.scenarioJson) as Scenario).changes ?? [];
    const change = changes[changes.length - 1] ?? null;
    this.host.post({ type: 'paramSet', run: this.run, request, change, replaced: answer.replaced, problem: null, scenario: this.scenarioJson });
  }

  /**
   * Goes to time `ms`: forwards, as runUntil; backwards, from a copy of the latest checkpoint
   * before `ms` (or the scenario's start), replayed to `ms` at full speed without sending again
   * the rows the page has. The engine is deterministic: playing on gives the very run as before.
   *
   * The replay's RM-cell events are sent again from the copy's time on, not from `ms` (the page
   * may have let the older ones go: it keeps the newest), unless the page still holds every
   * event from the copy's on (`rmHeldFrom`, the number of the first it holds) and the trace
   * recorded them without a gap: then it keeps them, the replay sends none of them again
   * (`rmSkip`), and the page drops those past where the replay stops when it stops
   * (`settleRmSkip`). With the trace off, the page keeps the events up to `ms`.
   */
  private scrub(sim: Simulation, ms: number, replayFromMs = Infinity, rmHeldFrom = Infinity) {
    this.stopLoop();
    this.endRmSearch(null);
    // To the engine's picosecond, as a step's target is: an uneven time (371.19999 ms) would
    // otherwise lie a hair past where the engine stops, and the seek never end.
    const t = Math.min(Math.round(Math.max(0, Number.isFinite(ms) ? ms : 0) * PS_PER_MS) / PS_PER_MS, sim.endMs());
    if (t <= sim.nowMs()) {
      const held = this.rmSent + this.rmSkip;
      const gapless = sim.rmTraceDropped() === this.rmDroppedAt;
      let back = this.checkpoints?.rewind(Math.min(t, replayFromMs)) ?? null;
      if (!back) {
        back = { sim: this.engine.createSimulation(this.scenarioJson), note: 0 };
        this.checkpoints?.offer(back.sim, 0);
      }
      sim.free();
      this.sim = sim = back.sim;
      sim.setRmTrace(0); // events the copy held were sent when it was taken
      if (this.traceCapacity > 0) sim.setRmTrace(this.traceCapacity);
      this.sentBeforeMs = t;
      const from = sim.eventsProcessed();
      if (this.traceCapacity === 0) {
        // Nothing is recorded on the way: what the page has up to `ms` stays (it lost those
        // after the copy's time: the replay sends none).
        this.rmSent = Math.max(back.note, countUpTo(this.rmTimes, t * 1000 + HALF_PS_US));
        this.rmSkip = 0;
      } else if (gapless && this.rmOnSinceEvents <= from && rmHeldFrom <= back.note) {
        // The page keeps those up to `ms` at once (not those after it until the replay gets
        // there: the log would show them for a moment, and scroll to the cursor below them).
        // Should the replay record more by then, it sends them; fewer, settleRmSkip cuts.
        this.rmSent = back.note;
        this.rmSkip = Math.min(held, Math.max(back.note, countUpTo(this.rmTimes, t * 1000 + HALF_PS_US))) - back.note;
      } else {
        this.rmSent = back.note;
        this.rmSkip = 0;
        this.rmOnSinceEvents = from;
        this.rmDroppedAt = sim.rmTraceDropped();
      }
      this.rmTimes.length = this.rmSent + this.rmSkip;
    }
    this.host.post({ type: 'scrubbed', run: this.run, ms: t, rmKept: this.rmSent + this.rmSkip });
    this.seekTargetMs = t;
    this.mode = 'seeking';
    this.history = [];
    this.kick();
    this.postStatus();
  }

  /** The trace records from now on: a stretch without a gap begins. */
  private traceOnFromNow() {
    this.rmOnSinceEvents = this.sim?.eventsProcessed() ?? 0;
    this.rmDroppedAt = this.sim?.rmTraceDropped() ?? 0;
  }

  /**
   * The RM-cell events a checkpoint taken now notes as sent by its time (the page keeps them
   * when the run goes back to it, and the replay sends the rest). With the trace on, those sent:
   * the run's events up to now, in this pass. Off, the page may hold events of an earlier pass
   * after now (kept by going back with the trace off): those before now.
   */
  private rmNote(sim: Simulation): number {
    if (this.traceCapacity > 0 || this.rmSent === 0) return this.rmSent;
    return Math.min(this.rmSent, countUpTo(this.rmTimes, sim.nowMs() * 1000, true));
  }

  /**
   * The replay no longer follows the events the page holds past it (it stopped short of them,
   * or what it records changes: a live change, the trace turned on or off): the page keeps the
   * `rmSent` it was sent, and later events come as new ones. `now`: whatever the mode.
   */
  private settleRmSkip(now = false) {
    if (this.rmSkip === 0 || (!now && (this.mode === 'playing' || this.mode === 'seeking'))) return;
    this.rmSkip = 0;
    this.rmTimes.length = this.rmSent;
    this.host.post({ type: 'rmKept', run: this.run, rmKept: this.rmSent });
  }

  private explain(sim: Simulation, id: number, switchId: string, port: string) {
    let explain: Explain | null = null;
    let problem: Problem | null = null;
    const answer = JSON.parse(sim.explain(switchId, port)) as { explain?: Explain; problem?: Problem };
    if (answer.explain) explain = answer.explain;
    else problem = answer.problem ?? { path: '', rule: 'the engine gave no explanation' };
    this.host.post({ type: 'explained', run: this.run, id, switchId, port, explain, problem });
  }

  /** Ends an RM-event search (if one is on) with what it found (null: nothing, `ended`: because
   *  the run ended, `problem`: because the engine refused it). */
  private endRmSearch(record: RmRecord | null, ended = false, problem: Problem | null = null) {
    const sought = this.seekRm;
    if (!sought) return;
    this.seekRm = null;
    this.host.post({ type: 'rmFound', run: this.run, ...sought, record, ended, problem });
  }

  /**
   * One slice of an RM-event search: the engine runs until a record of the kind sought (the
   * run pauses right after that event), in calls of as many events as fit in the budget.
   */
  private searchSlice(sim: Simulation, start: number): RmRecord | null {
    const sought = this.seekRm!;
    let wall = start;
    let found: RmRecord | null = null;
    while (!found && !sim.done() && wall - start < this.budget) {
      const remaining = this.budget - (wall - start);
      const maxEvents = Math.round(Math.min(MAX_EVENTS, Math.max(MIN_EVENTS, this.eventsPerMs * remaining)));
      const answer = JSON.parse(sim.advanceToRmEvent(sought.node, sought.direction ?? '', sought.connection ?? '', sim.endMs(), maxEvents)) as {
        events?: number;
        found?: RmRecord | null;
        problem?: Problem;
      };
      if (answer.problem) {
        // The answer says why, for the log to show it where the search was asked for.
        this.mode = 'paused';
        this.endRmSearch(null, false, answer.problem);
        break;
      }
      found = answer.found ?? null;
      const after = this.host.now();
      this.engineMs += after - wall;
      this.measure(answer.events ?? 0, maxEvents, after - wall);
      wall = after;
    }
    return found;
  }

  /** Adopts a fresh simulation (or recreates the current scenario's), at time 0, paused. */
  private start(fresh?: Simulation, seq?: number, sweepProblems?: Problem[]) {
    this.stopLoop();
    this.endRmSearch(null);
    this.sim?.free();
    this.sim = null;
    this.checkpoints?.clear();
    this.sentBeforeMs = null;
    this.sim = fresh ?? this.engine.createSimulation(this.scenarioJson);
    this.rmSent = 0;
    this.rmSkip = 0;
    this.rmTimes = [];
    this.rmOnSinceEvents = this.traceCapacity > 0 ? 0 : Infinity;
    this.rmDroppedAt = 0;
    this.checkpoints = new Checkpoints(this.sim.endMs());
    this.checkpoints.offer(this.sim, 0);
    if (this.traceCapacity > 0) this.sim.setRmTrace(this.traceCapacity);
    this.meta = JSON.parse(this.sim.seriesMeta()) as SeriesMeta[];
    this.width = this.meta.length + 1;
    const notes = JSON.parse(this.sim.notes()) as string[];
    this.run += 1;
    this.mode = 'paused';
    this.history = [];
    this.engineMs = 0;
    this.host.post({
      type: 'loaded',
      run: this.run,
      scenarioId: this.scenarioId,
      meta: this.meta,
      endMs: this.sim.endMs(),
      seq,
      ...(sweepProblems?.length ? { sweepProblems } : {}),
      ...(notes.length ? { notes } : {}),
    });
    this.postStatus();
  }

  private reanchor() {
    if (!this.sim) return;
    this.anchorWall = this.host.now();
    this.anchorSim = this.sim.nowMs();
  }

  private kick() {
    if (this.cancel) return;
    this.cancel = this.host.schedule(() => this.slice(), 0);
  }

  private stopLoop() {
    this.cancel?.();
    this.cancel = null;
  }

  /** The sim-time target of this slice. */
  private target(sim: Simulation, wall: number): number {
    if (this.mode === 'seeking') return this.seekTargetMs;
    const end = this.pauseAtMs === null ? sim.endMs() : Math.min(this.pauseAtMs, sim.endMs());
    if (this.speed === 'max') return end;
    let t = this.anchorSim + (wall - this.anchorWall) * this.speed;
    if (t - sim.nowMs() > MAX_LAG_WALL_MS * this.speed) {
      // The engine cannot keep up with this speed: keep it busy, but drop the debt.
      this.anchorSim = sim.nowMs();
      this.anchorWall = wall - MAX_LAG_WALL_MS / 2;
      t = this.anchorSim + (MAX_LAG_WALL_MS / 2) * this.speed;
    }
    return Math.min(t, end);
  }

  private slice() {
    this.cancel = null;
    const sim = this.sim;
    if (!sim || (this.mode !== 'playing' && this.mode !== 'seeking')) return;
    let delay = 0;
    try {
      const start = this.host.now();
      const target = this.target(sim, start);
      let wall = start;
      if (this.seekRm) {
        const found = this.searchSlice(sim, start);
        wall = this.host.now();
        if (found) {
          this.mode = 'paused';
          this.flushSamples(sim); // the page has the event before it hears it was found
          this.endRmSearch(found);
        }
      }
      while (!this.seekRm && this.mode !== 'paused' && sim.nowMs() < target && !sim.done() && wall - start < this.budget) {
        const remaining = this.budget - (wall - start);
        const maxEvents = Math.round(Math.min(MAX_EVENTS, Math.max(MIN_EVENTS, this.eventsPerMs * remaining)));
        const n = sim.advance(target, maxEvents);
        const after = this.host.now();
        this.engineMs += after - wall;
        this.measure(n, maxEvents, after - wall);
        wall = after;
        if (n === 0 && sim.nowMs() < target) break; // engine made no progress
      }
      this.flushSamples(sim);
      this.checkpoints?.offer(sim, this.rmNote(sim));
      this.record(sim, wall);
      if (sim.done()) {
        this.mode = 'done';
        this.endRmSearch(null, true);
        this.host.post({ type: 'summary', run: this.run, summary: withWallMs(sim.summary(), this.engineMs), digest: sim.digest() });
      } else if (this.mode === 'seeking' && !this.seekRm && sim.nowMs() >= this.seekTargetMs) {
        this.mode = 'paused';
      } else if (this.mode === 'playing' && this.pauseAtMs !== null && sim.nowMs() >= this.pauseAtMs) {
        this.mode = 'paused'; // a lesson's step: the run waits for the class
        this.pauseAtMs = null;
      } else if (this.mode === 'playing' && this.speed !== 'max' && sim.nowMs() >= target) {
        delay = this.idleDelay; // ahead of schedule: wait for the wall clock
      }
    } catch (e) {
      this.crash(e);
      return;
    }
    this.postStatus();
    if (this.mode === 'playing' || this.mode === 'seeking') {
      this.cancel = this.host.schedule(() => this.slice(), delay);
    }
  }

  /** Learns the engine's speed from a call that ran `n` of `maxEvents` events in `wallMs`. */
  private measure(n: number, maxEvents: number, wallMs: number) {
    if (n > 0 && wallMs > 0.5) {
      this.eventsPerMs = 0.7 * this.eventsPerMs + 0.3 * (n / wallMs);
    } else if (n >= maxEvents && wallMs <= 0.5) {
      this.eventsPerMs *= 2;
    }
  }

  /** Sends the rows (and, with the trace on, the RM-cell events) recorded since the last time. */
  private flushSamples(sim: Simulation) {
    const before = this.sentBeforeMs;
    let data = sim.takeSamples();
    if (before !== null && data.length > 0 && data[0] < before) data = rowsFrom(data, this.width, before);
    if (data.length > 0) {
      this.host.post({ type: 'samples', run: this.run, width: this.width, data }, [data.buffer]);
    }
    if (this.traceCapacity > 0) {
      const json = sim.takeRmTrace();
      if (json.length <= 2) return;
      let records = JSON.parse(json) as RmRecord[];
      const dropped = sim.rmTraceDropped();
      // The buffer overflowed in the replay: what it gives no longer lines up with the page's.
      if (dropped > this.rmDroppedAt) this.settleRmSkip(true);
      const skip = Math.min(this.rmSkip, records.length);
      this.rmSent += records.length;
      this.rmSkip -= skip;
      if (skip > 0) records = records.slice(skip);
      for (const r of records) this.rmTimes.push(r.time_us);
      if (records.length) this.host.post({ type: 'rmEvents', run: this.run, records, dropped });
    }
  }

  private record(sim: Simulation, wall: number) {
    this.history.push({ wall, sim: sim.nowMs(), events: sim.eventsProcessed() });
    while (this.history.length > 2 && wall - this.history[0].wall > SPEED_WINDOW_MS) this.history.shift();
  }

  private measured(): { achievedSpeed: number | null; eventsPerSec: number | null } {
    const h = this.history;
    if (h.length < 2 || (this.mode !== 'playing' && this.mode !== 'seeking')) {
      return { achievedSpeed: null, eventsPerSec: null };
    }
    const a = h[0];
    const b = h[h.length - 1];
    const dw = b.wall - a.wall;
    if (dw <= 0) return { achievedSpeed: null, eventsPerSec: null };
    return { achievedSpeed: (b.sim - a.sim) / dw, eventsPerSec: ((b.events - a.events) / dw) * 1000 };
  }

  status(): RunStatus {
    const sim = this.sim;
    return {
      run: this.run,
      mode: this.mode,
      nowMs: sim?.nowMs() ?? 0,
      endMs: sim?.endMs() ?? 0,
      done: sim?.done() ?? false,
      events: sim?.eventsProcessed() ?? 0,
      speed: this.speed,
      ...this.measured(),
      engineMs: this.engineMs,
    };
  }

  private postStatus() {
    this.settleRmSkip();
    this.host.post({ type: 'status', status: this.status() });
  }

  private error(message: string, command?: ToWorker['type']) {
    this.host.post(command ? { type: 'error', message, command } : { type: 'error', message });
  }

  private crash(e: unknown) {
    this.crashed = true;
    this.stopLoop();
    this.sim = null; // a panicked wasm instance must not be touched again
    const err = e as Error;
    const message = err && err.message ? `${err.name ?? 'Error'}: ${err.message}` : String(e);
    this.host.post({ type: 'crashed', message });
  }
}

/** The rows (row-major, `width` values each, times increasing) at `ms` and after. */
export function rowsFrom(data: Float64Array, width: number, ms: number): Float64Array {
  let r = 0;
  while (r * width < data.length && data[r * width] < ms) r++;
  return data.slice(r * width);
}

/**
 * The engine's summary with its `wall_ms` (which the engine, without a clock, leaves 0) set to
 * the time the engine worked on the run here, as `abrsim run` sets it to the run's wall time.
 */
export function withWallMs(summaryJson: string, engineMs: number): string {
  // In the text, not through JSON.parse and JSON.stringify: those would write the engine's
  // `120.0` as `120`, and the Summary JSON would no longer be what `abrsim run` prints. A key
  // inside a string has its quotes escaped, so the only match is the summary's own field.
  const ms = Math.round(engineMs * 1000) / 1000;
  return summaryJson.replace(/"wall_ms":\s*-?\d[\d.eE+-]*/, `"wall_ms":${Number.isInteger(ms) ? `${ms}.0` : String(ms)}`);
}

/** Half the engine's picosecond in µs: an event's time (µs, from picoseconds) at or before a
 *  time in ms, whatever the rounding of either. */
const HALF_PS_US = 0.5e-6;

/** How many of `times` (in order, never decreasing) are at most `limit` (below it: `before`). */
function countUpTo(times: readonly number[], limit: number, before = false): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (before ? times[mid] < limit : times[mid] <= limit) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
