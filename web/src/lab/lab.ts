import { EditHistory } from '../scenario/history';
// The lab's UI state, outside React: the engine client, the sample store and a small snapshot
// (status, scenario, problems) that components read with useSyncExternalStore. Time series go
// to the sample store only.

import { SampleStore } from '../charts/sampleStore';
import type { Catalogue, Problem, RunSummary, SeriesMeta } from '../contract/engine';
import { SimClient, type EngineConfig, type WorkerLike } from '../engine/client';
import type { RunStatus, Speed } from '../engine/protocol';
import type { Discard, Scenario, Scheduler } from '../contract/scenario';
import {
  changesOf,
  problemsByField,
  withAlgorithm,
  withBuffer,
  withoutChanges,
  withParam,
  withScheduler,
  withVsvd,
  withDiscard,
  withEpdThreshold,
} from '../scenario/switchEdits';
import { sameButLayout } from '../scenario/topologyEdits';
import { addVirtualPath, deleteVirtualPath, problemsOfVirtualPath, type NewVirtualPath } from '../scenario/virtualPathEdits';

export interface LoadedScenario {
  id: string;
  scenario: Scenario;
  json: string;
  /** Where it came from: a library id or a file name. */
  origin: string;
}

export interface Notice {
  kind: 'error' | 'info';
  text: string;
  /** A link to show with the text (selectable, for copying by hand). */
  link?: string;
}

/** An edit of the network: the document it was made on and the document it made. */
type EditRecord = { before: Scenario; next: Scenario };
/** How an edit took effect: a reload at t = 0, or only a new drawing with the run going on. */
export type Applied = 'restarted' | 'redrawn';
/** What a load carries for the undo history: an edit to record, or a step back or forth in it. */
type Carried = EditRecord | 'travel';
/** A load as it is sent: the scenario text, what it carries, and what to say of a switch or
 *  virtual path edit once it is loaded or refused. */
type Load = {
  json: string;
  carried: Carried | null;
  edit: { node: string; note: string } | null;
  pathEdit: { index: number | null; note: string } | null;
};
/** Makes a load from the network loaded when it is sent (edits queued behind another load
 *  apply to what that load brought); null: nothing to send. */
type MakeLoad = (loaded: Scenario | null) => Load | null;

/** What happened to the last edit of a switch: the problems that refused it, or a note. */
export interface SwitchFeedback {
  node: string;
  /** Rules by field of the switch: `algorithm`, `scheduler`, `buffer_cells`, `params.<name>`. */
  fields: Record<string, string>;
  /** Problems elsewhere in the scenario. */
  other: Problem[];
  /** What the edit did, when it went through (e.g. that the run restarted). */
  note: string | null;
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
  engine: 'wasm' | 'mock' | null;
  catalogue: Catalogue | null;
  /** The scenario currently in the engine. */
  current: LoadedScenario | null;
  meta: SeriesMeta[];
  status: RunStatus | null;
  /** Summary of the run, once it has reached its end. */
  summary: RunSummary | null;
  /** The engine's digest of the run's samples, once it has reached its end (equal runs, equal digests). */
  digest: string | null;
  speed: Speed;
  /** Problems of the last rejected scenario (the current one is kept). */
  problems: { origin: string; problems: Problem[] } | null;
  notice: Notice | null;
  switchFeedback: SwitchFeedback | null;
  virtualPathFeedback: VirtualPathFeedback | null;
  charts: ChartChoice;
}

const STATUS_INTERVAL_MS = 33;

/** Where the lab keeps the user's last scenario (with its recorded changes). */
export const LAST_WORK_KEY = 'abrlab.last';

/** What is kept of the last work: the scenario text and where it came from. */
export interface LastWork {
  json: string;
  origin: string;
}

/** The part of Web Storage the lab uses (localStorage in the browser). */
export type KeyValueStore = Pick<Storage, 'getItem' | 'setItem'>;

