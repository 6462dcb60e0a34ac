// The switch inspector's commands: a parameter (live while a run is under way, else as its
// starting value), the algorithm, scheduler, buffer, VS/VD, discard policy and EPD threshold,
// and forgetting the changes recorded during runs. Each turns into an edit of the document
// (scenario/switchEdits.ts) loaded through the lab's queue, or a live change sent to the
// engine; what the inspector shows of the outcome (a note, or the rules at the fields) is made
// here too, and the lab sets it when the engine answers.

import type { Problem } from '../contract/engine';
import type { Discard, ParamChange, Scenario, Scheduler } from '../contract/scenario';
import type { RunStatus } from '../engine/protocol';
import {
  algorithmOf,
  changeKey,
  changesOf,
  describeChange,
  problemsByField,
  withAlgorithm,
  withBuffer,
  withDiscard,
  withEpdThreshold,
  withoutChanges,
  withParam,
  withScheduler,
  withVsvd,
} from '../scenario/switchEdits';
import type { LabContext } from './context';
import { editLoad, type StepKind, type SwitchEdit } from './loadQueue';
import type { ParamEditMode, SwitchFeedback } from './state';

/** How a parameter edit applies with the run in this state (see ParamEditMode). */
export function paramEditMode(status: RunStatus | null): ParamEditMode {
  if (!status) return 'start';
  if (status.mode === 'playing' || status.mode === 'seeking') return 'live';
  if (status.mode === 'done') return 'restart';
  return status.nowMs > 0 ? 'live' : 'start';
}

/** What the inspector says once the engine has loaded a switch edit: its note. */
export function switchEditLoaded({ node, note, at, undoable }: SwitchEdit): SwitchFeedback {
  return { node, fields: {}, other: [], note, ...(at ? { at } : {}), ...(undoable ? { undoable } : {}) };
}

/** What the inspector says when the engine refuses a switch edit: the rules at the switch's
 *  fields (the loaded run stays). */
export function switchEditRefused(loaded: Scenario, edit: SwitchEdit, problems: Problem[]): SwitchFeedback {
  return { node: edit.node, ...problemsByField(loaded, edit.node, problems), note: null };
}

/** A recorded change as the inspector's notes name it: "at 50.00 ms → 0.95". */
const atValue = (c: ParamChange) => `at ${c.at_ms.toFixed(2)} ms → ${c.value}`;

/**
 * What the inspector says when a live change replaced the changes of its parameter recorded for
 * later times (the run went back in time, keeping its recording): which ones, so that none goes
 * unnoticed, and that an undo brings them back. Null when it replaced none.
 */
export function liveChangeReplaced(change: ParamChange, replaced: ParamChange[]): SwitchFeedback | null {
  if (replaced.length === 0) return null;
  const which = replaced.map(atValue).join(', ');
  const one = replaced.length === 1;
  const note =
    `${change.param} = ${change.value} from ${change.at_ms.toFixed(2)} ms on: it replaces the ` +
    `change${one ? '' : 's'} of ${change.param} recorded for later (${which}). ` +
    `Undo (Ctrl+Z) brings ${one ? 'it' : 'them'} back.`;
  return { node: change.node, fields: {}, other: [], note, undoable: true };
}

/**
 * What an undo or redo of a live change says, in the switch's inspector and the editor: the
 * change undone or made again, the recorded changes it replaced (back after an undo, replaced
 * again after a redo), and where the run, rebuilt for the scenario it now holds, is (`atMs`:
 * the time it was replayed to; 0, restarted). `from` and `to` are the scenario before and
 * after the step. Null when the step makes no change (then it is no live change's).
 */
