// A sweep's results kept in the browser ("nothing a user made is ever lost"): a sweep of
// hundreds of runs takes minutes, and a reload, a closed tab or a browser restart must not take
// its results with it. Each sweep run is kept apart, by its scenario's place, what it varies (a
// sweep block's, the form's parameters, the switch algorithms: `varies`), when it started and the
// page that started it (two tabs sweeping one thing keep a sweep each), at most MAX_KEPT_SWEEPS in all, in IndexedDB (the
// outcomes may be 10,000 rows of ~60 columns, too much for Web Storage), in a database of its own
// (the user's scenarios' database is not upgraded for it).
//
//   SweepSession ──state──▶ SweepKeeper ──write (paced)──▶ SweepStore (IndexedDB: abrlab-sweeps)
//        ▲                                                   │  kept: one header a sweep
//        └────────── showKept ◀── restore (a new page) ◀─────┘  rows: its runs, in chunks
//
// A sweep is a header (its state, small next to its rows) and chunks of rows: each write sends
// one chunk of the runs finished since the last write that landed (never all the outcomes
// again: 10,000 rows are ~15 MB), and the header only when what it records changed (the sweep
// started, ended, was cancelled: its phase; the counts read back are the chunks'). Written when
// the sweep ends or is cancelled, and while it runs every KEEP_EVERY_MS (longer when a write
// takes long), so that a reload loses about a second of runs at most. A page holds a Web Lock
// named by the key of the sweep it runs (`SweepLocks`), which the browser lets go when the page
// goes: a sweep kept running whose lock nobody holds was cut short (its tab closed, reloaded or
// crashed) and reads back `interrupted`, to finish or run again; one whose lock is held still
// runs in another tab, and says so. Every header carries a version; one that does not read is
// passed over. Keeping is best effort: a refused write leaves the sweep running and a quiet
// note, and its rows go with the next write.

import type { Catalogue, PlanInfo } from '../contract/engine';
import type { Scenario } from '../contract/scenario';
import { blockVaries, draftVaries, formDraft, sweepChoices, type SweepDraft } from './sweepBuilder';
import type { SweepMaker, SweepSession, SweepState } from './sweep';
import { parseRow, type RowCell, type RunOutcome } from './sweepTable';
import { StateCell } from './state';
import { OneWriteAtATime } from './oneWriteAtATime';
import { Database, evictedKeys, isNum, isStr, request, UNAVAILABLE, unavailable, writing } from '../scenario/indexedDb';
import { draftsKey, type Place } from '../scenario/place';
import { DEFAULT_SEED } from '../scenario/params';

/** The version of a kept sweep's record (a change of its fields gets a new one and a migration).
 *  1: one record a sweep, by scenario id, with all its outcomes; 2: a header by `key` (place and
 *  what it varies) and its rows in chunks (both read back as one record of the same fields);
 *  3: the key names the sweep's start too (two sweeps of one thing are kept apart), and the
 *  state what made the sweep (`madeBy`); keys made since also name the page (`sweepKey`), a
 *  key being read as a whole, never taken apart, those kept before read as they are. */
export const KEPT_SWEEP_VERSION = 3;
/** The most sweeps kept (the most recent first): a few scenarios, each with a few things swept. */
export const MAX_KEPT_SWEEPS = 10;
/** The least time between two writes while a sweep runs (ms): what a reload may lose, about. */
export const KEEP_EVERY_MS = 1000;
/** A write takes at most this share of the time while a sweep runs (the main thread stays light). */
export const KEEP_BUSY_SHARE = 0.2;

/** One run's outcome as kept: its row as the engine wrote it (`parseRow` reads it back), or why it
 *  failed; null for a run not finished. */
export type KeptOutcome = { row: string; digest: string; wallMs: number } | { error: string } | null;

/** What SweepView needs to show a sweep again (SweepState without what is of this page only). */
export type KeptState = Pick<
  SweepState,
  'phase' | 'madeBy' | 'scenarioId' | 'origin' | 'json' | 'sourceJson' | 'firstSeed' | 'plan' | 'finished' | 'failed' | 'elapsedMs' | 'workers' | 'ranAtMs'
> &
  Partial<Pick<SweepState, 'runningInOtherTab'>>;

/** Where a sweep's scenario is kept, as a kept sweep names it: `mine:<id>`, `library:<id>`, or
 *  (a file, a link, a sweep kept before places were) `scenario:<its JSON id>`. */
export function sweepPlace(place: Place, scenarioId: string): string {
  // As the forms' drafts are kept (draftsKey), but for the prefix version 1 records used.
  return place.kind === 'none' ? `scenario:${scenarioId}` : draftsKey(place, scenarioId)!;
}

/** What a sweep varies, from its scenario text: the paths of each `sweep.vary` entry ('' when
 *  it has none, or the text does not parse). A sweep block's, the form's and the algorithm
 *  sweep of one scenario are told apart by it. */
export function sweepVaries(json: string): string {
  try {
    return blockVaries((JSON.parse(json) as { sweep?: unknown }).sweep);
  } catch {
    return '';
  }
}

