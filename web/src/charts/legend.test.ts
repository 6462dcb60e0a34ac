import { describe, expect, it } from 'vitest';
import type { SeriesMeta } from '../contract/engine';
import { coincidentOwners, legendModel, markersShown } from './legend';
import { CHARTS, linesFor } from './specs';

const meta: SeriesMeta[] = [
  { id: 'acr:C1', kind: 'acr', label: 'C1 ACR', unit: 'Mbps', owner: 'C1', held: true },
  { id: 'share:C1', kind: 'share', label: 'C1 max-min share', unit: 'Mbps', owner: 'C1', held: true },
  { id: 'acr:C2', kind: 'acr', label: 'C2 ACR', unit: 'Mbps', owner: 'C2', held: true },
  { id: 'queue:P', kind: 'queue', label: 'P queue', unit: 'cells', owner: 'P', held: false },
];

describe('legend', () => {
  it('lists each owner once, then a key of the line styles when styles are mixed', () => {
    const m = legendModel(linesFor(CHARTS.find((c) => c.id === 'rate')!, meta));
    expect(m.owners.map((o) => o.owner)).toEqual(['C1', 'C2']);
    expect(m.groups).toEqual([]);
    expect(m.styles).toEqual([
      { style: 'solid', names: ['ACR'] },
      { style: 'dashed', names: ['max-min share'] },
    ]);
  });

  it('has no style key when every line is solid, and takes the chart\'s names for kinds', () => {
    expect(legendModel(linesFor(CHARTS.find((c) => c.id === 'queue')!, meta)).styles).toEqual([]);
    const eth = legendModel(linesFor(CHARTS.find((c) => c.id === 'rate')!, meta), (k) => (k === 'acr' ? 'rate limit' : k));
    expect(eth.styles[0].names).toEqual(['rate limit']);
  });

  it('lists the connection groups, each with its owners and a colour of its hue', () => {
    const gfc: SeriesMeta[] = ['A1', 'A2', 'A3', 'B1', 'X'].map((o) => ({ id: `acr:${o}`, kind: 'acr', label: `${o} ACR`, unit: 'Mbps', owner: o, held: true }));
    const groupOf = (o: string) => (o === 'X' ? undefined : o[0]);
    const lines = linesFor(CHARTS.find((c) => c.id === 'rate')!, gfc, undefined, groupOf);
    const m = legendModel(lines);
    expect(m.groups.map((g) => [g.group, g.owners])).toEqual([
      ['A', ['A1', 'A2', 'A3']],
      ['B', ['B1']],
    ]);
    expect(m.groups[0].color).toBe(lines.find((l) => l.owner === 'A2')!.color);
    expect(m.owners.find((o) => o.owner === 'X')!.group).toBeUndefined();
    expect(m.owners.find((o) => o.owner === 'A3')!.group).toBe('A');
  });

  it('keys overlaid compare lines: the variants as owners, one entry per series with its dash', () => {
    const rate = linesFor(CHARTS.find((c) => c.id === 'rate')!, meta).filter((l) => l.kind === 'acr');
    const lines = ['ERICA', 'ERICA+'].flatMap((v) => rate.map((l, i) => ({ ...l, owner: v, series: l.owner, dash: [i, 1] })));
    const m = legendModel(lines);
    expect(m.owners.map((o) => o.owner)).toEqual(['ERICA', 'ERICA+']);
    expect(m.series).toEqual([
      { series: 'C1', dash: [0, 1] },
      { series: 'C2', dash: [1, 1] },
    ]);
    expect(legendModel(rate).series).toEqual([]);
  });

  it('names the change markers only while the window shows one (the screen and images alike)', () => {
    expect(markersShown([40, 140], 0, 100)).toEqual([40]);
    expect(markersShown([40], 50, 100)).toEqual([]);
    expect(markersShown([], 0, 100)).toEqual([]);
    // A change at the window's edge is drawn there.
    expect(markersShown([0, 100], 0, 100)).toEqual([0, 100]);
  });
});

describe('coincident owners (an image names lines drawn on one another: "C1 = C2")', () => {
  const three: SeriesMeta[] = ['C1', 'C2', 'C3'].flatMap((o) => [
    { id: `acr:${o}`, kind: 'acr', label: `${o} ACR`, unit: 'Mbps', owner: o, held: true },
    { id: `share:${o}`, kind: 'share', label: `${o} max-min share`, unit: 'Mbps', owner: o, held: true },
  ]);
  const lines = linesFor(CHARTS.find((c) => c.id === 'rate')!, three);

  it('sets together the owners whose main lines coincide, in line order, sets of one left out', () => {
    const alike = (a: { owner: string }, b: { owner: string }) => [a.owner, b.owner].every((o) => o === 'C1' || o === 'C3');
    expect(coincidentOwners(lines, 'acr', alike)).toEqual([['C1', 'C3']]);
    expect(coincidentOwners(lines, 'acr', () => true)).toEqual([['C1', 'C2', 'C3']]);
    expect(coincidentOwners(lines, 'acr', () => false)).toEqual([]);
  });

  it('judges the main kind only: reference lines (shares) that coincide by design do not count', () => {
    const asked: string[] = [];
    coincidentOwners(lines, 'acr', (a, b) => {
      asked.push(a.kind, b.kind);
      return true;
    });
    expect(new Set(asked)).toEqual(new Set(['acr']));
    // Without a main kind (no solid line), nothing is set together.
    expect(coincidentOwners(lines, undefined, () => true)).toEqual([]);
  });

  it('leaves out the members of connection groups (the legend names the group)', () => {
    const grouped = linesFor(CHARTS.find((c) => c.id === 'rate')!, three, undefined, (o) => (o === 'C3' ? undefined : 'G'));
    expect(coincidentOwners(grouped, 'acr', () => true)).toEqual([]);
  });

  it('matches overlaid compare lines series by series: owners with different series are apart', () => {
    const a = { ...lines[0], owner: 'current', label: 'current C1 ACR', series: 'C1' };
    const b = { ...lines[0], owner: 'variant', label: 'variant C1 ACR', series: 'C1' };
    const c = { ...lines[0], owner: 'other', label: 'other C1 ACR', series: 'C2' };
    expect(coincidentOwners([a, b, c], 'acr', () => true)).toEqual([['current', 'variant']]);
  });
});
