// How wide a number field is: wide enough for what it holds (QA: the link capacity's
// `0.0000001` showed as `.0000001`, its first digit scrolled out of a fixed 96 px).

/** The narrowest a field gets (px): the width the editor's fields had before. */
export const FIELD_MIN_PX = 96;
/** Past this many characters a field stops growing and scrolls. */
export const FIELD_MOST_CHARS = 24;
/** What besides the characters takes room (px): padding and border, and a number field's spinner. */
const TEXT_EXTRA_PX = 20;
const SPINNER_EXTRA_PX = 40;

/**
 * A CSS width for a field holding `text`: one `ch` a character (digits are one `ch` wide in
 * tabular figures), at least FIELD_MIN_PX, the room a number field's spinner takes added when
 * `spinner`. A placeholder does not widen it: it is words about the default (the field's title
 * gives them whole), and the parameter table's rows keep their columns while they are empty.
 */
export function fieldWidth(text: string, opts: { spinner?: boolean } = {}): string {
  const chars = Math.min(text.length, FIELD_MOST_CHARS);
  return `max(${FIELD_MIN_PX}px, calc(${chars}ch + ${opts.spinner ? SPINNER_EXTRA_PX : TEXT_EXTRA_PX}px))`;
}
