// The user's last work in Web Storage: the scenario text (with its recorded changes) and where
// it came from, so that a reload opens what was open (the user's own scenarios are kept in
// IndexedDB, see myScenarios.ts; this is the last one open, kept at once, synchronously). Best
// effort: storage may be off or full.

import type { Place } from './place';

/** Where the lab keeps the user's last scenario (with its recorded changes). */
export const LAST_WORK_KEY = 'abrlab.last';

/** What is kept of the last work: the scenario text and where it came from. */
export interface LastWork {
  json: string;
  origin: string;
  /** Where it is kept (one of the user's scenarios, a library scenario), when it is. */
  place?: Place;
}

/** The part of Web Storage the lab uses (localStorage in the browser). */
export type KeyValueStore = Pick<Storage, 'getItem' | 'setItem'>;

/** Reads the last work from storage (null when there is none or it is unreadable). */
export function readLastWork(storage: KeyValueStore | null): LastWork | null {
  try {
    const raw = storage?.getItem(LAST_WORK_KEY);
    if (!raw) return null;
    const v = JSON.parse(raw) as Partial<LastWork>;
    if (typeof v.json !== 'string' || typeof v.origin !== 'string') return null;
    const p = v.place;
    const place = p && (p.kind === 'mine' || p.kind === 'library') && typeof p.id === 'string' ? p : undefined;
    return place ? { json: v.json, origin: v.origin, place } : { json: v.json, origin: v.origin };
  } catch {
    return null;
  }
}

/** Keeps the last work (silently not, in private mode or over quota: the lab works on without it). */
export function writeLastWork(storage: KeyValueStore | null, work: LastWork) {
  try {
    storage?.setItem(LAST_WORK_KEY, JSON.stringify(work));
  } catch {
    // Private mode or quota.
  }
}
