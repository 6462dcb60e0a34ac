// The user's own scenarios (issue 14, "Work that is lost today"): what the user changes is kept
// in IndexedDB (fake-indexeddb here, the real promise wrapper), listed with its name and last
// change, and reopened by `?mine=<id>`; the address follows what is open.
import { IDBFactory, IDBObjectStore as FakeObjectStore } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import type { Scenario } from '../contract/scenario';
import { LIBRARY } from '../scenario/library';
import { DELETED_KEPT_MS, IndexedDbScenarioStore, NOT_KEPT, lastChangeText, mineTimes, tabNews, unavailableStore, within, type ScenarioStore, type TabChannel, type TabNews } from '../scenario/myScenarios';
import type { Place } from '../scenario/place';
import { NOWHERE, placeOf, searchFor } from '../scenario/place';
import { encodeScenario, textLibrary } from '../scenario/share';
import { holdUnkept, LAST_WORK_KEY, readUnkept, textDigest, type KeyValueStore } from '../scenario/storage';
import { emptyNetwork, moveNode } from '../scenario/topologyEdits';
import { createFakeEngine } from '../test/fakeEngine';
import { ENGINE_CATALOGUE } from '../test/engineCatalogue';
import { costly, InProcessWorker } from '../test/fakes';
import { MemoryStore } from '../test/memoryStore';
import { Lab } from './lab';
import { startup } from './sharing';
import { CompareDrafts } from './compareSession';


/** A tab's view of one Web Storage shared by tabs: its writes reach the others late (Chromium
 *  caches localStorage per process), so it reads what it last saw. */
class LateView implements KeyValueStore {
  private seen: Map<string, string>;
  constructor(private readonly shared: Map<string, string>) {
    this.seen = new Map(shared);
  }
  getItem(k: string) {
    return this.seen.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.seen.set(k, v);
    this.shared.set(k, v);
  }
  removeItem(k: string) {
    this.seen.delete(k);
    this.shared.delete(k);
  }
  key(i: number) {
    return [...this.seen.keys()][i] ?? null;
  }
  get length() {
    return this.seen.size;
  }
}

const entry = (id: string) => LIBRARY.entries.find((e) => e.id === id)!;
const withDuration = (s: Scenario, ms: number): Scenario => ({ ...s, run: { ...s.run, duration_ms: ms } });

let labs: Lab[] = [];
afterEach(() => {
  for (const l of labs) l.dispose();
  labs = [];
});

/** The tabs of one browser: each tab's channel reaches the others (as a BroadcastChannel does). */
function tabHub() {
  const listeners = new Set<(news: TabNews) => void>();
  return (): TabChannel => {
    let own: ((news: TabNews) => void) | null = null;
    return {
      post: (news) => listeners.forEach((l) => l !== own && l(news)),
      listen: (on) => {
        own = on;
        listeners.add(on);
      },
      close: () => own && listeners.delete(own),
    };
  };
}

/** A store that does what `s` does (a test replaces the calls it slows or breaks). */
function passThrough(s: ScenarioStore): ScenarioStore {
  return {
    list: () => s.list(),
    get: (id) => s.get(id),
    put: (x, basis) => s.put(x, basis),
    remove: (id, ms) => s.remove(id, ms),
    deleted: () => s.deleted(),
    restore: (id) => s.restore(id),
    purge: (ms) => s.purge(ms),
  };
}

/** A browser: its IndexedDB and localStorage, and the address bar; each `open()` a page load. */
function browser() {
  const idb = new IDBFactory();
  const tabs = tabHub();
  const local = new MemoryStore();
  const address = { search: '', hash: '', pushes: 0, keptAway: [] as [Place, Place][] };
  let ids = 0;
  /** A page load in a tab, whose sessionStorage is `session` (the same for a reload). */
  const open = async (session: MemoryStore = new MemoryStore(), now?: () => number, wrap = (s: ScenarioStore) => s) => {
    let worker!: InProcessWorker;
    const scenarios: ScenarioStore = wrap(new IndexedDbScenarioStore(idb));
    const drafts = new CompareDrafts(local, session);
    const lab = new Lab(() => (worker = new InProcessWorker((host) => costly(createFakeEngine({ eventsPerSample: 100 }), host))), {
      storage: local,
      tabStorage: session,
      scenarios,
      tabs: tabs(),
      places: {
        show(place: Place, how) {
          address.search = searchFor(place, address.search);
          if (how === 'push') address.pushes += 1;
        },
        keptAway(from: Place, to: Place) {
          address.keptAway.push([from, to]);
        },
      },
      moved: (from, to, scenarioId) => drafts.moved(from, to, scenarioId),
      newId: () => `m${++ids}`,
      now,
    });
    labs.push(lab);
    const pump = () => {
      for (let i = 0; i < 10; i++) worker.pump();
    };
    const place = placeOf(address.search);
    const mine = place.kind === 'mine' ? await scenarios.get(place.id) : null;
    const start = startup(address, local, LIBRARY.entries, mine, session);
    address.hash = '';
    for (const l of start.loads) lab.open(l.json, l.origin, l.place, 'replace', undefined, l.unsaved ? { basis: l.basis, fallback: l.fallback } : undefined);
    if (start.notice) lab.notify(start.notice);
    await lab.refreshMyScenarios();
    pump();
    return { lab, pump, scenarios, drafts };
  };
  return { open, address, local, idb };
}

/** Changes the open scenario's duration (a change that makes it the user's own) and delivers it. */
function changeDuration(page: { lab: Lab; pump: () => void }, ms: number, origin = 'x'): Scenario {
  const s = page.lab.getState().current!.scenario;
  const next = withDuration(s, ms);
  page.lab.commitEdit(s, next, origin);
  page.pump();
  return next;
}

/** A browser whose user changed two-sources (kept as m1), then opened gfc1: m1 as kept. */
async function keptThenLeft() {
  const b = browser();
  const page = await b.open();
  changeDuration(page, 250);
  page.lab.openLibrary(entry('gfc1'));
  page.pump();
  await page.lab.saved();
  return { b, page, before: await page.scenarios.get('m1') };
}

