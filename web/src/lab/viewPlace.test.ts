import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../test/memoryStore';
import { parseViewPlace, startPlace, VIEW_PLACE_KEY, ViewPlaceKeeper, viewPlaceText } from './viewPlace';

// QA: a reload went back to Charts and the Lesson tab, not the Sweep tab and the Switches tab
// the user was on.
describe('where this tab was, for a reload', () => {
  it('comes back after a reload as it was kept', () => {
    const store = new MemoryStore();
    new ViewPlaceKeeper(store, false).keep({ tab: 'sweep', network: false, side: 'switches' });
    expect(new ViewPlaceKeeper(store, true).restored()).toEqual({ tab: 'sweep', network: false, side: 'switches', linked: '' });
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
    expect(store.getItem(VIEW_PLACE_KEY)).toBe(viewPlaceText({ tab: 'compare', network: false, side: 'paths', linked: '' }));
    expect(JSON.parse(store.getItem(VIEW_PLACE_KEY)!).v).toBe(1);
  });

  // QA: on a reload, the saved tab won over a `#t=` the address asked for since (a fragment typed
  // over in the address bar loads no page): the address wins when it asks for another place than
  // it did when the place was kept, the kept place when it asks for the same (the user moved on).
  it('keeps the place the address asked for with it, and a reload whose address asks for another opens on the address', () => {
    const store = new MemoryStore();
    let hash = '#t=sweep&p=result';
    const keeper = new ViewPlaceKeeper(store, false, () => hash);
    keeper.keep({ tab: 'charts', network: false, side: 'lesson' });
    const kept = new ViewPlaceKeeper(store, true).restored();
    expect(kept).toEqual({ tab: 'charts', network: false, side: 'lesson', linked: '#t=sweep&p=result' });
    // The same address: the user moved on from the link's place, which stays where they were.
    expect(startPlace(kept, { tab: 'sweep', side: 'result' })).toEqual({ tab: 'charts', network: false, side: 'lesson' });
    // Another address: a link opened in this tab since, which wins as when just opened.
    expect(startPlace(kept, { tab: 'compare' })).toEqual({ tab: 'compare', network: undefined, side: undefined });
    expect(startPlace(kept, { tab: 'sweep' })).toEqual({ tab: 'sweep', network: undefined, side: undefined });
    // An address that asks for nothing: where the user was.
    expect(startPlace(kept, {})).toEqual({ tab: 'charts', network: false, side: 'lesson' });
    // Not a reload: the address's, or nothing.
    expect(startPlace(null, { tab: 'sweep', network: true })).toEqual({ tab: 'sweep', network: true, side: undefined });
    expect(startPlace(null, {})).toEqual({ tab: undefined, network: undefined, side: undefined });
    // Kept again once the link opened: the address's place is what it asked, and moving on wins.
    hash = '#t=compare';
    keeper.keep({ tab: 'editor', network: false, side: 'switches' });
    expect(startPlace(new ViewPlaceKeeper(store, true).restored(), { tab: 'compare' })).toEqual({ tab: 'editor', network: false, side: 'switches' });
    // A place kept before the address's was (no `linked`): an address that asks wins.
    expect(startPlace(parseViewPlace(JSON.stringify({ v: 1, tab: 'editor' })), { tab: 'sweep' })).toMatchObject({ tab: 'sweep' });
    expect(startPlace(parseViewPlace(JSON.stringify({ v: 1, tab: 'editor' })), {})).toMatchObject({ tab: 'editor' });
  });
});
