// The one undo history of every network edit — the editor's and the side panel's (switch
// settings, forgetting the recorded changes, virtual paths) — and of every live parameter change made during a run (with the
// recorded changes it replaced), kept by the lab across tab changes, and the scenario text of
// the current load when it came from an edit, a live change or an undo (null when it came from
// elsewhere: then the history starts anew at the next edit).

import type { Scenario } from '../contract/scenario';
import { EditHistory } from '../scenario/history';
import type { Place } from '../scenario/place';
import { shapeProblem } from '../scenario/share';
import type { KeyValueStore } from '../scenario/storage';
import type { EditRecord, StepKind } from './loadQueue';

/** Where a tab keeps the undo history of each of the user's scenarios (sessionStorage: see
 *  `keepHistory`), by the scenario's own id. */
export const HISTORY_PREFIX = 'abrlab.history/';
/** The ids whose histories are kept, the most recently kept last. */
const HISTORY_INDEX = 'abrlab.history';
/** What is kept of a history: at most this many steps back and forth… */
export const HISTORY_STEPS = 50;
/** …and the steps nearest the present that fit in this many characters. */
export const HISTORY_CHARS = 500_000;
/** The histories of this many scenarios are kept (the most recently changed). */
const HISTORIES_KEPT = 4;
const STEP_KINDS: readonly StepKind[] = ['edit', 'live', 'forget'];

/** A step that left one scenario for another (an empty canvas starts a new scenario of the
 *  user's): where the document before it is kept, and where the one after it. */
export type Crossing = { from: Place; to: Place };

export class SharedEditHistory {
  history: EditHistory<Scenario> | null = null;
  /** The text of the current load when an edit or an undo sent it. */
  sent: string | null = null;
  /** What each step is, by the document it led to (the history holds those very objects). */
  private kinds = new WeakMap<Scenario, StepKind>();
  /** The steps that left one scenario for another, by the document they led to. */
  private crossings = new WeakMap<Scenario, Crossing>();

  /** Records an accepted edit (a new history if it was made on another document); an edit of
   *  a run joins the step before when that one is of the same run and recent (`atMs`).
   *  `crossing`: the edit started another scenario (an empty canvas), kept elsewhere. */
  record({ before, next, run, kind }: EditRecord, atMs: number, crossing?: Crossing) {
    if (!this.history) this.history = new EditHistory(before, undefined, sameScenario);
    else if (JSON.stringify(this.history.present) !== JSON.stringify(before)) this.history.reset(before);
    this.kinds.set(next, kind ?? 'edit');
    if (crossing) this.crossings.set(next, crossing);
    this.history.push(next, run === undefined ? undefined : { run, atMs });
  }

  /** Undoes or redoes a step: the document it leads to and what the step was (null when there
   *  is none to take); `place`, for a step that left one scenario for another, where the
   *  document it leads to is kept (undo returns to the scenario itself, not a copy of it). */
  travel(dir: 'undo' | 'redo'): { doc: Scenario; kind: StepKind; place?: Place } | null {
    const h = this.history;
    if (!h || !(dir === 'undo' ? h.canUndo : h.canRedo)) return null;
    // Undo takes back the step that led to the present; redo makes the one that leads on.
    const undone = h.present;
    const doc = dir === 'undo' ? h.undo() : h.redo();
    const step = dir === 'undo' ? undone : doc;
    const crossing = this.crossings.get(step);
    const place = crossing && (dir === 'undo' ? crossing.from : crossing.to);
    return { doc, kind: this.kinds.get(step) ?? 'edit', ...(place ? { place } : {}) };
  }

  /** Forgets the history (a scenario from elsewhere). */
  forget() {
    this.history = null;
  }

  /** Each document's text, made once (a history is written again at every step). */
  private texts = new WeakMap<Scenario, string>();
  private text(doc: Scenario): string {
    let t = this.texts.get(doc);
    if (t === undefined) this.texts.set(doc, (t = JSON.stringify(doc)));
    return t;
  }

  /**
   * The history as it is kept (null: none): version 1, each document with the kind of the step
   * that led to it and where it crossed to another scenario; at most HISTORY_STEPS back and
   * forth, and within HISTORY_CHARS, the steps farthest from the present left out first.
   */
  encode(): string | null {
    const h = this.history;
    if (!h) return null;
    const step = (doc: Scenario) => {
      const kind = this.kinds.get(doc);
      const crossing = this.crossings.get(doc);
      return `{"doc":${this.text(doc)}${kind ? `,"kind":${JSON.stringify(kind)}` : ''}${crossing ? `,"crossing":${JSON.stringify(crossing)}` : ''}}`;
    };
    const past = h.steps.past.slice(-HISTORY_STEPS).map(step);
    const future = h.steps.future.slice(-HISTORY_STEPS).map(step);
    const present = step(h.present);
    let chars = present.length + [...past, ...future].reduce((n, t) => n + t.length + 1, 0);
    while (chars > HISTORY_CHARS && past.length + future.length > 0) chars -= (past.length >= future.length ? past.shift()! : future.shift()!).length + 1;
    return `{"v":1,"past":[${past.join(',')}],"present":${present},"future":[${future.join(',')}]}`;
  }

