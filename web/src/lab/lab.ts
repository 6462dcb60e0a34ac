// The lab: what it does for the user, outside React. It drives the engine client, keeps the
// snapshot the components read (state.ts), sends loads one at a time (loadQueue.ts), records
// accepted edits in the shared undo history (editHistory.ts) and keeps the user's last work
// (scenario/storage.ts). The side panel's commands are its parts: the switch inspector's in
// switchCommands.ts, the virtual paths' in virtualPathCommands.ts; the lab hands them the
// engine's answers.

import type { Catalogue, RunSummary } from '../contract/engine';
import type { Scenario } from '../contract/scenario';
import { SimClient, type ClientHandlers, type WorkerLike } from '../engine/client';
import type { Speed } from '../engine/protocol';
import { writeLastWork, type KeyValueStore } from '../scenario/storage';
import { sameButLayout } from '../scenario/topologyEdits';
import type { LabContext } from './context';
import { SharedEditHistory } from './editHistory';
import { loadOf, LoadQueue, type Carried } from './loadQueue';
import {
  INITIAL_STATE,
  StateCell,
  type Applied,
  type ChartChoice,
  type LabState,
  type LoadedScenario,
  type Notice,
  type SampleSink,
} from './state';
import { StatusThrottle } from './statusThrottle';
import { liveChangeRefused, SwitchCommands, switchEditLoaded, switchEditRefused } from './switchCommands';
import { pathEditLoaded, pathEditRefused, VirtualPathCommands } from './virtualPathCommands';

export type * from './state';

const NO_SAMPLES: SampleSink = { reset() {}, append() {} };

export interface LabOptions {
  /** Where the series go (the charts' sample store). */
  samples?: SampleSink;
  /** Where the user's last work is kept (localStorage in the browser; null: nowhere). */
  storage?: KeyValueStore | null;
}

export class Lab {
  private readonly client: SimClient;
  private readonly cell = new StateCell<LabState>(INITIAL_STATE);
  private readonly samples: SampleSink;
  private readonly storage: KeyValueStore | null;
  private readonly loads: LoadQueue;
  private readonly statusThrottle: StatusThrottle;
  /** One undo history for every edit of the network (see editHistory.ts). */
  readonly edits = new SharedEditHistory();
  /** The switch inspector's commands. */
  readonly switches: SwitchCommands;
  /** The virtual paths panel's commands. */
  readonly virtualPaths: VirtualPathCommands;

  constructor(makeWorker: () => WorkerLike, opts: LabOptions = {}) {
    this.samples = opts.samples ?? NO_SAMPLES;
    this.storage = opts.storage ?? null;
    this.loads = new LoadQueue(
      () => this.state.current?.scenario ?? null,
      (json, seq) => this.client.load(json, seq),
      (origin, problems) => this.set({ problems: { origin, problems } }),
    );
    this.statusThrottle = new StatusThrottle(
      () => this.state.status,
      (status) => this.set({ status }),
    );
    this.client = new SimClient(makeWorker, this.handlers());
    const context: LabContext = {
      state: () => this.state,
      set: (patch) => this.set(patch),
      dispatch: (origin, make) => this.loads.dispatch(origin, make),
    };
    this.switches = new SwitchCommands(context, (node, param, value) => this.client.setParam(node, param, value));
    this.virtualPaths = new VirtualPathCommands(context);
  }

