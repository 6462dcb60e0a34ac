// A value typed and neither entered nor left that its field refuses (out of range, not a
// number) is not given to the scenario when the page goes away or another scenario opens, as a
// value it accepts is (ui/useHeldTyping.ts): the lab says so instead, naming the field and the
// rule (QA: a target_utilization of 7 typed, then a reload, was gone without a word). A reload
// reads what the page went away with from the tab's storage.

import type { KeyValueStore } from '../scenario/storage';

/** What a field refused of what was typed in it. */
export interface DroppedTyping {
  /** The field's name (`target_utilization`). */
  field: string;
  /** Whose field it is (a switch, `SW1`), when the field's name alone does not say. */
  owner?: string;
  /** What was typed. */
  text: string;
  /** The rule it breaks, as the field shows it. */
  rule: string;
}

/** Where the tab keeps, for its next start, the typed values the page went away with unkept. */
export const DROPPED_TYPING_KEY = 'abrlab.dropped-typing';

/** The notice's words: each typed value, its field, and the rule it breaks. */
export function droppedTypingText(dropped: readonly DroppedTyping[]): string {
  return dropped
    .map((d) => `Your typed ${d.text} for ${d.owner ? `${d.owner} ` : ''}${d.field} was not kept: ${d.rule.replace(/\.$/, '')}.`)
    .join(' ');
}

/** Keeps `dropped` for the tab's next start (none: forgets what was kept). Best effort. */
export function keepDroppedTyping(storage: KeyValueStore | null, dropped: readonly DroppedTyping[]) {
  if (!storage) return;
  try {
    if (dropped.length) storage.setItem(DROPPED_TYPING_KEY, JSON.stringify(dropped));
    else storage.removeItem?.(DROPPED_TYPING_KEY);
  } catch {
    // storage off or full: the value is lost without a word, as before
  }
}

/** Reads and forgets what the tab kept (an empty list when nothing, or nothing readable). */
export function takeDroppedTyping(storage: KeyValueStore | null): DroppedTyping[] {
  if (!storage) return [];
  try {
    const text = storage.getItem(DROPPED_TYPING_KEY);
    if (text === null) return [];
    storage.removeItem?.(DROPPED_TYPING_KEY);
    const list: unknown = JSON.parse(text);
    return Array.isArray(list) ? list.filter(isDropped) : [];
  } catch {
    return [];
  }
}

function isDropped(d: unknown): d is DroppedTyping {
  const x = d as Partial<DroppedTyping> | null;
  return !!x && typeof x.field === 'string' && typeof x.text === 'string' && typeof x.rule === 'string' && (x.owner === undefined || typeof x.owner === 'string');
}
