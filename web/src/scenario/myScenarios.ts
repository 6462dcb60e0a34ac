// The user's own scenarios ("My scenarios"): every scenario the user changed, kept in the
// browser's IndexedDB under an id of its own, with its name and the time of its last change.
// Storage sits behind ScenarioStore so that the lab is tested with any implementation; the
// IndexedDB one is a small promise wrapper (no library), tested on fake-indexeddb.

import type { Scenario } from '../contract/scenario';
import { Database, request, unavailable, writing, type Writing } from './indexedDb';

/** One of the user's scenarios as kept: the scenario text and what the picker shows. */
export interface MyScenario {
  /** Its own id (`?mine=<id>`), not the scenario's `id` field (many copies may share that). */
  id: string;
  /** The scenario's name (its `name`, else its `id`): one name in the picker and the panel. */
  name: string;
  /** Wall-clock time of the last change (ms since the epoch). */
  updatedMs: number;
  /** The scenario text, with its recorded changes. */
  json: string;
  /** When the user deleted it (ms since the epoch): it is then listed apart, as recently
   *  deleted, to be restored, until `DELETED_KEPT_MS` have passed. */
  deletedMs?: number;
}

/** What the picker lists of a kept scenario (without its text). */
export type MyScenarioInfo = Omit<MyScenario, 'json'>;

/** How long a deleted scenario can still be restored (30 days). */
export const DELETED_KEPT_MS = 30 * 24 * 3600 * 1000;

/** The basis (`ScenarioStore.put`) of a scenario made on none the store keeps: no kept
 *  scenario's text is ever empty. */
export const NOT_KEPT = '';

export interface ScenarioStore {
  /** Every kept scenario, the most recently changed first. */
  list(): Promise<MyScenarioInfo[]>;
  /** One kept scenario (null when there is none with that id). */
  get(id: string): Promise<MyScenario | null>;
  /**
   * Keeps a scenario (replacing the one with the same id). With `basis`, the text the caller's
   * copy was made from: when the kept scenario is no longer that text (another tab changed it
   * since) nor the text being kept, nothing is written and the answer is 'changed'. With
   * `NOT_KEPT` as the basis, it is written only where none is kept under its id.
   */
  put(s: MyScenario, basis?: string): Promise<'kept' | 'changed'>;
  /** Deletes a scenario, recoverably: from then on it is listed by `deleted` only (and `get`
   *  no longer finds it), until `restore` or `purge`. */
  remove(id: string, deletedMs: number): Promise<void>;
  /** The deleted scenarios still kept, the most recently deleted first. */
  deleted(): Promise<MyScenarioInfo[]>;
  /** Brings a deleted scenario back among the kept ones (false: there is none to restore). */
  restore(id: string): Promise<boolean>;
  /** Forgets the scenarios deleted before `beforeMs`, for good. */
  purge(beforeMs: number): Promise<void>;
}

/** What a tab tells the others of one of the user's scenarios: that it kept a change of it
 *  (the id alone: the text is in the store), or that the user deleted it there. */
export type TabNews = { kept: string } | { deleted: string };

/**
 * The other tabs of the lab in this browser: each says which of the user's scenarios it just
 * kept or deleted, so that a tab holding that scenario can say at once that it changed, and
 * its Mine list follows (a `BroadcastChannel` in the browser).
 */
export interface TabChannel {
  post(news: TabNews): void;
  listen(on: (news: TabNews) => void): void;
  close(): void;
}

/** A message from another tab as news (a bare id: a kept change, as an older lab posts it). */
export function tabNews(data: unknown): TabNews | null {
  if (typeof data === 'string') return { kept: data };
  const d = data as Partial<{ kept: unknown; deleted: unknown }> | null;
  if (d && typeof d === 'object') {
    if (typeof d.kept === 'string') return { kept: d.kept };
    if (typeof d.deleted === 'string') return { deleted: d.deleted };
  }
  return null;
}

/** The browser's channel between the lab's tabs (null where there is none). */
export function broadcastTabs(name = 'abrlab-scenarios'): TabChannel | null {
  if (typeof BroadcastChannel === 'undefined') return null;
  const channel = new BroadcastChannel(name);
  return {
    // A kept change as a bare id, as labs before deletions were told posted it.
    post: (news) => channel.postMessage('kept' in news ? news.kept : news),
    listen: (on) => {
      channel.onmessage = (e: MessageEvent) => {
        const news = tabNews(e.data);
        if (news) on(news);
      };
    },
    close: () => channel.close(),
  };
}

