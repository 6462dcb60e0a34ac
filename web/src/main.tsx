import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { SampleStore } from './charts/sampleStore';
import { makeEngineWorker } from './engine/client';
import { makeBatchWorker, WorkerPool } from './engine/pool';
import { Lab } from './lab/lab';
import { SweepSession } from './lab/sweep';
import { IndexedDbSweepStore, tabVaries, SweepKeeper, sweepPlace, unavailableSweepStore, webLocks } from './lab/sweepKeep';
import { persistOnce } from './scenario/persist';
import { SweepDrafts } from './lab/sweepBuilder';
import { CompareDrafts, CompareSession } from './lab/compareSession';
import { CompareKeeper, IndexedDbCompareStore, unavailableCompareStore } from './lab/compareKeep';
import { comparePayloadOf, decodeCompare } from './lab/compare';
import { textLibrary } from './scenario/share';
import { COMPARE_ORIGIN, linkedView, linkOf, linkView, newerLinkNotice, shareLink, startup, type Startup } from './lab/sharing';
import { runUpdate } from './ui/appUpdate';
import { DEFAULT_SCENARIO, LIBRARY } from './scenario/library';
import { broadcastTabs, IndexedDbScenarioStore, unavailableStore, within, type MyScenario, type ScenarioStore } from './scenario/myScenarios';
import { draftsKey, historyState, NOWHERE, openedOf, placeOf, searchFor, type Opened, type Place } from './scenario/place';
import { entryOf, HistoryEntries, withEntry } from './scenario/historyEntries';
import { readUnkept } from './scenario/storage';
import { storeOr } from './scenario/indexedDb';
import { App } from './ui/App';
import { startPlace, ViewPlaceKeeper } from './lab/viewPlace';
import { ignoredNotice, isOpen, parseTeacher, withTeacher } from './lab/teacher';
import { embedIn } from './ui/embed';
import './ui/app.css';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: the lab works without keeping the last work
  }
}

/** This tab's sessionStorage: what outlives a reload of the tab but is no one else's. */
function tabStorage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

function scenarioStore(): ScenarioStore {
  // Without IndexedDB the lab says so (once) rather than seem to keep the user's work.
  return storeOr((f) => new IndexedDbScenarioStore(f), unavailableStore);
}

// The end-to-end tests' window.__abrlab exists only in the test build (`vite build --mode e2e`,
// tests/e2e/global-setup.ts): in any other build this branch and the module it loads are gone.
const e2e = import.meta.env.MODE === 'e2e' ? await import('./e2e/hook') : null;

const store = new SampleStore();
const scenarios = scenarioStore();
const makeWorker = e2e ? e2e.watchWorkers(makeEngineWorker) : makeEngineWorker;
// The page address follows what is open: a new history entry when the user opens something,
// the same entry when a change makes the scenario theirs (see scenario/place.ts).
// A file or a link has no address of its own: its history entry keeps the scenario, so that
// back and forward reopen it too. Every entry the lab writes has a key of its own (`entry`), by
// which a change typed and kept after Back left its entry is found again at Forward
// (scenario/historyEntries.ts).
const entries = new HistoryEntries();
let entriesMade = 0;
const newEntry = () => `${Date.now().toString(36)}.${(entriesMade++).toString(36)}`;
/** The key of the entry the page is on, and the place its address names. */
let entry = entryOf(history.state) ?? newEntry();
let here = placeOf(location.search);
history.replaceState(withEntry(openedOf(history.state), entry), '');
const places = {
  show(place: Place, how: 'push' | 'replace', opened: Opened) {
    const url = location.pathname + searchFor(place, location.search);
    const state = historyState(place, opened);
    if (url === location.pathname + location.search && state === null && openedOf(history.state) === null) return;
    const key = how === 'push' ? newEntry() : entry;
    const write = (kept: Opened | null) => {
      const stamped = withEntry(kept, key);
      if (how === 'push') history.pushState(stamped, '', url);
      else history.replaceState(stamped, '', url);
    };
    try {
      write(state);
    } catch {
      write(null); // a scenario too big for the browser's history entry: back cannot reopen it
    }
    entry = key;
    here = place;
  },
  // A change given as the address left its entry (typed, then Back): that entry opens it now.
  keptAway(from: Place, to: Place) {
    entries.keptAway(from, to);
  },
};
// The Compare view's variants, kept in localStorage by the scenario's place (what this tab kept
// in its sessionStorage before, by scenario id, is read too); a user's copy made at a first
// change takes its scenario's variants with it.
const drafts = new CompareDrafts(storage(), tabStorage());
// The Sweep tab's form, kept by place too; a user's copy takes its scenario's form with it.
const sweepDrafts = new SweepDrafts(storage());
const lab = new Lab(makeWorker, {
  samples: store,
  storage: storage(),
  tabStorage: tabStorage(),
  scenarios,
  tabs: broadcastTabs(),
  places,
  moved: (from, to, scenarioId) => {
    drafts.moved(from, to, scenarioId);
    sweepDrafts.moved(from, to, scenarioId);
    // (Made below, before any scenario opens.)
    void compareKeeper.moved(from, to, scenarioId);
  },
  answerTimeoutMs: e2e?.answerTimeoutMs(),
});
e2e?.installTestHook(lab, store, () => {
  const s = lab.getState().current?.scenario;
  return s ? shareLink(s, location.href, LIBRARY.entries, linkView(lab.getState())).url : null;
});

