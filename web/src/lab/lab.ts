// The lab: what it does for the user, outside React. It drives the engine client, keeps the
// snapshot the components read (state.ts), sends loads one at a time (loadQueue.ts), records
// accepted edits in the shared undo history (editHistory.ts), keeps every scenario the user
// changed as their own (scenario/myScenarios.ts, IndexedDB) and the last work
// (scenario/storage.ts), and tells the page address what is open (scenario/place.ts). The side panel's commands are its parts: the switch inspector's in
// switchCommands.ts, the virtual paths' in virtualPathCommands.ts; the lab hands them the
// engine's answers.

import type { Catalogue, Problem, RmDirection, RunSummary } from '../contract/engine';
import type { Scenario } from '../contract/scenario';
import { SimClient, type ClientHandlers, type LiveRequest, type WorkerLike } from '../engine/client';
import { ENGINE_TRACE_CAPACITY, type RunStatus, type Speed } from '../engine/protocol';
import { DELETED_KEPT_MS, NOT_KEPT, newMineId, scenarioName, withKept, type MyScenario, type ScenarioStore, type TabChannel } from '../scenario/myScenarios';
import { NOWHERE, samePlace, type Opened, type Place } from '../scenario/place';
import { dropUnkept, holdUnkept, readLastWork, readUnkept, storageWorks, textDigest, writeLastWork, type KeyValueStore, type LastWork, type Unkept } from '../scenario/storage';
import { renameScenario, sameRun, type EditResult } from '../scenario/topologyEdits';
import { sameButChanges, withChangesSince, withLiveChange } from '../scenario/switchEdits';
import type { LabContext } from './context';
import { historyId, keepHistory, readHistory, SharedEditHistory } from './editHistory';
import { changeKeptAt, loadOf, LoadQueue, type Carried, type EditRecord, type Load, type Nav, type PendingLoad } from './loadQueue';
import {
  INITIAL_STATE,
  SHARED_ORIGIN,
  StateCell,
  type Applied,
  type ChartChoice,
  type LabState,
  type LoadedScenario,
  type Notice,
  type Said,
  type SampleSink,
} from './state';
import { lessonSpeed } from '../scenario/speed';
import type { SideTab, ViewTab } from '../scenario/share';
import { lessonSteps } from './lessonWalk';
import { runMoved } from './networkClock';
import { StatusThrottle } from './statusThrottle';
import { droppedTypingText, keepDroppedTyping, takeDroppedTyping, type DroppedTyping } from './droppedTyping';
import { ExplainRequests, type ExplainTarget } from './explain';
import { PAGE_TRACE_CAPACITY, RmLog } from './rmLog';
import { forgetTravelled, liveChangeRefused, liveChangeReplaced, liveChangeTravelled, SwitchCommands, switchEditLoaded, switchEditRefused } from './switchCommands';
import { pathEditLoaded, pathEditRefused, VirtualPathCommands } from './virtualPathCommands';

export type * from './state';

const NO_SAMPLES: SampleSink = { reset() {}, append() {}, truncateFrom() {} };

export interface LabOptions {
  /** Where the series go (the charts' sample store). */
  samples?: SampleSink;
  /** Where the user's last work is kept (localStorage in the browser; null: nowhere). */
  storage?: KeyValueStore | null;
  /** Where this tab's own last work is kept as well (sessionStorage: what a reload of the tab
   *  opens, whatever other tabs did since). */
  tabStorage?: KeyValueStore | null;
  /** Where the user's own scenarios are kept (IndexedDB in the browser; null: nowhere). */
  scenarios?: ScenarioStore | null;
  /** The lab's other tabs in this browser, told what this one keeps (null: none). */
  tabs?: TabChannel | null;
  /** The page address: told what is open after every load and every first change (with the
   *  scenario itself, which a history entry of a file or link keeps, having no address). */
  places?: {
    show(place: Place, how: 'push' | 'replace', opened: Opened): void;
    /** A change of what was open at `from` was kept at `to` after the address had left it
     *  (typed, then Back): the history entry it was made in should open `to`. */
    keptAway?(from: Place, to: Place): void;
  } | null;
  /** Told when a change moves the open scenario to another place (a library scenario, a file
   *  or a link becomes the user's own at its first change; another tab's change forks it), with
   *  its JSON id: what is kept by place (the Compare view's variants) goes with it. */
  moved?: ((from: Place, to: Place, scenarioId: string) => void) | null;
  /** Wall clock (ms since the epoch) for "last change"; ids of new own scenarios. */
  now?: () => number;
  newId?: () => string;
  /** A load that is not answered after this long is shown with a Cancel button (ms). */
  loadingAfterMs?: number;
  /** The engine client's watchdog: a load or reset not answered in this long restarts it (ms). */
  answerTimeoutMs?: number;
}

/** How long a load may take before the lab shows what it is loading (ms). */
const LOADING_AFTER_MS = 400;

export class Lab {
  private readonly client: SimClient;
  private readonly cell = new StateCell<LabState>(INITIAL_STATE);
  private readonly samples: SampleSink;
  private readonly storage: KeyValueStore | null;
  private readonly tabStorage: KeyValueStore | null;
  /** The last work as last written (its text marks whether a later write replaced it). */
  private lastWork: LastWork | null = null;
  /** Where the page address points (as this lab last told it). */
  private shown: Place = NOWHERE;
  private readonly scenarios: ScenarioStore | null;
  /** The text of each of the user's scenarios as this tab last read or wrote it. */
  private readonly basis = new Map<string, string>();
  /** A scenario another tab changed → the copy this tab's changes to it now go to. */
  private readonly forkedTo = new Map<string, string>();
  private readonly tabs: TabChannel | null;
  private readonly places: LabOptions['places'];
  private readonly moved: NonNullable<LabOptions['moved']>;
  private readonly now: () => number;
  private readonly newId: () => string;
  private readonly loadingAfterMs: number;
  private loadingTimer: ReturnType<typeof setTimeout> | null = null;
  /** Who keeps the RM-cell trace on besides the event log's box (`holdRmTrace`). */
  private readonly traceHolders = new Set<string>();
  /** Whether the engine was last told to record RM-cell events. */
  private traceSent = false;
  /** The writes to the scenario store, in order (each waits for the one before). */
  private saving: Promise<void> = Promise.resolve();
  /** The changes of the user's scenarios the store has not written yet, by id (the latest of
   *  each): what the page going away keeps in Web Storage at once (`flushUnsaved`). */
  private readonly unwritten = new Map<string, MyScenario>();
  /** The text this tab last kept in Web Storage for each scenario (`holdUnkept`): the entry it
   *  may take away once the store has its change, where another tab's stays. */
  private readonly heldUnkept = new Map<string, string>();
  /** Whether the scenarios found in Web Storage were weighed against the store's (once, at
   *  the first reading of the list: see `reconcile`). */
  private reconciled = false;
  /** What the user was told of the scenario store failing: nothing yet, that Web Storage keeps
   *  their scenarios instead, or that nothing does. */
  private storageFailed: 'no' | 'fallback' | 'nothing' = 'no';
  /** What the last deletion took away (for its Undo): the kept scenario, and the open one as
   *  the deletion left it when it was that one. */
  private lastDeleted: { kept: MyScenario; open: LoadedScenario | null; origin: string } | null = null;
  private travels = 0;
  /** What gives an edit still being typed to the lab (`holdTyping`); a field whose typed value
   *  breaks its rule gives back what it refused. */
  private readonly typing = new Set<() => DroppedTyping | void>();
  /** True while typed edits are given after the address moved on (Back): they are kept, and
   *  the address, which names what opens next, is left alone. */
  private addressMoved = false;
  private readonly loads: LoadQueue;
  private readonly statusThrottle: StatusThrottle;
  /** The engine's latest status, before the throttle (what a frame loop outside React reads). */
  private rawStatus: RunStatus | null = null;
  private movedAtMs = -Infinity;
  /** One undo history for every edit of the network (see editHistory.ts). */
  readonly edits = new SharedEditHistory();
  /** The switch inspector's commands. */
  readonly switches: SwitchCommands;
  /** The virtual paths panel's commands. */
  readonly virtualPaths: VirtualPathCommands;
  /** The RM-cell events of the current run (the event log's), when the trace is on. */
  readonly rmLog = new RmLog(PAGE_TRACE_CAPACITY);
  private readonly explains: ExplainRequests;
  private rmSearches = 0;
  private scrubsAsked = 0;
  /** Those waiting in `settled`: told whenever a load or a live change may have ended. */
  private readonly settleWatchers = new Set<() => void>();
  private scrubsAnswered = 0;
  /** The time an undo or redo of a live change is replaying the run to (null: none, or the user
   *  has moved the run since): another undo in the meantime keeps it, not where the replay got. */
  private replayingTo: number | null = null;
  /** The loaded scenario's sweep block has problems (said once: again only when an edit breaks
   *  it anew, or another scenario comes). */
  private sweepBroken = false;
  /** The ids deleted in another tab during each read of the Mine list under way. */
  private readonly listReads = new Set<Set<string>>();

