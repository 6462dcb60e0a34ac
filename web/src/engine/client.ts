// The UI's handle on the engine worker. Forwards commands, filters out samples of superseded
// runs, and replaces the worker when the engine crashes (a panicked wasm instance is poisoned),
// when a load or reset is not answered in time (a watchdog: the worker is busy in one long
// engine call and cannot be interrupted otherwise) or when the user cancels a load, reloading
// the last good scenario each time.

import type { Explain, ParamChange, Problem, RmDirection, RmRecord, SeriesMeta } from '../contract/engine';
import type { FromWorker, RmQuery, RunStatus, Speed, ToWorker } from './protocol';

/** The part of a Worker the client uses (a real Worker, or an in-process fake in tests). */
export interface WorkerLike {
  postMessage(msg: ToWorker): void;
  terminate(): void;
  onmessage: ((ev: MessageEvent<FromWorker>) => void) | null;
  onerror: ((ev: ErrorEvent) => void) | null;
}

/** A live parameter change sent to the engine. */
export type LiveRequest = { node: string; param: string; value: number };

export interface ClientHandlers {
  ready?(engine: 'wasm', catalogue: string): void;
  /** The worker could not load the engine (the message says why). */
  unavailable?(message: string): void;
  /** `seq`: the `load` this answers; none for a reset or the reload after a crash. */
  loaded?(info: { run: number; scenarioId: string; meta: SeriesMeta[]; endMs: number; seq?: number; sweepProblems?: Problem[]; notes?: string[] }): void;
  invalid?(problems: Problem[], seq?: number): void;
  samples?(data: Float64Array, width: number): void;
  status?(status: RunStatus): void;
  /** The answer to setParam: the recorded change, the later ones of that parameter it
   *  replaced and the scenario with it, or the problem. */
  paramSet?(answer: {
    request: LiveRequest;
    change: ParamChange | null;
    replaced: ParamChange[];
    problem: Problem | null;
    scenario: string;
  }): void;
  /** Every live change sent has been answered (or was lost with a replaced worker): what waits
   *  for the engine to confirm one may go on. */
  liveSettled?(): void;
  /** The run summary (JSON text) when a run reaches its end. */
  summary?(json: string, digest: string): void;
  /** RM-cell events of the current run (with the trace on), oldest first. */
  rmEvents?(records: RmRecord[], dropped: number): void;
  /** The answer to explain (of the current run). */
  explained?(answer: { id: number; switchId: string; port: string; explain: Explain | null; problem: Problem | null }): void;
  /** The answer to nextRmEvent, with what it looked for: the event the run paused at, or null. */
  rmFound?(query: RmQuery, record: RmRecord | null, ended: boolean, problem: Problem | null): void;
  /** The answer to scrub: the run goes to `ms`; rows at `ms` and after that came before this
   *  are the time left (drop them), those after are the run's from `ms`. Of the RM-cell events
   *  the first `rmKept` of the run stay; the run sends the others again as it replays. */
  scrubbed?(ms: number, rmKept: number): void;
  /** Of the RM-cell events, the first `rmKept` of the run stay (a replay stopped short of the
   *  ones the page held and it did not send again). */
  rmKept?(rmKept: number): void;
  /** The engine crashed; a fresh worker is already being started. */
  crashed?(message: string, lostLive: readonly LiveRequest[]): void;
  /** A load or reset was not answered within the timeout: a fresh worker is being started. */
  timedOut?(waitedMs: number, lostLive: readonly LiveRequest[]): void;
  error?(message: string): void;
}

export interface ClientOptions {
  /** A load or reset not answered within this long restarts the worker (ms). */
  answerTimeoutMs?: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (id: unknown) => void;
}

/** How long the engine may take to answer a load or a reset (validating and building a
 *  10,000-source network takes well under a second). */
export const ANSWER_TIMEOUT_MS = 6000;

