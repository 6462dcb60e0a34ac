import { describe, expect, it } from 'vitest';
import { colourAt, colourByOwner, PALETTE } from './palette';

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
