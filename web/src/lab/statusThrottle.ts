// Status arrives with every engine slice (up to ~100/s); the page's readouts (the clock, the
// slider, the lesson's steps), which React renders, need ~10/s: every status renders the whole
// lab, and at 30/s that alone took a quarter of the main thread while gfc1 played. A change of
// mode or run goes through at once; the latest of the others comes on a trailing edge, so the
// last one is never lost. What draws at the display's rate (the Network view) reads the latest
// status from the lab (Lab.freshStatus).
//
// A short seek from a still run is not shown at all. Each step of the time slider is a seek
// (paused → seeking → paused a few milliseconds later), and each change of mode renders the
// whole page: a burst of arrow keys made two whole renders a key, one after another, and React
// took the endless stream of them for a loop of updates (its error #185) while the page's
// lesser updates waited. So "seeking" is shown only once a seek has lasted SEEK_SHOWN_AFTER_MS
// (a long replay, the next RM event far ahead); a quicker one shows only where it ends, at once:
// one render of the page a key (the run stands at another time, see ui/useLab.ts).

import type { RunStatus } from '../engine/protocol';

const STATUS_INTERVAL_MS = 100;
export const SEEK_SHOWN_AFTER_MS = 250;

export class StatusThrottle {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastAt = 0;
  /** When the seek not shown yet began (null: none under way). */
  private seekSince: number | null = null;

  constructor(
    private readonly shown: () => RunStatus | null,
    private readonly show: (status: RunStatus) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  push(status: RunStatus) {
    const prev = this.shown();
    const now = this.now();
    this.cancel();
    if (status.mode === 'seeking' && prev && prev.run === status.run && (prev.mode === 'paused' || prev.mode === 'done')) {
      this.seekSince ??= now;
      this.later(status, this.seekSince + SEEK_SHOWN_AFTER_MS - now);
      return;
    }
    // The end of a seek not shown is shown at once, as the change it is (the run stands at
    // another time).
    const seekEnded = this.seekSince !== null;
    this.seekSince = null;
    const changed = seekEnded || !prev || prev.mode !== status.mode || prev.run !== status.run;
    if (changed || now - this.lastAt >= STATUS_INTERVAL_MS) this.showNow(status);
    else this.later(status, STATUS_INTERVAL_MS);
  }

  cancel() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private later(status: RunStatus, waitMs: number) {
    if (waitMs <= 0) return this.showNow(status);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.showNow(status);
    }, waitMs);
  }

  private showNow(status: RunStatus) {
    this.lastAt = this.now();
    this.show(status);
  }
}
