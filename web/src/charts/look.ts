// How the charts are drawn: the everyday look, and presentation mode's for a projector at the
// back of a room (axis text ≥ 18 px, lines ≥ 3 px, dark ink on white). View state only: a run
// looks the same to the engine either way.

import { LINE_WIDTH, type LineStyle } from './palette';

export interface ChartLook {
  /** Axis tick and axis label text (CSS px). */
  fontPx: number;
  /** Line widths (CSS px) by style. */
  lineWidth: Record<LineStyle, number>;
  /** Axis text and axis line; grid lines; tick marks. */
  axisInk: string;
  gridInk: string;
  tickInk: string;
  /** Room for the x axis (below) and the y axis (left), and for an axis label (CSS px). */
  xAxisPx: number;
  yAxisPx: number;
  labelPx: number;
}

const FONT_FAMILY = 'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

export const NORMAL_LOOK: ChartLook = {
  fontPx: 12,
  lineWidth: LINE_WIDTH,
  axisInk: '#5b6675',
  gridInk: '#eceff3',
  tickInk: '#9aa5b1',
  xAxisPx: 28,
  yAxisPx: 50,
  labelPx: 18,
};

/** Presentation mode: the smallest axis text 18 px, the thinnest line 3 px, black on white. */
export const PRESENTATION_LOOK: ChartLook = {
  fontPx: 18,
  lineWidth: { solid: 4, dashed: 3, dotted: 3.5 },
  axisInk: '#000000',
  gridInk: '#c8cfd8',
  tickInk: '#4b5563',
  xAxisPx: 40,
  yAxisPx: 72,
  labelPx: 26,
};

/** The canvas font of a look's axis text. */
export function axisFont(look: ChartLook): string {
  return `${look.fontPx}px ${FONT_FAMILY}`;
}