  constructor(makeWorker: () => WorkerLike, opts: LabOptions = {}) {
    this.samples = opts.samples ?? NO_SAMPLES;
    this.storage = opts.storage ?? null;
    this.tabStorage = opts.tabStorage ?? null;
    this.scenarios = opts.scenarios ?? null;
    this.places = opts.places ?? null;
    this.moved = opts.moved ?? (() => undefined);
    this.tabs = opts.tabs ?? null;
    this.tabs?.listen((news) => ('kept' in news ? this.keptElsewhere(news.kept) : this.deletedElsewhere(news.deleted)));
    this.now = opts.now ?? (() => Date.now());
    this.newId = opts.newId ?? (() => newMineId(this.now()));
    this.loadingAfterMs = opts.loadingAfterMs ?? LOADING_AFTER_MS;
    this.loads = new LoadQueue(
      () => this.state.current?.scenario ?? null,
      (json, seq) => this.client.load(json, seq),
      (origin, problems) => this.set({ problems: { origin, problems } }),
      () => {
        this.watchLoading();
        this.settleMaybe();
      },
      // An edit waits while a live change is on its way to the engine, and is then made on the
      // scenario that records it (the change is never dropped: see `onTopOf`).
      () => this.client.liveAwaited,
    );
    this.statusThrottle = new StatusThrottle(
      () => this.state.status,
      (status) => this.set({ status }),
    );
    this.client = new SimClient(makeWorker, this.handlers(), { answerTimeoutMs: opts.answerTimeoutMs });
    const context: LabContext = {
      state: () => this.state,
      set: (patch) => this.set(patch),
      dispatch: (origin, make) => this.loads.dispatch(origin, make),
    };
    this.switches = new SwitchCommands(context, (node, param, value) => this.client.setParam(node, param, value));
    this.virtualPaths = new VirtualPathCommands(context);
    this.explains = new ExplainRequests((id, switchId, port) => this.client.explain(id, switchId, port));
  }

  subscribe = (fn: () => void) => this.cell.subscribe(fn);
  getState = () => this.cell.get();
  /**
   * The run's status as of the engine's latest report: the state's own, which React renders
   * about ten times a second, or a newer one of the same run and mode (for the Network view's
   * frame loop, which draws at the display's rate).
   */
  freshStatus(): RunStatus | null {
    const shown = this.state.status;
    const raw = this.rawStatus;
    return raw && shown && raw.run === shown.run && raw.mode === shown.mode && raw.nowMs >= shown.nowMs ? raw : shown;
  }
  /**
   * When the run last moved (performance.now ms; networkClock.runMoved): a time marked on the
   * charts before it (ChartGroup.cursorMark's `atMs`, on the same clock) is one the run has left.
   */
  get runMovedAtMs(): number {
    return this.movedAtMs;
  }
  private get state() {
    return this.cell.get();
  }
  private set(patch: Partial<LabState>) {
    this.cell.set(patch);
  }

  /** The engine's answers, as they change the lab. */
  private handlers(): ClientHandlers {
    return {
      ready: (engine, catalogue) => {
        let cat: Catalogue | null = null;
        try {
          cat = JSON.parse(catalogue) as Catalogue;
        } catch {
          cat = null;
        }
        this.set({ engine, catalogue: cat });
      },
      unavailable: (message) =>
        this.set({
          engine: null,
          notice: { kind: 'error', text: `The simulation engine could not be loaded, so nothing can run: ${message}` },
        }),
      loaded: (answer) => this.loaded(answer),
      invalid: (problems, seq) => {
        if (this.loads.isOther(seq)) return; // not the answer to this load
        const refused = this.loads.take(); // a refused edit leaves no step to undo
        const origin = refused?.doc.origin ?? 'scenario';
        const { edit, pathEdit } = refused?.load ?? { edit: null, pathEdit: null };
        const current = this.state.current;
        // A refused side-panel edit shows its rules at the fields; the loaded run stays.
        if (pathEdit) this.set({ virtualPathFeedback: pathEditRefused(pathEdit, problems) });
        else if (edit && current) this.set({ switchFeedback: switchEditRefused(current.scenario, edit, problems) });
        else {
          // One of the user's, or a shared link (its fragment is cleared once read: the file is
          // then the one copy at hand to mend and import): offered as a file.
          // So is a change the page went away before keeping (the last work), reopened.
          const linked = !!refused && !refused.load.edited && refused.doc.origin === SHARED_ORIGIN;
          const unkeptChange = !!refused?.load.keepAt;
          const kept = refused && (refused.doc.place.kind === 'mine' || linked || unkeptChange) ? refused.doc.json : undefined;
          const shown: NonNullable<Load['refused']> = { origin, problems, ...(kept === undefined ? {} : { kept }) };
          const fallback = refused?.load.fallback;
          if (refused && unkeptChange) {
            // Not an empty lab: what the change was made on opens (its problems stay shown),
            // unless something else is open or on its way (a link opened with it). Said in the
            // problems' box (one message, with the field and the rule), not in a second one.
            const opens = !current && !this.loads.busy && fallback ? fallback : null;
            shown.said = refusedChangeSaid(refused.doc.scenario, problems, opens);
            if (opens) this.openFallback(opens, shown);
          }
          this.set({ problems: shown });
        }
        this.settleLastWork();
        this.loads.next();
      },
      paramSet: ({ request, change, replaced, problem, scenario }) => {
        const current = this.state.current;
        if (!current) return;
        if (change) {
          // The engine's copy records the change; the user's document keeps its own form and
          // its drawing (nodes moved during the run are not in the engine's copy).
          const doc = { ...current.scenario, changes: (JSON.parse(scenario) as Scenario).changes };
          const next = this.ownCopy({ ...current, scenario: doc, json: JSON.stringify(doc, null, 2) });
          // A step of the undo history, as an edit is: undo brings back the document before it,
          // with the recorded changes it replaced (see `travel`).
          this.edits.record({ before: current.scenario, next: doc, kind: 'live' }, this.now());
          this.edits.sent = next.json;
          this.set({ current: next, switchFeedback: liveChangeReplaced(change, replaced) });
          this.keep(next, true, 'replace');
        } else if (problem) {
          this.set({ switchFeedback: liveChangeRefused(request, problem) });
        }
      },
      liveSettled: () => {
        this.settleLastWork();
        this.loads.next();
        this.settleMaybe();
      },
      samples: (data, width) => this.samples.append(data, width),
      status: (status) => {
        if (runMoved(this.rawStatus, status)) this.movedAtMs = performance.now();
        this.rawStatus = status;
        this.statusThrottle.push(status);
        this.explains.refresh(status);
      },
      rmEvents: (records, dropped) => this.rmLog.append(records, dropped),
      explained: ({ id, switchId, port, explain, problem }) => {
        if (id === this.explains.latest) this.set({ explanation: { switchId, port, explain, problem } });
      },
      scrubbed: (ms, rmKept) => {
        this.scrubsAnswered++;
        // What was shown at `ms` and after belongs to the time left; the run sends it again
        // (the RM-cell events from the copy it replays, which may be older than `ms`).
        this.samples.truncateFrom(ms);
        this.rmLog.keepFirst(rmKept);
        if (this.state.summary || this.state.digest) this.set({ summary: null, summaryJson: null, digest: null });
      },
      rmKept: (rmKept) => this.rmLog.keepFirst(rmKept),
      rmFound: (query, record, ended, problem) => this.set({ rmFound: { ...query, record, ended, problem, n: ++this.rmSearches } }),
      summary: (json, digest) => {
        try {
          this.set({ summary: JSON.parse(json) as RunSummary, summaryJson: json, digest });
        } catch {
          this.set({ summary: null, summaryJson: null, digest });
        }
      },
      crashed: (message, lostLive) => {
        // A load on its way went down with the worker: the new one reloads the last scenario
        // that loaded, and the loads queued behind follow once it is back.
        const lost = this.loads.take();
        this.set({ notice: crashNotice(this.state.current, lost?.doc ?? null, message, lostLive, !!lost?.load.edited) });
        this.settleLastWork();
      },
      timedOut: (waitedMs, lostLive) => {
        const dropped = this.loads.take();
        this.set({ notice: timeoutNotice(this.state.current, dropped?.doc ?? null, waitedMs, lostLive, !!dropped?.load.edited) });
        this.settleLastWork();
        this.loads.next();
      },
      error: (message) => this.set({ notice: { kind: 'error', text: message } }),
    };
  }

  /**
   * The engine loaded a scenario: the answer to the load on its way, or a reset's (a crash's)
   * reload of the one loaded. In steps: a new run; the scenario it opens (the user's own, for a
   * change); the undo history; what the lab shows; a broken sweep block said; the scenario kept
   * and the address told; the speed and a live change's replay.
   */
  private loaded({ meta, seq, sweepProblems, notes }: LoadedAnswer) {
    this.newRun(meta);
    // What to know before running what is in the engine now (kept as it was when equal).
    const scenarioNotes = sameStrings(notes ?? [], this.state.scenarioNotes) ? this.state.scenarioNotes : (notes ?? []);
    if (this.loads.isOther(seq)) {
      // A reset (or a crash reload) of the loaded scenario: the load on its way still is.
      this.set({ meta, status: null, summary: null, summaryJson: null, digest: null, scenarioNotes });
      return;
    }
    const answered = this.loads.take();
    const changed = bringsChange(answered?.load);
    const was = this.state.current?.place ?? NOWHERE;
    const current = this.openedBy(answered, changed);
    this.recordLoaded(answered, current, was);
    const load = answered?.load;
    const switchFeedback = load?.edit ? switchEditLoaded(load.edit) : null;
    const virtualPathFeedback = load?.pathEdit ? pathEditLoaded(load.pathEdit) : null;
    const problems = load?.refused ?? null;
    this.set({ meta, current, problems, status: null, summary: null, summaryJson: null, digest: null, switchFeedback, virtualPathFeedback, scenarioNotes });
    this.sayBrokenSweep(answered, current, sweepProblems);
    this.keepLoaded(answered, current, changed, was);
    this.playLoaded(answered, current, changed);
    this.loads.next();
  }

  /** A new run in the engine: the charts and the event log start again, and scrubs asked of
   *  the old one are answered by none. */
  private newRun(meta: LoadedAnswer['meta']) {
    this.scrubsAnswered = this.scrubsAsked;
    this.samples.reset(meta);
    this.rmLog.reset();
  }