/**
 * What the Sweep tab of `scenario` is set to run, as a kept sweep says it (`sweepVaries`): its
 * sweep block's; without one, the form's as it will open (its draft kept for the scenario's
 * place, `formDraft`) — a new page shows the kept sweep of that. Undefined without a catalogue
 * or a parameter to sweep.
 */
export function tabVaries(scenario: Scenario, catalogue: Catalogue | null, draft: SweepDraft | null): string | undefined {
  if (scenario.sweep) return blockVaries(scenario.sweep);
  const d = catalogue ? formDraft(sweepChoices(scenario, catalogue), draft, undefined) : draft;
  return d ? draftVaries(d) : undefined;
}

/** The key a sweep run is kept under: its place, what it varies, when it started (ms since
 *  the epoch) and the page that ran it (`pageId`, since version 3's sweeps started in two tabs
 *  in one millisecond shared a key; the keys of records kept before have none): a sweep of one
 *  thing started in another tab, or later, is kept beside it, never over it. */
export function sweepKey(place: string, varies: string, ranAtMs: number, pageId = ''): string {
  return `${place}\u0000${varies}\u0000${ranAtMs}${pageId ? `\u0000${pageId}` : ''}`;
}

/** A page's own id, for its sweeps' keys: random, so that two tabs never draw the same. */
function newPageId(random: () => number = Math.random): string {
  return Array.from({ length: 3 }, () => Math.floor(random() * 36 ** 4).toString(36).padStart(4, '0')).join('');
}

/** A kept sweep's header, as stored (its rows are in chunks, `KeptChunk`). */
export interface KeptHeader {
  version: typeof KEPT_SWEEP_VERSION;
  /** `sweepKey(place, varies, state.ranAtMs, the page's id)`: this sweep run's own. */
  key: string;
  place: string;
  varies: string;
  scenarioId: string;
  /** When this header was written (ms since the epoch): the sweep started, or ended. */
  savedMs: number;
  state: KeptState;
}

/** Some of a kept sweep's rows: `outcomes[k]` is run `runs[k]`'s. A chunk of another run of
 *  the sweep (`ranAtMs` not the header's: left over by version 2, which kept one run a key) is
 *  passed over. */
export interface KeptChunk {
  key: string;
  seq: number;
  ranAtMs: number;
  runs: number[];
  outcomes: KeptOutcome[];
}

/** A kept sweep read back whole (a header with its rows put together; version 1 was stored so). */
export interface KeptSweep {
  /** The number its next chunk takes (`assembled`; absent: as many as it has runs, past any a
   *  write of one run or more a chunk can have made). */
  nextSeq?: number;
  version: 1 | 2 | typeof KEPT_SWEEP_VERSION;
  key?: string;
  place?: string;
  varies?: string;
  scenarioId: string;
  savedMs: number;
  state: KeptState;
  outcomes: KeptOutcome[];
}

/** One write of a sweep: its header where it changed (null: the rows alone, of a sweep kept
 *  already), and the rows new since the last write that landed. */
export interface KeptWrite {
  key: string;
  header: KeptHeader | null;
  chunk: KeptChunk | null;
}

/** What a list of kept sweeps says of each (no rows). */
export interface KeptInfo {
  key: string;
  place: string;
  varies: string;
  scenarioId: string;
  savedMs: number;
  ranAtMs: number;
  /** What the sweep varies, as its table's columns say it (`n0`, `algorithm`). */
  columns: string[];
  phase: KeptState['phase'];
  runs: number;
}

/** A run's row as the engine writes it (`[["name",raw],…]`), from its cells. */
export function rowText(cells: readonly RowCell[]): string {
  return `[${cells.map((c) => `[${JSON.stringify(c.name)},${c.raw}]`).join(',')}]`;
}

function keptOutcome(o: RunOutcome | undefined): KeptOutcome {
  if (!o) return null;
  return o.ok ? { row: rowText(o.cells), digest: o.digest, wallMs: o.wallMs } : { error: o.error };
}

/** The header of a sweep kept from `place` under `key`, written at `savedMs`. */
export function keptHeader(s: SweepState, place: string, savedMs: number, key = sweepKey(place, sweepVaries(s.json), s.ranAtMs)): KeptHeader {
  const { phase, madeBy, scenarioId, origin, json, sourceJson, firstSeed, plan, finished, failed, elapsedMs, workers, ranAtMs } = s;
  const varies = sweepVaries(json);
  return {
    version: KEPT_SWEEP_VERSION,
    key,
    place,
    varies,
    scenarioId,
    savedMs,
    state: { phase, madeBy, scenarioId, origin, json, sourceJson, firstSeed, plan, finished, failed, elapsedMs, workers, ranAtMs },
  };
}

/** The whole record of a sweep (the header with every outcome): what a store reads back. */
export function keptSweep(s: SweepState, outcomes: readonly (RunOutcome | undefined)[], savedMs: number, place = `scenario:${s.scenarioId}`): KeptSweep {
  return { ...keptHeader(s, place, savedMs), outcomes: outcomes.map(keptOutcome) };
}

/** A header (of version 2 or this one) with its chunks, put together (the outcomes of runs no
 *  chunk holds are null). */
