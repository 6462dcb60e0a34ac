// What the toolbar's Step and Run to fields refuse, and why (pure: Toolbar.tsx shows it on the
// field and the button). A number too small to represent or too large is refused with the
// parameter fields' own words (scenario/params.ts's `sizeRule`), not read as the 0 or the
// Infinity it would become.

import { sizeRule } from '../scenario/params';

/** Why Step cannot go with the step field's text (null: it can); `unreadable`: the browser
 *  could not read the field at all (it empties a number field holding 1e400). */
export function stepRule(text: string, unreadable: boolean): string | null {
  if (unreadable) return 'A step must be a finite number of milliseconds';
  return sizeRule('Step', text) ?? (Number(text) > 0 ? null : 'A step is a number of milliseconds above 0');
}

/** Why Run to cannot go with its field's text at run time `nowMs` (null: it can). */
export function untilRule(text: string, unreadable: boolean, nowMs: number): string | null {
  if (unreadable) return 'Run to must be a finite time in milliseconds';
  return sizeRule('Run to', text) ?? (Number(text) > nowMs ? null : `Run to a time after now (t = ${nowMs.toFixed(2)} ms)`);
}
