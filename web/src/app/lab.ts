// The lab's UI state, outside React: the engine client, the sample store and a small snapshot
// (status, scenario, problems) that components read with useSyncExternalStore. Time series go
// to the sample store only.

import { SampleStore } from '../charts/sampleStore';
import type { Catalogue, Problem, RunSummary, SeriesMeta } from '../sim/engine';
import { SimClient, type EngineConfig, type WorkerLike } from '../sim/client';
import type { RunStatus, Speed } from '../sim/protocol';
import type { Scenario } from '../scenario/types';

export interface LoadedScenario {
  id: string;
  scenario: Scenario;
  json: string;
  /** Where it came from: a library id or a file name. */
  origin: string;
}

export interface Notice {
  kind: 'error' | 'info';
  text: string;
}

export interface LabState {
  engine: 'wasm' | 'mock' | null;
  catalogue: Catalogue | null;
  /** The scenario currently in the engine. */
  current: LoadedScenario | null;
  meta: SeriesMeta[];
  status: RunStatus | null;
  /** Summary of the run, once it has reached its end. */
  summary: RunSummary | null;
  speed: Speed;
  /** Problems of the last rejected scenario (the current one is kept). */
  problems: { origin: string; problems: Problem[] } | null;
  notice: Notice | null;
}

const STATUS_INTERVAL_MS = 33;

export class Lab {
  readonly store = new SampleStore();
  private client: SimClient;
  private state: LabState = {
    engine: null,
    catalogue: null,
    current: null,
    meta: [],
    status: null,
    summary: null,
    speed: 1,
    problems: null,
    notice: null,
  };
  private listeners = new Set<() => void>();
  private pending: LoadedScenario | null = null;

  constructor(makeWorker: () => WorkerLike, engine: EngineConfig = { engine: 'auto' }) {
    this.client = new SimClient(
      makeWorker,
      {
        ready: (engineKind, catalogue) => {
          let cat: Catalogue | null = null;
          try {
            cat = JSON.parse(catalogue) as Catalogue;
          } catch {
            cat = null;
          }
          this.set({ engine: engineKind, catalogue: cat });
        },
        loaded: ({ meta }) => {
          this.store.reset(meta);
          const current = this.pending ?? this.state.current;
          this.pending = null;
          this.set({ meta, current, problems: null, status: null, summary: null });
        },
        invalid: (problems) => {
          const origin = this.pending?.origin ?? 'scenario';
          this.pending = null;
          this.set({ problems: { origin, problems } });
        },
        samples: (data, width) => this.store.append(data, width),
        status: (status) => this.onStatus(status),
        summary: (json) => {
          try {
            this.set({ summary: JSON.parse(json) as RunSummary });
          } catch {
            this.set({ summary: null });
          }
        },
        crashed: (message) =>
          this.set({
            notice: { kind: 'error', text: `The engine crashed and was restarted; the scenario was reloaded. ${message}` },
          }),
        error: (message) => this.set({ notice: { kind: 'error', text: message } }),
      },
      engine,
    );
  }

  private statusTimer: ReturnType<typeof setTimeout> | null = null;
  private lastStatusAt = 0;

  /** Status arrives with every engine slice (up to ~100/s); the UI needs ~30/s. */
  private onStatus(status: RunStatus) {
    const prev = this.state.status;
    const now = performance.now();
    const changed = !prev || prev.mode !== status.mode || prev.run !== status.run;
    if (this.statusTimer) clearTimeout(this.statusTimer);
    this.statusTimer = null;
    if (changed || now - this.lastStatusAt >= STATUS_INTERVAL_MS) {
      this.lastStatusAt = now;
      this.set({ status });
    } else {
      // Keep the latest, deliver it soon (trailing edge) so the last one is never lost.
      this.statusTimer = setTimeout(() => {
        this.statusTimer = null;
        this.lastStatusAt = performance.now();
        this.set({ status });
      }, STATUS_INTERVAL_MS);
    }
  }

  subscribe = (fn: () => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  getState = () => this.state;

  private set(patch: Partial<LabState>) {
    this.state = { ...this.state, ...patch };
    for (const fn of this.listeners) fn();
  }

  /** Sends a scenario to the engine; on problems the current one stays loaded. */
  load(json: string, origin: string) {
    let scenario: Scenario;
    try {
      scenario = JSON.parse(json) as Scenario;
    } catch (e) {
      this.set({ problems: { origin, problems: [{ path: '', rule: `not valid JSON: ${(e as Error).message}` }] } });
      return;
    }
    this.pending = { id: String(scenario.id ?? origin), scenario, json, origin };
    this.client.load(json);
  }

  play() {
    this.client.play();
  }
  pause() {
    this.client.pause();
  }
  togglePlay() {
    const mode = this.state.status?.mode;
    if (mode === 'playing' || mode === 'seeking') this.pause();
    else if (mode === 'done') {
      this.reset();
      this.play();
    } else this.play();
  }
  step(ms: number) {
    if (ms > 0) this.client.step(ms);
  }
  runUntil(ms: number) {
    this.client.runUntil(ms);
  }
  reset() {
    this.client.reset();
  }
  setSpeed(speed: Speed) {
    this.set({ speed });
    this.client.setSpeed(speed);
  }
  dismissProblems() {
    this.set({ problems: null });
  }
  dismissNotice() {
    this.set({ notice: null });
  }
  dispose() {
    this.client.dispose();
  }
}