export function assembled(header: unknown, chunks: readonly unknown[]): unknown {
  const h = header as Partial<KeptHeader> | null;
  if (!h || typeof h !== 'object' || ((h.version as number) !== 2 && h.version !== KEPT_SWEEP_VERSION)) return h ?? null;
  const runs = (h.state as Partial<KeptState> | undefined)?.plan?.runs;
  const n = Number.isInteger(runs) && (runs as number) > 0 && (runs as number) <= 1_000_000 ? (runs as number) : 0;
  const outcomes: KeptOutcome[] = new Array(n).fill(null);
  const ranAtMs = (h.state as Partial<KeptState> | undefined)?.ranAtMs;
  const ordered = [...chunks].filter((c): c is KeptChunk => !!c && typeof c === 'object' && Array.isArray((c as KeptChunk).runs) && Array.isArray((c as KeptChunk).outcomes));
  ordered.sort((a, b) => a.seq - b.seq);
  for (const c of ordered) {
    if (c.ranAtMs !== ranAtMs) continue;
    c.runs.forEach((i, k) => {
      if (Number.isInteger(i) && i >= 0 && i < n) outcomes[i] = c.outcomes[k] ?? null;
    });
  }
  // The number a further chunk of it takes (one finished in a later page): past every one kept.
  const nextSeq = ordered.reduce((m, c) => (isNum(c.seq) ? Math.max(m, c.seq + 1) : m), 0);
  return { ...h, outcomes, nextSeq };
}

/** A whole record of version 1 as a header and one chunk of this version (null: it does not read). */
function fromVersion1(v: unknown): { header: KeptHeader; chunk: KeptChunk } | null {
  const r = v as Partial<{ version: number; scenarioId: unknown; savedMs: unknown; state: KeptState; outcomes: unknown }> | null;
  if (!r || typeof r !== 'object' || r.version !== 1 || !isStr(r.scenarioId) || !r.state || typeof r.state !== 'object' || !Array.isArray(r.outcomes)) return null;
  const place = `scenario:${r.scenarioId}`;
  const varies = sweepVaries(isStr(r.state.json) ? r.state.json : '');
  const key = sweepKey(place, varies, r.state.ranAtMs);
  const header: KeptHeader = { version: KEPT_SWEEP_VERSION, key, place, varies, scenarioId: r.scenarioId, savedMs: isNum(r.savedMs) ? r.savedMs : 0, state: r.state };
  const outcomes = r.outcomes as KeptOutcome[];
  return { header, chunk: { key, seq: 0, ranAtMs: r.state.ranAtMs, runs: outcomes.map((_, i) => i), outcomes } };
}

/** A header of version 2 (keyed by place and what it varies) as this version's, keyed by its
 *  start too (null: it is not of version 2, or does not read). Its chunks move to the new key. */
function fromVersion2(v: unknown): KeptHeader | null {
  const h = v as Partial<KeptHeader> | null;
  if (!h || typeof h !== 'object' || (h.version as number) !== 2 || !isStr(h.place) || !isStr(h.varies) || !h.state || typeof h.state !== 'object') return null;
  return { ...(h as KeptHeader), version: KEPT_SWEEP_VERSION, key: sweepKey(h.place, h.varies, h.state.ranAtMs) };
}

/** What made a kept sweep, for a record that does not say (kept before version 3): the
 *  scenario's own block when it ran the scenario as it was; else the algorithm sweep where it
 *  varies the switches' algorithm (the form cannot), else the form. */
function madeByOf(s: Partial<KeptState>): SweepMaker {
  if (s.madeBy === 'block' || s.madeBy === 'form' || s.madeBy === 'algorithms') return s.madeBy;
  if (!isStr(s.json) || s.json === s.sourceJson) return 'block';
  return sweepVaries(s.json) === 'nodes.*.algorithm' ? 'algorithms' : 'form';
}


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
export function restoreKept(v: unknown, live: ReadonlySet<string> | null = null): { state: KeptState; outcomes: (RunOutcome | undefined)[] } | null {
  const r = v as Partial<KeptSweep> | null;
  if (!r || typeof r !== 'object' || (r.version !== 1 && r.version !== 2 && r.version !== KEPT_SWEEP_VERSION) || !r.state || typeof r.state !== 'object') return null;
  const s = r.state as Partial<KeptState>;
  if (!isStr(s.scenarioId) || !isStr(s.origin) || !isStr(s.json) || !isStr(s.sourceJson)) return null;
  const plan = planIn(s.plan);
  if (!plan || !Array.isArray(r.outcomes) || r.outcomes.length !== plan.runs) return null;
  const phase = s.phase === 'done' || s.phase === 'cancelled' || s.phase === 'interrupted' ? s.phase : s.phase === 'running' ? 'interrupted' : null;
  // Kept running, its lock held: another tab runs it still.
  const runningInOtherTab = s.phase === 'running' && isStr(r.key) && !!live?.has(r.key);
  if (!phase) return null;
  const outcomes = r.outcomes.map(outcomeIn);
  const finished = outcomes.filter((o) => o !== undefined).length;
  const failed = outcomes.filter((o) => o && !o.ok).length;
  return {
    state: {
      phase: phase === 'done' && finished < plan.runs ? 'interrupted' : phase,
      madeBy: madeByOf(s),
      scenarioId: s.scenarioId,
      origin: s.origin,
      json: s.json,
      sourceJson: s.sourceJson,
      firstSeed: isNum(s.firstSeed) ? s.firstSeed : DEFAULT_SEED,
      plan,
      finished,
      failed,
      elapsedMs: isNum(s.elapsedMs) ? s.elapsedMs : 0,
      workers: isNum(s.workers) ? s.workers : 0,
      ranAtMs: isNum(s.ranAtMs) ? s.ranAtMs : isNum(r.savedMs) ? r.savedMs : 0,
      runningInOtherTab,
    },
    outcomes,
  };
}

