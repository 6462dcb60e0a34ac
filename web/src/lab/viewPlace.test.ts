import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../test/memoryStore';
import { parseViewPlace, VIEW_PLACE_KEY, ViewPlaceKeeper, viewPlaceText } from './viewPlace';

// QA: a reload went back to Charts and the Lesson tab, not the Sweep tab and the Switches tab
// the user was on.
describe('where this tab was, for a reload', () => {
  it('comes back after a reload as it was kept', () => {
    const store = new MemoryStore();
    new ViewPlaceKeeper(store, false).keep({ tab: 'sweep', network: false, side: 'switches' });
    expect(new ViewPlaceKeeper(store, true).restored()).toEqual({ tab: 'sweep', network: false, side: 'switches' });
  });

  it('is not given back to a page opened anew (a new tab, a link opened in this one), nor without storage', () => {
    const store = new MemoryStore();
    new ViewPlaceKeeper(store, false).keep({ tab: 'editor', network: true, side: 'result' });
    expect(new ViewPlaceKeeper(store, false).restored()).toBeNull();
    expect(new ViewPlaceKeeper(null, true).restored()).toBeNull();
    const broken = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); } };
    expect(new ViewPlaceKeeper(broken, true).restored()).toBeNull();
    expect(() => new ViewPlaceKeeper(broken, true).keep({ tab: 'charts', network: false, side: 'lesson' })).not.toThrow();
  });

  it('is read forgivingly: unknown tabs and wrong types are left out; another version, damage or nothing usable give none', () => {
    expect(parseViewPlace(JSON.stringify({ v: 1, tab: 'results', network: 'yes', side: 'switches' }))).toEqual({ side: 'switches' });
    expect(parseViewPlace(JSON.stringify({ v: 1, tab: 'compare', side: 'inspector' }))).toEqual({ tab: 'compare' });
    expect(parseViewPlace(JSON.stringify({ v: 2, tab: 'sweep' }))).toBeNull();
    expect(parseViewPlace(JSON.stringify({ tab: 'sweep' }))).toBeNull();
    expect(parseViewPlace('{"v":1,')).toBeNull();
    expect(parseViewPlace(JSON.stringify({ v: 1, tab: 'nowhere' }))).toBeNull();
    expect(parseViewPlace(null)).toBeNull();
    expect(parseViewPlace('[1]')).toBeNull();
  });

  it('is kept under its key with its version tag', () => {
    const store = new MemoryStore();
    new ViewPlaceKeeper(store, false).keep({ tab: 'compare', network: false, side: 'paths' });
    expect(store.getItem(VIEW_PLACE_KEY)).toBe(viewPlaceText({ tab: 'compare', network: false, side: 'paths' }));
    expect(JSON.parse(store.getItem(VIEW_PLACE_KEY)!).v).toBe(1);
  });
});