describe('My scenarios', () => {
  // Issue 14: build a network from Edit network → Empty canvas, then pick another library
  // scenario or reload: the network was gone and the last work overwritten by the library's.
  it('issue 14: a network built on an empty canvas survives picking another scenario and a reload', async () => {
    const b = browser();
    const page = await b.open();
    expect(page.lab.getState().current?.place).toEqual({ kind: 'library', id: 'two-sources' });
    expect(b.address.search).toBe('?scenario=two-sources');

    const loaded = page.lab.getState().current!.scenario;
    const empty = emptyNetwork(loaded, ENGINE_CATALOGUE.fields, 'atm');
    page.lab.commitEdit(loaded, empty, 'two-sources (edited)');
    page.pump();
    const mine = page.lab.getState().current!;
    expect(mine.place).toEqual({ kind: 'mine', id: 'm1' });
    expect(b.address.search).toBe('?mine=m1'); // the address follows, in the same history entry
    expect(b.address.pushes).toBe(0);
    expect(page.lab.getState().myScenarios.map((m) => m.name)).toEqual(['My network']);

    page.lab.openLibrary(entry('gfc1'));
    page.pump();
    expect(page.lab.getState().current?.id).toBe('gfc1');
    expect(b.address.search).toBe('?scenario=gfc1');
    expect(b.address.pushes).toBe(1); // back returns to the user's network
    await page.lab.saved();
    expect(JSON.parse((await page.scenarios.get('m1'))!.json)).toEqual(empty);

    // Back (the address names it again) and reload both bring the network back.
    b.address.search = '?mine=m1';
    const reloaded = await b.open();
    expect(reloaded.lab.getState().current?.scenario).toEqual(empty);
    expect(reloaded.lab.getState().current?.place).toEqual({ kind: 'mine', id: 'm1' });
    expect(reloaded.lab.getState().myScenarios.map((m) => m.id)).toEqual(['m1']);
    // Picked from the list: the same.
    reloaded.lab.openLibrary(entry('two-sources'));
    reloaded.pump();
    await reloaded.lab.openMine('m1');
    reloaded.pump();
    expect(reloaded.lab.getState().current?.scenario).toEqual(empty);
  });

  it('an empty canvas drawn over a scenario of the user\'s is a new one: the first stays kept as it was', async () => {
    const b = browser();
    const page = await b.open();
    const designed = changeDuration(page, 300); // the user's own now: m1
    await page.lab.saved();
    expect(b.address.search).toBe('?mine=m1');
    const pushes = b.address.pushes;
    const empty = emptyNetwork(designed, ENGINE_CATALOGUE.fields, 'atm');
    page.lab.commitEdit(designed, empty, 'x', undefined, true);
    page.pump();
    await page.lab.saved();
    expect(page.lab.getState().current?.place).toEqual({ kind: 'mine', id: 'm2' });
    expect(b.address.search).toBe('?mine=m2');
    expect(b.address.pushes).toBe(pushes + 1); // back returns to the design
    expect(JSON.parse((await page.scenarios.get('m1'))!.json)).toEqual(designed);
    expect(JSON.parse((await page.scenarios.get('m2'))!.json)).toEqual(empty);
    expect(page.lab.getState().myScenarios.map((m) => m.id).sort()).toEqual(['m1', 'm2']);
    // Undo returns to the design itself, under its own id (QA: it came back as a copy in the
    // new one, and Mine held two identical designs); the design is untouched either way.
    page.lab.travel('undo', 'x');
    page.pump();
    await page.lab.saved();
    expect(page.lab.getState().current?.scenario.run.duration_ms).toBe(300);
    expect(page.lab.getState().current?.place).toEqual({ kind: 'mine', id: 'm1' });
    expect(b.address.search).toBe('?mine=m1');
    expect(JSON.parse((await page.scenarios.get('m1'))!.json)).toEqual(designed);
    expect(JSON.parse((await page.scenarios.get('m2'))!.json)).toEqual(empty);
    expect((await page.scenarios.list()).map((m) => m.id).sort()).toEqual(['m1', 'm2']);
    // Redo returns to the new one, no third copy.
    page.lab.travel('redo', 'x');
    page.pump();
    await page.lab.saved();
    expect(page.lab.getState().current?.place).toEqual({ kind: 'mine', id: 'm2' });
    expect(page.lab.getState().current?.scenario).toEqual(empty);
    expect((await page.scenarios.list()).map((m) => m.id).sort()).toEqual(['m1', 'm2']);
    // Undo on a library scenario's empty canvas returns to the library scenario, not a copy.
    page.lab.openLibrary(entry('gfc1'));
    page.pump();
    const gfc1 = page.lab.getState().current!.scenario;
    page.lab.commitEdit(gfc1, emptyNetwork(gfc1, ENGINE_CATALOGUE.fields, 'atm'), 'x', undefined, true);
    page.pump();
    page.lab.travel('undo', 'x');
    page.pump();
    await page.lab.saved();
    expect(page.lab.getState().current?.place).toEqual({ kind: 'library', id: 'gfc1' });
    expect(b.address.search).toBe('?scenario=gfc1');
    expect((await page.scenarios.list()).map((m) => m.id).sort()).toEqual(['m1', 'm2', 'm3']);
  });

  it("the Compare view's variants typed on a library scenario go with the user's copy its first change makes; an empty canvas takes none", async () => {
    const b = browser();
    const page = await b.open();
    const library: Place = { kind: 'library', id: 'two-sources' };
    const typed = [{ from: '', algorithms: { SW1: 'erica_plus' }, sets: 'run.seed=2' }];
    page.drafts.set(library, 'two-sources', typed);
    const changed = changeDuration(page, 300);
    expect(page.lab.getState().current?.place).toEqual({ kind: 'mine', id: 'm1' });
    expect(page.drafts.get({ kind: 'mine', id: 'm1' }, 'two-sources')).toEqual(typed);
    // From now on each its own.
    page.drafts.set({ kind: 'mine', id: 'm1' }, 'two-sources', []);
    expect(page.drafts.get(library, 'two-sources')).toEqual(typed);
    // An empty canvas is no scenario's copy: not even variants of a file of its id go with it.
    const empty = emptyNetwork(changed, ENGINE_CATALOGUE.fields, 'atm');
    page.drafts.set(NOWHERE, empty.id, typed);
    page.lab.commitEdit(changed, empty, 'x', undefined, true);
    page.pump();
    expect(page.lab.getState().current?.place).toEqual({ kind: 'mine', id: 'm2' });
    expect(page.drafts.get({ kind: 'mine', id: 'm2' }, empty.id)).toBeNull();
    await page.lab.saved();
  });

  it('an edit the engine had not yet taken when the page went away is there after the reload, and kept', async () => {
    const b = browser();
    const tab = new MemoryStore();
    const page = await b.open(tab);
    const s0 = page.lab.getState().current!.scenario;
    page.lab.commitEdit(s0, withDuration(s0, 321), 'x'); // on its way: no answer yet
    page.lab.flushUnsaved(); // pagehide
    expect(b.address.search).toBe('?scenario=two-sources'); // the reload's address
    const reloaded = await b.open(tab);
    await reloaded.lab.saved();
    expect(reloaded.lab.getState().current?.scenario.run.duration_ms).toBe(321);
    const place = reloaded.lab.getState().current!.place;
    expect(place.kind).toBe('mine');
    const id = (place as { id: string }).id;
    expect(b.address.search).toBe(`?mine=${id}`);
    expect(JSON.parse((await reloaded.scenarios.get(id))!.json).run.duration_ms).toBe(321);
    expect(reloaded.lab.getState().myScenarios.map((m) => m.id)).toEqual([id]);
  });

  it('a live change the engine had not answered when the page went away is there after the reload, and kept', async () => {
    const b = browser();
    const tab = new MemoryStore();
    const page = await b.open(tab);
    page.lab.runUntil(30);
    page.pump();
    page.lab.switches.setParam('SW1', 'target_utilization', 0.6); // sent: no answer yet
    page.lab.flushUnsaved(); // pagehide
    const reloaded = await b.open(tab);
    await reloaded.lab.saved();
    const open = reloaded.lab.getState().current!;
    expect(open.scenario.changes).toEqual([{ at_ms: 30, node: 'SW1', param: 'target_utilization', value: 0.6 }]);
    expect(open.place.kind).toBe('mine');
    const id = (open.place as { id: string }).id;
    expect(JSON.parse((await reloaded.scenarios.get(id))!.json).changes).toHaveLength(1);
  });

  // QA: a change still waiting for the engine's verdict when the page went away is kept as
  // unsaved; one the engine refuses then opened nothing at the reload (an empty lab, every
  // reload alike).
  it('a change the engine refuses, on its way when the page went away: the reload opens what it was made on and offers the change as a file', async () => {
    const b = browser();
    const tab = new MemoryStore();
    const page = await b.open(tab);
    changeDuration(page, 300); // m1
    await page.lab.saved();
    const s = page.lab.getState().current!.scenario;
    page.lab.commitEdit(s, withDuration(s, 0), 'x'); // on its way: no verdict yet
    page.lab.flushUnsaved(); // the page goes
    const reloaded = await b.open(tab);
    reloaded.pump();
    await reloaded.lab.saved();
    const st = reloaded.lab.getState();
    expect(st.current?.place).toEqual({ kind: 'mine', id: 'm1' });
    expect(st.current?.scenario.run.duration_ms).toBe(300);
    expect(st.problems?.problems.map((p) => p.path)).toEqual(['run.duration_ms']);
    expect(JSON.parse(st.problems!.kept!).run.duration_ms).toBe(0); // Save its file
    // One message, in the problems' box, naming the field and the rule (a second red box said
    // much the same).
    expect(st.notice).toBeNull();
    expect(st.problems?.said?.head).toBe('Your last change to “Two sources”, made as the page went away, was not kept: the engine refuses it (a problem, below).');
    expect(st.problems?.said?.sub).toMatch(/^“Two sources” is open as it was before it\. Save its file to keep it/);
    expect(JSON.parse((await reloaded.scenarios.get('m1'))!.json).run.duration_ms).toBe(300);
    expect(st.myScenarios.map((m) => m.id)).toEqual(['m1']);
    // The next reload opens the kept scenario, with nothing to say.
    const again = await b.open(tab);
    again.pump();
    expect(again.lab.getState().current?.scenario.run.duration_ms).toBe(300);
    expect(again.lab.getState().problems).toBeNull();
    expect(again.lab.getState().notice).toBeNull();
    // Made on a library scenario, not yet the user's own: that scenario opens.
    b.address.search = '?scenario=gfc1';
    const onLibrary = await b.open(tab);
    const g = onLibrary.lab.getState().current!.scenario;
    onLibrary.lab.commitEdit(g, withDuration(g, 0), 'x');
    onLibrary.lab.flushUnsaved();
    const back = await b.open(tab);
    back.pump();
    expect(back.lab.getState().current?.place).toEqual({ kind: 'library', id: 'gfc1' });
    expect(back.lab.getState().problems?.kept).toBeDefined();
  });

  it('a change kept as unsaved as the page was hidden, then refused by the engine, is not what the next reload opens', async () => {
    const b = browser();
    const tab = new MemoryStore();
    const page = await b.open(tab);
    changeDuration(page, 300); // m1
    await page.lab.saved();
    const s = page.lab.getState().current!.scenario;
    page.lab.commitEdit(s, withDuration(s, 0), 'x'); // on its way: no verdict yet
    page.lab.flushUnsaved(); // hidden
    page.pump(); // back: refused, as the user sees
    expect(page.lab.getState().problems).not.toBeNull();
    const reloaded = await b.open(tab);
    reloaded.pump();
    expect(reloaded.lab.getState().current?.scenario.run.duration_ms).toBe(300);
    expect(reloaded.lab.getState().problems).toBeNull();
    expect(reloaded.lab.getState().notice).toBeNull();
  });

  it('a name given while an edit is on its way goes on top of that edit, not back to before it', async () => {
    const b = browser();
    const page = await b.open();
    const s0 = page.lab.getState().current!.scenario;
    page.lab.commitEdit(s0, withDuration(s0, 321), 'x'); // on its way: no answer yet
    page.lab.rename('Named at once');
    page.pump();
    const open = page.lab.getState().current!.scenario;
    expect([open.run.duration_ms, open.name]).toEqual([321, 'Named at once']);
    // One undo step each: the name, then the edit.
    page.lab.travel('undo', 'x');
    page.pump();
    expect([page.lab.getState().current!.scenario.run.duration_ms, page.lab.getState().current!.scenario.name]).toEqual([321, s0.name]);
    await page.lab.saved();
  });

  it('two quick edits, the second queued behind the first, are both in the work the reload opens', async () => {
    const b = browser();
    const tab = new MemoryStore();
    const page = await b.open(tab);
    const s0 = page.lab.getState().current!.scenario;
    page.lab.commitEdit(s0, withDuration(s0, 321), 'x'); // on its way: no answer yet
    page.lab.rename('Second edit'); // waits behind it
    page.lab.flushUnsaved(); // pagehide
    const reloaded = await b.open(tab);
    await reloaded.lab.saved();
    const open = reloaded.lab.getState().current!;
    expect(open.scenario.run.duration_ms).toBe(321);
    expect(open.scenario.name).toBe('Second edit');
    expect(open.place.kind).toBe('mine');
  });

  it('a rename kept just before a reload of the old address opens renamed, and is in Mine', async () => {
    const b = browser();
    const tab = new MemoryStore();
    const page = await b.open(tab);
    page.lab.rename('Big design'); // a name changes no run: kept at once, the store's write pending
    b.address.search = '?scenario=two-sources'; // the reload had already left with this address
    const reloaded = await b.open(tab);
    await reloaded.lab.saved();
    const open = reloaded.lab.getState().current!;
    expect(open.scenario.name).toBe('Big design');
    expect(open.place).toEqual({ kind: 'mine', id: 'm1' });
    expect(JSON.parse((await reloaded.scenarios.get('m1'))!.json).name).toBe('Big design');
    // Kept: a later reload of the library address opens the library scenario again.
    b.address.search = '?scenario=two-sources';
    const later = await b.open(tab);
    expect(later.lab.getState().current?.place).toEqual({ kind: 'library', id: 'two-sources' });
  });

  it('a name still being typed when the user goes Back is kept for the scenario it was typed for, the address left to Back', async () => {
    const b = browser();
    const page = await b.open();
    changeDuration(page, 250); // m1, shown at ?mine=m1
    await page.lab.saved();
    // The name field's keys are not yet given (it waits for a pause in the typing).
    let typed: string | null = 'Named in a hurry';
    page.lab.holdTyping(() => {
      if (typed !== null) page.lab.rename(typed, 'name');
      typed = null;
    });
    b.address.search = '?scenario=two-sources'; // Back: the address already names the library entry
    page.lab.openLibrary(entry('two-sources'), 'none');
    expect(b.address.search).toBe('?scenario=two-sources'); // the rename did not write over it
    page.pump();
    await page.lab.saved();
    expect(page.lab.getState().current?.place).toEqual({ kind: 'library', id: 'two-sources' });
    expect(JSON.parse((await page.scenarios.get('m1'))!.json).name).toBe('Named in a hurry');
    expect(page.lab.getState().myScenarios.find((m) => m.id === 'm1')?.name).toBe('Named in a hurry');
    expect(typed).toBeNull();
  });

  // QA: typed on a library scenario, then Back, then Forward opened the library original: the
  // entry the name was typed in still named it. The page is told where the copy went.
  it('a name typed on a library scenario and given at Back tells the address where its copy is, for Forward', async () => {
    const b = browser();
    const page = await b.open();
    page.lab.openLibrary(entry('three-sources'));
    page.pump();
    expect(b.address.search).toBe('?scenario=three-sources');
    let typed: string | null = 'Half typed';
    page.lab.holdTyping(() => {
      if (typed !== null) page.lab.rename(typed, 'name');
      typed = null;
    });
    b.address.search = '?scenario=two-sources'; // Back
    page.lab.openLibrary(entry('two-sources'), 'none');
    page.pump();
    await page.lab.saved();
    expect(b.address.search).toBe('?scenario=two-sources');
    expect(b.address.keptAway).toEqual([[{ kind: 'library', id: 'three-sources' }, { kind: 'mine', id: 'm1' }]]);
    expect(JSON.parse((await page.scenarios.get('m1'))!.json).name).toBe('Half typed');
    // An ordinary change, the address on its entry, is no move away.
    changeDuration(page, 250);
    expect(b.address.keptAway).toHaveLength(1);
  });

  it('a name still being typed when the page goes away is in the last work the reload opens', async () => {
    const b = browser();
    const tab = new MemoryStore();
    const page = await b.open(tab);
    page.lab.holdTyping(() => {
      page.lab.rename('Typed, then closed', 'name');
    });
    page.lab.flushUnsaved(); // pagehide
    const reloaded = await b.open(tab);
    await reloaded.lab.saved();
    expect(reloaded.lab.getState().current?.scenario.name).toBe('Typed, then closed');
  });

  // QA: target_utilization 7 typed (its range 0.1 to 1), not entered, then a reload: the value
  // before was there and nothing said the 7 was dropped.
  it('a typed value its field refuses, the page gone, is told after the reload with its field and rule, once', async () => {
    const b = browser();
    const tab = new MemoryStore();
    const page = await b.open(tab);
    const rule = 'target_utilization = 7 is out of range: must be between 0.1 and 1';
    page.lab.holdTyping(() => ({ field: 'target_utilization', owner: 'SW1', text: '7', rule }));
    page.lab.flushUnsaved(); // pagehide
    const reloaded = await b.open(tab);
    expect(reloaded.lab.tellDroppedTyping()).toBe(true);
    expect(reloaded.lab.getState().typingNotice).toBe(`Your typed 7 for SW1 target_utilization was not kept: ${rule}.`);
    const again = await b.open(tab);
    expect(again.lab.tellDroppedTyping()).toBe(false);
  });

  // QA: a reload into a teacher's link with settings it ignores (or a broken link) said those,
  // and the refused typed value went unsaid; a notice after it replaced it too.
  it('a typed value its field refused is told beside a start-up notice, and stays when another notice comes', async () => {
    const b = browser();
    const tab = new MemoryStore();
    const page = await b.open(tab);
    page.lab.holdTyping(() => ({ field: 'target_utilization', owner: 'SW1', text: '7', rule: 'r' }));
    page.lab.flushUnsaved(); // pagehide
    const reloaded = await b.open(tab);
    const startUp = { kind: 'info' as const, text: "This link's teacher settings name what this lab does not know, ignored: hide=wings." };
    reloaded.lab.notify(startUp);
    expect(reloaded.lab.tellDroppedTyping()).toBe(true);
    const told = 'Your typed 7 for SW1 target_utilization was not kept: r.';
    expect(reloaded.lab.getState()).toMatchObject({ notice: startUp, typingNotice: told });
    reloaded.lab.notify({ kind: 'error', text: 'later' });
    expect(reloaded.lab.getState()).toMatchObject({ notice: { text: 'later' }, typingNotice: told });
    reloaded.lab.dismissTypingNotice();
    expect(reloaded.lab.getState().typingNotice).toBeNull();
  });

  it('a refused value mended before the page went is not told; one left when another scenario opens is told at once', async () => {
    const b = browser();
    const tab = new MemoryStore();
    const page = await b.open(tab);
    let typed: string | null = '7';
    page.lab.holdTyping(() => (typed === null ? undefined : { field: 'target_utilization', text: typed, rule: 'r' }));
    page.lab.flushUnsaved(); // the page hidden, then shown again
    typed = null; // mended
    page.lab.flushUnsaved(); // pagehide
    expect((await b.open(tab)).lab.tellDroppedTyping()).toBe(false);
    typed = '7';
    page.lab.open(entry('three-sources').json, 'three-sources', { kind: 'library', id: 'three-sources' });
    expect(page.lab.getState().typingNotice).toBe('Your typed 7 for target_utilization was not kept: r.');
  });

  it('a change of one of the user\'s scenarios newer than the store\'s copy is kept over it, not beside it', async () => {
    const b = browser();
    const tab = new MemoryStore();
    const page = await b.open(tab);
    changeDuration(page, 300);
    await page.lab.saved();
    const s1 = page.lab.getState().current!.scenario;
    page.lab.commitEdit(s1, withDuration(s1, 400), 'x');
    page.lab.flushUnsaved(); // gone before the engine took it
    const reloaded = await b.open(tab);
    await reloaded.lab.saved();
    expect(reloaded.lab.getState().current?.place).toEqual({ kind: 'mine', id: 'm1' });
    expect(JSON.parse((await reloaded.scenarios.get('m1'))!.json).run.duration_ms).toBe(400);
    expect((await reloaded.scenarios.list()).map((m) => m.id)).toEqual(['m1']); // no copy beside it
    expect(reloaded.lab.getState().notice).toBeNull();
  });

  it('keeps every later change under the same id, and the last change first in the list', async () => {
    const b = browser();
    const page = await b.open();
    const s0 = page.lab.getState().current!.scenario;
    page.lab.commitEdit(s0, withDuration(s0, 300), 'x');
    page.pump();
    const s1 = page.lab.getState().current!.scenario;
    page.lab.commitEdit(s1, moveNode(s1, 'S1', 5, 6), 'x'); // only redrawn: kept all the same
    page.lab.runUntil(20);
    page.pump();
    page.lab.switches.setParam('SW1', 'target_utilization', 0.7); // a live change is kept too
    page.pump();
    await page.lab.saved();
    const kept = JSON.parse((await page.scenarios.get('m1'))!.json) as Scenario;
    expect(kept.run.duration_ms).toBe(300);
    expect(kept.nodes.find((n) => n.id === 'S1')).toMatchObject({ x: 5, y: 6 });
    expect(kept.changes).toHaveLength(1);
    expect((await page.scenarios.list()).map((m) => m.id)).toEqual(['m1']);
  });

  it('a name given in the editor is the name in the list, the store and the scenario, without a restart', async () => {
    const b = browser();
    const page = await b.open();
    page.lab.runUntil(20);
    page.pump();
    expect(page.lab.rename('   ')).toMatchObject({ ok: false, rule: expect.stringMatching(/^name: /) });
    expect(page.lab.rename('Bottleneck study')).toMatchObject({ ok: true });
    page.pump();
    const current = page.lab.getState().current!;
    expect(current.scenario.name).toBe('Bottleneck study');
    expect(page.lab.getState().status?.nowMs).toBe(20); // the run went on
    expect(page.lab.getState().myScenarios).toMatchObject([{ id: 'm1', name: 'Bottleneck study' }]);
    await page.lab.saved();
    expect((await page.scenarios.get('m1'))!.name).toBe('Bottleneck study');
    expect(page.lab.edits.history?.canUndo).toBe(true);
  });

  it('a shared link opened by someone else becomes their own copy at their first change', async () => {
    const b = browser();
    const shared = { ...entry('three-sources').scenario, name: 'From a colleague' };
    b.address.hash = `#s=${encodeScenario(shared, textLibrary(LIBRARY.entries))}`;
    const page = await b.open();
    expect(page.lab.getState().current?.scenario.name).toBe('From a colleague');
    expect(page.lab.getState().current?.place).toEqual({ kind: 'none' });
    expect(b.address.search).toBe('');
    expect(page.lab.getState().myScenarios).toEqual([]);
    changeDuration(page, 250, 'shared link (edited)');
    expect(page.lab.getState().current?.place).toEqual({ kind: 'mine', id: 'm1' });
    expect(page.lab.getState().myScenarios).toMatchObject([{ id: 'm1', name: 'From a colleague' }]);
  });

  it('an address naming a scenario this browser does not keep opens the last work with a message', async () => {
    const b = browser();
    const page = await b.open();
    changeDuration(page, 250);
    b.address.search = '?mine=gone';
    const other = await b.open();
    expect(other.lab.getState().current?.scenario.run.duration_ms).toBe(250);
    expect(other.lab.getState().notice?.text).toMatch(/your scenario “gone”, which is not kept in this browser: your last work is open instead/);
    // The store lost it but the last work is that very scenario: it opens as the user's.
    const local = JSON.parse(b.local.getItem(LAST_WORK_KEY)!);
    expect(local.place).toEqual({ kind: 'mine', id: 'm1' });
  });

  // Two tabs on one of the user's scenarios: each tab's change was written over the whole
  // scenario, so the tab holding the older copy silently undid the other's change.
  it("a tab told of another tab's change can open that version, and its changes then go on to the same scenario", async () => {
    const b = browser();
    const a = await b.open();
    changeDuration(a, 250); // m1
    await a.lab.saved();
    const tabB = await b.open();
    changeDuration(a, 300);
    await a.lab.saved();
    expect(tabB.lab.getState().notice?.reopen).toBe('m1');
    await tabB.lab.openMine('m1');
    tabB.pump();
    expect(tabB.lab.getState().current?.scenario.run.duration_ms).toBe(300);
    changeDuration(tabB, 500);
    await tabB.lab.saved();
    // No copy: tab B held the kept text, so its change is written over it.
    expect(JSON.parse((await a.scenarios.get('m1'))!.json).run.duration_ms).toBe(500);
    expect(tabB.lab.getState().current?.place).toEqual({ kind: 'mine', id: 'm1' });
    expect(tabB.lab.getState().myScenarios.map((m) => m.id)).toEqual(['m1']);
  });

  it('a change made in a tab holding an older copy is kept beside the other tab\'s, not over it', async () => {
    const b = browser();
    const a = await b.open();
    changeDuration(a, 250); // m1
    await a.lab.saved();
    expect(b.address.search).toBe('?mine=m1');
    const tabB = await b.open(); // the same address in a second tab
    expect(tabB.lab.getState().current?.scenario.run.duration_ms).toBe(250);

    changeDuration(a, 300); // tab A changes it again ...
    await a.lab.saved();
    // Tab B is told at once, before it changes anything.
    expect(tabB.lab.getState().notice?.text).toMatch(/was just changed in another tab\. This tab still shows it as it was/);
    expect(tabB.lab.getState().current?.scenario.run.duration_ms).toBe(250);
    const typed = [{ from: '', algorithms: {}, sets: 'run.seed=4' }];
    tabB.drafts.set({ kind: 'mine', id: 'm1' }, 'two-sources', typed); // variants written in tab B
    const inB = changeDuration(tabB, 400); // ... and tab B, still at 250, changes it too
    await tabB.lab.saved();

    // Tab A's 300 stays under m1; tab B's 400 is a scenario of its own, open in tab B.
    expect(JSON.parse((await a.scenarios.get('m1'))!.json).run.duration_ms).toBe(300);
    const moved = tabB.lab.getState().current!;
    expect(moved.place).toEqual({ kind: 'mine', id: 'm2' });
    expect(moved.scenario).toEqual(inB);
    expect(JSON.parse((await a.scenarios.get('m2'))!.json)).toEqual(inB);
    expect(tabB.lab.getState().notice?.text).toMatch(/changed in another tab since this tab opened it\. Both are kept/);
    expect(tabB.lab.getState().myScenarios.map((m) => m.id).sort()).toEqual(['m1', 'm2']);
    // Tab B's Compare variants went with its copy.
    expect(tabB.drafts.get({ kind: 'mine', id: 'm2' }, 'two-sources')).toEqual(typed);

    // Tab B's later changes go on to its copy, with no more copies; tab A's to m1, unchecked by B.
    changeDuration(tabB, 450);
    await tabB.lab.saved();
    expect(JSON.parse((await a.scenarios.get('m2'))!.json).run.duration_ms).toBe(450);
    changeDuration(a, 350);
    await a.lab.saved();
    expect(JSON.parse((await a.scenarios.get('m1'))!.json).run.duration_ms).toBe(350);
    expect((await a.scenarios.list()).map((m) => m.id).sort()).toEqual(['m1', 'm2']);
    expect(a.lab.getState().notice?.text ?? '').not.toMatch(/another tab/);

    // Tab B opens m1 again on purpose: its changes go to m1 again (as it now reads it).
    await tabB.lab.openMine('m1');
    tabB.pump();
    changeDuration(tabB, 500);
    await tabB.lab.saved();
    expect(JSON.parse((await a.scenarios.get('m1'))!.json).run.duration_ms).toBe(500);
    expect(JSON.parse((await a.scenarios.get('m2'))!.json).run.duration_ms).toBe(450);
  });

  // QA: tab B reloaded just after a change (a value typed, given as the page went away); tab A
  // had changed the scenario since tab B read it. The reload wrote tab B's change over tab A's,
  // as if tab B's were made on the store's newer text: tab A's change was gone.
  it("a change not yet kept when the page went away is not written over another tab's newer change after the reload", async () => {
    const b = browser();
    const a = await b.open();
    changeDuration(a, 250); // m1
    await a.lab.saved();
    const tabB = new MemoryStore();
    const pageB = await b.open(tabB); // the same address in a second tab
    changeDuration(a, 300); // tab A changes it again
    await a.lab.saved();
    const s = pageB.lab.getState().current!.scenario; // tab B, still at 250, changes it ...
    pageB.lab.commitEdit(s, withDuration(s, 400), 'x'); // ... and the page goes before it is kept
    pageB.lab.flushUnsaved();
    const reloaded = await b.open(tabB);
    reloaded.pump();
    await reloaded.lab.saved();
    // Tab A's 300 stays under m1; tab B's 400 is a scenario of its own, open in tab B.
    expect(JSON.parse((await reloaded.scenarios.get('m1'))!.json).run.duration_ms).toBe(300);
    const open = reloaded.lab.getState().current!;
    expect(open.scenario.run.duration_ms).toBe(400);
    expect(open.place).not.toEqual({ kind: 'mine', id: 'm1' });
    const id = (open.place as { id: string }).id;
    expect(JSON.parse((await reloaded.scenarios.get(id))!.json).run.duration_ms).toBe(400);
    expect(reloaded.lab.getState().notice?.text).toMatch(/changed in another tab since this tab opened it\. Both are kept/);
  });

  it('two quick changes, the page gone after the first is kept and before the second is: the reload keeps the second over the first, no copy', async () => {
    const b = browser();
    const tab = new MemoryStore();
    const holds: (() => void)[] = [];
    let held = false;
    // While `held`, each write to the store waits until the test lets it go.
    const gated = (s: ScenarioStore): ScenarioStore => ({
      ...passThrough(s),
      put: (x, basis) => (held ? new Promise<void>((r) => holds.push(r)) : Promise.resolve()).then(() => s.put(x, basis)),
    });
    const page = await b.open(tab, undefined, gated);
    changeDuration(page, 250); // m1
    await page.lab.saved();
    held = true;
    changeDuration(page, 300); // both made before the first is kept
    changeDuration(page, 400);
    await new Promise((r) => setTimeout(r, 10));
    holds.shift()!(); // 300 is kept; 400 is not when the page goes
    await new Promise((r) => setTimeout(r, 50));
    expect(holds).toHaveLength(1);
    page.lab.flushUnsaved();
    const reloaded = await b.open(tab);
    reloaded.pump();
    await reloaded.lab.saved();
    expect(reloaded.lab.getState().current?.place).toEqual({ kind: 'mine', id: 'm1' });
    expect(JSON.parse((await reloaded.scenarios.get('m1'))!.json).run.duration_ms).toBe(400);
    expect((await reloaded.scenarios.list()).map((m) => m.id)).toEqual(['m1']);
    expect(reloaded.lab.getState().notice).toBeNull();
  });

  // QA: at start the lab waits 3 s for the store's copy of ?mine=<id>; a store slower than that
  // opened this tab's last work as a change and wrote it over whatever was kept, another tab's
  // newer change with it.
  it("a store too slow to answer at start does not let this tab's last work overwrite another tab's change", async () => {
    const b = browser();
    const a = await b.open();
    changeDuration(a, 250); // m1
    await a.lab.saved();
    const tabB = new MemoryStore();
    await b.open(tabB); // the same address in a second tab: its last work is m1 at 250
    changeDuration(a, 300);
    await a.lab.saved();
    // Tab B reloads; the store's answer to ?mine=m1 comes too late (the start goes on without it).
    let slow = true;
    const late = (s: ScenarioStore): ScenarioStore => ({
      ...passThrough(s),
      get: (id) => (slow ? ((slow = false), Promise.resolve(null)) : s.get(id)),
    });
    const reloaded = await b.open(tabB, undefined, late);
    reloaded.pump();
    await reloaded.lab.saved();
    expect(JSON.parse((await reloaded.scenarios.get('m1'))!.json).run.duration_ms).toBe(300);
  });

  it('says once when the scenarios cannot be kept, and keeps the last work', async () => {
    let worker!: InProcessWorker;
    const failing: ScenarioStore = {
      list: async () => [],
      get: async () => null,
      put: async () => {
        throw new Error('QuotaExceededError');
      },
      remove: async () => {},
      deleted: async () => [],
      restore: async () => false,
      purge: async () => {},
    };
    const local = new MemoryStore();
    const lab = new Lab(() => (worker = new InProcessWorker((host) => costly(createFakeEngine({}), host))), {
      storage: local,
      scenarios: failing,
    });
    labs.push(lab);
    lab.openLibrary(entry('two-sources'));
    for (let i = 0; i < 10; i++) worker.pump();
    const s = lab.getState().current!.scenario;
    lab.commitEdit(s, withDuration(s, 250), 'x');
    for (let i = 0; i < 10; i++) worker.pump();
    await lab.saved();
    expect(lab.getState().notice?.text).toMatch(/cannot be kept in this browser's database \(QuotaExceededError\)\. They are kept in its smaller local storage instead.*Export/);
    expect(JSON.parse(JSON.parse(local.getItem(LAST_WORK_KEY)!).json).run.duration_ms).toBe(250);
  });

  // A newer lab (after a deploy) opened in another tab upgrades the database: this tab lets it
  // (it is not blocked for ever), and this tab's next change, which its older version can no
  // longer write there, is kept in Web Storage, the notice saying why and what to do.
  it('a change made after another tab upgraded the database is kept in Web Storage, and the notice says to reload', async () => {
    const b = browser();
    const page = await b.open();
    changeDuration(page, 250);
    await page.lab.saved();
    expect((await page.scenarios.get('m1'))?.json).toContain('250');
    const newer = await new Promise<IDBDatabase | 'blocked'>((resolve) => {
      const open = b.idb.open('abrlab', 2);
      const t = setTimeout(() => resolve('blocked'), 500);
      open.onsuccess = () => (clearTimeout(t), resolve(open.result));
    });
    expect(newer).not.toBe('blocked');
    changeDuration(page, 300);
    await page.lab.saved();
    expect(JSON.parse(readUnkept(b.local).find((u) => u.id === 'm1')!.json).run.duration_ms).toBe(300);
    expect(page.lab.getState().notice?.text).toContain('a newer version of the lab, open in another tab, has upgraded the browser’s storage: reload this tab');
    (newer as IDBDatabase).close();
  });

  // QA: with IndexedDB full (or off), a change was listed in Mine as if kept, but opening
  // another scenario and going Back (or picking it in Mine) said it "is not kept in this
  // browser": the work was gone. Refused by the store, it is kept in Web Storage instead.
  it('a scenario the store refuses is kept in Web Storage: Mine lists it, Back and a reload open it, Delete and Undo work', async () => {
    const failing: ScenarioStore = {
      list: async () => [],
      get: async () => null,
      put: async () => {
        throw new Error('QuotaExceededError');
      },
      remove: async () => {},
      deleted: async () => [],
      restore: async () => false,
      purge: async () => {},
    };
    const local = new MemoryStore();
    const page = () => {
      let worker!: InProcessWorker;
      const lab = new Lab(() => (worker = new InProcessWorker((host) => costly(createFakeEngine({}), host))), { storage: local, scenarios: failing, newId: () => 'm1' });
      labs.push(lab);
      return { lab, pump: () => Array.from({ length: 10 }, () => worker.pump()) };
    };
    const p = page();
    p.lab.openLibrary(entry('two-sources'));
    p.pump();
    changeDuration(p, 250);
    await p.lab.saved();
    expect(p.lab.getState().myScenarios.map((m) => m.id)).toEqual(['m1']);
    p.lab.openLibrary(entry('gfc1')); // the last work is now gfc1
    p.pump();
    await p.lab.openMine('m1', 'none'); // Back
    p.pump();
    expect(p.lab.getState().current?.scenario.run.duration_ms).toBe(250);
    expect(p.lab.getState().current?.place).toEqual({ kind: 'mine', id: 'm1' });
    changeDuration(p, 300); // a later change replaces it there
    await p.lab.saved();
    p.lab.openLibrary(entry('gfc1'));
    p.pump();

    const reloaded = page(); // a reload: Mine lists it, and it opens
    await reloaded.lab.refreshMyScenarios();
    expect(reloaded.lab.getState().myScenarios.map((m) => [m.id, m.name])).toEqual([['m1', 'Two sources']]);
    await reloaded.lab.openMine('m1');
    reloaded.pump();
    expect(reloaded.lab.getState().current?.scenario.run.duration_ms).toBe(300);

    await reloaded.lab.deleteMine('m1');
    expect(reloaded.lab.getState().myScenarios).toEqual([]);
    await reloaded.lab.undoDelete();
    expect(reloaded.lab.getState().myScenarios.map((m) => m.id)).toEqual(['m1']);
    expect(JSON.parse((await reloaded.lab.readMine('m1'))!.json).run.duration_ms).toBe(300);

    // A browser whose IndexedDB works again: the store takes it back from Web Storage.
    const idb = new IndexedDbScenarioStore(new IDBFactory());
    const mended = new Lab(() => new InProcessWorker((host) => costly(createFakeEngine({}), host)), { storage: local, scenarios: idb });
    labs.push(mended);
    await mended.refreshMyScenarios();
    await mended.saved();
    expect(JSON.parse((await idb.get('m1'))!.json).run.duration_ms).toBe(300);
    expect(readUnkept(local)).toEqual([]);
    expect(mended.getState().myScenarios.map((m) => m.id)).toEqual(['m1']);
  });

  // QA: the Web Storage fallback was one list, written whole by each tab: two tabs keeping
  // different scenarios there wrote over each other's (a tab reads another's write late).
  it("two tabs whose store refuses their scenarios both keep theirs in Web Storage, though each reads the other's writes late", async () => {
    const failing: ScenarioStore = { ...unavailableStore('QuotaExceededError'), list: async () => [], get: async () => null, deleted: async () => [], purge: async () => {} };
    const shared = new Map<string, string>();
    const tab = (prefix: string) => {
      const view = new LateView(shared);
      let worker!: InProcessWorker;
      let n = 0;
      const lab = new Lab(() => (worker = new InProcessWorker((host) => costly(createFakeEngine({}), host))), { storage: view, scenarios: failing, newId: () => `${prefix}${++n}` });
      labs.push(lab);
      return { lab, view, pump: () => Array.from({ length: 10 }, () => worker.pump()) };
    };
    const a = tab('a');
    const b = tab('b');
    a.lab.openLibrary(entry('two-sources'));
    a.pump();
    b.lab.openLibrary(entry('gfc1'));
    b.pump();
    changeDuration(a, 250);
    changeDuration(b, 350); // b has not seen a's write yet
    await a.lab.saved();
    await b.lab.saved();
    const kept = readUnkept(new LateView(shared));
    expect(kept.map((u) => [u.id, JSON.parse(u.json).run.duration_ms]).sort()).toEqual([
      ['a1', 250],
      ['b1', 350],
    ]);
  });

  it('two tabs changing different scenarios both keep theirs in IndexedDB', async () => {
    const b = browser();
    const one = await b.open();
    b.address.search = '?scenario=gfc1';
    const two = await b.open();
    changeDuration(one, 250);
    changeDuration(two, 350);
    await one.lab.saved();
    await two.lab.saved();
    const kept = await one.scenarios.list();
    expect(await Promise.all(kept.map(async (m) => [m.id, JSON.parse((await one.scenarios.get(m.id))!.json).run.duration_ms]))).toEqual(
      expect.arrayContaining([
        ['m1', 250],
        ['m2', 350],
      ]),
    );
  });

  // QA: a tab closed within milliseconds of a change could lose it: the store writes
  // asynchronously, and the last work in Web Storage, where a reload finds the change, is one
  // for all tabs (another tab's next change replaces it).
  it('a change the store had not written when the tab closed is kept: in Web Storage at pagehide, in the store at the next start', async () => {
    const b = browser();
    const first = await b.open();
    changeDuration(first, 250); // m1, kept
    await first.lab.saved();
    first.lab.dispose();
    b.address.search = '?scenario=gfc1';
    const other = await b.open(); // another tab, open all along
    // A tab whose store never finishes its writes (closed first).
    const hanging = (s: ScenarioStore): ScenarioStore => ({
      ...passThrough(s),
      put: () => new Promise(() => {}),
    });
    b.address.search = '?mine=m1';
    const closing = await b.open(new MemoryStore(), undefined, hanging);
    changeDuration(closing, 400); // a change of m1
    b.address.search = '?scenario=two-sources';
    const fresh = await b.open(new MemoryStore(), undefined, hanging);
    changeDuration(fresh, 450); // a new scenario of the user's (m2)
    closing.lab.flushUnsaved(); // pagehide (both tabs)
    fresh.lab.flushUnsaved();
    closing.lab.dispose();
    fresh.lab.dispose();
    changeDuration(other, 500); // the other tab's change is the last work now
    await other.lab.saved();
    b.address.search = '';
    const next = await b.open(); // a new tab, later
    await next.lab.saved();
    const durations = async (id: string) => JSON.parse((await next.scenarios.get(id))!.json).run.duration_ms;
    expect(await durations('m1')).toBe(400);
    expect(await durations('m2')).toBe(450);
    expect(next.lab.getState().myScenarios.map((m) => m.id).sort()).toEqual(['m1', 'm2', 'm3']);
    expect(readUnkept(b.local)).toEqual([]);
  });

  it('a change kept in Web Storage that another tab has since changed in the store is kept beside it at the next start', async () => {
    const b = browser();
    const first = await b.open();
    changeDuration(first, 250); // m1
    await first.lab.saved();
    const kept = (await first.scenarios.get('m1'))!;
    // What a closed tab left: a change of m1 made on a text the store no longer holds.
    holdUnkept(b.local, { ...kept, json: kept.json.replace('"duration_ms": 250', '"duration_ms": 400'), updatedMs: kept.updatedMs + 1, basisDigest: textDigest('older') });
    first.lab.dispose();
    b.address.search = '';
    const next = await b.open();
    await next.lab.saved();
    const all = await next.scenarios.list();
    const durations = await Promise.all(all.map(async (m) => JSON.parse((await next.scenarios.get(m.id))!.json).run.duration_ms));
    expect(durations.sort()).toEqual([250, 400]);
    expect(readUnkept(b.local)).toEqual([]);
    expect(next.lab.getState().notice?.text).toMatch(/closed before it was kept is kept as a scenario of its own/);
  });

  /** A tab whose store never finishes its writes (its page goes before they land). */
  const hanging = (s: ScenarioStore): ScenarioStore => ({
    ...passThrough(s),
    put: () => new Promise(() => {}),
  });

  // QA: what a tab kept in Web Storage as it was hidden (its store write not landed) was
  // weighed against the store only at a tab's start: a tab open all along picked the scenario
  // from Mine and got the older text.
  it('a change another tab kept in Web Storage as it was hidden opens from Mine in a tab open all along', async () => {
    const b = browser();
    const first = await b.open();
    changeDuration(first, 250); // m1
    await first.lab.saved();
    b.address.search = '?scenario=gfc1';
    const tabB = await b.open(); // open all along, on another scenario: Mine lists m1
    b.address.search = '?mine=m1';
    const tabA = await b.open(new MemoryStore(), undefined, hanging);
    changeDuration(tabA, 400);
    tabA.lab.flushUnsaved(); // hidden, then closed: the store never wrote it
    tabA.lab.dispose();
    await tabB.lab.openMine('m1');
    tabB.pump();
    expect(tabB.lab.getState().current?.scenario.run.duration_ms).toBe(400);
    expect(tabB.lab.getState().current?.place).toEqual({ kind: 'mine', id: 'm1' });
    await tabB.lab.saved();
    await first.lab.saved();
    expect(JSON.parse((await tabB.scenarios.get('m1'))!.json).run.duration_ms).toBe(400);
    expect(readUnkept(b.local)).toEqual([]);
    // Opened as it is kept: the next change is written over it, no copy, no word of a clash.
    changeDuration(tabB, 500);
    await tabB.lab.saved();
    expect(JSON.parse((await tabB.scenarios.get('m1'))!.json).run.duration_ms).toBe(500);
    expect((await tabB.scenarios.list()).map((m) => m.id)).toEqual(['m1']);
    expect(tabB.lab.getState().notice).toBeNull();
  });

  it('a change another tab kept in Web Storage as it was hidden, and one made here since: both kept, the user told', async () => {
    const b = browser();
    const first = await b.open();
    changeDuration(first, 250); // m1
    await first.lab.saved();
    first.lab.dispose();
    const tabB = await b.open(); // ?mine=m1, at 250
    const tabA = await b.open(new MemoryStore(), undefined, hanging); // the same address
    changeDuration(tabA, 400);
    tabA.lab.flushUnsaved(); // hidden, then closed
    tabA.lab.dispose();
    expect(tabB.lab.getState().notice?.text).toMatch(/was just changed in another tab/); // told at once
    changeDuration(tabB, 500); // made on the 250 it holds
    await tabB.lab.saved();
    await tabB.lab.openMine('m1');
    tabB.pump();
    await tabB.lab.saved();
    const all = await tabB.scenarios.list();
    const durations = await Promise.all(all.map(async (m) => JSON.parse((await tabB.scenarios.get(m.id))!.json).run.duration_ms));
    expect(durations.sort()).toEqual([400, 500]);
    expect(tabB.lab.getState().myScenarios).toHaveLength(2);
    expect(tabB.lab.getState().notice?.text).toMatch(/Both are kept|kept as a scenario of its own/);
    expect(readUnkept(b.local)).toEqual([]);
  });

  /** A store whose writes wait, while `held`, until the test lets them go (a slow IndexedDB). */
  function slowWrites() {
    const holds: (() => void)[] = [];
    const gate = { held: false };
    const wrap = (s: ScenarioStore): ScenarioStore => ({
      ...passThrough(s),
      put: (x, basis) => (gate.held ? new Promise<void>((r) => holds.push(r)) : Promise.resolve()).then(() => s.put(x, basis)),
    });
    const release = async () => {
      gate.held = false;
      while (holds.length) {
        holds.shift()!();
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    return { wrap, gate, release };
  }

  /** Whether `p` settles within a few event-loop turns (not waiting for a held write). */
  const soon = <T,>(p: Promise<T>) => Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 30))]);

  // "Open from Mine" waited for every write on its way to the store (with a slow store, the
  // user waited), or opened the store's older text while this tab's change was still on its way.
  it('Open from Mine opens at once, with the change still on its way to a slow store, and the write then lands with no copy', async () => {
    const b = browser();
    const slow = slowWrites();
    const page = await b.open(new MemoryStore(), undefined, slow.wrap);
    changeDuration(page, 250); // m1
    await page.lab.saved();
    slow.gate.held = true;
    changeDuration(page, 400); // on its way
    page.lab.openLibrary(entry('gfc1'));
    page.pump();
    expect(await soon(page.lab.openMine('m1'))).toBe(true);
    page.pump();
    expect(page.lab.getState().current?.scenario.run.duration_ms).toBe(400);
    expect(page.lab.getState().current?.place).toEqual({ kind: 'mine', id: 'm1' });
    await slow.release();
    await page.lab.saved();
    changeDuration(page, 500);
    await page.lab.saved();
    expect((await page.scenarios.list()).map((m) => m.id)).toEqual(['m1']);
    expect(JSON.parse((await page.scenarios.get('m1'))!.json).run.duration_ms).toBe(500);
    expect(page.lab.getState().notice).toBeNull();
  });

  it('Open from Mine opens at once after the tab was hidden with a change still on its way (kept in Web Storage too)', async () => {
    const b = browser();
    const slow = slowWrites();
    const page = await b.open(new MemoryStore(), undefined, slow.wrap);
    changeDuration(page, 250); // m1
    await page.lab.saved();
    slow.gate.held = true;
    changeDuration(page, 400); // on its way
    page.lab.flushUnsaved(); // hidden, then shown again
    page.lab.openLibrary(entry('gfc1'));
    page.pump();
    expect(await soon(page.lab.openMine('m1'))).toBe(true);
    page.pump();
    expect(page.lab.getState().current?.scenario.run.duration_ms).toBe(400);
    await slow.release();
    await page.lab.saved();
    changeDuration(page, 500);
    await page.lab.saved();
    expect((await page.scenarios.list()).map((m) => m.id)).toEqual(['m1']);
    expect(JSON.parse((await page.scenarios.get('m1'))!.json).run.duration_ms).toBe(500);
    expect(readUnkept(b.local)).toEqual([]);
    expect(page.lab.getState().notice).toBeNull();
  });

  it("Open from Mine opens at once another tab's change kept in Web Storage as it was hidden, and writes it in the background", async () => {
    const b = browser();
    const first = await b.open();
    changeDuration(first, 250); // m1
    await first.lab.saved();
    b.address.search = '?scenario=gfc1';
    const slow = slowWrites();
    const tabB = await b.open(new MemoryStore(), undefined, slow.wrap); // open all along
    b.address.search = '?mine=m1';
    const tabA = await b.open(new MemoryStore(), undefined, hanging);
    changeDuration(tabA, 400);
    tabA.lab.flushUnsaved(); // hidden, then closed: the store never wrote it
    tabA.lab.dispose();
    slow.gate.held = true;
    changeDuration(tabB, 300); // tab B's own change of gfc1, on its way to the slow store
    expect(await soon(tabB.lab.openMine('m1'))).toBe(true);
    tabB.pump();
    expect(tabB.lab.getState().current?.scenario.run.duration_ms).toBe(400);
    await slow.release();
    await tabB.lab.saved();
    expect(JSON.parse((await tabB.scenarios.get('m1'))!.json).run.duration_ms).toBe(400);
    expect(readUnkept(b.local)).toEqual([]);
    changeDuration(tabB, 500);
    await tabB.lab.saved();
    expect(JSON.parse((await tabB.scenarios.get('m1'))!.json).run.duration_ms).toBe(500);
    expect((await tabB.scenarios.list()).length).toBe(2); // m1 and tab B's gfc1
  });

  // A keep racing a second keep of the same scenario: this tab's first change of a library
  // scenario, still on its way to a slow store when the tab was hidden (so kept in Web Storage
  // too), was written again from there by the next reading of the list (another tab's change),
  // behind this tab's later change, over it; the change after that then read as another tab's
  // and made a copy.
  it('a change on its way to a slow store and kept in Web Storage as the tab was hidden is not written again over a later change (no copy)', async () => {
    const b = browser();
    const slow = slowWrites();
    const page = await b.open(new MemoryStore(), undefined, slow.wrap); // two-sources
    b.address.search = '?scenario=gfc1';
    const other = await b.open();
    slow.gate.held = true;
    changeDuration(page, 250); // m1, on its way
    page.lab.flushUnsaved(); // hidden, then shown again
    changeDuration(page, 300); // on its way behind it
    changeDuration(other, 350); // another tab keeps one of its own: this tab reads the list again
    await other.lab.saved();
    await slow.release();
    await page.lab.saved();
    expect(JSON.parse((await page.scenarios.get('m1'))!.json).run.duration_ms).toBe(300);
    changeDuration(page, 400);
    await page.lab.saved();
    const ids = (await page.scenarios.list()).map((m) => m.id).sort();
    expect(ids).toHaveLength(2); // m1 and the other tab's
    expect(JSON.parse((await page.scenarios.get('m1'))!.json).run.duration_ms).toBe(400);
    expect(page.lab.getState().myScenarios.map((m) => m.id).sort()).toEqual(ids);
    expect(page.lab.getState().notice).toBeNull();
    expect(readUnkept(b.local)).toEqual([]);
  });

  // Deleting a scenario a hidden tab had also kept in Web Storage (its write on its way) took
  // it out of Web Storage only: the store's older text stayed, and the next start listed it
  // again.
  it('a scenario kept both in the store and in Web Storage is deleted from both, and Undo brings back the newest', async () => {
    const b = browser();
    const first = await b.open();
    changeDuration(first, 250); // m1
    await first.lab.saved();
    first.lab.dispose();
    b.address.search = '?scenario=gfc1';
    const tabB = await b.open(); // open all along: Mine lists m1
    b.address.search = '?mine=m1';
    const tabA = await b.open(new MemoryStore(), undefined, hanging);
    changeDuration(tabA, 400);
    tabA.lab.flushUnsaved(); // hidden, then closed: the store never wrote it
    tabA.lab.dispose();
    await tabB.lab.deleteMine('m1');
    expect(tabB.lab.getState().myScenarios).toEqual([]);
    expect(await tabB.scenarios.get('m1')).toBeNull();
    expect(readUnkept(b.local)).toEqual([]);
    expect(tabB.lab.getState().deletedScenarios.map((m) => m.id)).toEqual(['m1']);
    b.address.search = '';
    const later = await b.open(); // a start agrees (the closed tab's last work is not kept again)
    expect(later.lab.getState().myScenarios).toEqual([]);
    expect(later.lab.getState().current?.scenario.run.duration_ms).toBe(400); // open, unkept
    expect(later.lab.getState().current?.place).toEqual({ kind: 'none' });
    await later.lab.saved();
    expect(await later.scenarios.list()).toEqual([]);
    await later.lab.restoreMine('m1'); // the newest text
    expect(JSON.parse((await later.scenarios.get('m1'))!.json).run.duration_ms).toBe(400);
    expect(later.lab.getState().myScenarios.map((m) => m.id)).toEqual(['m1']);
  });

  it('a change the store refused after it had kept an older text opens from Mine as the newest, from Web Storage', async () => {
    const b = browser();
    let full = false;
    const filling = (s: ScenarioStore): ScenarioStore => ({
      ...passThrough(s),
      put: (x, basis) => (full ? Promise.reject(new Error('QuotaExceededError')) : s.put(x, basis)),
    });
    const page = await b.open(new MemoryStore(), undefined, filling);
    changeDuration(page, 250); // m1, kept
    await page.lab.saved();
    full = true;
    changeDuration(page, 400); // refused: kept in Web Storage
    await page.lab.saved();
    page.lab.openLibrary(entry('gfc1'));
    page.pump();
    await page.lab.openMine('m1');
    page.pump();
    expect(page.lab.getState().current?.scenario.run.duration_ms).toBe(400);
    expect(page.lab.getState().current?.place).toEqual({ kind: 'mine', id: 'm1' });
    expect(readUnkept(b.local).map((u) => JSON.parse(u.json).run.duration_ms)).toEqual([400]);
  });

  // QA: a reload (or a tab's crash) took the undo history away with it.
  it('undo and redo go on after a reload of the tab, across an empty canvas too', async () => {
    const b = browser();
    const tab = new MemoryStore();
    const page = await b.open(tab);
    const original = page.lab.getState().current!.scenario.run.duration_ms;
    changeDuration(page, 300); // m1
    changeDuration(page, 400);
    await page.lab.saved();
    const reloaded = await b.open(tab);
    expect(reloaded.lab.getState().current?.scenario.run.duration_ms).toBe(400);
    expect(reloaded.lab.travel('undo', 'x')).not.toBeNull();
    reloaded.pump();
    expect(reloaded.lab.getState().current?.scenario.run.duration_ms).toBe(300);
    // Reloaded again mid-way: one step back and one forth are there still.
    await reloaded.lab.saved();
    const again = await b.open(tab);
    expect(again.lab.getState().current?.scenario.run.duration_ms).toBe(300);
    again.lab.travel('undo', 'x');
    again.pump();
    expect(again.lab.getState().current?.scenario.run.duration_ms).toBe(original);
    again.lab.travel('redo', 'x');
    again.pump();
    again.lab.travel('redo', 'x');
    again.pump();
    expect(again.lab.getState().current?.scenario.run.duration_ms).toBe(400);
    // An empty canvas, a reload, and undo: back to m1 itself.
    const s = again.lab.getState().current!.scenario;
    again.lab.commitEdit(s, emptyNetwork(s, ENGINE_CATALOGUE.fields, 'atm'), 'x', undefined, true);
    again.pump();
    await again.lab.saved();
    expect(b.address.search).toBe('?mine=m2');
    const last = await b.open(tab);
    last.lab.travel('undo', 'x');
    last.pump();
    expect(last.lab.getState().current?.place).toEqual({ kind: 'mine', id: 'm1' });
    expect(last.lab.getState().current?.scenario.run.duration_ms).toBe(400);
    // Another tab (its own sessionStorage) has no history of this tab's.
    const other = await b.open();
    expect(other.lab.travel('undo', 'x')).toBeNull();
  });

  // QA: undoing an empty canvas back into a library scenario kept no history there: after a
  // reload, redo to the new scenario was gone.
  it('undo of an empty canvas back into a library scenario: redo goes on after a reload of the tab', async () => {
    const b = browser();
    const tab = new MemoryStore();
    b.address.search = '?scenario=gfc1';
    const page = await b.open(tab);
    const gfc1 = page.lab.getState().current!.scenario;
    const empty = emptyNetwork(gfc1, ENGINE_CATALOGUE.fields, 'atm');
    page.lab.commitEdit(gfc1, empty, 'x', undefined, true);
    page.pump();
    expect(page.lab.getState().current?.place).toEqual({ kind: 'mine', id: 'm1' });
    page.lab.travel('undo', 'x');
    page.pump();
    await page.lab.saved();
    expect(b.address.search).toBe('?scenario=gfc1');
    const reloaded = await b.open(tab);
    expect(reloaded.lab.getState().current?.place).toEqual({ kind: 'library', id: 'gfc1' });
    expect(reloaded.lab.travel('redo', 'x')).not.toBeNull();
    reloaded.pump();
    await reloaded.lab.saved();
    expect(reloaded.lab.getState().current?.place).toEqual({ kind: 'mine', id: 'm1' });
    expect(reloaded.lab.getState().current?.scenario).toEqual(empty);
    expect((await reloaded.scenarios.list()).map((m) => m.id)).toEqual(['m1']); // no copy
    // And back again, after another reload.
    const again = await b.open(tab);
    again.lab.travel('undo', 'x');
    again.pump();
    expect(again.lab.getState().current?.place).toEqual({ kind: 'library', id: 'gfc1' });
    // Another tab has no history of this tab's.
    const other = await b.open();
    expect(other.lab.travel('redo', 'x')).toBeNull();
  });

  it('an edit the engine had not taken when the page went away is a step of the history after the reload', async () => {
    const b = browser();
    const tab = new MemoryStore();
    const page = await b.open(tab);
    const original = page.lab.getState().current!.scenario.run.duration_ms;
    changeDuration(page, 300); // m1
    await page.lab.saved();
    const s = page.lab.getState().current!.scenario;
    page.lab.commitEdit(s, withDuration(s, 400), 'x'); // on its way: no answer yet
    page.lab.flushUnsaved(); // pagehide
    const reloaded = await b.open(tab);
    await reloaded.lab.saved();
    expect(reloaded.lab.getState().current?.scenario.run.duration_ms).toBe(400);
    reloaded.lab.travel('undo', 'x');
    reloaded.pump();
    expect(reloaded.lab.getState().current?.scenario.run.duration_ms).toBe(300);
    reloaded.lab.travel('undo', 'x');
    reloaded.pump();
    expect(reloaded.lab.getState().current?.scenario.run.duration_ms).toBe(original);
    reloaded.lab.travel('redo', 'x');
    reloaded.pump();
    reloaded.lab.travel('redo', 'x');
    reloaded.pump();
    expect(reloaded.lab.getState().current?.scenario.run.duration_ms).toBe(400);
  });

  it('a stored undo history that cannot be read is passed over: the scenario opens, nothing else is lost', async () => {
    const b = browser();
    const tab = new MemoryStore();
    const page = await b.open(tab);
    changeDuration(page, 300);
    changeDuration(page, 400);
    await page.lab.saved();
    const real = tab.getItem('abrlab.history/m1')!;
    const pastDoc = real.replace('"past":[{"doc":{', '"past":[{"doc":3,"was":{');
    expect(pastDoc).not.toBe(real);
    for (const bad of [pastDoc, '{not json', 'null', '{"v":1,"past":[{"doc":3}],"present":{"doc":{}},"future":[]}', '{"v":2,"past":[],"future":[]}', '{"v":1,"past":[],"present":{"doc":{"version":1,"id":"x","nodes":[],"links":[],"connections":[],"run":{}}},"future":[]}']) {
      tab.setItem('abrlab.history/m1', bad);
      const reloaded = await b.open(tab);
      await reloaded.lab.saved();
      expect(reloaded.lab.getState().current?.scenario.run.duration_ms, bad).toBe(400);
      expect(reloaded.lab.travel('undo', 'x'), bad).toBeNull();
      expect(reloaded.lab.getState().myScenarios.map((m) => m.id)).toEqual(['m1']);
      expect(JSON.parse((await reloaded.scenarios.get('m1'))!.json).run.duration_ms).toBe(400);
      expect(reloaded.lab.getState().notice).toBeNull();
    }
  });

  it('a browser without IndexedDB is told at start, not silently left unkept', async () => {
    const lab = new Lab(() => new InProcessWorker((host) => costly(createFakeEngine({}), host)), {
      scenarios: unavailableStore('this browser offers no IndexedDB'),
    });
    labs.push(lab);
    await lab.refreshMyScenarios();
    expect(lab.getState().notice?.text).toMatch(/Your scenarios cannot be kept in this browser \(this browser offers no IndexedDB\)/);
    // A storage that never answers does not hold up the start.
    expect(await within(new Promise<string>(() => {}), 10, 'fallback')).toBe('fallback');
  });

  // Issue 14: My scenarios could not be deleted; deleting asks nothing but can be undone.
  it('issue 14: deleting one of the user\'s scenarios takes it out of the list and the store; Undo brings it back', async () => {
    const { b, page, before } = await keptThenLeft();

    await page.lab.deleteMine('m1');
    expect(page.lab.getState().myScenarios).toEqual([]);
    expect(await page.scenarios.get('m1')).toBeNull();
    expect(page.lab.getState().deleted).toEqual({ id: 'm1', name: 'Two sources', open: false });
    expect(page.lab.getState().current?.id).toBe('gfc1'); // what is open is untouched
    expect((await b.open()).lab.getState().myScenarios).toEqual([]); // and a reload agrees

    await page.lab.undoDelete();
    expect(page.lab.getState().deleted).toBeNull();
    expect(page.lab.getState().myScenarios).toEqual([{ id: 'm1', name: 'Two sources', updatedMs: before!.updatedMs }]);
    expect(await page.scenarios.get('m1')).toEqual(before);
  });

  it('a deleted scenario can be restored after a reload, for 30 days, then is forgotten', async () => {
    const { b, page, before } = await keptThenLeft();
    await page.lab.deleteMine('m1');
    expect(page.lab.getState().deletedScenarios.map((e) => e.id)).toEqual(['m1']);

    // The Undo message is gone with the page; the deleted scenario is not.
    const reloaded = await b.open();
    expect(reloaded.lab.getState().myScenarios).toEqual([]);
    expect(reloaded.lab.getState().deletedScenarios).toMatchObject([{ id: 'm1', name: 'Two sources' }]);
    await reloaded.lab.restoreMine('m1');
    expect(reloaded.lab.getState().deletedScenarios).toEqual([]);
    expect(reloaded.lab.getState().myScenarios.map((e) => e.id)).toEqual(['m1']);
    expect(await reloaded.scenarios.get('m1')).toEqual(before);
    expect(reloaded.lab.getState().notice?.text).toContain('is back among your scenarios');

    // Deleted again and not restored: a start within 30 days still lists it, one past them
    // forgets it for good.
    await reloaded.lab.deleteMine('m1');
    expect((await b.open()).lab.getState().deletedScenarios.map((e) => e.id)).toEqual(['m1']);
    const later = await b.open(undefined, () => Date.now() + DELETED_KEPT_MS + 60_000);
    expect(later.lab.getState().deletedScenarios).toEqual([]);
    expect(await later.scenarios.deleted()).toEqual([]);
  });

  it('issue 14: deleting the open scenario keeps it open, unkept; its next change keeps it again, Undo as it was', async () => {
    const b = browser();
    const page = await b.open();
    const changed = changeDuration(page, 250);
    expect(b.address.search).toBe('?mine=m1');

    await page.lab.deleteMine('m1');
    const open = page.lab.getState().current!;
    expect(open.scenario).toEqual(changed); // not lost
    expect(open.place).toEqual({ kind: 'none' });
    expect(open.origin).toBe('Two sources (deleted)'); // what the picker shows for it
    expect(b.address.search).toBe(''); // the address no longer names what is gone
    expect(JSON.parse(b.local.getItem(LAST_WORK_KEY)!)).toMatchObject({ place: { kind: 'none' } });
    expect(JSON.parse(JSON.parse(b.local.getItem(LAST_WORK_KEY)!).json)).toEqual(changed); // a reload opens it
    expect(page.lab.getState().deleted).toMatchObject({ id: 'm1', open: true });

    await page.lab.undoDelete();
    expect(page.lab.getState().current?.place).toEqual({ kind: 'mine', id: 'm1' });
    expect(b.address.search).toBe('?mine=m1');

    // Deleted again, then changed: a new scenario of the user's own; Undo then only lists the old one.
    await page.lab.deleteMine('m1');
    changeDuration(page, 300);
    expect(page.lab.getState().current?.place).toEqual({ kind: 'mine', id: 'm2' });
    await page.lab.undoDelete();
    await page.lab.saved();
    expect(page.lab.getState().current?.place).toEqual({ kind: 'mine', id: 'm2' });
    expect((await page.scenarios.list()).map((m) => m.id).sort()).toEqual(['m1', 'm2']);
  });

  // QA: undo into a scenario deleted since opened it, but Mine did not list it (nor the store
  // keep it) until it was changed again.
  it('an undo of an empty canvas into a scenario deleted since lists and keeps it again', async () => {
    const b = browser();
    const page = await b.open();
    const designed = changeDuration(page, 300); // m1
    await page.lab.saved();
    page.lab.commitEdit(designed, emptyNetwork(designed, ENGINE_CATALOGUE.fields, 'atm'), 'x', undefined, true);
    page.pump();
    await page.lab.saved();
    expect(page.lab.getState().current?.place).toEqual({ kind: 'mine', id: 'm2' });
    await page.lab.deleteMine('m1');
    expect(page.lab.getState().myScenarios.map((m) => m.id)).toEqual(['m2']);
    expect(page.lab.getState().deletedScenarios.map((m) => m.id)).toEqual(['m1']);

    page.lab.travel('undo', 'x');
    page.pump();
    await page.lab.saved();
    const open = page.lab.getState().current!;
    expect(open.place).toEqual({ kind: 'mine', id: 'm1' });
    expect(open.scenario).toEqual(designed);
    expect(page.lab.getState().myScenarios.map((m) => m.id).sort()).toEqual(['m1', 'm2']);
    expect(page.lab.getState().deletedScenarios).toEqual([]);
    expect(page.lab.getState().deleted).toBeNull(); // the deletion's Undo has nothing left to do
    expect(page.lab.getState().notice?.text).toMatch(/“Two sources”, deleted since, is back among your scenarios \(Mine\)/);
    expect(JSON.parse((await page.scenarios.get('m1'))!.json)).toEqual(designed);
    expect(await page.scenarios.deleted()).toEqual([]);
    // A reload of its address opens it, kept, and lists it.
    const reloaded = await b.open();
    expect(b.address.search).toBe('?mine=m1');
    expect(reloaded.lab.getState().current?.scenario).toEqual(designed);
    expect(reloaded.lab.getState().myScenarios.map((m) => m.id).sort()).toEqual(['m1', 'm2']);
    expect(reloaded.lab.getState().notice).toBeNull();
  });

  // Deletions were not told to the other tabs: tab B's Mine still listed a scenario tab A had
  // deleted, and tab B's next change of it, open there, brought it back unseen.
  it('a scenario deleted in one tab leaves the Mine list of another at once, and is listed there as recently deleted', async () => {
    const b = browser();
    const a = await b.open();
    changeDuration(a, 250); // m1
    a.lab.openLibrary(entry('gfc1'));
    a.pump();
    await a.lab.saved();
    const tabB = await b.open(); // on gfc1 too: Mine lists m1
    expect(tabB.lab.getState().myScenarios.map((m) => m.id)).toEqual(['m1']);
    await a.lab.deleteMine('m1');
    await tabB.lab.saved();
    await new Promise((r) => setTimeout(r, 10));
    expect(tabB.lab.getState().myScenarios).toEqual([]);
    expect(tabB.lab.getState().deletedScenarios.map((m) => m.id)).toEqual(['m1']);
    // Undone in tab A: listed in tab B again.
    await a.lab.undoDelete();
    await new Promise((r) => setTimeout(r, 10));
    expect(tabB.lab.getState().myScenarios.map((m) => m.id)).toEqual(['m1']);
    expect(tabB.lab.getState().deletedScenarios).toEqual([]);
  });

  // A list read before another tab's deletion landed, answered after this tab was told of it,
  // listed the deleted scenario again (until the next read).
  it('a deletion told while this tab reads its list is not undone by that read', async () => {
    const b = browser();
    const a = await b.open();
    changeDuration(a, 250); // m1
    a.lab.openLibrary(entry('gfc1'));
    a.pump();
    await a.lab.saved();
    let release: (() => void) | null = null;
    const gate = { held: false };
    const slowList = (s: ScenarioStore): ScenarioStore => ({
      ...passThrough(s),
      list: async () => {
        const listed = await s.list();
        if (gate.held) await new Promise<void>((r) => (release = r));
        return listed;
      },
    });
    const tabB = await b.open(new MemoryStore(), undefined, slowList);
    expect(tabB.lab.getState().myScenarios.map((m) => m.id)).toEqual(['m1']);
    gate.held = true;
    const reading = tabB.lab.refreshMyScenarios(); // reads m1, then waits
    await new Promise((r) => setTimeout(r, 10));
    await a.lab.deleteMine('m1');
    await new Promise((r) => setTimeout(r, 10));
    expect(tabB.lab.getState().myScenarios).toEqual([]);
    gate.held = false;
    release!();
    await reading;
    expect(tabB.lab.getState().myScenarios).toEqual([]);
    expect(tabB.lab.getState().deletedScenarios.map((m) => m.id)).toEqual(['m1']);
  });

  it('a scenario deleted in another tab while open here stays open, unkept; a change here keeps it as a new one, the deleted one stays deleted', async () => {
    const b = browser();
    const a = await b.open();
    const changed = changeDuration(a, 250); // m1
    await a.lab.saved();
    const tabB = await b.open(); // ?mine=m1, open in tab B
    a.lab.openLibrary(entry('gfc1'));
    a.pump();
    await a.lab.deleteMine('m1');
    await new Promise((r) => setTimeout(r, 10));
    const open = tabB.lab.getState().current!;
    expect(open.scenario).toEqual(changed);
    expect(open.place).toEqual({ kind: 'none' });
    expect(tabB.lab.getState().notice?.text).toMatch(/“Two sources” was deleted in another tab/);
    changeDuration(tabB, 300);
    await tabB.lab.saved();
    expect(tabB.lab.getState().current?.place).toEqual({ kind: 'mine', id: 'm2' });
    expect(await tabB.scenarios.get('m1')).toBeNull(); // not brought back
    expect((await tabB.scenarios.deleted()).map((m) => m.id)).toEqual(['m1']);
    expect(JSON.parse((await tabB.scenarios.get('m2'))!.json).run.duration_ms).toBe(300);
    await new Promise((r) => setTimeout(r, 10));
    expect(a.lab.getState().myScenarios.map((m) => m.id)).toEqual(['m2']);
  });

  it('a change here not yet written when another tab deletes the scenario is kept, not lost', async () => {
    const b = browser();
    const a = await b.open();
    changeDuration(a, 250); // m1
    await a.lab.saved();
    const holds: (() => void)[] = [];
    let held = false;
    const gated = (s: ScenarioStore): ScenarioStore => ({
      ...passThrough(s),
      put: (x, basis) => (held ? new Promise<void>((r) => holds.push(r)) : Promise.resolve()).then(() => s.put(x, basis)),
    });
    const tabB = await b.open(new MemoryStore(), undefined, gated); // ?mine=m1
    held = true;
    changeDuration(tabB, 400); // on its way to the store
    a.lab.openLibrary(entry('gfc1'));
    a.pump();
    await a.lab.deleteMine('m1');
    await new Promise((r) => setTimeout(r, 10));
    held = false;
    holds.forEach((r) => r());
    await tabB.lab.saved();
    await new Promise((r) => setTimeout(r, 10));
    // Tab B's 400 is kept (listed in both tabs), the user told.
    const open = tabB.lab.getState().current!;
    expect(open.scenario.run.duration_ms).toBe(400);
    expect(open.place.kind).toBe('mine');
    const id = (open.place as { id: string }).id;
    expect(JSON.parse((await tabB.scenarios.get(id))!.json).run.duration_ms).toBe(400);
    expect(tabB.lab.getState().myScenarios.map((m) => m.id)).toEqual([id]);
    expect(a.lab.getState().myScenarios.map((m) => m.id)).toEqual([id]);
    expect(tabB.lab.getState().notice?.text).toMatch(/was deleted in another tab as you changed it here: your change keeps it/);
    // Tab A's Undo of the deletion would write its older text over tab B's change: gone.
    expect(a.lab.getState().deleted).toBeNull();
  });

  it("reads another tab's news: a bare id (a lab before deletions were told) is a kept change", () => {
    expect(tabNews('m1')).toEqual({ kept: 'm1' });
    expect(tabNews({ kept: 'm1' })).toEqual({ kept: 'm1' });
    expect(tabNews({ deleted: 'm1' })).toEqual({ deleted: 'm1' });
    expect(tabNews({ deleted: 3 })).toBeNull();
    expect(tabNews(null)).toBeNull();
  });

  it('the store writes a scenario kept on no basis (NOT_KEPT) only where none is kept under its id', async () => {
    const store = new IndexedDbScenarioStore(new IDBFactory());
    const one = { id: 'x', name: 'X', updatedMs: 1, json: '{"a":1}' };
    expect(await store.put(one, NOT_KEPT)).toBe('kept');
    expect(await store.put({ ...one, json: '{"a":2}' }, NOT_KEPT)).toBe('changed');
    expect((await store.get('x'))!.json).toBe('{"a":1}');
    await store.remove('x', 5);
    expect(await store.put({ ...one, json: '{"a":3}' }, NOT_KEPT)).toBe('changed'); // a deleted one is not brought back
    expect(await store.get('x')).toBeNull();
  });

  // QA (e2e, IndexedDB full): a write refused at once inside the store's read-then-write was
  // thrown in IndexedDB's event handler, an error of the page, not an answer of the store.
  it('a write the storage refuses at once, after the store has read, is the store\'s refusal, not an uncaught error', async () => {
    const store = new IndexedDbScenarioStore(new IDBFactory());
    const one = { id: 'x', name: 'X', updatedMs: 1, json: '{"a":1}' };
    await store.put(one);
    const put = FakeObjectStore.prototype.put;
    FakeObjectStore.prototype.put = () => {
      throw new Error('The quota has been exceeded.');
    };
    try {
      await expect(store.put({ ...one, json: '{"a":2}' }, one.json)).rejects.toThrow('The quota has been exceeded.');
      await expect(store.remove('x', 5)).rejects.toThrow('The quota has been exceeded.');
    } finally {
      FakeObjectStore.prototype.put = put;
    }
    expect((await store.get('x'))!.json).toBe('{"a":1}');
  });

  it('says when a scenario last changed: the time today, the date before', () => {
    const now = new Date(2025, 2, 3, 15, 0).getTime();
    expect(lastChangeText(new Date(2025, 2, 3, 14, 5).getTime(), now)).toBe('14:05');
    expect(lastChangeText(new Date(2025, 1, 28, 9, 30).getTime(), now)).toBe('28 Feb 09:30');
  });

  // QA: two tabs editing one scenario left two "Two sources · 03:11" in the picker.
  it('tells apart two of one name changed in one minute by their seconds, then by a number', () => {
    const now = new Date(2025, 2, 3, 18, 0).getTime();
    const at = (s: number) => new Date(2025, 2, 3, 14, 5, s).getTime();
    const times = mineTimes(
      [
        { id: 'a', name: 'Two sources', updatedMs: at(7) },
        { id: 'b', name: 'Two sources', updatedMs: at(42) },
        { id: 'c', name: 'Three sources', updatedMs: at(42) },
        { id: 'd', name: 'Gfc', updatedMs: at(1) },
        { id: 'e', name: 'Gfc', updatedMs: at(1) + 300 },
      ],
      now,
    );
    expect([...times.values()]).toEqual(['14:05:07', '14:05:42', '14:05', '14:05:01', '14:05:01 (2)']);
  });
});
