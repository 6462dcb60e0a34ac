import { describe, expect, it } from 'vitest';
import { chartText } from './textAlternative';

describe("a chart's text alternative", () => {
  it('names each line with its latest value and its share of its quantity', () => {
    const text = chartText('ACR of each source', 'Mbps', 100, [
      { label: 'C1 ACR', kind: 'acr', value: 30 },
      { label: 'C2 ACR', kind: 'acr', value: 90 },
      { label: 'max-min share', kind: 'maxmin', value: 77.76 },
    ]);
    expect(text).toBe('ACR of each source, latest values at t = 100.0 ms: C1 ACR 30.00 Mbps, 25 % of the total; C2 ACR 90.00 Mbps, 75 % of the total; max-min share 77.76 Mbps.');
  });

  it('gives no share where it means nothing (one line, negatives, a zero total), and says when there is no data', () => {
    expect(chartText('Q', 'cells', 5, [{ label: 'A', kind: 'q', value: 0 }, { label: 'B', kind: 'q', value: 0 }])).not.toMatch(/%/);
    expect(chartText('Q', 'x', 5, [{ label: 'A', kind: 'q', value: -1 }, { label: 'B', kind: 'q', value: 3 }])).not.toMatch(/%/);
    expect(chartText('Q', 'x', 5, [{ label: 'A', kind: 'q', value: NaN }, { label: 'B', kind: 'q', value: 3 }])).toMatch(/A: no value; B 3.00 x\./);
    expect(chartText('Q', 'x', null, [])).toBe('Q: no data yet.');
  });
});
