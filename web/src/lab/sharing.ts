// Which scenario the lab opens with (a shared link, ?mine=, ?scenario=, the user's last work,
// the default), and the share link and file of the current one. Pure functions over the
// location and storage, so that the rules are tested without a browser.

import { DEFAULT_SCENARIO, type LibraryEntry } from '../scenario/library';
import {
  canonicalJson,
  decodeScenario,
  MAX_LINK_CHARS,
  payloadOf,
  READ_VERSIONS_TEXT,
  scenarioFileText,
  shareHash,
  textLibrary,
  unreadViewChoices,
  viewHash,
  viewOf,
  type LinkView,
  type SideTab,
  type ViewTab,
} from '../scenario/share';
import type { Scenario } from '../contract/scenario';
import type { MyScenario } from '../scenario/myScenarios';
import { NOWHERE, placeOf, samePlace, searchFor, type Place } from '../scenario/place';
import { readLastWork, textDigest, type KeyValueStore } from '../scenario/storage';
import type { Speed } from '../engine/protocol';
import { isOpen, startTab, type TeacherSettings } from './teacher';
import { SHARED_ORIGIN, type ChartChoice, type LoadedScenario, type Notice } from './state';

// The origin of a scenario opened from a link (declared with the lab's state, which lab.ts reads).
export { SHARED_ORIGIN };
/** The origin of a scenario opened from a compare link (`#c=2.…`). */
export const COMPARE_ORIGIN = 'compare link';

export interface Startup {
  /** Scenarios to load, in order: the last one wins unless the engine refuses it. `speed`: the
   *  one a link carries (else the scenario plays at its default speed). `unsaved`: a change of
   *  the user's the page went away before keeping: opened as theirs and kept at once (at
   *  `place`, or under a new id when that is nowhere), over `basis`, the text the scenario
   *  store holds for it (if any); `fallback`, what opens instead if the engine refuses that
   *  change (what it was made on, else the default). */
  loads: { json: string; origin: string; place: Place; speed?: Speed; unsaved?: boolean; basis?: string; fallback?: { json: string; origin: string; place: Place } }[];
  notice: Notice | null;
  /** The fragment held a scenario: clear it once read (a reload then opens the last work). */
  clearHash: boolean;
  /** Chart choices the link carries (empty without a readable link). */
  view: LinkView;
}

/**
 * The scenario to open: a shared link (`#s=2.…`) over the user's work; `?mine=<id>` one of the
 * user's own scenarios (`mine`: the one kept under that id, looked up by the caller; null when
 * there is none); `?scenario=<id>` a library scenario; else the last work kept in storage
 * (this tab's, `tabStorage`, before the browser's); else the default. The last work wins over
 * what the address names when it is a change of it the page went away before keeping (see
 * `newer` below). A link that cannot be read opens the fallback with a message; a link the engine
 * refuses leaves the fallback loaded (it is loaded first) and shows the engine's problems.
 * Never throws: whatever the address holds, the lab opens.
 */
