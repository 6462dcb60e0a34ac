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

/** A published line's word "published", placed: `baseline` is where its text stands (the
 *  chart's px, y growing down), `top` and `bottom` the box its letters take. */
export interface PublishedLabel {
  y: number;
  color: string;
  baseline: number;
  top: number;
  bottom: number;
}

/** How much of a label's `fontPx` its letters take above and below the baseline ("published":
 *  ascenders b, l, d and the descender p), with room to spare for any sans-serif. */
const ASCENT_EM = 1;
const DESCENT_EM = 0.3;

/**
 * Where the word "published" goes at the right end of each published line (lines at `y`, px,
 * in the plot from `top` to `bottom`): just above its line, else just under it, else nowhere
 * (a line that close to others, or at their height, shares their word; the legend and the
 * tooltip name every line).
 * No two labels' boxes come closer than `gapPx`, and none leaves the plot. QA h61: GFC-1's
 * 11.1 and 5.55 Mbps lines, 15 px apart presenting, had their words touching, since a word's
 * box was taken to end at its baseline (its descender, and the gap, were not counted).
 */
export function placePublishedLabels(
  lines: readonly { y: number; color: string }[],
  o: { fontPx: number; gapPx: number; top: number; bottom: number },
): PublishedLabel[] {
  const ascent = o.fontPx * ASCENT_EM;
  const descent = o.fontPx * DESCENT_EM;
  const placed: PublishedLabel[] = [];
  let clearFrom = o.top;
  let lastY = -Infinity;
  for (const l of [...lines].sort((a, b) => a.y - b.y)) {
    // Lines at one height (GFC-1's groups B and E, both 11.1 Mbps) share the first one's word:
    // a second, under the line, would read as the word of the line below.
    if (l.y - lastY < 1) continue;
    lastY = l.y;
    for (const baseline of [l.y - o.gapPx - descent, l.y + o.gapPx + ascent]) {
      const top = baseline - ascent;
      const bottom = baseline + descent;
      if (top < clearFrom || bottom > o.bottom) continue;
      placed.push({ y: l.y, color: l.color, baseline, top, bottom });
      clearFrom = bottom + o.gapPx;
      break;
    }
  }
  return placed;
}
