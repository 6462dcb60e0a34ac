// A sweep's results outlive the page (issue: "nothing a user made is ever lost"): kept in
// IndexedDB (fake-indexeddb here, the real store) as they come, read back on a new page as they
// were shown, a sweep cut short by a reload as interrupted; a damaged record, a refused write or
// a full store never breaks the sweep; the last of each scenario, at most five, are kept.
import { IDBFactory, IDBKeyRange as FakeKeyRange, IDBObjectStore as FakeObjectStore } from 'fake-indexeddb';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PlanInfo } from '../contract/engine';
import { WorkerPool, type JobLane } from '../engine/pool';
import type { BatchJob, JobAnswer } from '../engine/batchProtocol';
import { repoFile } from '../test/fakes';
import { InProcessBatchWorker, pumpedPool, WASM_ENGINE } from '../test/wasmEngine';
import { SweepSession } from './sweep';
import {
  assembled,
  FORGOTTEN,
  IndexedDbSweepStore,
  KEPT_SWEEP_VERSION,
  keptSweep,
  restoreKept,
  rowText,
  SweepKeeper,
  sweepKey,
  sweepVaries,
  tabVaries,
  unavailableSweepStore,
  type KeeperOptions,
  type KeptHeader,
  type KeptSweep,
  type KeptWrite,
  type SweepLocks,
  type SweepStore,
  webLocks,
} from './sweepKeep';
import { parseRow, pointTable, sweepCsv } from './sweepTable';
import type { SweepDraft } from './sweepBuilder';
import { ENGINE_CATALOGUE } from '../test/engineCatalogue';

// The browser's global, as the store uses it.
vi.stubGlobal('IDBKeyRange', FakeKeyRange);

function sweepJson(id = 'fecn-n0-sweep') {
  const doc = JSON.parse(readFileSync(repoFile(`scenarios/${id}.json`), 'utf8'));
  doc.run.duration_ms = 20;
  doc.run.steady_from_ms = 10;
  return JSON.stringify(doc);
}

/** A page of the lab: its sweep session (runs in process) and its keeper on `store`. */
function page(store: SweepStore, opts: KeeperOptions = {}) {
  const pool = new WorkerPool(() => new InProcessBatchWorker(WASM_ENGINE, true), 2);
  const session = new SweepSession(pool, vi.fn(), undefined, undefined, undefined, () => 1_764_460_800_000);
  const keeper = new SweepKeeper(session, store, opts);
  const settled = () => vi.waitFor(() => expect(['done', 'refused', 'cancelled']).toContain(session.getState().phase), { timeout: 10_000 });
  return { pool, session, keeper, settled };
}

const PLAN: PlanInfo = {
  runs: 2,
  points: 2,
  seeds: 1,
  params: [{ column: 'n0', values: [1, 10] }],
  metrics: [],
  header: ['n0', 'seed', 'jain_index', 'digest'],
  seed_param: null,
  notes: [],
};

/** Where a scenario opened from a file is (its kept sweeps are under `scenario:<id>`). */
const at = (scenarioId: string, varies?: string) => ({ place: { kind: 'none' as const }, scenarioId, varies });

/** A kept sweep of `scenarioId` written at `savedMs`, of two runs (one finished). */
function record(scenarioId: string, savedMs: number, varies = ''): KeptSweep {
  const place = `scenario:${scenarioId}`;
  return {
    version: KEPT_SWEEP_VERSION,
    key: sweepKey(place, varies, savedMs),
    place,
    varies,
    scenarioId,
    savedMs,
    state: { phase: 'done', madeBy: 'block', scenarioId, origin: scenarioId, json: '{}', sourceJson: '{}', firstSeed: 1, plan: PLAN, finished: 2, failed: 0, elapsedMs: 5, workers: 1, ranAtMs: savedMs },
    outcomes: [{ row: '[["jain_index",1.0],["digest","ab"]]', digest: 'ab', wallMs: 3 }, { error: 'no memory left for this run' }],
  };
}

/** A whole record as one write of it (a header and one chunk of all its rows). */
function whole(r: KeptSweep): KeptWrite {
  const { outcomes, ...header } = r;
  return {
    key: r.key!,
    header: header as KeptHeader,
    chunk: { key: r.key!, seq: 0, ranAtMs: r.state.ranAtMs, runs: outcomes.map((_, i) => i), outcomes },
  };
}

/** What a write keeps, read back whole (as the store puts a header and its chunks together). */
const asRead = (w: KeptWrite) => assembled(w.header, w.chunk ? [w.chunk] : []);

/** The sweep kept for a scenario opened from a file, read back whole (null: none). */
async function keptOf(store: SweepStore, scenarioId: string): Promise<unknown> {
  const info = (await store.list()).find((i) => i.scenarioId === scenarioId);
  return info ? store.get(info.key) : null;
}

/** A store that reads nothing back and writes with `put`. */
function writeOnly(put: SweepStore['put']): SweepStore {
  return { get: async () => null, latest: async () => null, list: async () => [], put, remove: async () => {} };
}