  /** What a load opens: a change where the scenario it changed is kept, the user's own (a
   *  fresh start, an empty canvas, a new scenario of theirs with an address of its own: back
   *  returns to the one it replaced, kept as it was); else what it brings; with no load, what
   *  is open (a reset's reload). */
  private openedBy(answered: PendingLoad | null, changed: boolean): LoadedScenario | null {
    if (answered && changed) return this.ownCopy({ ...answered.doc, place: this.changeKeptAt(answered.load) }, answered.load.fresh);
    return answered?.doc ?? this.state.current;
  }

  /**
   * The undo history, before the state says what is open: an accepted edit is recorded (a
   * fresh start with the scenarios it leaves and starts, so that its undo returns to the one
   * it left); a scenario from elsewhere (library, file, link) starts a new one at its first
   * edit, and one of the user's goes on with the history this tab kept of it (a reload, a
   * crash, a return to it), if it is of this very text: a change the page went away before
   * keeping (the last work) goes on top of it.
   */
  private recordLoaded(answered: PendingLoad | null, current: LoadedScenario | null, was: Place) {
    const carried = answered?.load.carried ?? null;
    if (carried && carried !== 'travel') {
      const crossing = answered?.load.fresh && current ? { from: was, to: current.place } : undefined;
      this.edits.record({ ...carried, before: this.state.current?.scenario ?? carried.before }, this.now(), crossing);
    }
    if (answered && !carried) {
      this.edits.forget();
      const key = current ? historyId(current.place) : null;
      const kept = key === null ? null : readHistory(this.tabStorage, key);
      if (kept && current) this.edits.restore(kept, current.scenario, { onTop: !!answered.load.edited && !!answered.load.keepAt });
    }
    this.edits.sent = answered && carried ? answered.doc.json : null;
  }

  /** A sweep block with problems does not stop the scenario (abrsim run warns the same): said
   *  when a scenario comes with one, and when an edit breaks a block that was sound. */
  private sayBrokenSweep(answered: PendingLoad | null, current: LoadedScenario | null, sweepProblems: Problem[] | undefined) {
    const broken = !!sweepProblems?.length;
    if (broken && current && (!this.sweepBroken || (answered && !answered.load.carried))) this.set({ notice: sweepNotice(current, sweepProblems) });
    if (!answered) return;
    this.sweepBroken = broken;
    this.set({ sweepProblems: sweepProblems ?? [] });
  }

  /** Keeps what a load opened (a change as the user's own) and tells the address: a change
   *  given as the address moved on (typed, then Back) leaves the address alone. */
  private keepLoaded(answered: PendingLoad | null, current: LoadedScenario | null, changed: boolean, was: Place) {
    const nav = answered?.load.nav;
    const changeNav: Nav = nav === 'none' ? 'none' : answered?.load.fresh && was.kind === 'mine' ? 'push' : 'replace';
    // An undo or redo across a fresh start into one of the user's scenarios deleted since:
    // they went back to it on purpose, so it is theirs again, kept and listed in Mine (open
    // but unlisted, it read as kept and was not; a reload of its address said so).
    const mineId = current?.place.kind === 'mine' ? current.place.id : null;
    const revived = !!answered?.load.travelTo && mineId !== null && !this.state.myScenarios.some((e) => e.id === mineId);
    this.keep(current, changed || revived, answered ? (changed ? changeNav : (nav ?? 'replace')) : 'none');
    if (revived && current) this.revived(mineId!, scenarioName(current.scenario));
  }

  /** A scenario from elsewhere plays at the link's speed, else at one that shows it whole in
   *  about 20 s; an edit or an undo keeps the speed the user chose. An undo or redo of a live
   *  change: the run rebuilt, up to where the user was. */
  private playLoaded(answered: PendingLoad | null, current: LoadedScenario | null, changed: boolean) {
    const load = answered?.load;
    if (load && ((!changed && !load.travelTo) || load.keepAt) && current) this.setSpeed(load.speed ?? lessonSpeed(current.scenario.run.duration_ms));
    this.replayingTo = load?.resumeAtMs ?? null;
    if (load?.resumeAtMs) this.client.runUntil(load.resumeAtMs);
  }

  /**
   * Sends a scenario to the engine; on problems the current one stays loaded. A load asked for
   * while another is on its way waits for it (so "the current one" is always well defined).
   * `nav` 'push' when the user opens it (a sweep's run, a compared variant): Back returns to
   * what was open; 'replace' (a link at start) keeps the one history entry.
   */
  load(json: string, origin: string, nav: Nav = 'replace') {
    this.open(json, origin, NOWHERE, nav);
  }

  /**
   * Opens a scenario from elsewhere (library, file, the user's own, a link): `place` is where
   * it is kept, `nav` how the page address follows once it is in, `speed` the speed to play it
   * at (a link's; else the scenario's default, see speed.ts). A pick while another
   * scenario takes long to load replaces that one (the user wants this one now).
   */
  open(json: string, origin: string, place: Place = NOWHERE, nav: Nav = 'push', speed?: Speed, unsaved?: { basis?: string; fallback?: Load['fallback'] }) {
    // One of the user's scenarios is opened as it is kept: its next change is written over
    // that text only (see `put`). A change of it not yet kept (`unsaved`, from the last work)
    // is kept over what the store holds (`basis`).
    this.openAs(json, origin, place, nav, unsaved ? unsaved.basis : json, speed, unsaved);
  }

  /**
   * Opens a scenario (see `open`); on one of the user's, `basis` is the store's text its next
   * change is written over (undefined: none), or `ON_ITS_WAY`: this tab's change of it is on
   * its way to the store, whose write sets the basis (set here, it would make that very write
   * read as another tab's change, and copy it).
   */
  private openAs(json: string, origin: string, place: Place, nav: Nav, basis: string | undefined | typeof ON_ITS_WAY, speed?: Speed, unsaved?: { fallback?: Load['fallback'] }) {
    // What is still being typed belongs to the scenario open now: it is given to it first.
    this.giveTyped(nav === 'none');
    // Opened again on purpose, a scenario this tab forked from takes this tab's changes again.
    if (place.kind === 'mine' && basis !== ON_ITS_WAY) {
      if (basis === undefined) this.basis.delete(place.id);
      else this.basis.set(place.id, basis);
      this.forkedTo.delete(place.id);
    }
    if (nav === 'push' && this.state.loading && !this.loads.onItsWay?.load.edited) this.cancelLoad();
    const fallback = unsaved?.fallback ? { fallback: unsaved.fallback } : {};
    this.loads.dispatch(origin, () => ({ ...loadOf(json), place, nav, speed, ...(unsaved ? { edited: true, keepAt: place, ...fallback } : {}) }));
  }

  /** Opens what a change the page went away before keeping was made on, the change being one
   *  the engine refuses: its problems, and its text as a file, are shown once it is in. */
  private openFallback(f: NonNullable<Load['fallback']>, refused: NonNullable<Load['refused']>) {
    if (f.place.kind === 'mine') {
      this.basis.set(f.place.id, f.json);
      this.forkedTo.delete(f.place.id);
    }
    this.loads.dispatch(f.origin, () => ({ ...loadOf(f.json), place: f.place, nav: 'replace', refused }));
  }

  /** Opens a library scenario. */
  openLibrary(entry: { id: string; json: string }, nav: Nav = 'push') {
    this.open(entry.json, entry.id, { kind: 'library', id: entry.id }, nav);
  }

  /** Opens one of the user's own scenarios (a message when it is no longer kept), at once, as
   *  this tab knows it (`knownMine`): writes on their way to the store finish behind. */
  async openMine(id: string, nav: Nav = 'push'): Promise<void> {
    const known = await this.knownMine(id);
    if (known) this.openAs(known.kept.json, known.kept.name, { kind: 'mine', id }, nav, known.onItsWay ? ON_ITS_WAY : known.kept.json);
  }

  /** One of the user's scenarios, its newest text as this tab knows it (`knownMine`); null,
   *  with a message, when it cannot be had. */
  async readMine(id: string): Promise<MyScenario | null> {
    return (await this.knownMine(id))?.kept ?? null;
  }

  /**
   * One of the user's scenarios as this tab knows it now, without waiting for the writes on
   * their way to the store (a slow store kept the user waiting): this tab's own change on its
   * way (`onItsWay`), else the store's text, or a change of it kept in Web Storage (another
   * tab's as its page went away, one the store refused) when it was made on that text, weighed
   * as `reconcile` weighs them; `reconcile` then writes it, or keeps it beside, behind the
   * writes on their way. Null, with a message, when it cannot be had.
   */
  private async knownMine(id: string): Promise<{ kept: MyScenario; onItsWay: boolean } | null> {
    const store = this.scenarios;
    // Kept in Web Storage, and not by this tab (its own entry goes once its write lands).
    const held = this.unkept().find((u) => u.id === id) ?? null;
    const elsewhere = held && this.heldUnkept.get(id) !== held.json ? held : null;
    // This tab's change on its way (unless it goes to this tab's copy: `forkedTo`).
    const own = this.forkedTo.has(id) ? undefined : this.unwritten.get(id);
    if (own) {
      if (elsewhere && store && elsewhere.json !== own.json) void this.reconcile(store, elsewhere);
      return { kept: own, onItsWay: true };
    }
    let kept: MyScenario | null = null;
    let why = 'it is not kept in this browser';
    try {
      kept = (await store?.get(id)) ?? null;
    } catch (e) {
      why = `the browser's storage could not be read (${(e as Error).message || String(e)})`;
    }
    if (kept && held && store && held.json !== kept.json) {
      if (madeOn(held, kept)) kept = withoutBasis(held);
      void this.reconcile(store, held);
    }
    // Refused by the store, it was kept in Web Storage instead.
    kept ??= held && withoutBasis(held);
    if (!kept) {
      const open = this.state.current;
      const still = open ? ` “${scenarioName(open.scenario)}” is still open.` : '';
      // Named as the user knows it when this tab does.
      const gone = this.state.deletedScenarios.find((e) => e.id === id);
      const known = gone ?? this.state.myScenarios.find((e) => e.id === id);
      if (gone) why = 'it was deleted (Mine ▾, Recently deleted, restores it)';
      this.notify({ kind: 'error', text: `Your scenario “${known?.name ?? id}” could not be opened: ${why}.${still}` });
      return null;
    }
    return { kept, onItsWay: false };
  }

