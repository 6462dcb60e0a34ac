// What a chart says at the cursor: every shown line's value at one sample row, lines that show
// the same value merged into one entry ("C1 = C2"), so a line hidden under another is named; and
// where the tooltip goes so that it stays inside the window.

import type { SampleStore } from './sampleStore';
import type { ChartLine } from './specs';

/** A value as the tooltip prints it (3 to 4 significant figures; '–' when there is none). */
export function formatValue(v: number): string {
  if (!Number.isFinite(v)) return '–';
  const a = Math.abs(v);
  return a >= 1000 ? v.toFixed(0) : a >= 100 ? v.toFixed(1) : v.toFixed(2);
}

/** One tooltip entry: lines that show the same value at the cursor, drawn on top of each other. */
export interface ReadoutEntry {
  lines: ChartLine[];
  /** One part per quantity, owners of that quantity joined: ["C1 = C2 ACR", "C1 max-min share"]. */
  parts: string[];
  /** The parts joined by " = ". */
  label: string;
  /** Shown value (engine value × the chart's scale). */
  value: number;
}

/** The quantity part of a line's label: "C1 max-min share" → "max-min share". */
function quantityOf(l: ChartLine): string {
  return l.label.startsWith(`${l.owner} `) ? l.label.slice(l.owner.length + 1) : l.label;
}

/** How lines that coincide are named: per quantity, its owners joined by " = " ("C1 = C2 ACR"). */
export function coincidentParts(lines: ChartLine[]): string[] {
  const byQuantity = new Map<string, ChartLine[]>();
  for (const l of lines) byQuantity.set(quantityOf(l), [...(byQuantity.get(quantityOf(l)) ?? []), l]);
  return [...byQuantity].map(([quantity, same]) =>
    same.length === 1 || same.some((l) => l.label === quantity) ? same.map((l) => l.label).join(' = ') : `${same.map((l) => l.owner).join(' = ')} ${quantity}`,
  );
}

/**
 * The entries at sample row `row`: one per distinct shown value, in line order (the first line of
 * each entry decides its place). Values are the same when they print the same: then the lines lie
 * on top of each other, and the entry names them all. Lines without a value (NaN) are kept apart.
 */
export function readoutAt(store: SampleStore, row: number, lines: ChartLine[], scale: number): ReadoutEntry[] {
  const entries: ReadoutEntry[] = [];
  const byValue = new Map<string, ReadoutEntry>();
  for (const l of lines) {
    const value = store.series(l.index)[row] * scale;
    const key = formatValue(value);
    const same = Number.isFinite(value) ? byValue.get(key) : undefined;
    if (same) {
      same.lines.push(l);
      continue;
    }
    const entry: ReadoutEntry = { lines: [l], parts: [], label: '', value };
    entries.push(entry);
    if (Number.isFinite(value)) byValue.set(key, entry);
  }
  for (const e of entries) {
    e.parts = coincidentParts(e.lines);
    e.label = e.parts.join(' = ');
  }
  return entries;
}

/**
 * The legend's note at the cursor: the owners whose lines of the chart's main kind (its solid
 * lines: ACR, queue, …) lie on top of each other, one note per set. Lines that show the same
 * value are joined by " = " ("C1 = C2"); given `within` (the value one pixel of the plot spans,
 * in shown units), lines whose values differ by no more than that are drawn on one another all
 * the same, and a set that holds such different values is joined by " ≈ " (two-sources' SW2->D1
 * and SW2->D2 utilisations: one line on screen, apart in the tooltip's second decimal). Reference lines
 * (shares) that coincide by design are left to the tooltip. A set of more than `most` is
 * shortened to its first, its last and its count ("A1 = … = F2 (23)").
 */
export function coincidenceNotes(entries: ReadoutEntry[], mainKind: string | undefined, most = Infinity, within = 0): string[] {
  const main = entries
    .map((e) => ({ value: e.value, owners: e.lines.filter((l) => l.kind === mainKind).map((l) => l.owner) }))
    .filter((e) => e.owners.length > 0);
  // Each entry's set: entries a pixel or less apart by value are in one (each joins the set of
  // the entry just below it). A set is listed where its first entry is, its owners in line order.
  const setOf = main.map((_, i) => i);
  if (within > 0) {
    const byValue = main.map((_, i) => i).filter((i) => Number.isFinite(main[i].value));
    byValue.sort((a, b) => main[a].value - main[b].value);
    for (let k = 1; k < byValue.length; k++) {
      const [lo, hi] = [byValue[k - 1], byValue[k]];
      if (main[hi].value - main[lo].value > within) continue;
      const [keep, gone] = [Math.min(setOf[lo], setOf[hi]), Math.max(setOf[lo], setOf[hi])];
      for (let i = 0; i < setOf.length; i++) if (setOf[i] === gone) setOf[i] = keep;
    }
  }
  const sets = main.map((_, s) => main.filter((_, i) => setOf[i] === s)).filter((set) => set.length > 0);
  const notes: string[] = [];
  for (const set of sets) {
    const owners = set.flatMap((e) => e.owners);
    const join = set.length > 1 ? ' ≈ ' : ' = ';
    if (owners.length > most) notes.push(`${owners[0]}${join}…${join}${owners[owners.length - 1]} (${owners.length})`);
    else if (owners.length > 1) notes.push(owners.join(join));
  }
  return notes;
}

/** How many names a note at the end of the lines lists in full ("A1 = … = F2 (23)" past it):
 *  the screen's stays while a run plays, on one line over the plot. */
export const END_NOTE_MOST = 3;

/**
 * The note the screen shows without a cursor, and an image under its legend: the main lines
 * that lie on one another at sample row `row` (the latest, or the last one an image shows),
 * with that sample's time, "at 100 ms" and ["C1 = C2"]; null when none do. `within`: the value
 * one pixel of the plot spans, in shown units (`coincidenceNotes`).
 */
export function coincidenceAtRow(
  store: SampleStore,
  row: number,
  lines: ChartLine[],
  scale: number,
  mainKind: string | undefined,
  within: number,
): { at: string; notes: string[] } | null {
  if (row < 0 || row >= store.length) return null;
  const notes = coincidenceNotes(readoutAt(store, row, lines, scale), mainKind, END_NOTE_MOST, within);
  return notes.length ? { at: `at ${formatValue(store.times()[row])} ms`, notes } : null;
}

export interface Box {
  width: number;
  height: number;
}

/**
 * Where a tooltip of `size` goes for a cursor at `at` (viewport px): right of and below the
 * cursor, on its other side when that side has no room, and always inside the viewport with a
 * margin (pinned to the top-left corner when it is larger than the viewport). Given a `column`
 * (the horizontal extent of the page's column the chart is in), it stays inside that when it
 * fits there, so that it does not cover the side panel beside the charts.
 */
export function placeTooltip(
  at: { x: number; y: number },
  size: Box,
  viewport: Box,
  column?: { left: number; right: number },
  gap = 14,
  margin = 6,
): { left: number; top: number } {
  const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(v, hi));
  const fits = column && column.right - column.left >= size.width + 2 * margin;
  const lo = fits ? Math.max(0, column.left) + margin : margin;
  const hi = (fits ? Math.min(viewport.width, column.right) : viewport.width) - margin;
  let left = at.x + gap;
  if (left + size.width > hi) left = at.x - gap - size.width;
  let top = at.y + gap;
  if (top + size.height > viewport.height - margin) top = at.y - gap - size.height;
  return {
    left: clamp(left, lo, Math.max(lo, hi - size.width)),
    top: clamp(top, margin, Math.max(margin, viewport.height - margin - size.height)),
  };
}
