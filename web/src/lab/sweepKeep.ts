// A sweep's results kept in the browser ("nothing a user made is ever lost"): a sweep of
// hundreds of runs takes minutes, and a reload, a closed tab or a browser restart must not take
// its results with it. The last sweep of each scenario id (at most MAX_KEPT_SWEEPS in all) is
// kept in IndexedDB — the outcomes may be 10,000 rows of ~60 columns, too much for Web Storage —
// in a database of its own (the user's scenarios' database is not upgraded for it).
//
//   SweepSession ──state──▶ SweepKeeper ──put (paced)──▶ SweepStore (IndexedDB: abrlab-sweeps)
//        ▲                                                   │
//        └────────── showKept ◀── restore (a new page) ◀─────┘
//
// Written when the sweep ends or is cancelled, and while it runs at most every KEEP_EVERY_MS
// (longer when a write takes long), so that a crash keeps what finished; a sweep kept running
// reads back as `interrupted`. Every record carries a version; a record that does not read is
// passed over. Keeping is best effort: a refused write leaves the sweep running and a quiet note.

import type { PlanInfo } from '../contract/engine';
import type { SweepSession, SweepState } from './sweep';
import { parseRow, type RowCell, type RunOutcome } from './sweepTable';
import { openDatabase, request } from '../scenario/indexedDb';

/** The version of a kept sweep's record (a change of its fields gets a new one and a migration). */
export const KEPT_SWEEP_VERSION = 1;
/** The most sweeps kept (the last of each scenario id, the most recent first). */
export const MAX_KEPT_SWEEPS = 5;
/** The least time between two writes while a sweep runs (ms). */
export const KEEP_EVERY_MS = 3000;

/** One run's outcome as kept: its row as the engine wrote it (`parseRow` reads it back), or why it
 *  failed; null for a run not finished. */
export type KeptOutcome = { row: string; digest: string; wallMs: number } | { error: string } | null;

/** What SweepView needs to show a sweep again (SweepState without what is of this page only). */
export type KeptState = Pick<
  SweepState,
  'phase' | 'scenarioId' | 'origin' | 'json' | 'sourceJson' | 'firstSeed' | 'plan' | 'finished' | 'failed' | 'elapsedMs' | 'workers' | 'ranAtMs'
>;

/** A kept sweep, as stored. */
export interface KeptSweep {
  version: typeof KEPT_SWEEP_VERSION;
  /** The key: one sweep kept per scenario id (a new sweep of it replaces the last). */
  scenarioId: string;
  /** When this record was written (ms since the epoch): the fewest kept go by it. */
  savedMs: number;
  state: KeptState;
  outcomes: KeptOutcome[];
}

/** A run's row as the engine writes it (`[["name",raw],…]`), from its cells. */
export function rowText(cells: readonly RowCell[]): string {
  return `[${cells.map((c) => `[${JSON.stringify(c.name)},${c.raw}]`).join(',')}]`;
}

function keptOutcome(o: RunOutcome | undefined): KeptOutcome {
  if (!o) return null;
  return o.ok ? { row: rowText(o.cells), digest: o.digest, wallMs: o.wallMs } : { error: o.error };
}

