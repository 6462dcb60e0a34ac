import { describe, expect, it } from 'vitest';
import { waterFill } from './mockEngine';

describe('mock engine max-min shares (water-filling)', () => {
  it('splits one bottleneck equally', () => {
    expect(waterFill([150], [[0], [0], [0]], [true, true, true])).toEqual([50, 50, 50]);
  });
  it('gives the capacity left by a tighter bottleneck to the others', () => {
    // C0 crosses ports 0 and 1; C1 only port 0; C2 only port 1 (capacity 20).
    const s = waterFill([100, 20], [[0, 1], [0], [1]], [true, true, true]);
    expect(s).toEqual([10, 90, 10]);
  });
  it('gives inactive connections nothing', () => {
    expect(waterFill([100], [[0], [0]], [true, false])).toEqual([100, 0]);
  });
});