describe('a kept sweep', () => {
  it('reads back on a new page as it was shown: the same table, the same CSV, said to be from before', async () => {
    const db = new IDBFactory();
    const first = page(new IndexedDbSweepStore(db));
    await first.session.start(sweepJson(), 'fecn-n0-sweep');
    await first.settled();
    await first.keeper.write();
    const before = first.session.getState();

    const next = page(new IndexedDbSweepStore(db));
    expect(await next.keeper.restore(at('fecn-n0-sweep'))).toBe(true);
    const s = next.session.getState();
    expect(s).toMatchObject({ phase: 'done', restored: true, scenarioId: 'fecn-n0-sweep', origin: 'fecn-n0-sweep', finished: 3, failed: 0, ranAtMs: 1_764_460_800_000 });
    expect([s.json, s.sourceJson, s.plan, s.firstSeed, s.elapsedMs, s.workers]).toEqual([before.json, before.sourceJson, before.plan, before.firstSeed, before.elapsedMs, before.workers]);
    expect(next.session.outcomes).toEqual(first.session.outcomes);
    expect(pointTable(s.plan!, next.session.outcomes, s.firstSeed)).toEqual(pointTable(before.plan!, first.session.outcomes, before.firstSeed));
    expect(sweepCsv(s.plan!, next.session.outcomes, s.firstSeed)).toBe(sweepCsv(before.plan!, first.session.outcomes, before.firstSeed));
    // Its runs open as before (the engine makes the run's scenario from the kept text).
    await next.session.openRun(2);
  });

  it('keeps what finished while it runs: a page gone mid-sweep reads back as interrupted, with those runs', async () => {
    const db = new IDBFactory();
    const { pool, workers } = pumpedPool();
    const session = new SweepSession(pool, vi.fn());
    const store = new IndexedDbSweepStore(db);
    new SweepKeeper(session, store, { everyMs: 0 });
    const started = session.start(sweepJson('fecn-delay-sweep'), 'fecn-delay-sweep');
    workers[0].pump();
    await started;
    workers[0].pump();
    await vi.waitFor(() => expect(session.getState().finished).toBe(1));
    const runs = session.getState().plan!.runs;
    await vi.waitFor(async () => expect(restoreKept(await keptOf(store, 'fecn-delay-sweep'))?.state.finished).toBe(1));
    // The page goes away here, the sweep still running.
    const next = page(new IndexedDbSweepStore(db));
    expect(await next.keeper.restore(at('fecn-delay-sweep'))).toBe(true);
    const s = next.session.getState();
    expect([s.phase, s.finished, s.plan!.runs]).toEqual(['interrupted', 1, runs]);
    expect(next.session.outcomes.filter((o) => o !== undefined)).toEqual(session.outcomes.filter((o) => o !== undefined));
    // Run it again: a sweep that runs replaces it on the page, and is kept beside it.
    await next.session.start(sweepJson('fecn-delay-sweep'), 'fecn-delay-sweep');
    await next.settled();
    await next.keeper.write();
    expect(next.session.getState()).toMatchObject({ phase: 'done', restored: false, finished: runs });
    const kept = await Promise.all((await store.list()).map(async (i) => restoreKept(await store.get(i.key))?.state));
    expect(kept.map((k) => [k?.phase, k?.finished]).sort()).toEqual([
      ['done', runs],
      ['interrupted', 1],
    ]);
  });

  it('is written at a pace while it runs, not at every run, and at once when cancelled', async () => {
    const { pool, workers } = pumpedPool();
    const session = new SweepSession(pool, vi.fn());
    const puts: KeptWrite[] = [];
    const store: SweepStore = writeOnly(async (r) => void puts.push(r));
    new SweepKeeper(session, store, { everyMs: 60_000 });
    const started = session.start(sweepJson('fecn-delay-sweep'), 'fecn-delay-sweep');
    workers[0].pump();
    await started;
    for (let n = 1; n <= 2; n++) {
      workers[0].pump();
      await vi.waitFor(() => expect(session.getState().finished).toBe(n));
    }
    expect(puts.length).toBe(0);
    session.cancel();
    await vi.waitFor(() => expect(puts.length).toBe(1));
    expect(restoreKept(asRead(puts[0]))?.state).toMatchObject({ phase: 'cancelled', finished: 2 });
  });

  it('shows the open scenario\'s own, else (on a new page) the last of any; none when none is kept', async () => {
    const store = new IndexedDbSweepStore(new IDBFactory());
    const { session, keeper } = page(store);
    expect(await keeper.restore(at('two-sources'), true)).toBe(false);
    expect(session.getState().phase).toBe('idle');
    await store.put(whole(record('a', 1)));
    await store.put(whole(record('b', 2)));
    expect(await keeper.restore(at('two-sources'))).toBe(false);
    expect(await keeper.restore(at('two-sources'), true)).toBe(true);
    expect(session.getState().scenarioId).toBe('b');
    expect(await keeper.restore(at('a'))).toBe(true);
    expect(session.getState()).toMatchObject({ scenarioId: 'a', finished: 2, failed: 1, restored: true });
    // Shown again, it is not written again (nothing changed).
    expect(((await keptOf(store, 'a')) as KeptSweep).savedMs).toBe(1);
  });

  it('a sweep started while the kept one is read wins over it', async () => {
    const store = new IndexedDbSweepStore(new IDBFactory());
    await store.put(whole(record('fecn-n0-sweep', 1)));
    const { session, keeper, settled } = page(store);
    const restoring = keeper.restore(at('fecn-n0-sweep'));
    const started = session.start(sweepJson(), 'fecn-n0-sweep');
    expect(await restoring).toBe(false);
    await started;
    await settled();
    expect(session.getState()).toMatchObject({ restored: false, finished: 3 });
  });

  it('a damaged, old or missing record shows nothing; a damaged outcome is a run not finished', async () => {
    expect(restoreKept(null)).toBeNull();
    expect(restoreKept('text')).toBeNull();
    expect(restoreKept({ ...record('a', 1), version: 99 })).toBeNull();
    expect(restoreKept({ ...record('a', 1), outcomes: [null] })).toBeNull();
    expect(restoreKept({ ...record('a', 1), state: { ...record('a', 1).state, plan: { ...PLAN, points: 3 } } })).toBeNull();
    expect(restoreKept({ ...record('a', 1), state: { ...record('a', 1).state, json: 7 } })).toBeNull();
    expect(restoreKept({ ...record('a', 1), state: { ...record('a', 1).state, phase: 'refused' } })).toBeNull();
    const half = restoreKept({ ...record('a', 1), outcomes: [{ row: 5 }, { error: 'x' }] })!;
    expect(half.outcomes[0]).toBeUndefined();
    // Said done, with a run missing: what it is, a sweep that did not end.
    expect(half.state).toMatchObject({ phase: 'interrupted', finished: 1, failed: 1 });

    const store = new IndexedDbSweepStore(new IDBFactory());
    await store.put({ ...whole(record('a', 1)), chunk: null });
    await store.put({ ...whole(record('b', 2)), header: { ...whole(record('b', 2)).header!, state: { ...record('b', 2).state, plan: { ...PLAN, runs: 3 } } } });
    const { session, keeper } = page(store);
    expect(await keeper.restore(at('b'), true)).toBe(false);
    expect(session.getState().phase).toBe('idle');
    // A storage that fails to read: nothing shown, nothing thrown.
    const failing: SweepStore = { get: () => Promise.reject(new Error('gone')), latest: () => Promise.reject(new Error('gone')), list: () => Promise.reject(new Error('gone')), put: () => Promise.resolve(), remove: async () => {} };
    expect(await page(failing).keeper.restore(at('a'), true)).toBe(false);
  });

  it('a refused write leaves the sweep running to its end, with a quiet note; a later write that works takes the note away', async () => {
    const put = FakeObjectStore.prototype.put;
    FakeObjectStore.prototype.put = () => {
      throw new DOMException('quota', 'QuotaExceededError');
    };
    const store = new IndexedDbSweepStore(new IDBFactory());
    try {
      const { session, keeper, settled } = page(store, { everyMs: 0 });
      await session.start(sweepJson(), 'fecn-n0-sweep');
      await settled();
      await keeper.write();
      expect(session.getState()).toMatchObject({ phase: 'done', finished: 3, failed: 0 });
      expect(session.getState().unkept).toBe('These results could not be kept in the browser (the browser’s storage is full): a reload loses them.');
      expect(await keptOf(store, 'fecn-n0-sweep')).toBeNull();
      FakeObjectStore.prototype.put = put;
      await keeper.write();
      expect(session.getState().unkept).toBeNull();
      expect(restoreKept(await keptOf(store, 'fecn-n0-sweep'))?.state.finished).toBe(3);
    } finally {
      FakeObjectStore.prototype.put = put;
    }
    // A store that rejects every write, as a promise.
    const refusing: SweepStore = writeOnly(() => Promise.reject(new Error('IndexedDB write aborted')));
    const { session, keeper, settled } = page(refusing);
    await session.start(sweepJson(), 'fecn-n0-sweep');
    await settled();
    await keeper.write();
    expect(session.getState()).toMatchObject({ phase: 'done', finished: 3 });
    expect(session.getState().unkept).toContain('IndexedDB write aborted');
    // Shown only here, they stay shown when another scenario with a kept sweep opens.
    const elsewhere: SweepStore = { ...refusing, get: async () => record('two-sources', 1), list: async () => [{ key: record('two-sources', 1).key!, place: 'scenario:two-sources', varies: '', scenarioId: 'two-sources', savedMs: 1, ranAtMs: 1, columns: ['n0'], phase: 'done', runs: 2 }] };
    const shown = page(elsewhere);
    await shown.session.start(sweepJson(), 'fecn-n0-sweep');
    await shown.settled();
    await shown.keeper.write();
    expect(await shown.keeper.restore(at('two-sources'))).toBe(false);
    expect(shown.session.getState()).toMatchObject({ scenarioId: 'fecn-n0-sweep', finished: 3 });
  });

  it('keeps the newest sweeps, five at most here: the oldest go', async () => {
    const store = new IndexedDbSweepStore(new IDBFactory());
    for (let i = 1; i <= 7; i++) await store.put(whole(record(`s${i}`, i)), 5);
    // A new sweep of a scenario is kept beside its last (the newest of them shown first).
    await store.put(whole(record('s7', 8)), 5);
    const kept = await Promise.all([1, 2, 3, 4, 5, 6, 7].map((i) => keptOf(store, `s${i}`)));
    expect(kept.map((r) => (r as KeptSweep | null)?.savedMs ?? null)).toEqual([null, null, null, 4, 5, 6, 8]);
    expect((await store.list()).map((i) => `${i.scenarioId}@${i.ranAtMs}`)).toEqual(['s7@8', 's7@7', 's6@6', 's5@5', 's4@4']);
    expect(((await store.latest()) as KeptSweep).scenarioId).toBe('s7');
    await store.put(whole(record('s1', 9)), 2);
    expect(await Promise.all(['s1', 's5', 's6', 's7'].map(async (id) => !!(await keptOf(store, id))))).toEqual([true, false, false, true]);
  });

  it('a run\'s row is kept as the engine wrote it: 1.0 stays 1.0, names with quotes read back', () => {
    const row = '[["jain_index",1.0],["link.\\"L4\\".throughput_mbps",-2.5e-3],["label",null],["digest","00ff"]]';
    const cells = parseRow(row);
    expect(rowText(cells)).toBe(row);
    expect(parseRow(rowText(cells))).toEqual(cells);
    const s = keptSweep(
      { ...record('a', 1).state, madeBy: 'block', version: 1, problems: null, message: null, restored: false, unkept: null, runningInOtherTab: false },
      [{ ok: true, cells, digest: '00ff', wallMs: 1 }, undefined],
      2,
    );
    expect(s.outcomes).toEqual([{ row, digest: '00ff', wallMs: 1 }, null]);
  });
});

