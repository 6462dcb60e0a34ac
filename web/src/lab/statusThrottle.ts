// Status arrives with every engine slice (up to ~100/s); the UI needs ~30/s. A change of mode
// or run goes through at once; the latest of the others comes on a trailing edge, so the last
// one is never lost.

import type { RunStatus } from '../engine/protocol';

const STATUS_INTERVAL_MS = 33;

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