export function startup(
  location: { hash: string; search: string },
  storage: KeyValueStore | null,
  library: readonly LibraryEntry[],
  mine: MyScenario | null = null,
  tabStorage: KeyValueStore | null = null,
): Startup {
  const place = placeOf(location.search);
  const byId = (id: string | null) => library.find((e) => e.id === id);
  const entry = place.kind === 'library' ? byId(place.id) : undefined;
  // This tab's own last work first: a reload must not open what another tab did since.
  const last = readLastWork(tabStorage) ?? readLastWork(storage);
  const fromLibrary = (e: LibraryEntry) => ({ json: e.json, origin: e.id, place: { kind: 'library', id: e.id } as Place });
  const fallbackEntry = byId(DEFAULT_SCENARIO) ?? library[0];
  const lastPlace = last?.place ?? NOWHERE;
  const wantedMine = place.kind === 'mine' ? place.id : null;
  const stored = mine && mine.id === wantedMine ? mine : null;
  // The last work is newer than what the address names when it is a change not yet kept of
  // that scenario (or of the one it was made on, the change making it the user's own: the page
  // went away before the address followed), or it is that scenario of the user's and the store
  // lost it. Opened as a change, it is then kept.
  const isLast = lastPlace.kind === 'mine' && lastPlace.id === wantedMine;
  const fromHere = !!last?.from && place.kind !== 'none' && samePlace(last.from, place);
  const newer = !!last && ((isLast && (last.unsaved === true || !stored)) || (last.unsaved === true && fromHere));
  // The change is kept over the store's text only if it was made on that text: when another
  // tab has changed it since, the basis is one no kept text is (''), so the change is kept as a
  // scenario of its own beside the other tab's (Lab.put).
  // Without the store's text (not kept there, or its read did not answer in time), a change is
  // kept only where there is nothing, and the last work kept already only over itself:
  // whatever another tab wrote there stays.
  const madeOnStored = !!stored && (last?.basisDigest === undefined || last.basisDigest === textDigest(stored.json));
  const basis = stored ? (madeOnStored ? stored.json : '') : last?.unsaved ? '' : last?.json;
  // Opened as a change, the last work may be one the engine refuses (the page went away before
  // its verdict): then what it was made on opens (the store's text, the library scenario), else
  // the default, and the change is offered as a file (Lab's `invalid`), not an empty lab.
  const madeFrom = last?.from?.kind === 'library' ? byId(last.from.id) : undefined;
  const madeOnEntry = madeFrom ?? entry ?? fallbackEntry;
  const madeOn = stored && isLast ? { json: stored.json, origin: stored.name, place } : madeOnEntry ? fromLibrary(madeOnEntry) : null;
  const fallbackOf = madeOn ? { fallback: madeOn } : {};
  const lastWork =
    last &&
    (last.unsaved || newer
      ? { json: last.json, origin: last.origin, place: lastPlace, unsaved: true, ...(isLast ? { basis } : {}), ...fallbackOf }
      : { json: last.json, origin: last.origin, place: lastPlace });
  // ?mine=<id>: the user's scenario; the last work if it is newer (see above).
  const mineLoad = wantedMine === null ? null : newer ? lastWork : stored ? { json: stored.json, origin: stored.name, place } : null;
  const libraryLoad = newer && place.kind === 'library' ? lastWork : entry ? fromLibrary(entry) : null;
  const fallback = mineLoad ?? libraryLoad ?? (lastWork ?? (fallbackEntry ? fromLibrary(fallbackEntry) : null));
  const loads = fallback ? [fallback] : [];
  const opened = fallback === lastWork ? 'your last work is open' : `“${fallback?.origin ?? 'nothing'}” is open`;
  const missing =
    (wantedMine !== null && !mineLoad) || (place.kind === 'library' && !entry)
      ? `The address names ${place.kind === 'mine' ? 'your scenario' : 'the library scenario'} “${(place as { id: string }).id}”, which ${place.kind === 'mine' ? 'is not kept in this browser' : 'the library does not have'}: ${opened} instead.`
      : null;
  const missingNotice: Notice | null = missing ? { kind: 'error', text: missing } : null;
  const link = linkOf(location.hash, library, `${opened} instead`);
  if (link === null) {
    // A link that names its scenario in the address (a teacher's `?scenario=<id>#v=0.01`) may
    // carry view choices alone; they stay in the fragment, as the teacher's settings stay in
    // the query string, and a reload opens the scenario the same way.
    const linked = linkedView(location.hash, loads[loads.length - 1]?.json);
    const view = linked.view;
    const speed = view.speed;
    const notice = missingNotice ?? linked.notice;
    return { loads: speed === undefined ? loads : loads.map((l) => ({ ...l, speed })), notice, clearHash: false, view };
  }
  if (!link.load) return { loads, notice: link.notice, clearHash: true, view: {} };
  return { loads: [...loads, link.load], notice: missingNotice ?? link.notice, clearHash: true, view: link.view };
}

