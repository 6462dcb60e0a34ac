// A comparison's results kept in the browser ("nothing a user made is ever lost"): a reload, a
// closed tab or a browser restart brings back the last comparison of each scenario place with
// its table, at once, from what is kept; its charts are drawn again by running its variants
// again (runs are deterministic: a scenario and its seed give one digest), and each run is
// checked against the digest kept ("✓ the same runs"), or said to differ.
//
//   CompareSession ──state──▶ CompareKeeper ──write──▶ CompareStore (IndexedDB: abrlab-compare)
//        ▲                                                 │  kept: one record a place
//        └────── showKept ◀── restore (a new page) ◀───────┘  (its variants, rows, digests)
//
// What is kept is small — at most five runs, each its summary row and digest, the variants and
// the scenarios they ran — so a comparison is one record, written whole as each run finishes
// (never the samples: a run again gives them back). A database of its own: the scenarios' and
// the sweeps' are not upgraded for it. Every record carries a version; one that does not read is
// passed over. Keeping is best effort: a refused write leaves the comparison as it is, with a
// quiet note that a reload loses it.

import { isVariantDraft, MAX_COMPARE_RUNS, type CompareOutcome, type PlannedRun, type VariantDraft, type VariantSpec } from './compare';
import type { CompareSession, CompareState, KeptCompareState } from './compareSession';
import { parseRow } from './sweepTable';
import { rowText, unkeptNote } from './sweepKeep';
import { OneWriteAtATime } from './oneWriteAtATime';
import { Database, evictedKeys, isNum, isStr, request, unavailable, writing } from '../scenario/indexedDb';
import { draftsKey, type Place } from '../scenario/place';

/** The version of a kept comparison's record (a change of its fields gets a new one and a migration). */
export const KEPT_COMPARE_VERSION = 1;
/** The most comparisons kept (the most recently written): one a scenario place. */
export const MAX_KEPT_COMPARISONS = 10;
/** A kept comparison that took longer than this (ms, its runs' wall time) is run again for its
 *  charts only on a click: every reload of a class's laptops would otherwise spend a minute of
 *  their processors on charts nobody asked to see yet. Shorter ones are run again at once. */
export const AUTO_REDRAW_MAX_MS = 20_000;

/** One run's outcome as kept: its row as the engine wrote it (`parseRow` reads it back), or why
 *  it failed; null for a run not finished. */
export type KeptRun = { row: string; digest: string } | { error: string } | null;

/** A kept comparison, as stored. */
export interface KeptComparison {
  version: typeof KEPT_COMPARE_VERSION;
  /** The compared scenario's place (`draftsKey`): a new comparison of it replaces this one. */
  key: string;
  /** When this record was written (ms since the epoch): the fewest kept go by it. */
  savedMs: number;
  /** When the comparison started (ms since the epoch). */
  ranAtMs: number;
  /** Its phase when written: `running` read back is a comparison cut short (by the reload). */
  phase: 'running' | 'done' | 'cancelled';
  json: string;
  variants: VariantSpec[];
  drafts: VariantDraft[];
  runs: PlannedRun[];
  /** Per run: the scenario it ran, its variant's changes made (empty before they were made). */
  scenarios: string[];
  notes: string[];
  outcomes: KeptRun[];
  /** The runs' wall time (ms). */
  elapsedMs: number;
}

function keptRun(o: CompareOutcome | undefined): KeptRun {
  if (!o) return null;
  return o.ok ? { row: rowText(o.cells), digest: o.digest } : { error: o.error };
}

/** The record of the session's comparison, written at `savedMs` (null: nothing to keep — no
 *  place, or nothing that ran). */
