import { describe, expect, it } from 'vitest';
import type { SeriesMeta } from '../contract/engine';
import { compareChartSvgs, mergeStores, overlayPanels, SERIES_DASHES, sharedYFloor, sidePanels, storeOf, variantNames } from './compareCharts';
import { kindNamesOf } from './legend';
import { colourAt } from './palette';
import { ATM_VIEW, type ChartLine } from './specs';

const meta = [{ id: 'a' }, { id: 'b' }] as unknown as SeriesMeta[];
const line = (index: number) => ({ index }) as ChartLine;

/** Two sources' ACR and share, and one port's queue, as the engine describes them. */
const runMeta: SeriesMeta[] = [
  { id: 'acr:C1', kind: 'acr', label: 'C1 ACR', unit: 'Mbps', owner: 'C1', held: true },
  { id: 'share:C1', kind: 'share', label: 'C1 max-min share', unit: 'Mbps', owner: 'C1', held: true },
  { id: 'acr:C2', kind: 'acr', label: 'C2 ACR', unit: 'Mbps', owner: 'C2', held: true },
  { id: 'queue_peak:SW1->SW2', kind: 'queue_peak', label: 'SW1->SW2 queue', unit: 'cells', owner: 'SW1->SW2', held: false },
];
/** A run sampled every `dt` ms up to `end`: C1 = k·t, its share 50, C2 = 2k·t, the queue k. */
function run(k: number, dt: number, end: number) {
  const rows: number[] = [];
  for (let t = 0; t <= end; t += dt) rows.push(t, k * t, 50, 2 * k * t, k);
  return storeOf(runMeta, new Float64Array(rows));
}

describe('compare small multiples', () => {
  it('fills a store from row-major rows', () => {
    const s = storeOf(meta, new Float64Array([0, 1, 10, 0.5, 2, 20]));
    expect(s.length).toBe(2);
    expect(Array.from(s.times())).toEqual([0, 0.5]);
    expect(Array.from(s.series(1))).toEqual([10, 20]);
  });

  it("knows a batch worker's min/max buckets (the tooltip says so), overlaid the widest", () => {
    const pairs = new Float64Array([0, 1, 10, 0.75, 2, 20, 1, 0, 5, 1.75, 4, 8]);
    expect(storeOf(meta, pairs).samplesPerBucket).toBe(1);
    expect(storeOf(meta, pairs, 4).samplesPerBucket).toBe(4);
    expect(storeOf(meta, pairs, 3).samplesPerBucket).toBe(1); // not a bucket size a store makes
    const merged = mergeStores([storeOf(meta, pairs, 4), null, storeOf(meta, pairs, 8), storeOf(meta, pairs)], ['a', 'b', 'c', 'd']);
    expect(merged.store.samplesPerBucket).toBe(8);
    expect(mergeStores([storeOf(meta, pairs)], ['a']).store.samplesPerBucket).toBe(1);
  });

  it('shares the highest value drawn by any variant as the y floor, scaled to shown units', () => {
    const a = storeOf(meta, new Float64Array([0, 1, 10, 0.5, 2, 20]));
    const b = storeOf(meta, new Float64Array([0, 5, 99, 0.5, NaN, 3]));
    expect(sharedYFloor([{ store: a, lines: [line(1)] }, { store: b, lines: [line(0)] }], 1, 1)).toBe(20);
    expect(sharedYFloor([{ store: a, lines: [line(0)] }, { store: b, lines: [line(0)] }], 1, 0.5)).toBe(2.5);
    expect(sharedYFloor([{ store: a, lines: [] }], 7, 1)).toBe(7);
  });

  it('lays out a rate and a queue chart per variant, a missing variant left empty', () => {
    const panels = sidePanels([run(1, 10, 100), null, run(3, 10, 50)], ATM_VIEW);
    expect(panels.map((p) => p.spec.id)).toEqual(['rate', 'queue']);
    expect(panels[0].runs[1]).toBeNull();
    expect(panels[0].endMs).toBe(100);
    // The rate axis of both reaches variant 3's C2 at 50 ms: 2·3·50.
    expect(panels[0].yFloor).toBe(300);
  });
});

