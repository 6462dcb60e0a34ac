// Test doubles: a deterministic clock and task queue for WorkerCore, an engine wrapper that
// makes advance() cost wall time, and an in-process "worker" for SimClient.

import type { EngineModule, TracingSimulation } from '../contract/engine';
import type { FromWorker, Mode, RunStatus, ToWorker } from '../engine/protocol';
import { WorkerCore, type WorkerHost } from '../engine/workerCore';
import type { WorkerLike } from '../engine/client';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const repoFile = (rel: string) => resolve(here, '../../..', rel);
export const twoSources = () => readFileSync(repoFile('scenarios/two-sources.json'), 'utf8');

/** A run's status as the worker reports it: `mode` at `nowMs` of a 100 ms run. */
export const runStatus = (mode: Mode, nowMs: number, run = 1): RunStatus => ({
  run,
  mode,
  nowMs,
  endMs: 100,
  done: mode === 'done',
  events: 0,
  speed: 1,
  achievedSpeed: null,
  eventsPerSec: null,
  engineMs: 0,
});

export class FakeHost implements WorkerHost {
  messages: FromWorker[] = [];
  clock = 0;
  private tasks: { at: number; seq: number; fn: () => void; live: boolean }[] = [];
  private seq = 0;

  post(msg: FromWorker) {
    this.messages.push(msg);
  }
  now() {
    return this.clock;
  }
  schedule(fn: () => void, delayMs: number) {
    const task = { at: this.clock + delayMs, seq: this.seq++, fn, live: true };
    this.tasks.push(task);
    return () => {
      task.live = false;
    };
  }
  /** Runs scheduled tasks in time order until none is left, or until the clock passes `untilWall`. */
  run(untilWall = Infinity, maxTasks = 100_000) {
    for (let i = 0; i < maxTasks; i++) {
      this.tasks = this.tasks.filter((t) => t.live);
      if (!this.tasks.length) return;
      this.tasks.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const t = this.tasks[0];
      if (t.at > untilWall) return;
      this.tasks.shift();
      this.clock = Math.max(this.clock, t.at);
      t.fn();
    }
    throw new Error('task queue did not drain');
  }
  get pendingTasks() {
    return this.tasks.filter((t) => t.live).length;
  }
  take<T extends FromWorker['type']>(type: T): Extract<FromWorker, { type: T }>[] {
    return this.messages.filter((m) => m.type === type) as Extract<FromWorker, { type: T }>[];
  }
  lastStatus() {
    const s = this.take('status');
    return s[s.length - 1]?.status;
  }
}

/** Wraps an engine so that each advance() moves the fake clock by events / eventsPerMs. */
export function costly(engine: EngineModule, host: FakeHost, eventsPerMs = 1000): EngineModule {
  return {
    ...engine,
    createSimulation(json: string): TracingSimulation {
      return costlySimulation(engine.createSimulation(json), host, eventsPerMs);
    },
  };
}

/** A simulation (and its snapshots) whose advance() moves the fake clock. */
function costlySimulation(sim: TracingSimulation, host: FakeHost, eventsPerMs: number): TracingSimulation {
  const advance = sim.advance.bind(sim);
  const snapshot = sim.snapshot.bind(sim);
  sim.advance = (until: number, maxEvents: number) => {
    const n = advance(until, maxEvents);
    host.clock += n / eventsPerMs;
    return n;
  };
  sim.snapshot = () => costlySimulation(snapshot(), host, eventsPerMs);
  return sim;
}

/** A WorkerLike that runs a WorkerCore in-process; `pump()` delivers messages both ways. */
export class InProcessWorker implements WorkerLike {
  onmessage: ((ev: MessageEvent<FromWorker>) => void) | null = null;
  onerror: ((ev: ErrorEvent) => void) | null = null;
  terminated = false;
  readonly host = new FakeHost();
  private core: WorkerCore | null = null;
  private inbox: ToWorker[] = [];
  private delivered = 0;

  constructor(private readonly makeEngine: (host: FakeHost) => EngineModule) {}

  postMessage(msg: ToWorker) {
    if (!this.terminated) this.inbox.push(msg);
  }
  terminate() {
    this.terminated = true;
  }
  /** Handles queued commands, runs the worker's tasks, and delivers its replies; `rounds`: at
   *  most this many exchanges (1: the replies to what is queued now, not to what they send). */
  pump(rounds = 100) {
    for (let round = 0; round < rounds && !this.terminated; round++) {
      const msgs = this.inbox.splice(0);
      for (const msg of msgs) {
        if (msg.type === 'init') {
          const engine = this.makeEngine(this.host);
          this.core = new WorkerCore(engine, this.host);
          this.host.post({ type: 'ready', engine: engine.kind, catalogue: engine.catalogue() });
        } else this.core?.handle(msg);
      }
      this.host.run();
      const out = this.host.messages.slice(this.delivered);
      this.delivered = this.host.messages.length;
      for (const m of out) if (!this.terminated) this.onmessage?.({ data: m } as MessageEvent<FromWorker>);
      if (!msgs.length && !out.length) return;
    }
  }
}