/** The record that keeps a sweep (`encoded`: outcomes already encoded, by run, reused). */
export function keptSweep(s: SweepState, outcomes: readonly (RunOutcome | undefined)[], savedMs: number, encoded: KeptOutcome[] = []): KeptSweep {
  const kept: KeptOutcome[] = new Array(outcomes.length);
  for (let i = 0; i < outcomes.length; i++) kept[i] = encoded[i] ?? (encoded[i] = keptOutcome(outcomes[i]));
  const { phase, scenarioId, origin, json, sourceJson, firstSeed, plan, finished, failed, elapsedMs, workers, ranAtMs } = s;
  return {
    version: KEPT_SWEEP_VERSION,
    scenarioId,
    savedMs,
    state: { phase, scenarioId, origin, json, sourceJson, firstSeed, plan, finished, failed, elapsedMs, workers, ranAtMs },
    outcomes: kept,
  };
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isStr = (v: unknown): v is string => typeof v === 'string';

function planIn(v: unknown): PlanInfo | null {
  const p = v as Partial<PlanInfo> | null;
  if (!p || typeof p !== 'object') return null;
  const intAbove0 = (n: unknown) => Number.isInteger(n) && (n as number) > 0;
  if (!intAbove0(p.runs) || !intAbove0(p.points) || !intAbove0(p.seeds) || p.runs !== p.points! * p.seeds!) return null;
  if (!Array.isArray(p.header) || !p.header.every(isStr) || !Array.isArray(p.metrics) || !p.metrics.every(isStr)) return null;
  if (!Array.isArray(p.params)) return null;
  const points = p.params.reduce((n, q) => n * (Array.isArray(q?.values) ? q.values.length : 0), 1);
  if (!p.params.every((q) => isStr(q.column) && Array.isArray(q.values)) || points !== p.points) return null;
  if (p.seed_param !== null && !(Number.isInteger(p.seed_param) && p.seed_param! < p.params.length)) return null;
  // Notes came with the plan; a record without them shows none.
  return { ...(p as PlanInfo), notes: Array.isArray(p.notes) ? p.notes.filter(isStr) : [] };
}

function outcomeIn(v: unknown): RunOutcome | undefined {
  const o = v as Partial<{ row: unknown; digest: unknown; wallMs: unknown; error: unknown }> | null;
  if (!o || typeof o !== 'object') return undefined;
  if (isStr(o.error)) return { ok: false, error: o.error };
  if (isStr(o.row) && isStr(o.digest) && isNum(o.wallMs)) return { ok: true, cells: parseRow(o.row), digest: o.digest, wallMs: o.wallMs };
  return undefined;
}

/**
 * A kept record as the state and outcomes SweepSession shows, or null when it does not read (no
 * record, another version, a field missing or of the wrong kind, a plan that does not add up). A
 * run whose outcome does not read counts as not finished; the counts are the outcomes'. A sweep
 * kept while it ran is `interrupted`.
 */
export function restoreKept(v: unknown): { state: KeptState; outcomes: (RunOutcome | undefined)[] } | null {
  const r = v as Partial<KeptSweep> | null;
  if (!r || typeof r !== 'object' || r.version !== KEPT_SWEEP_VERSION || !r.state || typeof r.state !== 'object') return null;
  const s = r.state as Partial<KeptState>;
  if (!isStr(s.scenarioId) || !isStr(s.origin) || !isStr(s.json) || !isStr(s.sourceJson)) return null;
  const plan = planIn(s.plan);
  if (!plan || !Array.isArray(r.outcomes) || r.outcomes.length !== plan.runs) return null;
  const phase = s.phase === 'done' || s.phase === 'cancelled' || s.phase === 'interrupted' ? s.phase : s.phase === 'running' ? 'interrupted' : null;
  if (!phase) return null;
  const outcomes = r.outcomes.map(outcomeIn);
  const finished = outcomes.filter((o) => o !== undefined).length;
  const failed = outcomes.filter((o) => o && !o.ok).length;
  return {
    state: {
      phase: phase === 'done' && finished < plan.runs ? 'interrupted' : phase,
      scenarioId: s.scenarioId,
      origin: s.origin,
      json: s.json,
      sourceJson: s.sourceJson,
      firstSeed: isNum(s.firstSeed) ? s.firstSeed : 1,
      plan,
      finished,
      failed,
      elapsedMs: isNum(s.elapsedMs) ? s.elapsedMs : 0,
      workers: isNum(s.workers) ? s.workers : 0,
      ranAtMs: isNum(s.ranAtMs) ? s.ranAtMs : isNum(r.savedMs) ? r.savedMs : 0,
    },
    outcomes,
  };
}

/** Where sweeps are kept (IndexedDB in the browser; anything in tests). */
export interface SweepStore {
  /** The sweep kept for a scenario id, as stored (null when none). */
  get(scenarioId: string): Promise<unknown>;
  /** The sweep kept last, of any scenario, as stored (null when none). */
  latest(): Promise<unknown>;
  /** Keeps a sweep in place of its scenario's last, then forgets the oldest beyond `most`. */
  put(record: KeptSweep, most?: number): Promise<void>;
}

const DB_VERSION = 1;
const STORE = 'sweeps';
const BY_SAVED = 'savedMs';


/** Sweeps in IndexedDB: database `dbName`, one object store keyed by scenario id, indexed by
 *  the time each was written. */
export class IndexedDbSweepStore implements SweepStore {
  private readonly db: Promise<IDBDatabase>;

  constructor(factory: IDBFactory, dbName = 'abrlab-sweeps') {
    this.db = openDatabase(factory, dbName, DB_VERSION, (db) => {
      if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE, { keyPath: 'scenarioId' }).createIndex(BY_SAVED, 'savedMs');
    });
    // A browser without storage: the refusal is said by each call, not thrown unheard here.
    this.db.catch(() => {});
  }

  private async store(mode: IDBTransactionMode): Promise<IDBObjectStore> {
    return (await this.db).transaction(STORE, mode).objectStore(STORE);
  }

  async get(scenarioId: string): Promise<unknown> {
    return ((await request((await this.store('readonly')).get(scenarioId))) as unknown) ?? null;
  }

  async latest(): Promise<unknown> {
    const cursor = await request((await this.store('readonly')).index(BY_SAVED).openCursor(null, 'prev'));
    return (cursor?.value as unknown) ?? null;
  }

  async put(record: KeptSweep, most = MAX_KEPT_SWEEPS): Promise<void> {
    const store = await this.store('readwrite');
    const tx = store.transaction;
    let thrown: unknown = null;
    const done = new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(thrown ?? tx.error ?? new Error('IndexedDB write failed'));
      tx.onabort = () => reject(thrown ?? tx.error ?? new Error('IndexedDB write aborted (is the storage full?)'));
    });
    try {
      store.put(record);
      // Newest first, by keys alone (the outcomes of the others are not read).
      let seen = 0;
      const keys = store.index(BY_SAVED).openKeyCursor(null, 'prev');
      keys.onsuccess = () => {
        const c = keys.result;
        if (!c) return;
        try {
          if (++seen > most) store.delete(c.primaryKey);
          c.continue();
        } catch (e) {
          thrown = e;
          tx.abort();
        }
      };
    } catch (e) {
      // A write refused at once (a value that does not clone, a full storage).
      thrown = e;
      tx.abort();
    }
    await done;
  }
}

