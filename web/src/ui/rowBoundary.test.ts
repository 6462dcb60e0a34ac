import { describe, expect, it } from 'vitest';
import { rowBoundaryHeight } from './rowBoundary';

describe('rowBoundaryHeight', () => {
  // QA: core-edge's Compare table, rows of 33 px under a 61 px head, was cut at 360 px through
  // its tenth row.
  it('ends the box at the last row that fits, not through the next one', () => {
    const bottoms = [61, ...Array.from({ length: 15 }, (_, i) => 61 + 33 * (i + 1))];
    expect(rowBoundaryHeight(bottoms, 360)).toBe(358);
    expect(bottoms).toContain(358);
  });

  it('leaves a table that fits alone, and keeps at least its first row', () => {
    expect(rowBoundaryHeight([40, 80, 120], 360)).toBeNull();
    expect(rowBoundaryHeight([], 360)).toBeNull();
    expect(rowBoundaryHeight([400, 450], 360)).toBe(400);
    expect(rowBoundaryHeight([50.2, 400.5], 360)).toBe(51);
  });
});
