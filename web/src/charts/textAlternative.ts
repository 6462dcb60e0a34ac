// A chart's text alternative, for screen readers: per line its latest value and, among the
// lines of the same quantity, its share of their total ("C1 ACR 69.99 Mbps, 50 % of all ACR").

import { formatValue } from './readout';

export interface LatestValue {
  /** The line's label ("C1 ACR"). */
  label: string;
  /** The quantity it shows (lines of one quantity are shares of one total). */
  kind: string;
  /** Its latest shown value (NaN: none yet). */
  value: number;
}

/**
 * The sentence a screen reader reads for a chart. A share is given where it means something:
 * two or more lines of the quantity, none negative, a positive total.
 */
export function chartText(title: string, unit: string, timeMs: number | null, values: LatestValue[]): string {
  if (timeMs === null || values.length === 0) return `${title}: no data yet.`;
  const totals = new Map<string, { sum: number; n: number; negative: boolean }>();
  for (const v of values) {
    if (!Number.isFinite(v.value)) continue;
    const t = totals.get(v.kind) ?? { sum: 0, n: 0, negative: false };
    t.sum += v.value;
    t.n += 1;
    t.negative ||= v.value < 0;
    totals.set(v.kind, t);
  }
  const parts = values.map((v) => {
    if (!Number.isFinite(v.value)) return `${v.label}: no value`;
    const t = totals.get(v.kind)!;
    const share = t.n > 1 && !t.negative && t.sum > 0 ? `, ${Math.round((100 * v.value) / t.sum)} % of the total` : '';
    return `${v.label} ${formatValue(v.value)} ${unit}${share}`;
  });
  return `${title}, latest values at t = ${formatValue(timeMs)} ms: ${parts.join('; ')}.`;
}