export function liveChangeTravelled(dir: 'undo' | 'redo', from: Scenario, to: Scenario, atMs: number): SwitchEdit | null {
  const before = from.changes ?? [];
  const after = to.changes ?? [];
  const [wereThere, areThere] = [new Set(before.map(changeKey)), new Set(after.map(changeKey))];
  const removed = before.filter((c) => !areThere.has(changeKey(c)));
  const added = after.filter((c) => !wereThere.has(changeKey(c)));
  const [made, replaced] = dir === 'undo' ? [removed, added] : [added, removed];
  if (made.length === 0) return null;
  const what = made.map((c) => `${c.node}'s ${c.param} = ${c.value} from ${c.at_ms.toFixed(2)} ms on`).join('; ');
  const one = replaced.length === 1;
  const which = `change${one ? '' : 's'} of ${[...new Set(replaced.map((c) => c.param))].join(', ')}`;
  const listed = replaced.map(atValue).join(', ');
  const others =
    replaced.length === 0
      ? ''
      : dir === 'undo'
        ? ` The ${which} it replaced ${one ? 'is' : 'are'} back (${listed}).`
        : ` It replaces again the ${which} recorded for later (${listed}).`;
  const withIt = dir === 'undo' ? 'without' : 'with';
  const run = atMs > 0 ? ` The run was replayed ${withIt} it to t = ${atMs.toFixed(2)} ms.` : ` The run restarted at t = 0 ${withIt} it.`;
  return { node: made[0].node, note: `${dir === 'undo' ? 'Undone' : 'Redone'}: ${what}.${others}${run}`, undoable: true };
}

/** "the recorded change" / "the 3 recorded changes", and "it" / "them". */
const recorded = (n: number) => (n === 1 ? ['the recorded change', 'it'] : [`the ${n} recorded changes`, 'them']);

/** What the panel says once the changes recorded during runs are forgotten (an undo step). */
export function changesForgotten(forgotten: number): string {
  const [what, them] = recorded(forgotten);
  return `Forgot ${what}; the run restarted at t = 0. Undo (Ctrl+Z) brings ${them} back.`;
}

/**
 * What an undo or redo of forgetting the recorded changes says (under the changes): which came
 * back or went again, and where the run, rebuilt for the scenario it now holds, is (`atMs`: the
 * time it was replayed to; 0, restarted). Null when the step is no forgetting: after it
 * (`from` before the step, `to` after) one side has no recorded change and the other has some,
 * and no live change is made (see liveChangeTravelled, asked first).
 */
export function forgetTravelled(dir: 'undo' | 'redo', from: Scenario, to: Scenario, atMs: number): SwitchEdit | null {
  const [had, has] = [from.changes ?? [], to.changes ?? []];
  const changes = dir === 'undo' ? has : had;
  if (changes.length === 0 || (dir === 'undo' ? had : has).length !== 0) return null;
  const [what, them] = recorded(changes.length);
  const listed = changes.map(describeChange).join('; ');
  const withThem = dir === 'undo' ? 'with' : 'without';
  const run = atMs > 0 ? ` The run was replayed ${withThem} ${them} to t = ${atMs.toFixed(2)} ms.` : ` The run restarted at t = 0 ${withThem} ${them}.`;
  const note =
    dir === 'undo'
      ? `Undone: forgetting the recorded changes. ${what[0].toUpperCase()}${what.slice(1)} ${changes.length === 1 ? 'is' : 'are'} back (${listed}).${run}`
      : `Redone: ${what} forgotten again (${listed}).${run}`;
  return { node: changes[0].node, note, at: 'changes', undoable: true };
}

/** What the inspector says when the engine refuses a live change: the rule at the parameter
 *  (or at the switch, when the node is the problem). */
export function liveChangeRefused(request: Pick<ParamChange, 'node' | 'param'>, problem: Problem): SwitchFeedback {
  const field = problem.path === 'node' ? 'node' : `params.${request.param}`;
  return { node: request.node, fields: { [field]: problem.rule }, other: [], note: null };
}

export class SwitchCommands {
  constructor(
    private readonly lab: LabContext,
    /** Sends a live parameter change to the engine (the lab hears back in `paramSet`). */
    private readonly sendLive: (node: string, param: string, value: number) => void,
  ) {}

  /** How a parameter edit would apply now. */
  editMode(): ParamEditMode {
    return paramEditMode(this.lab.state().status);
  }

