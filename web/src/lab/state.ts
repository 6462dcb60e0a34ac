// What the lab shows: a small snapshot (status, scenario, problems, feedback of the last edit)
// that components read with useSyncExternalStore. Time series are never here: they go to the
// sample sink (the charts' store).

import type { Catalogue, Problem, RunSummary, SeriesMeta } from '../contract/engine';
import type { Scenario } from '../contract/scenario';
import type { RmQuery, RunStatus, Speed } from '../engine/protocol';
import type { MyScenarioInfo } from '../scenario/myScenarios';
import type { Place } from '../scenario/place';
import type { SideTab, ViewTab } from '../scenario/share';
import type { RmRecord } from '../contract/engine';
import type { Explanation } from './explain';


/** The origin of a scenario opened from a shared link (`#s=2.…`). */
export const SHARED_ORIGIN = 'shared link';
export interface LoadedScenario {
  id: string;
  scenario: Scenario;
  json: string;
  /** Where it came from: a library id or a file name. */
  origin: string;
  /** Where it is kept: the library scenario it is, the user's scenario it is saved as, or
   *  neither (a file or a shared link not changed yet). The page address names it. */
  place: Place;
}

export interface Notice {
  kind: 'error' | 'info';
  text: string;
  /** A link to show with the text (selectable, for copying by hand). */
  link?: string;
  /** Technical details, shown folded under the text (e.g. the engine's own panic message). */
  details?: string;
  /** One of the user's scenarios the notice offers to open as it is kept (another tab changed it). */
  reopen?: string;
  /** Problems the notice is about, listed under it with their places. */
  problems?: Problem[];
  /** A link made by a newer ABR Lab (its fragment `hash`, its `version`; `instead`: what stays
   *  open; `stage`: where the update stands, sharing.ts's UpdateStage): the notice offers to
   *  update the lab, which then reopens the link. */
  update?: { hash: string; version: number; instead: string; stage: 'asked' | 'updating' | 'latest' | 'failed' };
}

/** A load that takes long: what is being loaded (shown with a Cancel button). */
export interface Loading {
  name: string;
  connections: number;
  /** Loads waiting behind it. */
  queued: number;
}

/** How an edit took effect: a reload at t = 0, or only a new drawing with the run going on. */
export type Applied = 'restarted' | 'redrawn';

/** A message in two parts: what happened, and what it leaves and what to do. */
export type Said = { head: string; sub: string };

/** What happened to the last edit of a switch: the problems that refused it, or a note. */
export interface SwitchFeedback {
  node: string;
  /** Rules by field of the switch: `algorithm`, `scheduler`, `buffer_cells`, `params.<name>`. */
  fields: Record<string, string>;
  /** Problems elsewhere in the scenario. */
  other: Problem[];
  /** What the edit did, when it went through (e.g. that the run restarted). */
  note: string | null;
  /** Where the note goes: at the switch's fields (none), or under the changes recorded during
   *  runs ('changes': a note on them all, such as forgetting them, shown whichever switch is). */
  at?: 'changes';
  /** The note tells of a step of the undo history that the user may want back at once (a live
   *  change that replaced recorded ones, forgetting the recorded changes, an undo or redo of
   *  such a step): the panel shows Undo (and Redo) buttons with it. */
  undoable?: boolean;
}

/** What happened to the last virtual path edit: the rules by field of the new path, or a note. */
export interface VirtualPathFeedback {
  /** Rules by field of the path being added: `id`, `connections`, `from`, `to`, `service`, `buffer_cells`. */
  fields: Record<string, string>;
  other: Problem[];
  note: string | null;
}

/**
 * How a parameter edit applies at this moment: `live` from the current simulated time (no
 * reset, recorded in the scenario), or as the parameter's starting value (reloads the
 * scenario: `start` when the run is still at t = 0, `restart` when it has ended).
 */
export type ParamEditMode = 'live' | 'start' | 'restart';

/**
 * View state that a shared link carries along with the scenario (never part of the scenario):
 * which algorithm quantity the fourth chart shows (null: the first one) and the unit of Ethernet
 * queues.
 */
export interface ChartChoice {
  quantity: string | null;
  queueUnit: 'KB' | 'frames';
}

export const DEFAULT_CHART_CHOICE: ChartChoice = { quantity: null, queueUnit: 'KB' };

