// A read-only window into the running lab for the end-to-end tests (and the curious):
// window.__abrlab. Nothing here changes the lab except `load`, which does what the file
// picker does.

import type { Lab } from '../lab/lab';

export interface AbrLabHook {
  engine(): string | null;
  scenarioId(): string | null;
  /** Where the current scenario came from: a library id, a file name, "shared link". */
  origin(): string | null;
  status(): unknown;
  meta(): { id: string; kind: string; owner: string; unit: string }[];
  /** Rows in the sample store. */
  rows(): number;
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
}

declare global {
  interface Window {
    __abrlab?: AbrLabHook;
  }
}

/** `shareLink`: the link of the current scenario (given by main, which knows the library). */
export function installTestHook(lab: Lab, shareLink: () => string | null = () => null) {
  window.__abrlab = {
    engine: () => lab.getState().engine,
    scenarioId: () => lab.getState().current?.id ?? null,
    origin: () => lab.getState().current?.origin ?? null,
    status: () => lab.getState().status,
    meta: () => lab.store.meta.map(({ id, kind, owner, unit }) => ({ id, kind, owner, unit })),
    rows: () => lab.store.length,
    last: () => Object.fromEntries(lab.store.meta.map((m, i) => [m.id, lab.store.last(i)])),
    valued: () =>
      Object.fromEntries(
        lab.store.meta.map((m, i) => [m.id, lab.store.series(i).reduce((n, v) => (Number.isNaN(v) ? n : n + 1), 0)]),
      ),
    valueAt: (id, timeMs) => {
      const i = lab.store.index(id);
      const row = lab.store.nearest(timeMs);
      return i < 0 || row < 0 ? NaN : lab.store.series(i)[row];
    },
    scenario: () => lab.getState().current?.json ?? null,
    problems: () => lab.getState().problems,
    notice: () => lab.getState().notice,
    summary: () => lab.getState().summary,
    load: (json, origin = 'test') => lab.load(json, origin),
    digest: () => lab.getState().digest,
    shareLink,
  };
}
