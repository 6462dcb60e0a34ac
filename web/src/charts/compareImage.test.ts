import { describe, expect, it } from 'vitest';
import { compareSvg, COMPARE_TABLE } from './compareImage';

const chart = (w: number, h: number, label: string) => ({
  svg: `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><text>${label}</text></svg>\n`,
  width: w,
  height: h,
});

describe('the compare image', () => {
  const input = {
    title: 'Compare: two-sources',
    runs: [
      { label: 'two-sources', digest: 'abc123' },
      { label: 'SW1.algorithm = erica_plus', digest: '' },
    ],
    charts: [chart(600, 300, 'rate 1'), chart(600, 280, 'rate 2'), chart(600, 200, 'queue 1'), chart(600, 250, 'queue 2')],
    columns: 2,
    table: [
      { label: 'C1 mean rate (Mbps)', cells: ['70.1', '80.5'], differs: [false, true] },
      { label: "Jain's <index>", cells: ['1', '–'], differs: [false, false] },
    ],
    width: 1200,
  };
  const doc = () => new DOMParser().parseFromString(compareSvg(input).svg, 'image/svg+xml');

  it('names every variant with its digest, and heads the table columns with them', () => {
    const texts = [...doc().querySelectorAll('text')].map((t) => t.textContent);
    expect(texts).toContain('this scenario: two-sources  digest abc123');
    expect(texts).toContain('variant 1: SW1.algorithm = erica_plus');
    expect(texts.filter((t) => t === 'SW1.algorithm = erica_plus')).toHaveLength(1);
    expect(texts).toEqual(expect.arrayContaining(['C1 mean rate (Mbps)', "Jain's <index>", '70.1', '80.5', '–']));
  });

  it('says the scenario, the seed, the lab version and the variants in a caption under the title', () => {
    const caption = 'Two sources (two-sources) · seed 1 · ABR Lab 0.1.0 · variants: two-sources; SW1.algorithm = erica_plus';
    const d = new DOMParser().parseFromString(compareSvg({ ...input, caption }).svg, 'image/svg+xml');
    expect([...d.querySelectorAll('text.caption')].map((t) => t.textContent).join(' ')).toBe(caption);
    expect(doc().querySelectorAll('text.caption')).toHaveLength(0);
  });

  it('places the charts in the grid, each row as tall as its tallest chart, and the table below', () => {
    const nested = [...doc().documentElement.querySelectorAll(':scope > svg')];
    expect(nested.map((s) => [s.getAttribute('x'), s.textContent])).toEqual([
      ['0.0', 'rate 1'],
      ['600.0', 'rate 2'],
      ['0.0', 'queue 1'],
      ['600.0', 'queue 2'],
    ]);
    const ys = nested.map((s) => Number(s.getAttribute('y')));
    expect(ys[1]).toBe(ys[0]);
    expect(ys[2] - ys[0]).toBe(300);
    const { height, width } = compareSvg(input);
    expect(width).toBe(1200);
    // Below the second row (250 tall): the header and two table rows.
    expect(height).toBeGreaterThanOrEqual(ys[2] + 250 + 3 * COMPARE_TABLE.row);
  });

  it("lists the variants' notes below their names, each wrapped to the image's width, and moves the charts down for them", () => {
    const note = 'variant 2: SW1 now runs EFCI marking: its recorded change of delta at 10 ms is dropped (EFCI marking has no such parameter)';
    const withNotes = { ...input, notes: [note], width: 400 };
    const plain = new DOMParser().parseFromString(compareSvg({ ...input, width: 400 }).svg, 'image/svg+xml');
    const noted = new DOMParser().parseFromString(compareSvg(withNotes).svg, 'image/svg+xml');
    const texts = [...noted.querySelectorAll('text')].map((t) => t.textContent ?? '');
    expect(texts).toContain("What the variants' overrides also changed:");
    const lines = texts.filter((t) => t.startsWith('• ') || t.startsWith('  '));
    expect(lines.length).toBeGreaterThan(1);
    // Every word of the note is drawn, in order, none cut.
    expect(lines.map((l) => l.slice(2)).join(' ')).toBe(note);
    const firstChartY = (d: Document) => Number(d.documentElement.querySelector(':scope > svg')!.getAttribute('y'));
    expect(firstChartY(noted)).toBeGreaterThan(firstChartY(plain) + lines.length * 12);
    expect([...plain.querySelectorAll('text')].map((t) => t.textContent)).not.toContain("What the variants' overrides also changed:");
  });

  it('marks the cells that differ from the first run, as the table on screen does', () => {
    expect(doc().querySelectorAll('rect[fill="#fff1c2"]')).toHaveLength(1);
  });
});
