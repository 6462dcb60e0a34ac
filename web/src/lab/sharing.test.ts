import { afterEach, describe, expect, it } from 'vitest';
import { LIBRARY } from '../scenario/library';
import { encodeScenario, shareHash, textLibrary } from '../scenario/share';
import type { Scenario } from '../contract/scenario';
import { createFakeEngine } from '../test/fakeEngine';
import { costly, InProcessWorker, twoSources } from '../test/fakes';
import { MemoryStore } from '../test/memoryStore';
import { LAST_WORK_KEY, readLastWork, type KeyValueStore } from '../scenario/storage';
import { Lab } from './lab';
import { classLink, COMPARE_ORIGIN, exportFile, fileOrigin, linkedTab, linkSide, linkView, newerLinkNotice, openedText, SHARED_ORIGIN, shareLink, shareNotice, startup, sweepOffered } from './sharing';


const entries = LIBRARY.entries;
const gfc1 = entries.find((e) => e.id === 'gfc1')!;
const lib = textLibrary(entries);
const mine = { ...gfc1.scenario, id: 'my-net', changes: [{ at_ms: 5, node: 'SW1', param: 'target_utilization', value: 0.8 }] };
const at = (hash = '', search = '') => ({ hash, search });
const withLast = (json: string, origin = 'my-net.json') => {
  const st = new MemoryStore();
  st.setItem(LAST_WORK_KEY, JSON.stringify({ json, origin }));
  return st;
};