/** The name the user knows a scenario by: its `name`, else its `id`. */
export function scenarioName(s: Pick<Scenario, 'id' | 'name'>): string {
  return (typeof s.name === 'string' && s.name.trim()) || String(s.id || 'scenario');
}

/** A new id for a kept scenario: short, URL-safe, unlikely to repeat. */
export function newMineId(nowMs = Date.now(), random = Math.random): string {
  return `${nowMs.toString(36)}${Math.floor(random() * 36 ** 4).toString(36).padStart(4, '0')}`;
}

/** Newest first; ties by id, so that the order is stable. */
export function byLastChange(list: MyScenarioInfo[]): MyScenarioInfo[] {
  return [...list].sort((a, b) => b.updatedMs - a.updatedMs || a.id.localeCompare(b.id));
}

/** The list after keeping `s` (replacing its entry), newest first. */
export function withKept(list: readonly MyScenarioInfo[], s: MyScenario): MyScenarioInfo[] {
  const info: MyScenarioInfo = { id: s.id, name: s.name, updatedMs: s.updatedMs };
  return byLastChange([info, ...list.filter((e) => e.id !== s.id)]);
}

/** When a scenario last changed, as the picker says it: "14:05" today, else "3 Mar 14:05". */
export function lastChangeText(updatedMs: number, nowMs = Date.now()): string {
  const d = new Date(updatedMs);
  const time = d.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
  if (new Date(nowMs).toDateString() === d.toDateString()) return time;
  return `${d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short' })} ${time}`;
}

/**
 * When each of the user's scenarios last changed, as the picker and the Mine list show it
 * (`lastChangeText`), with the seconds where two of one name changed in the same minute, and a
 * number after that where even those agree: no two entries read alike (QA: two tabs editing
 * one scenario left two "Two sources · 03:11", nothing to tell them apart). By id.
 */
export function mineTimes(list: readonly { id: string; name: string; updatedMs: number }[], nowMs = Date.now()): Map<string, string> {
  const times = new Map(list.map((m) => [m.id, lastChangeText(m.updatedMs, nowMs)]));
  // How many entries read `name · time` for each entry's text now.
  const readAlike = () => {
    const keys = new Map(list.map((m) => [m.id, `${m.name}\u0000${times.get(m.id)}`]));
    const n = new Map<string, number>();
    for (const k of keys.values()) n.set(k, (n.get(k) ?? 0) + 1);
    return (id: string) => n.get(keys.get(id)!)!;
  };
  const clash = readAlike();
  for (const m of list) {
    if (clash(m.id) > 1) times.set(m.id, `${times.get(m.id)}:${String(new Date(m.updatedMs).getSeconds()).padStart(2, '0')}`);
  }
  const still = readAlike();
  const seen = new Map<string, number>();
  for (const m of list) {
    if (still(m.id) < 2) continue;
    const k = `${m.name}\u0000${times.get(m.id)}`;
    const n = (seen.get(k) ?? 0) + 1;
    seen.set(k, n);
    if (n > 1) times.set(m.id, `${times.get(m.id)} (${n})`);
  }
  return times;
}

/** A store that keeps nothing and says why (a browser without IndexedDB, or with it turned off):
 *  the lab tells the user once, instead of seeming to keep their work. */
export function unavailableStore(why: string): ScenarioStore {
  const no = () => unavailable(why);
  return { list: no, get: no, put: no, remove: no, deleted: no, restore: no, purge: no };
}

/** The store's answer, or `fallback` once `ms` have passed (a storage that never answers must
 *  not hold up the lab's start). */
export function within<T>(p: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => resolve(fallback), ms);
    p.then(
      (v) => (clearTimeout(t), resolve(v)),
      (e: unknown) => (clearTimeout(t), reject(e)),
    );
  });
}

const DB_VERSION = 1;
const STORE = 'scenarios';

