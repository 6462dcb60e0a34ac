// What a chart's legend lists, for the legend on screen and the one in exported images: one
// entry per connection group (GFC-1's six, each in its hue) and per owner outside any group,
// then the line-style key when the chart mixes styles (one entry per style, naming every kind
// drawn in it). The owners of a group are listed too, for the screen to show on request. The
// change markers' entry is MARKER_LEGEND, listed while the window shows a marker (markersShown).

import type { LineStyle } from './palette';
import type { ChartLine, NetworkView } from './specs';

/** How the style key names the line kinds (a chart may rename some, e.g. Ethernet's rate limit). */
export const KIND_NAMES: Record<string, string> = {
  acr: 'ACR',
  vp_acr: 'virtual path ACR',
  vp_target: 'virtual path share',
  share: 'max-min share',
  target: 'share at target utilisation',
};

/** The kinds an Ethernet chart names otherwise: a host's rate is its rate limit, not an ACR. */
export const ETHERNET_KIND_NAMES: Record<string, string> = { acr: 'rate limit' };

/** The renamed kinds of a network's charts (the lab's, Compare's, and their images alike). */
export function kindNamesOf(net: Pick<NetworkView, 'ethernet'>): Record<string, string> | undefined {
  return net.ethernet ? ETHERNET_KIND_NAMES : undefined;
}

/** A chart's kind names as one function: its renamed kinds first, then KIND_NAMES. */
export function kindNameWith(kindNames?: Record<string, string>): (kind: string) => string {
  return (kind) => kindNames?.[kind] ?? KIND_NAMES[kind] ?? kind;
}

/** What a chart's dashed vertical marks are, in a legend: a parameter changed during a run (a
 *  live change, recorded in the scenario's `changes`). */
export const MARKER_LEGEND = 'parameter change';

/** The parameter changes (ms) a chart showing the window [t0, t1] draws: a legend (on screen
 *  and in an image) names the markers only when there are some. */
export function markersShown(markers: readonly number[], t0: number, t1: number): number[] {
  return markers.filter((t) => t >= t0 && t <= t1);
}

export interface LegendModel {
  /** Every owner, in line order, with its group if it has one. */
  owners: { owner: string; color: string; group?: string }[];
  /** The connection groups, in order of first appearance; the swatch is a middle member's
   *  colour (members run from darker to lighter shades of the group's hue). */
  groups: { group: string; color: string; owners: string[] }[];
  /** Empty when every line has the same style. */
  styles: { style: LineStyle; names: string[] }[];
  /** Overlaid compare charts: one entry per series (connection or port) with its dash, in order
   *  of first appearance (the owners are then the variants, one colour each). */
  series: { series: string; dash: number[] }[];
}

export function legendModel(lines: ChartLine[], kindName: (kind: string) => string = (k) => KIND_NAMES[k] ?? k): LegendModel {
  const owners = new Map<string, { owner: string; color: string; group?: string }>();
  for (const l of lines) if (!owners.has(l.owner)) owners.set(l.owner, { owner: l.owner, color: l.color, ...(l.group === undefined ? {} : { group: l.group }) });
  const groups = new Map<string, { owner: string; color: string }[]>();
  for (const o of owners.values()) if (o.group !== undefined) groups.set(o.group, [...(groups.get(o.group) ?? []), o]);
  const series = new Map<string, number[]>();
  for (const l of lines) if (l.series !== undefined && !series.has(l.series)) series.set(l.series, l.dash ?? []);
  const styles = new Map<LineStyle, string[]>();
  for (const l of lines) {
    const names = styles.get(l.style) ?? [];
    if (!names.includes(kindName(l.kind))) styles.set(l.style, [...names, kindName(l.kind)]);
  }
  return {
    owners: [...owners.values()],
    groups: [...groups].map(([group, members]) => ({
      group,
      color: members[Math.floor((members.length - 1) / 2)].color,
      owners: members.map((m) => m.owner),
    })),
    styles: styles.size > 1 ? [...styles].map(([style, names]) => ({ style, names })) : [],
    series: [...series].map(([name, dash]) => ({ series: name, dash })),
  };
}

/** A line's quantity and series (what it must match in another owner to be the same line): its
 *  label less its owner ("C1 ACR" → "ACR"), then its series in an overlaid compare chart. */
function sameLineKey(l: ChartLine): string {
  const quantity = l.label.startsWith(`${l.owner} `) ? l.label.slice(l.owner.length + 1) : l.label;
  return `${quantity}\n${l.series ?? ''}`;
}

/** A chart's main kind of line: its solid lines' (ACR on the rate chart), whose coinciding
 *  owners the screen's notes and the image's legend name ("C1 = C2"). */
export function mainKindOf(lines: readonly ChartLine[]): string | undefined {
  return lines.find((l) => l.style === 'solid')?.kind;
}

/**
 * The owners whose lines an image draws on top of one another over all of it, each set in line
 * order (sets of two or more only): owners outside any group whose lines of the chart's main
 * kind (`mainKind`, its solid lines) are the same quantities, each pair of which `drawnAlike`
 * says coincides (within a pixel over the whole window). The image's legend names such a set
 * in one entry, "C1 = C2" (QA: two-sources' PNG showed C2's line only and did not say that C1
 * lay under it, as the screen's note does). A set's last owner is the one drawn on top.
 */
export function coincidentOwners(lines: ChartLine[], mainKind: string | undefined, drawnAlike: (a: ChartLine, b: ChartLine) => boolean): string[][] {
  if (mainKind === undefined) return [];
  const mainOf = new Map<string, ChartLine[]>();
  for (const l of lines) {
    if (l.group !== undefined || l.kind !== mainKind) continue;
    mainOf.set(l.owner, [...(mainOf.get(l.owner) ?? []), l]);
  }
  const alike = (a: ChartLine[], b: ChartLine[]) =>
    a.length === b.length && a.every((l, i) => sameLineKey(l) === sameLineKey(b[i]) && drawnAlike(l, b[i]));
  const sets: string[][] = [];
  for (const [owner, own] of mainOf) {
    const set = sets.find((s) => alike(mainOf.get(s[0])!, own));
    if (set) set.push(owner);
    else sets.push([owner]);
  }
  return sets.filter((s) => s.length > 1);
}
