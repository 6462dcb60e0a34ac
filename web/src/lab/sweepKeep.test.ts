// A sweep's results outlive the page (issue: "nothing a user made is ever lost"): kept in
// IndexedDB (fake-indexeddb here, the real store) as they come, read back on a new page as they
// were shown, a sweep cut short by a reload as interrupted; a damaged record, a refused write or
// a full store never breaks the sweep; the last of each scenario, at most five, are kept.
import { IDBFactory, IDBObjectStore as FakeObjectStore } from 'fake-indexeddb';
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import type { PlanInfo } from '../contract/engine';
import { WorkerPool } from '../engine/pool';
import { repoFile } from '../test/fakes';
import { InProcessBatchWorker, WASM_ENGINE } from '../test/wasmEngine';
import { SweepSession } from './sweep';
import { IndexedDbSweepStore, KEPT_SWEEP_VERSION, keptSweep, restoreKept, rowText, SweepKeeper, type KeptSweep, type SweepStore } from './sweepKeep';
import { parseRow, pointTable, sweepCsv } from './sweepTable';

function sweepJson(id = 'fecn-n0-sweep') {
  const doc = JSON.parse(readFileSync(repoFile(`scenarios/${id}.json`), 'utf8'));
  doc.run.duration_ms = 20;
  doc.run.steady_from_ms = 10;
  return JSON.stringify(doc);
}

