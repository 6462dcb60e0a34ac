// The undo history as a tab keeps it (sessionStorage): bounded in steps and in size, the steps
// nearest the present kept, and a few scenarios' histories at most.
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../contract/scenario';
import { twoSources } from '../test/fakes';
import { decodeHistory, HISTORY_CHARS, HISTORY_PREFIX, HISTORY_STEPS, keepHistory, readHistory, SharedEditHistory } from './editHistory';
import { MemoryStore } from '../test/memoryStore';

const base = JSON.parse(twoSources()) as Scenario;
const withDuration = (ms: number, pad = ''): Scenario => ({ ...base, name: `n${pad}`, run: { ...base.run, duration_ms: ms } });

function historyOf(n: number, pad = '') {
  const h = new SharedEditHistory();
  let doc = withDuration(0, pad);
  for (let i = 1; i <= n; i++) {
    const next = withDuration(i, pad);
    h.record({ before: doc, next }, i * 10_000);
    doc = next;
  }
  return h;
}

/** A tab's sessionStorage, with a quota (characters) as a browser's. */
class Session extends MemoryStore {
  quota = Infinity;
  setItem(k: string, v: string) {
    const used = [...this.map].reduce((n, [key, val]) => n + (key === k ? 0 : val.length), 0);
    if (used + v.length > this.quota) throw new Error('QuotaExceededError');
    super.setItem(k, v);
  }
}

describe('the undo history as kept', () => {
  it('keeps the last HISTORY_STEPS steps back and forth, and goes on from them', () => {
    const h = historyOf(HISTORY_STEPS + 10);
    for (let i = 0; i < 5; i++) h.travel('undo');
    const kept = decodeHistory(h.encode()!)!;
    expect(kept.past).toHaveLength(HISTORY_STEPS);
    expect(kept.future.map((s) => s.doc.run.duration_ms)).toEqual([60, 59, 58, 57, 56]);
    const again = new SharedEditHistory();
    expect(again.restore(h.encode()!, withDuration(55))).toBe(true);
    expect(again.travel('undo')?.doc.run.duration_ms).toBe(54);
    expect(again.travel('redo')?.doc.run.duration_ms).toBe(55);
    expect(again.travel('redo')?.doc.run.duration_ms).toBe(56);
    // Not of this text: not taken.
    expect(new SharedEditHistory().restore(h.encode()!, withDuration(7))).toBe(false);
  });

  it('leaves out the steps farthest from the present to stay within HISTORY_CHARS', () => {
    const big = 'x'.repeat(40_000);
    const text = historyOf(30, big).encode()!;
    expect(text.length).toBeLessThanOrEqual(HISTORY_CHARS);
    const kept = decodeHistory(text)!;
    expect(kept.past.length).toBeLessThan(30);
    expect(kept.past.at(-1)?.doc.run.duration_ms).toBe(29); // the nearest are kept
  });

  it('keeps the histories of the scenarios changed last; over quota the others go first', () => {
    const session = new Session();
    const text = historyOf(3).encode()!;
    for (const id of ['a', 'b', 'c', 'd', 'e']) keepHistory(session, id, text);
    expect(readHistory(session, 'a')).toBeNull();
    expect(readHistory(session, 'e')).toBe(text);
    session.quota = text.length * 2.5;
    keepHistory(session, 'f', text);
    expect(readHistory(session, 'f')).toBe(text);
    expect([...session.map.keys()].filter((k) => k.startsWith(HISTORY_PREFIX))).toHaveLength(2);
  });
});
