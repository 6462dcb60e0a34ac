import { describe, expect, it } from 'vitest';
import type { SeriesMeta } from '../contract/engine';
import { coincidenceNotes, coincidentParts, formatValue, placeTooltip, readoutAt } from './readout';
import { SampleStore } from './sampleStore';
import { CHARTS, linesFor } from './specs';

const meta: SeriesMeta[] = [
  { id: 'acr:C1', kind: 'acr', label: 'C1 ACR', unit: 'Mbps', owner: 'C1', held: true },
  { id: 'share:C1', kind: 'share', label: 'C1 max-min share', unit: 'Mbps', owner: 'C1', held: true },
  { id: 'acr:C2', kind: 'acr', label: 'C2 ACR', unit: 'Mbps', owner: 'C2', held: true },
  { id: 'share:C2', kind: 'share', label: 'C2 max-min share', unit: 'Mbps', owner: 'C2', held: true },
  { id: 'acr:C3', kind: 'acr', label: 'C3 ACR', unit: 'Mbps', owner: 'C3', held: true },
];
const rate = linesFor(CHARTS.find((c) => c.id === 'rate')!, meta);

function storeWith(row: number[]) {
  const store = new SampleStore();
  store.reset(meta);
  store.append(new Float64Array([0, ...row]), meta.length + 1);
  return store;
}

describe('the readout at the cursor', () => {
  it('merges lines that show the same value, naming every owner ("C1 = C2 ACR")', () => {
    // Two-sources at equilibrium: C1 and C2 at the same ACR and the same share; C3 elsewhere.
    const store = storeWith([70.5, 77.76, 70.5, 77.76, 12]);
    const entries = readoutAt(store, 0, rate, 1);
    expect(entries.map((e) => [e.label, formatValue(e.value)])).toEqual([
      ['C1 = C2 ACR', '70.50'],
      ['C1 = C2 max-min share', '77.76'],
      ['C3 ACR', '12.00'],
    ]);
  });

  it('keeps lines apart when their printed values differ, and never merges missing values', () => {
    const store = storeWith([70.5, NaN, 70.51, NaN, 70.5]);
    const entries = readoutAt(store, 0, rate, 1);
    expect(entries.map((e) => e.label)).toEqual(['C1 = C3 ACR', 'C1 max-min share', 'C2 ACR', 'C2 max-min share']);
  });

  it('compares the values as shown (after the display scale)', () => {
    // 2500.4 and 2500.1 Mbps both print as 2.50 Gbps.
    const store = storeWith([2500.4, 0, 2500.1, 1, 5]);
    const entries = readoutAt(store, 0, rate, 1e-3);
    expect(entries[0].label).toBe('C1 = C2 ACR');
    expect(formatValue(entries[0].value)).toBe('2.50');
  });

  it('names each quantity of lines that coincide once, with its owners', () => {
    // ERICA converged: each ACR sits on its share at target utilisation.
    const withTarget = linesFor(CHARTS.find((c) => c.id === 'rate')!, [
      ...meta.slice(0, 4),
      { id: 'target:C1', kind: 'target', label: 'C1 max-min share at target utilisation', unit: 'Mbps', owner: 'C1', held: true },
      { id: 'target:C2', kind: 'target', label: 'C2 max-min share at target utilisation', unit: 'Mbps', owner: 'C2', held: true },
    ]);
    const acrAndTarget = withTarget.filter((l) => l.kind !== 'share');
    expect(coincidentParts(acrAndTarget)).toEqual(['C1 = C2 ACR', 'C1 = C2 max-min share at target utilisation']);
    expect(coincidentParts([rate[0], rate[1]])).toEqual(['C1 ACR', 'C1 max-min share']);
  });

  it('notes, for the legend, the owners whose main lines coincide', () => {
    const store = storeWith([70.5, 77.76, 70.5, 77.76, 12]);
    expect(coincidenceNotes(readoutAt(store, 0, rate, 1), 'acr')).toEqual(['C1 = C2']);
    // Shares that coincide (by design) are the tooltip's business, not the legend's.
    expect(coincidenceNotes(readoutAt(storeWith([1, 77.76, 3, 77.76, 5]), 0, rate, 1), 'acr')).toEqual([]);
    expect(coincidenceNotes(readoutAt(storeWith([1, 2, 3, 4, 5]), 0, rate, 1), 'acr')).toEqual([]);
  });

  it('names lines a pixel or less apart as lying on each other, with ≈ where their values differ', () => {
    // C1 70.50, C2 70.53, C3 12: at 0.05 Mbps a pixel, C1 and C2 are one line on screen.
    const close = storeWith([70.5, 77.76, 70.53, 77.76, 12]);
    expect(coincidenceNotes(readoutAt(close, 0, rate, 1), 'acr')).toEqual([]);
    expect(coincidenceNotes(readoutAt(close, 0, rate, 1), 'acr', Infinity, 0.05)).toEqual(['C1 ≈ C2']);
    // Two pixels apart they are two lines.
    expect(coincidenceNotes(readoutAt(close, 0, rate, 1), 'acr', Infinity, 0.015)).toEqual([]);
    // Equal values stay "=", whatever the tolerance; a chain of near values is one set, listed
    // in line order: C3 (70.56) is within a pixel of C2, not of C1.
    expect(coincidenceNotes(readoutAt(storeWith([70.5, 0, 70.5, 0, 12]), 0, rate, 1), 'acr', Infinity, 0.05)).toEqual(['C1 = C2']);
    expect(coincidenceNotes(readoutAt(storeWith([70.5, 0, 70.53, 0, 70.56]), 0, rate, 1), 'acr', Infinity, 0.035)).toEqual(['C1 ≈ C2 ≈ C3']);
    expect(coincidenceNotes(readoutAt(storeWith([70.5, 0, 70.53, 0, 70.56]), 0, rate, 1), 'acr', 2, 0.035)).toEqual(['C1 ≈ … ≈ C3 (3)']);
  });

  it('shortens a set longer than asked to its first, its last and its count', () => {
    const all = storeWith([70.5, 77.76, 70.5, 77.76, 70.5]);
    expect(coincidenceNotes(readoutAt(all, 0, rate, 1), 'acr', 2)).toEqual(['C1 = … = C3 (3)']);
    expect(coincidenceNotes(readoutAt(all, 0, rate, 1), 'acr', 3)).toEqual(['C1 = C2 = C3']);
  });
});

