import { describe, expect, it } from 'vitest';
import type { SeriesMeta } from '../contract/engine';
import type { Scenario } from '../contract/scenario';
import { pinnedSeries, pinRun, sameNetwork } from './pinned';
import { SampleStore } from './sampleStore';
import { CHARTS, linesFor } from './specs';

const m = (id: string, kind: SeriesMeta['kind'], owner: string): SeriesMeta => ({ id, kind, label: id, unit: 'Mbps', owner, held: false });
const scenario = (id: string) => ({ id, version: 1, run: { duration_ms: 10 }, nodes: [], links: [], connections: [] }) as unknown as Scenario;

describe('pinned run', () => {
  it('is a copy: the live store goes on (or starts over) without changing it', () => {
    const live = new SampleStore(2);
    live.reset([m('acr:C1', 'acr', 'C1')]);
    live.append(new Float64Array([0, 1, 1, 2, 2, 3]), 2);
    const pinned = pinRun(live, scenario('two'));
    expect(pinned.reachedMs).toBe(2);
    live.append(new Float64Array([3, 9]), 2);
    live.reset(live.meta);
    expect(pinned.store.length).toBe(3);
    expect([...pinned.store.series(0)]).toEqual([1, 2, 3]);
  });

  it('matches lines by series id: a source the pinned run did not have gets none', () => {
    const pinned = new SampleStore();
    pinned.reset([m('share:C1', 'share', 'C1'), m('acr:C1', 'acr', 'C1')]);
    const live = new SampleStore();
    live.reset([m('acr:C1', 'acr', 'C1'), m('share:C1', 'share', 'C1'), m('acr:C2', 'acr', 'C2')]);
    const lines = linesFor(CHARTS[0], live.meta);
    expect(lines.map((l) => l.label)).toEqual(['acr:C1', 'share:C1', 'acr:C2']);
    expect(pinnedSeries(lines, live, pinned)).toEqual([1, 0, -1]);
  });

  it('is drawn for the same network only', () => {
    const p = pinRun(new SampleStore(), scenario('two-sources'));
    expect(sameNetwork(p, scenario('two-sources'))).toBe(true);
    expect(sameNetwork(p, scenario('vsvd-1'))).toBe(false);
    expect(sameNetwork(null, scenario('two-sources'))).toBe(false);
  });
});