  /** Reads the list of the user's scenarios from the store (at start-up), and of those deleted
   *  in the last 30 days (forgetting those deleted before). */
  async refreshMyScenarios(): Promise<void> {
    if (!this.scenarios) return;
    // Deleted in another tab while the list is read (told after the store answered, or before
    // another tab's deletion reached it): not listed again by this read.
    const goneMeanwhile = new Set<string>();
    this.listReads.add(goneMeanwhile);
    try {
      const listed = [...(await this.scenarios.list())].filter((e) => !goneMeanwhile.has(e.id));
      // Those the store refused, kept in Web Storage instead, are the user's all the same; the
      // store takes them back once it can.
      const store = this.scenarios;
      const first = !this.reconciled;
      this.reconciled = true;
      for (const u of this.unkept()) {
        const i = listed.findIndex((e) => e.id === u.id);
        if (i >= 0) {
          // Kept there as a page went away before the store wrote it (or refused it): weighed
          // against the store's text at start, and when opened (`readMine`; a tab still open
          // may be writing it now); listed by its newer name and time meanwhile.
          if (first) void this.reconcile(store, u);
          if (u.updatedMs > listed[i].updatedMs) listed[i] = { id: u.id, name: u.name, updatedMs: u.updatedMs };
          continue;
        }
        listed.push({ id: u.id, name: u.name, updatedMs: u.updatedMs });
        // This tab's own change, kept there as the tab was hidden with its write on its way:
        // that write (or a later one) lands, and takes it away. Written from here as well, it
        // came behind a later change of this tab's and over it (whose next change then read as
        // another tab's, and was copied).
        if (this.unwritten.has(u.id) && this.heldUnkept.get(u.id) === u.json) continue;
        // Written only where the store has none yet: one there now was written by the tab that
        // kept this (its write landed since the list was read), which takes it away itself.
        const back = this.saving.then(async () => {
          if ((await store.put(withoutBasis(u), NOT_KEPT)) === 'kept') this.dropUnkept(u.id, u.updatedMs);
        });
        this.saving = back.catch(() => {});
      }
      // Scenarios saved since the list was asked for stay in it.
      const known = new Set(listed.map((e) => e.id));
      this.set({ myScenarios: [...listed, ...this.state.myScenarios.filter((e) => !known.has(e.id))].sort((a, b) => b.updatedMs - a.updatedMs) });
      await this.scenarios.purge(this.now() - DELETED_KEPT_MS);
      const deleted = await this.scenarios.deleted();
      this.set({ deletedScenarios: deleted.filter((e) => !this.state.myScenarios.some((m) => m.id === e.id)) });
    } catch (e) {
      const unkept = this.unkept().filter((u) => !this.state.myScenarios.some((m) => m.id === u.id));
      if (unkept.length) this.set({ myScenarios: unkept.reduce((list, u) => withKept(list, u), this.state.myScenarios) });
      this.storageProblem(e);
    } finally {
      this.listReads.delete(goneMeanwhile);
    }
  }

  /**
   * A scenario kept in Web Storage that the store also holds: written over the store's text
   * when it was made on that text (its `basisDigest`; without one, when it is the newer), gone
   * when the store holds it already, and else kept as a scenario of its own, so that neither
   * text is lost (another tab changed it since).
   */
  private reconcile(store: ScenarioStore, u: Unkept): Promise<void> {
    const change = withoutBasis(u);
    const done = this.saving.then(async () => {
      const stored = await store.get(u.id);
      if (!stored || stored.json === u.json) return;
      if (madeOn(u, stored)) {
        if ((await store.put(change, stored.json)) === 'kept') return;
      }
      const copy: MyScenario = { ...change, id: this.newId() };
      await store.put(copy);
      this.set({ myScenarios: withKept(this.state.myScenarios, copy) });
      this.notify({
        kind: 'info',
        text: `A change of “${u.name}” made in a tab that closed before it was kept is kept as a scenario of its own (in Mine): “${u.name}” was changed elsewhere since, and stays as it was.`,
      });
    });
    this.saving = done.then(
      () => this.dropUnkept(u.id, u.updatedMs),
      () => {},
    );
    return this.saving;
  }

  /** Brings back one of the user's scenarios deleted in the last 30 days (listed again, not
   *  opened). */
  async restoreMine(id: string): Promise<void> {
    const store = this.scenarios;
    const gone = this.state.deletedScenarios.find((e) => e.id === id);
    if (!store || !gone) return;
    const restored = this.saving.then(() => store.restore(id));
    this.saving = restored.then(
      () => {},
      () => {},
    );
    try {
      await restored;
    } catch (e) {
      this.notify({ kind: 'error', text: `“${gone.name}” could not be restored: ${(e as Error)?.message || String(e)}. It is still among the deleted.` });
      return;
    }
    this.set({ deletedScenarios: this.state.deletedScenarios.filter((e) => e.id !== id) });
    this.tabs?.post({ kept: id });
    await this.refreshMyScenarios();
    this.notify({ kind: 'info', text: `“${gone.name}” is back among your scenarios (Mine).` });
  }

  /** Resolves once every change made so far is written to the scenario store. */
  saved(): Promise<void> {
    return this.saving;
  }

