// Loads on their way to the engine, one at a time: a load asked for while another is on its
// way waits for it, so that "the scenario loaded" is always well defined and an edit queued
// behind another applies to what that one brought. A load also waits while the queue is held
// (a live parameter change the engine has not confirmed yet: the edit goes on top of it). Each load carries a number the worker
// echoes in its answer, so that a reset's restart is not taken for the answer to a load.

import type { Problem } from '../contract/engine';
import type { Scenario } from '../contract/scenario';
import { NOWHERE, type Place } from '../scenario/place';
import { shapeProblem } from '../scenario/share';
import type { Speed } from '../engine/protocol';
import type { LabState, LoadedScenario, SwitchFeedback } from './state';

/** What an undo step is, recorded with it: an edit of the network (its undo restarts the run),
 *  a live parameter change, or forgetting the recorded changes (their undo and redo replay the
 *  run to the time it was at). */
export type StepKind = 'edit' | 'live' | 'forget';
/** An edit of the network: the document it was made on and the document it made; `run`: the
 *  run of small edits it continues, to be one undo step with them (see EditHistory); `kind`:
 *  what the step is ('edit' when not said). */
export type EditRecord = { before: Scenario; next: Scenario; run?: string; kind?: StepKind };
/** What a load carries for the undo history: an edit to record, or a step back or forth in it. */
export type Carried = EditRecord | 'travel';
/** A switch edit from the side panel: the switch, and what to say once it is loaded (`at`:
 *  where the note goes; `undoable`: with Undo and Redo buttons, see SwitchFeedback). */
export type SwitchEdit = { node: string; note: string } & Pick<SwitchFeedback, 'at' | 'undoable'>;
/** A virtual path edit: the index of the path it adds (null: a deletion), and its note. */
export type PathEdit = { index: number | null; note: string };
/** How the page address follows a load once it is in: a new history entry (the user opened
 *  something), the same entry, or not at all (back/forward brought it). */
export type Nav = 'push' | 'replace' | 'none';
/** A load as it is sent: the scenario text, what it carries, and what to say of a switch or
 *  virtual path edit once it is loaded or refused. `place`: where a scenario opened from
 *  elsewhere is kept (an edit stays where the loaded one is). */
export type Load = {
  json: string;
  carried: Carried | null;
  edit: SwitchEdit | null;
  pathEdit: PathEdit | null;
  place?: Place;
  nav?: Nav;
  /** A change the user made to the loaded scenario: once in, it is kept as their own. */
  edited?: boolean;
  /** The change starts a new scenario of the user's (an empty canvas): kept under an id of its
   *  own, the scenario it was made on staying as it was. */
  fresh?: boolean;
  /** A change the page went away before keeping, opened again (the last work): kept at this
   *  place (a new id when it is nowhere). */
  keepAt?: Place;
  /** An undo or redo across a fresh start: the scenario it returns to, kept at this place as
   *  the step found it (not a change: no copy of it is made). */
  travelTo?: Place;
  /** With `keepAt`: what opens if the engine refuses the change and nothing else is open or
   *  coming (the text it was made on, else a library scenario), so that a reload never leaves
   *  the lab empty. */
  fallback?: { json: string; origin: string; place: Place };
  /** The problems of such a refused change, shown once this load (its fallback) is in, with
   *  the change's text to save as a file. */
  refused?: NonNullable<LabState['problems']>;
  /** The speed to play a scenario opened from elsewhere at (a link's); none: its default. */
  speed?: Speed;
  /** Once in, the run goes on to this simulated time (ms) and pauses there: an undo or redo of
   *  a live change rebuilds the run the user was watching, up to where it was. */
  resumeAtMs?: number;
};
/** Makes a load from the network loaded when it is sent (edits queued behind another load
 *  apply to what that load brought); null: nothing to send. */
export type MakeLoad = (loaded: Scenario | null) => Load | null;

/** The load on its way: the scenario it brings and what it carries. */
export type PendingLoad = { doc: LoadedScenario; load: Load };

/** Where the change a load brings is kept, once in: nowhere yet for a fresh scenario (a new
 *  id), the place it was meant for, or else where the scenario it was made on (`loadedPlace`) is. */
export function changeKeptAt(load: Load, loadedPlace: Place): Place {
  return load.fresh ? NOWHERE : (load.keepAt ?? loadedPlace);
}

/** A load of this scenario text, with what it carries for the undo history. */
export function loadOf(json: string, carried: Carried | null = null): Load {
  return { json, carried, edit: null, pathEdit: null, edited: carried !== null };
}

