import { describe, expect, it } from 'vitest';
import type { Reference } from '../contract/generated/Reference';
import { LIBRARY } from '../scenario/library';
import { WASM_ENGINE } from '../test/wasmEngine';
import { placePublishedLabels, publishedLines, publishedWords, steadyFromMs, type PublishedLabel } from './published';
import type { ChartLine } from './specs';

const line = (owner: string, color: string, group?: string): ChartLine => ({
  index: 0,
  owner,
  kind: 'Acr' as ChartLine['kind'],
  color,
  style: 'solid',
  label: owner,
  unit: 'Mbps',
  ...(group ? { group } : {}),
});

const refs: Reference[] = [
  { about: { group: 'F' }, quantity: 'mean_rate_mbps', published: 50, source: 'x' },
  { about: { connection: 'C1' }, quantity: 'mean_rate_mbps', published: 10.37, source: 'x' },
  { about: { port: 'SW3->SW4' }, quantity: 'mean_queue_cells', published: 710, source: 'x' },
  { about: { link: 'L1' }, quantity: 'utilization', published: 1, source: 'x' },
  { about: 'network', quantity: 'jain_index', published: 1, source: 'x' },
];

describe('publishedLines', () => {
  it('marks a rate on the rate chart in the colour of its connection or group', () => {
    const lines = [line('C1', '#111'), line('F1', '#222', 'F'), line('F2', '#333', 'F')];
    expect(publishedLines('rate', refs, lines, 95)).toEqual([
      { value: 50, fromMs: 95, color: '#222', label: 'published: group F 50' },
      { value: 10.37, fromMs: 95, color: '#111', label: 'published: connection C1 10.37' },
    ]);
  });

  it('marks a queue on the queue chart, and nothing a chart does not show', () => {
    expect(publishedLines('queue', refs, [line('SW3->SW4', '#444')])).toEqual([
      { value: 710, fromMs: 0, color: '#444', label: 'published: port SW3->SW4 710' },
    ]);
    expect(publishedLines('queue', refs, [line('SW1->SW2', '#444')])).toEqual([]);
    expect(publishedLines('utilization', refs, [line('SW3->SW4', '#444')])).toEqual([]);
    expect(publishedLines('rate', undefined, [line('C1', '#111')])).toEqual([]);
  });

  // QA: a copy of gfc1 switched to EPRCA drew ERICA+'s published queue as if it were its own.
  it('names the scheme a figure was measured under, where the study says', () => {
    const erica: Reference[] = [{ ...refs[2], algorithm: 'erica_plus' }];
    expect(publishedLines('queue', erica, [line('SW3->SW4', '#444')], 0, { erica_plus: 'ERICA+' })[0].label).toBe(
      'published under ERICA+: port SW3->SW4 710',
    );
    expect(publishedLines('queue', erica, [line('SW3->SW4', '#444')])[0].label).toBe('published under erica_plus: port SW3->SW4 710');
  });

  // QA: fecn-hotspot's 5 Gbps was drawn from 0 ms, so the flows looked far below it while, as
  // they should, they shared the link with EP0 and EP1 (the figure is for after those stop).
  it('runs a figure over the steady window it is a mean over: the scenario\'s, else the last third', () => {
    expect(steadyFromMs({ duration_ms: 120, steady_from_ms: 95 })).toBe(95);
    expect(steadyFromMs({ duration_ms: 120 })).toBe(80);
    expect(steadyFromMs({ duration_ms: 120, steady_from_ms: null })).toBe(80);
    // The engine's window, for every library scenario with published figures.
    for (const e of LIBRARY.entries.filter((x) => x.scenario.reference?.length)) {
      const sim = WASM_ENGINE.createSimulation(e.json);
      const engine = (JSON.parse(sim.summary()) as { steady_from_ms: number }).steady_from_ms;
      sim.free();
      expect(steadyFromMs(e.scenario.run), e.id).toBeCloseTo(engine, 9);
    }
  });
});