  /**
   * Gives what is being typed to the open scenario, then resolves once every change on its way
   * has been answered (taken or refused), or after `waitMs`: what is open then holds all the
   * user made. Share and Export wait for it (QA: a capacity typed and Share clicked at once gave
   * a link of the network before it; the field's blur had only just sent the change).
   */
  settled(waitMs = 10_000): Promise<void> {
    this.giveTyped(false, 'leave');
    const still = () => this.loads.busy || this.client.liveAwaited;
    if (!still()) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (!still()) done();
      };
      const done = () => {
        unsubscribe();
        this.settleWatchers.delete(check);
        clearTimeout(limit);
        resolve();
      };
      // A change is answered in a state change; a live change's end (an answer for a run gone
      // by) or a load's may not be one: told by `settleMaybe`.
      const unsubscribe = this.subscribe(check);
      this.settleWatchers.add(check);
      const limit = setTimeout(done, waitMs);
    });
  }

  private settleMaybe() {
    for (const check of [...this.settleWatchers]) check();
  }

  /** Stops the load on its way (the engine restarts with the scenario that is open). */
  cancelLoad() {
    const p = this.loads.onItsWay;
    if (!p) return;
    this.client.cancel();
    this.loads.take();
    const open = this.state.current;
    const still = open ? ` “${scenarioName(open.scenario)}” is still open.` : '';
    this.set({ notice: { kind: 'info', text: `Stopped loading “${scenarioName(p.doc.scenario)}”.${still}` } });
    this.loads.next();
  }

  /** Names the open scenario (the name in the picker, the panel and its file). */
  /** `run`: renames typed one after another (the name field's) are one undo step. */
  rename(name: string, run?: string): EditResult {
    const current = this.state.current;
    if (!current) return { ok: false, rule: 'no scenario is open' };
    const r = renameScenario(current.scenario, name);
    if (!r.ok) return r;
    if (this.loads.busy) {
      // An edit on its way is not yet `current`: the name goes on what it brings when sent, or
      // this load would take that edit back (a name typed just after an edit was made).
      const nav: Nav | undefined = this.addressMoved ? 'none' : undefined;
      this.loads.dispatch(current.origin, (loaded) => {
        const on = loaded && loaded.id === current.scenario.id ? loaded : current.scenario;
        const renamed = renameScenario(on, name);
        if (!renamed.ok || renamed.scenario === on) return null;
        const made: EditRecord = run === undefined ? { before: on, next: renamed.scenario } : { before: on, next: renamed.scenario, run };
        return { ...loadOf(JSON.stringify(renamed.scenario, null, 2), made), ...(nav ? { nav } : {}) };
      });
    } else if (r.scenario !== current.scenario) this.commitEdit(current.scenario, r.scenario, current.origin, run);
    return r;
  }

  /** Loads, or queues behind the load on its way; `carried`: what it means for the undo history;
   *  `fresh`: the edit starts a new scenario of the user's (an empty canvas), kept apart from
   *  the one it was made on, which stays as it was; `also`: more of the load (a travel's). */
  private loadRecording(json: string, origin: string, carried: Carried | null, fresh = false, also: Partial<Load> = {}) {
    const nav: Nav | undefined = this.addressMoved ? 'none' : undefined;
    this.loads.dispatch(origin, (loaded) => {
      // An edit sent once a live change made after it was confirmed goes on top of that change.
      const edit = carried && carried !== 'travel' && !fresh && loaded ? onTopOf(carried, loaded) : carried;
      const text = edit === carried ? json : JSON.stringify((edit as EditRecord).next, null, 2);
      return { ...loadOf(text, edit), fresh, ...(nav ? { nav } : {}), ...also };
    });
  }

  /**
   * Loads an edit of the network made in the editor: `before` is the network it was made on.
   * The shared undo history records it once the engine accepts it; `run` names the run of
   * small edits it continues (arrow-key moves of one selection), one undo step with them.
   */
  commitEdit(before: Scenario, next: Scenario, origin: string, run?: string, fresh = false): Applied {
    const made: EditRecord = run === undefined ? { before, next } : { before, next, run };
    // Made on a document a live change has since changed (the editor's, not yet redrawn): on
    // top of that change, so that a move still only redraws.
    const current = this.state.current;
    const edit = current && !fresh && !this.loads.busy ? onTopOf(made, current.scenario) : made;
    const json = JSON.stringify(edit.next, null, 2);
    if (!fresh && this.redraw(edit.next, json, origin)) {
      this.edits.record(edit, this.now());
      this.keepHistory(this.state.current?.place ?? NOWHERE);
      return 'redrawn';
    }
    this.loadRecording(json, origin, edit, fresh);
    return 'restarted';
  }

  /**
   * Undo or redo a network edit or a live change: loads the document it leads to (null when
   * there is none). After an edit's step the run restarts at t = 0, as the edit did; after a
   * live change's (the scenarios differ only in their recorded changes) the run is rebuilt for
   * the scenario it now holds and replayed, paused, to the time it was at, as going back in
   * time does: a live change never took the user's run away, nor does undoing it. Forgetting
   * the recorded changes is such a step too: its undo brings them back into the run the user
   * is watching, replayed to its time, and its redo takes them out the same way.
   */
  travel(dir: 'undo' | 'redo', origin: string): { doc: Scenario; applied: Applied } | null {
    // Not while a load or a live change is on its way: the history would step past what is
    // about to arrive.
    if (this.loads.busy || this.client.liveAwaited) return null;
    const from = this.state.current?.scenario;
    const step = this.edits.travel(dir);
    if (!step) return null;
    const { doc, kind, place } = step;
    const json = JSON.stringify(doc, null, 2);
    if (place) {
      // Across a fresh start: back to the scenario it left (forth to the one it started), as
      // kept there, not a copy of it in the one open (QA: Mine held the design twice).
      this.loadRecording(json, origin, 'travel', false, { place, travelTo: place, edited: false });
      this.set({ travelled: { text: `${dir === 'undo' ? 'Undone' : 'Redone'}: “${scenarioName(doc)}” is open again; the run restarted at t = 0.`, n: ++this.travels } });
      return { doc, applied: 'restarted' };
    }
    // Kept at once: a reload before the engine answers opens this step (the last work).
    this.keepHistory(this.state.current?.place ?? NOWHERE);
    const applied: Applied = this.redraw(doc, json, origin) ? 'redrawn' : 'restarted';
    const what = dir === 'undo' ? 'Undone' : 'Redone';
    let text = `${what}: ${applied === 'redrawn' ? 'only the drawing changed, the run goes on' : 'the run restarted at t = 0'}.`;
    if (applied === 'restarted') {
      const atMs = Math.max(this.freshStatus()?.nowMs ?? 0, this.replayingTo ?? 0);
      // A live change, or forgetting the recorded changes, as the step was recorded (and as
      // long as nothing else has changed since, such as a node moved during the run).
      const replays = kind !== 'edit' && from && sameButChanges(from, doc);
      const live = !replays ? null : kind === 'live' ? liveChangeTravelled(dir, from, doc, atMs) : forgetTravelled(dir, from, doc, atMs);
      if (live) text = live.note;
      this.loadRecording(json, origin, 'travel', false, live ? { edit: live, ...(atMs > 0 ? { resumeAtMs: atMs } : {}) } : {});
    }
    this.set({ travelled: { text, n: ++this.travels } });
    return { doc, applied };
  }

  /**
   * Takes a network that differs from the loaded one only in where its nodes are drawn without
   * a reload: the run goes on. False when it differs in more (or a load is on its way).
   */
  private redraw(next: Scenario, json: string, origin: string): boolean {
    const current = this.state.current;
    if (!current || this.loads.busy || !sameRun(current.scenario, next)) return false;
    const moved = this.ownCopy({ ...current, scenario: next, json, origin });
    this.edits.sent = json;
    // A note offering to undo an earlier step would now undo this one.
    this.set({ current: moved, ...(this.state.switchFeedback?.undoable ? { switchFeedback: null } : {}) });
    this.keep(moved, true, 'replace');
    return true;
  }

  /** A changed scenario is the user's own: one not kept as theirs yet gets an id of its own,
   *  and what is kept by its place goes with it (a fresh start, an empty canvas, takes nothing:
   *  it is not the scenario that was open). */
  private ownCopy(doc: LoadedScenario, fresh = false): LoadedScenario {
    if (doc.place.kind === 'mine') return doc;
    const own: LoadedScenario = { ...doc, place: { kind: 'mine', id: this.newId() } };
    if (!fresh) this.moved(doc.place, own.place, doc.scenario.id);
    return own;
  }

  /**
   * Keeps the current scenario as the user's last work and, once changed, as their own
   * scenario; tells the page address what is open.
   */
  private keep(current: LoadedScenario | null, changed: boolean, nav: Nav) {
    if (!current) return;
    // Until the store has it, a change is marked unsaved in the last work (with where the
    // address pointed): a reload that comes first opens it rather than the older text.
    const unsaved = changed && current.place.kind === 'mine' && !!this.scenarios;
    this.writeLast(unsaved ? this.unsavedWork(current.json, current.origin, current.place) : { json: current.json, origin: current.origin, place: current.place });
    if (changed && current.place.kind === 'mine') {
      const kept: MyScenario = { id: current.place.id, name: scenarioName(current.scenario), updatedMs: this.now(), json: current.json };
      this.set({ myScenarios: withKept(this.state.myScenarios, kept) });
      const store = this.scenarios;
      if (store) {
        this.unwritten.set(kept.id, kept);
        this.saving = this.saving
          .then(() => this.put(store, kept))
          .then(() => {
            if (this.unwritten.get(kept.id) === kept) this.unwritten.delete(kept.id);
            // What this tab kept in Web Storage of it goes; another tab's change kept there
            // (its page hidden before its store wrote it) stays, to be weighed (`reconcile`).
            const ours = (u: Unkept) => u.json === kept.json || this.heldUnkept.get(u.id) === u.json;
            this.dropUnkept(kept.id, kept.updatedMs, ours);
            // Kept in Web Storage at a pagehide under the copy another tab's change made it.
            const copy = this.forkedTo.get(kept.id);
            if (copy) this.dropUnkept(copy, kept.updatedMs, ours);
            // Kept: the last work is no longer ahead of the store, unless a later change is;
            // that one was made on the text just kept, which its reload is to find there.
            const last = this.lastWork;
            if (!last?.unsaved) return;
            if (last.json === kept.json) this.writeLast({ json: last.json, origin: last.origin, place: last.place });
            else if (last.place?.kind === 'mine' && last.place.id === kept.id && this.basis.has(kept.id)) this.writeLast({ ...last, basisDigest: textDigest(this.basis.get(kept.id)!) });
          })
          .catch((e: unknown) => {
            // Refused (storage off, full or failing): kept in Web Storage instead, where
            // Mine, Back and a reload find it.
            if (this.unwritten.get(kept.id) === kept) this.unwritten.delete(kept.id);
            this.storageProblem(e, this.holdUnkept(kept));
          });
      }
    }
    this.keepHistory(current.place);
    if (nav !== 'none' && !this.addressMoved) this.places?.show(current.place, nav, { json: current.json, origin: current.origin });
    else if (changed && !samePlace(this.shown, current.place)) this.places?.keptAway?.(this.shown, current.place);
    this.shown = current.place;
  }

  /** Keeps the undo history in this tab's storage, as that of the scenario at `place` (the
   *  user's, or a library one an undo of an empty canvas returned to; see editHistory.ts's
   *  `keepHistory`: a reload goes on with it). */
  private keepHistory(place: Place) {
    const key = historyId(place);
    if (key === null || !this.tabStorage) return;
    const text = this.edits.encode();
    if (text !== null) keepHistory(this.tabStorage, key, text);
  }

  /** The last work for a change not yet kept at `place`: with where the address pointed and,
   *  on one of the user's scenarios, the digest of the text the change was made on. */
  private unsavedWork(json: string, origin: string, place: Place): LastWork {
    const basis = place.kind === 'mine' ? this.basis.get(place.id) : undefined;
    return { json, origin, place, unsaved: true, from: this.shown, ...(basis === undefined ? {} : { basisDigest: textDigest(basis) }) };
  }

  /**
   * Once nothing is on its way to the engine, the last work is what is open: a change kept as
   * unsaved when the page was hidden (`flushUnsaved`) that the engine then refused, or that a
   * crash or the watchdog dropped, is not what a later reload opens (it was told not made).
   */
  private settleLastWork() {
    const last = this.lastWork;
    const current = this.state.current;
    if (!last?.unsaved || !current || last.json === current.json || this.loads.busy || this.client.liveAwaited) return;
    const { place } = current;
    // Still to be written by the store: unsaved, as `keep` wrote it.
    const pending = place.kind === 'mine' && this.unwritten.get(place.id)?.json === current.json;
    this.writeLast(pending ? this.unsavedWork(current.json, current.origin, place) : { json: current.json, origin: current.origin, place });
  }

  /** Writes the last work to this tab's storage and the browser's. */
  private writeLast(work: LastWork) {
    this.lastWork = work;
    writeLastWork(this.tabStorage, work);
    writeLastWork(this.storage, work);
  }

  /**
   * The page is going away (pagehide): a change still on its way to the engine (the last one,
   * when more wait behind it) is written as the last work, unsaved, so that a reload opens it
   * and keeps it (an edit followed at once by a reload was lost: it was kept only once the
   * engine took it). So is a live change the engine has not answered yet, recorded at the time
   * the page last saw (the engine would have recorded it at its own time, a slice later).
   */
  flushUnsaved() {
    this.giveTyped(false, 'keep');
    // Changes the store has not written yet (its writes are asynchronous, and a closed tab's
    // may never finish): each kept in Web Storage at once, under its own key, where the next
    // start of the lab weighs it against the store's text (`reconcile`).
    // The other tabs are told at once, as of a change the store kept (`keptElsewhere`).
    for (const change of this.unwritten.values()) {
      if (this.holdUnkept(change)) this.tabs?.post({ kept: this.forkedTo.get(change.id) ?? change.id });
    }
    // The last change, though it waits behind another load (a quick second edit).
    const last = this.loads.lastChange(this.state.current?.place ?? NOWHERE);
    if (last) {
      this.writeLast(this.unsavedWork(last.json, last.origin, last.place.kind === 'mine' ? last.place : NOWHERE));
      return;
    }
    const live = this.client.liveUnanswered;
    const current = this.state.current;
    if (!live.length || !current) return;
    const atMs = this.rawStatus?.nowMs ?? 0;
    const doc = live.reduce((s, change) => withLiveChange(s, atMs, change), current.scenario);
    const place = current.place.kind === 'mine' ? current.place : NOWHERE;
    this.writeLast(this.unsavedWork(JSON.stringify(doc, null, 2), current.origin, place));
  }

  /**
   * Registers what gives an edit still being typed (the name field's, kept a moment after the
   * last key) to the lab: it is given before another scenario opens and when the page goes
   * away, so that a name typed and then Back is not dropped. Returns the unregistration.
   */
  holdTyping(give: () => DroppedTyping | void): () => void {
    this.typing.add(give);
    return () => this.typing.delete(give);
  }

  /**
   * Gives what is being typed to the open scenario now; `addressMoved`: the address already
   * names where the user went (Back or Forward), so keeping it does not touch the address.
   * What a field refuses (a value out of its range) is not kept, and `dropped` says what
   * becomes of the word of it: `tell`, a notice now (the field goes: another scenario opens);
   * `keep`, kept for the tab's next start, which tells it (the page is going away; every call
   * writes what is refused then, so a value mended before the page went is not told); `leave`,
   * nothing (the field stays, its rule shown).
   */
  giveTyped(addressMoved: boolean, dropped: 'tell' | 'keep' | 'leave' = 'tell') {
    const refused: DroppedTyping[] = [];
    this.addressMoved = addressMoved;
    try {
      for (const give of [...this.typing]) {
        const d = give();
        if (d) refused.push(d);
      }
    } finally {
      this.addressMoved = false;
    }
    if (dropped === 'keep') keepDroppedTyping(this.tabStorage, refused);
    else if (dropped === 'tell') this.tellTyping(refused);
  }

  /** Tells, once, of the typed values the page went away with that their fields refused (kept
   *  by `giveTyped` for this start); false when there were none. */
  tellDroppedTyping(): boolean {
    const refused = takeDroppedTyping(this.tabStorage);
    this.tellTyping(refused);
    return refused.length > 0;
  }

  /** Says what fields refused in the typing notice, after what it says still (none: nothing). */
  private tellTyping(refused: readonly DroppedTyping[]) {
    if (!refused.length) return;
    const text = droppedTypingText(refused);
    const was = this.state.typingNotice;
    this.set({ typingNotice: was && was !== text ? `${was} ${text}` : text });
  }

  dismissTypingNotice() {
    this.set({ typingNotice: null });
  }

  /** Where a change a load carries is kept: a fresh start (an empty canvas) nowhere yet (a new
   *  id), a change the page went away before keeping where it was, any other change where the
   *  scenario it changed is. */
  private changeKeptAt(load: Load): Place {
    return changeKeptAt(load, this.state.current?.place ?? NOWHERE);
  }

  /**
   * Writes a change of one of the user's scenarios, unless another tab changed it since this
   * tab read or wrote it: then this tab's version is kept as a new scenario of the user's (the
   * open one moves to it) and the other tab's stays as it was. Nothing either tab made is lost.
   */
  private async put(store: ScenarioStore, change: MyScenario): Promise<void> {
    const kept = { ...change, id: this.forkedTo.get(change.id) ?? change.id };
    if ((await store.put(kept, this.basis.get(kept.id))) === 'kept') {
      this.basis.set(kept.id, kept.json);
      this.tabs?.post({ kept: kept.id });
      return;
    }
    const copy: MyScenario = { ...kept, id: this.newId() };
    await store.put(copy);
    this.basis.set(copy.id, copy.json);
    this.forkedTo.set(kept.id, copy.id);
    const open = this.state.current;
    if (open?.place.kind === 'mine' && open.place.id === kept.id) {
      const moved: LoadedScenario = { ...open, place: { kind: 'mine', id: copy.id } };
      this.moved(open.place, moved.place, open.scenario.id);
      this.set({ current: moved });
      this.keep(moved, false, 'replace');
    }
    await this.refreshMyScenarios();
    this.notify({
      kind: 'info',
      text: `“${kept.name}” was changed in another tab since this tab opened it. Both are kept: this tab's version is now a scenario of its own (in Mine), the other tab's stays as it was.`,
    });
  }

  /**
   * Another tab kept a change of one of the user's scenarios: the list follows, and if it is
   * the one open here, the user is told at once, not at their next change.
   */
  private keptElsewhere(id: string) {
    // Kept again there (its deletion undone, restored): a list being read may show it.
    for (const gone of this.listReads) gone.delete(id);
    // Kept in Web Storage as that tab's page was hidden or went away, not yet in the store:
    // the text this tab holds is no longer the newest, so its next change is kept as a
    // scenario of its own (as the notice says), and the other tab's goes where it was made
    // (written there when opened from Mine, or at a start: `reconcile`). Not written from here:
    // that tab, only hidden, may still be writing it.
    const flushed = this.unkept().find((u) => u.id === id);
    if (flushed && this.basis.has(id) && this.basis.get(id) !== flushed.json) this.basis.set(id, '');
    // Deleted here and kept there since (a change made there before that tab knew, its Undo,
    // its Restore): this deletion's Undo would now write over it.
    if (this.lastDeleted?.kept.id === id) this.dismissDeleted();
    void this.refreshMyScenarios();
    const open = this.state.current;
    if (open?.place.kind !== 'mine' || open.place.id !== id) return;
    this.notify({
      kind: 'info',
      text: `“${scenarioName(open.scenario)}” was just changed in another tab. This tab still shows it as it was; a change here is kept as a scenario of its own.`,
      reopen: id,
    });
  }

  /**
   * Deletes one of the user's scenarios from this browser, without asking: `undoDelete` brings
   * it back, and for 30 days `restoreMine` (it is listed as recently deleted, after a reload
   * too). The open scenario, if it is that one, stays open but is no longer kept (the last
   * work; its next change makes it the user's own again).
   */
  async deleteMine(id: string): Promise<void> {
    const store = this.scenarios;
    const listed = this.state.myScenarios.find((e) => e.id === id);
    if (!store || !listed) return;
    const open = this.state.current?.place.kind === 'mine' && this.state.current.place.id === id ? this.state.current : null;
    let kept: MyScenario | null = null;
    // One the store refused is kept in Web Storage only: taken from there (Undo brings it back).
    const held = this.unkept().find((u) => u.id === id) ?? null;
    let inStore = false;
    const removed = this.saving.then(async () => {
      if (held) {
        kept = withoutBasis(held);
        // The store may hold an older text of it too (a tab was hidden with its change on its
        // way there): deleted there as well, first, or the next start lists it again; with the
        // newest text, which Restore then brings back.
        inStore = !!(await store.get(id).catch(() => null));
        if (inStore) {
          await store.put(kept);
          await store.remove(id, this.now());
        }
        this.dropUnkept(id);
        return;
      }
      kept = (await store.get(id)) ?? (open && { ...listed, json: open.json });
      await store.remove(id, this.now());
    });
    this.saving = removed.catch(() => {});
    try {
      await removed;
    } catch (e) {
      this.notify({ kind: 'error', text: `“${listed.name}” could not be deleted: ${(e as Error)?.message || String(e)}. It is still kept.` });
      return;
    }
    this.forgetLastWorkAt(id, listed.name);
    const myScenarios = this.state.myScenarios.filter((e) => e.id !== id);
    // The open one stays open, as unkept work: the address no longer names it.
    const still = this.state.current;
    const unkept = still && open && still.json === open.json ? { ...still, place: NOWHERE, origin: `${listed.name} (deleted)` } : null;
    if (unkept) {
      this.set({ current: unkept });
      this.keep(unkept, false, 'replace');
    }
    this.lastDeleted = kept && { kept, open: unkept, origin: open?.origin ?? listed.name };
    const gone = { ...listed, deletedMs: this.now() };
    const deletedScenarios = held && !inStore ? this.state.deletedScenarios : [gone, ...this.state.deletedScenarios.filter((e) => e.id !== id)];
    this.set({ myScenarios, deletedScenarios, deleted: kept && { id, name: listed.name, open: !!unkept } });
    this.tabs?.post({ deleted: id });
  }

  /** The browser's last work (what a new tab opens), when it is a change of the user's
   *  scenario `id` that another tab's page went away before keeping: opened there, it was kept
   *  again under `id`, the deletion undone unseen. It stays the last work, no longer kept, as
   *  the deleted scenario open in a tab stays open. */
  private forgetLastWorkAt(id: string, name: string) {
    const last = readLastWork(this.storage);
    if (last?.place?.kind !== 'mine' || last.place.id !== id) return;
    writeLastWork(this.storage, { json: last.json, origin: `${name} (deleted)` });
  }

  /**
   * Another tab deleted one of the user's scenarios: it leaves Mine here too (listed as recently
   * deleted), and open here, it stays open, no longer kept, as a deletion in this tab leaves it:
   * a change here then keeps it as a new scenario of the user's, and does not bring back the
   * one deleted. A change of it this tab has not written yet is written all the same (made
   * before this tab knew; nothing the user made is lost): it is then kept again, and listed.
   */
  private deletedElsewhere(id: string) {
    for (const gone of this.listReads) gone.add(id);
    const listed = this.state.myScenarios.find((e) => e.id === id);
    if (!listed) return;
    const open = this.state.current;
    const isOpen = open?.place.kind === 'mine' && open.place.id === id;
    if (this.unwritten.has(id)) {
      if (isOpen) this.notify({ kind: 'info', text: `“${listed.name}” was deleted in another tab as you changed it here: your change keeps it (in Mine).` });
      return;
    }
    this.basis.delete(id);
    const gone = { ...listed, deletedMs: this.now() };
    this.set({
      myScenarios: this.state.myScenarios.filter((e) => e.id !== id),
      deletedScenarios: [gone, ...this.state.deletedScenarios.filter((e) => e.id !== id)],
    });
    if (!open || !isOpen) return;
    const unkept: LoadedScenario = { ...open, place: NOWHERE, origin: `${listed.name} (deleted)` };
    this.set({ current: unkept });
    this.keep(unkept, false, 'replace');
    this.notify({
      kind: 'info',
      text: `“${listed.name}” was deleted in another tab. It stays open here, no longer kept: a change here keeps it as a scenario of your own again (in Mine).`,
    });
  }

  /** Brings back the scenario deleted last (as it was, under its id; open again as the user's
   *  own if it is still the one open). */
  async undoDelete(): Promise<void> {
    const d = this.lastDeleted;
    const store = this.scenarios;
    if (!d || !store) return;
    this.lastDeleted = null;
    this.set({ deleted: null });
    const put = this.saving.then(async () => {
      try {
        await store.put(d.kept);
      } catch (e) {
        if (!this.holdUnkept(d.kept)) throw e; // refused: in Web Storage instead, if it takes it
      }
      this.basis.set(d.kept.id, d.kept.json);
    });
    this.saving = put.catch(() => {});
    try {
      await put;
    } catch (e) {
      this.notify({ kind: 'error', text: `“${d.kept.name}” could not be kept again: ${(e as Error)?.message || String(e)}.` });
      return;
    }
    this.set({ myScenarios: withKept(this.state.myScenarios, d.kept), deletedScenarios: this.state.deletedScenarios.filter((e) => e.id !== d.kept.id) });
    this.tabs?.post({ kept: d.kept.id });
    const open = this.state.current;
    if (open && open === d.open) {
      const back: LoadedScenario = { ...open, place: { kind: 'mine', id: d.kept.id }, origin: d.origin };
      this.set({ current: back });
      this.keep(back, false, 'replace');
    }
  }

  /** One of the user's scenarios deleted since, kept again by an undo or redo that returned to
   *  it (`keep` wrote it): no longer among the deleted, and the deletion's Undo is moot. */
  private revived(id: string, name: string) {
    if (this.lastDeleted?.kept.id === id) this.dismissDeleted();
    this.set({ deletedScenarios: this.state.deletedScenarios.filter((e) => e.id !== id) });
    this.notify({ kind: 'info', text: `“${name}”, deleted since, is back among your scenarios (Mine): you returned to it.` });
  }

  /** Hides the message of the last deletion (it can no longer be undone). */
  dismissDeleted() {
    this.lastDeleted = null;
    this.set({ deleted: null });
  }

  /** Says once that the user's scenarios cannot be kept in the store (storage off, full or
   *  refused). `fallback`: whether Web Storage took the scenario instead (by default, whether
   *  it takes a write at all). Said again if Web Storage too refuses one later. */
  private storageProblem(e: unknown, fallback = storageWorks(this.unkeptStorage)) {
    const said = fallback ? 'fallback' : 'nothing';
    if (this.storageFailed === said || this.storageFailed === 'nothing') return;
    this.storageFailed = said;
    const why = ((e as Error)?.message || String(e)).replace(/\.$/, '');
    this.notify({
      kind: 'error',
      text: fallback
        ? `Your scenarios cannot be kept in this browser's database (${why}). They are kept in its smaller local storage instead, where Mine lists them: use Export to keep a copy of any that matters.`
        : `Your scenarios cannot be kept in this browser (${why}). The one open is kept as your last work until you open another: use Export to keep a copy.`,
    });
  }

  /** Where the scenarios the store refuses are kept instead (the browser's Web Storage, else
   *  this tab's). */
  private get unkeptStorage(): KeyValueStore | null {
    return this.storage ?? this.tabStorage;
  }

  private unkept() {
    return readUnkept(this.unkeptStorage);
  }

  /** Keeps a scenario the store refused (or has not written yet) in Web Storage, under its own
   *  key, with the digest of the store's text it was made on (the text this tab last read or
   *  wrote there). */
  private holdUnkept(s: MyScenario): boolean {
    const { basisDigest: _old, ...change } = s as Unkept;
    const id = this.forkedTo.get(s.id) ?? s.id;
    const basis = this.basis.get(id);
    const held = holdUnkept(this.unkeptStorage, { ...change, id, ...(basis === undefined ? {} : { basisDigest: textDigest(basis) }) });
    if (held) this.heldUnkept.set(id, change.json);
    return held;
  }

  /** The store has it now (or the user deleted it): no longer kept in Web Storage, unless a
   *  later change (newer than `upToMs`) is kept there. */
  private dropUnkept(id: string, upToMs?: number, only?: (u: Unkept) => boolean) {
    dropUnkept(this.unkeptStorage, id, upToMs, only);
  }

  /** Shows what is loading once a load has taken a while (and hides it once it is in). */
  private watchLoading() {
    const p = this.loads.onItsWay;
    if (!p) {
      if (this.loadingTimer) clearTimeout(this.loadingTimer);
      this.loadingTimer = null;
      if (this.state.loading) this.set({ loading: null });
      return;
    }
    if (this.state.loading) {
      this.set({ loading: loadingOf(p.doc.scenario, this.loads.queued) });
      return;
    }
    this.loadingTimer ??= setTimeout(() => {
      this.loadingTimer = null;
      const q = this.loads.onItsWay;
      if (q) this.set({ loading: loadingOf(q.doc.scenario, this.loads.queued) });
    }, this.loadingAfterMs);
  }

  /** Changes what the charts show (view state only: the run is untouched). */
  setCharts(patch: Partial<ChartChoice>) {
    this.set({ charts: { ...this.state.charts, ...patch } });
  }

  /** Asks the app to show a link's view: its tab, the Network view, the side panel's tab
   *  (nothing asked: no change). */
  askView(view: { tab?: ViewTab; network?: boolean; side?: SideTab }) {
    if (view.tab === undefined && !view.network && view.side === undefined) return;
    const n = (this.state.viewAsked?.n ?? 0) + 1;
    this.set({ viewAsked: { ...(view.tab ? { tab: view.tab } : {}), ...(view.network ? { network: true } : {}), ...(view.side ? { side: view.side } : {}), n } });
  }

  /** Shows a message in the notice bar. */
  notify(notice: Notice) {
    this.set({ notice });
  }

  /**
   * Plays; with lesson stops on, the run pauses at each of the lesson's steps ahead of it. At
   * *max* speed it does not: that speed is for results, not for a class watching the run.
   */
  play() {
    this.replayingTo = null;
    this.client.play(this.stops());
  }
  pause() {
    this.replayingTo = null;
    this.client.pause();
  }
  togglePlay() {
    const mode = this.state.status?.mode;
    if (mode === 'playing' || mode === 'seeking') this.pause();
    else if (mode === 'done') {
      this.reset();
      this.play();
    } else this.play();
  }
  /** Whether playing pauses at the lesson's steps (view state: the run is the same). */
  setLessonStops(on: boolean) {
    this.set({ lessonStops: on });
  }
  private stops(): readonly number[] | undefined {
    if (!this.state.lessonStops || this.state.speed === 'max') return undefined;
    return lessonSteps(this.state.current?.scenario.lesson).map((s) => s.at_ms);
  }
  step(ms: number) {
    this.replayingTo = null;
    if (ms > 0) this.client.step(ms);
  }
  runUntil(ms: number) {
    this.replayingTo = null;
    this.client.runUntil(ms);
  }
  reset() {
    this.replayingTo = null;
    this.client.reset();
  }
  setSpeed(speed: Speed) {
    this.set({ speed });
    this.client.setSpeed(speed);
  }

  /**
   * Goes to simulated time `ms` of the run, backwards too, and pauses there: the charts and
   * the event log drop what came at `ms` and after, and playing on gives the very run again.
   */
  scrub(ms: number, replayFromMs?: number) {
    this.replayingTo = null;
    this.scrubsAsked++;
    this.client.scrub(ms, replayFromMs, this.rmLog.heldFrom());
  }

  /** Whether a scrub asked for has not been answered yet: a status that comes before the
   *  answer is where an earlier scrub went, even at the time the latest one asks for. */
  scrubPending(): boolean {
    return this.scrubsAsked > this.scrubsAnswered;
  }

  /** Turns the RM-cell trace (the event log's box) on or off; on, it records from the current time. */
  setRmTrace(on: boolean) {
    this.set({ rmTrace: on });
    this.applyRmTrace();
  }

  /**
   * Keeps the RM-cell trace recording for `holder` (e.g. the Network view while it draws cells)
   * or lets it go: the engine records while the event log's box or any holder wants it, so one
   * letting go never stops what another asked for.
   *
   * `backfillMs`: if this starts the recording while the run stands paused past its start, the
   * run is replayed to where it stands from a checkpoint at least this long before (a scrub to
   * that very time), so that the trace holds the cells in flight now and the hops they are
   * making: the Network view, slowed down on a paused run, shows the feedback loop at once, not
   * only the cells sent after it was asked.
   */
  holdRmTrace(holder: string, on: boolean, { backfillMs }: { backfillMs?: number } = {}) {
    const was = this.traceSent;
    if (on) this.traceHolders.add(holder);
    else this.traceHolders.delete(holder);
    const held = this.traceHolders.size > 0;
    if (held !== this.state.rmTraceHeld) this.set({ rmTraceHeld: held });
    this.applyRmTrace();
    const s = this.state.status;
    if (backfillMs !== undefined && !was && this.traceSent && s?.mode === 'paused' && s.nowMs > 0) this.scrub(s.nowMs, s.nowMs - backfillMs);
  }

  /** Whether a load is on its way to the engine or waits to be sent (an edit made while the
   *  one before it loads): what is loaded now is not the last word. */
  get loadAwaited(): boolean {
    return this.loads.busy;
  }

  /** Whether the engine records RM-cell events now (the box, or some holder). */
  get rmTraceRecording(): boolean {
    return this.state.rmTrace || this.traceHolders.size > 0;
  }

  private applyRmTrace() {
    const on = this.rmTraceRecording;
    if (on === this.traceSent) return;
    this.traceSent = on;
    this.client.setRmTrace(on ? ENGINE_TRACE_CAPACITY : 0);
  }

  /**
   * Picks the switch port an inspector (`holder`: the side panel's, or the full-screen Network
   * view's) explains, null to let go; the latest pick is asked about whenever the run is stopped.
   */
  explainPort(target: ExplainTarget | null, holder = 'panel') {
    this.explains.pick(holder, target, this.state.status);
    if (!this.explains.picked) this.set({ explanation: null });
  }

  /** Steps the run to the next RM-cell event at `node` ('' for any; of `direction` and of
   *  `connection`, a connection or virtual path id, if given), and pauses. */
  nextRmEvent(node: string, direction?: RmDirection, connection?: string) {
    this.replayingTo = null;
    if (!this.state.rmTrace) this.setRmTrace(true); // the search records, so the log shows it
    this.client.nextRmEvent(node, direction, connection || undefined);
  }

  dismissProblems() {
    this.set({ problems: null });
  }
  dismissNotice() {
    this.set({ notice: null });
  }
  dispose() {
    this.tabs?.close();
    if (this.loadingTimer) clearTimeout(this.loadingTimer);
    this.statusThrottle.cancel();
    this.client.dispose();
  }
}