/** A page of the lab: its sweep session (runs in process) and its keeper on `store`. */
function page(store: SweepStore, opts: { everyMs?: number; now?: () => number } = {}) {
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

/** A kept sweep of `scenarioId` written at `savedMs`, of two runs (one finished). */
function record(scenarioId: string, savedMs: number): KeptSweep {
  return {
    version: KEPT_SWEEP_VERSION,
    scenarioId,
    savedMs,
    state: { phase: 'done', scenarioId, origin: scenarioId, json: '{}', sourceJson: '{}', firstSeed: 1, plan: PLAN, finished: 2, failed: 0, elapsedMs: 5, workers: 1, ranAtMs: savedMs },
    outcomes: [{ row: '[["jain_index",1.0],["digest","ab"]]', digest: 'ab', wallMs: 3 }, { error: 'no memory left for this run' }],
  };
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
    expect(await next.keeper.restore('fecn-n0-sweep')).toBe(true);
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
    const workers: InProcessBatchWorker[] = [];
    const pool = new WorkerPool(() => {
      const w = new InProcessBatchWorker(WASM_ENGINE);
      workers.push(w);
      return w;
    }, 1);
    const session = new SweepSession(pool, vi.fn());
    const store = new IndexedDbSweepStore(db);
    new SweepKeeper(session, store, { everyMs: 0 });
    const started = session.start(sweepJson('fecn-delay-sweep'), 'fecn-delay-sweep');
    workers[0].pump();
    await started;
    workers[0].pump();
    await vi.waitFor(() => expect(session.getState().finished).toBe(1));
    const runs = session.getState().plan!.runs;
    await vi.waitFor(async () => expect(restoreKept(await store.get('fecn-delay-sweep'))?.state.finished).toBe(1));
    // The page goes away here, the sweep still running.
    const next = page(new IndexedDbSweepStore(db));
    expect(await next.keeper.restore('fecn-delay-sweep')).toBe(true);
    const s = next.session.getState();
    expect([s.phase, s.finished, s.plan!.runs]).toEqual(['interrupted', 1, runs]);
    expect(next.session.outcomes.filter((o) => o !== undefined)).toEqual(session.outcomes.filter((o) => o !== undefined));
    // Run it again: a sweep that runs replaces it, and is kept in its place.
    await next.session.start(sweepJson('fecn-delay-sweep'), 'fecn-delay-sweep');
    await next.settled();
    await next.keeper.write();
    expect(next.session.getState()).toMatchObject({ phase: 'done', restored: false, finished: runs });
    expect(restoreKept(await store.get('fecn-delay-sweep'))?.state).toMatchObject({ phase: 'done', finished: runs });
  });

  it('is written at a pace while it runs, not at every run, and at once when cancelled', async () => {
    const workers: InProcessBatchWorker[] = [];
    const pool = new WorkerPool(() => {
      const w = new InProcessBatchWorker(WASM_ENGINE);
      workers.push(w);
      return w;
    }, 1);
    const session = new SweepSession(pool, vi.fn());
    const puts: KeptSweep[] = [];
    const store: SweepStore = { get: async () => null, latest: async () => null, put: async (r) => void puts.push(r) };
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
    expect(restoreKept(puts[0])?.state).toMatchObject({ phase: 'cancelled', finished: 2 });
  });

  it('shows the open scenario\'s own, else (on a new page) the last of any; none when none is kept', async () => {
    const store = new IndexedDbSweepStore(new IDBFactory());
    const { session, keeper } = page(store);
    expect(await keeper.restore('two-sources', true)).toBe(false);
    expect(session.getState().phase).toBe('idle');
    await store.put(record('a', 1));
    await store.put(record('b', 2));
    expect(await keeper.restore('two-sources')).toBe(false);
    expect(await keeper.restore('two-sources', true)).toBe(true);
    expect(session.getState().scenarioId).toBe('b');
    expect(await keeper.restore('a')).toBe(true);
    expect(session.getState()).toMatchObject({ scenarioId: 'a', finished: 2, failed: 1, restored: true });
    // Shown again, it is not written again (nothing changed).
    expect(((await store.get('a')) as KeptSweep).savedMs).toBe(1);
  });

  it('a sweep started while the kept one is read wins over it', async () => {
    const store = new IndexedDbSweepStore(new IDBFactory());
    await store.put(record('fecn-n0-sweep', 1));
    const { session, keeper, settled } = page(store);
    const restoring = keeper.restore('fecn-n0-sweep');
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
    await store.put({ ...record('a', 1), outcomes: [] });
    const { session, keeper } = page(store);
    expect(await keeper.restore('a', true)).toBe(false);
    expect(session.getState().phase).toBe('idle');
    // A storage that fails to read: nothing shown, nothing thrown.
    const failing: SweepStore = { get: () => Promise.reject(new Error('gone')), latest: () => Promise.reject(new Error('gone')), put: () => Promise.resolve() };
    expect(await page(failing).keeper.restore('a', true)).toBe(false);
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
      expect(await store.get('fecn-n0-sweep')).toBeNull();
      FakeObjectStore.prototype.put = put;
      await keeper.write();
      expect(session.getState().unkept).toBeNull();
      expect(restoreKept(await store.get('fecn-n0-sweep'))?.state.finished).toBe(3);
    } finally {
      FakeObjectStore.prototype.put = put;
    }
    // A store that rejects every write, as a promise.
    const refusing: SweepStore = { get: async () => null, latest: async () => null, put: () => Promise.reject(new Error('IndexedDB write aborted')) };
    const { session, keeper, settled } = page(refusing);
    await session.start(sweepJson(), 'fecn-n0-sweep');
    await settled();
    await keeper.write();
    expect(session.getState()).toMatchObject({ phase: 'done', finished: 3 });
    expect(session.getState().unkept).toContain('IndexedDB write aborted');
    // Shown only here, they stay shown when another scenario with a kept sweep opens.
    const elsewhere: SweepStore = { ...refusing, get: async () => record('two-sources', 1) };
    const shown = page(elsewhere);
    await shown.session.start(sweepJson(), 'fecn-n0-sweep');
    await shown.settled();
    await shown.keeper.write();
    expect(await shown.keeper.restore('two-sources')).toBe(false);
    expect(shown.session.getState()).toMatchObject({ scenarioId: 'fecn-n0-sweep', finished: 3 });
  });

  it('keeps the last sweep of each scenario, five at most: the oldest go', async () => {
    const store = new IndexedDbSweepStore(new IDBFactory());
    for (let i = 1; i <= 7; i++) await store.put(record(`s${i}`, i));
    // A new sweep of a scenario replaces its last.
    await store.put(record('s7', 8));
    const kept = await Promise.all([1, 2, 3, 4, 5, 6, 7].map((i) => store.get(`s${i}`)));
    expect(kept.map((r) => (r as KeptSweep | null)?.savedMs ?? null)).toEqual([null, null, 3, 4, 5, 6, 8]);
    expect(((await store.latest()) as KeptSweep).scenarioId).toBe('s7');
    await store.put(record('s1', 9), 2);
    expect(await Promise.all(['s1', 's5', 's6', 's7'].map(async (id) => !!(await store.get(id))))).toEqual([true, false, false, true]);
  });

  it('a run\'s row is kept as the engine wrote it: 1.0 stays 1.0, names with quotes read back', () => {
    const row = '[["jain_index",1.0],["link.\\"L4\\".throughput_mbps",-2.5e-3],["label",null],["digest","00ff"]]';
    const cells = parseRow(row);
    expect(rowText(cells)).toBe(row);
    expect(parseRow(rowText(cells))).toEqual(cells);
    const s = keptSweep(
      { ...record('a', 1).state, madeBy: 'block', version: 1, problems: null, message: null, restored: false, unkept: null },
      [{ ok: true, cells, digest: '00ff', wallMs: 1 }, undefined],
      2,
    );
    expect(s.outcomes).toEqual([{ row, digest: '00ff', wallMs: 1 }, null]);
  });
});
