// The user's last work in Web Storage: the scenario text (with its recorded changes) and where
// it came from, so that a reload opens what was open (the user's own scenarios are kept in
// IndexedDB, see myScenarios.ts; this is the last one open, kept at once, synchronously). Kept
// twice: in the tab's sessionStorage (what a reload of this tab opens: its own, not another
// tab's) and in localStorage (what a new tab opens). Best effort: storage may be off or full.

import type { MyScenario } from './myScenarios';
import type { Place } from './place';

/** Where the lab keeps the user's last scenario (with its recorded changes). */
export const LAST_WORK_KEY = 'abrlab.last';

/** What is kept of the last work: the scenario text and where it came from. */
export interface LastWork {
  json: string;
  origin: string;
  /** Where it is kept (one of the user's scenarios, a library scenario), when it is. */
  place?: Place;
  /** A change the user made that is not yet kept where `place` says (the page went away
   *  before the engine took it, or before the scenario store had written it): a reload opens
   *  this text, not the older one kept there, and keeps it. */
  unsaved?: boolean;
  /** Where the page address pointed when the change was made (a library scenario the change
   *  makes the user's own): a reload of that address opens the change. */
  from?: Place;
  /** With `unsaved`, on one of the user's scenarios: the digest (`textDigest`) of the text the
   *  store held when this tab last read or wrote it, the text the change was made on. A reload
   *  that finds another text there (another tab changed it since) keeps the change beside it,
   *  not over it. */
  basisDigest?: string;
}

function placeIn(p: unknown): Place | undefined {
  const q = p as Partial<{ kind: string; id: unknown }> | undefined;
  if (!q || typeof q !== 'object') return undefined;
  if ((q.kind === 'mine' || q.kind === 'library') && typeof q.id === 'string') return { kind: q.kind, id: q.id };
  if (q.kind === 'none') return { kind: 'none' };
  return undefined;
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
    const work: LastWork = { json: v.json, origin: v.origin };
    const place = placeIn(v.place);
    if (place && place.kind !== 'none') work.place = place;
    if (v.unsaved === true) work.unsaved = true;
    const from = placeIn(v.from);
    if (from) work.from = from;
    if (typeof v.basisDigest === 'string') work.basisDigest = v.basisDigest;
    return work;
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

/** A short digest of a text (53-bit cyrb53, hex): enough to tell whether the store still holds
 *  the text a change was made on, without keeping that text twice in Web Storage. */
export function textDigest(text: string): string {
  return textHash(text).toString(16);
}

/** A text hashed to a whole number below 2⁵³ (cyrb53): the same text, the same number. */
export function textHash(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** Where the user's scenarios are kept when the scenario store (IndexedDB) refuses them: off,
 *  full or failing, a change is kept here instead, so that picking another scenario, Back or a
 *  reload still finds it (and *Mine* still lists it). */
export const UNKEPT_KEY = 'abrlab.unkept';

function isKept(v: unknown): v is MyScenario {
  const r = v as Partial<MyScenario> | null;
  return !!r && typeof r.id === 'string' && typeof r.name === 'string' && typeof r.updatedMs === 'number' && typeof r.json === 'string';
}

/** The user's scenarios the scenario store refused, kept in Web Storage (newest first). */
export function readUnkept(storage: KeyValueStore | null): MyScenario[] {
  try {
    const raw = storage?.getItem(UNKEPT_KEY);
    const list = raw ? (JSON.parse(raw) as unknown) : [];
    return Array.isArray(list) ? list.filter(isKept) : [];
  } catch {
    return [];
  }
}

/** Keeps `list` as the scenarios the store refused; false when Web Storage refuses it too. */
export function writeUnkept(storage: KeyValueStore | null, list: readonly MyScenario[]): boolean {
  if (!storage) return false;
  try {
    storage.setItem(UNKEPT_KEY, JSON.stringify(list));
    return true;
  } catch {
    return false;
  }
}
