// The study's published steady values on the charts: a dashed horizontal line per published
// figure that a chart shows the quantity of (a rate on the rate chart, a queue on the queue
// chart), in the colour of the connection, group or port it is about. Pure: the chart draws
// what this returns.

import type { Reference } from '../contract/generated/Reference';
import type { ChartLine } from './specs';

export interface PublishedLine {
  /** The published value in the engine's unit of the chart's series (Mbps, cells or frames). */
  value: number;
  /** Where the steady window the figure is a mean over starts (ms): the line runs from there
   *  to the run's end, not over the transient before it. */
  fromMs: number;
  color: string;
  /** "published: group A 5.55" — the legend's and the tooltip's words for it; a figure the
   *  study measured under one scheme says which ("published under ERICA+: port SW2->SW3 710"),
   *  since it describes a run of that scheme only. */
  label: string;
}

/** Which published quantities each chart marks. */
const MARKED: Record<string, readonly string[]> = {
  rate: ['mean_rate_mbps'],
  queue: ['mean_queue_cells', 'max_queue_cells'],
};

/** Where a run's steady window starts (ms): its `steady_from_ms`, else the last third, as the
 *  engine takes it (`Scenario::steady_from_ms`). */
export function steadyFromMs(run: { duration_ms: number; steady_from_ms?: number | null }): number {
  return run.steady_from_ms ?? (run.duration_ms * 2) / 3;
}

/** The published lines of one chart, from the scenario's `reference` and the chart's drawn
 *  lines; `names`: algorithms' names by id (the catalogue's), for a figure's scheme. */
export function publishedLines(
  chartId: string,
  reference: readonly Reference[] | undefined,
  lines: readonly ChartLine[],
  fromMs = 0,
  names: Readonly<Record<string, string>> = {},
): PublishedLine[] {
  const quantities = MARKED[chartId];
  if (!quantities || !reference) return [];
  const out: PublishedLine[] = [];
  for (const r of reference) {
    if (!quantities.includes(r.quantity) || typeof r.about === 'string') continue;
    const [kind, id] = Object.entries(r.about)[0] as [string, string];
    const line = lines.find((l) => (kind === 'group' ? l.group === id : l.owner === id));
    if (!line) continue;
    const under = r.algorithm ? ` under ${names[r.algorithm] ?? r.algorithm}` : '';
    out.push({ value: r.published, fromMs, color: line.color, label: `published${under}: ${kind} ${id} ${r.published}` });
  }
  return out;
}

/** A published line's words on the chart: "published" and its value in the chart's unit
 *  (`shown`: the engine's value times the chart's scale), to four significant digits
 *  ("published 5.55"). QA h65: GFC-1's 5.55 and 11.1 Mbps lines shared one word "published",
 *  presenting, as if one figure. */
export function publishedWords(shown: number): string {
  return `published ${Number(shown.toPrecision(4)).toLocaleString('en-US')}`;
}

/** A published line's words, placed: `right` is where they end (text-anchor end) and `width`
 *  how wide they are; `baseline` is where the text stands (the chart's px, y growing down),
 *  `top` and `bottom` the box its letters take. `halo`: set in a column left of the plot's
 *  right end, the words may lie over another published line: drawn on a halo of the plot's
 *  ground so that they read over it. */
export interface PublishedLabel {
  y: number;
  color: string;
  text: string;
  right: number;
  width: number;
  baseline: number;
  top: number;
  bottom: number;
  halo: boolean;
}

/** The ground a label's halo is painted in: the chart's (app.css `--panel`, the exports' white). */
export const PLOT_GROUND = '#ffffff';

/** How much of a label's `fontPx` its letters take above and below the baseline ("published":
 *  ascenders b, l, d and the descender p), with room to spare for any sans-serif. */
const ASCENT_EM = 1;
const DESCENT_EM = 0.3;

/**
 * Where each published line's words go (lines at `y`, px, in the plot from `top` to `bottom`,
 * from `left` to `right`): at the right end of the line, just above it, else just under it.
 * A line with no room there (one close above it has taken it: GFC-1's 5.55 Mbps line, 15 px
 * under the 11.1 one presenting and near the plot's floor) has its words in a column to the
 * left of the right end's, above or under its line, clear of every other label; there they may
 * cross another line (`halo`). Lines at one height (within a pixel) share one label: a second,
 * under the line, would read as the label of the line below. A line that finds no room in any
 * column (the plot too narrow) goes without; the legend and the tooltip name every line.
 * No two labels' boxes come closer than `gapPx`, none leaves the plot, and since a label says
 * its value, no two lines of distinct values share one. QA h61: the 11.1 and 5.55 Mbps words
 * touched (a word's box was taken to end at its baseline).
 */
export function placePublishedLabels(
  lines: readonly { y: number; color: string; text: string }[],
  o: { fontPx: number; gapPx: number; top: number; bottom: number; left: number; right: number; widthOf: (text: string) => number },
): PublishedLabel[] {
  const ascent = o.fontPx * ASCENT_EM;
  const descent = o.fontPx * DESCENT_EM;
  const placed: PublishedLabel[] = [];
  const sorted = [...lines].sort((a, b) => a.y - b.y);
  // Every column as wide as the widest label, a space apart.
  const columnPx = Math.max(0, ...sorted.map((l) => o.widthOf(l.text))) + o.fontPx;
  const free = (box: { top: number; bottom: number; right: number; width: number }) =>
    placed.every(
      (p) => box.top >= p.bottom + o.gapPx || p.top >= box.bottom + o.gapPx || box.right - box.width >= p.right + o.gapPx || p.right - p.width >= box.right + o.gapPx,
    );
  let lastY = -Infinity;
  for (const l of sorted) {
    if (l.y - lastY < 1) continue;
    lastY = l.y;
    const width = o.widthOf(l.text);
    search: for (let column = 0; ; column++) {
      const right = o.right - column * columnPx;
      if (right - width < o.left) break;
      for (const baseline of [l.y - o.gapPx - descent, l.y + o.gapPx + ascent]) {
        const box = { top: baseline - ascent, bottom: baseline + descent, right, width };
        if (box.top < o.top || box.bottom > o.bottom || !free(box)) continue;
        // At the right end, a label keeps off the other lines (it would read as theirs).
        const crosses = sorted.some((m) => m !== l && Math.abs(m.y - l.y) >= 1 && m.y > box.top - o.gapPx && m.y < box.bottom + o.gapPx);
        if (column === 0 && crosses) continue;
        placed.push({ y: l.y, color: l.color, text: l.text, ...box, baseline, halo: crosses });
        break search;
      }
    }
  }
  return placed;
}
