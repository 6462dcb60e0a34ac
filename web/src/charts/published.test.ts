import { describe, expect, it } from 'vitest';
import type { Reference } from '../contract/generated/Reference';
import { LIBRARY } from '../scenario/library';
import { WASM_ENGINE } from '../test/wasmEngine';
import { placePublishedLabels, publishedLines, steadyFromMs } from './published';
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
  const o = { fontPx: 15, gapPx: 2, top: 0, bottom: 200 };
  const overlap = (a: { top: number; bottom: number }, b: { top: number; bottom: number }) => a.top < b.bottom && b.top < a.bottom;

  it('puts the word above its line, its descender clear of the line', () => {
    const [l] = placePublishedLabels([{ y: 100, color: '#111' }], o);
    expect(l.bottom).toBeLessThanOrEqual(100 - o.gapPx);
    expect(l.top).toBeLessThan(l.baseline);
  });

  // QA h61: GFC-1 presenting, 11.1 and 5.55 Mbps 15 px apart, their words touching.
  it('gfc1_published_labels_15_px_apart_do_not_touch', () => {
    const labels = placePublishedLabels([{ y: 176, color: '#a' }, { y: 161, color: '#b' }], o);
    expect(labels.map((l) => l.color)).toEqual(['#b', '#a']);
    // The lower line's word goes under its line, clear of the upper one's.
    expect(labels[1].top).toBeGreaterThan(176);
    expect(labels[1].top - labels[0].bottom).toBeGreaterThanOrEqual(o.gapPx);
  });

  it('leaves out the word of a line with no room above or below it, and never leaves the plot', () => {
    // Three lines 10 px apart near the plot's bottom: the middle and the last have no room.
    const labels = placePublishedLabels([{ y: 180, color: '#a' }, { y: 190, color: '#b' }, { y: 198, color: '#c' }], o);
    expect(labels.map((l) => l.color)).toEqual(['#a']);
    // A line at the plot's top has its word under it.
    const [top] = placePublishedLabels([{ y: 3, color: '#t' }], o);
    expect(top.top).toBeGreaterThanOrEqual(0);
    expect(top.baseline).toBeGreaterThan(3);
  });

  it('lines at one height share one word, above them', () => {
    const labels = placePublishedLabels([{ y: 100, color: '#a' }, { y: 100.4, color: '#b' }, { y: 100, color: '#c' }], o);
    expect(labels).toHaveLength(1);
    expect(labels[0].bottom).toBeLessThanOrEqual(100);
  });

  it('no two boxes overlap, whatever the spacing', () => {
    for (const step of [1, 4, 9, 15, 19, 22, 30]) {
      const lines = Array.from({ length: 8 }, (_, i) => ({ y: 20 + i * step, color: String(i) }));
      const labels = placePublishedLabels(lines, o);
      expect(labels.length).toBeGreaterThan(0);
      for (let i = 0; i < labels.length; i++) {
        expect(labels[i].top).toBeGreaterThanOrEqual(o.top);
        expect(labels[i].bottom).toBeLessThanOrEqual(o.bottom);
        for (let j = i + 1; j < labels.length; j++) expect(overlap(labels[i], labels[j]), `step ${step}: ${i} and ${j}`).toBe(false);
      }
    }
  });
});
