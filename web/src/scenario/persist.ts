// The browser is asked to keep the lab's storage under pressure (without it, Chromium may evict
// IndexedDB when the disk fills) once the user has something kept there: a scenario of theirs,
// a sweep or a comparison. Asked once a page, quietly: an answer either way changes nothing the lab shows.

/** The part of `navigator.storage` this uses. */
export type PersistApi = Partial<Pick<StorageManager, 'persisted' | 'persist'>>;

/** A function that asks `storage` to persist, the first time it is called (later calls, and a
 *  browser without the API, do nothing; a refusal is not an error). */
export function persistOnce(storage: PersistApi | undefined): () => void {
  let asked = false;
  return () => {
    if (asked) return;
    asked = true;
    if (!storage?.persisted || !storage.persist) return;
    const { persisted, persist } = storage as Required<PersistApi>;
    void persisted
      .call(storage)
      .then((already) => already || persist.call(storage))
      .catch(() => {});
  };
}