  subscribe = (fn: () => void) => this.cell.subscribe(fn);
  getState = () => this.cell.get();
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
      loaded: ({ meta, seq }) => {
        this.samples.reset(meta);
        if (this.loads.isOther(seq)) {
          // A reset (or a crash reload) of the loaded scenario: the load on its way still is.
          this.set({ meta, status: null, summary: null, summaryJson: null, digest: null });
          return;
        }
        const answered = this.loads.take();
        const { carried, edit, pathEdit } = answered?.load ?? { carried: null, edit: null, pathEdit: null };
        // The undo history: an accepted edit is recorded; a scenario from elsewhere (library,
        // file, link) starts a new one at its first edit.
        if (carried && carried !== 'travel') this.edits.record({ before: this.state.current?.scenario ?? carried.before, next: carried.next });
        if (answered && !carried) this.edits.forget();
        this.edits.sent = answered && carried ? answered.doc.json : null;
        const current = answered?.doc ?? this.state.current;
        const switchFeedback = edit && switchEditLoaded(edit);
        const virtualPathFeedback = pathEdit && pathEditLoaded(pathEdit);
        this.set({ meta, current, problems: null, status: null, summary: null, summaryJson: null, digest: null, switchFeedback, virtualPathFeedback });
        this.keep(current);
        this.loads.next();
      },
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
          this.set({ problems: { origin, problems } });
        }
        this.loads.next();
      },
      paramSet: ({ request, change, problem, scenario }) => {
        const current = this.state.current;
        if (!current) return;
        if (change) {
          // The engine's copy records the change; the user's document keeps its own form and
          // its drawing (nodes moved during the run are not in the engine's copy).
          const doc = { ...current.scenario, changes: (JSON.parse(scenario) as Scenario).changes };
          const next = { ...current, scenario: doc, json: JSON.stringify(doc, null, 2) };
          // A live change is not an undoable edit: the history starts again from here, so an
          // undo cannot load a document without it.
          this.edits.forget();
          this.set({ current: next, switchFeedback: null });
          this.keep(next);
        } else if (problem) {
          this.set({ switchFeedback: liveChangeRefused(request, problem) });
        }
      },
      samples: (data, width) => this.samples.append(data, width),
      status: (status) => this.statusThrottle.push(status),
      summary: (json, digest) => {
        try {
          this.set({ summary: JSON.parse(json) as RunSummary, summaryJson: json, digest });
        } catch {
          this.set({ summary: null, summaryJson: null, digest });
        }
      },
      crashed: (message) => {
        // A load on its way went down with the worker: the new one reloads the last scenario
        // that loaded, and the loads queued behind follow once it is back.
        this.loads.take();
        this.set({
          notice: { kind: 'error', text: `The engine crashed and was restarted; the scenario was reloaded. ${message}` },
        });
      },
      error: (message) => this.set({ notice: { kind: 'error', text: message } }),
    };
  }

  /**
   * Sends a scenario to the engine; on problems the current one stays loaded. A load asked for
   * while another is on its way waits for it (so "the current one" is always well defined).
   */
  load(json: string, origin: string) {
    this.loadRecording(json, origin, null);
  }

  /** Loads, or queues behind the load on its way; `carried`: what it means for the undo history. */
  private loadRecording(json: string, origin: string, carried: Carried | null) {
    this.loads.dispatch(origin, () => loadOf(json, carried));
  }

  /**
   * Loads an edit of the network made in the editor: `before` is the network it was made on.
   * The shared undo history records it once the engine accepts it.
   */
  commitEdit(before: Scenario, next: Scenario, origin: string): Applied {
    const json = JSON.stringify(next, null, 2);
    if (this.redraw(next, json, origin)) {
      this.edits.record({ before, next });
      return 'redrawn';
    }
    this.loadRecording(json, origin, { before, next });
    return 'restarted';
  }

  /** Undo or redo a network edit: loads the document it leads to (null when there is none). */
  travel(dir: 'undo' | 'redo', origin: string): { doc: Scenario; applied: Applied } | null {
    const h = this.edits.history;
    // Not while a load is on its way: the history would step past what is about to arrive.
    if (!h || this.loads.busy || !(dir === 'undo' ? h.canUndo : h.canRedo)) return null;
    const doc = dir === 'undo' ? h.undo() : h.redo();
    const json = JSON.stringify(doc, null, 2);
    if (this.redraw(doc, json, origin)) return { doc, applied: 'redrawn' };
    this.loadRecording(json, origin, 'travel');
    return { doc, applied: 'restarted' };
  }

  /**
   * Takes a network that differs from the loaded one only in where its nodes are drawn without
   * a reload: the run goes on. False when it differs in more (or a load is on its way).
   */
  private redraw(next: Scenario, json: string, origin: string): boolean {
    const current = this.state.current;
    if (!current || this.loads.busy || !sameButLayout(current.scenario, next)) return false;
    const moved = { ...current, scenario: next, json, origin };
    this.edits.sent = json;
    this.set({ current: moved });
    this.keep(moved);
    return true;
  }

  /** Keeps the current scenario as the user's last work. */
  private keep(current: LoadedScenario | null) {
    if (current) writeLastWork(this.storage, { json: current.json, origin: current.origin });
  }

  /** Changes what the charts show (view state only: the run is untouched). */
  setCharts(patch: Partial<ChartChoice>) {
    this.set({ charts: { ...this.state.charts, ...patch } });
  }

  /** Shows a message in the notice bar. */
  notify(notice: Notice) {
    this.set({ notice });
  }

  play() {
    this.client.play();
  }
  pause() {
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
  step(ms: number) {
    if (ms > 0) this.client.step(ms);
  }
  runUntil(ms: number) {
    this.client.runUntil(ms);
  }
  reset() {
    this.client.reset();
  }
  setSpeed(speed: Speed) {
    this.set({ speed });
    this.client.setSpeed(speed);
  }

  dismissProblems() {
    this.set({ problems: null });
  }
  dismissNotice() {
    this.set({ notice: null });
  }
  dispose() {
    this.statusThrottle.cancel();
    this.client.dispose();
  }
}
