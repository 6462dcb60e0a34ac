// A comparison's results outlive the page (issue: "nothing a user made is ever lost"): kept as
// each run finishes, read back on a new page as its table at once, its runs run again for the
// charts and checked against the digests kept; a damaged record or a refused write never breaks
// the page; at most MAX_KEPT_COMPARISONS are kept.
import { IDBFactory, IDBKeyRange as FakeKeyRange } from 'fake-indexeddb';
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { WorkerPool } from '../engine/pool';
import { repoFile } from '../test/fakes';
import { InProcessBatchWorker, WASM_ENGINE } from '../test/wasmEngine';
import { CompareSession, digestMatches } from './compareSession';
import {
  AUTO_REDRAW_MAX_MS,
  CompareKeeper,
  FORGOTTEN_COMPARISON,
  IndexedDbCompareStore,
  KEPT_COMPARE_VERSION,
  MAX_KEPT_COMPARISONS,
  restoreComparison,
  unavailableCompareStore,
  type CompareStore,
  type KeptComparison,
} from './compareKeep';
import type { Place } from '../scenario/place';

vi.stubGlobal('IDBKeyRange', FakeKeyRange);

const short = (id: string, ms = 20) => {
  const doc = JSON.parse(readFileSync(repoFile(`scenarios/${id}.json`), 'utf8'));
  doc.run.duration_ms = ms;
  if (doc.run.steady_from_ms !== undefined) doc.run.steady_from_ms = ms / 2;
  return JSON.stringify(doc);
};

const PLACE: Place = { kind: 'library', id: 'two-sources' };
const KEY = 'library:two-sources';
const PLUS = [{ sets: ['nodes.SW1.algorithm=erica_plus'] }];

/** A store in memory, as IndexedDB would hold it (each record a copy). */
class MemoryStore implements CompareStore {
  readonly records = new Map<string, unknown>();
  async get(key: string) {
    return structuredClone(this.records.get(key) ?? null);
  }
  async put(record: KeptComparison) {
    this.records.set(record.key, structuredClone(record));
  }
  async remove(key: string) {
    this.records.delete(key);
  }
}

/** A page of the lab: its compare session (runs in process) and its keeper on `store`. */
function page(store: CompareStore) {
  const pool = new WorkerPool(() => new InProcessBatchWorker(WASM_ENGINE, true), 2);
  const submit = vi.spyOn(pool, 'submit');
  const session = new CompareSession(pool, (id) => short(id, 10));
  const keeper = new CompareKeeper(session, store);
  const phase = (...want: string[]) => vi.waitFor(() => expect(want).toContain(session.getState().phase), { timeout: 20_000 });
  return { session, keeper, submit, phase };
}

/** A comparison run to its end on a first page, and kept. */
async function ranAndKept(store: CompareStore) {
  const first = page(store);
  void first.session.start(short('two-sources'), PLUS, PLACE);
  await first.phase('done');
  await first.keeper.write();
  return first.session.getState();
}