/** Where sweeps are kept (IndexedDB in the browser; anything in tests). */
export interface SweepStore {
  /** The sweep kept under `key`, read back whole (null when none). */
  get(key: string): Promise<unknown>;
  /** The sweep kept last, of any scenario, read back whole (null when none). */
  latest(): Promise<unknown>;
  /** What is kept, the sweep started last first (no rows). */
  list(): Promise<KeptInfo[]>;
  /** Writes a sweep's header (if given) and its new rows, in one transaction. Beyond `most`
   *  kept, those `evicted` names go (the one that started first first, one still running in
   *  another tab — its key in `live` — only when no other is left); the sweep written never.
   *  Rows of a sweep no longer kept (let go so, or forgotten in another tab) are refused
   *  (`NOT_KEPT`), not written. */
  put(write: KeptWrite, most?: number, live?: ReadonlySet<string> | null): Promise<void>;
  /** Deletes the sweep kept under `key`, its rows with it (none kept: nothing happens). */
  remove(key: string): Promise<void>;
}

/** What a list says of a stored header (null: it does not read). */
export function keptInfo(v: unknown): KeptInfo | null {
  const h = v as Partial<KeptHeader> | null;
  if (!h || typeof h !== 'object' || h.version !== KEPT_SWEEP_VERSION || !isStr(h.key) || !isStr(h.place) || !isStr(h.varies) || !isStr(h.scenarioId)) return null;
  const plan = planIn(h.state?.plan);
  const phase = h.state?.phase;
  if (!plan || !isNum(h.savedMs) || (phase !== 'done' && phase !== 'cancelled' && phase !== 'interrupted' && phase !== 'running')) return null;
  return {
    key: h.key,
    place: h.place,
    varies: h.varies,
    scenarioId: h.scenarioId,
    savedMs: h.savedMs,
    ranAtMs: isNum(h.state?.ranAtMs) ? h.state.ranAtMs : h.savedMs,
    columns: plan.params.map((p) => p.column),
    phase: phase === 'running' ? 'interrupted' : phase,
    runs: plan.runs,
  };
}

/** The error name of rows refused because their sweep is no longer kept. */
export const NOT_KEPT = 'NotKept';

/** Which of `heads` (every header kept, the one being written among them) go so that `most`
 *  stay: first those that do not read, then the finished (done, cancelled) and those kept
 *  running that no page runs any more (their lock not held: `live`, the keys of those still
 *  running; null, not known: none is), the one that started first first; last those still
 *  running in another tab; never `writing`. (QA: a sweep whose tab died stayed kept running
 *  for ever, past every newer finished one.) */
export function evicted(heads: readonly unknown[], writing: string, most: number, live: ReadonlySet<string> | null = null): string[] {
  const keyed = heads.filter((h): h is KeptHeader => isStr((h as { key?: unknown } | null)?.key));
  const rank = (h: KeptHeader) => (keptInfo(h) === null ? 0 : h.state.phase === 'running' && live?.has(h.key) ? 2 : 1);
  const start = (h: KeptHeader) => (isNum(h.state?.ranAtMs) ? h.state.ranAtMs : isNum(h.savedMs) ? h.savedMs : 0);
  return evictedKeys(
    keyed.map((h) => ({ key: h.key, rank: rank(h), age: start(h) })),
    writing,
    most,
  );
}

const DB_VERSION = 3;
/** Version 1's one store: whole records by scenario id (read once, by the upgrade, then gone). */
const V1_STORE = 'sweeps';
const HEADS = 'kept';
const CHUNKS = 'rows';
const BY_SAVED = 'savedMs';

/** Every chunk of the sweep kept under `key`. */
const chunksOf = (key: string) => IDBKeyRange.bound([key, -Infinity], [key, Infinity]);

/** Makes the stores of the header and chunks, and moves an older version's records into them:
 *  version 1's (each a header and one chunk of all its rows; one that does not read is left
 *  behind), version 2's (each header and its chunks under its key with the sweep's start). */