/** What the engine says of a scenario it loaded. */
type LoadedAnswer = Parameters<NonNullable<ClientHandlers['loaded']>>[0];

/** Whether a load brings a change of the user's (an edit, an undo or redo, a change kept as
 *  the page went away): it stays where the scenario it changed is kept, and makes it the
 *  user's own. An undo or redo across a fresh start returns to the scenario kept where it
 *  leads instead. */
function bringsChange(load: Load | undefined): boolean {
  return !!load && (!!load.edited || load.carried === 'travel') && !load.travelTo;
}

/** Where `openAs` leaves the basis as it is: a write on its way sets it. */
const ON_ITS_WAY = Symbol('on its way');

/** Whether a change kept in Web Storage was made on the store's text `stored` (its
 *  `basisDigest` says; without one, when it is the newer): written over it, not beside it. */
function madeOn(u: Unkept, stored: MyScenario): boolean {
  return u.basisDigest !== undefined ? u.basisDigest === textDigest(stored.json) : u.updatedMs > stored.updatedMs;
}

/** A scenario kept in Web Storage as the store keeps it (without the digest of its basis). */
function withoutBasis(u: Unkept): MyScenario {
  const { basisDigest: _basis, ...kept } = u;
  return kept;
}

/** The name the user knows the scenario of a text by (`otherwise` when it cannot be read). */
function nameOf(json: string, otherwise: string): string {
  try {
    return scenarioName(JSON.parse(json) as Scenario);
  } catch {
    return otherwise;
  }
}

