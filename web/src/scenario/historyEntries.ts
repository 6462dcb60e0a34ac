// The page's history entries, each known by a key its state keeps (`entry`), and where the
// scenario of one went after the address left it. A change typed and given as Back moves the
// address on (lab.giveTyped) is kept as the user's own, at a place that entry's address does not
// name: the entry it was typed in still names the library scenario (or the link) it was made
// on, and the browser lets no page rewrite an entry it is not on. Forward to that entry would
// open the original; with this, it opens the user's copy (and its address is made to say so).
// Framework-free: main.tsx keeps one and reads the browser's history through it.

import { samePlace, type Opened, type Place } from './place';

/** What the lab writes into a history entry's state: the key, and the scenario when the
 *  address cannot name it (place.ts `historyState`). */
export type EntryState = { entry: string } & Partial<Opened>;

/** The key a history entry's state holds (null: none, e.g. an entry written before keys). */
export function entryOf(state: unknown): string | null {
  const e = (state as { entry?: unknown } | null)?.entry;
  return typeof e === 'string' && e !== '' ? e : null;
}

/** A state for an entry keyed `entry`, keeping what the lab keeps there (`kept`, may be null). */
export function withEntry(kept: Opened | null, entry: string): EntryState {
  return kept ? { ...kept, entry } : { entry };
}

/** How many entries left behind are remembered (enough for any Back and Forward by hand). */
const REMEMBERED = 50;

export class HistoryEntries {
  /** The entries the address left, newest last, with the place each named. */
  private left: { entry: string; place: Place }[] = [];
  /** Entries whose scenario is now kept elsewhere, and where. */
  private movedTo = new Map<string, Place>();

  /** The address left `entry` (Back, Forward), which named `place`. */
  leave(entry: string | null, place: Place) {
    if (entry === null) return;
    this.left = [...this.left.filter((l) => l.entry !== entry), { entry, place }].slice(-REMEMBERED);
  }

  /**
   * A change of the scenario open at `from` was kept at `to` after the address had left it:
   * the entry left most recently that named `from` now opens `to`. False when no entry left
   * names `from` (or the change stayed where it was).
   */
  keptAway(from: Place, to: Place): boolean {
    if (samePlace(from, to)) return false;
    const left = [...this.left].reverse().find((l) => samePlace(l.place, from));
    if (!left) return false;
    this.movedTo.set(left.entry, to);
    if (this.movedTo.size > REMEMBERED) this.movedTo.delete(this.movedTo.keys().next().value!);
    return true;
  }

  /** Where the scenario of `entry` is kept now, when not where its address says (null). */
  placeOf(entry: string | null): Place | null {
    return entry === null ? null : (this.movedTo.get(entry) ?? null);
  }
}