function upgrade(db: IDBDatabase, oldVersion: number, tx: IDBTransaction) {
  if (!db.objectStoreNames.contains(HEADS)) db.createObjectStore(HEADS, { keyPath: 'key' }).createIndex(BY_SAVED, 'savedMs');
  if (!db.objectStoreNames.contains(CHUNKS)) db.createObjectStore(CHUNKS, { keyPath: ['key', 'seq'] });
  if (oldVersion === 2) rekeyVersion2(tx.objectStore(HEADS), tx.objectStore(CHUNKS));
  if (oldVersion < 2 && db.objectStoreNames.contains(V1_STORE)) {
    const heads = tx.objectStore(HEADS);
    const chunks = tx.objectStore(CHUNKS);
    const cursor = tx.objectStore(V1_STORE).openCursor();
    cursor.onsuccess = () => {
      const c = cursor.result;
      if (!c) {
        db.deleteObjectStore(V1_STORE);
        return;
      }
      const moved = fromVersion1(c.value);
      if (moved) {
        heads.put(moved.header);
        chunks.put(moved.chunk);
      }
      c.continue();
    };
  }
}

/** Version 2's headers and chunks under version 3's keys (`fromVersion2`); a chunk of another
 *  run than its header's (left over: version 2 kept one run a key), or of no header, goes. */
function rekeyVersion2(heads: IDBObjectStore, chunks: IDBObjectStore) {
  const all = heads.getAll();
  all.onsuccess = () => {
    const moved = new Map<string, { key: string; ranAtMs: unknown }>();
    for (const h of all.result as unknown[]) {
      const next = fromVersion2(h);
      if (!next) continue;
      moved.set((h as KeptHeader).key, { key: next.key, ranAtMs: next.state.ranAtMs });
      heads.delete((h as KeptHeader).key);
      heads.put(next);
    }
    const made = new Set([...moved.values()].map((m) => m.key));
    const cursor = chunks.openCursor();
    cursor.onsuccess = () => {
      const c = cursor.result;
      if (!c) return;
      const chunk = c.value as KeptChunk;
      // A chunk put here under its new key comes by again: it stays.
      if (!made.has(chunk.key)) {
        const to = moved.get(chunk.key);
        c.delete();
        if (to && chunk.ranAtMs === to.ranAtMs) chunks.put({ ...chunk, key: to.key });
      }
      c.continue();
    };
  };
}

/** Sweeps in IndexedDB: database `dbName`, a store of headers keyed by `key` (indexed by the
 *  time each was written) and one of chunks keyed by [key, seq]. */
export class IndexedDbSweepStore implements SweepStore {
  /** Opened at first use, let go when another tab upgrades it, opened again after. */
  readonly db: Database;

  constructor(factory: IDBFactory, dbName = 'abrlab-sweeps', opts: { blockedMs?: number } = {}) {
    this.db = new Database(factory, dbName, DB_VERSION, upgrade, opts);
  }

  private async read(key: string, tx?: IDBTransaction): Promise<unknown> {
    const t = tx ?? (await this.db.transaction([HEADS, CHUNKS], 'readonly'));
    const [header, chunks] = await Promise.all([request(t.objectStore(HEADS).get(key)), request(t.objectStore(CHUNKS).getAll(chunksOf(key)))]);
    return header === undefined ? null : assembled(header, chunks as unknown[]);
  }

  async get(key: string): Promise<unknown> {
    return this.read(key);
  }

  async latest(): Promise<unknown> {
    const tx = await this.db.transaction([HEADS, CHUNKS], 'readonly');
    const cursor = await request(tx.objectStore(HEADS).index(BY_SAVED).openKeyCursor(null, 'prev'));
    return cursor ? this.read(String(cursor.primaryKey), tx) : null;
  }

  async list(): Promise<KeptInfo[]> {
    const tx = await this.db.transaction(HEADS, 'readonly');
    const all = (await request(tx.objectStore(HEADS).getAll())) as unknown[];
    return all
      .map(keptInfo)
      .filter((i): i is KeptInfo => i !== null)
      .sort((a, b) => b.ranAtMs - a.ranAtMs || b.savedMs - a.savedMs);
  }

  async put(write: KeptWrite, most = MAX_KEPT_SWEEPS, live: ReadonlySet<string> | null = null): Promise<void> {
    const tx = await this.db.transaction([HEADS, CHUNKS], 'readwrite');
    const heads = tx.objectStore(HEADS);
    const chunks = tx.objectStore(CHUNKS);
    const { done, fail, inHandler } = writing(tx);
    const { key, header, chunk } = write;
    try {
      if (header) {
        heads.put(header);
        if (chunk) chunks.put(chunk);
        // The headers alone (the rows are not read): the ones to go, with their rows.
        const all = heads.getAll();
        all.onsuccess = () =>
          inHandler(() => {
            for (const k of evicted(all.result, key, most, live)) {
              heads.delete(k);
              chunks.delete(chunksOf(k));
            }
          });
      } else if (chunk) {
        // Rows only of a sweep still kept: none that no header will ever read.
        const kept = heads.count(key);
        kept.onsuccess = () =>
          inHandler(() => {
            if (kept.result === 0) fail(Object.assign(new Error('the browser let it go, to keep the newest sweeps, or it was forgotten in another tab'), { name: NOT_KEPT }));
            else chunks.put(chunk);
          });
      }
    } catch (e) {
      // A write refused at once (a value that does not clone, a full storage).
      fail(e);
    }
    await done;
  }

