import { describe, expect, it } from 'vitest';
import type { Reference } from '../contract/generated/Reference';
import { LIBRARY } from '../scenario/library';
import { WASM_ENGINE } from '../test/wasmEngine';
import { publishedLines, steadyFromMs } from './published';
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
