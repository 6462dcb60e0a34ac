import { describe, expect, it } from 'vitest';
import { COALESCE_PAUSE_MS, EditHistory } from './history';

/** Undoes until nothing is left; the documents passed through. */
const undoAll = <T>(h: EditHistory<T>) => {
  const seen: T[] = [];
  while (h.canUndo) seen.push(h.undo());
  return seen;
};

describe('edit history: a run of small edits is one step', () => {
  it('joins pushes of one run made without a pause: one undo takes all of them back', () => {
    const h = new EditHistory(0);
    h.push(10, { run: 'move:SW1', atMs: 1000 });
    h.push(20, { run: 'move:SW1', atMs: 1150 });
    h.push(30, { run: 'move:SW1', atMs: 1300 });
    expect(h.present).toBe(30);
    expect(undoAll(h)).toEqual([0]);
    expect(h.redo()).toBe(30); // and redo brings the whole run back
    expect(h.canRedo).toBe(false);
  });

  it('a pause longer than the limit starts a new step (measured from the last push, not the first)', () => {
    const h = new EditHistory(0);
    // Four presses 0.9 s apart: every gap is under the pause, so one step though 2.7 s long.
    for (let i = 1; i <= 4; i++) h.push(i, { run: 'move:SW1', atMs: 900 * i });
    h.push(5, { run: 'move:SW1', atMs: 3600 + COALESCE_PAUSE_MS + 1 });
    expect(undoAll(h)).toEqual([4, 0]);
  });

  it('another selection, another kind of edit, an undo or a redo ends a run', () => {
    const h = new EditHistory('a');
    h.push('b', { run: 'move:SW1', atMs: 0 });
    h.push('c', { run: 'move:SW2', atMs: 10 }); // another node
    h.push('d', { run: 'move:SW2', atMs: 20 });
    h.push('e'); // a deletion, say
    h.push('f', { run: 'move:SW2', atMs: 30 });
    expect(undoAll(h)).toEqual(['e', 'd', 'b', 'a']);

    const k = new EditHistory('a');
    k.push('b', { run: 'move:SW1', atMs: 0 });
    k.push('c', { run: 'move:SW1', atMs: 10 });
    expect(k.undo()).toBe('a');
    k.push('x', { run: 'move:SW1', atMs: 20 }); // after an undo: a step of its own
    k.push('y', { run: 'move:SW1', atMs: 30 });
    expect(k.canRedo).toBe(false);
    expect(undoAll(k)).toEqual(['a']);

    const r = new EditHistory('a');
    r.push('b', { run: 'move:SW1', atMs: 0 });
    r.undo();
    r.redo();
    r.push('c', { run: 'move:SW1', atMs: 10 }); // after a redo too
    expect(undoAll(r)).toEqual(['b', 'a']);
  });

  it('a clock that went back does not join (no run across a reset of time)', () => {
    const h = new EditHistory(0);
    h.push(1, { run: 'move:SW1', atMs: 5000 });
    h.push(2, { run: 'move:SW1', atMs: 4000 });
    expect(undoAll(h)).toEqual([1, 0]);
  });

  it('a run that ends where it started leaves no step (Right, then Left); pressing on makes one again', () => {
    // Documents equal by value, as the lab's are (each move makes a new object).
    const same = (a: { x: number }, b: { x: number }) => a.x === b.x;
    const h = new EditHistory({ x: 0 }, 200, same);
    h.push({ x: 1 }, { run: 'move:SW1', atMs: 0 });
    h.push({ x: 0 }, { run: 'move:SW1', atMs: 100 });
    expect(h.present).toEqual({ x: 0 });
    expect(h.canUndo).toBe(false);
    // The same run goes on: its step comes back, and one undo takes it away.
    h.push({ x: -1 }, { run: 'move:SW1', atMs: 200 });
    h.push({ x: -2 }, { run: 'move:SW1', atMs: 300 });
    expect(undoAll(h)).toEqual([{ x: 0 }]);

    // After an earlier step, a run back to its start leaves that step as it was.
    const k = new EditHistory({ x: 0 }, 200, same);
    k.push({ x: 5 });
    k.push({ x: 6 }, { run: 'move:SW1', atMs: 0 });
    k.push({ x: 5 }, { run: 'move:SW1', atMs: 100 });
    expect(undoAll(k)).toEqual([{ x: 0 }]);
    // By default documents are one only when they are the same object.
    const d = new EditHistory({ x: 0 });
    d.push({ x: 1 }, { run: 'move:SW1', atMs: 0 });
    d.push({ x: 0 }, { run: 'move:SW1', atMs: 100 });
    expect(d.canUndo).toBe(true);
  });
});
