import { describe, expect, it } from 'vitest';
import { colourAt, colourByGroup, colourByOwner, PALETTE } from './palette';

describe('series colours', () => {
  it('give 27 owners 27 different colours, the first ones from the palette', () => {
    const owners = Array.from({ length: 27 }, (_, i) => `C${i + 1}`);
    const colours = colourByOwner(owners);
    expect(new Set(colours.values()).size).toBe(27);
    expect(colours.get('C1')).toBe(PALETTE[0]);
    expect(colours.get(`C${PALETTE.length + 1}`)).not.toBe(colours.get('C1'));
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

// Colour vision deficiency, simulated (Machado, Oliveira & Fernandes 2009, severity 1.0, on
// linear sRGB), and the CIELAB distance (CIE76) of what is then seen.
const CVD: Record<string, number[][]> = {
  protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
  deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.01182, 0.04294, 0.968881]],
  tritanopia: [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.3039]],
  'normal vision': [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
};
const toLinear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const linearRgb = (hex: string) => [1, 3, 5].map((i) => toLinear(parseInt(hex.slice(i, i + 2), 16) / 255));
function labOfLinear([r, g, b]: number[]): number[] {
  const [x, y, z] = [
    (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
    0.2126 * r + 0.7152 * g + 0.0722 * b,
    (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883,
  ];
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}
function seenAs(hex: string, m: number[][]): number[] {
  const rgb = linearRgb(hex);
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  return labOfLinear(m.map((row) => clamp(row[0] * rgb[0] + row[1] * rgb[1] + row[2] * rgb[2])));
}

describe('colour-blind safe palette', () => {
  it('any two palette colours stay apart (CIELAB distance ≥ 12) with protanopia, deuteranopia or tritanopia', () => {
    for (const [vision, m] of Object.entries(CVD)) {
      for (let i = 0; i < PALETTE.length; i++) {
        for (let j = i + 1; j < PALETTE.length; j++) {
          const d = Math.hypot(...seenAs(PALETTE[i], m).map((v, k) => v - seenAs(PALETTE[j], m)[k]));
          expect(d, `${PALETTE[i]} and ${PALETTE[j]} with ${vision}`).toBeGreaterThanOrEqual(12);
        }
      }
    }
  });

  it("the check tells a palette that fails apart: the former palette's green and pink look alike to a deuteranope", () => {
    const m = CVD.deuteranopia;
    const d = Math.hypot(...seenAs('#0f9d76', m).map((v, k) => v - seenAs('#d6336c', m)[k]));
    expect(d).toBeLessThan(12);
    const seen = Math.hypot(...seenAs('#0f9d76', CVD['normal vision']).map((v, k) => v - seenAs('#d6336c', CVD['normal vision'])[k]));
    expect(seen).toBeGreaterThan(50);
  });
});