/**
 * The scenario a share link's fragment (`#s=2.…`) holds, to open: its load, the chart choices
 * and speed it carries, and what to tell the user (a link that cannot be read: why, and
 * `instead`, what stays open). Null when the fragment holds no scenario link.
 */
export function linkOf(
  hash: string,
  library: readonly LibraryEntry[],
  instead: string,
): { load: Startup['loads'][number] | null; view: LinkView; notice: Notice | null } | null {
  const payload = payloadOf(hash);
  if (payload === null) return null;
  let d: ReturnType<typeof decodeScenario>;
  try {
    d = decodeScenario(payload, textLibrary(library));
  } catch (e) {
    d = { ok: false, error: `the link could not be read (${(e as Error)?.message || String(e)})` };
  }
  if (!d.ok) {
    if (d.newer !== undefined) return { load: null, view: {}, notice: newerLinkNotice(hash, d.newer, instead, 'asked') };
    return { load: null, view: {}, notice: { kind: 'error', text: `This scenario link could not be opened: ${d.error}. Nothing was lost: ${instead}.` } };
  }
  const { view, notice } = linkedView(hash, d.json);
  return { load: { json: d.json, origin: SHARED_ORIGIN, place: NOWHERE, speed: view.speed }, view, notice };
}

/** The view choices of a link's fragment for the scenario it opens (`json`), and what to tell
 *  the user of those left out: unreadable ones, and a view the scenario does not offer. A
 *  fragment typed into an open lab's address (`#t=sweep&p=switches`) is read so too. */
export function linkedView(hash: string, json: string | undefined): { view: LinkView; notice: Notice | null } {
  const { view, why } = offeredView(viewOf(hash), json);
  const unread = unreadViewChoices(hash);
  const said = [
    ...(unread.length ? [`${unread.join(' and ')} could not be read: the scenario opens without ${unread.length > 1 ? 'them' : 'it'}`] : []),
    ...(why ? [why] : []),
  ];
  return { view, notice: said.length ? { kind: 'info', text: `This link's ${said.join('; its ')}.` } : null };
}

/** Whether the Sweep tab is offered for `scenario`: it has a sweep block of its own, or
 *  switches whose algorithms can be swept (the App offers it during a sweep too). */
export function sweepOffered(scenario: Pick<Scenario, 'sweep' | 'nodes'>): boolean {
  return !!scenario.sweep || scenario.nodes.some((n) => n.kind === 'switch');
}

/**
 * A link's view for the scenario it opens (`json`): a Sweep tab asked for a scenario that
 * offers none (no switches, no sweep block: a hand-made `&t=sweep`) is left out, the charts
 * shown instead, and `why` says so (QA: it opened an empty Sweep view).
 */
export function offeredView(view: LinkView, json: string | undefined): { view: LinkView; why: string | null } {
  if (view.tab !== 'sweep' || json === undefined) return { view, why: null };
  let scenario: Partial<Scenario> | null = null;
  try {
    scenario = JSON.parse(json) as Partial<Scenario>;
  } catch {
    return { view, why: null }; // the engine says what is wrong with it
  }
  if (!scenario || !Array.isArray(scenario.nodes) || sweepOffered(scenario as Scenario)) return { view, why: null };
  const { tab: _sweep, ...rest } = view;
  const name = typeof scenario.name === 'string' && scenario.name.trim() ? scenario.name.trim() : String(scenario.id ?? 'this scenario');
  return { view: rest, why: `Sweep view is not offered for “${name}”, which has no switches to sweep (nor a sweep block of its own): the charts are shown` };
}

/**
 * Where an update of the lab stands, for a link made by a newer ABR Lab: `asked` (offered, not
 * begun), `updating` (the newer lab is on its way: the page reloads with the link), `latest`
 * (this lab is the newest the server offers: a page not served by the service worker came from
 * the server itself), `failed` (it could not be fetched: offline).
 */
export type UpdateStage = NonNullable<Notice['update']>['stage'];

