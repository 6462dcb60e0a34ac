// The one undo history of every network edit — the editor's and the side panel's (switch
// settings, forgetting the recorded changes, virtual paths) — and of every live parameter change made during a run (with the
// recorded changes it replaced), kept by the lab across tab changes, and the scenario text of
// the current load when it came from an edit, a live change or an undo (null when it came from
// elsewhere: then the history starts anew at the next edit).

import type { Scenario } from '../contract/scenario';
import { EditHistory } from '../scenario/history';
import type { Place } from '../scenario/place';
import type { EditRecord, StepKind } from './loadQueue';

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
}

/** Two scenarios are one document when their texts are (an arrow run back to its start). */
const sameScenario = (a: Scenario, b: Scenario) => a === b || JSON.stringify(a) === JSON.stringify(b);
