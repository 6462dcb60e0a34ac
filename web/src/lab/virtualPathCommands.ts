// The virtual paths panel's commands: add a path of chosen connections, delete one. Each is an
// edit of the document (scenario/virtualPathEdits.ts) loaded through the lab's queue; the
// engine decides whether a path is valid, and what the panel shows of its answer (a note, or
// the rules at the form's fields) is made here, set by the lab when the engine answers.

import type { Problem } from '../contract/engine';
import { addVirtualPath, deleteVirtualPath, problemsOfVirtualPath, type NewVirtualPath } from '../scenario/virtualPathEdits';
import type { LabContext } from './context';
import { editLoad, type PathEdit } from './loadQueue';
import type { VirtualPathFeedback } from './state';

/** What the panel says once the engine has loaded a virtual path edit: its note. */
export function pathEditLoaded(edit: PathEdit): VirtualPathFeedback {
  return { fields: {}, other: [], note: edit.note };
}

/** What the panel says when the engine refuses a virtual path edit: the rules at the fields of
 *  the path being added (a deletion has none: all in `other`); the loaded run stays. */
export function pathEditRefused(edit: PathEdit, problems: Problem[]): VirtualPathFeedback {
  const byField = edit.index === null ? { fields: {}, other: problems } : problemsOfVirtualPath(edit.index, problems);
  return { ...byField, note: null };
}

export class VirtualPathCommands {
  constructor(private readonly lab: LabContext) {}

  /** Adds a virtual path of the given connections (ATM); restarts the run, or shows the engine's rules. */
  add(vp: NewVirtualPath) {
    const current = this.lab.state().current;
    if (!current) return;
    this.lab.dispatch(current.origin, (s) => {
      if (!s) return null;
      const { scenario, id, index } = addVirtualPath(s, vp);
      const note = `${id} added (${vp.connections.join(', ')}, ${vp.from} → ${vp.to}); the run restarted at t = 0.`;
      return { ...editLoad(s, scenario), pathEdit: { index, note } };
    });
  }

  /** Removes a virtual path; restarts the run. */
  delete(id: string) {
    const current = this.lab.state().current;
    if (!current) return;
    const note = `${id} deleted; the run restarted at t = 0.`;
    this.lab.dispatch(current.origin, (s) => s && { ...editLoad(s, deleteVirtualPath(s, id)), pathEdit: { index: null, note } });
  }
}
