import { describe, expect, it } from 'vitest';
import { ChartGroup } from './chartGroup';

/** A frame scheduler the test steps by hand. */
function frames() {
  let pending: (() => void) | null = null;
  return {
    request: (cb: () => void) => {
      pending = cb;
      return 1;
    },
    cancel: () => {
      pending = null;
    },
    step: () => pending?.(),
    get running() {
      return pending !== null;
    },
  };
}

describe('ChartGroup', () => {
  it('draws the whole run until zoomed, and the zoom for every chart after', () => {
    const g = new ChartGroup(() => 0, () => {});
    expect(g.window(300, 1)).toEqual([0, 300]);
    expect(g.zoomTo(200, 50, 300)).toBe(true);
    expect(g.window(300, 1)).toEqual([50, 200]);
    expect(g.zoomed).toBe(true);
    g.reset();
    expect(g.window(300, 1)).toEqual([0, 300]);
  });

  it('clamps the zoom to the run and refuses an empty window', () => {
    const g = new ChartGroup(() => 0, () => {});
    g.zoomTo(-20, 400, 300);
    expect(g.window(300, 1)).toEqual([0, 300]);
    expect(g.zoomTo(10, 10, 300)).toBe(false);
    expect(g.window(300, 1)).toEqual([0, 300]);
  });

  it('drops the zoom when a new run starts (the store generation changes)', () => {
    const g = new ChartGroup(() => 0, () => {});
    g.window(300, 1);
    g.zoomTo(10, 20, 300);
    expect(g.window(300, 1)).toEqual([10, 20]);
    expect(g.window(500, 2)).toEqual([0, 500]);
    expect(g.zoomed).toBe(false);
  });

  it('tells its subscribers when the zoom changes, and only then', () => {
    const g = new ChartGroup(() => 0, () => {});
    const seen: (readonly [number, number] | null)[] = [];
    const stop = g.subscribe(() => seen.push(g.zoomWindow));
    g.reset();
    g.zoomTo(10, 20, 100);
    g.zoomTo(5, 5, 100);
    g.window(100, 7);
    g.window(100, 8);
    stop();
    g.zoomTo(1, 2, 100);
    expect(seen).toEqual([[10, 20], null]);
  });

  it('runs one frame loop for all its charts while it has any', () => {
    const f = frames();
    const g = new ChartGroup(f.request, f.cancel);
    const seen: string[] = [];
    const a = { frame: () => seen.push('a') };
    const b = { frame: () => seen.push('b') };
    g.add(a);
    g.add(b);
    f.step();
    f.step();
    expect(seen).toEqual(['a', 'b', 'a', 'b']);
    g.remove(a);
    f.step();
    expect(seen.slice(4)).toEqual(['b']);
    g.remove(b);
    expect(f.running).toBe(false);
  });

  it('marks a time for every chart, showing the whole run when the zoom does not hold it', () => {
    const g = new ChartGroup(() => 0, () => {});
    let told = 0;
    g.subscribe(() => told++);
    g.zoomTo(10, 20, 100);
    g.cursorTo(15);
    expect(g.zoomWindow).toEqual([10, 20]);
    const first = g.cursorMark!;
    expect(first.ms).toBe(15);
    g.cursorTo(15); // the same time again is a new request (the charts move their cursor again)
    expect(g.cursorMark!.n).toBeGreaterThan(first.n);
    g.cursorTo(50);
    expect(g.zoomWindow).toBeNull();
    expect(g.cursorMark!.ms).toBe(50);
    g.cursorTo(null);
    expect(g.cursorMark).toBeNull();
    expect(told).toBe(5);
  });
});
