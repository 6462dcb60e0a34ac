import { describe, expect, it } from 'vitest';
import { entryOf, HistoryEntries, withEntry } from './historyEntries';
import type { Place } from './place';

const lib = (id: string): Place => ({ kind: 'library', id });
const mine = (id: string): Place => ({ kind: 'mine', id });

describe('history entries', () => {
  it('an entry left, whose scenario was then kept elsewhere, opens that place', () => {
    const h = new HistoryEntries();
    h.leave('e2', lib('three-sources')); // Back from three-sources, a name typed there
    expect(h.keptAway(lib('three-sources'), mine('m1'))).toBe(true);
    expect(h.placeOf('e2')).toEqual(mine('m1'));
    expect(h.placeOf('e1')).toBeNull();
    expect(h.placeOf(null)).toBeNull();
  });

  it('the entry left most recently that named the place is the one moved, not an older one', () => {
    const h = new HistoryEntries();
    h.leave('e1', lib('gfc1'));
    h.leave('e2', lib('two-sources'));
    h.leave('e3', lib('gfc1'));
    h.keptAway(lib('gfc1'), mine('m9'));
    expect(h.placeOf('e3')).toEqual(mine('m9'));
    expect(h.placeOf('e1')).toBeNull();
  });

  it('a change kept where it was, or of a place no entry left names, moves nothing', () => {
    const h = new HistoryEntries();
    h.leave('e1', mine('m1'));
    expect(h.keptAway(mine('m1'), mine('m1'))).toBe(false);
    expect(h.keptAway(lib('vsvd-1'), mine('m2'))).toBe(false);
    expect(h.placeOf('e1')).toBeNull();
  });

  it("an entry's key lives in its state beside the scenario a file's or link's entry keeps", () => {
    const opened = { json: '{}', origin: 'shared link' };
    expect(entryOf(withEntry(opened, 'k1'))).toBe('k1');
    expect(withEntry(opened, 'k1')).toEqual({ ...opened, entry: 'k1' });
    expect(withEntry(null, 'k2')).toEqual({ entry: 'k2' });
    expect(entryOf(null)).toBeNull();
    expect(entryOf({ json: '{}' })).toBeNull();
    expect(entryOf({ entry: 7 })).toBeNull();
  });
});
