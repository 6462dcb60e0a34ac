// The two IndexedDB databases of the lab (the user's scenarios, the kept sweeps) open and
// answer the same way: a request as a promise, a database opened with its stores made on the
// first open.

/** A request's result, or its error. */
export function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error('IndexedDB request failed'));
  });
}

/** Opens database `name` at `version`; `upgrade` makes its stores where they are missing. A
 *  browser without IndexedDB, or another tab holding an older version open, refuses it. */
export function openDatabase(factory: IDBFactory, name: string, version: number, upgrade: (db: IDBDatabase) => void): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const open = factory.open(name, version);
    open.onupgradeneeded = () => upgrade(open.result);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error ?? new Error('IndexedDB could not be opened'));
    open.onblocked = () => reject(new Error('IndexedDB is blocked by another tab of the lab'));
  });
}
