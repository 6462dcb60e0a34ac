// Series colours: one per owner (connection or port), stable in meta order, readable on white.
export const PALETTE = [
  '#2563eb', // blue
  '#e4572e', // vermilion
  '#0f9d76', // green
  '#9b4dca', // purple
  '#d99a00', // amber
  '#d6336c', // pink
  '#0891b2', // cyan
  '#6b7a2a', // olive
  '#7c5c3c', // brown
  '#475569', // slate
];

/** Assigns palette colours to owners in order of first appearance. */
export function colourByOwner(owners: string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const o of owners) if (!map.has(o)) map.set(o, PALETTE[map.size % PALETTE.length]);
  return map;
}

export type LineStyle = 'solid' | 'dashed' | 'dotted';

export const DASH: Record<LineStyle, number[]> = {
  solid: [],
  dashed: [7, 5],
  dotted: [1.5, 3.5],
};
