// A pinned run: a copy of one run's series and the scenario that made them, kept as a reference
// while later runs of the same network play. The charts draw its series faintly behind the live
// ones, in the same colours, matched by series id (a series the pinned run did not have gets no
// reference line). Series data stay here, outside React.

import type { Scenario } from '../contract/scenario';
import type { SampleStore } from './sampleStore';
import type { ChartLine } from './specs';

export interface PinnedRun {
  /** The pinned run's rows, copied when it was pinned (a run pinned half-way has half a run). */
  store: SampleStore;
  /** The scenario that made them (its settings name the reference in the legend). */
  scenario: Scenario;
  /** The simulated time (ms) the pinned run had reached. */
  reachedMs: number;
}

/** Pins what a store holds now. */
export function pinRun(store: SampleStore, scenario: Scenario): PinnedRun {
  const copy = store.copy();
  return { store: copy, scenario, reachedMs: copy.length ? copy.times()[copy.length - 1] : 0 };
}

/** Whether a pinned run is of the network now loaded (the same scenario id): only then is it drawn. */
export function sameNetwork(pinned: PinnedRun | null, current: Scenario | undefined): boolean {
  return !!pinned && !!current && pinned.scenario.id === current.id;
}

/** For each line (of the live store), the pinned store's series with the same id, or -1. */
export function pinnedSeries(lines: ChartLine[], live: SampleStore, pinned: SampleStore): number[] {
  const at = new Map(pinned.meta.map((m, i) => [m.id, i]));
  return lines.map((l) => at.get(live.meta[l.index]?.id ?? '') ?? -1);
}