function keptComparison(s: CompareState, savedMs: number): KeptComparison | null {
  if (s.key === null || s.runs.length === 0) return null;
  const phase = s.phase === 'done' || s.phase === 'cancelled' ? s.phase : s.phase === 'running' || s.phase === 'kept' ? 'running' : null;
  if (!phase) return null;
  return {
    version: KEPT_COMPARE_VERSION,
    key: s.key,
    savedMs,
    ranAtMs: s.ranAtMs,
    // A kept comparison shown again and not finished stays one to finish.
    phase: s.phase === 'kept' && s.outcomes.every((o) => o !== undefined) ? 'done' : phase,
    json: s.json,
    variants: s.variants,
    drafts: s.drafts,
    runs: s.runs,
    scenarios: s.scenarios,
    notes: s.notes,
    outcomes: s.outcomes.map(keptRun),
    elapsedMs: s.elapsedMs,
  };
}

const isStrList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isStr);

function isSpec(v: unknown): v is VariantSpec {
  const x = v as Partial<VariantSpec> | null;
  return !!x && typeof x === 'object' && (x.from === undefined || isStr(x.from)) && isStrList(x.sets);
}

function isRun(v: unknown): v is PlannedRun {
  const x = v as Partial<PlannedRun> | null;
  return !!x && typeof x === 'object' && isStr(x.label) && isStr(x.json) && isStrList(x.sets) && Number.isInteger(x.variant);
}

function outcomeIn(v: unknown): CompareOutcome | undefined {
  const o = v as Partial<{ row: unknown; digest: unknown; error: unknown }> | null;
  if (!o || typeof o !== 'object') return undefined;
  if (isStr(o.error)) return { ok: false, error: o.error };
  if (isStr(o.row) && isStr(o.digest)) return { ok: true, cells: parseRow(o.row), digest: o.digest };
  return undefined;
}

/** A kept comparison read back: what the session shows, and whether every run had finished. */
export interface RestoredComparison {
  state: KeptCompareState;
  /** Every run had an outcome when it was kept. */
  finished: boolean;
}

/**
 * A stored record as the session shows it, or null when it does not read (no record, another
 * version, a field missing or of the wrong kind, more runs than a comparison has, outcomes or
 * scenarios not one a run). A run whose outcome does not read counts as not finished.
 */
export function restoreComparison(v: unknown): RestoredComparison | null {
  const r = v as Partial<KeptComparison> | null;
  if (!r || typeof r !== 'object' || r.version !== KEPT_COMPARE_VERSION) return null;
  if (!isStr(r.key) || !isStr(r.json) || !isNum(r.ranAtMs)) return null;
  if (!Array.isArray(r.runs) || r.runs.length === 0 || r.runs.length > MAX_COMPARE_RUNS || !r.runs.every(isRun)) return null;
  if (!Array.isArray(r.variants) || !r.variants.every(isSpec) || !Array.isArray(r.drafts) || !r.drafts.every(isVariantDraft)) return null;
  if (!isStrList(r.scenarios) || (r.scenarios.length !== 0 && r.scenarios.length !== r.runs.length)) return null;
  if (!Array.isArray(r.outcomes) || r.outcomes.length !== r.runs.length) return null;
  // Outcomes come only once the variants' scenarios are made.
  const outcomes = r.scenarios.length ? r.outcomes.map(outcomeIn) : r.runs.map(() => undefined);
  return {
    state: {
      json: r.json,
      variants: r.variants,
      drafts: r.drafts,
      runs: r.runs,
      outcomes,
      scenarios: r.scenarios,
      notes: isStrList(r.notes) ? r.notes : [],
      elapsedMs: isNum(r.elapsedMs) ? r.elapsedMs : 0,
      key: r.key,
      ranAtMs: r.ranAtMs,
    },
    finished: outcomes.every((o) => o !== undefined),
  };
}

/** Where comparisons are kept (IndexedDB in the browser; anything in tests). */
export interface CompareStore {
  /** The comparison kept under `key` (null when none). */
  get(key: string): Promise<unknown>;
  /** Keeps `record` in place of the one under its key; beyond `most`, those that do not read
   *  and then the oldest written go (`evictedComparisons`). */
  put(record: KeptComparison, most?: number): Promise<void>;
  /** Deletes the comparison kept under `key` (none kept: nothing happens). */
  remove(key: string): Promise<void>;
}

const DB_VERSION = 1;
const KEPT = 'kept';
const BY_SAVED = 'savedMs';

