// Test build only (`vite build --mode e2e`): a read-only window into the running lab for the
// end-to-end tests, window.__abrlab. main.tsx loads this module only behind
// `import.meta.env.MODE === 'e2e'`, so a normal build has none of it (web/src/layers.test.ts and
// tests/e2e/global-setup.ts check). Nothing here changes the lab except `load`, which does what
// the file picker does, and `panicEngine`, which makes the engine fail as a Rust panic does.

import type { SampleStore } from '../charts/sampleStore';
import type { WorkerLike } from '../engine/client';
import type { ToWorker } from '../engine/protocol';
import type { Lab } from '../lab/lab';
import { HANG_MESSAGE, PANIC_MESSAGE } from './workerHook';

export interface AbrLabHook {
  engine(): string | null;
  scenarioId(): string | null;
  /** Where the current scenario came from: a library id, a file name, "shared link". */
  origin(): string | null;
  /** Where it is kept: `library:<id>`, `mine:<id>` or `none`. */
  place(): string | null;
  /** The user's scenarios as the picker lists them. */
  myScenarios(): { id: string; name: string }[];
  /** Resolves once every change is written to IndexedDB. */
  saved(): Promise<void>;
  status(): unknown;
  meta(): { id: string; kind: string; owner: string; unit: string }[];
  /** Rows in the sample store. */
  rows(): number;
  /** Time (ms) of the last row in the sample store (NaN when empty). */
  lastTimeMs(): number;
  /** Last value of every series, by series id (NaN: no value, e.g. a source not sending). */
  last(): Record<string, number>;
  /** How many rows of every series hold a value (not NaN), by series id. */
  valued(): Record<string, number>;
  /** Value of a series at the sample nearest to a time (NaN when there is none). */
  valueAt(id: string, timeMs: number): number;
  /** The current scenario (JSON), with the changes recorded during the run. */
  scenario(): string | null;
  problems(): unknown;
  summary(): unknown;
  notice(): unknown;
  load(json: string, origin?: string): void;
  /** The engine's digest of the finished run (null before the end). */
  digest(): string | null;
  /** The share link of the current scenario. */
  shareLink(): string | null;
  /** Makes the engine's next step throw "RuntimeError: unreachable", as a poisoned wasm
   *  instance does: the lab's crash recovery (new worker, reload) follows. */
  panicEngine(): void;
  /** Makes the engine's next scenario check block the worker for `ms` (a load that hangs). */
  hangEngine(ms: number): void;
}

declare global {
  interface Window {
    __abrlab?: AbrLabHook;
  }
}

let worker: WorkerLike | null = null;

/** Wraps the worker factory to remember the worker in use (the one panicEngine poisons). */
export function watchWorkers(make: () => WorkerLike): () => WorkerLike {
  return () => (worker = make());
}

/** `shareLink`: the link of the current scenario (given by main, which knows the library). */
export function installTestHook(lab: Lab, store: SampleStore, shareLink: () => string | null = () => null) {
  window.__abrlab = {
    engine: () => lab.getState().engine,
    scenarioId: () => lab.getState().current?.id ?? null,
    origin: () => lab.getState().current?.origin ?? null,
    place: () => {
      const p = lab.getState().current?.place;
      return p ? (p.kind === 'none' ? 'none' : `${p.kind}:${p.id}`) : null;
    },
    myScenarios: () => lab.getState().myScenarios.map(({ id, name }) => ({ id, name })),
    saved: () => lab.saved(),
    status: () => lab.getState().status,
    meta: () => store.meta.map(({ id, kind, owner, unit }) => ({ id, kind, owner, unit })),
    rows: () => store.length,
    lastTimeMs: () => (store.length ? store.times()[store.length - 1] : NaN),
    last: () => Object.fromEntries(store.meta.map((m, i) => [m.id, store.last(i)])),
    valued: () =>
      Object.fromEntries(store.meta.map((m, i) => [m.id, store.series(i).reduce((n, v) => (Number.isNaN(v) ? n : n + 1), 0)])),
    valueAt: (id, timeMs) => {
      const i = store.index(id);
      const row = store.nearest(timeMs);
      return i < 0 || row < 0 ? NaN : store.series(i)[row];
    },
    scenario: () => lab.getState().current?.json ?? null,
    problems: () => lab.getState().problems,
    notice: () => lab.getState().notice,
    summary: () => lab.getState().summary,
    load: (json, origin = 'test') => lab.load(json, origin),
    digest: () => lab.getState().digest,
    shareLink,
    panicEngine: () => worker?.postMessage({ type: PANIC_MESSAGE } as unknown as ToWorker),
    hangEngine: (ms) => worker?.postMessage({ type: HANG_MESSAGE, ms } as unknown as ToWorker),
  };
}

/** The engine client's watchdog timeout for this page: `?answer_timeout_ms=<ms>` (tests only). */
export function answerTimeoutMs(): number | undefined {
  const v = Number(new URLSearchParams(location.search).get('answer_timeout_ms'));
  return v > 0 ? v : undefined;
}
