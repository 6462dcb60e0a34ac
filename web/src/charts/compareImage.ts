// The whole compare view as one image: the variants named (with their colours and digests) and
// what their overrides also changed (the view's notes), the charts as they are shown (each chart's own SVG export, laid in the view's grid), and the
// summary table drawn below, cells that differ from the first run marked as on screen. One SVG
// document, which exportImage.ts rasterises into the PNG. Pure: strings in, a string out.

import { svgLayout } from './export';
import { colourAt } from './palette';

export interface CompareImageInput {
  title: string;
  /** The line under the title naming the run: scenario, seed, the lab's version, the variants
   *  (`imageCaption`; absent: none). */
  caption?: string;
  /** Per run: its name (the table's column head) and digest (empty when it has none). */
  runs: { label: string; digest: string }[];
  /** What the variants' overrides also changed, as the view lists it (may be empty). */
  notes?: readonly string[];
  /** The charts, each a standalone SVG (chartSvg) of `width` / columns px, row by row. */
  charts: { svg: string; width: number; height: number }[];
  columns: number;
  /** The table as shown: row label, per run the text shown and whether it is marked. */
  table: { label: string; cells: string[]; differs: boolean[] }[];
  /** Width of the image (px); the PNG doubles it. */
  width: number;
}

/** Row height and the widest label column of the drawn table (px). */
export const COMPARE_TABLE = { row: 22, labelMax: 320 };

const FONT = 'ui-sans-serif, system-ui, -apple-system, Segoe UI, Roboto, sans-serif';
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** `s` broken at spaces into lines that fit `px` at `size` (the rough width `fit` uses). */
export function wrap(s: string, px: number, size: number): string[] {
  const max = Math.max(1, Math.floor(px / (size * 0.58)));
  const lines: string[] = [];
  let line = '';
  for (const word of s.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > max) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** `s` cut with an ellipsis to fit `px` at `size` (a rough width, as the chart legends use). */
function fit(s: string, px: number, size: number): string {
  const max = Math.max(1, Math.floor(px / (size * 0.58)));
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

export function compareSvg(c: CompareImageInput): { svg: string; width: number; height: number } {
  const { pad, titleSize, font } = svgLayout();
  const W = c.width;
  const parts: string[] = [];
  let y = pad + titleSize;
  parts.push(`<text x="${pad}" y="${y}" font-size="${titleSize}" font-weight="600" fill="#1f2937">${esc(c.title)}</text>`);
  if (c.caption) {
    for (const line of wrap(c.caption, W - pad * 2, font)) {
      y += font + 4;
      parts.push(`<text class="caption" x="${pad}" y="${y}" font-size="${font}" fill="#6b7280">${esc(line)}</text>`);
    }
  }
  // The variants: colour (the overlaid charts' colour of each), name, digest.
  y += 8;
  c.runs.forEach((r, i) => {
    y += COMPARE_TABLE.row;
    parts.push(`<line x1="${pad}" y1="${y - 4}" x2="${pad + 20}" y2="${y - 4}" stroke="${colourAt(i)}" stroke-width="3"/>`);
    const digest = r.digest ? `  digest ${r.digest}` : '';
    // Named as the Compare form names them ("variant 1" is the second run), as the notes do.
    const which = i === 0 ? 'this scenario' : `variant ${i}`;
    parts.push(`<text x="${pad + 28}" y="${y}" font-size="${font}" fill="#374151">${which}: ${esc(fit(r.label + digest, W - pad * 2 - 28 - font * 8, font))}</text>`);
  });
  // The notes, as the view shows them above its table: no reader of the image takes a variant
  // for the scenario with only its override made when it also dropped something.
  if (c.notes && c.notes.length > 0) {
    y += COMPARE_TABLE.row;
    parts.push(`<text x="${pad}" y="${y}" font-size="${font}" font-weight="600" fill="#374151">What the variants' overrides also changed:</text>`);
    for (const note of c.notes) {
      wrap(note, W - pad * 2 - 14, font).forEach((line, k) => {
        y += font + 6;
        parts.push(`<text x="${pad + 14}" y="${y}" font-size="${font}" fill="#374151">${k === 0 ? '• ' : '  '}${esc(line)}</text>`);
      });
    }
  }
  y += 12;
  // The charts, row by row, each nested at its place (its ids are its own: chartSvg's prefix).
  const cellW = W / c.columns;
  for (let k = 0; k < c.charts.length; k += c.columns) {
    const row = c.charts.slice(k, k + c.columns);
    row.forEach((ch, j) => parts.push(ch.svg.trim().replace(/^<svg /, `<svg x="${(j * cellW).toFixed(1)}" y="${y}" `)));
    y += Math.max(...row.map((ch) => ch.height));
  }
  // The table: a label column, then one column per run, right-aligned numbers.
  y += 8;
  const labelW = Math.min(COMPARE_TABLE.labelMax, W * 0.3);
  const colW = (W - pad * 2 - labelW) / Math.max(1, c.runs.length);
  const colX = (i: number) => pad + labelW + (i + 1) * colW - 6;
  y += COMPARE_TABLE.row;
  c.runs.forEach((r, i) =>
    parts.push(`<text x="${colX(i)}" y="${y - 6}" font-size="${font}" font-weight="600" fill="#1f2937" text-anchor="end">${esc(fit(r.label, colW - 10, font))}</text>`),
  );
  parts.push(`<line x1="${pad}" y1="${y}" x2="${W - pad}" y2="${y}" stroke="#9aa5b1"/>`);
  for (const row of c.table) {
    row.cells.forEach((_, i) => {
      if (row.differs[i]) parts.push(`<rect x="${colX(i) - colW + 8}" y="${y + 1}" width="${colW - 2}" height="${COMPARE_TABLE.row - 2}" fill="#fff1c2"/>`);
    });
    y += COMPARE_TABLE.row;
    parts.push(`<text x="${pad}" y="${y - 6}" font-size="${font}" fill="#374151">${esc(fit(row.label, labelW - 8, font))}</text>`);
    row.cells.forEach((cell, i) =>
      parts.push(
        `<text x="${colX(i)}" y="${y - 6}" font-size="${font}" fill="#1f2937" text-anchor="end"${row.differs[i] ? ' font-weight="600"' : ''}>${esc(cell)}</text>`,
      ),
    );
    parts.push(`<line x1="${pad}" y1="${y}" x2="${W - pad}" y2="${y}" stroke="#eceff3"/>`);
  }
  const height = Math.ceil(y + pad);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" viewBox="0 0 ${W} ${height}" font-family="${FONT}">` +
    `<rect width="100%" height="100%" fill="#ffffff"/>` +
    parts.join('') +
    `</svg>\n`;
  return { svg, width: W, height };
}
