// Status arrives with every engine slice (up to ~100/s); the page's readouts (the clock, the
// slider, the lesson's steps), which React renders, need ~10/s: every status renders the whole
// lab, and at 30/s that alone took a quarter of the main thread while gfc1 played. A change of
// mode or run goes through at once; the latest of the others comes on a trailing edge, so the
// last one is never lost. What draws at the display's rate (the Network view) reads the latest
// status from the lab (Lab.freshStatus).

import type { RunStatus } from '../engine/protocol';

const STATUS_INTERVAL_MS = 100;

export class StatusThrottle {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastAt = 0;

  constructor(
    private readonly shown: () => RunStatus | null,
    private readonly show: (status: RunStatus) => void,
  ) {}

  push(status: RunStatus) {
    const prev = this.shown();
    const now = performance.now();
    const changed = !prev || prev.mode !== status.mode || prev.run !== status.run;
    this.cancel();
    if (changed || now - this.lastAt >= STATUS_INTERVAL_MS) {
      this.lastAt = now;
      this.show(status);
    } else {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.lastAt = performance.now();
        this.show(status);
      }, STATUS_INTERVAL_MS);
    }
  }

  cancel() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