  /**
   * Changes a switch parameter (null = back to the catalogue default): live from the current
   * simulated time while a run is under way, else as its starting value (see editMode).
   */
  setParam(node: string, param: string, value: number | null) {
    const mode = this.editMode();
    if (mode !== 'live') {
      // The starting value: changes recorded for later stay (a prepared schedule), and are named.
      const later = (this.lab.state().current?.scenario.changes ?? []).filter((c) => c.node === node && c.param === param);
      const still = later.length ? ` The recorded change${later.length === 1 ? '' : 's'} ${later.map(atValue).join(', ')} still appl${later.length === 1 ? 'ies' : 'y'}.` : '';
      const note = (mode === 'restart' ? `${param} set from t = 0; the run restarted.` : `${param} set from t = 0.`) + still;
      return this.edit(node, note, (s) => withParam(s, node, param, value));
    }
    let v = value;
    if (v === null) {
      const { current, catalogue } = this.lab.state();
      const s = current?.scenario;
      const n = s?.nodes.find((x) => x.id === node);
      const alg = s && n && catalogue ? algorithmOf(s, n, catalogue.default_algorithm) : null;
      v = catalogue?.algorithms.find((a) => a.id === alg)?.params.find((p) => p.name === param)?.default ?? null;
      if (v === null) {
        const fields = { [`params.${param}`]: `${param} has no default to return to while the run plays: enter a value` };
        return this.lab.set({ switchFeedback: { node, fields, other: [], note: null } });
      }
    }
    this.sendLive(node, param, v);
  }

  /** Gives a switch another algorithm (its parameters back to defaults); restarts the run. */
  setAlgorithm(node: string, algorithm: string) {
    const { current, catalogue } = this.lab.state();
    if (!current) return;
    const dropped = changesOf(current.scenario, node).length;
    const name = catalogue?.algorithms.find((a) => a.id === algorithm)?.name ?? algorithm;
    const note =
      `${node} now runs ${name} with its default parameters; the run restarted at t = 0.` +
      (dropped ? ` ${dropped} recorded change${dropped === 1 ? '' : 's'} of ${node} dropped.` : '');
    this.edit(node, note, (s) => withAlgorithm(s, node, algorithm));
  }

  /** Sets a switch's port scheduler; restarts the run. */
  setScheduler(node: string, scheduler: Scheduler) {
    this.edit(node, 'Scheduler changed; the run restarted at t = 0.', (s) => withScheduler(s, node, scheduler));
  }

  /** Sets a switch's buffer per output port (null = the default); restarts the run. */
  setBuffer(node: string, size: number | null) {
    this.edit(node, 'Buffer changed; the run restarted at t = 0.', (s) => withBuffer(s, node, size));
  }

  /** Makes a switch a virtual source / virtual destination (ATM), or not; restarts the run. */
  setVsvd(node: string, on: boolean) {
    const note = `${node} ${on ? 'is now' : 'is no longer'} a virtual source / virtual destination; the run restarted at t = 0.`;
    this.edit(node, note, (s) => withVsvd(s, node, on));
  }

  /** Sets a switch's discard policy (ATM); restarts the run. */
  setDiscard(node: string, discard: Discard) {
    const implicit = this.lab.state().catalogue?.defaults.discard ?? null;
    this.edit(node, 'Discard policy changed; the run restarted at t = 0.', (s) => withDiscard(s, node, discard, implicit));
  }

  /** Sets a switch's EPD threshold in cells (null = the engine's default); restarts the run. */
  setEpdThreshold(node: string, cells: number | null) {
    this.edit(node, 'EPD threshold changed; the run restarted at t = 0.', (s) => withEpdThreshold(s, node, cells));
  }

  /** Forgets every change recorded during runs (`node`: the switch shown); restarts the run.
   *  An edit like any other: Undo brings them back. */
  clearChanges(node: string) {
    this.edit(node, (s) => changesForgotten(s.changes?.length ?? 0), withoutChanges, { at: 'changes', undoable: true }, 'forget');
  }

  /** An edit of a switch, made on what is loaded when it is sent (`note`: what to say of it, or
   *  what to say of it as made on that); the undo history records it once the engine accepts it. */
  private edit(node: string, note: string | ((s: Scenario) => string), fn: (s: Scenario) => Scenario, how: Omit<SwitchEdit, 'node' | 'note'> = {}, kind?: StepKind) {
    const current = this.lab.state().current;
    if (!current) return;
    this.lab.dispatch(current.origin, (s) => s && { ...editLoad(s, fn(s), kind), edit: { node, note: typeof note === 'string' ? note : note(s), ...how } });
  }
}