/** A pool that plans `runs` runs (one parameter `x`) and finishes each run when told (`finish`). */
function manualPool(runs: number, tag = '') {
  const plan: PlanInfo = { ...PLAN, runs, points: runs, params: [{ column: 'x', values: Array.from({ length: runs }, (_, i) => i) }], header: ['x', 'seed', 'jain_index', 'digest'] };
  const waiting: ((a: JobAnswer) => void)[] = [];
  const pool: JobLane = {
    size: 2,
    cancel: () => undefined,
    submit: (job: BatchJob) =>
      job.type === 'plan' ? Promise.resolve({ type: 'plan', json: JSON.stringify({ plan }) } as JobAnswer) : new Promise<JobAnswer>((resolve) => (waiting[(job as { index: number }).index] = resolve)),
  };
  const finish = (i: number) => waiting[i]({ type: 'run', row: `[["jain_index",${i}],["digest","d${tag}${i}"]]`, digest: `d${tag}${i}`, events: 1, wallMs: 1 } as JobAnswer);
  return { pool, finish };
}

/** The number of chunk records kept in the sweep store's database. */
async function chunkCount(store: IndexedDbSweepStore): Promise<number> {
  const db = await store.db.open();
  return new Promise((resolve) => {
    const r = db.transaction('rows').objectStore('rows').count();
    r.onsuccess = () => resolve(r.result);
  });
}

describe('a kept sweep, in chunks', () => {
  it('each write sends only the rows finished since the last write that landed; a refused write\'s go with the next', async () => {
    const { pool, finish } = manualPool(6);
    const session = new SweepSession(pool, vi.fn());
    const writes: KeptWrite[] = [];
    let refuse = false;
    const store: SweepStore = writeOnly(async (w) => {
      if (refuse) throw new Error('IndexedDB write aborted');
      writes.push(w);
    });
    const keeper = new SweepKeeper(session, store, { everyMs: 60_000 });
    await session.start('{"id":"x"}', 'x');
    finish(0);
    finish(1);
    await vi.waitFor(() => expect(session.getState().finished).toBe(2));
    await keeper.write();
    refuse = true;
    finish(2);
    await vi.waitFor(() => expect(session.getState().finished).toBe(3));
    await keeper.write();
    refuse = false;
    finish(4);
    await vi.waitFor(() => expect(session.getState().finished).toBe(4));
    await keeper.write();
    expect(writes.map((w) => [w.header?.state.phase ?? null, w.chunk?.seq, w.chunk?.runs])).toEqual([
      ['running', 0, [0, 1]],
      [null, 1, [2, 4]],
    ]);
    // Nothing new: nothing written.
    await keeper.write();
    expect(writes.length).toBe(2);
  });

  it('a sweep written in many chunks reads back exactly: the same outcomes, the same CSV byte for byte', async () => {
    const factory = new IDBFactory();
    const { pool, workers } = pumpedPool();
    const session = new SweepSession(pool, vi.fn());
    const store = new IndexedDbSweepStore(factory);
    const keeper = new SweepKeeper(session, store, { everyMs: 60_000 });
    const started = session.start(sweepJson('fecn-delay-sweep'), 'fecn-delay-sweep');
    workers[0].pump();
    await started;
    const runs = session.getState().plan!.runs;
    for (let n = 1; n <= runs; n++) {
      workers[0].pump();
      await vi.waitFor(() => expect(session.getState().finished).toBe(n));
      if (n % 3 === 0 || n === runs) await keeper.write();
    }
    expect(await chunkCount(store)).toBe(Math.ceil(runs / 3));
    const next = page(new IndexedDbSweepStore(factory));
    expect(await next.keeper.restore(at('fecn-delay-sweep'))).toBe(true);
    const s = next.session.getState();
    expect(s).toMatchObject({ phase: 'done', finished: runs });
    expect(next.session.outcomes).toEqual(session.outcomes);
    const live = session.getState();
    expect(sweepCsv(s.plan!, next.session.outcomes, s.firstSeed)).toBe(sweepCsv(live.plan!, session.outcomes, live.firstSeed));
  });

  it('a new sweep of the same thing is kept beside the last, rows and all; a sweep evicted takes its chunks with it', async () => {
    const store = new IndexedDbSweepStore(new IDBFactory());
    await store.put(whole(record('a', 1)));
    await store.put(whole(record('b', 2)));
    expect(await chunkCount(store)).toBe(2);
    // a again, a new sweep: its first write (no rows yet) leaves the last one's as they were.
    const again = whole(record('a', 3));
    await store.put({ ...again, chunk: null });
    expect(await chunkCount(store)).toBe(2);
    const [newer, , older] = await store.list();
    expect([newer.scenarioId, newer.ranAtMs, older.scenarioId, older.ranAtMs]).toEqual(['a', 3, 'a', 1]);
    expect(restoreKept(await store.get(newer.key))?.state.finished).toBe(0);
    expect(restoreKept(await store.get(older.key))?.state.finished).toBe(2);
    // One kept at most: the others go, with their rows.
    await store.put(whole(record('c', 4)), 1);
    expect(await chunkCount(store)).toBe(1);
    expect((await store.list()).map((i) => i.scenarioId)).toEqual(['c']);
  });

  it('a chunk of another run of the sweep (left by another tab) is passed over', () => {
    const w = whole(record('a', 1));
    const stale = { ...w.chunk!, seq: 1, ranAtMs: 99, runs: [1], outcomes: [{ row: '[["digest","zz"]]', digest: 'zz', wallMs: 1 }] };
    expect(restoreKept(assembled(w.header, [stale, w.chunk]))?.outcomes).toEqual(restoreKept(record('a', 1))?.outcomes);
  });
});

