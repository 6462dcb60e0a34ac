import { describe, expect, it } from 'vitest';
import type { Reference } from '../contract/generated/Reference';
import { publishedLines } from './published';
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
    expect(publishedLines('rate', refs, lines)).toEqual([
      { value: 50, color: '#222', label: 'published: group F 50' },
      { value: 10.37, color: '#111', label: 'published: connection C1 10.37' },
    ]);
  });

  it('marks a queue on the queue chart, and nothing a chart does not show', () => {
    expect(publishedLines('queue', refs, [line('SW3->SW4', '#444')])).toEqual([
      { value: 710, color: '#444', label: 'published: port SW3->SW4 710' },
    ]);
    expect(publishedLines('queue', refs, [line('SW1->SW2', '#444')])).toEqual([]);
    expect(publishedLines('utilization', refs, [line('SW3->SW4', '#444')])).toEqual([]);
    expect(publishedLines('rate', undefined, [line('C1', '#111')])).toEqual([]);
  });
});
