// The keepers of sweeps and comparisons (sweepKeep.ts, compareKeep.ts) write what the page shows
// into the browser's storage as it changes: writes must never overlap (an older state landing
// after a newer one), and one asked for while another is in flight must not be lost. One writer,
// shared: a write in flight, the next is made after it, once, with the newest state.

/**
 * Runs `pass` one at a time. `run()` while a pass is in flight asks for one more pass after it
 * (however often it is asked, once: each pass reads the newest state itself) and answers the
 * same promise, which settles when no pass is due. A pass never rejects (its failures are its
 * own to note).
 */
export class OneWriteAtATime {
  private inFlight: Promise<void> | null = null;
  private again = false;

  constructor(private readonly pass: () => Promise<void>) {}

  run(): Promise<void> {
    if (this.inFlight) {
      this.again = true;
      return this.inFlight;
    }
    this.inFlight = (async () => {
      // Never done at once (a pass with nothing to write awaits nothing): `inFlight` is this
      // promise until the loop ends, and let go in the same step as the loop's last check (a
      // write asked for in between would wait on a promise that makes no pass for it).
      await Promise.resolve();
      try {
        do {
          this.again = false;
          await this.pass();
        } while (this.again);
      } finally {
        this.inFlight = null;
      }
    })();
    return this.inFlight;
  }
}