describe('CompareKeeper', () => {
  it('a comparison kept as it ran reads back on a new page as its table at once, then its runs again with the same digests and their charts', async () => {
    const store = new MemoryStore();
    const before = await ranAndKept(store);
    expect(before.kept).toBe(true);
    const kept = store.records.get(KEY) as KeptComparison;
    expect(kept.version).toBe(KEPT_COMPARE_VERSION);
    expect(kept.phase).toBe('done');
    // Small: rows and digests, never the samples.
    expect(JSON.stringify(kept).length).toBeLessThan(50_000);

    const next = page(store);
    expect(await next.keeper.restore(PLACE, 'two-sources')).toBe(true);
    // At once, before any run answers: the very table.
    const shown = next.session.getState();
    expect(shown.restored).not.toBeNull();
    expect(shown.outcomes).toEqual(before.outcomes);
    expect(shown.runs.map((r) => r.label)).toEqual(before.runs.map((r) => r.label));
    expect(shown.phase).toBe('running');
    // Run again, for the charts: the same digests, each said to match.
    await next.phase('done');
    const s = next.session.getState();
    expect(s.outcomes).toEqual(before.outcomes);
    expect(s.expectedFrom).toBe('kept');
    expect(s.runs.map((_, i) => digestMatches(s, i))).toEqual([true, true]);
    expect(next.session.series.every((x) => x && x.rows.length > 0)).toBe(true);
  });

  it('a run that gives another digest than the one kept is said to differ, and the table shows the new run', async () => {
    const store = new MemoryStore();
    const before = await ranAndKept(store);
    const kept = store.records.get(KEY) as KeptComparison;
    kept.outcomes[1] = { row: '[["jain_index",0.5]]', digest: 'not-this-one' };
    const next = page(store);
    await next.keeper.restore(PLACE, 'two-sources');
    await next.phase('done');
    const s = next.session.getState();
    expect(digestMatches(s, 0)).toBe(true);
    expect(digestMatches(s, 1)).toBe(false);
    expect(s.outcomes[1]).toEqual(before.outcomes[1]);
  });

  it('a comparison cut short by the reload comes back with what finished and runs the rest only when asked', async () => {
    const store = new MemoryStore();
    const before = await ranAndKept(store);
    const kept = store.records.get(KEY) as KeptComparison;
    kept.phase = 'running';
    kept.outcomes[1] = null;
    const next = page(store);
    expect(await next.keeper.restore(PLACE, 'two-sources')).toBe(true);
    const s = next.session.getState();
    expect(s.phase).toBe('kept');
    expect(s.restored?.auto).toBe(false);
    expect(s.outcomes).toEqual([before.outcomes[0], undefined]);
    expect(next.submit).not.toHaveBeenCalled();
    next.session.redraw();
    await next.phase('done');
    expect(next.session.getState().outcomes).toEqual(before.outcomes);
    expect(digestMatches(next.session.getState(), 0)).toBe(true);
    // Finished, it is kept whole.
    await vi.waitFor(() => expect((store.records.get(KEY) as KeptComparison).outcomes.every((o) => o !== null)).toBe(true));
  });

  it('a comparison kept before its variants were made is planned again when asked', async () => {
    const store = new MemoryStore();
    await ranAndKept(store);
    const kept = store.records.get(KEY) as KeptComparison;
    kept.scenarios = [];
    kept.outcomes = [null, null];
    kept.phase = 'running';
    const next = page(store);
    await next.keeper.restore(PLACE, 'two-sources');
    expect(next.session.getState().phase).toBe('kept');
    next.session.redraw();
    expect(next.session.getState().restored).not.toBeNull();
    await next.phase('done');
    expect(next.session.getState().outcomes.every((o) => o?.ok)).toBe(true);
  });

  it('a long comparison shows its table and waits for a click to run again', async () => {
    const store = new MemoryStore();
    await ranAndKept(store);
    (store.records.get(KEY) as KeptComparison).elapsedMs = AUTO_REDRAW_MAX_MS + 1;
    const next = page(store);
    const put = vi.spyOn(store, 'put');
    await next.keeper.restore(PLACE, 'two-sources');
    expect(next.session.getState().phase).toBe('kept');
    expect(next.submit).not.toHaveBeenCalled();
    // Shown as it was read, it is not written back.
    expect(put).not.toHaveBeenCalled();
    next.session.redraw();
    await next.phase('done');
  });

  it('a damaged record shows nothing and breaks nothing; another place has none', async () => {
    const store = new MemoryStore();
    const before = await ranAndKept(store);
    const good = store.records.get(KEY) as KeptComparison;
    const damaged: unknown[] = [
      'not a record',
      42,
      { ...good, version: 99 },
      { ...good, runs: 'two' },
      { ...good, runs: [...good.runs, ...good.runs, ...good.runs] },
      { ...good, outcomes: [null] },
      { ...good, scenarios: ['only one'] },
      { ...good, drafts: [{ from: 3 }] },
      { ...good, variants: [{ sets: 'nodes.SW1.algorithm=erica_plus' }] },
      { ...good, key: 'library:three-sources' },
      { ...good, ranAtMs: 'yesterday' },
    ];
    for (const record of damaged) {
      store.records.set(KEY, record);
      const next = page(store);
      expect(await next.keeper.restore(PLACE, 'two-sources')).toBe(false);
      expect(next.session.getState().phase).toBe('idle');
    }
    // An outcome that does not read is a run not finished; the others stay.
    const one = restoreComparison({ ...good, outcomes: [good.outcomes[0], { row: 7 }] });
    expect(one?.state.outcomes).toEqual([before.outcomes[0], undefined]);
    expect(one?.finished).toBe(false);
    // A storage that fails to read shows nothing either.
    const failing: CompareStore = { ...store, get: () => Promise.reject(new Error('disk error')), put: store.put, remove: store.remove };
    expect(await page(failing).keeper.restore(PLACE, 'two-sources')).toBe(false);
    expect(await page(store).keeper.restore({ kind: 'library', id: 'three-sources' }, 'three-sources')).toBe(false);
  });

  it('a page started with a comparison of its own does not have it replaced by the one kept', async () => {
    const store = new MemoryStore();
    await ranAndKept(store);
    const next = page(store);
    void next.session.start(short('two-sources'), [{ sets: ['run.seed=2'] }], PLACE);
    expect(await next.keeper.restore(PLACE, 'two-sources')).toBe(false);
    expect(next.session.getState().restored).toBeNull();
    await next.phase('done');
  });

  it('without IndexedDB the comparison runs and says it is kept in this page only', async () => {
    const p = page(unavailableCompareStore('this browser offers no IndexedDB'));
    void p.session.start(short('two-sources'), PLUS, PLACE);
    await p.phase('done');
    await p.keeper.write();
    const s = p.session.getState();
    expect(s.kept).toBe(false);
    expect(s.unkept).toBe('These results are kept in this page only (this browser offers no IndexedDB): a reload loses them.');
  });

  it('forgotten, a comparison is no longer kept and says so; a new one is kept again', async () => {
    const store = new MemoryStore();
    await ranAndKept(store);
    const next = page(store);
    await next.keeper.restore(PLACE, 'two-sources');
    await next.phase('done');
    expect(await next.keeper.forget()).toBe(true);
    expect(store.records.has(KEY)).toBe(false);
    expect(next.session.getState().unkept).toBe(FORGOTTEN_COMPARISON);
    await next.keeper.write();
    expect(store.records.has(KEY)).toBe(false);
    void next.session.start(short('two-sources'), PLUS, PLACE);
    await next.phase('done');
    await next.keeper.write();
    expect(store.records.has(KEY)).toBe(true);
    expect(next.session.getState().unkept).toBeNull();
  });
});