export class SimClient {
  private worker!: WorkerLike;
  private run = -1;
  private lastGood: string | null = null;
  private pending: string | null = null;
  private speed: Speed = 1;
  private traceCapacity = 0;
  private watchdog: unknown = null;
  /** Loads and resets sent and not answered yet (the worker answers them in order). */
  private awaiting = 0;
  /** Live parameter changes sent and not answered yet (the worker answers each, in order). */
  private liveSent: LiveRequest[] = [];
  /** Whether the worker has its engine: its start-up (fetching and compiling the wasm) does not
   *  count against the watchdog, which is armed once it is ready. */
  private engineReady = false;
  private readonly timeoutMs: number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (id: unknown) => void;
  restarts = 0;

  constructor(
    private readonly makeWorker: () => WorkerLike,
    private readonly on: ClientHandlers,
    opts: ClientOptions = {},
  ) {
    this.timeoutMs = opts.answerTimeoutMs ?? ANSWER_TIMEOUT_MS;
    this.setTimer = opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = opts.clearTimer ?? ((id) => clearTimeout(id as ReturnType<typeof setTimeout>));
    this.spawn();
  }

  private spawn() {
    this.run = -1;
    // Live changes sent to a worker that is gone are lost with it: none is awaited (replaceWorker
    // says which were lost).
    this.liveSent = [];
    this.engineReady = false;
    this.worker = this.makeWorker();
    this.worker.onmessage = (ev) => this.receive(ev.data);
    this.worker.onerror = (ev) => {
      ev.preventDefault?.();
      this.restart(`worker error: ${ev.message || 'unknown'}`);
    };
    this.send({ type: 'init' });
    this.send({ type: 'speed', speed: this.speed });
    if (this.traceCapacity > 0) this.send({ type: 'rmTrace', capacity: this.traceCapacity });
  }

  /** A fresh worker with the last good scenario. */
  private replaceWorker(reload = this.lastGood): LiveRequest[] {
    this.stopWatch();
    this.worker.terminate();
    this.restarts += 1;
    const lost = this.liveSent;
    this.spawn();
    this.pending = null;
    if (reload !== null) this.load(reload);
    if (lost.length) this.on.liveSettled?.();
    return lost;
  }

  private restart(message: string) {
    this.on.crashed?.(message, this.replaceWorker());
  }

  /** A load or reset is sent: it must be answered in time. */
  private watch() {
    this.awaiting += 1;
    if (this.watchdog === null && this.engineReady) this.arm();
  }

  private arm() {
    this.watchdog = this.setTimer(() => {
      this.watchdog = null;
      // The last good scenario loaded before in the same engine: it loads again.
      this.on.timedOut?.(this.timeoutMs, this.replaceWorker());
    }, this.timeoutMs);
  }

  /** One of them is answered: the next one (if any) gets its own time. */
  private answered() {
    this.awaiting = Math.max(0, this.awaiting - 1);
    if (this.watchdog !== null) this.clearTimer(this.watchdog);
    this.watchdog = null;
    if (this.awaiting > 0) this.arm();
  }

  private stopWatch() {
    if (this.watchdog !== null) this.clearTimer(this.watchdog);
    this.watchdog = null;
    this.awaiting = 0;
  }

  /** Stops the load on its way: a fresh worker reloads the last good scenario. */
  cancel() {
    this.replaceWorker();
  }

