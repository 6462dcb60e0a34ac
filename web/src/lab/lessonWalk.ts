// A lesson's walk-through, as pure functions over the scenario's `lesson` (text, or text and
// steps: engine/sim/src/lesson.rs is the schema) and the run's clock: which step is due, where
// a playing run pauses next, which step is shown after Next and Back, and what it marks. The
// components only draw what these return.

import type { Highlight, Lesson, LessonChart, LessonStep } from '../contract/scenario';

/** Step times are compared with this slack (ms): the engine's clock is integer picoseconds. */
const SLACK_MS = 1e-6;

/** The lesson's prose (all of a plain lesson). */
export function lessonText(lesson: Lesson | undefined): string {
  if (lesson === undefined) return '';
  return typeof lesson === 'string' ? lesson : (lesson.text ?? '');
}

/** The lesson's steps, in ascending time (the engine refuses them otherwise). */
export function lessonSteps(lesson: Lesson | undefined): readonly LessonStep[] {
  return lesson !== undefined && typeof lesson !== 'string' ? lesson.steps : [];
}

/** The last step whose time has come at `nowMs` (-1: none yet). */
export function dueIndex(steps: readonly LessonStep[], nowMs: number): number {
  let due = -1;
  for (let i = 0; i < steps.length && steps[i].at_ms <= nowMs + SLACK_MS; i++) due = i;
  return due;
}

/** Where a run playing from `nowMs` pauses for the next step (null: no step ahead). */
export function nextStopMs(steps: readonly LessonStep[], nowMs: number): number | null {
  const next = steps[dueIndex(steps, nowMs) + 1];
  return next ? next.at_ms : null;
}

/**
 * What the student looks at: `viewed` is a step picked with Back/Next, or null to follow the
 * run (the due step); `revealed` lists the steps whose answer is shown.
 */
export interface WalkView {
  viewed: number | null;
  revealed: readonly number[];
}

export const FOLLOW_RUN: WalkView = { viewed: null, revealed: [] };

/** The step shown (-1: none, before the first step's time). */
export function shownIndex(view: WalkView, due: number): number {
  return view.viewed ?? due;
}

/**
 * Next: a step already reached is shown at once; the step ahead of the run is reached by
 * playing on (`play`), and the run pauses there.
 */
export function nextStep(view: WalkView, steps: readonly LessonStep[], nowMs: number): { view: WalkView; play: boolean } {
  const due = dueIndex(steps, nowMs);
  const want = shownIndex(view, due) + 1;
  if (want >= steps.length) return { view, play: false };
  if (want <= due) return { view: { ...view, viewed: want === due ? null : want }, play: false };
  return { view: { ...view, viewed: null }, play: true };
}

/** Back: the step before the one shown (the run stays where it is). */
export function previousStep(view: WalkView, steps: readonly LessonStep[], nowMs: number): WalkView {
  const due = dueIndex(steps, nowMs);
  const shown = shownIndex(view, due);
  if (shown <= 0) return view;
  return { ...view, viewed: shown - 1 };
}

/** Shows the answer of step `index`. */
export function reveal(view: WalkView, index: number): WalkView {
  return view.revealed.includes(index) ? view : { ...view, revealed: [...view.revealed, index] };
}

/**
 * The view once the run's clock moved from `beforeMs` to `nowMs`: reaching a new step brings
 * it up (a step picked with Back/Next gives way); a reset (the clock went back) starts over.
 */
export function followClock(view: WalkView, steps: readonly LessonStep[], beforeMs: number, nowMs: number): WalkView {
  if (nowMs < beforeMs) return FOLLOW_RUN;
  return dueIndex(steps, nowMs) > dueIndex(steps, beforeMs) ? { ...view, viewed: null } : view;
}

/** Where the run's clock is: which run (a load or a reset starts another) and when in it. */
export interface RunClock {
  run: number;
  nowMs: number;
}

/**
 * Whether the clock moving from `before` to `now` reached a step not yet due at `before` (the
 * panel then brings the lesson up). A new run starts from t = 0: its first status may already be
 * at a step (a replay's status at 0 and at its first stop seen as one).
 */
export function stepReached(steps: readonly LessonStep[], before: RunClock, now: RunClock): boolean {
  const fromMs = before.run === now.run ? before.nowMs : 0;
  return now.nowMs > fromMs && dueIndex(steps, now.nowMs) > dueIndex(steps, fromMs);
}

/** What a step marks, in the terms the charts and the drawing use. */
export interface Marks {
  chart: LessonChart | null;
  node: string | null;
  /** The owner (connection, virtual path, port) whose lines stand out on every chart. */
  series: string | null;
}

export const NO_MARKS: Marks = { chart: null, node: null, series: null };

export function marksOf(highlight: Highlight | undefined): Marks {
  if (!highlight) return NO_MARKS;
  if ('chart' in highlight) return { ...NO_MARKS, chart: highlight.chart };
  if ('node' in highlight) return { ...NO_MARKS, node: highlight.node };
  return { ...NO_MARKS, series: highlight.series };
}

/** Whether a chart (its id, and the owners of its lines) is marked. */
export function chartMarked(marks: Marks, chartId: string, owners: readonly string[]): boolean {
  return marks.chart === chartId || (marks.series !== null && owners.includes(marks.series));
}

/** "at 100 ms" / "at 1.5 s": a step's time for its heading. */
export function stepTime(atMs: number): string {
  return atMs >= 10_000 ? `${+(atMs / 1000).toFixed(3)} s` : `${+atMs.toFixed(3)} ms`;
}

/** What a step is called in its heading and its announcement. */
export function stepTitle(index: number, count: number, step: LessonStep): string {
  return `Step ${index + 1} of ${count}, at ${stepTime(step.at_ms)}`;
}
