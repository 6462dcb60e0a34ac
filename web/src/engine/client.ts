// The UI's handle on the engine worker. Forwards commands, filters out samples of superseded
// runs, and replaces the worker when the engine crashes (a panicked wasm instance is poisoned),
// reloading the last good scenario and reporting the crash.

import type { ParamChange, Problem, SeriesMeta } from '../contract/engine';
import type { FromWorker, RunStatus, Speed, ToWorker } from './protocol';

/** The part of a Worker the client uses (a real Worker, or an in-process fake in tests). */
export interface WorkerLike {
  postMessage(msg: ToWorker): void;
  terminate(): void;
  onmessage: ((ev: MessageEvent<FromWorker>) => void) | null;
  onerror: ((ev: ErrorEvent) => void) | null;
}

export interface ClientHandlers {
  ready?(engine: 'wasm', catalogue: string): void;
  /** The worker could not load the engine (the message says why). */
  unavailable?(message: string): void;
  /** `seq`: the `load` this answers; none for a reset or the reload after a crash. */
  loaded?(info: { run: number; scenarioId: string; meta: SeriesMeta[]; endMs: number; seq?: number }): void;
  invalid?(problems: Problem[], seq?: number): void;
  samples?(data: Float64Array, width: number): void;
  status?(status: RunStatus): void;
  /** The answer to setParam: the recorded change and the scenario with it, or the problem. */
  paramSet?(answer: {
    request: { node: string; param: string; value: number };
    change: ParamChange | null;
    problem: Problem | null;
    scenario: string;
  }): void;
  /** The run summary (JSON text) when a run reaches its end. */
  summary?(json: string, digest: string): void;
  /** The engine crashed; a fresh worker is already being started. */
  crashed?(message: string): void;
  error?(message: string): void;
}

export class SimClient {
  private worker!: WorkerLike;
  private run = -1;
  private lastGood: string | null = null;
  private pending: string | null = null;
  private speed: Speed = 1;
  restarts = 0;

  constructor(
    private readonly makeWorker: () => WorkerLike,
    private readonly on: ClientHandlers,
  ) {
    this.spawn();
  }

  private spawn() {
    this.run = -1;
    this.worker = this.makeWorker();
    this.worker.onmessage = (ev) => this.receive(ev.data);
    this.worker.onerror = (ev) => {
      ev.preventDefault?.();
      this.restart(`worker error: ${ev.message || 'unknown'}`);
    };
    this.send({ type: 'init' });
    this.send({ type: 'speed', speed: this.speed });
  }

  private restart(message: string) {
    this.worker.terminate();
    this.restarts += 1;
    this.spawn();
    if (this.lastGood !== null) this.load(this.lastGood);
    this.on.crashed?.(message);
  }

  private receive(msg: FromWorker) {
    switch (msg.type) {
      case 'ready':
        return this.on.ready?.(msg.engine, msg.catalogue);
      case 'unavailable':
        return this.on.unavailable?.(msg.message);
      case 'loaded':
        this.run = msg.run;
        if (this.pending !== null) {
          this.lastGood = this.pending;
          this.pending = null;
        }
        return this.on.loaded?.(msg);
      case 'invalid':
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
        if (msg.run !== this.run) return;
        // A crash reload must replay the changes made so far.
        if (msg.change) this.lastGood = msg.scenario;
        return this.on.paramSet?.(msg);
      case 'crashed':
        return this.restart(msg.message);
      case 'error':
        return this.on.error?.(msg.message);
    }
  }

  private send(msg: ToWorker) {
    this.worker.postMessage(msg);
  }

  load(scenarioJson: string, seq?: number) {
    this.pending = scenarioJson;
    this.send({ type: 'load', scenario: scenarioJson, seq });
  }
  play() {
    this.send({ type: 'play' });
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
    this.send({ type: 'reset' });
  }
  setParam(node: string, param: string, value: number) {
    this.send({ type: 'setParam', node, param, value });
  }
  setSpeed(speed: Speed) {
    this.speed = speed;
    this.send({ type: 'speed', speed });
  }
  dispose() {
    this.worker.terminate();
  }
}

/** The real thing: a module worker running worker.ts. */
export function makeEngineWorker(): WorkerLike {
  return new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'abr-engine' }) as WorkerLike;
}