/** Comparisons in IndexedDB: database `dbName`, one store of records keyed by `key`, indexed by
 *  the time each was written. */
export class IndexedDbCompareStore implements CompareStore {
  /** Opened at first use, let go when another tab upgrades it, opened again after. */
  readonly db: Database;

  constructor(factory: IDBFactory, dbName = 'abrlab-compare', opts: { blockedMs?: number } = {}) {
    this.db = new Database(
      factory,
      dbName,
      DB_VERSION,
      (db, oldVersion) => {
        if (oldVersion < 1) db.createObjectStore(KEPT, { keyPath: 'key' }).createIndex(BY_SAVED, 'savedMs');
      },
      opts,
    );
  }

  async get(key: string): Promise<unknown> {
    const tx = await this.db.transaction(KEPT, 'readonly');
    return (await request(tx.objectStore(KEPT).get(key))) ?? null;
  }

  async put(record: KeptComparison, most = MAX_KEPT_COMPARISONS): Promise<void> {
    const tx = await this.db.transaction(KEPT, 'readwrite');
    const kept = tx.objectStore(KEPT);
    const { done, fail, inHandler } = writing(tx);
    try {
      kept.put(record);
      // Every record kept (each small: at most five runs), the one written among them.
      const all = kept.getAll();
      all.onsuccess = () => inHandler(() => evictedComparisons(all.result, record.key, most).forEach((k) => kept.delete(k)));
    } catch (e) {
      // A write refused at once (a value that does not clone, a full storage).
      fail(e);
    }
    await done;
  }

  async remove(key: string): Promise<void> {
    const tx = await this.db.transaction(KEPT, 'readwrite');
    const { done } = writing(tx);
    tx.objectStore(KEPT).delete(key);
    await done;
  }
}

/** Which of `kept` (every record, the one being written among them) go so that `most` stay:
 *  those that do not read first, then the oldest written; never `writing`. */
function evictedComparisons(kept: readonly unknown[], writing: string, most: number): string[] {
  const keyed = kept.filter((r): r is { key: string } => isStr((r as { key?: unknown } | null)?.key));
  return evictedKeys(
    keyed.map((r) => ({ key: r.key, rank: restoreComparison(r) ? 1 : 0, age: isNum((r as Partial<KeptComparison>).savedMs) ? (r as KeptComparison).savedMs : 0 })),
    writing,
    most,
  );
}

/** A store for a browser that keeps nothing (no IndexedDB, or turned off): every write is
 *  refused with `why`, and the note under the comparison says it lives in this page only. */
export function unavailableCompareStore(why: string): CompareStore {
  return { get: async () => null, put: () => unavailable(why), remove: async () => {} };
}

/** The note under a comparison the user had the browser forget. */
export const FORGOTTEN_COMPARISON = 'This comparison is no longer kept in this browser (you had it forget it): a reload loses it.';

/** What the Compare view uses of the keeper: forgetting the comparison shown. */
export interface KeptComparisons {
  /** Deletes the comparison shown from the browser (the user's *Forget*); false when the
   *  storage refused, or it runs (its next write would keep it again). */
  forget(): Promise<boolean>;
}

export interface CompareKeeperOptions {
  most?: number;
  now?: () => number;
  /** Told when a write landed (the browser is then asked to keep the lab's storage). */
  onKept?: () => void;
}

/**
 * Keeps the session's comparison when it starts and as each run finishes, and shows a kept one
 * on a new page. Writes never overlap: one in flight, the next waits and takes the newest state.
 */
export class CompareKeeper implements KeptComparisons {
  private readonly writer = new OneWriteAtATime(() => this.writeOnce());
  /** The state last written or asked to be (a change of anything else is not written again). */
  private seen: Pick<CompareState, 'phase' | 'outcomes' | 'scenarios' | 'ranAtMs'> | null = null;
  /** The comparison the user had forgotten (by its start): not written again. */
  private forgotten = -1;

  constructor(
    private readonly session: CompareSession,
    private readonly store: CompareStore,
    private readonly opts: CompareKeeperOptions = {},
  ) {
    session.subscribe(this.changed);
  }

