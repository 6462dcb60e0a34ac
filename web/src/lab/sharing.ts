// Which scenario the lab opens with (a shared link, ?scenario=, the user's last work, the
// default), and the share link and file of the current one. Pure functions over the location
// and storage, so that the rules are tested without a browser.

import { DEFAULT_SCENARIO, type LibraryEntry } from '../scenario/library';
import {
  decodeScenario,
  MAX_LINK_CHARS,
  payloadOf,
  scenarioFileText,
  shareHash,
  textLibrary,
  viewOf,
  type LinkView,
} from '../scenario/share';
import type { Scenario } from '../contract/scenario';
import { readLastWork, type KeyValueStore } from '../scenario/storage';
import type { Notice } from './state';

export const SHARED_ORIGIN = 'shared link';

export interface Startup {
  /** Scenarios to load, in order: the last one wins unless the engine refuses it. */
  loads: { json: string; origin: string }[];
  notice: Notice | null;
  /** The fragment held a scenario: clear it once read (a reload then opens the last work). */
  clearHash: boolean;
  /** Chart choices the link carries (empty without a readable link). */
  view: LinkView;
}

/**
 * The scenario to open: a shared link (`#s=1.…`) over the user's work; `?scenario=<id>` a
 * library scenario; else the last work kept in storage; else the default. A link that cannot be
 * read opens the fallback with a message; a link the engine refuses leaves the fallback loaded
 * (it is loaded first) and shows the engine's problems.
 */
export function startup(
  location: { hash: string; search: string },
  storage: KeyValueStore | null,
  library: readonly LibraryEntry[],
): Startup {
  const wanted = new URLSearchParams(location.search).get('scenario');
  const byId = (id: string | null) => library.find((e) => e.id === id);
  const entry = byId(wanted);
  const last = readLastWork(storage);
  const fallbackEntry = byId(DEFAULT_SCENARIO) ?? library[0];
  const fallback = entry
    ? { json: entry.json, origin: entry.id }
    : (last ?? (fallbackEntry ? { json: fallbackEntry.json, origin: fallbackEntry.id } : null));
  const loads = fallback ? [fallback] : [];
  const payload = payloadOf(location.hash);
  if (payload === null) return { loads, notice: null, clearHash: false, view: {} };
  const d = decodeScenario(payload, textLibrary(library));
  if (!d.ok) {
    const kept = last && !entry ? 'your last work is open instead' : `“${fallback?.origin ?? 'nothing'}” is open instead`;
    return {
      loads,
      notice: { kind: 'error', text: `This scenario link could not be opened: ${d.error}. Nothing was lost: ${kept}.` },
      clearHash: true,
      view: {},
    };
  }
  return { loads: [...loads, { json: d.json, origin: SHARED_ORIGIN }], notice: null, clearHash: true, view: viewOf(location.hash) };
}

export interface ShareLink {
  url: string;
  chars: number;
  /** Too long for chat tools and some browsers: offer the file. */
  tooLong: boolean;
}

/**
 * The link that reopens a scenario (its recorded changes, seed and run settings included): the
 * page address without its fragment and without `?scenario=` (the link says which scenario).
 */
export function shareLink(scenario: Scenario, base: string, library: readonly LibraryEntry[], view: LinkView = {}): ShareLink {
  const page = new URL(base);
  page.hash = '';
  page.searchParams.delete('scenario');
  const url = page.toString().replace(/#$/, '') + shareHash(scenario, textLibrary(library), view);
  return { url, chars: url.length, tooLong: url.length > MAX_LINK_CHARS };
}

/** The notice shown after Share: what the link holds, and the link itself. */
export function shareNotice(link: ShareLink, scenario: Scenario, copied: boolean): Notice {
  const n = scenario.changes?.length ?? 0;
  const what = `“${scenario.name || scenario.id}”${n ? ` with its ${n} recorded change${n === 1 ? '' : 's'}` : ''}`;
  const text = link.tooLong
    ? `This link to ${what} is ${link.chars.toLocaleString('en-US')} characters, too long for many tools: use Export to send the file.`
    : `${copied ? 'Link copied' : 'Link ready'} (${link.chars.toLocaleString('en-US')} characters): it opens ${what} and replays the same run.`;
  return { kind: 'info', text, link: link.url };
}

/** The export file: name and text (the format of scenarios/*.json). */
export function exportFile(scenario: Scenario): { name: string; text: string } {
  const name = `${String(scenario.id || 'scenario').replace(/[^A-Za-z0-9._-]+/g, '-')}.json`;
  return { name, text: scenarioFileText(scenario) };
}