  private receive(msg: FromWorker) {
    switch (msg.type) {
      case 'ready':
        this.engineReady = true;
        if (this.awaiting > 0 && this.watchdog === null) this.arm();
        return this.on.ready?.(msg.engine, msg.catalogue);
      case 'unavailable':
        return this.on.unavailable?.(msg.message);
      case 'loaded':
        this.answered();
        this.run = msg.run;
        if (this.pending !== null) {
          this.lastGood = this.pending;
          this.pending = null;
        }
        return this.on.loaded?.(msg);
      case 'invalid':
        this.answered();
        this.pending = null;
        return this.on.invalid?.(msg.problems, msg.seq);
      case 'samples':
        if (msg.run === this.run) this.on.samples?.(msg.data, msg.width);
        return;
      case 'status':
        if (msg.status.run === this.run) this.on.status?.(msg.status);
        return;
      case 'summary':
        if (msg.run === this.run) this.on.summary?.(msg.summary, msg.digest);
        return;
      case 'paramSet':
        this.liveSent.shift();
        if (msg.run === this.run) {
          // A crash reload must replay the changes made so far.
          if (msg.change) this.lastGood = msg.scenario;
          this.on.paramSet?.(msg);
        }
        if (this.liveSent.length === 0) this.on.liveSettled?.();
        return;
      case 'rmEvents':
        if (msg.run === this.run) this.on.rmEvents?.(msg.records, msg.dropped);
        return;
      case 'explained':
        if (msg.run === this.run) this.on.explained?.(msg);
        return;
      case 'rmFound':
        if (msg.run === this.run) this.on.rmFound?.({ node: msg.node, direction: msg.direction, connection: msg.connection }, msg.record, msg.ended, msg.problem);
        return;
      case 'scrubbed':
        if (msg.run === this.run) this.on.scrubbed?.(msg.ms, msg.rmKept);
        return;
      case 'rmKept':
        if (msg.run === this.run) this.on.rmKept?.(msg.rmKept);
        return;
      case 'crashed':
        return this.restart(msg.message);
      case 'error':
        if (msg.command === 'reset') this.answered(); // a reset with nothing loaded
        this.on.error?.(msg.message);
        // A live change sent with nothing loaded is answered so, not by paramSet.
        if (msg.command === 'setParam' && this.liveSent.shift() && this.liveSent.length === 0) this.on.liveSettled?.();
        return;
    }
  }

  private send(msg: ToWorker) {
    this.worker.postMessage(msg);
  }

  load(scenarioJson: string, seq?: number) {
    this.pending = scenarioJson;
    this.watch();
    this.send({ type: 'load', scenario: scenarioJson, seq });
  }
  play(stopsMs?: readonly number[]) {
    this.send(stopsMs?.length ? { type: 'play', stopsMs } : { type: 'play' });
  }
  pause() {
    this.send({ type: 'pause' });
  }
  step(ms: number) {
    this.send({ type: 'step', ms });
  }
  runUntil(ms: number) {
    this.send({ type: 'runUntil', ms });
  }
  reset() {
    this.watch();
    this.send({ type: 'reset' });
  }
  setParam(node: string, param: string, value: number) {
    this.liveSent.push({ node, param, value });
    this.send({ type: 'setParam', node, param, value });
  }
  /** The live changes sent and not answered yet, oldest first. */
  get liveUnanswered(): readonly LiveRequest[] {
    return [...this.liveSent];
  }
  /** Whether a live change sent has not been answered yet: the scenario the engine runs is
   *  about to record it. */
  get liveAwaited(): boolean {
    return this.liveSent.length > 0;
  }
  setSpeed(speed: Speed) {
    this.speed = speed;
    this.send({ type: 'speed', speed });
  }
  /** Records RM-cell events (0: stop); a replacement worker is told again. */
  setRmTrace(capacity: number) {
    this.traceCapacity = capacity;
    this.send({ type: 'rmTrace', capacity });
  }
  explain(id: number, switchId: string, port: string) {
    this.send({ type: 'explain', id, switchId, port });
  }
  nextRmEvent(node: string, direction?: RmDirection, connection?: string) {
    this.send({ type: 'nextRmEvent', node, direction, connection });
  }
  /** `rmHeldFrom`: the number of the first RM-cell event the page holds (see protocol.ts). */
  scrub(ms: number, replayFromMs?: number, rmHeldFrom?: number) {
    this.send({ type: 'scrub', ms, ...(replayFromMs === undefined ? {} : { replayFromMs }), ...(rmHeldFrom === undefined ? {} : { rmHeldFrom }) });
  }
  dispose() {
    this.stopWatch();
    this.worker.terminate();
  }
}

/** The real thing: a module worker running worker.ts. */
export function makeEngineWorker(): WorkerLike {
  return new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'abr-engine' }) as WorkerLike;
}