export interface LabState {
  /** The engine in the worker, once it is ready (null before, or when it could not load). */
  engine: 'wasm' | null;
  catalogue: Catalogue | null;
  /** The scenario currently in the engine. */
  current: LoadedScenario | null;
  meta: SeriesMeta[];
  status: RunStatus | null;
  /** Summary of the run, once it has reached its end. */
  summary: RunSummary | null;
  /** The summary as the engine wrote it (JSON text: its numbers as `abrsim run` prints them). */
  summaryJson: string | null;
  /** The engine's digest of the run's samples, once it has reached its end (equal runs, equal digests). */
  digest: string | null;
  speed: Speed;
  /** The engine refused a load (the current one is kept): what, and why. `kept`: the refused
   *  text when it is one of the user's own scenarios (its only copy, which the user can then
   *  save as a file to mend) or a shared link's (gone from the address once read). `said`: what
   *  happened and what to do, said in place of "Could not load …" (a change refused after the
   *  page went away), in the same box as the problems: one message, not two. */
  problems: { origin: string; problems: Problem[]; kept?: string; said?: Said } | null;
  notice: Notice | null;
  /** Typed values their fields refused, not kept (lab/droppedTyping.ts): said in a notice of
   *  its own beside `notice`, which a start-up's (a broken link, a teacher's settings ignored)
   *  or any later one would otherwise replace. */
  typingNotice: string | null;
  /** The problems of the loaded scenario's `sweep` block (empty: none, or no block): the scenario
   *  runs, the Sweep tab lists them. */
  sweepProblems: Problem[];
  /** What the reader of the loaded scenario should know before running it, in the engine's
   *  words, each naming its field's path (`validate::notes`: binary feedback with a large RIF, a
   *  `tag_interval_us` that changes nothing). Not problems: the scenario runs as it is. They
   *  come with every load, so an edit that makes one or ends one shows at once. */
  scenarioNotes: string[];
  switchFeedback: SwitchFeedback | null;
  virtualPathFeedback: VirtualPathFeedback | null;
  charts: ChartChoice;
  /** The view a link asked for (its tab, the Network view open, the side panel's tab): the app
   *  shows it when it comes, as the user may then change it (`n` tells two asks apart). */
  viewAsked: { tab?: ViewTab; network?: boolean; side?: SideTab; n: number } | null;
  /** The user's own scenarios ("My scenarios" in the picker), the most recently changed first. */
  myScenarios: MyScenarioInfo[];
  /** The user's scenarios deleted in the last 30 days, to be restored, the latest first. */
  deletedScenarios: MyScenarioInfo[];
  /** A load that has been on its way for a while (null: none, or not for long). */
  loading: Loading | null;
  /** The user's scenario deleted last, until it is undone or the message dismissed (`open`: it
   *  was the open one, which stays open but is no longer kept). */
  deleted: { id: string; name: string; open: boolean } | null;
  /** What the last undo or redo did (the editor shows it; `n` tells two of them apart). */
  travelled: { text: string; n: number } | null;
  /** Whether RM-cell events are recorded (the event log is on; its events are in Lab.rmLog). */
  rmTrace: boolean;
  /** Whether they are recorded for a view besides the log's box (the Network view drawing RM
   *  cells: `Lab.holdRmTrace`), which the log then says: QA, events came in with its box clear. */
  rmTraceHeld: boolean;
  /** Whether playing pauses at the lesson's steps (`lesson.steps`). */
  lessonStops: boolean;
  /** The switch port's explanation at the stopped run's time (null: no port picked). */
  explanation: Explanation | null;
  /** What the last "next RM event" search looked for and where it stopped (`record` null: none
   *  found, `ended` telling whether the run ended first or the search was stopped; `n` tells
   *  two of them apart). */
  rmFound: (RmQuery & { record: RmRecord | null; ended: boolean; problem: Problem | null; n: number }) | null;
}

export const INITIAL_STATE: LabState = {
  engine: null,
  catalogue: null,
  current: null,
  meta: [],
  status: null,
  summary: null,
  summaryJson: null,
  digest: null,
  speed: 1,
  problems: null,
  notice: null,
  typingNotice: null,
  sweepProblems: [],
  scenarioNotes: [],
  switchFeedback: null,
  virtualPathFeedback: null,
  charts: DEFAULT_CHART_CHOICE,
  viewAsked: null,
  myScenarios: [],
  deletedScenarios: [],
  loading: null,
  deleted: null,
  travelled: null,
  rmTrace: false,
  rmTraceHeld: false,
  lessonStops: true,
  explanation: null,
  rmFound: null,
};

/** Where the series go (the charts' sample store): the lab only feeds it. */
export interface SampleSink {
  reset(meta: SeriesMeta[]): void;
  append(data: Float64Array, width: number): void;
  /** Drops the rows at `ms` and after (the run went back to `ms`). */
  truncateFrom(ms: number): void;
}

/** A snapshot with listeners: set() replaces it and tells every subscriber. */
export class StateCell<T> {
  private listeners = new Set<() => void>();
  constructor(private state: T) {}
  subscribe = (fn: () => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };
  get = () => this.state;
  /** A listener that throws (React, refusing an update) is reported as an uncaught error once
   *  the others have heard of the change: the lab's own bookkeeping after the change goes on. */
  set(patch: Partial<T>) {
    this.state = { ...this.state, ...patch };
    for (const fn of this.listeners) {
      try {
        fn();
      } catch (e) {
        queueMicrotask(() => {
          throw e;
        });
      }
    }
  }
}