describe('a kept sweep of version 1 (one whole record by scenario id)', () => {
  /** As the lab of version 1 kept it (frozen). */
  const V1 = {
    version: 1,
    scenarioId: 'fecn-n0-sweep',
    savedMs: 1_764_460_800_500,
    state: {
      phase: 'running',
      scenarioId: 'fecn-n0-sweep',
      origin: 'fecn-n0-sweep',
      json: '{"id":"fecn-n0-sweep","sweep":{"vary":[{"name":"n0","paths":["nodes.SW1.params.n0"],"values":[1,10]}]}}',
      sourceJson: '{"id":"fecn-n0-sweep"}',
      firstSeed: 1,
      plan: PLAN,
      finished: 1,
      failed: 0,
      elapsedMs: 40,
      workers: 2,
      ranAtMs: 1_764_460_800_000,
    },
    outcomes: [{ row: '[["n0",1],["seed",1],["jain_index",1.0],["digest","ab"]]', digest: 'ab', wallMs: 3 }, null],
  };

  it('is moved into the header and chunk stores by the upgrade, and reads back as it was', async () => {
    const factory = new IDBFactory();
    await new Promise<void>((resolve) => {
      const open = factory.open('abrlab-sweeps', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('sweeps', { keyPath: 'scenarioId' }).createIndex('savedMs', 'savedMs');
      open.onsuccess = () => {
        const tx = open.result.transaction('sweeps', 'readwrite');
        tx.objectStore('sweeps').put(V1);
        tx.oncomplete = () => (open.result.close(), resolve());
      };
    });
    const store = new IndexedDbSweepStore(factory);
    const [info] = await store.list();
    expect(info).toMatchObject({ place: 'scenario:fecn-n0-sweep', varies: 'nodes.SW1.params.n0', columns: ['n0'], phase: 'interrupted', runs: 2 });
    expect([...(await store.db.open()).objectStoreNames].sort()).toEqual(['kept', 'rows']);
    const { session, keeper } = page(store);
    // Opened from the library now: found by its scenario id.
    expect(await keeper.restore({ place: { kind: 'library', id: 'fecn-n0-sweep' }, scenarioId: 'fecn-n0-sweep' })).toBe(true);
    const before = restoreKept(V1)!;
    expect(session.getState()).toMatchObject({ phase: 'interrupted', finished: 1, ranAtMs: V1.state.ranAtMs });
    expect(session.outcomes).toEqual(before.outcomes);
    expect(sweepCsv(PLAN, session.outcomes, 1)).toBe(sweepCsv(PLAN, before.outcomes, 1));
  });
});

describe('a kept sweep of version 2 (a header by place and what it varies, its rows in chunks)', () => {
  /** As the lab of version 2 kept it (frozen): a header, its two chunks, and a chunk left over
   *  by an earlier run under the same key. */
  const KEY = 'library:fecn-n0-sweep\u0000nodes.SW1.params.n0';
  const HEADER = {
    version: 2,
    key: KEY,
    place: 'library:fecn-n0-sweep',
    varies: 'nodes.SW1.params.n0',
    scenarioId: 'fecn-n0-sweep',
    savedMs: 1_764_460_801_000,
    state: {
      phase: 'done',
      scenarioId: 'fecn-n0-sweep',
      origin: 'fecn-n0-sweep',
      json: '{"id":"fecn-n0-sweep","sweep":{"vary":[{"name":"n0","paths":["nodes.SW1.params.n0"],"values":[1,10]}]}}',
      sourceJson: '{"id":"fecn-n0-sweep","sweep":{"vary":[{"name":"n0","paths":["nodes.SW1.params.n0"],"values":[1,10]}]}}',
      firstSeed: 1,
      plan: PLAN,
      finished: 2,
      failed: 0,
      elapsedMs: 40,
      workers: 2,
      ranAtMs: 1_764_460_800_000,
    },
  };
  const ROW = (n: number) => ({ row: `[["n0",${n}],["seed",1],["jain_index",1.0],["digest","ab${n}"]]`, digest: `ab${n}`, wallMs: 3 });
  const CHUNKS = [
    { key: KEY, seq: 0, ranAtMs: 1_764_460_800_000, runs: [0], outcomes: [ROW(1)] },
    { key: KEY, seq: 1, ranAtMs: 1_764_460_800_000, runs: [1], outcomes: [ROW(10)] },
    { key: KEY, seq: 2, ranAtMs: 1_700_000_000_000, runs: [1], outcomes: [ROW(99)] },
  ];

  it('is moved under a key with its start by the upgrade, its rows with it, and reads back as it was', async () => {
    const factory = new IDBFactory();
    await new Promise<void>((resolve) => {
      const open = factory.open('abrlab-sweeps', 2);
      open.onupgradeneeded = () => {
        open.result.createObjectStore('kept', { keyPath: 'key' }).createIndex('savedMs', 'savedMs');
        open.result.createObjectStore('rows', { keyPath: ['key', 'seq'] });
      };
      open.onsuccess = () => {
        const tx = open.result.transaction(['kept', 'rows'], 'readwrite');
        tx.objectStore('kept').put(HEADER);
        for (const c of CHUNKS) tx.objectStore('rows').put(c);
        tx.oncomplete = () => (open.result.close(), resolve());
      };
    });
    const before = restoreKept(assembled(HEADER, CHUNKS))!;
    expect(before.outcomes.map((o) => o?.ok && o.digest)).toEqual(['ab1', 'ab10']);
    const store = new IndexedDbSweepStore(factory);
    const [info, ...others] = await store.list();
    expect(others).toEqual([]);
    expect(info).toMatchObject({ key: sweepKey(HEADER.place, HEADER.varies, HEADER.state.ranAtMs), place: HEADER.place, varies: HEADER.varies, ranAtMs: HEADER.state.ranAtMs, phase: 'done' });
    const after = restoreKept(await store.get(info.key))!;
    expect(after.state).toEqual({ ...before.state, madeBy: 'block' });
    expect(after.outcomes).toEqual(before.outcomes);
    // The leftover chunk of the earlier run is gone; nothing is left under the old key.
    expect(await chunkCount(store)).toBe(2);
    expect(await store.get(KEY)).toBeNull();
  });

  it('says what made it as the lab can tell: the scenario as it was is its block, the algorithms else the form', () => {
    const block = restoreKept(assembled(HEADER, CHUNKS))!.state.madeBy;
    const algorithms = restoreKept(assembled({ ...HEADER, state: { ...HEADER.state, sourceJson: '{"id":"fecn-n0-sweep"}', json: '{"sweep":{"vary":[{"paths":["nodes.*.algorithm"],"values":["fecn","none"]}]}}' } }, CHUNKS))?.state.madeBy;
    const form = restoreKept(assembled({ ...HEADER, state: { ...HEADER.state, sourceJson: '{"id":"fecn-n0-sweep"}' } }, CHUNKS))!.state.madeBy;
    expect([block, algorithms, form]).toEqual(['block', 'algorithms', 'form']);
  });
});

const LIB = { kind: 'library' as const, id: 'fecn-n0-sweep' };
/** The scenario with its sweep block varying the switch algorithm instead. */
const algorithms = () => {
  const doc = JSON.parse(sweepJson());
  doc.sweep = { vary: [{ name: 'algorithm', paths: ['nodes.*.algorithm'], values: ['fecn', 'none'] }], metrics: ['jain_index'] };
  return JSON.stringify(doc);
};

/** A browser that kept two sweeps of fecn-n0-sweep from its library place: its block's (n0),
 *  then one of its switch algorithms; `first`, the page that ran them. */
async function keptBoth() {
  const factory = new IDBFactory();
  const first = page(new IndexedDbSweepStore(factory), { place: () => LIB });
  await first.session.start(sweepJson(), 'fecn-n0-sweep');
  await first.settled();
  await first.keeper.write();
  await first.session.start(algorithms(), 'fecn-n0-sweep', sweepJson());
  await first.settled();
  await first.keeper.write();
  return { factory, first };
}

describe('kept sweeps of one scenario', () => {
  it('are kept apart by what they vary: a block sweep and an algorithm sweep of one scenario are both there to show', async () => {
    const { factory, first } = await keptBoth();
    const algorithmCsv = sweepCsv(first.session.getState().plan!, first.session.outcomes, 1);

    const next = page(new IndexedDbSweepStore(factory));
    // The Sweep tab is about to run the scenario's block (n0): that one shows, though older.
    expect(await next.keeper.restore({ place: LIB, scenarioId: 'fecn-n0-sweep', varies: sweepVaries(sweepJson()) }, true)).toBe(true);
    expect(next.session.getState().plan!.params.map((p) => p.column)).toEqual(['n0']);
    const offered = next.keeper.getState();
    expect(offered.place).toBe('library:fecn-n0-sweep');
    expect(offered.kept.map((k) => k.columns)).toEqual([['algorithm'], ['n0']]);
    // The other is a click away.
    expect(await next.keeper.show(offered.kept[0].key)).toBe(true);
    const s = next.session.getState();
    expect(sweepCsv(s.plan!, next.session.outcomes, s.firstSeed)).toBe(algorithmCsv);
    // A sweep run here is offered as soon as its first write lands (beside one kept before
    // places were, by scenario id alone).
    await next.session.start(sweepJson(), 'fecn-n0-sweep');
    await next.settled();
    await next.keeper.write();
    await vi.waitFor(() => expect(next.keeper.getState().kept.map((k) => k.place)).toEqual(['scenario:fecn-n0-sweep', 'library:fecn-n0-sweep', 'library:fecn-n0-sweep']));
    // Another scenario's are not offered for this one.
    await next.keeper.restore({ place: { kind: 'library', id: 'two-sources' }, scenarioId: 'two-sources' });
    expect(next.keeper.getState()).toEqual({ place: 'library:two-sources', kept: [] });
  });
});

describe('forgetting a kept sweep', () => {
  it('deletes it and its rows from the browser; shown, it stays on the page, said to be kept no more', async () => {
    const { factory } = await keptBoth();

    const store = new IndexedDbSweepStore(factory);
    const next = page(store);
    await next.keeper.restore({ place: LIB, scenarioId: 'fecn-n0-sweep', varies: sweepVaries(sweepJson()) }, true);
    const [algorithmSweep, blockSweep] = next.keeper.getState().kept;
    const shownCsv = sweepCsv(next.session.getState().plan!, next.session.outcomes, 1);
    expect(await next.keeper.forget(blockSweep.key)).toBe(true);
    // Gone from the store, header and rows; the other is still kept and offered.
    expect(await store.get(blockSweep.key)).toBeNull();
    const tx = await store.db.transaction('rows', 'readonly');
    const rows = (await new Promise((r) => (tx.objectStore('rows').getAll().onsuccess = (e) => r((e.target as IDBRequest).result)))) as { key: string }[];
    expect(rows.some((c) => c.key === blockSweep.key)).toBe(false);
    expect(next.keeper.getState().kept.map((k) => k.key)).toEqual([algorithmSweep.key]);
    // Shown still, as it was, with the note that a reload loses it.
    expect(sweepCsv(next.session.getState().plan!, next.session.outcomes, 1)).toBe(shownCsv);
    expect(next.session.getState().unkept).toBe(FORGOTTEN);
    // A new page shows the other.
    const later = page(new IndexedDbSweepStore(factory));
    await later.keeper.restore({ place: LIB, scenarioId: 'fecn-n0-sweep', varies: sweepVaries(sweepJson()) }, true);
    expect(later.session.getState().plan!.params.map((p) => p.column)).toEqual(['algorithm']);
  });

  it('says it could not when the storage refuses', async () => {
    const refusing: SweepStore = { get: async () => null, latest: async () => null, list: async () => [], put: async () => {}, remove: () => Promise.reject(new Error('no')) };
    const p = page(refusing);
    expect(await p.keeper.forget('k')).toBe(false);
  });
});

describe('keeping a sweep, and the browser', () => {
  it('tells when a write landed (the browser is then asked to keep the storage), not when one was refused', async () => {
    const onKept = vi.fn();
    let refuse = true;
    const store: SweepStore = writeOnly(async () => void (refuse && (await Promise.reject(new Error('no')))));
    const { session, keeper, settled } = page(store, { onKept });
    await session.start(sweepJson(), 'fecn-n0-sweep');
    await settled();
    await keeper.write();
    expect(onKept).not.toHaveBeenCalled();
    refuse = false;
    await keeper.write();
    expect(onKept).toHaveBeenCalledTimes(1);
  });

  it('without IndexedDB, the note under the sweep says its results are kept in this page only', async () => {
    const { session, keeper, settled } = page(unavailableSweepStore('this browser offers no IndexedDB'));
    await session.start(sweepJson(), 'fecn-n0-sweep');
    await settled();
    await keeper.write();
    expect(session.getState().unkept).toBe('These results are kept in this page only (this browser offers no IndexedDB): a reload loses them.');
    expect(await keeper.restore(at('fecn-n0-sweep'), true)).toBe(false);
  });

  it('lets its database go when another tab upgrades it, and opens it again for the next write', async () => {
    const factory = new IDBFactory();
    const store = new IndexedDbSweepStore(factory);
    await store.put(whole(record('a', 1)));
    const gone = await new Promise<string>((resolve) => {
      const r = factory.deleteDatabase('abrlab-sweeps');
      const t = setTimeout(() => resolve('blocked'), 500);
      r.onsuccess = () => (clearTimeout(t), resolve('deleted'));
    });
    expect(gone).toBe('deleted');
    await store.put(whole(record('b', 2)));
    expect((await store.list()).map((i) => i.scenarioId)).toEqual(['b']);
  });
});

describe('pacing the writes of a running sweep', () => {
  afterEach(() => vi.useRealTimers());

  it('a reload loses about a second of runs at most, and the writes stay few', async () => {
    vi.useFakeTimers();
    const runs = 200;
    const { pool, finish } = manualPool(runs);
    const session = new SweepSession(pool, vi.fn());
    const landedAt = new Array<number>(runs).fill(Infinity);
    let writes = 0;
    const store: SweepStore = writeOnly(async (w) => {
      writes++;
      for (const i of w.chunk?.runs ?? []) landedAt[i] = Math.min(landedAt[i], Date.now());
    });
    new SweepKeeper(session, store);
    await session.start('{"id":"x"}', 'x');
    // A run finishes every 50 ms, for 10 s.
    const finishedAt: number[] = [];
    for (let i = 0; i < runs; i++) {
      await vi.advanceTimersByTimeAsync(50);
      finish(i);
      finishedAt[i] = Date.now();
    }
    await vi.advanceTimersByTimeAsync(50);
    // The page could go at any moment: what it loses is the runs finished since the last write
    // that landed, at most this long a span (the last run was written as the sweep ended).
    const lagMs = Math.max(...finishedAt.map((t, i) => landedAt[i] - t));
    expect(lagMs).toBeLessThanOrEqual(1000);
    // About one write a second (10 s of runs), not one a run.
    expect(writes).toBeGreaterThanOrEqual(9);
    expect(writes).toBeLessThanOrEqual(12);
  });

  it('a slow storage is written to less often: a write takes at most a fifth of the time', async () => {
    vi.useFakeTimers();
    const runs = 200;
    const { pool, finish } = manualPool(runs);
    const session = new SweepSession(pool, vi.fn());
    const startedAt: number[] = [];
    const store: SweepStore = writeOnly(async () => {
      startedAt.push(Date.now());
      await new Promise((r) => setTimeout(r, 400));
    });
    new SweepKeeper(session, store);
    await session.start('{"id":"x"}', 'x');
    for (let i = 0; i < runs; i++) {
      await vi.advanceTimersByTimeAsync(50);
      finish(i);
    }
    await vi.advanceTimersByTimeAsync(1000);
    const gaps = startedAt.slice(1).map((t, i) => t - startedAt[i]);
    // 400 ms a write: from the second on, 2 s apart at the least (the last, at the end, at once).
    expect(Math.min(...gaps.slice(1, -1))).toBeGreaterThanOrEqual(2000);
    expect(startedAt.length).toBeLessThanOrEqual(7);
  });
});

// Issue: two tabs sweeping one thing (same place, same parameters) deleted each other's rows —
// the second's first write dropped the first's chunks, and the first's header then overwrote
// the second's.
describe('two tabs sweeping the same thing', () => {
  /** A tab of the lab on `factory`, its sweep started at `ranAtMs`, its runs finished when told. */
  function tab(factory: IDBFactory, ranAtMs: number, tag: string) {
    const { pool, finish } = manualPool(6, tag);
    const session = new SweepSession(pool, vi.fn(), undefined, undefined, undefined, () => ranAtMs);
    const keeper = new SweepKeeper(session, new IndexedDbSweepStore(factory), { everyMs: 60_000, place: () => LIB });
    return { session, keeper, finish };
  }
  const settle = (session: SweepSession, n: number) => vi.waitFor(() => expect(session.getState().finished).toBe(n));

  it('keep a sweep each, neither losing a row to the other; the newest shows, the other is offered', async () => {
    const factory = new IDBFactory();
    const a = tab(factory, 1_000, 'a');
    const b = tab(factory, 2_000, 'b');
    await a.session.start('{"id":"x"}', 'x');
    a.finish(0);
    a.finish(1);
    await settle(a.session, 2);
    await a.keeper.write();
    // B starts the same sweep while A runs, and writes.
    await b.session.start('{"id":"x"}', 'x');
    b.finish(0);
    await settle(b.session, 1);
    await b.keeper.write();
    // A goes on, and ends; B ends after it.
    for (const i of [2, 3, 4, 5]) a.finish(i);
    await settle(a.session, 6);
    await a.keeper.write();
    for (const i of [1, 2, 3, 4, 5]) b.finish(i);
    await settle(b.session, 6);
    await b.keeper.write();

    const store = new IndexedDbSweepStore(factory);
    const kept = await store.list();
    expect(kept.map((k) => [k.place, k.varies, k.ranAtMs, k.phase])).toEqual([
      ['library:fecn-n0-sweep', '', 2_000, 'done'],
      ['library:fecn-n0-sweep', '', 1_000, 'done'],
    ]);
    // Each reads back whole, with its own rows only.
    expect(restoreKept(await store.get(kept[0].key))?.outcomes).toEqual(b.session.outcomes);
    expect(restoreKept(await store.get(kept[1].key))?.outcomes).toEqual(a.session.outcomes);
    expect(a.session.outcomes.every((o) => o?.ok && o.digest.startsWith('da'))).toBe(true);

    // A new page shows the newest, and offers the other.
    const next = page(new IndexedDbSweepStore(factory));
    expect(await next.keeper.restore({ place: LIB, scenarioId: 'x', varies: '' })).toBe(true);
    expect(next.session.getState().ranAtMs).toBe(2_000);
    expect(next.keeper.getState().kept.map((k) => k.ranAtMs)).toEqual([2_000, 1_000]);
  });

  // QA: a sweep whose tab died stayed kept as running for ever, outliving newer finished ones.
  it('a sweep still running in another tab goes last; one whose tab died goes as a finished one does, the one started first first', async () => {
    const store = new IndexedDbSweepStore(new IDBFactory());
    const running = (r: KeptSweep): KeptSweep => ({ ...r, state: { ...r.state, phase: 'running' } });
    // `live` runs in another tab (its lock is held); `dead`'s tab closed.
    const live = new Set([record('live', 2).key!]);
    await store.put(whole(running(record('dead', 1))), 3, live);
    await store.put(whole(running(record('live', 2))), 3, live);
    for (const i of [3, 4]) await store.put(whole(record(`done${i}`, i)), 3, live);
    expect((await store.list()).map((i) => i.scenarioId)).toEqual(['done4', 'done3', 'live']);
    await store.put(whole(record('done5', 5)), 3, live);
    expect((await store.list()).map((i) => i.scenarioId)).toEqual(['done5', 'done4', 'live']);
    // Two at most: the finished go before the one still running.
    await store.put(whole(record('done6', 6)), 2, live);
    expect((await store.list()).map((i) => i.scenarioId)).toEqual(['done6', 'live']);
    // Which runs not known (no locks): each goes by its start, the one started first first.
    await store.put(whole(record('done7', 7)), 2);
    expect((await store.list()).map((i) => i.scenarioId)).toEqual(['done7', 'done6']);
    expect(await chunkCount(store)).toBe(2);
  });

  // Issue: two tabs starting one sweep in the same millisecond shared its key: one's record
  // went over the other's, their chunks mixed.
  it('two tabs starting one sweep in the same millisecond keep a sweep each', async () => {
    const factory = new IDBFactory();
    const a = tab(factory, 1_000, 'a');
    const b = tab(factory, 1_000, 'b');
    await a.session.start('{"id":"x"}', 'x');
    await b.session.start('{"id":"x"}', 'x');
    for (const i of [0, 1, 2, 3, 4, 5]) {
      a.finish(i);
      b.finish(i);
    }
    await settle(a.session, 6);
    await settle(b.session, 6);
    await a.keeper.write();
    await b.keeper.write();
    const store = new IndexedDbSweepStore(factory);
    const kept = await store.list();
    expect(kept.map((k) => k.ranAtMs)).toEqual([1_000, 1_000]);
    expect(kept[0].key).not.toBe(kept[1].key);
    const read = await Promise.all(kept.map(async (k) => restoreKept(await store.get(k.key))!.outcomes));
    expect(read).toContainEqual(a.session.outcomes);
    expect(read).toContainEqual(b.session.outcomes);
  });

  it('a running sweep let go (the limit forced it) writes no rows that no header reads, and says it is kept no more', async () => {
    const factory = new IDBFactory();
    const a = tab(factory, 1_000, 'a');
    await a.session.start('{"id":"x"}', 'x');
    a.finish(0);
    await settle(a.session, 1);
    await a.keeper.write();
    // Another tab keeps one sweep at most: A's goes.
    const store = new IndexedDbSweepStore(factory);
    await store.put(whole(record('other', 5)), 1);
    a.finish(1);
    await settle(a.session, 2);
    await a.keeper.write();
    expect(a.session.getState().unkept).toContain('let it go');
    for (const i of [2, 3, 4, 5]) a.finish(i);
    await settle(a.session, 6);
    await a.keeper.write();
    expect((await store.list()).map((i) => i.scenarioId)).toEqual(['other']);
    expect(await chunkCount(store)).toBe(1);
  });
});

// Issue: each paced write sent the sweep's header again (its scenario text, its plan) with its
// rows; the header is written when what it records changes, the counts read back from the rows.
describe('the header of a kept sweep', () => {
  afterEach(() => vi.useRealTimers());

  it('goes with the first write and when the sweep ends, never with the paced writes of rows between', async () => {
    vi.useFakeTimers();
    const runs = 200;
    const { pool, finish } = manualPool(runs);
    const session = new SweepSession(pool, vi.fn());
    const writes: KeptWrite[] = [];
    new SweepKeeper(session, writeOnly(async (w) => void writes.push(w)));
    await session.start('{"id":"x"}', 'x');
    for (let i = 0; i < runs; i++) {
      await vi.advanceTimersByTimeAsync(50);
      finish(i);
    }
    await vi.advanceTimersByTimeAsync(50);
    expect(writes.length).toBeGreaterThan(5);
    expect(writes[0].header?.state.phase).toBe('running');
    expect(writes.slice(1, -1).every((w) => w.header === null && w.chunk !== null)).toBe(true);
    expect(writes[writes.length - 1].header?.state).toMatchObject({ phase: 'done', finished: runs });
    // Every row was sent once.
    expect(writes.flatMap((w) => w.chunk?.runs ?? []).sort((x, y) => x - y)).toEqual(Array.from({ length: runs }, (_, i) => i));
  });

  it('goes again when the sweep is cancelled; a sweep read back counts its rows, not its header', async () => {
    const { pool, finish } = manualPool(6);
    const session = new SweepSession(pool, vi.fn());
    const writes: KeptWrite[] = [];
    const keeper = new SweepKeeper(session, writeOnly(async (w) => void writes.push(w)), { everyMs: 60_000 });
    await session.start('{"id":"x"}', 'x');
    finish(0);
    await vi.waitFor(() => expect(session.getState().finished).toBe(1));
    await keeper.write();
    finish(1);
    finish(2);
    await vi.waitFor(() => expect(session.getState().finished).toBe(3));
    await keeper.write();
    session.cancel();
    await keeper.write();
    expect(writes.map((w) => [w.header?.state.phase ?? null, w.chunk?.runs ?? null])).toEqual([
      ['running', [0]],
      [null, [1, 2]],
      ['cancelled', null],
    ]);
    // Read back from the first header (counts 0) and the rows: three runs finished.
    const read = assembled(writes[0].header, writes.map((w) => w.chunk).filter(Boolean));
    expect(restoreKept(read)?.state).toMatchObject({ phase: 'interrupted', finished: 3 });
  });
});

// Issue: with no sweep block, a new page showed the scenario's latest kept sweep, not the one of
// what its form was set to run (the form's draft, kept by place).
describe('the kept sweep a new page shows, for a scenario without a sweep block', () => {
  const TWO = { kind: 'library' as const, id: 'two-sources' };
  const twoSources = () => JSON.parse(readFileSync(repoFile('scenarios/two-sources.json'), 'utf8'));
  const TU = 'nodes.*.params.target_utilization';
  const RATE = 'links.L1.rate_mbps';

  it('is what the form is set to run: its block, else its draft, else its first parameter', () => {
    const doc = twoSources();
    expect(tabVaries({ ...doc, sweep: { vary: [{ paths: ['nodes.SW1.params.n0'], values: [1] }] } }, ENGINE_CATALOGUE, { params: [{ path: RATE, values: '1' }], seeds: 1 })).toBe('nodes.SW1.params.n0');
    expect(tabVaries(doc, ENGINE_CATALOGUE, { params: [{ path: RATE, values: '1' }, { path: TU, values: '1' }], seeds: 1 })).toBe(`${RATE} × ${TU}`);
    // A draft's parameter the scenario does not offer is not the form's.
    expect(tabVaries(doc, ENGINE_CATALOGUE, { params: [{ path: 'nodes.SW9.params.x', values: '1' }], seeds: 1 })).toBe(TU);
    expect(tabVaries(doc, ENGINE_CATALOGUE, null)).toBe(TU);
  });

  it("shows the newest kept of what the form varies, though another is newer; none of it, the newest", async () => {
    const store = new IndexedDbSweepStore(new IDBFactory());
    const { pool, finish } = manualPool(2);
    let ranAtMs = 1_000;
    const first = new SweepSession(pool, vi.fn(), undefined, undefined, undefined, () => ranAtMs);
    const keeper = new SweepKeeper(first, store, { place: () => TWO });
    const doc = twoSources();
    for (const path of [TU, RATE]) {
      await first.start(JSON.stringify({ ...doc, sweep: { vary: [{ paths: [path], values: [1, 2] }] } }), 'two-sources', JSON.stringify(doc));
      finish(0);
      finish(1);
      await vi.waitFor(() => expect(first.getState().phase).toBe('done'));
      await keeper.write();
      ranAtMs += 1_000;
    }
    const shownFor = async (draft: SweepDraft | null) => {
      const s = new SweepSession(pool, vi.fn());
      const k = new SweepKeeper(s, store);
      expect(await k.restore({ place: TWO, scenarioId: 'two-sources', varies: tabVaries(doc, ENGINE_CATALOGUE, draft) })).toBe(true);
      return sweepVaries(s.getState().json);
    };
    expect(await shownFor({ params: [{ path: TU, values: '1' }], seeds: 1 })).toBe(TU);
    expect(await shownFor({ params: [{ path: RATE, values: '1' }], seeds: 1 })).toBe(RATE);
    // The form set to a parameter never swept: the newest.
    expect(await shownFor({ params: [{ path: 'links.L2.delay_us', values: '1' }], seeds: 1 })).toBe(RATE);
  });
});

/** The locks of one browser's tabs (as Web Locks): held until let go, or the tab gone (`drop`). */
function browserLocks() {
  const names = new Set<string>();
  const locks: SweepLocks = {
    hold: (key) => (names.add(key), () => names.delete(key)),
    held: async () => new Set(names),
  };
  return { locks, names, drop: () => names.clear() };
}

// QA: a kept sweep whose tab died read as running for ever; a sweep cut short is said to be so,
// one another tab runs still is said to run there, and one cut short can be finished.
describe('a kept sweep whose tab closed, or that another tab runs still', () => {
  const settle = (session: SweepSession, n: number) => vi.waitFor(() => expect(session.getState().finished).toBe(n));
  /** A tab with its own pool (runs finished when told), sharing `factory` and the locks. */
  function tab(factory: IDBFactory, locks: SweepLocks | undefined, tag: string, ranAtMs = 1_000) {
    const { pool, finish } = manualPool(4, tag);
    const session = new SweepSession(pool, vi.fn(), undefined, undefined, undefined, () => ranAtMs);
    const keeper = new SweepKeeper(session, new IndexedDbSweepStore(factory), { everyMs: 60_000, place: () => LIB, locks });
    return { session, keeper, finish };
  }
  const here = { place: LIB, scenarioId: 'x', varies: '' };

  it('reads as running in another tab while its tab lives, as cut short once it is gone, and is finished as the same sweep', async () => {
    const factory = new IDBFactory();
    const { locks, names, drop } = browserLocks();
    const a = tab(factory, locks, 'a');
    await a.session.start('{"id":"x"}', 'x');
    a.finish(0);
    a.finish(2);
    await settle(a.session, 2);
    await a.keeper.write();
    expect(names.size).toBe(1);

    const b = tab(factory, locks, 'b', 2_000);
    expect(await b.keeper.restore(here)).toBe(true);
    expect(b.session.getState()).toMatchObject({ phase: 'interrupted', runningInOtherTab: true, finished: 2 });
    // Another tab's: not to be finished here.
    expect(b.session.missingRuns()).toEqual([]);

    // A's tab closes: the browser lets its lock go.
    drop();
    const c = tab(factory, locks, 'c', 3_000);
    expect(await c.keeper.restore(here)).toBe(true);
    expect(c.session.getState()).toMatchObject({ phase: 'interrupted', runningInOtherTab: false, finished: 2 });
    expect(c.session.missingRuns()).toEqual([1, 3]);
    c.session.finish();
    expect(c.session.getState()).toMatchObject({ phase: 'running', restored: false, ranAtMs: 1_000 });
    c.finish(1);
    await settle(c.session, 3);
    await c.keeper.write();
    // Finishing here: this page runs it now.
    expect(names.size).toBe(1);
    c.finish(3);
    await settle(c.session, 4);
    await c.keeper.write();
    expect(c.session.getState().phase).toBe('done');
    expect(names.size).toBe(0);

    // One record, the same sweep: A's rows and C's.
    const store = new IndexedDbSweepStore(factory);
    const kept = await store.list();
    expect(kept.map((k) => [k.ranAtMs, k.phase])).toEqual([[1_000, 'done']]);
    const read = restoreKept(await store.get(kept[0].key))!;
    expect(read.outcomes.map((o) => (o?.ok ? o.digest : null))).toEqual(['da0', 'dc1', 'da2', 'dc3']);
  });

  it('lets its lock go when it ends, and when a new sweep replaces it (that one cut short)', async () => {
    const factory = new IDBFactory();
    const { locks, names } = browserLocks();
    const a = tab(factory, locks, 'a');
    await a.session.start('{"id":"x"}', 'x');
    a.finish(0);
    await settle(a.session, 1);
    await a.keeper.write();
    expect(names.size).toBe(1);
    for (const i of [1, 2, 3]) a.finish(i);
    await settle(a.session, 4);
    await a.keeper.write();
    expect(names.size).toBe(0);
    await a.session.start('{"id":"x"}', 'x');
    a.finish(0);
    await settle(a.session, 1);
    await a.keeper.write();
    expect(names.size).toBe(1);
    await a.session.start('{"id":"y"}', 'y');
    expect(names.size).toBe(0);
  });

  it('without locks (a browser without Web Locks), a sweep kept running reads as cut short', async () => {
    const factory = new IDBFactory();
    const a = tab(factory, undefined, 'a');
    await a.session.start('{"id":"x"}', 'x');
    a.finish(0);
    await settle(a.session, 1);
    await a.keeper.write();
    const b = tab(factory, undefined, 'b', 2_000);
    expect(await b.keeper.restore(here)).toBe(true);
    expect(b.session.getState()).toMatchObject({ phase: 'interrupted', runningInOtherTab: false });
  });

  it('webLocks holds each sweep by a name of the lab\'s own, and tells the keys held', async () => {
    const held: string[] = [];
    const manager = {
      request: (name: string, fn: () => Promise<void>) => {
        held.push(name);
        return fn().then(() => void held.splice(held.indexOf(name), 1));
      },
      query: async () => ({ held: [...held, 'another-app'].map((name) => ({ name })), pending: [] }),
    } as unknown as LockManager;
    const locks = webLocks(manager)!;
    const release = locks.hold('library:x\u0000\u00001000\u0000p1');
    expect(held).toEqual(['abrlab-sweep:library:x\u0000\u00001000\u0000p1']);
    expect([...(await locks.held())!]).toEqual(['library:x\u0000\u00001000\u0000p1']);
    release();
    await vi.waitFor(() => expect(held).toEqual([]));
    expect(webLocks(undefined)).toBeUndefined();
  });
});
