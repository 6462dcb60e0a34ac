import { describe, expect, it } from 'vitest';
import { Checkpoints, MAX_CHECKPOINTS, type Checkpointable } from './checkpoints';

/** A run that only has a time and an event count; counts its live copies. */
class Run implements Checkpointable<Run> {
  static live = 0;
  constructor(
    public ms = 0,
    public events = 0,
    public bytes = 1000,
  ) {
    Run.live += 1;
  }
  nowMs() {
    return this.ms;
  }
  eventsProcessed() {
    return this.events;
  }
  stateBytes() {
    return this.bytes;
  }
  snapshot() {
    return new Run(this.ms, this.events, this.bytes);
  }
  free() {
    Run.live -= 1;
  }
  to(ms: number) {
    this.ms = ms;
    this.events += 10;
    return this;
  }
}

describe('Checkpoints', () => {
  it('keeps at most MAX_CHECKPOINTS + 1 copies however often it is offered one', () => {
    Run.live = 0;
    const c = new Checkpoints<Run>(1000);
    const run = new Run();
    c.offer(run);
    for (let ms = 0.1; ms <= 1000; ms += 0.1) c.offer(run.to(ms));
    expect(c.size).toBe(MAX_CHECKPOINTS + 1);
    expect(Run.live).toBe(MAX_CHECKPOINTS + 2); // the copies and the run itself
    // One per slot of 1000 / 32 ms, the first taken in it, after the start.
    const times = c.times();
    expect(times[0]).toBe(0);
    times.slice(1).forEach((t, k) => expect(Math.floor(t / (1000 / MAX_CHECKPOINTS))).toBe(k));
    c.clear();
    expect(Run.live).toBe(1);
  });

  it('restores a fresh copy of the latest checkpoint before the time, or the start', () => {
    const c = new Checkpoints<Run>(100, 4);
    const run = new Run();
    c.offer(run);
    for (const ms of [10, 30, 60, 80]) c.offer(run.to(ms), ms * 2);
    expect(c.times()).toEqual([0, 10, 30, 60, 80]);
    expect(c.restore(30)!.sim.ms).toBe(10); // at 30 itself: rows at 30 may have been sent already
    expect(c.restore(30.5)!.sim.ms).toBe(30);
    expect(c.restore(0)!.sim.ms).toBe(0); // the start has run nothing
    expect(c.restore(1000)!.sim.ms).toBe(80);
    // Each with what was noted when it was taken.
    expect(c.restore(30.5)!.note).toBe(60);
    expect(c.restore(0)!.note).toBe(0);
    const a = c.restore(50)!.sim;
    a.to(55);
    expect(c.restore(50)!.sim.ms).toBe(30); // restoring copies: the checkpoint itself is untouched
  });

  it('fills the slots a replay passes after going back, keeping those it has', () => {
    const c = new Checkpoints<Run>(100, 4);
    const run = new Run();
    c.offer(run);
    c.offer(run.to(60));
    const back = c.restore(20)!.sim;
    c.offer(back.to(30));
    c.offer(back.to(65));
    expect(c.times()).toEqual([0, 30, 60]);
  });

  it('rewinding to a time lets the later checkpoints go, so that the replay notes them anew', () => {
    Run.live = 0;
    const c = new Checkpoints<Run>(100, 4);
    const run = new Run();
    c.offer(run);
    for (const ms of [10, 30, 60, 80]) c.offer(run.to(ms), ms * 2);
    const back = c.rewind(40)!;
    expect([back.sim.ms, back.note]).toEqual([30, 60]);
    expect(c.times()).toEqual([0, 10, 30]);
    expect(Run.live).toBe(3 + 2); // the run, the copy given back, the three kept
    // The replay passes 60 again with other events noted: its note is the one kept.
    c.offer(back.sim.to(60), 75);
    expect(c.restore(70)!.note).toBe(75);
    // Back to the start: only the start stays.
    expect(c.rewind(0)!.sim.ms).toBe(0);
    expect(c.times()).toEqual([0]);
  });

  it('keeps within its byte budget by thinning out every other checkpoint', () => {
    Run.live = 0;
    const c = new Checkpoints<Run>(100, 8, 5000);
    const run = new Run(0, 0, 1000);
    c.offer(run);
    for (let ms = 1; ms <= 100; ms++) {
      c.offer(run.to(ms));
      expect(c.bytes).toBeLessThanOrEqual(5000);
    }
    expect(c.size).toBeGreaterThanOrEqual(4); // the start and some spread over the run
    expect(Run.live).toBe(c.size + 1);
    expect(c.times()[0]).toBe(0);
    // A run too big to keep two copies of keeps only its start.
    const big = new Checkpoints<Run>(100, 8, 5000);
    const huge = new Run(0, 0, 3000);
    big.offer(huge);
    big.offer(huge.to(50));
    expect(big.times()).toEqual([0]);
  });

  it('has nothing to restore once cleared (a live change: the copies lack it)', () => {
    const c = new Checkpoints<Run>(100);
    c.offer(new Run());
    c.clear();
    expect(c.restore(50)).toBeNull();
  });
});
