// Tabs share the lab's IndexedDB databases: a tab opening a newer version (a newer lab after a
// deploy) must not be blocked for ever by this one, and this one must neither lose a write nor
// stay broken after (fake-indexeddb: several connections of one factory are several tabs).
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { IndexedDbScenarioStore } from './myScenarios';
import { evictedKeys, HELD_ELSEWHERE, NEWER_ELSEWHERE, openDatabase, request, storeOr, UNAVAILABLE } from './indexedDb';

/** Another tab opening `name` at `version` (its upgrade makes nothing new): its connection, or
 *  'blocked' when it is still waiting after `ms`. */
function otherTab(factory: IDBFactory, name: string, version: number, ms = 500): Promise<IDBDatabase | 'blocked'> {
  return new Promise((resolve, reject) => {
    const open = factory.open(name, version);
    const t = setTimeout(() => resolve('blocked'), ms);
    open.onsuccess = () => (clearTimeout(t), resolve(open.result));
    open.onerror = () => (clearTimeout(t), reject(open.error));
  });
}

const one = { id: 'x', name: 'X', updatedMs: 1, json: '{"a":1}' };

describe('an IndexedDB database shared with other tabs', () => {
  it('lets another tab upgrade it (the connection closes on versionchange) and then refuses writes, saying why', async () => {
    const factory = new IDBFactory();
    const store = new IndexedDbScenarioStore(factory);
    await store.put(one);
    const newer = await otherTab(factory, 'abrlab', 2);
    expect(newer).not.toBe('blocked');
    // What this tab kept is there for the newer one.
    const kept = await request((newer as IDBDatabase).transaction('scenarios').objectStore('scenarios').get('x'));
    expect(kept).toMatchObject(one);
    // This tab's version is the older now: its write is refused with the reason (the lab then
    // keeps the change in Web Storage, as for any refused write).
    await expect(store.put({ ...one, json: '{"a":2}' })).rejects.toThrow(NEWER_ELSEWHERE);
    (newer as IDBDatabase).close();
  });

  it('opens the database again on the next use after letting it go: the write lands', async () => {
    const factory = new IDBFactory();
    const store = new IndexedDbScenarioStore(factory);
    await store.put(one);
    // Another tab deletes the database (site data cleared there): a versionchange too.
    const deleted = new Promise<'deleted' | 'blocked'>((resolve) => {
      const r = factory.deleteDatabase('abrlab');
      const t = setTimeout(() => resolve('blocked'), 500);
      r.onsuccess = () => (clearTimeout(t), resolve('deleted'));
    });
    expect(await deleted).toBe('deleted');
    expect(await store.put({ ...one, json: '{"a":2}' })).toBe('kept');
    expect((await store.get('x'))!.json).toBe('{"a":2}');
  });

  it('a write asked for as another tab upgrades still lands before this connection goes', async () => {
    const factory = new IDBFactory();
    const store = new IndexedDbScenarioStore(factory);
    await store.list(); // open
    const writing = store.put({ ...one, json: '{"a":3}' });
    const newer = otherTab(factory, 'abrlab', 2);
    const answer = await writing.then(
      (a) => a,
      (e: Error) => e.message,
    );
    const db = await newer;
    expect(db).not.toBe('blocked');
    const kept = await request((db as IDBDatabase).transaction('scenarios').objectStore('scenarios').get('x'));
    // Landed, or refused with the reason (then kept in Web Storage by the lab): never lost unsaid.
    if (answer === 'kept') expect(kept).toMatchObject({ json: '{"a":3}' });
    else expect(answer).toBe(NEWER_ELSEWHERE);
    (db as IDBDatabase).close();
  });

  it('an upgrade held up by a tab that never lets go gives up after a while, saying why, and leaves nothing open', async () => {
    const factory = new IDBFactory();
    const old = await otherTab(factory, 'held', 1);
    expect(old).not.toBe('blocked'); // an older lab: no versionchange handler, never closes
    const opening = openDatabase(factory, 'held', 2, () => {}, { blockedMs: 50 });
    await expect(opening).rejects.toThrow(HELD_ELSEWHERE);
    // The old tab goes; the open that waited completes, and is let go at once, unused: a later
    // upgrade is not held up by it.
    (old as IDBDatabase).close();
    expect(await otherTab(factory, 'held', 3)).not.toBe('blocked');
  });
});

describe('what the stores share', () => {
  it('a browser without IndexedDB, or with it turned off, gets the store that keeps nothing, told why', () => {
    const made = (why: string) => `none: ${why}`;
    expect(storeOr(() => 'kept', made, {})).toBe('none: this browser offers no IndexedDB');
    const off = {
      get indexedDB(): IDBFactory {
        throw new Error('SecurityError');
      },
    };
    expect(storeOr(() => 'kept', made, off)).toBe('none: IndexedDB is turned off: SecurityError');
    expect(storeOr((f) => (f instanceof IDBFactory ? 'kept' : 'wrong'), made, { indexedDB: new IDBFactory() })).toBe('kept');
    expect(UNAVAILABLE).toBe('Unavailable');
  });

  it('evicts the lowest rank first, the oldest first within it, never the record written, and keeps one at least', () => {
    const kept = [
      { key: 'new-done', rank: 1, age: 30 },
      { key: 'old-done', rank: 1, age: 10 },
      { key: 'damaged', rank: 0, age: 50 },
      { key: 'writing', rank: 0, age: 0 },
    ];
    expect(evictedKeys(kept, 'writing', 2)).toEqual(['damaged', 'old-done']);
    expect(evictedKeys(kept, 'writing', 4)).toEqual([]);
    expect(evictedKeys(kept, 'writing', 0)).toEqual(['damaged', 'old-done', 'new-done']);
  });
});
