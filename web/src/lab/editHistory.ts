// The one undo history of every network edit — the editor's and the side panel's (switch
// settings, forgetting the recorded changes, virtual paths) — and of every live parameter change made during a run (with the
// recorded changes it replaced), kept by the lab across tab changes, and the scenario text of
// the current load when it came from an edit, a live change or an undo (null when it came from
// elsewhere: then the history starts anew at the next edit).

import type { Scenario } from '../contract/scenario';
import { EditHistory } from '../scenario/history';
import type { EditRecord, StepKind } from './loadQueue';

export class SharedEditHistory {
  history: EditHistory<Scenario> | null = null;
  /** The text of the current load when an edit or an undo sent it. */
  sent: string | null = null;
  /** What each step is, by the document it led to (the history holds those very objects). */
  private kinds = new WeakMap<Scenario, StepKind>();

  /** Records an accepted edit (a new history if it was made on another document); an edit of
   *  a run joins the step before when that one is of the same run and recent (`atMs`). */
  record({ before, next, run, kind }: EditRecord, atMs: number) {
    if (!this.history) this.history = new EditHistory(before, undefined, sameScenario);
    else if (JSON.stringify(this.history.present) !== JSON.stringify(before)) this.history.reset(before);
    this.kinds.set(next, kind ?? 'edit');
    this.history.push(next, run === undefined ? undefined : { run, atMs });
  }

  /** Undoes or redoes a step: the document it leads to and what the step was (null when there
   *  is none to take). */
  travel(dir: 'undo' | 'redo'): { doc: Scenario; kind: StepKind } | null {
    const h = this.history;
    if (!h || !(dir === 'undo' ? h.canUndo : h.canRedo)) return null;
    // Undo takes back the step that led to the present; redo makes the one that leads on.
    const undone = h.present;
    const doc = dir === 'undo' ? h.undo() : h.redo();
    return { doc, kind: this.kinds.get(dir === 'undo' ? undone : doc) ?? 'edit' };
  }

  /** Forgets the history (a scenario from elsewhere). */
  forget() {
    this.history = null;
  }
}

/** Two scenarios are one document when their texts are (an arrow run back to its start). */
const sameScenario = (a: Scenario, b: Scenario) => a === b || JSON.stringify(a) === JSON.stringify(b);
