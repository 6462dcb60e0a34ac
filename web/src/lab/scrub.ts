// Going back in time, as the lab offers it: the step of the time slider. (The worker does the
// going back, engine/checkpoints.ts; the lab drops what the page has after, lab.ts `scrubbed`.)

/** The slider has at most about this many steps, whatever the run's length. */
export const SCRUB_STEPS = 1000;

/** The time slider's step (ms): a whole number of sample intervals, and at least a
 *  SCRUB_STEPS-th of the run, so that the arrow keys move visibly through a long run too. */
export function scrubStepMs(endMs: number, sampleIntervalUs = 1000): number {
  const sample = sampleIntervalUs / 1000;
  if (!(endMs > 0) || !(sample > 0)) return 1;
  return sample * Math.max(1, Math.ceil(endMs / SCRUB_STEPS / sample));
}
