import { describe, expect, it } from 'vitest';
import { OneWriteAtATime } from './oneWriteAtATime';

describe('OneWriteAtATime', () => {
  it('never overlaps two passes, and makes one more pass, once, for writes asked while one is in flight', async () => {
    let inFlight = 0;
    let most = 0;
    let passes = 0;
    const gates: (() => void)[] = [];
    const w = new OneWriteAtATime(async () => {
      passes++;
      most = Math.max(most, ++inFlight);
      await new Promise<void>((r) => gates.push(r));
      inFlight--;
    });
    const first = w.run();
    await Promise.resolve();
    await Promise.resolve();
    expect(passes).toBe(1);
    const second = w.run();
    const third = w.run();
    expect(second).toBe(first);
    expect(third).toBe(first);
    gates.shift()!();
    await new Promise((r) => setTimeout(r, 0));
    expect(passes).toBe(2);
    gates.shift()!();
    await first;
    expect(passes).toBe(2);
    expect(most).toBe(1);
    // Let go: the next write is a new pass.
    const fourth = w.run();
    expect(fourth).not.toBe(first);
    await new Promise((r) => setTimeout(r, 0));
    gates.shift()!();
    await fourth;
    expect(passes).toBe(3);
  });
});