/** Why a write was refused, in a few words for the note. */
function reason(e: unknown): string {
  const name = (e as { name?: unknown } | null)?.name;
  if (name === 'QuotaExceededError') return 'the browser’s storage is full';
  return (e as Error | null)?.message || String(e);
}

/**
 * Keeps the session's sweep as it runs and when it ends, and shows a kept one on a new page.
 * Writes never overlap: one in flight, the next waits and takes the newest state.
 */
export class SweepKeeper {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private writing: Promise<void> | null = null;
  private again = false;
  private seen: { version: number; phase: string; ranAtMs: number } | null = null;
  /** The outcomes encoded so far, for `encodedFor` (a finished run's outcome does not change). */
  private encoded: KeptOutcome[] = [];
  private encodedFor: unknown = null;
  /** How long the last write took (ms): writes are spaced by ten times it at the least. */
  private lastWriteMs = 0;

  constructor(
    private readonly session: SweepSession,
    private readonly store: SweepStore,
    private readonly opts: { everyMs?: number; most?: number; now?: () => number } = {},
  ) {
    session.subscribe(this.changed);
  }

  private now() {
    return (this.opts.now ?? Date.now)();
  }

  private changed = () => {
    const s = this.session.getState();
    // Results read back are kept already; a plan or a refusal has no results to keep (and does
    // not take the scenario's kept ones away).
    if (s.restored || !s.plan || (s.phase !== 'running' && s.phase !== 'done' && s.phase !== 'cancelled')) return;
    const seen = this.seen;
    if (seen && seen.version === s.version && seen.phase === s.phase && seen.ranAtMs === s.ranAtMs) return;
    this.seen = { version: s.version, phase: s.phase, ranAtMs: s.ranAtMs };
    if (s.phase !== 'running') {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      void this.write();
    } else if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        void this.write();
      }, Math.max(this.opts.everyMs ?? KEEP_EVERY_MS, 10 * this.lastWriteMs));
    }
  };

  /** Writes the session's sweep now (after the write in flight); resolves when it is written
   *  or refused (never rejects). */
  write(): Promise<void> {
    if (this.writing) {
      this.again = true;
      return this.writing;
    }
    this.writing = (async () => {
      do {
        this.again = false;
        const s = this.session.getState();
        if (s.restored || !s.plan) break;
        if (this.encodedFor !== this.session.outcomes) {
          this.encodedFor = this.session.outcomes;
          this.encoded = [];
        }
        const started = this.now();
        try {
          await this.store.put(keptSweep(s, this.session.outcomes, started, this.encoded), this.opts.most ?? MAX_KEPT_SWEEPS);
          if (this.session.getState().ranAtMs === s.ranAtMs) this.session.noteUnkept(null);
        } catch (e) {
          if (this.session.getState().ranAtMs === s.ranAtMs) this.session.noteUnkept(`These results could not be kept in the browser (${reason(e)}): a reload loses them.`);
        }
        this.lastWriteMs = this.now() - started;
      } while (this.again);
      this.writing = null;
    })();
    return this.writing;
  }

  /**
   * Shows the kept sweep of `scenarioId` (with `orLatest`, the last kept of any scenario when it
   * has none), unless a sweep runs or started meanwhile, the one shown is of that id already, or
   * the one shown could not be kept.
   * True when it shows one. A storage that fails or holds a damaged record shows nothing.
   */
  async restore(scenarioId: string | undefined, orLatest = false): Promise<boolean> {
    const shown = this.session.getState();
    if (shown.phase === 'planning' || shown.phase === 'running') return false;
    // Results this page could not keep are shown only here: another scenario's kept ones do not
    // take their place.
    if (shown.unkept && !shown.restored) return false;
    if (scenarioId && shown.scenarioId === scenarioId && shown.phase !== 'idle' && shown.phase !== 'refused') return false;
    let kept: ReturnType<typeof restoreKept> = null;
    try {
      if (scenarioId) kept = restoreKept(await this.store.get(scenarioId));
      if (!kept && orLatest) kept = restoreKept(await this.store.latest());
    } catch {
      return false;
    }
    if (!kept) return false;
    return this.session.showKept({ ...shown, ...kept.state, problems: null, message: null, version: shown.version + 1 }, kept.outcomes, shown);
  }
}
