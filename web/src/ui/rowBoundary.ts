// A scrolling table's box ends between two rows, never through one (QA: core-edge's Compare
// table cut its last visible row in half at the box's fixed 360 px).

import { useLayoutEffect, type RefObject } from 'react';

/** The most a table's scroll box is high (px) before it scrolls. */
export const TABLE_BOX_MOST_PX = 360;

/**
 * The height (px) of a box showing a table whose rows end at `rowBottomsPx` (from the top of the
 * box's content, in order): the whole table when it fits in `mostPx`, else down to the last row
 * that ends within `mostPx` (the first row at least, even when it alone is higher).
 */
export function rowBoundaryHeight(rowBottomsPx: readonly number[], mostPx: number): number | null {
  if (rowBottomsPx.length === 0) return null;
  const last = rowBottomsPx[rowBottomsPx.length - 1];
  if (last <= mostPx) return null;
  let fits = rowBottomsPx[0];
  for (const bottom of rowBottomsPx) if (bottom <= mostPx) fits = bottom;
  return Math.ceil(fits);
}

/**
 * Keeps the scroll box `box` (holding a table) ending on a row boundary: its max-height set by
 * rowBoundaryHeight, measured again whenever the table's size changes (a label wraps, a value
 * comes in, the window narrows). Only for a box without borders or padding at its bottom.
 */
export function useRowBoundary(box: RefObject<HTMLElement | null>, mostPx = TABLE_BOX_MOST_PX) {
  useLayoutEffect(() => {
    const el = box.current;
    const table = el?.querySelector('table');
    if (!el || !table) return;
    const fit = () => {
      const top = el.getBoundingClientRect().top - el.scrollTop;
      // Rows come in order: those past the first that ends below mostPx change nothing (a
      // sweep's table may hold 10,000, and this runs at every render, once a finished run).
      const bottoms: number[] = [];
      for (const r of table.rows) {
        bottoms.push(r.getBoundingClientRect().bottom - top);
        if (bottoms[bottoms.length - 1] > mostPx) break;
      }
      // The table's own bottom border and spacing go with its last row.
      if (bottoms.length === table.rows.length) bottoms[bottoms.length - 1] = table.getBoundingClientRect().bottom - top;
      const height = rowBoundaryHeight(bottoms, mostPx);
      el.style.maxHeight = height === null ? `${mostPx}px` : `${height}px`;
    };
    fit();
    if (typeof ResizeObserver === 'undefined') return; // jsdom
    const observer = new ResizeObserver(fit);
    observer.observe(table);
    return () => observer.disconnect();
  });
}