describe('CompareKeeper.moved', () => {
  const MINE: Place = { kind: 'mine', id: 'abc' };

  it("the comparison shown goes with the user's copy a first change makes; the library scenario keeps its own", async () => {
    const store = new MemoryStore();
    const p = page(store);
    void p.session.start(short('two-sources'), PLUS, PLACE);
    await p.phase('done');
    await p.keeper.write();
    await p.keeper.moved(PLACE, MINE, 'two-sources');
    expect(p.session.getState().key).toBe('mine:abc');
    expect((store.records.get('mine:abc') as KeptComparison).outcomes).toEqual((store.records.get(KEY) as KeptComparison).outcomes);
    // A reload of the copy shows it.
    const next = page(store);
    expect(await next.keeper.restore(MINE, 'two-sources')).toBe(true);
  });

  it('on a page that shows none, the record kept for the place it left is copied, never over one of its own', async () => {
    const store = new MemoryStore();
    await ranAndKept(store);
    const p = page(store);
    await p.keeper.moved(PLACE, MINE, 'two-sources');
    expect((store.records.get('mine:abc') as KeptComparison).key).toBe('mine:abc');
    expect(store.records.has(KEY)).toBe(true);
    const own = { ...(store.records.get('mine:abc') as KeptComparison), notes: ['its own'] };
    store.records.set('mine:abc', own);
    await p.keeper.moved(PLACE, MINE, 'two-sources');
    expect((store.records.get('mine:abc') as KeptComparison).notes).toEqual(['its own']);
  });
});

describe('IndexedDbCompareStore', () => {
  const record = (i: number): KeptComparison => ({
    version: KEPT_COMPARE_VERSION,
    key: `library:s${i}`,
    savedMs: 1000 + i,
    ranAtMs: 1000 + i,
    phase: 'done',
    json: '{}',
    variants: [{ sets: ['run.seed=2'] }],
    drafts: [{ from: '', algorithms: {}, sets: 'run.seed=2' }],
    runs: [
      { label: 'current', json: '{}', sets: [], variant: 0 },
      { label: 'run.seed = 2', json: '{}', sets: ['run.seed=2'], variant: 1 },
    ],
    scenarios: ['{}', '{}'],
    notes: [],
    outcomes: [{ row: '[["jain_index",1.0]]', digest: 'a' }, { error: 'no memory left for this run' }],
    elapsedMs: 5,
  });

  it('writes and reads back a record whole, and a new comparison of a place replaces the last', async () => {
    const store = new IndexedDbCompareStore(new IDBFactory());
    await store.put(record(1));
    expect(await store.get('library:s1')).toEqual(record(1));
    expect(restoreComparison(await store.get('library:s1'))?.state.outcomes[1]).toEqual({ ok: false, error: 'no memory left for this run' });
    await store.put({ ...record(1), savedMs: 5000, notes: ['variant 1: later'] });
    expect((await store.get('library:s1')) as KeptComparison).toMatchObject({ savedMs: 5000, notes: ['variant 1: later'] });
    await store.remove('library:s1');
    expect(await store.get('library:s1')).toBeNull();
  });

  it(`keeps the ${MAX_KEPT_COMPARISONS} written last, the oldest going first`, async () => {
    const store = new IndexedDbCompareStore(new IDBFactory());
    for (let i = 0; i < MAX_KEPT_COMPARISONS + 3; i++) await store.put(record(i));
    const kept = [];
    for (let i = 0; i < MAX_KEPT_COMPARISONS + 3; i++) kept.push((await store.get(`library:s${i}`)) !== null);
    expect(kept).toEqual([false, false, false, ...new Array(MAX_KEPT_COMPARISONS).fill(true)]);
    // A smaller cap, asked for: the three newest.
    await store.put(record(99), 3);
    expect(await store.get('library:s11')).not.toBeNull();
    expect(await store.get('library:s10')).toBeNull();
  });

  it('lets a record that does not read go before the oldest that does', async () => {
    const store = new IndexedDbCompareStore(new IDBFactory());
    await store.put(record(0), 2);
    // Damaged (no runs), and written later than the first.
    await store.put({ ...record(1), runs: [] }, 2);
    await store.put(record(2), 2);
    expect(await store.get('library:s0')).not.toBeNull();
    expect(await store.get('library:s1')).toBeNull();
    expect(await store.get('library:s2')).not.toBeNull();
  });
});