  async remove(key: string): Promise<void> {
    const tx = await this.db.transaction([HEADS, CHUNKS], 'readwrite');
    const { done } = writing(tx);
    tx.objectStore(HEADS).delete(key);
    tx.objectStore(CHUNKS).delete(chunksOf(key));
    await done;
  }
}

/** A store for a browser that keeps no sweeps (no IndexedDB, or turned off): every write is
 *  refused with `why`, and the note under the sweep says its results live in this page only. */
export function unavailableSweepStore(why: string): SweepStore {
  return { get: async () => null, latest: async () => null, list: async () => [], put: () => unavailable(why), remove: async () => {} };
}

/** The note under results the user had the browser forget. */
export const FORGOTTEN = 'These results are no longer kept in this browser (you had it forget them): a reload loses them.';

/** Why a write was refused, in a few words for the note. */
function reason(e: unknown): string {
  const name = (e as { name?: unknown } | null)?.name;
  if (name === 'QuotaExceededError') return 'the browser’s storage is full';
  return (e as Error | null)?.message || String(e);
}

/** The note under a sweep whose write was refused: a browser that keeps no sweeps at all says
 *  so plainly; a write that failed says why. */
export function unkeptNote(e: unknown): string {
  if ((e as { name?: unknown } | null)?.name === UNAVAILABLE) return `These results are kept in this page only (${reason(e)}): a reload loses them.`;
  return `These results could not be kept in the browser (${reason(e)}): a reload loses them.`;
}

/** What the Sweep tab offers of the sweeps kept for the scenario open: each of them (the most
 *  recent first), to show again. */
export interface KeptChoice {
  /** The open scenario's place (`sweepPlace`), '' before one opened. */
  place: string;
  kept: KeptInfo[];
}

/** What the Sweep tab uses of the keeper: the sweeps kept for the open scenario, and showing
 *  one of them. */
export interface KeptSweeps {
  subscribe(fn: () => void): () => void;
  getState(): KeptChoice;
  show(key: string): Promise<boolean>;
  /** Deletes the sweep kept under `key` from the browser (the user's *Forget*); false when the
   *  storage refused. */
  forget(key: string): Promise<boolean>;
}

/** Whether a kept sweep is the one shown (`s`): the same start, the same thing varied. */
export function isShown(info: KeptInfo, s: Pick<SweepState, 'ranAtMs' | 'json'>): boolean {
  return info.ranAtMs === s.ranAtMs && info.varies === sweepVaries(s.json);
}

/**
 * Which kept sweeps a page still runs: a page holds a lock on the key of the sweep it runs (the
 * browser lets it go when the page goes: closed, reloaded, crashed), so that a sweep kept
 * running whose lock no page holds reads as cut short, not as running.
 */
export interface SweepLocks {
  /** Holds the lock of the sweep kept under `key`; the answer lets it go. */
  hold(key: string): () => void;
  /** The keys of the sweeps a page (this one or another) runs now; null when it cannot tell. */
  held(): Promise<ReadonlySet<string> | null>;
}

const LOCK_PREFIX = 'abrlab-sweep:';

/** `SweepLocks` by the browser's Web Locks (`navigator.locks`, shared by the tabs of the lab);
 *  undefined without them (every sweep kept running then reads as cut short). */
export function webLocks(locks: Pick<LockManager, 'request' | 'query'> | undefined): SweepLocks | undefined {
  if (!locks) return undefined;
  return {
    hold(key) {
      let release = () => {};
      const holding = new Promise<void>((resolve) => (release = resolve));
      locks.request(LOCK_PREFIX + key, () => holding).catch(() => undefined);
      return release;
    },
    async held() {
      try {
        const { held = [] } = await locks.query();
        return new Set(held.map((l) => l.name ?? '').filter((n) => n.startsWith(LOCK_PREFIX)).map((n) => n.slice(LOCK_PREFIX.length)));
      } catch {
        return null;
      }
    },
  };
}

export interface KeeperOptions {
  /** The least time between two writes while a sweep runs (ms; KEEP_EVERY_MS). */
  everyMs?: number;
  most?: number;
  now?: () => number;
  /** Where the scenario open in the lab is kept: a sweep started is kept under it. */
  place?: () => Place;
  /** Told when a write landed (the browser is then asked to keep the lab's storage). */
  onKept?: () => void;
  /** The locks by which the tabs tell the sweeps they run (`webLocks`); none: a sweep kept
   *  running reads as cut short. */
  locks?: SweepLocks;
  /** This page's own id, in its sweeps' keys (`newPageId`). */
  pageId?: string;
}

/**
 * Keeps the session's sweep as it runs and when it ends, and shows a kept one on a new page.
 * Writes never overlap: one in flight, the next waits and takes the newest state.
 */