/** Whether two lists hold the same strings in the same order (a list kept when equal keeps
 *  what renders it still). */
function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** What a change the page went away before keeping, which the engine then refuses, became
 *  (not kept; `opens`, what it was made on, opens instead), said above its problems. */
export function refusedChangeSaid(changed: Scenario, problems: readonly Problem[], opens: { json: string; origin: string } | null): Said {
  const n = problems.length;
  const then = opens ? `“${nameOf(opens.json, opens.origin)}” is open as it was before it. ` : '';
  return {
    head: `Your last change to “${scenarioName(changed)}”, made as the page went away, was not kept: the engine refuses it (${n === 1 ? 'a problem' : `${n} problems`}, below).`,
    sub: `${then}Save its file to keep it, mend it where ${n === 1 ? 'the problem says' : 'the problems say'}, and Import it.`,
  };
}

/** The problems of a loaded scenario's sweep block: it runs, but cannot be swept as it is. */
export function sweepNotice(current: LoadedScenario, problems: Problem[]): Notice {
  const n = problems.length;
  return {
    kind: 'info',
    text: `“${scenarioName(current.scenario)}” runs, but its sweep block has ${n === 1 ? 'a problem' : `${n} problems`}: the Sweep tab refuses it until ${n === 1 ? 'it is' : 'they are'} mended (abrsim sweep and abrsim validate too).`,
    problems,
  };
}