describe('placePublishedLabels', () => {
  // Words of 7 px a letter, in a plot 600 px wide.
  const o = { fontPx: 15, gapPx: 2, top: 0, bottom: 200, left: 0, right: 600, widthOf: (t: string) => 7 * t.length };
  const line = (y: number, value: number) => ({ y, color: `#${value}`, text: publishedWords(value) });
  /** Two boxes closer than the gap, in both directions. */
  const overlap = (a: PublishedLabel, b: PublishedLabel) =>
    a.top < b.bottom + o.gapPx && b.top < a.bottom + o.gapPx && a.right - a.width < b.right + o.gapPx && b.right - b.width < a.right + o.gapPx;

  it('says the value: "published 5.55", four significant digits, thousands grouped', () => {
    expect(publishedWords(5.55)).toBe('published 5.55');
    expect(publishedWords(11.1111)).toBe('published 11.11');
    expect(publishedWords(1000)).toBe('published 1,000');
  });

  it('puts the words above their line at the right end, the descender clear of the line', () => {
    const [l] = placePublishedLabels([line(100, 11.1)], o);
    expect(l.bottom).toBeLessThanOrEqual(100 - o.gapPx);
    expect(l.top).toBeLessThan(l.baseline);
    expect(l.right).toBe(o.right);
    expect(l.halo).toBe(false);
  });

  // QA h61: GFC-1 presenting, 11.1 and 5.55 Mbps 15 px apart, their words touching.
  it('gfc1_published_labels_15_px_apart_do_not_touch', () => {
    const labels = placePublishedLabels([line(176, 5.55), line(161, 11.1)], o);
    expect(labels.map((l) => l.text)).toEqual(['published 11.1', 'published 5.55']);
    // The lower line's words go under its line, clear of the upper one's.
    expect(labels[1].top).toBeGreaterThan(176);
    expect(labels[1].top - labels[0].bottom).toBeGreaterThanOrEqual(o.gapPx);
  });

  // QA h65: GFC-1 presenting at 1280 × 720, 5.55 Mbps 13 px under 11.1 and 12 px over the
  // plot's floor shared 11.1's word. It has its own, in a column to the left, above its line.
  it('gfc1_5_55_near_the_floor_has_its_own_words_left_of_11_1s', () => {
    const labels = placePublishedLabels([line(187, 5.55), line(174, 11.1), line(120, 33.3)], { ...o, bottom: 199 });
    expect(labels.map((l) => l.text).sort()).toEqual(['published 11.1', 'published 33.3', 'published 5.55']);
    const low = labels.find((l) => l.text === 'published 5.55')!;
    const mid = labels.find((l) => l.text === 'published 11.1')!;
    expect(low.bottom).toBeLessThanOrEqual(187 - o.gapPx);
    expect(low.right).toBeLessThanOrEqual(mid.right - mid.width - o.gapPx);
    // Over 11.1's line, on a halo.
    expect(low.halo).toBe(true);
    expect(mid.halo).toBe(false);
  });

  it('leaves out the words of a line with no room in any column, and never leaves the plot', () => {
    // Three lines 10 px apart near the plot's bottom, in a plot as narrow as one label.
    const narrow = { ...o, left: 600 - 7 * 'published 1'.length - 1 };
    const labels = placePublishedLabels([line(180, 1), line(190, 2), line(198, 3)], narrow);
    expect(labels.map((l) => l.text)).toEqual(['published 1']);
    // A line at the plot's top has its words under it.
    const [top] = placePublishedLabels([line(3, 9)], o);
    expect(top.top).toBeGreaterThanOrEqual(0);
    expect(top.baseline).toBeGreaterThan(3);
  });

  it('lines at one height share one label, above them', () => {
    const labels = placePublishedLabels([line(100, 11.1), line(100.4, 11.1), line(100, 11.1)], o);
    expect(labels).toHaveLength(1);
    expect(labels[0].bottom).toBeLessThanOrEqual(100);
  });

  it('no two boxes overlap and distinct values get distinct words, whatever the spacing', () => {
    for (const step of [1.5, 4, 9, 15, 19, 22, 30]) {
      // Eight lines, those in the plot (the chart draws no other).
      const lines = Array.from({ length: 8 }, (_, i) => line(20 + i * step, i + 1)).filter((l) => l.y <= o.bottom);
      const labels = placePublishedLabels(lines, o);
      // Room in the plot's 600 px for every one.
      expect(labels.length, `step ${step}`).toBe(lines.length);
      expect(new Set(labels.map((l) => l.text)).size).toBe(labels.length);
      for (let i = 0; i < labels.length; i++) {
        expect(labels[i].top).toBeGreaterThanOrEqual(o.top);
        expect(labels[i].bottom).toBeLessThanOrEqual(o.bottom);
        expect(labels[i].right - labels[i].width).toBeGreaterThanOrEqual(o.left);
        for (let j = i + 1; j < labels.length; j++) expect(overlap(labels[i], labels[j]), `step ${step}: ${i} and ${j}`).toBe(false);
      }
    }
  });
});