export class SweepKeeper implements KeptSweeps {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly writer = new OneWriteAtATime(() => this.writeOnce());
  private seen: { version: number; phase: string; ranAtMs: number } | null = null;
  /** Where the last sweep started was kept from (its place when it started). */
  private startedAt: { ranAtMs: number; place: string } | null = null;
  /** The sweep being kept (by its outcomes array): the runs sent in a write that landed, the
   *  next chunk's number, the phase its header was kept in (null: no header landed yet), and
   *  whether the store let it go (its rows are then not written again). */
  private current: { outcomes: unknown; key: string; place: string; sent: Uint8Array; seq: number; headerPhase: string | null; gone: boolean } | null = null;
  /** Lets go of the lock on the sweep this page runs (null: none held). */
  private release: (() => void) | null = null;
  /** The kept sweep shown (read back): where a finish of it (`SweepSession.finish`) is kept. */
  private shownKept: { outcomes: unknown; key: string; place: string; nextSeq: number; kept: Uint8Array } | null = null;
  private readonly pageId: string;
  /** How long the last write took (ms): writes take at most KEEP_BUSY_SHARE of the time. */
  private lastWriteMs = 0;
  private readonly choice = new StateCell<KeptChoice>({ place: '', kept: [] });
  /** The JSON id of the scenario open (its sweeps kept before places were are offered too). */
  private choiceScenarioId: string | undefined;

  constructor(
    private readonly session: SweepSession,
    private readonly store: SweepStore,
    private readonly opts: KeeperOptions = {},
  ) {
    this.pageId = opts.pageId ?? newPageId();
    session.subscribe(this.changed);
  }

  /** Holds the lock of the sweep kept under `key`, letting go of any other. */
  private hold(key: string | null) {
    this.release?.();
    this.release = key === null ? null : (this.opts.locks?.hold(key) ?? null);
  }

  subscribe = (fn: () => void) => this.choice.subscribe(fn);
  getState = () => this.choice.get();

  private now() {
    return (this.opts.now ?? Date.now)();
  }

  /** The keys of the sweeps some page runs now (null: not known). */
  private async live(): Promise<ReadonlySet<string> | null> {
    try {
      return (await this.opts.locks?.held()) ?? null;
    } catch {
      return null;
    }
  }

