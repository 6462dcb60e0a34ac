// What a screen reader is told when the run's play state changes (an aria-live region reads
// it): only changes of mode, never the clock ticking.

import type { Mode } from '../engine/protocol';
import { speedLabel } from '../scenario/speed';
import type { Speed } from '../engine/protocol';

const ms = (t: number) => `${t.toLocaleString('en-US', { maximumFractionDigits: 1 })} ms`;

/** The announcement for going from `before` to `now` (null: nothing to say). */
export function playAnnouncement(before: Mode | null, now: Mode, nowMs: number, endMs: number, speed: Speed): string | null {
  if (before === now) return null;
  switch (now) {
    case 'playing':
      return `Playing at ${speed === 'max' ? 'full speed' : speedLabel(speed)}, from ${ms(nowMs)} of ${ms(endMs)}.`;
    case 'seeking':
      return `Running ahead, from ${ms(nowMs)}.`;
    case 'paused':
      return before === null || before === 'idle' ? `Ready: ${ms(endMs)} to run, paused at ${ms(nowMs)}.` : `Paused at ${ms(nowMs)} of ${ms(endMs)}.`;
    case 'done':
      return `The run has ended, at ${ms(endMs)}. Its result is in the side panel's Result tab.`;
    default:
      return null;
  }
}

/** The announcement of a lesson step brought up (by the run reaching it, or by Next/Back). */
export function stepAnnouncement(title: string, prompt: string): string {
  return `${title}. ${prompt}`;
}

/** The announcement of a step's answer, once revealed. */
export function revealAnnouncement(answer: string): string {
  return `Answer: ${answer}`;
}