// Sweeps and comparisons share one pool of batch workers (one per core but one), each in a lane
// of its own (a new sweep cancels only the sweep's jobs); a sweep's run opens in the lab.
const batch = new WorkerPool(makeBatchWorker);
const sweep = new SweepSession(
  batch.lane(),
  (json, origin) => lab.load(json, origin, 'push'),
  (id) => LIBRARY.entries.find((e) => e.id === id)?.scenario,
  undefined,
  sweepDrafts,
);

// Once the user keeps a scenario, a sweep or a comparison, the browser is asked (once) to keep the lab's
// storage under pressure too (scenario/persist.ts).
const askPersist = persistOnce(navigator.storage);

// The last sweeps' results are kept in IndexedDB as they come (lab/sweepKeep.ts): a new page
// shows the open scenario's newest sweep of what its Sweep tab is set to run (its sweep block,
// else its form's draft; else its newest, said to differ from the form; at first, the newest
// sweep of any), as it was shown. Without IndexedDB a sweep is kept in memory
// only, and the note under it says so.
// The tabs tell the sweeps they run by Web Locks: one kept running that no tab runs was cut short.
const keeper = new SweepKeeper(sweep, storeOr((f) => new IndexedDbSweepStore(f), unavailableSweepStore), {
  place: () => lab.getState().current?.place ?? NOWHERE,
  onKept: askPersist,
  locks: webLocks(navigator.locks),
});
let shownFor: string | null = null;
let seenCurrent: unknown = null;
lab.subscribe(() => {
  const current = lab.getState().current;
  // (Told of every state change, a run's progress too: only a scenario opened or changed counts.)
  if (!current || current === seenCurrent) return;
  seenCurrent = current;
  // What its Sweep tab is set to run: its block, else the form as it will open (its draft).
  const varies = tabVaries(current.scenario, lab.getState().catalogue, sweepDrafts.get(current.place, current.scenario.id));
  const where = { place: current.place, scenarioId: current.scenario.id, varies };
  const key = `${sweepPlace(where.place, where.scenarioId)}\u0000${where.varies ?? ''}`;
  if (key === shownFor) return;
  const first = shownFor === null;
  shownFor = key;
  void keeper.restore(where, first);
});
// The page going away (a reload, the tab closed) keeps what finished since the last write,
// as far as the browser lets a write at that point finish (the paced writes, each second,
// leave little to it).
window.addEventListener('pagehide', () => {
  const phase = sweep.getState().phase;
  if (phase === 'running') void keeper.write();
});

const compare = new CompareSession(
  batch.lane(),
  (id) => LIBRARY.entries.find((e) => e.id === id)?.json,
  undefined,
  drafts,
);

// The last comparison of each scenario place is kept in IndexedDB as its runs finish
// (lab/compareKeep.ts): a scenario opened on a page that has compared nothing yet shows its
// kept comparison's table at once, and runs it again for its charts. Without IndexedDB a
// comparison lives in the page only, and the note under it says so.
const compareKeeper = new CompareKeeper(compare, storeOr((f) => new IndexedDbCompareStore(f), unavailableCompareStore), { onKept: askPersist });

// A compare link (#c=2.…) opens its scenario and runs its variants again (below).
/** The user's scenario the address names (null: none named, or not kept). */
async function namedMine(): Promise<MyScenario | null> {
  const place = placeOf(location.search);
  if (place.kind !== 'mine') return null;
  // One the store refused is kept in Web Storage instead (Lab.keep).
  const unkept = () => readUnkept(storage() ?? tabStorage()).find((s) => s.id === place.id) ?? null;
  try {
    return (await within(scenarios.get(place.id), 3000, null)) ?? unkept();
  } catch {
    return unkept(); // unreadable storage: startup falls back to the last work and says so
  }
}

