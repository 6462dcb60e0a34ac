import { describe, expect, it } from 'vitest';
import { axisFont, NORMAL_LOOK, PRESENTATION_LOOK } from './look';

describe('chart looks', () => {
  it('presentation mode: axis text at least 18 px, every line at least 3 px, each bolder than the everyday look', () => {
    expect(PRESENTATION_LOOK.fontPx).toBeGreaterThanOrEqual(18);
    expect(axisFont(PRESENTATION_LOOK)).toMatch(/^18px /);
    for (const [style, px] of Object.entries(PRESENTATION_LOOK.lineWidth)) {
      expect(px, style).toBeGreaterThanOrEqual(3);
      expect(px, style).toBeGreaterThan(NORMAL_LOOK.lineWidth[style as keyof typeof NORMAL_LOOK.lineWidth]);
    }
    // Room for the larger text: the axis bands grow with it.
    expect(PRESENTATION_LOOK.labelPx).toBeGreaterThan(PRESENTATION_LOOK.fontPx);
    expect(PRESENTATION_LOOK.xAxisPx).toBeGreaterThan(NORMAL_LOOK.xAxisPx);
    expect(PRESENTATION_LOOK.yAxisPx).toBeGreaterThan(NORMAL_LOOK.yAxisPx);
  });
});