/**
 * An edit made on `before`, made on `loaded` instead when that is `before` with live changes
 * recorded since (they differ only in `changes`): the live changes stay, on top of the edit
 * (`withChangesSince`). Else the edit as it was made (it is recorded against what is loaded).
 */
function onTopOf(edit: EditRecord, loaded: Scenario): EditRecord {
  const same = (a: Scenario, b: Scenario) => JSON.stringify(a.changes ?? []) === JSON.stringify(b.changes ?? []);
  if (edit.before === loaded || same(edit.before, loaded) || !sameButChanges(edit.before, loaded)) return edit;
  return { ...edit, before: loaded, next: withChangesSince(edit.before, edit.next, loaded) };
}

function loadingOf(s: Scenario, queued: number) {
  return { name: scenarioName(s), connections: Array.isArray(s.connections) ? s.connections.length : 0, queued };
}

function changesOf(doc: LoadedScenario | null) {
  const n = doc?.scenario.changes?.length ?? 0;
  return n ? ` with its ${n} recorded change${n === 1 ? '' : 's'}` : '';
}

/** What a crash of the engine (a Rust panic) did, in words: the raw text goes in the details.
 *  `lostChange`: what was being loaded was a change of the user's (an edit, an undo), lost
 *  with the engine. */
export function crashNotice(open: LoadedScenario | null, lost: LoadedScenario | null, message: string, lostLive: readonly LiveRequest[] = [], lostChange = false): Notice {
  const reloaded = open ? ` It was restarted and “${scenarioName(open.scenario)}” reloaded at t = 0${changesOf(open)}.` : ' It was restarted.';
  const notOpened =
    lost && lostChange
      ? ` Your change to “${scenarioName(lost.scenario)}”, which was being loaded, was not made (it may be what stopped the engine).`
      : lost && lost.json !== open?.json
        ? ` “${scenarioName(lost.scenario)}”, which was being loaded, was not opened.`
        : '';
  const other = lost && lostChange ? 'other ' : '';
  const kept = lostLive.length ? ` Your scenarios and your other changes are kept.${liveNotApplied(lostLive)}` : ` Your scenarios and your ${other}changes are kept.`;
  return {
    kind: 'error',
    text: `The simulation engine stopped on an internal error (a fault in the engine, not in what you did).${reloaded}${notOpened}${kept}`,
    details: message,
  };
}

/** The live changes a replaced engine had not applied yet, said so that the user makes them
 *  again (replayed, one of them might be what stopped the engine). */
function liveNotApplied(lostLive: readonly LiveRequest[]): string {
  if (!lostLive.length) return '';
  const what = lostLive.map((r) => `${r.param} = ${r.value} at ${r.node}`).join(', ');
  return ` The change${lostLive.length === 1 ? '' : 's'} you had just made (${what}) had not reached the run and ${lostLive.length === 1 ? 'was' : 'were'} not applied: make ${lostLive.length === 1 ? 'it' : 'them'} again to keep ${lostLive.length === 1 ? 'it' : 'them'}.`;
}

/** What the watchdog did when the engine did not answer; `droppedChange`: what it dropped was a
 *  change of the user's (an edit, an undo), which is then not made. */
export function timeoutNotice(open: LoadedScenario | null, dropped: LoadedScenario | null, waitedMs: number, lostLive: readonly LiveRequest[] = [], droppedChange = false): Notice {
  const secs = `${Math.round(waitedMs / 100) / 10} s`;
  const still = open ? ` “${scenarioName(open.scenario)}” is still open, at t = 0${droppedChange ? ', as it was before that change' : ''}.` : '';
  if (dropped && droppedChange) {
    const text = `Your change to “${scenarioName(dropped.scenario)}” was not made: the engine had not taken it after ${secs}, so it was stopped and restarted.${still}${liveNotApplied(lostLive)}`;
    return { kind: 'error', text };
  }
  const what = dropped ? `“${scenarioName(dropped.scenario)}” was still loading after ${secs}` : `The engine did not answer within ${secs}`;
  const kept = lostLive.length ? liveNotApplied(lostLive) : ' Nothing of yours was lost.';
  return { kind: 'error', text: `${what}, so the engine was stopped and restarted.${still}${kept}` };
}