describe('startup: which scenario the lab opens with', () => {
  it('the default, then the last work, then ?scenario=', () => {
    expect(startup(at(), null, entries).loads.map((l) => l.origin)).toEqual(['two-sources']);
    const st = withLast(JSON.stringify(mine));
    expect(startup(at(), st, entries).loads.map((l) => l.origin)).toEqual(['my-net.json']);
    expect(startup(at('', '?scenario=gfc1'), st, entries).loads.map((l) => l.origin)).toEqual(['gfc1']);
  });

  it('a shared link loads after the fallback (kept if the engine refuses the link), and the hash is cleared', () => {
    const st = withLast(JSON.stringify(mine));
    const s = startup(at(`#s=${encodeScenario(mine, lib)}`), st, entries);
    expect(s.loads.map((l) => l.origin)).toEqual(['my-net.json', SHARED_ORIGIN]);
    expect(JSON.parse(s.loads[1].json)).toEqual(mine);
    expect(s.notice).toBeNull();
    expect(s.clearHash).toBe(true);
    expect(s.view).toEqual({});
    const withView = startup(at(`#s=${encodeScenario(mine, lib)}&q=overload&u=frames`), st, entries);
    expect(withView.view).toEqual({ quantity: 'overload', queueUnit: 'frames' });
    // The speed a link carries goes with the shared load (the fallback opens at its default).
    const withSpeed = startup(at(`#s=${encodeScenario(mine, lib)}&v=0.2`), st, entries);
    expect(withSpeed.loads.map((l) => l.speed)).toEqual([undefined, 0.2]);
    expect(withSpeed.notice).toBeNull();
    // A choice it cannot read is left out, and the lab says which (QA: &v=abc opened silently
    // at another speed).
    for (const [tail, said] of [
      ['&v=abc', 'playback speed “abc”'],
      ['&v=1e9&u=parsecs', 'playback speed “1e9” and queue unit “parsecs”'],
    ]) {
      const bad = startup(at(`#s=${encodeScenario(mine, lib)}${tail}`), st, entries);
      expect(bad.loads.at(-1)!.speed).toBeUndefined();
      expect(bad.notice).toEqual({ kind: 'info', text: expect.stringContaining(`This link's ${said} could not be read`) });
    }
  });

  it('a damaged link says why and opens the last work', () => {
    const st = withLast(JSON.stringify(mine));
    const good = encodeScenario(mine, lib);
    for (const hash of [`#s=${good.slice(0, 40)}`, '#s=0.abc', '#s=1.%%%', `#s=x${good}`]) {
      const s = startup(at(hash), st, entries);
      expect(s.loads.map((l) => l.origin), hash).toEqual(['my-net.json']);
      expect(s.notice?.kind).toBe('error');
      expect(s.notice?.text).toMatch(/could not be opened: .*Nothing was lost: your last work is open instead/);
      expect(s.clearHash).toBe(true);
    }
  });

  // Issue: a lab kept by the service worker before version 2 refused v2 links with no way out.
  it('a link of a newer version says a newer ABR Lab made it and offers the update that opens it', () => {
    const st = withLast(JSON.stringify(mine));
    const hash = `#s=${encodeScenario(mine, lib).replace(/^2\./, '3.')}&t=sweep`;
    const s = startup(at(hash), st, entries);
    expect(s.loads.map((l) => l.origin)).toEqual(['my-net.json']);
    expect(s.notice?.text).toBe(
      'This link was made by a newer version of ABR Lab (a version 3 link; this lab reads versions 1 and 2). Nothing was lost: your last work is open instead. Update ABR Lab to open it: the page reloads with the link, your work kept.',
    );
    expect(s.notice?.update).toEqual({ hash, version: 3, instead: 'your last work is open instead', stage: 'asked' });
    // Every stage says what the update did, and still offers it.
    expect(newerLinkNotice(hash, 3, 'x', 'latest').text).toMatch(/made by a newer version of ABR Lab .* no newer version than this one/);
    expect(newerLinkNotice(hash, 3, 'x', 'failed').text).toMatch(/could not be fetched \(offline\?\)/);
    // A damaged link of a version this lab reads, or of an older one, is not one to update for.
    for (const other of ['#s=2.abc.defghi', '#s=0.abc']) expect(startup(at(other), st, entries).notice?.update, other).toBeUndefined();
  });

  it("a reload opens this tab's own last work, not what another tab did since", () => {
    const browser = withLast(JSON.stringify(gfc1.scenario), 'gfc1');
    const tab = withLast(JSON.stringify(mine), SHARED_ORIGIN);
    expect(startup(at(), browser, entries, null, tab).loads.map((l) => l.origin)).toEqual([SHARED_ORIGIN]);
    // A new tab has none of its own: the browser's.
    expect(startup(at(), browser, entries, null, new MemoryStore()).loads.map((l) => l.origin)).toEqual(['gfc1']);
  });

  it('a change the page went away before keeping wins over the scenario the address names, and is kept', () => {
    const changed = JSON.stringify({ ...gfc1.scenario, name: 'Renamed' });
    const work = (over: object) => {
      const st = new MemoryStore();
      st.setItem(LAST_WORK_KEY, JSON.stringify({ json: changed, origin: 'gfc1 (edited)', ...over }));
      return st;
    };
    // A library scenario the change made the user's own (the address had not followed yet).
    const fromLibrary = work({ place: { kind: 'mine', id: 'm7' }, unsaved: true, from: { kind: 'library', id: 'gfc1' } });
    expect(startup(at('', '?scenario=gfc1'), fromLibrary, entries).loads).toEqual([
      { json: changed, origin: 'gfc1 (edited)', place: { kind: 'mine', id: 'm7' }, unsaved: true, fallback: { json: gfc1.json, origin: 'gfc1', place: { kind: 'library', id: 'gfc1' } } },
    ]);
    // Another library scenario named: that one (the change stays the last work).
    expect(startup(at('', '?scenario=two-sources'), fromLibrary, entries).loads.map((l) => l.origin)).toEqual(['two-sources']);
    // A change on its way to the engine, not yet anywhere: opened, to be kept under a new id.
    const inFlight = work({ unsaved: true, from: { kind: 'library', id: 'gfc1' } });
    expect(startup(at('', '?scenario=gfc1'), inFlight, entries).loads[0]).toMatchObject({ json: changed, place: { kind: 'none' }, unsaved: true });
    // One of the user's, newer than the store's copy: over it (the store's text its basis).
    const stored = { id: 'm7', name: 'Mine', updatedMs: 1, json: JSON.stringify(gfc1.scenario) };
    const ahead = work({ place: { kind: 'mine', id: 'm7' }, unsaved: true, from: { kind: 'mine', id: 'm7' } });
    expect(startup(at('', '?mine=m7'), ahead, entries, stored).loads).toEqual([
      { json: changed, origin: 'gfc1 (edited)', place: { kind: 'mine', id: 'm7' }, unsaved: true, basis: stored.json, fallback: { json: stored.json, origin: 'Mine', place: { kind: 'mine', id: 'm7' } } },
    ]);
    // Kept already (not unsaved): the store's copy.
    const kept = work({ place: { kind: 'mine', id: 'm7' } });
    expect(startup(at('', '?mine=m7'), kept, entries, stored).loads).toEqual([{ json: stored.json, origin: 'Mine', place: { kind: 'mine', id: 'm7' } }]);
    // The store lost it: the last work, kept again.
    expect(startup(at('', '?mine=m7'), kept, entries, null).loads[0]).toMatchObject({ json: changed, unsaved: true });
  });

  it('unreadable storage counts as no last work', () => {
    const st = new MemoryStore();
    st.setItem(LAST_WORK_KEY, '{not json');
    expect(readLastWork(st)).toBeNull();
    expect(startup(at(), st, entries).loads.map((l) => l.origin)).toEqual(['two-sources']);
  });
});

