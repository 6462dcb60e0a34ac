// The user's last work in Web Storage: the scenario text (with its recorded changes) and where
// it came from, so that a reload opens what was open (the user's own scenarios are kept in
// IndexedDB, see myScenarios.ts; this is the last one open, kept at once, synchronously). Kept
// twice: in the tab's sessionStorage (what a reload of this tab opens: its own, not another
// tab's) and in localStorage (what a new tab opens). Best effort: storage may be off or full.

import { isMyScenario, type MyScenario } from './myScenarios';
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

/** The part of Web Storage the lab uses (localStorage in the browser); the user's scenarios kept
 *  there (`readUnkept`) are found by going through its keys. */
export type KeyValueStore = Pick<Storage, 'getItem' | 'setItem'> & Partial<Pick<Storage, 'removeItem' | 'key' | 'length'>>;

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

/** Where the user's scenarios are kept when the scenario store (IndexedDB) refuses them, or the
 *  page goes away before it has written them: off, full, failing or too slow, a change is kept
 *  here instead, so that picking another scenario, Back or a reload still finds it (and *Mine*
 *  still lists it). One key a scenario (`UNKEPT_PREFIX` + its id): two tabs keeping different
 *  scenarios never write over each other's (Web Storage is last-write-wins per key, and a tab
 *  may read another's write late). */
export const UNKEPT_PREFIX = 'abrlab.unkept/';
/** Where they were kept before, as one list (read still; an entry leaves it when dropped). */
export const UNKEPT_KEY = 'abrlab.unkept';

/** A scenario kept in Web Storage: with `basisDigest`, the digest of the text the scenario
 *  store held when the change was made (what it may be written over, see Lab.reconcile). */
export type Unkept = MyScenario & { basisDigest?: string };

function isKept(v: unknown): v is Unkept {
  const basis = (v as Partial<Unkept> | null)?.basisDigest;
  return isMyScenario(v) && (basis === undefined || typeof basis === 'string');
}

function readJson(storage: KeyValueStore, key: string): unknown {
  try {
    const raw = storage.getItem(key);
    return raw ? (JSON.parse(raw) as unknown) : null;
  } catch {
    return null;
  }
}

/** The scenarios kept in the old one-list key. */
function unkeptList(storage: KeyValueStore): Unkept[] {
  const list = readJson(storage, UNKEPT_KEY);
  return Array.isArray(list) ? list.filter(isKept) : [];
}

/** The user's scenarios kept in Web Storage (newest first): each under its own key, and those
 *  of the old list that have none. An entry that cannot be read is passed over. */
export function readUnkept(storage: KeyValueStore | null): Unkept[] {
  if (!storage) return [];
  const byId = new Map<string, Unkept>();
  try {
    for (let i = 0; i < (storage.length ?? 0); i++) {
      const key = storage.key?.(i);
      if (!key?.startsWith(UNKEPT_PREFIX)) continue;
      const v = readJson(storage, key);
      if (isKept(v) && v.id === key.slice(UNKEPT_PREFIX.length)) byId.set(v.id, v);
    }
  } catch {
    // Storage turned off while reading: what was read stands.
  }
  for (const u of unkeptList(storage)) if (!byId.has(u.id)) byId.set(u.id, u);
  return [...byId.values()].sort((a, b) => b.updatedMs - a.updatedMs || a.id.localeCompare(b.id));
}

/** Keeps one scenario in Web Storage, under its own key (replacing its older text); false when
 *  Web Storage refuses it. */
export function holdUnkept(storage: KeyValueStore | null, s: Unkept): boolean {
  if (!storage) return false;
  try {
    storage.setItem(UNKEPT_PREFIX + s.id, JSON.stringify(s));
    return true;
  } catch {
    return false;
  }
}

/** Forgets the scenario `id` kept in Web Storage (the store has it now, or the user deleted
 *  it), if it is no newer than `upToMs` (a later change kept there stays) and, with `only`, if
 *  `only` says so (another tab's change kept there stays, to be weighed: Lab.reconcile). */
export function dropUnkept(storage: KeyValueStore | null, id: string, upToMs = Infinity, only: (u: Unkept) => boolean = () => true) {
  if (!storage) return;
  try {
    const goes = (u: Unkept) => u.id === id && u.updatedMs <= upToMs && only(u);
    const own = readJson(storage, UNKEPT_PREFIX + id);
    if (isKept(own) && goes(own)) {
      if (storage.removeItem) storage.removeItem(UNKEPT_PREFIX + id);
      else storage.setItem(UNKEPT_PREFIX + id, '');
    }
    const list = unkeptList(storage);
    if (list.some(goes)) storage.setItem(UNKEPT_KEY, JSON.stringify(list.filter((u) => !goes(u))));
  } catch {
    // Private mode or storage off: nothing to forget.
  }
}

/** Whether Web Storage takes a write (a probe under the lab's own key, taken away at once). */
export function storageWorks(storage: KeyValueStore | null): boolean {
  if (!storage) return false;
  try {
    storage.setItem(`${UNKEPT_PREFIX}probe`, '');
    storage.removeItem?.(`${UNKEPT_PREFIX}probe`);
    return true;
  } catch {
    return false;
  }
}
