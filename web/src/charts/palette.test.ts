import { describe, expect, it } from 'vitest';
import { colourAt, colourByGroup, colourByOwner, PALETTE } from './palette';

describe('series colours', () => {
  it('give 30 owners 30 different colours, the first ten from the palette', () => {
    const owners = Array.from({ length: 30 }, (_, i) => `C${i + 1}`);
    const colours = colourByOwner(owners);
    expect(new Set(colours.values()).size).toBe(30);
    expect(colours.get('C1')).toBe(PALETTE[0]);
    expect(colours.get('C16')).not.toBe(colours.get('C6'));
    for (const c of colours.values()) expect(c).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('keep each owner its colour whatever else is drawn', () => {
    const a = colourByOwner(['S1', 'S2', 'S1', 'S3']);
    expect([...a.values()]).toEqual([colourAt(0), colourAt(1), colourAt(2)]);
  });
});

describe('group colours', () => {
  // GFC-1: six groups of 3, 3, 3, 6, 6 and 2 sources.
  const sizes: [string, number][] = [['A', 3], ['B', 3], ['C', 3], ['D', 6], ['E', 6], ['F', 2]];
  const owners = sizes.flatMap(([g, n]) => Array.from({ length: n }, (_, i) => `${g}${i + 1}`));
  const groupOf = (o: string) => o[0];

  it('give the members of one group shades of one hue, and each group its own hue', () => {
    const colours = colourByGroup(owners, groupOf);
    expect(colours.size).toBe(23);
    // Each member its own shade, so lines stay apart within a group.
    expect(new Set(colours.values()).size).toBe(23);
    // The hue of a group is the palette colour of its rank; members are that hue, darker to lighter.
    const hueOf = (hex: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
      const max = Math.max(r, g, b);
      const d = max - Math.min(r, g, b);
      if (d === 0) return 0;
      const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
      return (h * 60 + 360) % 360;
    };
    sizes.forEach(([g], k) => {
      for (const o of owners.filter((x) => x[0] === g)) expect(Math.abs(hueOf(colours.get(o)!) - hueOf(PALETTE[k]))).toBeLessThan(3);
    });
    const lightness = (hex: string) => parseInt(hex.slice(1, 3), 16) + parseInt(hex.slice(3, 5), 16) + parseInt(hex.slice(5, 7), 16);
    expect(lightness(colours.get('D1')!)).toBeLessThan(lightness(colours.get('D6')!));
  });

  it('treat an owner without a group as a group of its own, as colourByOwner does', () => {
    const plain = ['C1', 'C2', 'C3'];
    expect(colourByGroup(plain, () => undefined)).toEqual(colourByOwner(plain));
    const mixed = colourByGroup(['VP1', 'A1', 'A2', 'X'], (o) => (o.startsWith('A') ? 'A' : undefined));
    expect(mixed.get('VP1')).toBe(PALETTE[0]);
    expect(mixed.get('X')).toBe(PALETTE[2]);
    expect(mixed.get('A1')).not.toBe(mixed.get('A2'));
  });
});