/**
 * The notice for a link (share or compare) of a version newer than this lab reads: what it is,
 * what stays open, and where the update stands. A copy of the lab kept by the service worker
 * before a link version existed cannot open it; from this version on, a lab says why and
 * offers the update, which reopens the link (`update`).
 */
export function newerLinkNotice(hash: string, version: number, instead: string, stage: UpdateStage): Notice {
  const head = `This link was made by a newer version of ABR Lab (a version ${version} link; this lab reads versions ${READ_VERSIONS_TEXT}). Nothing was lost: ${instead}.`;
  const next: Record<UpdateStage, string> = {
    asked: 'Update ABR Lab to open it: the page reloads with the link, your work kept.',
    updating: 'Updating ABR Lab: the page reloads with the link once the newer version is in, your work kept.',
    latest: 'This server offers no newer version than this one: the link may come from another copy of ABR Lab.',
    failed: 'The newer version could not be fetched (offline?): Update to try again.',
  };
  return { kind: 'error', text: `${head} ${next[stage]}`, update: { hash, version, instead, stage } };
}

export interface ShareLink {
  url: string;
  chars: number;
  /** Too long for chat tools and some browsers: offer the file. */
  tooLong: boolean;
}

/** The address's key of embed mode (`?embed=1`, ui/embed.ts). */
export const EMBED_PARAM = 'embed';

/**
 * The link that reopens a scenario (its recorded changes, seed and run settings included): the
 * page address without its fragment and without `?scenario=` or `?mine=` (the link says which
 * scenario), and without `?embed=`: an embed is for a course page, and a link shared from it
 * sends someone the whole lab (the embed's own "Open in ABR Lab" is this very link).
 */