// A teacher's settings (hidden and locked controls, how the lab starts), from the query string
// or a share link's fragment; kept in the query string, where a reload finds them again.
const teacher = parseTeacher(location.search, location.hash);
if (teacher.settings.hide.length + teacher.settings.lock.length + teacher.settings.start.length > 0) {
  const kept = new URL(withTeacher(location.href, teacher.settings));
  history.replaceState(history.state, '', kept.pathname + kept.search + location.hash);
}
const embed = embedIn(location.search);

// The open scenario's kept comparison, shown on a page that has compared nothing yet.
let comparedFor: string | null = null;
lab.subscribe(() => {
  const current = lab.getState().current;
  if (!current || compare.getState().phase !== 'idle') return;
  // A page without the Compare tab (embedded, or a teacher's link that hides or locks it) runs
  // no comparison in the background.
  if (embed || !isOpen(teacher.settings, 'compare')) return;
  const key = draftsKey(current.place, current.scenario.id);
  if (key === comparedFor) return;
  comparedFor = key;
  void compareKeeper.restore(current.place, current.scenario.id);
});

// A shared link (#s=2.…) over ?mine=, ?scenario=, the last work kept in storage, or the
// default. Whatever the address holds, the lab opens: anything that throws here is reported
// and the fragment cleared, so that a reload does not fail again.
let start: Startup;
try {
  start = startup(location, storage(), LIBRARY.entries, await namedMine(), tabStorage());
} catch (e) {
  const fallback = LIBRARY.entries.find((x) => x.id === DEFAULT_SCENARIO) ?? LIBRARY.entries[0];
  start = {
    loads: fallback ? [{ json: fallback.json, origin: fallback.id, place: { kind: 'library', id: fallback.id } }] : [],
    notice: { kind: 'error', text: `The address could not be opened (${(e as Error)?.message || String(e)}): “${fallback?.name ?? 'nothing'}” is open instead.` },
    clearHash: true,
    view: {},
  };
}
if (start.clearHash) history.replaceState(withEntry(null, entry), '', location.pathname + location.search);
// Each scenario opens at its default speed (scenario/speed.ts), a shared one at the link's.
for (const { json, origin, place, speed, unsaved, basis, fallback } of start.loads) lab.open(json, origin, place, 'replace', speed, unsaved ? { basis, fallback } : undefined);
// A change still on its way to the engine when the page goes away is kept as the last work,
// and one the scenario store has not written yet in Web Storage: at pagehide, and when the
// page is hidden (a phone may end a hidden page without a pagehide).
window.addEventListener('pagehide', () => lab.flushUnsaved());
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') lab.flushUnsaved();
});
// A link made by a newer ABR Lab: the lab updates itself (once the newer one has the page it
// reloads with the link, the user's work kept) or says why it cannot. A value typed and refused
// by its field when the page went away (a reload) is told as well, in a notice of its own
// (lab/droppedTyping.ts): a broken link's or ignored teacher settings' notice hid it.
if (start.notice?.update) void runUpdate(lab, start.notice.update);
else if (start.notice) lab.notify(start.notice);
else if (ignoredNotice(teacher.ignored)) lab.notify({ kind: 'info', text: ignoredNotice(teacher.ignored)! });
lab.tellDroppedTyping();
/** Opens the compare link in `hash` (`#c=2.…`), if it holds one, and runs its variants again;
 *  true when it held one (read or not). */
function openCompareLink(hash: string, nav: 'push' | 'replace'): boolean {
  const comparePayload = comparePayloadOf(hash);
  if (comparePayload === null) return false;
  const linked = decodeCompare(comparePayload, textLibrary(LIBRARY.entries));
  if (linked.ok) {
    lab.load(linked.json, COMPARE_ORIGIN, nav);
    // A link's scenario is kept nowhere until it is changed (lab.load).
    compare.start(linked.json, linked.data.variants, NOWHERE, { expected: linked.data.digests ?? null, drafts: linked.data.drafts });
  } else if (linked.newer !== undefined) {
    const notice = newerLinkNotice(hash, linked.newer, 'what was open stays open', 'asked');
    lab.notify(notice);
    // Opening the page, the lab updates itself (as for a share link); pasted into an open lab,
    // the notice offers it (a reload should not come unasked).
    if (nav === 'replace') void runUpdate(lab, notice.update!);
  } else lab.notify({ kind: 'error', text: `The compare link could not be read: ${linked.error}. What was open stays open.` });
  return true;
}
if (openCompareLink(location.hash, 'replace')) history.replaceState(withEntry(null, entry), '', location.pathname + location.search);
const { speed: _linkSpeed, tab, network, side, ...chartChoice } = start.view;
lab.setCharts(chartChoice);
// A reload comes back to the place the tab was on (its own, over the link's still in the
// address: the user moved on since, unless the address asks for another place than when it
// was kept: a link opened in this tab since), asked for as a link's is, so a teacher's hidden or
// locked tab is not shown; a page opened anew starts on the link's place, or the charts
// (lab/viewPlace.ts `startPlace`).
const navigation = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
const viewPlace = new ViewPlaceKeeper(tabStorage(), navigation?.type === 'reload', () => location.hash);
lab.askView(startPlace(viewPlace.restored(), { tab, network, side }));
void lab.refreshMyScenarios();

