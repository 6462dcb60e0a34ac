// The lab's state in React. The page as a whole renders from useLabState, which passes the run's
// status on only when its mode, run, end or speed changes: while a run plays the engine reports
// its time ~10 times a second, and rendering the whole lab (the Network view, every chart's
// frame, the lesson) for each report took a quarter of the main thread while gfc1 played. What
// shows the time as it runs (the toolbar's clock, the time slider, the switch inspector)
// subscribes to it itself (useLabStatus), and so re-renders alone; what depends on the time only
// through a coarser fact (a lesson step falling due, a live change applying) selects that fact.

import { useMemo, useSyncExternalStore } from 'react';
import type { RunStatus } from '../engine/protocol';
import type { Lab, LabState } from '../lab/lab';

/** Whether b is a only a later report of a's run going on: same everything but the status's
 *  time and figures while it plays. A run standing still at another time (after a step, a
 *  run-to or a scrub, which end where they began, paused) is a change: what the page says about
 *  "now" while the run stands (Run to's rule, the RM cell panel) reads the page's status. */
export function sameButTime(a: LabState, b: LabState): boolean {
  for (const k of Object.keys(b) as (keyof LabState)[]) if (k !== 'status' && a[k] !== b[k]) return false;
  const s = a.status;
  const t = b.status;
  if (s === t) return true;
  const going = (m: string) => m === 'playing' || m === 'seeking';
  return (
    !!s &&
    !!t &&
    s.run === t.run &&
    s.mode === t.mode &&
    s.endMs === t.endMs &&
    s.done === t.done &&
    s.speed === t.speed &&
    (going(t.mode) || s.nowMs === t.nowMs)
  );
}

/** The lab's state, its status as of its last change of mode, run, end or speed (see above). */
export function useLabState(lab: Lab): LabState {
  const snapshot = useMemo(() => {
    let seen: LabState | null = null;
    return () => {
      const now = lab.getState();
      if (seen === null || !sameButTime(seen, now)) seen = now;
      return seen;
    };
  }, [lab]);
  return useSyncExternalStore(lab.subscribe, snapshot);
}

/** The run's status as the engine last reported it (about ten times a second while it runs). */
export function useLabStatus(lab: Lab): RunStatus | null {
  return useSyncExternalStore(lab.subscribe, () => lab.getState().status);
}

/** A value computed from the lab's state (a primitive, or one that keeps its identity): the
 *  component re-renders only when it changes. */
export function useLabSelect<T>(lab: Lab, select: (state: LabState) => T): T {
  return useSyncExternalStore(lab.subscribe, () => select(lab.getState()));
}