/** The load of an edit made on `before`: the undo history records it once it is accepted (a
 *  change kept as the user's own scenario). */
export function editLoad(before: Scenario, next: Scenario, kind?: StepKind): Load {
  return loadOf(JSON.stringify(next, null, 2), kind ? { before, next, kind } : { before, next });
}

export class LoadQueue {
  private pending: PendingLoad | null = null;
  /** The number of the pending load: its answer carries it back. */
  private seq = 0;
  private waiting: { origin: string; make: MakeLoad }[] = [];

  constructor(
    /** The scenario loaded now. */
    private readonly loaded: () => Scenario | null,
    /** Sends a scenario to the engine with the number its answer will carry. */
    private readonly send: (json: string, seq: number) => void,
    /** A load that is not even JSON: its problem (the queue goes on). */
    private readonly unreadable: (origin: string, problems: Problem[]) => void,
    /** Called whenever the load on its way changes (sent, answered, dropped). */
    private readonly changed: () => void = () => {},
    /** Whether loads wait for now though none is on its way (`next` once that ends). */
    private readonly held: () => boolean = () => false,
  ) {}

  /** Whether a load is on its way or waits to be sent. */
  get busy(): boolean {
    return this.pending !== null || this.waiting.length > 0;
  }

  /** The load on its way, if any. */
  get onItsWay(): PendingLoad | null {
    return this.pending;
  }

  /** Sends a load now, or queues it behind the load on its way, or until the queue is no longer
   *  held (made when it is sent). */
  dispatch(origin: string, make: MakeLoad) {
    this.waiting.push({ origin, make });
    this.next();
  }

  /** Sends the next queued load, if any, unless one is on its way or the queue is held (after
   *  an answer, and once the queue is let go). */
  next() {
    while (!this.pending && !this.held()) {
      const q = this.waiting.shift();
      if (!q) return;
      const load = q.make(this.loaded());
      if (load) this.start(load, q.origin);
    }
  }

  /** Whether an answer numbered `seq` is not for the load on its way (a reset's or a crash
   *  reload's restart while a load is pending). */
  isOther(seq: number | undefined): boolean {
    return this.pending !== null && seq !== this.seq;
  }

  /** Takes the answered load off (null when none was on its way). */
  take(): PendingLoad | null {
    const p = this.pending;
    this.pending = null;
    if (p) this.changed();
    return p;
  }

  /**
   * The last change to the user's work among the load on its way and those waiting behind it,
   * each made (not sent) on what the one before it brings, and where it is to be kept
   * (`loadedPlace`: where the loaded scenario is): what the page going away must keep. An
   * edit queued behind another was lost when only the load on its way was kept.
   */
  lastChange(loadedPlace: Place): { json: string; origin: string; place: Place } | null {
    let doc = this.loaded();
    let place = loadedPlace;
    let last: { json: string; origin: string; place: Place } | null = null;
    const follow = (load: Load, origin: string) => {
      const keptAt = changeKeptAt(load, place);
      if (load.edited) last = { json: load.json, origin, place: keptAt };
      place = load.edited ? keptAt : (load.place ?? NOWHERE);
    };
    if (this.pending) {
      follow(this.pending.load, this.pending.doc.origin);
      doc = this.pending.doc.scenario;
    }
    for (const q of this.waiting) {
      const load = q.make(doc);
      const next = load && readScenario(load.json);
      if (!load || typeof next !== 'object') continue; // refused when sent: the work stays what it was
      follow(load, q.origin);
      doc = next;
    }
    return last;
  }

  /** How many loads wait behind the one on its way. */
  get queued(): number {
    return this.waiting.length;
  }

  private start(load: Load, origin: string) {
    const scenario = readScenario(load.json);
    if (typeof scenario === 'string') {
      this.unreadable(origin, [{ path: '', rule: scenario }]);
      return; // the queue goes on (`next`)
    }
    const doc = { id: String(scenario.id), scenario, json: load.json, origin, place: load.place ?? NOWHERE };
    this.pending = { doc, load };
    this.seq += 1;
    this.changed();
    this.send(load.json, this.seq);
  }
}

/** A load's text as a scenario of the shape the engine takes, or what is wrong with it. */
function readScenario(json: string): Scenario | string {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (e) {
    return `not valid JSON: ${(e as Error).message}`;
  }
  return shapeProblem(value) ?? (value as Scenario);
}