  /**
   * Goes on from a kept history (`encode`'s text) whose present is `doc`, the scenario just
   * opened: true when taken. Anything unreadable, of another version or of another text is
   * not taken, and the history stays as it was.
   */
  restore(text: string, doc: Scenario, { onTop = false }: { onTop?: boolean } = {}): boolean {
    const kept = decodeHistory(text);
    if (!kept) return false;
    const same = JSON.stringify(kept.present.doc) === JSON.stringify(doc);
    // `onTop`: `doc` is a change the page went away before the engine took (the last work),
    // made on the kept present: it is a step of its own on top.
    if (!same && !onTop) return false;
    const present = same ? doc : kept.present.doc;
    this.history = EditHistory.restored(
      kept.past.map((s) => s.doc),
      present,
      same ? kept.future.map((s) => s.doc) : [],
      undefined,
      sameScenario,
    );
    for (const s of [...kept.past, ...kept.future, { ...kept.present, doc: present }]) {
      if (s.kind) this.kinds.set(s.doc, s.kind);
      if (s.crossing) this.crossings.set(s.doc, s.crossing);
    }
    if (!same) this.history.push(doc);
    return true;
  }
}

type KeptStep = { doc: Scenario; kind?: StepKind; crossing?: Crossing };

function placeOk(p: unknown): p is Place {
  const q = p as { kind?: unknown; id?: unknown } | null;
  return !!q && typeof q === 'object' && (q.kind === 'none' || ((q.kind === 'mine' || q.kind === 'library') && typeof q.id === 'string'));
}

function keptStep(v: unknown): KeptStep | null {
  const s = v as { doc?: unknown; kind?: unknown; crossing?: { from?: unknown; to?: unknown } } | null;
  if (!s || typeof s !== 'object' || shapeProblem(s.doc) !== null) return null;
  if (s.kind !== undefined && !STEP_KINDS.includes(s.kind as StepKind)) return null;
  if (s.crossing !== undefined && !(s.crossing && placeOk(s.crossing.from) && placeOk(s.crossing.to))) return null;
  return s as KeptStep;
}

/** A kept history, or null when any of it cannot be read (the whole is then passed over). */
export function decodeHistory(text: string): { past: KeptStep[]; present: KeptStep; future: KeptStep[] } | null {
  let v: { v?: unknown; past?: unknown; present?: unknown; future?: unknown };
  try {
    v = JSON.parse(text) as typeof v;
  } catch {
    return null;
  }
  if (!v || typeof v !== 'object' || v.v !== 1 || !Array.isArray(v.past) || !Array.isArray(v.future)) return null;
  const past = v.past.map(keptStep);
  const future = v.future.map(keptStep);
  const present = keptStep(v.present);
  if (!present || past.includes(null) || future.includes(null)) return null;
  return { past: past as KeptStep[], present, future: future as KeptStep[] };
}

/**
 * The key a place's undo history is kept under (null: none, a file or a link): one of the
 * user's scenarios by its id, a library scenario by `library:<id>` (an undo of an empty canvas
 * returns to one, and its redo must outlive a reload as it does for the user's own).
 */
export function historyId(place: Place): string | null {
  return place.kind === 'mine' ? place.id : place.kind === 'library' ? `library:${place.id}` : null;
}

/** The kept history of the user's scenario `id` (null: none, or storage unreadable). */
export function readHistory(storage: KeyValueStore | null, id: string): string | null {
  try {
    return storage?.getItem(HISTORY_PREFIX + id) ?? null;
  } catch {
    return null;
  }
}

/**
 * Keeps the history of the user's scenario `id` in this tab's sessionStorage: the history is
 * the tab's (another tab's undo never takes back this tab's steps, as each tab reopens its own
 * last work), written at once with each step, so a reload or a crash keeps every one (an
 * IndexedDB write might not finish). The histories of the HISTORIES_KEPT scenarios changed
 * last are kept; over quota, the others go first, then the steps farthest from the present.
 */
export function keepHistory(storage: KeyValueStore | null, id: string, text: string) {
  if (!storage) return;
  let ids: string[] = [];
  try {
    const v = JSON.parse(storage.getItem(HISTORY_INDEX) ?? '[]') as unknown;
    if (Array.isArray(v)) ids = v.filter((x): x is string => typeof x === 'string');
  } catch {
    ids = [];
  }
  ids = [...ids.filter((x) => x !== id), id];
  const drop = (x: string) => {
    try {
      storage.removeItem?.(HISTORY_PREFIX + x);
    } catch {
      // Storage off: nothing to drop.
    }
  };
  while (ids.length > HISTORIES_KEPT) drop(ids.shift()!);
  for (let attempt = 0; attempt <= HISTORIES_KEPT; attempt++) {
    try {
      storage.setItem(HISTORY_PREFIX + id, text);
      storage.setItem(HISTORY_INDEX, JSON.stringify(ids));
      return;
    } catch {
      // Over quota: the other scenarios' histories go first.
      if (ids.length <= 1) break;
      drop(ids.shift()!);
    }
  }
  drop(id); // too big even alone: no history rather than a stale one
}

/** Two scenarios are one document when their texts are (an arrow run back to its start). */
const sameScenario = (a: Scenario, b: Scenario) => a === b || JSON.stringify(a) === JSON.stringify(b);