/** Reads the last work from storage (null when there is none or it is unreadable). */
export function readLastWork(storage: KeyValueStore | null): LastWork | null {
  try {
    const raw = storage?.getItem(LAST_WORK_KEY);
    if (!raw) return null;
    const v = JSON.parse(raw) as Partial<LastWork>;
    return typeof v.json === 'string' && typeof v.origin === 'string' ? { json: v.json, origin: v.origin } : null;
  } catch {
    return null;
  }
}

export class Lab {
  readonly store = new SampleStore();
  private client: SimClient;
  private state: LabState = {
    engine: null,
    catalogue: null,
    current: null,
    meta: [],
    status: null,
    summary: null,
    digest: null,
    speed: 1,
    problems: null,
    notice: null,
    switchFeedback: null,
    virtualPathFeedback: null,
    charts: DEFAULT_CHART_CHOICE,
  };
  private listeners = new Set<() => void>();
  /**
   * One undo history for every edit of the network — the editor's and the side panel's (switch
   * settings, virtual paths) — and the scenario text of the current load when it came from an
   * edit or an undo (null when it came from elsewhere: then the history starts anew).
   */
  readonly edits: { history: EditHistory<Scenario> | null; sent: string | null } = { history: null, sent: null };
  /** The load on its way to the engine: the scenario it brings, and what it carries (an edit
   *  enters the undo history once the engine accepts it). */
  private pending: { doc: LoadedScenario; load: Load } | null = null;
  /** The number of the pending load: its answer carries it back. */
  private pendingSeq = 0;
  /** Loads asked for while another one is on its way to the engine, in order. */
  private queued: { origin: string; make: MakeLoad }[] = [];

