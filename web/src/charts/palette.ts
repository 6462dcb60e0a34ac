// Series colours: one per owner (connection or port), stable in meta order, readable on white.

/**
 * Colour-blind safe: Okabe & Ito's colours (without their yellow, too faint on white, and their
 * black, the reference lines' ink) and three of Paul Tol's muted scheme. Any two stay apart
 * (CIELAB distance ≥ 12) for protanopia, deuteranopia and tritanopia (palette.test.ts checks
 * it), and the first six have hues far enough apart for six connection groups (GFC-1), whose
 * members are shades of their group's hue.
 */
export const PALETTE = [
  '#0072b2', // blue
  '#d55e00', // vermilion
  '#009e73', // bluish green
  '#cc79a7', // reddish purple
  '#e69f00', // orange
  '#332288', // indigo
  '#999933', // olive
  '#882255', // wine
  '#56b4e9', // sky blue (last: the hue of the blue, lighter)
];

/** Mixes a #rrggbb colour with black (amount < 0) or white (amount > 0). */
function shade(hex: string, amount: number): string {
  const target = amount < 0 ? 0 : 255;
  const a = Math.abs(amount);
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16);
    return Math.round(c + (target - c) * a)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(0)}${channel(1)}${channel(2)}`;
}

/** The palette, then the same hues darker, then lighter: 27 distinct colours before any repeats. */
const ROUNDS = [0, -0.45, 0.4];

/** The colour of the i-th owner. */
export function colourAt(i: number): string {
  const round = Math.floor(i / PALETTE.length) % ROUNDS.length;
  const base = PALETTE[i % PALETTE.length];
  return ROUNDS[round] === 0 ? base : shade(base, ROUNDS[round]);
}

/** Assigns colours to owners in order of first appearance. */
export function colourByOwner(owners: string[]): Map<string, string> {
  return colourByGroup(owners, () => undefined);
}

/** How far the members of one group stray from its hue: darkest and lightest shade. */
const GROUP_SHADES = [-0.4, 0.35];

/**
 * Colours for owners that may belong to groups (a scenario's `connections[].group`): one hue per
 * group, in order of first appearance, its members spread from darker to lighter shades of it, so
 * GFC-1's 23 sources read as six groups. An owner without a group is a group of its own (with no
 * groups at all, this is colourByOwner).
 */
export function colourByGroup(owners: string[], groupOf: (owner: string) => string | undefined): Map<string, string> {
  const members = new Map<string, string[]>();
  for (const o of owners) {
    const g = groupOf(o);
    const key = g === undefined ? `owner:${o}` : `group:${g}`;
    const list = members.get(key) ?? [];
    if (!list.includes(o)) list.push(o);
    members.set(key, list);
  }
  const map = new Map<string, string>();
  let hue = 0;
  for (const list of members.values()) {
    const base = colourAt(hue++);
    list.forEach((o, j) => {
      const n = list.length;
      const amount = n === 1 ? 0 : GROUP_SHADES[0] + ((GROUP_SHADES[1] - GROUP_SHADES[0]) * j) / (n - 1);
      map.set(o, amount === 0 ? base : shade(base, amount));
    });
  }
  return map;
}

export type LineStyle = 'solid' | 'dashed' | 'dotted';

export const DASH: Record<LineStyle, number[]> = {
  solid: [],
  dashed: [7, 5],
  dotted: [1.5, 3.5],
};

/** Line widths (CSS px) by style: a source's own (solid) line the boldest, for a projector. */
export const LINE_WIDTH: Record<LineStyle, number> = { solid: 2, dashed: 1.75, dotted: 2 };

/** Draw order of lines with these styles: dotted under dashed under solid, so a reference line
 *  never hides a source's own; ties keep their order. */
export function drawOrder(styles: LineStyle[]): number[] {
  const rank = (s: LineStyle) => (s === 'solid' ? 0 : s === 'dashed' ? 1 : 2);
  return styles.map((_, i) => i).sort((a, b) => rank(styles[b]) - rank(styles[a]) || a - b);
}

/** Alpha of a pinned run's lines (on screen and in exported images): a reference behind the
 *  live run, not a rival to it. */
export const PINNED_ALPHA = 0.3;
/** The pinned run's swatch in legends. */
export const PINNED_SWATCH = '#6b7280';

/** Parameter-change markers (dashed vertical lines). */
export const MARKER_COLOUR = 'rgba(217, 119, 6, 0.8)';
