import { describe, expect, it } from 'vitest';
import type { LessonStep } from '../contract/scenario';
import {
  chartMarked,
  dueIndex,
  followClock,
  FOLLOW_RUN,
  lessonSteps,
  lessonText,
  marksOf,
  nextStep,
  nextStopMs,
  previousStep,
  reveal,
  shownIndex,
  stepReached,
  stepTitle,
} from './lessonWalk';

const steps: LessonStep[] = [
  { at_ms: 0, prompt: 'a' },
  { at_ms: 100, prompt: 'b', reveal: 'B', highlight: { chart: 'rate' } },
  { at_ms: 200, prompt: 'c', highlight: { series: 'SW1->SW2' } },
];

describe('a lesson: plain text, or text and steps', () => {
  it('reads the text and the steps of either form', () => {
    expect(lessonText('Watch S1.')).toBe('Watch S1.');
    expect(lessonSteps('Watch S1.')).toEqual([]);
    expect(lessonText({ text: 'T', steps })).toBe('T');
    expect(lessonText({ steps })).toBe('');
    expect(lessonSteps({ steps })).toBe(steps);
    expect(lessonText(undefined)).toBe('');
    expect(lessonSteps(undefined)).toEqual([]);
  });
});

describe('which step is due, and where a playing run pauses', () => {
  it('a step is due from its time on', () => {
    expect(dueIndex(steps, 0)).toBe(0);
    expect(dueIndex(steps, 99.9)).toBe(0);
    expect(dueIndex(steps, 100)).toBe(1);
    // The engine's clock may land a hair under a step's time (integer picoseconds).
    expect(dueIndex(steps, 100 - 1e-9)).toBe(1);
    expect(dueIndex(steps, 250)).toBe(2);
    expect(dueIndex(steps.slice(1), 50)).toBe(-1);
  });

  it('a run pauses at the first step ahead of it, and nowhere after the last', () => {
    expect(nextStopMs(steps, 0)).toBe(100);
    expect(nextStopMs(steps, 100)).toBe(200);
    expect(nextStopMs(steps, 150)).toBe(200);
    expect(nextStopMs(steps, 200)).toBeNull();
    expect(nextStopMs([], 0)).toBeNull();
  });
});

describe('Next, Back and Reveal', () => {
  it('Next shows a step already reached, and plays on to one ahead of the run', () => {
    const back = previousStep(FOLLOW_RUN, steps, 150);
    expect(shownIndex(back, dueIndex(steps, 150))).toBe(0);
    const next = nextStep(back, steps, 150);
    expect(next.play).toBe(false);
    expect(shownIndex(next.view, 1)).toBe(1);
    const ahead = nextStep(next.view, steps, 150);
    expect(ahead.play).toBe(true);
    // At the last step there is nothing to go to.
    expect(nextStep(FOLLOW_RUN, steps, 200)).toEqual({ view: FOLLOW_RUN, play: false });
  });

  it('Back stops at the first step, and a new step reached brings the view back to the run', () => {
    let v = previousStep(FOLLOW_RUN, steps, 200);
    v = previousStep(v, steps, 200);
    expect(v.viewed).toBe(0);
    expect(previousStep(v, steps, 200)).toBe(v);
    const v2 = previousStep(FOLLOW_RUN, steps, 150);
    expect(followClock(v2, steps, 150, 180)).toBe(v2);
    expect(followClock(v2, steps, 150, 200).viewed).toBeNull();
    expect(followClock(reveal(v2, 1), steps, 150, 0)).toEqual(FOLLOW_RUN);
  });

  it('a step is reached when the clock comes to it, in the run or in a new run (a replay seen first at its stop)', () => {
    // The clock passing a step's time reaches it; moving within a step, or back, does not.
    expect(stepReached(steps, { run: 1, nowMs: 50 }, { run: 1, nowMs: 100 })).toBe(true);
    expect(stepReached(steps, { run: 1, nowMs: 100 }, { run: 1, nowMs: 150 })).toBe(false);
    expect(stepReached(steps, { run: 1, nowMs: 250 }, { run: 1, nowMs: 150 })).toBe(false);
    // A replay: the ended run at 250 ms, the new one's first status paused at step 2.
    expect(stepReached(steps, { run: 1, nowMs: 250 }, { run: 2, nowMs: 100 })).toBe(true);
    // A new run at t = 0 has reached nothing yet (the step at 0 is shown, not reached).
    expect(stepReached(steps, { run: 1, nowMs: 250 }, { run: 2, nowMs: 0 })).toBe(false);
  });

  it('Reveal marks a step once', () => {
    const v = reveal(reveal(FOLLOW_RUN, 1), 1);
    expect(v.revealed).toEqual([1]);
  });
});

describe('what a step marks', () => {
  it('a chart by its id, or every chart that draws the series', () => {
    const rate = marksOf(steps[1].highlight);
    expect(chartMarked(rate, 'rate', ['C1'])).toBe(true);
    expect(chartMarked(rate, 'queue', ['SW1->SW2'])).toBe(false);
    const port = marksOf(steps[2].highlight);
    expect(port.series).toBe('SW1->SW2');
    expect(chartMarked(port, 'queue', ['SW1->SW2'])).toBe(true);
    expect(chartMarked(port, 'rate', ['C1'])).toBe(false);
    expect(marksOf({ node: 'SW1' })).toEqual({ chart: null, node: 'SW1', series: null });
    expect(marksOf(undefined)).toEqual({ chart: null, node: null, series: null });
  });

  it('names a step by its number and time', () => {
    expect(stepTitle(1, 3, steps[1])).toBe('Step 2 of 3, at 100 ms');
    expect(stepTitle(0, 1, { at_ms: 12_500, prompt: 'x' })).toBe('Step 1 of 1, at 12.5 s');
  });
});
