// The IndexedDB databases of the lab (the user's scenarios, the kept sweeps and comparisons)
// open, write and answer the same way: a request as a promise, a write transaction's completion
// as one, a database opened with its stores made (or migrated) on the first open of each
// version, the oldest kept records let go beyond a cap, and a store that keeps nothing where the
// browser offers no IndexedDB.
//
// Tabs share a database. A tab that opens it at a newer version (a newer lab, after a deploy)
// waits until every other tab has closed its connection: each connection here closes itself
// when told (`versionchange`), and the next use opens the database again (lazily). A write in
// flight then is not lost: a transaction already made completes before the connection closes,
// and one asked for later opens the database again — refused only if this tab's version is
// now the older one, which the caller treats as any refused write (Web Storage for a scenario,
// a note under a sweep). A tab upgrading waits for the others a while (`blocked`), then says
// why it cannot keep.

/** A request's result, or its error. */
export function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error('IndexedDB request failed'));
  });
}

/** A read-write transaction's completion (rejected if it fails or aborts), and how to fail it.
 *  `inHandler` runs a step in one of its requests' handlers, `fail` aborts it with an error: a
 *  write that throws there (a full storage may refuse at once) aborts the transaction, whose
 *  completion is then refused with that error, not thrown in an event handler as an error of
 *  the page. */
export interface Writing {
  done: Promise<void>;
  fail: (e: unknown) => void;
  inHandler: (step: () => void) => void;
}

/** `tx`'s completion, as `Writing` says: call it before the transaction's first request. */
export function writing(tx: IDBTransaction): Writing {
  let thrown: unknown = null;
  const done = new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(thrown ?? tx.error ?? new Error('IndexedDB write failed'));
    tx.onabort = () => reject(thrown ?? tx.error ?? new Error('IndexedDB write aborted (is the storage full?)'));
  });
  const fail = (e: unknown) => {
    thrown = e;
    tx.abort();
  };
  // (Not named `then`: an object with one is awaited as a promise.)
  const inHandler = (step: () => void) => {
    try {
      step();
    } catch (e) {
      fail(e);
    }
  };
  return { done, fail, inHandler };
}

/** A kept record as eviction weighs it: the lowest `rank` go first, the oldest (`age`, ms
 *  since the epoch: when it started or was written) first within a rank. */
export interface Evictable {
  key: string;
  rank: number;
  age: number;
}

/** Which of `kept` (every record kept, the one being written among them) go so that `most` stay
 *  (at least one): the lowest rank first, the oldest first within it; never `writing`. */
export function evictedKeys(kept: readonly Evictable[], writing: string, most: number): string[] {
  const over = kept.length - Math.max(1, most);
  if (over <= 0) return [];
  return kept
    .filter((k) => k.key !== writing)
    .sort((a, b) => a.rank - b.rank || a.age - b.age)
    .slice(0, over)
    .map((k) => k.key);
}

/** Reading a stored record back (it may be of another version, or damaged): a finite number. */
export const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
/** Reading a stored record back: a string. */
export const isStr = (v: unknown): v is string => typeof v === 'string';

/** The error name of a write refused because the browser keeps nothing (`unavailable`). */
export const UNAVAILABLE = 'Unavailable';

/** A refusal by a store that keeps nothing: `why` it cannot (no IndexedDB, turned off). */
export function unavailable(why: string): Promise<never> {
  return Promise.reject(Object.assign(new Error(why), { name: UNAVAILABLE }));
}

/**
 * The store `make` makes on the browser's IndexedDB, or, where the browser offers none or has
 * it turned off (reading `indexedDB` throws), the one `without` makes, told why: the lab then
 * says its work is not kept rather than seem to keep it.
 */
export function storeOr<T>(make: (factory: IDBFactory) => T, without: (why: string) => T, scope: { indexedDB?: IDBFactory } = globalThis): T {
  try {
    const factory = scope.indexedDB;
    return factory ? make(factory) : without('this browser offers no IndexedDB');
  } catch (e) {
    return without(`IndexedDB is turned off: ${(e as Error)?.message || String(e)}`);
  }
}

/** Makes or migrates the stores of a database opened at a new version: `oldVersion` is 0 for a
 *  new database; `tx` is the upgrade's transaction (to read what an older version kept). */