/** Whether a stored value has a kept scenario's fields (IndexedDB's records, Web Storage's). */
export function isMyScenario(v: unknown): v is MyScenario {
  const r = v as Partial<MyScenario> | null;
  return (
    !!r &&
    typeof r.id === 'string' &&
    typeof r.name === 'string' &&
    typeof r.updatedMs === 'number' &&
    typeof r.json === 'string' &&
    (r.deletedMs === undefined || typeof r.deletedMs === 'number')
  );
}

const info = ({ id, name, updatedMs, deletedMs }: MyScenario): MyScenarioInfo => (deletedMs === undefined ? { id, name, updatedMs } : { id, name, updatedMs, deletedMs });

/** The user's scenarios in IndexedDB (database `dbName`, one object store keyed by id). */
export class IndexedDbScenarioStore implements ScenarioStore {
  /** Opened at first use, let go when another tab upgrades it, opened again after. */
  readonly db: Database;

  constructor(factory: IDBFactory, dbName = 'abrlab', opts: { blockedMs?: number } = {}) {
    this.db = new Database(
      factory,
      dbName,
      DB_VERSION,
      (db) => {
        if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE, { keyPath: 'id' });
      },
      opts,
    );
  }

  private async store(mode: IDBTransactionMode): Promise<IDBObjectStore> {
    return (await this.db.transaction(STORE, mode)).objectStore(STORE);
  }

  private async all(): Promise<MyScenario[]> {
    return ((await request((await this.store('readonly')).getAll())) as unknown[]).filter(isMyScenario);
  }

  async list(): Promise<MyScenarioInfo[]> {
    return byLastChange((await this.all()).filter((s) => s.deletedMs === undefined).map(info));
  }

  async get(id: string): Promise<MyScenario | null> {
    const v = (await request((await this.store('readonly')).get(id))) as unknown;
    return isMyScenario(v) && v.deletedMs === undefined ? v : null;
  }

  async deleted(): Promise<MyScenarioInfo[]> {
    const gone = (await this.all()).filter((s) => s.deletedMs !== undefined).map(info);
    return gone.sort((a, b) => b.deletedMs! - a.deletedMs! || a.id.localeCompare(b.id));
  }

  /** A read-write transaction's store, and its completion (`writing`). */
  private async writing(): Promise<{ store: IDBObjectStore } & Writing> {
    const store = await this.store('readwrite');
    return { store, ...writing(store.transaction) };
  }

  async put(s: MyScenario, basis?: string): Promise<'kept' | 'changed'> {
    const { store, done, inHandler } = await this.writing();
    let answer: 'kept' | 'changed' = 'kept';
    const write = () => store.put({ id: s.id, name: s.name, updatedMs: s.updatedMs, json: s.json });
    if (basis === undefined) write();
    else {
      // Read and write in one transaction, so that no other tab's write comes between.
      const read = store.get(s.id);
      read.onsuccess = () =>
        inHandler(() => {
          const kept = read.result as unknown;
          // Already this very text (kept from Web Storage at start, see Lab.reconcile): no clash.
          if (isMyScenario(kept) && kept.json !== basis && kept.json !== s.json) answer = 'changed';
          else write();
        });
    }
    await done;
    return answer;
  }

  /** Changes the record under `id` in one transaction (`change` returns what to write, or
   *  null to leave it); the answer is whether there was one to change. */
  private async update(id: string, change: (s: MyScenario) => MyScenario | null): Promise<boolean> {
    const { store, done, inHandler } = await this.writing();
    let found = false;
    const read = store.get(id);
    read.onsuccess = () =>
      inHandler(() => {
        const kept = read.result as unknown;
        const next = isMyScenario(kept) ? change(kept) : null;
        if (next) {
          found = true;
          store.put(next);
        }
      });
    await done;
    return found;
  }

  async remove(id: string, deletedMs: number): Promise<void> {
    await this.update(id, (s) => ({ ...s, deletedMs }));
  }

  async restore(id: string): Promise<boolean> {
    return this.update(id, (s) => {
      if (s.deletedMs === undefined) return null;
      const { deletedMs: _gone, ...back } = s;
      return back;
    });
  }

  async purge(beforeMs: number): Promise<void> {
    const old = (await this.all()).filter((s) => s.deletedMs !== undefined && s.deletedMs < beforeMs);
    if (!old.length) return;
    const store = await this.store('readwrite');
    await Promise.all(old.map((s) => request(store.delete(s.id))));
  }
}
