// Presentation mode in the page address (`?present=1`), so that a teacher's link or bookmark
// opens the lab ready for the projector. Pure functions over the query string.

export const PRESENT_PARAM = 'present';

/** Whether the address asks for presentation mode (`?present=1`, or `=true`). */
export function presentIn(search: string): boolean {
  const v = new URLSearchParams(search).get(PRESENT_PARAM);
  return v === '1' || v === 'true';
}

/** The query string with presentation mode on or off (other parameters kept, in order). */
export function searchWithPresent(search: string, on: boolean): string {
  const q = new URLSearchParams(search);
  if (on) q.set(PRESENT_PARAM, '1');
  else q.delete(PRESENT_PARAM);
  const s = q.toString();
  return s ? `?${s}` : '';
}