  private changed = () => {
    const s = this.session.getState();
    // A sweep is kept under the place of the scenario it was started from.
    if (s.phase === 'planning' && !s.restored && this.startedAt?.ranAtMs !== s.ranAtMs) {
      this.startedAt = { ranAtMs: s.ranAtMs, place: sweepPlace(this.opts.place?.() ?? { kind: 'none' }, s.scenarioId) };
    }
    // A sweep started: the one it replaces, if it ran, was cut short (no page runs it any more).
    if (s.phase === 'planning') this.hold(null);
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
      this.timer = setTimeout(
        () => {
          this.timer = null;
          void this.write();
        },
        Math.max(this.opts.everyMs ?? KEEP_EVERY_MS, this.lastWriteMs / KEEP_BUSY_SHARE),
      );
    }
  };

  /** Writes the session's sweep now (after the write in flight): the rows not yet written, and
   *  its header if what it records changed since the last that landed (a first write, a new
   *  phase); nothing when neither did. Resolves when it is written or refused (never rejects). */
  write(): Promise<void> {
    return this.writer.run();
  }

  /** One write (`write`, by `writer`): of the newest state. */
  private async writeOnce(): Promise<void> {
    const s = this.session.getState();
    if (s.restored || !s.plan) return;
    const outcomes = this.session.outcomes;
    if (this.current?.outcomes !== outcomes) {
      const resumed = this.shownKept?.outcomes === outcomes ? this.shownKept : null;
      if (resumed) {
        // A sweep read back and finished here (`SweepSession.finish`): the rest of its record,
        // the rows it was read back with kept already, its next chunks after those kept.
        this.current = { outcomes, key: resumed.key, place: resumed.place, sent: resumed.kept.slice(), seq: resumed.nextSeq, headerPhase: null, gone: false };
      } else {
        const sent = new Uint8Array(outcomes.length);
        const place = this.startedAt?.ranAtMs === s.ranAtMs ? this.startedAt.place : `scenario:${s.scenarioId}`;
        const key = sweepKey(place, sweepVaries(s.json), s.ranAtMs, this.pageId);
        this.current = { outcomes, key, place, sent, seq: 0, headerPhase: null, gone: false };
      }
      if (s.phase === 'running') this.hold(this.current.key);
    }
    const c = this.current;
    if (c.gone) {
      this.hold(null);
      return;
    }
    const runs: number[] = [];
    const rows: KeptOutcome[] = [];
    for (let i = 0; i < outcomes.length; i++) {
      if (outcomes[i] && !c.sent[i]) {
        runs.push(i);
        rows.push(keptOutcome(outcomes[i]));
      }
    }
    const started = this.now();
    const header = c.headerPhase === s.phase ? null : keptHeader(s, c.place, started, c.key);
    if (!header && runs.length === 0) return;
    const chunk = runs.length ? { key: c.key, seq: c.seq, ranAtMs: s.ranAtMs, runs, outcomes: rows } : null;
    try {
      // A header may make room (`evicted`): which sweeps other pages still run.
      const live = header ? await this.live() : null;
      await this.store.put({ key: c.key, header, chunk }, this.opts.most ?? MAX_KEPT_SWEEPS, live);
      for (const i of runs) c.sent[i] = 1;
      if (chunk) c.seq++;
      const first = c.headerPhase === null;
      if (header) c.headerPhase = header.state.phase;
      if (this.session.getState().ranAtMs === s.ranAtMs) this.session.noteUnkept(null);
      this.opts.onKept?.();
      if (first && this.choice.get().place) void this.refresh(this.choice.get().place, this.choiceScenarioId);
    } catch (e) {
      // Let go by the store (the newest kept in its place, or forgotten elsewhere): kept no more.
      if ((e as { name?: unknown } | null)?.name === NOT_KEPT) c.gone = true;
      if (this.session.getState().ranAtMs === s.ranAtMs) this.session.noteUnkept(unkeptNote(e));
    }
    // Ended (its last header written, or refused): no page runs it any more.
    if (s.phase !== 'running' && this.current === c) this.hold(null);
    this.lastWriteMs = this.now() - started;
  }

  /** Reads which sweeps are kept for `place` (the Sweep tab offers them). */
  private async refresh(place: string, scenarioId?: string): Promise<KeptInfo[]> {
    let all: KeptInfo[] = [];
    try {
      all = await this.store.list();
    } catch {
      // A storage that fails to read offers none.
    }
    const legacy = scenarioId === undefined ? null : `scenario:${scenarioId}`;
    const kept = all.filter((i) => i.place === place || i.place === legacy);
    if (this.choice.get().place === place) this.choice.set({ kept });
    return kept;
  }

  /**
   * Shows a sweep kept for the scenario open (`where`: its place and JSON id; `varies`, what its
   * Sweep tab is set to run, `tabVaries`) — the newest that varies that, else the newest kept of
   * it (the Sweep tab says it differs from the form); with `orLatest`, the last kept of any scenario when it has none —
   * unless a sweep runs or started meanwhile, the one shown is of that scenario already, or the
   * one shown could not be kept. True when it shows one. A storage that fails or holds a damaged
   * record shows nothing.
   */
  async restore(where: { place: Place; scenarioId: string; varies?: string } | undefined, orLatest = false): Promise<boolean> {
    const place = where ? sweepPlace(where.place, where.scenarioId) : '';
    this.choiceScenarioId = where?.scenarioId;
    if (this.choice.get().place !== place) this.choice.set({ place, kept: [] });
    const kept = where ? await this.refresh(place, where.scenarioId) : [];
    const shown = this.session.getState();
    if (shown.phase === 'planning' || shown.phase === 'running') return false;
    // Results this page could not keep are shown only here: another scenario's kept ones do not
    // take their place.
    if (shown.unkept && !shown.restored) return false;
    if (where && shown.scenarioId === where.scenarioId && shown.phase !== 'idle' && shown.phase !== 'refused') return false;
    const pick = kept.find((i) => i.varies === where?.varies) ?? kept[0];
    let record: unknown = null;
    try {
      if (pick) record = await this.store.get(pick.key);
      if (!restoreKept(record) && orLatest) record = await this.store.latest();
    } catch {
      return false;
    }
    return this.showRecord(record, shown, await this.live());
  }

  /** Shows the sweep kept under `key` (one of `getState().kept`), unless a sweep runs. */
  async show(key: string): Promise<boolean> {
    const shown = this.session.getState();
    if (shown.phase === 'planning' || shown.phase === 'running') return false;
    try {
      const record = await this.store.get(key);
      return this.showRecord(record, shown, await this.live());
    } catch {
      return false;
    }
  }

  /**
   * Deletes the sweep kept under `key` (not while a sweep runs: its next write would keep it
   * again). Shown, its results stay on the page, said to be kept no more: a reload loses them.
   */
  async forget(key: string): Promise<boolean> {
    const s = this.session.getState();
    if (s.phase === 'planning' || s.phase === 'running') return false;
    const info = this.choice.get().kept.find((k) => k.key === key);
    try {
      await this.store.remove(key);
    } catch {
      return false;
    }
    if (info && isShown(info, this.session.getState())) this.session.noteUnkept(FORGOTTEN);
    // The sweep written last, forgotten: it is not kept again (no write of it is due).
    if (this.current?.key === key) this.current.gone = true;
    const place = this.choice.get().place;
    if (place) await this.refresh(place, this.choiceScenarioId);
    return true;
  }

  private showRecord(record: unknown, shown: SweepState, live: ReadonlySet<string> | null): boolean {
    const kept = restoreKept(record, live);
    if (!kept) return false;
    const r = record as Partial<KeptSweep>;
    const showing = this.session.showKept({ ...shown, runningInOtherTab: false, ...kept.state, problems: null, message: null, version: shown.version + 1 }, kept.outcomes, shown);
    // Finished here later (`SweepSession.finish`), it is kept on in its own record.
    if (showing && isStr(r.key)) {
      this.shownKept = {
        outcomes: this.session.outcomes,
        key: r.key,
        place: isStr(r.place) ? r.place : `scenario:${kept.state.scenarioId}`,
        nextSeq: isNum(r.nextSeq) ? r.nextSeq : kept.state.plan!.runs,
        kept: Uint8Array.from(kept.outcomes, (o) => (o ? 1 : 0)),
      };
    }
    return showing;
  }
}