// A link pasted into this tab's address bar while the lab is open changes only the fragment
// (no page load): it opens here as it would in a new tab, in a new history entry.
window.addEventListener('hashchange', () => {
  const hash = location.hash;
  const link = linkOf(hash, LIBRARY.entries, 'what was open stays open');
  const compared = link === null && openCompareLink(hash, 'push');
  if (!link && !compared) {
    // View choices alone (`#t=sweep&p=switches`, typed over a teacher's `?scenario=` link): the
    // open scenario shows them at once, as a reload would (QA: nothing happened until one). They
    // stay in the address, as at the start.
    const { view, notice } = linkedView(hash, lab.getState().current?.json);
    const { speed, tab, network, side, ...charts } = view;
    if (Object.keys(charts).length) lab.setCharts(charts);
    if (speed !== undefined) lab.setSpeed(speed);
    lab.askView({ tab, network, side });
    if (notice) lab.notify(notice);
    return;
  }
  history.replaceState(history.state, '', location.pathname + location.search);
  if (link?.load) {
    lab.open(link.load.json, link.load.origin, link.load.place, 'push', link.load.speed);
    const { speed: _speed, tab, network, side, ...charts } = link.view;
    lab.setCharts(charts);
    // Opened here as in a new tab: a link without a tab (an older one) shows the charts.
    lab.askView({ tab: tab ?? 'charts', network, side });
  }
  if (link?.notice) lab.notify(link.notice);
});

// A scenario kept: the browser is asked to keep the lab's storage (once, with a sweep kept).
lab.subscribe(() => {
  if (lab.getState().myScenarios.length > 0) askPersist();
});

// Back and forward open what the address names (without a new history entry).
window.addEventListener('popstate', (ev) => {
  entries.leave(entry, here);
  entry = entryOf(ev.state) ?? newEntry();
  here = placeOf(location.search);
  // A name still being typed goes to the scenario it was typed for, before a read of the
  // store lets its own timer give it to whatever opens.
  lab.giveTyped(true);
  // The entry's scenario was changed after the address left it (typed, then Back): the
  // user's copy opens, and the address says so (QA: Forward opened the library original).
  const moved = entries.placeOf(entry);
  if (moved?.kind === 'mine') {
    history.replaceState(withEntry(null, entry), '', location.pathname + searchFor(moved, location.search));
    here = moved;
    void lab.openMine(moved.id, 'none');
    return;
  }
  if (!entryOf(ev.state)) history.replaceState(withEntry(openedOf(ev.state), entry), '');
  const place = here;
  const opened = openedOf(ev.state);
  if (place.kind === 'none' && opened) lab.open(opened.json, opened.origin, NOWHERE, 'none');
  else if (place.kind === 'mine') void lab.openMine(place.id, 'none');
  else if (place.kind === 'library') {
    const entry = LIBRARY.entries.find((x) => x.id === place.id);
    if (entry) lab.openLibrary(entry, 'none');
  }
});

// Offline: a built app registers the service worker that vite-plugin-pwa generated (sw.js,
// precaching the build); the dev server has none, so it never serves a stale build.
if (!import.meta.env.DEV && 'serviceWorker' in navigator) {
  navigator.serviceWorker.register(`${import.meta.env.BASE_URL}sw.js`).catch(() => {
    // No service worker (a private window, an http origin): the lab works, only not offline.
  });
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App lab={lab} store={store} sweep={sweep} keptSweeps={keeper} compare={compare} keptComparisons={compareKeeper} teacher={teacher.settings} embed={embed} viewPlace={viewPlace} />
  </StrictMode>,
);