describe('tooltip placement', () => {
  const viewport = { width: 1000, height: 800 };
  const size = { width: 200, height: 100 };

  it('goes right of and below the cursor when there is room', () => {
    expect(placeTooltip({ x: 100, y: 100 }, size, viewport)).toEqual({ left: 114, top: 114 });
  });

  it('flips to the left near the right edge and above near the bottom', () => {
    expect(placeTooltip({ x: 900, y: 750 }, size, viewport)).toEqual({ left: 686, top: 636 });
  });

  it('stays inside the viewport when it is taller than the room on either side', () => {
    const tall = { width: 200, height: 700 };
    const p = placeTooltip({ x: 500, y: 400 }, tall, viewport);
    expect(p.top).toBeGreaterThanOrEqual(6);
    expect(p.top + tall.height).toBeLessThanOrEqual(viewport.height - 6);
    // Larger than the viewport: pinned to the top-left margin.
    expect(placeTooltip({ x: 500, y: 400 }, { width: 2000, height: 2000 }, viewport)).toEqual({ left: 6, top: 6 });
  });

  it("keeps to the chart's column when it fits there, so that the side panel stays uncovered", () => {
    const column = { left: 20, right: 700 };
    // Room right of the cursor in the viewport, not in the column: flips left of it.
    expect(placeTooltip({ x: 600, y: 100 }, size, viewport, column)).toEqual({ left: 600 - 14 - 200, top: 114 });
    // No room on either side of the cursor within the column: against the column's left edge.
    expect(placeTooltip({ x: 250, y: 100 }, { width: 500, height: 100 }, viewport, column).left).toBe(20 + 6);
    // Wider than the column: the viewport's rule, right of the cursor where the viewport has room.
    expect(placeTooltip({ x: 200, y: 100 }, { width: 690, height: 100 }, viewport, column).left).toBe(214);
  });
});