describe('overlaid compare charts', () => {
  it('merges the variants on one time axis, each series named by its variant', () => {
    const { store, offsets } = mergeStores([run(1, 10, 30), null, run(2, 10, 30)], ['ERICA', 'x', 'ERICA+']);
    expect(offsets).toEqual([0, -1, 4]);
    expect(store.meta.map((m) => m.id)).toEqual(['0:acr:C1', '0:share:C1', '0:acr:C2', '0:queue_peak:SW1->SW2', '2:acr:C1', '2:share:C1', '2:acr:C2', '2:queue_peak:SW1->SW2']);
    expect(store.meta[4].label).toBe('C1 ACR · ERICA+');
    expect(Array.from(store.times())).toEqual([0, 10, 20, 30]);
    expect(Array.from(store.series(0))).toEqual([0, 10, 20, 30]);
    expect(Array.from(store.series(4))).toEqual([0, 20, 40, 60]);
  });

  it('holds a variant on another grid at its last sample, and leaves it empty past its end', () => {
    const { store } = mergeStores([run(1, 10, 40), run(1, 20, 20)], ['a', 'b']);
    expect(Array.from(store.times())).toEqual([0, 10, 20, 30, 40]);
    expect(Array.from(store.series(4))).toEqual([0, 0, 20, NaN, NaN]);
  });

  it('draws each variant in its colour and each series in its dash, the same dash in every variant', () => {
    const stores = [run(1, 10, 30), run(2, 10, 30)];
    const names = ['ERICA', 'ERICA+'];
    const merged = mergeStores(stores, names);
    const [rate, queue] = overlayPanels(stores, names, merged, ATM_VIEW);
    // The sources' own lines only (not the shares), one per source and variant.
    expect(rate.lines.map((l) => [l.owner, l.series, l.label])).toEqual([
      ['ERICA', 'C1', 'C1 ACR · ERICA'],
      ['ERICA', 'C2', 'C2 ACR · ERICA'],
      ['ERICA+', 'C1', 'C1 ACR · ERICA+'],
      ['ERICA+', 'C2', 'C2 ACR · ERICA+'],
    ]);
    expect(rate.lines.map((l) => l.color)).toEqual([colourAt(0), colourAt(0), colourAt(1), colourAt(1)]);
    expect(rate.lines.map((l) => l.dash)).toEqual([SERIES_DASHES[0], SERIES_DASHES[1], SERIES_DASHES[0], SERIES_DASHES[1]]);
    // Each line reads its own variant's column of the merged store.
    expect(rate.lines.map((l) => merged.store.meta[l.index].id)).toEqual(['0:acr:C1', '0:acr:C2', '1:acr:C1', '1:acr:C2']);
    expect(queue.lines.map((l) => merged.store.series(l.index)[1])).toEqual([1, 2]);
    expect(rate.view.unit).toBe('Mbps');
  });

  it('numbers variants whose labels are alike', () => {
    expect(variantNames(['a', 'b', 'a'])).toEqual(['a (1)', 'b', 'a (3)']);
  });
});

describe('the compare image charts', () => {
  const stores = [run(1, 10, 100), run(2, 10, 100)];
  const names = ['ERICA', 'ERICA+'];
  const merged = mergeStores(stores, names);
  const overlay = { store: merged.store, panels: overlayPanels(stores, names, merged, ATM_VIEW) };
  const side = sidePanels(stores, ATM_VIEW);
  const parse = (svg: string) => new DOMParser().parseFromString(svg, 'image/svg+xml');

  it('overlaid: one full-width chart per quantity holding both variants', () => {
    const { charts, columns } = compareChartSvgs('overlaid', side, overlay, names, [0, 100], 1000);
    expect(columns).toBe(1);
    expect(charts.map((c) => c.width)).toEqual([1000, 1000]);
    const series = [...parse(charts[0].svg).querySelectorAll('path[data-series]')].map((p) => p.getAttribute('data-series'));
    expect(series.sort()).toEqual(['C1 ACR · ERICA', 'C1 ACR · ERICA+', 'C2 ACR · ERICA', 'C2 ACR · ERICA+']);
  });

  it('side by side: a chart per quantity and variant, a column per variant, clip ids apart', () => {
    const { charts, columns } = compareChartSvgs('side', side, overlay, names, [0, 100], 1000);
    expect(columns).toBe(2);
    expect(charts).toHaveLength(4);
    expect(charts[0].width).toBe(500);
    const ids = charts.map((c) => parse(c.svg).querySelector('clipPath')!.id);
    expect(new Set(ids).size).toBe(4);
  });

  // QA: in fecn-hotspot's Compare PNG the first run's title took one line, the others' two
  // ("… · SW1.algorithm = qcn"): the plots of one row stood at different heights.
  it('side by side: a row whose titles wrap differently keeps its plots level', () => {
    const { charts } = compareChartSvgs('side', side, overlay, ['A', 'a variant with a long name, SW1.params.n0 = 1'], [0, 100], 800);
    const titles = charts.map((c) => parse(c.svg).querySelectorAll('text.title').length);
    expect(titles[0]).toBeLessThan(titles[1]);
    const plotTop = (svg: string) => Number(parse(svg).querySelector('clipPath rect')!.getAttribute('y'));
    expect(plotTop(charts[0].svg)).toBeGreaterThan(0);
    expect(plotTop(charts[0].svg)).toBe(plotTop(charts[1].svg));
    expect(charts[0].height).toBe(charts[1].height);
  });

  // QA: Compare on qcn-hotspot keyed the solid lines "ACR" where the lab's own chart says "rate limit".
  it("an Ethernet comparison's legends call a host's rate its rate limit, on screen and in the image", () => {
    expect(kindNamesOf({ ethernet: true })).toEqual({ acr: 'rate limit' });
    expect(kindNamesOf({ ethernet: false })).toBeUndefined();
    const legendText = (svg: string) => [...parse(svg).querySelectorAll('text')].map((t) => t.textContent).join('|');
    const eth = compareChartSvgs('side', side, overlay, names, [0, 100], 1000, undefined, kindNamesOf({ ethernet: true }));
    expect(legendText(eth.charts[0].svg)).toContain('rate limit');
    expect(legendText(eth.charts[0].svg)).not.toMatch(/(^|\|)ACR(\||$)/);
    const atm = compareChartSvgs('side', side, overlay, names, [0, 100], 1000);
    expect(legendText(atm.charts[0].svg)).toMatch(/(^|\|)ACR(\||$)/);
  });
});
