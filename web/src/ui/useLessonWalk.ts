// Wires a lesson's walk-through (lab/lessonWalk.ts, where its rules are) to the run: the step
// shown follows the run's clock, Next/Back/Reveal change the view, and what the shown step
// marks goes to the charts and the drawing. View state only: the run is the lab's.

import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { Lab, LabState } from '../lab/lab';
import {
  dueIndex,
  followClock,
  FOLLOW_RUN,
  lessonSteps,
  marksOf,
  NO_MARKS,
  nextStep,
  previousStep,
  reveal as revealIn,
  shownIndex,
  stepReached,
  stepTitle,
  type RunClock,
  type WalkView,
} from '../lab/lessonWalk';
import { revealAnnouncement, stepAnnouncement } from './announce';
import { commandOf } from './shortcuts';
import type { LessonStep } from '../contract/scenario';

export function useLessonWalk(lab: Lab, state: LabState) {
  const lesson = state.current?.scenario.lesson;
  // By value: a live parameter change hands back a new scenario object with the same lesson,
  // which must not reset the walk.
  const lessonKey = JSON.stringify(lesson ?? null);
  const steps = useMemo(() => lessonSteps(lesson), [lessonKey]);
  const nowMs = useStepClock(lab, steps);
  const run = state.status?.run ?? -1;
  const [view, setView] = useState<WalkView>(FOLLOW_RUN);
  // For screen readers (a polite live region), and a count of steps reached, so that the panel
  // can bring the lesson up when the run stops at one.
  const [said, setSaid] = useState('');
  const [reached, setReached] = useState(0);
  const last = useRef<RunClock & { steps: readonly unknown[] }>({ run, nowMs, steps });
  const due = dueIndex(steps, nowMs);
  const shown = shownIndex(view, due);

  const announce = useCallback((i: number) => {
    const step = steps[i];
    if (step) setSaid(stepAnnouncement(stepTitle(i, steps.length, step), step.prompt));
  }, [steps]);

  useEffect(() => {
    const before = last.current;
    last.current = { run, nowMs, steps };
    if (before.steps !== steps) {
      setView(FOLLOW_RUN);
      return;
    }
    // A new run (a replay, a restart) starts the walk over.
    setView((v) => (before.run !== run ? FOLLOW_RUN : followClock(v, steps, before.nowMs, nowMs)));
    if (stepReached(steps, before, { run, nowMs })) {
      announce(due);
      setReached((n) => n + 1);
    }
  }, [run, nowMs, steps, due, announce]);

  const next = () => {
    const r = nextStep(view, steps, nowMs);
    setView(r.view);
    if (r.play) lab.play(); // the lab pauses the run at the step
    else if (r.view !== view) announce(shownIndex(r.view, due));
  };
  const back = () => {
    const v = previousStep(view, steps, nowMs);
    setView(v);
    if (v !== view) announce(shownIndex(v, due));
  };
  const reveal = () => {
    const answer = steps[shown]?.reveal;
    if (!answer) return;
    setView((v) => revealIn(v, shown));
    setSaid(revealAnnouncement(answer));
  };
  // N and B press Next and Back from anywhere but a field (the Keys list says so).
  const keys = useRef({ next, back });
  keys.current = { next, back };
  useEffect(() => {
    if (steps.length === 0) return;
    const onKey = (ev: KeyboardEvent) => {
      const command = commandOf(ev);
      if (command !== 'next-step' && command !== 'previous-step') return;
      ev.preventDefault();
      if (command === 'next-step') keys.current.next();
      else keys.current.back();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [steps]);

  const step = shown >= 0 ? (steps[shown] ?? null) : null;
  // The run stops at the steps it reaches (the lab pauses it there): a step reached then is
  // one to read, and the panel and its Lesson tab come up; played through (stops off, or at
  // max speed, which never pauses), the reader's view stays.
  const pausedAtStep = state.lessonStops && state.status?.mode === 'paused';
  return {
    pausedAtStep,
    steps,
    due,
    shown,
    step,
    revealed: view.revealed.includes(shown),
    marks: step ? marksOf(step.highlight) : NO_MARKS,
    said,
    reached,
    next,
    back,
    reveal,
  };
}

export type LessonWalkView = ReturnType<typeof useLessonWalk>;

/**
 * The run's time as the walk-through needs it: the engine's latest, but moved on only when it
 * crosses a step's time (or the run or its mode changes), so the lab re-renders for a step, not
 * for every report of the time.
 */
function useStepClock(lab: Lab, steps: readonly LessonStep[]): number {
  const kept = useRef<{ run: number; mode: string; due: number; nowMs: number } | null>(null);
  return useSyncExternalStore(lab.subscribe, () => {
    const status = lab.getState().status;
    const run = status?.run ?? -1;
    const mode = status?.mode ?? 'idle';
    const nowMs = status?.nowMs ?? 0;
    const due = dueIndex(steps, nowMs);
    const k = kept.current;
    if (k && k.run === run && k.mode === mode && k.due === due) return k.nowMs;
    kept.current = { run, mode, due, nowMs };
    return nowMs;
  });
}