  private now() {
    return (this.opts.now ?? Date.now)();
  }

  private changed = () => {
    const s = this.session.getState();
    if (s.phase === 'idle' || s.phase === 'refused' || s.key === null || s.ranAtMs === this.forgotten) return;
    const seen = this.seen;
    if (seen && seen.phase === s.phase && seen.outcomes === s.outcomes && seen.scenarios === s.scenarios && seen.ranAtMs === s.ranAtMs) return;
    this.seen = { phase: s.phase, outcomes: s.outcomes, scenarios: s.scenarios, ranAtMs: s.ranAtMs };
    // Read back just now: kept already.
    if (s.phase === 'kept') return;
    void this.write();
  };

  /** Writes the session's comparison now (after the write in flight); resolves when it is
   *  written or refused (never rejects). */
  write(): Promise<void> {
    return this.writer.run();
  }

  /** One write (`write`, by `writer`): of the newest state. */
  private async writeOnce(): Promise<void> {
    const s = this.session.getState();
    const record = keptComparison(s, this.now());
    if (!record || s.ranAtMs === this.forgotten) return;
    try {
      await this.store.put(record, this.opts.most ?? MAX_KEPT_COMPARISONS);
      this.session.noteKept(s.ranAtMs, null);
      this.opts.onKept?.();
    } catch (e) {
      this.session.noteKept(s.ranAtMs, unkeptNote(e));
    }
  }

  /**
   * Shows the comparison kept for the scenario at `place` (its JSON id `scenarioId`), unless the
   * page shows one already: its table at once; its runs run again for the charts at once when
   * it finished in under AUTO_REDRAW_MAX_MS, else on a click (a comparison cut short is
   * finished on a click too). True when it shows one; a storage that fails or a damaged record
   * shows nothing.
   */
  async restore(place: Place, scenarioId: string | null): Promise<boolean> {
    const key = draftsKey(place, scenarioId);
    if (key === null || this.session.getState().phase !== 'idle') return false;
    let kept: RestoredComparison | null;
    try {
      kept = restoreComparison(await this.store.get(key));
    } catch {
      return false;
    }
    if (!kept || kept.state.key !== key) return false;
    // (Shown, it is not written back: `changed` passes over a comparison in its phase `kept`.)
    return this.session.showKept(kept.state, { auto: kept.finished && kept.state.elapsedMs <= AUTO_REDRAW_MAX_MS });
  }

  /**
   * The open scenario moved (a first change made a library scenario, a file or a link the user's
   * own): its last comparison goes with it, as its variants do (`CompareDrafts.moved`); the place
   * it left keeps its own. The comparison shown, if of it, is written under the new place from
   * now on; else the record kept for the old place is copied, unless the new one has its own.
   */
  async moved(from: Place, to: Place, scenarioId: string | null): Promise<void> {
    const fromKey = draftsKey(from, scenarioId);
    const toKey = draftsKey(to, scenarioId);
    if (fromKey === null || toKey === null || fromKey === toKey) return;
    const s = this.session.getState();
    if (s.key === fromKey && s.phase !== 'idle' && s.phase !== 'refused') {
      this.session.rekey(fromKey, toKey);
      if (s.ranAtMs !== this.forgotten) await this.write();
      return;
    }
    try {
      if ((await this.store.get(toKey)) !== null) return;
      const record = await this.store.get(fromKey);
      if (!restoreComparison(record)) return;
      await this.store.put({ ...(record as KeptComparison), key: toKey, savedMs: this.now() }, this.opts.most ?? MAX_KEPT_COMPARISONS);
    } catch {
      // Best effort: the place it left keeps it.
    }
  }

  async forget(): Promise<boolean> {
    const s = this.session.getState();
    if (s.phase === 'running' || s.key === null) return false;
    try {
      await this.store.remove(s.key);
    } catch {
      return false;
    }
    this.forgotten = s.ranAtMs;
    this.session.noteKept(s.ranAtMs, FORGOTTEN_COMPARISON);
    return true;
  }
}
