// The time slider: scrubs the run to any time, backwards too, and pauses there (the engine
// worker goes back from a checkpoint and replays, see engine/checkpoints.ts); every chart's
// cursor moves to that time. Keyboard: the arrow keys move one step, Page Up / Page Down a
// tenth of the run, Home and End to its ends.

import { memo, useEffect, useState, type KeyboardEvent } from 'react';
import type { ChartGroup } from '../charts/chartGroup';
import type { Lab, LabState } from '../lab/lab';
import { scrubStepMs } from '../lab/scrub';
import { useLabStatus } from './useLab';

export const TimeSlider = memo(function TimeSlider({ lab, state, group }: { lab: Lab; state: LabState; group: ChartGroup }) {
  // The time as it runs (the page's `state` has it only as of the last change of mode).
  const status = useLabStatus(lab);
  const endMs = status?.endMs ?? state.current?.scenario.run.duration_ms ?? 0;
  const stepMs = scrubStepMs(endMs, state.current?.scenario.run.sample_interval_us);
  // Where the user put the thumb, until the run gets there (the replay takes a moment). Not
  // before the last scrub is answered: in a burst of keys, an earlier scrub can end at the time
  // a later one asks for (left, right), and the thumb would jump back to where the next ends.
  const [target, setTarget] = useState<number | null>(null);
  const nowMs = status?.nowMs ?? 0;
  useEffect(() => {
    if (target === null || !status) return;
    if (status.mode === 'playing' || (status.mode !== 'seeking' && !lab.scrubPending() && Math.abs(status.nowMs - target) < 1e-9)) setTarget(null);
  }, [status, target, lab]);
  const run = status?.run;
  useEffect(() => setTarget(null), [run]);
  // A time marked on the charts (a scrub, a click on a chart, an event picked in the log) is
  // the paused run's: once it plays on, the cursor no longer stays behind at that time.
  const playing = status?.mode === 'playing';
  useEffect(() => {
    if (playing && group.cursorMark) group.cursorTo(null);
  }, [playing, group]);
  const shown = target ?? nowMs;

  const scrub = (ms: number) => {
    const t = Math.min(endMs, Math.max(0, ms));
    setTarget(t);
    group.cursorTo(t);
    lab.scrub(t);
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    const page = { PageUp: endMs / 10, PageDown: -endMs / 10 }[e.key];
    if (page === undefined) return;
    e.preventDefault();
    scrub(shown + page);
  };

  return (
    <div className="scrub" data-testid="scrub">
      <label htmlFor="scrub-time">Time</label>
      <input
        id="scrub-time"
        type="range"
        data-testid="scrub-slider"
        min={0}
        max={endMs}
        step={stepMs}
        value={shown}
        disabled={!status || endMs <= 0}
        aria-valuetext={`${formatScrubMs(shown)} ms of ${formatScrubMs(endMs)} ms`}
        title="Drag, or use the arrow keys, to go to any time of the run (backwards too); the run pauses there and Play goes on from it"
        onChange={(e) => scrub(Number(e.target.value))}
        onKeyDown={onKey}
      />
      <output htmlFor="scrub-time" data-testid="scrub-time">
        {formatScrubMs(shown)} ms
      </output>
    </div>
  );
});

/** A time of the slider (ms), to a precision that tells 0.5 ms samples apart. */
function formatScrubMs(t: number): string {
  return t >= 1000 ? t.toFixed(0) : t.toFixed(1);
}