export type Upgrade = (db: IDBDatabase, oldVersion: number, tx: IDBTransaction) => void;

/** How long an upgrade waits for another tab of the lab to let the database go (ms). */
export const BLOCKED_WAIT_MS = 5000;

/** The refusal when this tab's version is older than the one another tab upgraded to. */
export const NEWER_ELSEWHERE = 'a newer version of the lab, open in another tab, has upgraded the browser’s storage: reload this tab to keep work in it';
/** The refusal when another tab holds the database at an older version past `BLOCKED_WAIT_MS`. */
export const HELD_ELSEWHERE = 'another tab of the lab, of an older version, holds the browser’s storage: reload or close it to keep work here';

/**
 * Opens database `name` at `version`; `upgrade` makes its stores. A browser without IndexedDB
 * refuses it; so does another tab holding it at an older version for `blockedMs` (the open goes
 * on: a connection that comes after all is closed at once, unused). The connection closes
 * itself when another tab asks for a newer version (`onVersionChange` is told).
 */
export function openDatabase(
  factory: IDBFactory,
  name: string,
  version: number,
  upgrade: Upgrade,
  opts: { blockedMs?: number; onVersionChange?: () => void } = {},
): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let waiting: ReturnType<typeof setTimeout> | null = null;
    const open = factory.open(name, version);
    open.onupgradeneeded = (e) => upgrade(open.result, e.oldVersion, open.transaction!);
    open.onsuccess = () => {
      if (waiting) clearTimeout(waiting);
      const db = open.result;
      if (settled) {
        db.close();
        return;
      }
      settled = true;
      db.onversionchange = () => {
        db.close();
        opts.onVersionChange?.();
      };
      resolve(db);
    };
    open.onerror = () => {
      if (waiting) clearTimeout(waiting);
      if (settled) return;
      settled = true;
      const e = open.error;
      reject(e?.name === 'VersionError' ? new Error(NEWER_ELSEWHERE) : (e ?? new Error('IndexedDB could not be opened')));
    };
    open.onblocked = () => {
      if (waiting || settled) return;
      waiting = setTimeout(() => {
        if (settled) return;
        settled = true;
        reject(new Error(HELD_ELSEWHERE));
      }, opts.blockedMs ?? BLOCKED_WAIT_MS);
    };
  });
}

/**
 * One database, opened when first used and again after it was let go (another tab upgrading
 * it, the browser closing it) or refused: a store holds one of these, not a connection.
 */
export class Database {
  private db: Promise<IDBDatabase> | null = null;

  constructor(
    private readonly factory: IDBFactory,
    readonly name: string,
    private readonly version: number,
    private readonly upgrade: Upgrade,
    private readonly opts: { blockedMs?: number } = {},
  ) {}

  /** The open connection (opened now if there is none). */
  open(): Promise<IDBDatabase> {
    if (this.db) return this.db;
    const opened = openDatabase(this.factory, this.name, this.version, this.upgrade, {
      ...this.opts,
      onVersionChange: () => this.forget(opened),
    });
    this.db = opened;
    opened.then(
      (db) => {
        // Closed by the browser (storage cleared, a disk error): the next use opens it again.
        db.onclose = () => this.forget(opened);
      },
      // A refusal is said by the call that waits on it; the next call tries again.
      () => this.forget(opened),
    );
    return opened;
  }

  private forget(which: Promise<IDBDatabase>) {
    if (this.db === which) this.db = null;
  }

  /** A transaction on `stores`, on a connection open now: one closed between the open and the
   *  transaction (another tab's upgrade) is opened again, once. */
  async transaction(stores: string | string[], mode: IDBTransactionMode): Promise<IDBTransaction> {
    const first = this.open();
    const db = await first;
    try {
      return db.transaction(stores, mode);
    } catch (e) {
      if ((e as DOMException | null)?.name !== 'InvalidStateError') throw e;
      this.forget(first);
      return (await this.open()).transaction(stores, mode);
    }
  }

  /** Lets the connection go (tests; a page that will not use it again). */
  async close(): Promise<void> {
    const db = this.db;
    this.db = null;
    if (db) (await db.catch(() => null))?.close();
  }
}