export function shareLink(scenario: Scenario, base: string, library: readonly LibraryEntry[], view: LinkView = {}): ShareLink {
  const page = new URL(base);
  page.hash = '';
  page.searchParams.delete('scenario');
  page.searchParams.delete('mine');
  page.searchParams.delete(EMBED_PARAM);
  const url = page.toString().replace(/#$/, '') + shareHash(scenario, textLibrary(library), view);
  return { url, chars: url.length, tooLong: url.length > MAX_LINK_CHARS };
}

/**
 * The link a teacher gives a class. A library scenario not changed (its place is the library's:
 * a change makes it the user's own) is named by its id, `?scenario=<id>`, with the view choices
 * in the fragment: the picker then shows it by its name, and the link follows the library.
 * Anything else, changed or from elsewhere, travels whole (`#s=…`, as `shareLink`).
 */
export function classLink(current: LoadedScenario, base: string, library: readonly LibraryEntry[], view: LinkView = {}): ShareLink {
  const { place } = current;
  if (place.kind !== 'library' || !library.some((e) => e.id === place.id)) return shareLink(current.scenario, base, library, view);
  const page = new URL(base);
  page.hash = '';
  page.search = searchFor(place, page.search);
  const url = page.toString().replace(/#$/, '') + viewHash(view);
  return { url, chars: url.length, tooLong: url.length > MAX_LINK_CHARS };
}

/**
 * What the scenario picker says of a scenario opened from a link (a share or compare link, not
 * changed yet): its name, then where it came from — `Week 3 demo (shared link)` — as a file
 * says `Week 3 demo (week3.json)` (QA: the picker of a class opening a teacher's link said only
 * "shared link"). Any other origin is said as it is.
 */
export function openedText(origin: string, scenario: { name?: unknown; id?: unknown } | undefined): string {
  if (origin !== SHARED_ORIGIN && origin !== COMPARE_ORIGIN) return origin;
  const name = typeof scenario?.name === 'string' && scenario.name.trim() ? scenario.name.trim() : typeof scenario?.id === 'string' ? scenario.id : '';
  return name ? `${name} (${origin})` : origin;
}

/** What a share link carries besides the scenario: the chart choices, the playback speed, and
 *  what the user is looking at (the view tab, the Network view open, the side panel's tab),
 *  which are the app's. */
export function linkView(state: { charts: ChartChoice; speed: Speed }, shown: { tab?: ViewTab; network?: boolean; side?: SideTab } = {}): LinkView {
  return { ...state.charts, speed: state.speed, ...shown };
}

/** The side panel tab a link carries (`&p=`): the one shown, unless it is the one the lab starts
 *  on anyway under these settings (a teacher's start tab, else the lesson). */
export function linkSide(side: SideTab, settings: TeacherSettings): SideTab | undefined {
  return side === (startTab(settings) ?? 'lesson') ? undefined : side;
}

/** The tab a link asked for (`viewAsked`), unless the teacher's settings (or embed mode's)
 *  hide or lock it here (null: none asked, or not to be shown: the lab's own start view). */
export function linkedTab(asked: { tab?: ViewTab } | null, settings: TeacherSettings): ViewTab | null {
  const tab = asked?.tab;
  if (!tab) return null;
  return tab === 'charts' || isOpen(settings, tab) ? tab : null;
}

/** The notice shown after Share: what the link holds, and the link itself. Shared from the
 *  Compare tab (`tab`), it says that the link opens that tab with the scenario alone: the
 *  variants and their runs travel in Compare's own link (`#c=`). */
export function shareNotice(link: ShareLink, scenario: Scenario, copied: boolean, tab?: ViewTab): Notice {
  const n = scenario.changes?.length ?? 0;
  const what = `“${scenario.name || scenario.id}”${n ? ` with its ${n} recorded change${n === 1 ? '' : 's'}` : ''}`;
  const compare = tab === 'compare' ? ' It opens the Compare tab on the scenario alone: to send the variants and their runs, use Compare link once they have run.' : '';
  const text = link.tooLong
    ? `This link to ${what} is ${link.chars.toLocaleString('en-US')} characters, too long for many tools: use Export to send the file.`
    : `${copied ? 'Link copied' : 'Link ready'} (${link.chars.toLocaleString('en-US')} characters): it opens ${what} and replays the same run.${compare}`;
  return { kind: 'info', text, link: link.url };
}

/** The export file: name (`exportFileName`) and text (the format of scenarios/*.json).
 *  `library`: the library's scenario of the same id, if there is one. */
export function exportFile(scenario: Scenario, library?: Scenario): { name: string; text: string } {
  return { name: exportFileName(scenario, library), text: scenarioFileText(scenario) };
}

/**
 * The name Export saves a scenario under, and the one a sweep's command names for it
 * (`sweepFile`): `<id>.json`, or `<id>-edited.json` when the library has a scenario of that id
 * and this one is not it (changed in any way), so that the file does not pass for the
 * library's own (QA: an edited two-sources was saved as two-sources.json). `library`: the
 * library's scenario of the same id, if there is one.
 */
export function exportFileName(scenario: Scenario, library: Scenario | undefined): string {
  const id = String(scenario.id || 'scenario');
  const edited = library !== undefined && String(library.id) === id && canonicalJson(library) !== canonicalJson(scenario);
  return jsonFileName(edited ? `${id}-edited` : id);
}

/** A file name for a scenario file from `stem` (a scenario's id or name): `<stem>.json`, with
 *  anything but letters, digits, dots, dashes and underscores a dash. */
export function jsonFileName(stem: string): string {
  return `${fileSafe(stem)}.json`;
}

/** `text` as part of a file's name: anything but letters, digits, dots, dashes and underscores
 *  a dash. */
export function fileSafe(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '-');
}

/**
 * What an imported file is called while it is open (the picker, the notices): the scenario's
 * `name` with the file's, or the file's alone when the text has no name to read (it may not
 * even be JSON: the engine says what is wrong with it).
 */
export function fileOrigin(text: string, fileName: string): string {
  let name: unknown;
  try {
    name = (JSON.parse(text) as { name?: unknown } | null)?.name;
  } catch {
    name = undefined;
  }
  return typeof name === 'string' && name.trim() ? `${name.trim()} (${fileName})` : fileName;
}