describe('share link and export file', () => {
  it('the link replaces any fragment of the page address and round-trips', () => {
    const link = shareLink(mine as Scenario, 'http://h/lab/?x=1&scenario=gfc1#old', entries);
    expect(link.url.startsWith('http://h/lab/?x=1#s=2.')).toBe(true);
    expect(shareLink(mine as Scenario, 'http://h/?scenario=gfc1', entries).url.startsWith('http://h/#s=2.')).toBe(true);
    expect(link.tooLong).toBe(false);
    const s = startup(at(link.url.slice(link.url.indexOf('#'))), null, entries);
    expect(JSON.parse(s.loads.at(-1)!.json)).toEqual(mine);
  });

  it("the link of the lab's state carries its chart choices and its speed, and opens at that speed", () => {
    const view = linkView({ charts: { quantity: 'overload', queueUnit: 'frames' }, speed: 0.02 });
    const link = shareLink(mine as Scenario, 'http://h/', entries, view);
    const s = startup(at(link.url.slice(link.url.indexOf('#'))), null, entries);
    expect(s.view).toEqual({ quantity: 'overload', queueUnit: 'frames', speed: 0.02 });
    expect(s.loads.at(-1)!.speed).toBe(0.02);
  });

  it('the link carries the view tab and the Network view the user is on, and opens on them', () => {
    const view = linkView({ charts: { quantity: null, queueUnit: 'KB' }, speed: 1 }, { tab: 'compare', network: false });
    const link = shareLink(mine as Scenario, 'http://h/', entries, view);
    expect(link.url).toMatch(/&t=compare$/);
    const s = startup(at(link.url.slice(link.url.indexOf('#'))), null, entries);
    expect(s.view).toEqual({ speed: 1, tab: 'compare' });
    const withNetwork = shareLink(mine as Scenario, 'http://h/', entries, linkView({ charts: { quantity: null, queueUnit: 'KB' }, speed: 1 }, { tab: 'charts', network: true }));
    expect(startup(at(withNetwork.url.slice(withNetwork.url.indexOf('#'))), null, entries).view).toMatchObject({ network: true });
  });

  // QA: the side panel's tab (Result, Switches…) came back on reload but not in Share links.
  it("the link carries the side panel's tab the user is on, unless it is the one the lab starts on", () => {
    const none = { hide: [], lock: [], start: [] };
    const state = { charts: { quantity: null, queueUnit: 'KB' as const }, speed: 1 as const };
    const link = shareLink(mine as Scenario, 'http://h/', entries, linkView(state, { tab: 'charts', side: linkSide('switches', none) }));
    expect(link.url).toMatch(/&p=switches$/);
    expect(startup(at(link.url.slice(link.url.indexOf('#'))), null, entries).view).toEqual({ speed: 1, side: 'switches' });
    expect(linkSide('lesson', none)).toBeUndefined();
    // A teacher's start tab is where the lab opens: the lesson is then written, that one not.
    expect(linkSide('lesson', { ...none, start: ['result'] })).toBe('lesson');
    expect(linkSide('result', { ...none, start: ['result'] })).toBeUndefined();
    // A class link (the scenario named in the address) carries it in its fragment.
    const fromLibrary = { id: 'gfc1', scenario: gfc1.scenario, json: gfc1.json, origin: 'gfc1', place: { kind: 'library', id: 'gfc1' } as const };
    expect(classLink(fromLibrary, 'http://h/', entries, { side: 'result' }).url).toBe('http://h/?scenario=gfc1#p=result');
    expect(startup(at('#p=result', '?scenario=gfc1'), null, entries).view).toEqual({ side: 'result' });
  });

  // QA: a hand-made `&t=sweep` on a scenario without switches opened an empty Sweep view.
  it('a link asking for the Sweep view of a scenario without switches opens on the charts, and says why', () => {
    const bare = {
      ...mine,
      nodes: mine.nodes.filter((n) => n.kind !== 'switch'),
      links: [],
      connections: [],
      changes: [],
    } as unknown as Scenario;
    expect(sweepOffered(bare)).toBe(false);
    expect(sweepOffered(mine as Scenario)).toBe(true);
    expect(sweepOffered({ ...bare, sweep: { vary: [] } } as Scenario)).toBe(true);
    const s = startup(at(`${shareHash(bare, lib)}&t=sweep&p=result`), null, entries);
    expect(s.view).toEqual({ side: 'result' });
    expect(s.notice).toEqual({
      kind: 'info',
      text: 'This link\'s Sweep view is not offered for “Generic Fairness Configuration 1”, which has no switches to sweep (nor a sweep block of its own): the charts are shown.',
    });
    // With a view choice it cannot read too: both said.
    expect(startup(at(`${shareHash(bare, lib)}&t=sweep&v=abc`), null, entries).notice?.text).toMatch(
      /^This link's playback speed “abc” could not be read: the scenario opens without it; its Sweep view is not offered for “.*”, which has no switches/,
    );
    // A scenario with switches opens on it, unsaid.
    const swept = startup(at(`${shareHash(mine, lib)}&t=sweep`), null, entries);
    expect(swept.view).toEqual({ tab: 'sweep' });
    expect(swept.notice).toBeNull();
  });

  it('Share from the Compare tab says the variants travel in Compare\'s own link', () => {
    const link = shareLink(mine as Scenario, 'http://h/', entries, { tab: 'compare' });
    expect(shareNotice(link, mine as Scenario, true, 'compare').text).toMatch(/replays the same run\. It opens the Compare tab on the scenario alone: .*use Compare link once they have run\.$/);
    expect(shareNotice(link, mine as Scenario, true, 'sweep').text).toMatch(/replays the same run\.$/);
  });

  it('the tab a link asks for opens unless a teacher (or embed mode) hides or locks it', () => {
    const none = { hide: [], lock: [], start: [] };
    expect(linkedTab({ tab: 'sweep' }, none)).toBe('sweep');
    expect(linkedTab(null, none)).toBeNull();
    expect(linkedTab({}, none)).toBeNull();
    expect(linkedTab({ tab: 'sweep' }, { ...none, hide: ['sweep'] })).toBeNull();
    expect(linkedTab({ tab: 'editor' }, { ...none, lock: ['editor'] })).toBeNull();
    expect(linkedTab({ tab: 'charts' }, { ...none, hide: ['editor', 'sweep', 'compare'] })).toBe('charts');
  });

  // Issue: Share pressed inside an embed (`?embed=1`) gave an embed link, the lab without its
  // library, editor and views; an embed's Share sends someone the whole lab.
  it('a link shared from an embed opens the whole lab, with the same scenario and run', () => {
    const link = shareLink(mine as Scenario, 'http://h/lab/?scenario=gfc1&embed=1&lock=speed', entries);
    const u = new URL(link.url);
    expect(u.searchParams.has('embed')).toBe(false);
    expect(u.search).toBe('?lock=speed');
    expect(link.url).toBe(shareLink(mine as Scenario, 'http://h/lab/?lock=speed', entries).url);
    expect(JSON.parse(startup(at(u.hash, u.search), null, entries).loads.at(-1)!.json)).toEqual(mine);
  });

  it("a class link names an unchanged library scenario by its id (not as a shared link), with the view choices; a changed one travels whole", () => {
    const view = linkView({ charts: { quantity: 'overload', queueUnit: 'KB' }, speed: 0.02 });
    const fromLibrary = { id: 'gfc1', scenario: gfc1.scenario, json: gfc1.json, origin: 'gfc1', place: { kind: 'library', id: 'gfc1' } as const };
    const link = classLink(fromLibrary, 'http://h/lab/?scenario=two-sources&hide=editor#s=1.old', entries, view);
    expect(link.url).toBe('http://h/lab/?hide=editor&scenario=gfc1#q=overload&v=0.02');
    // It opens the library's gfc1 as the library's (the picker names it), at that speed and view.
    const u = new URL(link.url);
    const s = startup(at(u.hash, u.search), withLast(JSON.stringify(mine)), entries);
    expect(s.loads.map((l) => [l.origin, l.place])).toEqual([['gfc1', { kind: 'library', id: 'gfc1' }]]);
    expect(s.loads[0].speed).toBe(0.02);
    expect(s.view).toEqual({ quantity: 'overload', speed: 0.02 });
    expect(s.clearHash).toBe(false);
    expect(classLink(fromLibrary, 'http://h/', entries).url).toBe('http://h/?scenario=gfc1');
    // Changed (the user's own now), or not in the library: the whole scenario, as Share.
    const changed = { ...fromLibrary, scenario: mine as Scenario, place: { kind: 'mine', id: 'm1' } as const };
    expect(classLink(changed, 'http://h/?mine=m1', entries, view).url).toBe(shareLink(mine as Scenario, 'http://h/', entries, view).url);
    const gone = { ...fromLibrary, place: { kind: 'library', id: 'not-in-library' } as const };
    expect(classLink(gone, 'http://h/', entries).url).toMatch(/^http:\/\/h\/#s=2\./);
  });

  it('the export file is the library format, named after the scenario', () => {
    const f = exportFile(gfc1.scenario);
    expect(f.name).toBe('gfc1.json');
    expect(JSON.parse(f.text)).toEqual(gfc1.scenario);
    expect(f.text).toBe(`${JSON.stringify(gfc1.scenario, null, 2)}\n`);
    // The library's own, as it is (its fields in any order): the library file's name.
    const reordered = Object.fromEntries(Object.entries(gfc1.scenario).reverse()) as Scenario;
    expect(exportFile(reordered, gfc1.scenario).name).toBe('gfc1.json');
  });

  // QA: an edited two-sources was exported as two-sources.json, the library file's name.
  it("names a changed library scenario's file so that it does not pass for the library's", () => {
    const edited = { ...gfc1.scenario, description: 'mine now' };
    expect(exportFile(edited, gfc1.scenario).name).toBe('gfc1-edited.json');
    expect(JSON.parse(exportFile(edited, gfc1.scenario).text)).toEqual(edited);
    // Of an id the library does not have: its own name.
    expect(exportFile({ ...edited, id: 'my net' }, undefined).name).toBe('my-net.json');
  });
});

describe('Lab: last work and queued loads', () => {
  let lab: Lab | null = null;
  afterEach(() => lab?.dispose());

  function setup(storage: KeyValueStore) {
    let worker!: InProcessWorker;
    lab = new Lab(
      () => (worker = new InProcessWorker((host) => costly(createFakeEngine({ eventsPerSample: 100 }), host))),
      { storage },
    );
    const pump = () => {
      for (let i = 0; i < 10; i++) worker.pump();
    };
    return { lab, pump };
  }

  it('keeps the loaded scenario, and its live changes, as the last work', () => {
    const st = new MemoryStore();
    const t = setup(st);
    t.lab.load(twoSources(), 'two-sources');
    t.pump();
    expect(readLastWork(st)?.origin).toBe('two-sources');
    t.lab.runUntil(20);
    t.pump();
    t.lab.switches.setParam('SW1', 'target_utilization', 0.7);
    t.pump();
    expect(JSON.parse(readLastWork(st)!.json).changes).toHaveLength(1);
  });

  it('two loads in a row end with the second; a refused second leaves the first', () => {
    const t = setup(new MemoryStore());
    const other = { ...JSON.parse(twoSources()), id: 'other' };
    t.lab.load(twoSources(), 'two-sources');
    t.lab.load(JSON.stringify(other), 'other.json');
    t.pump();
    expect(t.lab.getState().current?.id).toBe('other');
    const bad = { ...other, id: 'bad', run: { duration_ms: -1 } };
    t.lab.load(twoSources(), 'two-sources');
    t.lab.load(JSON.stringify(bad), SHARED_ORIGIN);
    t.pump();
    expect(t.lab.getState().current?.id).toBe('two-sources');
    expect(t.lab.getState().problems?.origin).toBe(SHARED_ORIGIN);
  });
});

// QA: a class opening a teacher's link saw "shared link" in the picker, not the scenario's name.
describe('openedText', () => {
  it("names a scenario opened from a link by its name (else its id), then the link it came from", () => {
    expect(openedText(SHARED_ORIGIN, { name: 'Week 3 demo', id: 'mine-1' })).toBe('Week 3 demo (shared link)');
    expect(openedText(COMPARE_ORIGIN, { name: '  Two sources ', id: 'two-sources' })).toBe('Two sources (compare link)');
    expect(openedText(SHARED_ORIGIN, { name: '', id: 'mine-1' })).toBe('mine-1 (shared link)');
    expect(openedText(SHARED_ORIGIN, { name: 3 })).toBe('shared link');
    // Any other origin (a file's, already with its name) is said as it is.
    expect(openedText('Week 3 demo (week3.json)', { name: 'Week 3 demo' })).toBe('Week 3 demo (week3.json)');
  });
});

describe('fileOrigin', () => {
  it("names an imported file by its scenario's name and the file's, else the file's alone", () => {
    expect(fileOrigin('{"id":"x","name":"  My study "}', 'study.json')).toBe('My study (study.json)');
    for (const text of ['{"id":"x"}', '{"name":""}', '{"name":3}', 'null', '[1]', 'not json']) {
      expect(fileOrigin(text, 'f.json'), text).toBe('f.json');
    }
  });
});