  constructor(
    makeWorker: () => WorkerLike,
    engine: EngineConfig = { engine: 'auto' },
    private readonly storage: KeyValueStore | null = null,
  ) {
    this.client = new SimClient(
      makeWorker,
      {
        ready: (engineKind, catalogue) => {
          let cat: Catalogue | null = null;
          try {
            cat = JSON.parse(catalogue) as Catalogue;
          } catch {
            cat = null;
          }
          this.set({ engine: engineKind, catalogue: cat });
        },
        loaded: ({ meta, seq }) => {
          this.store.reset(meta);
          if (this.pending && seq !== this.pendingSeq) {
            // A reset (or a crash reload) of the loaded scenario: the load on its way still is.
            this.set({ meta, status: null, summary: null, digest: null });
            return;
          }
          const answered = this.pending;
          this.pending = null;
          const { carried, edit, pathEdit } = answered?.load ?? { carried: null, edit: null, pathEdit: null };
          // The undo history: an accepted edit is recorded; a scenario from elsewhere (library,
          // file, link) starts a new one at its first edit.
          if (carried && carried !== 'travel') this.record({ before: this.state.current?.scenario ?? carried.before, next: carried.next });
          if (answered && !carried) this.edits.history = null;
          this.edits.sent = answered && carried ? answered.doc.json : null;
          const current = answered?.doc ?? this.state.current;
          const switchFeedback = edit ? { node: edit.node, fields: {}, other: [], note: edit.note } : null;
          const virtualPathFeedback = pathEdit ? { fields: {}, other: [], note: pathEdit.note } : null;
          this.set({ meta, current, problems: null, status: null, summary: null, digest: null, switchFeedback, virtualPathFeedback });
          this.keep(current);
          this.next();
        },
        invalid: (problems, seq) => {
          if (this.pending && seq !== this.pendingSeq) return; // not the answer to this load
          const origin = this.pending?.doc.origin ?? 'scenario';
          const { edit, pathEdit } = this.pending?.load ?? { edit: null, pathEdit: null };
          this.pending = null; // a refused edit leaves no step to undo
          const current = this.state.current;
          if (pathEdit) {
            // A refused virtual path: its rules at the fields of the form; the loaded run stays.
            const byField = pathEdit.index === null ? { fields: {}, other: problems } : problemsOfVirtualPath(pathEdit.index, problems);
            this.set({ virtualPathFeedback: { ...byField, note: null } });
          } else if (edit && current) {
            // A refused switch edit: show the rules at the fields; the loaded run stays.
            const byField = problemsByField(current.scenario, edit.node, problems);
            this.set({ switchFeedback: { node: edit.node, ...byField, note: null } });
          } else {
            this.set({ problems: { origin, problems } });
          }
          this.next();
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
            this.edits.history = null;
            this.set({ current: next, switchFeedback: null });
            this.keep(next);
          } else if (problem) {
            const field = problem.path === 'node' ? 'node' : `params.${request.param}`;
            const fb = { node: request.node, fields: { [field]: problem.rule }, other: [], note: null };
            this.set({ switchFeedback: fb });
          }
        },
        samples: (data, width) => this.store.append(data, width),
        status: (status) => this.onStatus(status),
        summary: (json, digest) => {
          try {
            this.set({ summary: JSON.parse(json) as RunSummary, digest });
          } catch {
            this.set({ summary: null, digest });
          }
        },
        crashed: (message) => {
          // A load on its way went down with the worker: the new one reloads the last scenario
          // that loaded, and the loads queued behind follow once it is back.
          this.pending = null;
          this.set({
            notice: { kind: 'error', text: `The engine crashed and was restarted; the scenario was reloaded. ${message}` },
          });
        },
        error: (message) => this.set({ notice: { kind: 'error', text: message } }),
      },
      engine,
    );
  }

  private statusTimer: ReturnType<typeof setTimeout> | null = null;
  private lastStatusAt = 0;

  /** Status arrives with every engine slice (up to ~100/s); the UI needs ~30/s. */
  private onStatus(status: RunStatus) {
    const prev = this.state.status;
    const now = performance.now();
    const changed = !prev || prev.mode !== status.mode || prev.run !== status.run;
    if (this.statusTimer) clearTimeout(this.statusTimer);
    this.statusTimer = null;
    if (changed || now - this.lastStatusAt >= STATUS_INTERVAL_MS) {
      this.lastStatusAt = now;
      this.set({ status });
    } else {
      // Keep the latest, deliver it soon (trailing edge) so the last one is never lost.
      this.statusTimer = setTimeout(() => {
        this.statusTimer = null;
        this.lastStatusAt = performance.now();
        this.set({ status });
      }, STATUS_INTERVAL_MS);
    }
  }

  subscribe = (fn: () => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  getState = () => this.state;

  private set(patch: Partial<LabState>) {
    this.state = { ...this.state, ...patch };
    for (const fn of this.listeners) fn();
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
    this.dispatch(origin, () => loadOf(json, carried));
  }

  /** Sends a load now, or queues it behind the load on its way (made when it is sent). */
  private dispatch(origin: string, make: MakeLoad) {
    if (this.pending) {
      this.queued.push({ origin, make });
      return;
    }
    const load = make(this.state.current?.scenario ?? null);
    if (load) this.send(load, origin);
    else this.next();
  }

  private next() {
    const q = this.queued.shift();
    if (q) this.dispatch(q.origin, q.make);
  }

  /**
   * Loads an edit of the network made in the editor: `before` is the network it was made on.
   * The shared undo history records it once the engine accepts it.
   */
  commitEdit(before: Scenario, next: Scenario, origin: string): Applied {
    const json = JSON.stringify(next, null, 2);
    if (this.redraw(next, json, origin)) {
      this.record({ before, next });
      return 'redrawn';
    }
    this.loadRecording(json, origin, { before, next });
    return 'restarted';
  }

  /** Undo or redo a network edit: loads the document it leads to (null when there is none). */
  travel(dir: 'undo' | 'redo', origin: string): { doc: Scenario; applied: Applied } | null {
    const h = this.edits.history;
    // Not while a load is on its way: the history would step past what is about to arrive.
    if (!h || this.pending || !(dir === 'undo' ? h.canUndo : h.canRedo)) return null;
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
    if (!current || this.pending || !sameButLayout(current.scenario, next)) return false;
    const moved = { ...current, scenario: next, json, origin };
    this.edits.sent = json;
    this.set({ current: moved });
    this.keep(moved);
    return true;
  }

  /** Keeps the current scenario as the user's last work (best effort: storage may be full or off). */
  private keep(current: LoadedScenario | null) {
    if (!current || !this.storage) return;
    try {
      const work: LastWork = { json: current.json, origin: current.origin };
      this.storage.setItem(LAST_WORK_KEY, JSON.stringify(work));
    } catch {
      // Private mode or quota: the lab works on without it.
    }
  }

  /** Changes what the charts show (view state only: the run is untouched). */
  setCharts(patch: Partial<ChartChoice>) {
    this.set({ charts: { ...this.state.charts, ...patch } });
  }

  /** Shows a message in the notice bar. */
  notify(notice: Notice) {
    this.set({ notice });
  }

  /** Sends a load to the engine (if it is not even JSON, says so and the next queued goes). */
  private send(load: Load, origin: string) {
    const json = load.json;
    let scenario: Scenario;
    try {
      scenario = JSON.parse(json) as Scenario;
    } catch (e) {
      this.set({ problems: { origin, problems: [{ path: '', rule: `not valid JSON: ${(e as Error).message}` }] } });
      this.next();
      return;
    }
    this.pending = { doc: { id: String(scenario.id ?? origin), scenario, json, origin }, load };
    this.pendingSeq += 1;
    this.client.load(json, this.pendingSeq);
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
  /** How a parameter edit would apply now (see ParamEditMode). */
  paramEditMode(): ParamEditMode {
    const st = this.state.status;
    if (!st) return 'start';
    if (st.mode === 'playing' || st.mode === 'seeking') return 'live';
    if (st.mode === 'done') return 'restart';
    return st.nowMs > 0 ? 'live' : 'start';
  }

  /**
   * Changes a switch parameter (null = back to the catalogue default): live from the current
   * simulated time while a run is under way, else as its starting value (see paramEditMode).
   */
  setSwitchParam(node: string, param: string, value: number | null) {
    const mode = this.paramEditMode();
    if (mode !== 'live') {
      const note =
        mode === 'restart' ? `${param} set from t = 0; the run restarted.` : `${param} set from t = 0.`;
      return this.edit(node, note, (s) => withParam(s, node, param, value));
    }
    let v = value;
    if (v === null) {
      const alg = this.state.current?.scenario.nodes.find((n) => n.id === node)?.algorithm ?? 'erica';
      v = this.state.catalogue?.algorithms.find((a) => a.id === alg)?.params.find((p) => p.name === param)?.default ?? null;
      if (v === null) {
        const fields = { [`params.${param}`]: `${param} has no default to return to while the run plays: enter a value` };
        return this.set({ switchFeedback: { node, fields, other: [], note: null } });
      }
    }
    this.client.setParam(node, param, v);
  }

  /** Gives a switch another algorithm (its parameters back to defaults); restarts the run. */
  setSwitchAlgorithm(node: string, algorithm: string) {
    const current = this.state.current;
    if (!current) return;
    const dropped = changesOf(current.scenario, node).length;
    const name = this.state.catalogue?.algorithms.find((a) => a.id === algorithm)?.name ?? algorithm;
    const note =
      `${node} now runs ${name} with its default parameters; the run restarted at t = 0.` +
      (dropped ? ` ${dropped} recorded change${dropped === 1 ? '' : 's'} of ${node} dropped.` : '');
    this.edit(node, note, (s) => withAlgorithm(s, node, algorithm));
  }

  /** Sets a switch's port scheduler; restarts the run. */
  setSwitchScheduler(node: string, scheduler: Scheduler) {
    this.edit(node, 'Scheduler changed; the run restarted at t = 0.', (s) => withScheduler(s, node, scheduler));
  }

  /** Sets a switch's buffer per output port (null = the default); restarts the run. */
  setSwitchBuffer(node: string, cells: number | null) {
    this.edit(node, 'Buffer changed; the run restarted at t = 0.', (s) => withBuffer(s, node, cells));
  }

  /** Makes a switch a virtual source / virtual destination (ATM), or not; restarts the run. */
  setSwitchVsvd(node: string, on: boolean) {
    const note = `${node} ${on ? 'is now' : 'is no longer'} a virtual source / virtual destination; the run restarted at t = 0.`;
    this.edit(node, note, (s) => withVsvd(s, node, on));
  }

  /** Sets a switch's discard policy (ATM); restarts the run. */
  setSwitchDiscard(node: string, discard: Discard) {
    this.edit(node, 'Discard policy changed; the run restarted at t = 0.', (s) => withDiscard(s, node, discard));
  }

  /** Sets a switch's EPD threshold in cells (null = 90 % of the buffer); restarts the run. */
  setSwitchEpdThreshold(node: string, cells: number | null) {
    this.edit(node, 'EPD threshold changed; the run restarted at t = 0.', (s) => withEpdThreshold(s, node, cells));
  }

  /** Adds a virtual path of the given connections (ATM); restarts the run, or shows the engine's rules. */
  addVirtualPath(vp: NewVirtualPath) {
    const current = this.state.current;
    if (!current) return;
    this.dispatch(current.origin, (s) => {
      if (!s) return null;
      const { scenario, id, index } = addVirtualPath(s, vp);
      const note = `${id} added (${vp.connections.join(', ')}, ${vp.from} → ${vp.to}); the run restarted at t = 0.`;
      return { ...editLoad(s, scenario), pathEdit: { index, note } };
    });
  }

  /** Removes a virtual path; restarts the run. */
  deleteVirtualPath(id: string) {
    const current = this.state.current;
    if (!current) return;
    const note = `${id} deleted; the run restarted at t = 0.`;
    this.dispatch(current.origin, (s) => s && { ...editLoad(s, deleteVirtualPath(s, id)), pathEdit: { index: null, note } });
  }

  /** Forgets every change recorded during runs; restarts the run. */
  clearChanges() {
    const current = this.state.current;
    if (!current) return;
    this.dispatch(current.origin, (s) => s && loadOf(JSON.stringify(withoutChanges(s))));
  }

  /** An edit of a switch in the side panel; the undo history records it once the engine accepts it. */
  private edit(node: string, note: string, fn: (s: Scenario) => Scenario) {
    const current = this.state.current;
    if (!current) return;
    this.dispatch(current.origin, (s) => s && { ...editLoad(s, fn(s)), edit: { node, note } });
  }

  /** Records an accepted edit in the shared undo history (a new history if it was made elsewhere). */
  private record({ before, next }: EditRecord) {
    const h = this.edits.history;
    if (!h) this.edits.history = new EditHistory(before);
    else if (JSON.stringify(h.present) !== JSON.stringify(before)) h.reset(before);
    this.edits.history!.push(next);
  }

  dismissProblems() {
    this.set({ problems: null });
  }
  dismissNotice() {
    this.set({ notice: null });
  }
  dispose() {
    this.client.dispose();
  }
}

/** A load of this scenario text, with what it carries for the undo history. */
function loadOf(json: string, carried: Carried | null = null): Load {
  return { json, carried, edit: null, pathEdit: null };
}

/** The load of an edit made on `before`: the undo history records it once it is accepted. */
function editLoad(before: Scenario, next: Scenario): Load {
  return loadOf(JSON.stringify(next, null, 2), { before, next });
}
