// What a chart's legend lists, for the legend on screen and the one in exported images: one
// entry per owner (its colour), then the line-style key when the chart mixes styles (one entry
// per style, naming every kind drawn in it).

import type { LineStyle } from './palette';
import type { ChartLine } from './specs';

/** How the style key names the line kinds (a chart may rename some, e.g. Ethernet's rate limit). */
export const KIND_NAMES: Record<string, string> = {
  acr: 'ACR',
  vp_acr: 'virtual path ACR',
  vp_target: 'virtual path share',
  share: 'max-min share',
  target: 'share at target utilisation',
};

export interface LegendModel {
  owners: { owner: string; color: string }[];
  /** Empty when every line has the same style. */
  styles: { style: LineStyle; names: string[] }[];
}

export function legendModel(lines: ChartLine[], kindName: (kind: string) => string = (k) => KIND_NAMES[k] ?? k): LegendModel {
  const owners = new Map<string, string>();
  for (const l of lines) if (!owners.has(l.owner)) owners.set(l.owner, l.color);
  const styles = new Map<LineStyle, string[]>();
  for (const l of lines) {
    const names = styles.get(l.style) ?? [];
    if (!names.includes(kindName(l.kind))) styles.set(l.style, [...names, kindName(l.kind)]);
  }
  return {
    owners: [...owners].map(([owner, color]) => ({ owner, color })),
    styles: styles.size > 1 ? [...styles].map(([style, names]) => ({ style, names })) : [],
  };
}
