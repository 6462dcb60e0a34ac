// Where the user was in this tab of the lab: the view tab (Charts, Edit network, Sweep, Compare),
// the Network view open above the charts, and the side panel's tab (Lesson, Result, Switches,
// VPs). View state only, never the scenario's. Kept in the tab's sessionStorage, so that a
// reload comes back to it while a new tab of the lab starts as a new tab does (QA: a reload went
// back to Charts and the Lesson tab). A reload asks for the view tab as a link does
// (`Lab.askView`), so a teacher's hidden or locked tab is not restored (`linkedTab`), unless
// the address asks for another place than when it was kept (`startPlace`).

import { SIDE_TABS, VIEW_TABS, viewHash, viewOf, type LinkView, type SideTab, type ViewTab } from '../scenario/share';
import type { KeyValueStore } from '../scenario/storage';

export interface ViewPlace {
  tab: ViewTab;
  /** The Network view open above the charts. */
  network: boolean;
  side: SideTab;
  /** The place the address asked for when this was kept (`askedText`: `#t=sweep&p=result`, ''
   *  for none): a reload whose address asks for another was opened from a link since. */
  linked?: string;
}

/** The place a page is asked to open on: a view tab, the Network view, a side panel tab. */
export type AskedPlace = Pick<LinkView, 'tab' | 'network' | 'side'>;

/** The key in the tab's sessionStorage; its value is tagged with VIEW_PLACE_VERSION. */
export const VIEW_PLACE_KEY = 'abrlab.view-place';
export const VIEW_PLACE_VERSION = 1;

/** The place an address's view choices ask for, as text ('' for none, `#t=sweep&p=result`). */
export function askedText(view: AskedPlace): string {
  return viewHash({ tab: view.tab, network: view.network, side: view.side });
}

/** A kept place as text. */
export function viewPlaceText(place: ViewPlace): string {
  return JSON.stringify({ v: VIEW_PLACE_VERSION, ...place });
}

/**
 * A kept place read back, forgiving: what is unknown or damaged is left out (a tab this lab
 * does not have, a field of the wrong type), and null when nothing of it is usable or it is of
 * another version.
 */
export function parseViewPlace(text: string | null): Partial<ViewPlace> | null {
  if (!text) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null || (raw as { v?: unknown }).v !== VIEW_PLACE_VERSION) return null;
  const { tab, network, side, linked } = raw as Record<string, unknown>;
  const place: Partial<ViewPlace> = {
    ...((VIEW_TABS as readonly unknown[]).includes(tab) ? { tab: tab as ViewTab } : {}),
    ...(typeof network === 'boolean' ? { network } : {}),
    ...((SIDE_TABS as readonly unknown[]).includes(side) ? { side: side as SideTab } : {}),
  };
  if (!Object.keys(place).length) return null;
  return typeof linked === 'string' ? { ...place, linked } : place;
}

/**
 * The place the page opens on. Opened anew (`kept` null), the address's (a link's view, or
 * nothing: the lab's start view). After a reload, the place this tab was at, kept as the user
 * moved (they moved on since the address's link opened: the saved tab wins over a `#t=` still
 * in the address) — unless the address asks for a place other than the one it asked when that
 * place was kept: a link opened in this tab since (a fragment typed over in the address bar,
 * which loads no page), which wins as a link just opened does.
 */
export function startPlace(kept: Partial<ViewPlace> | null, address: AskedPlace): AskedPlace {
  const asked: AskedPlace = { tab: address.tab, network: address.network, side: address.side };
  const text = askedText(address);
  if (!kept || (text !== '' && text !== (kept.linked ?? ''))) return asked;
  return { tab: kept.tab ?? asked.tab, network: kept.network ?? asked.network, side: kept.side ?? asked.side };
}

/** This tab's place, kept as the user moves and given back after a reload only. */
export class ViewPlaceKeeper {
  constructor(
    private readonly store: KeyValueStore | null,
    /** The page was loaded by a reload (not opened anew, nor from a link in this tab). */
    private readonly reloaded: boolean,
    /** The address's fragment now (`location.hash`): its place is kept with the user's. */
    private readonly hash: () => string = () => '',
  ) {}

  /** What the reload comes back to (null: not a reload, or nothing kept). */
  restored(): Partial<ViewPlace> | null {
    if (!this.reloaded || !this.store) return null;
    try {
      return parseViewPlace(this.store.getItem(VIEW_PLACE_KEY));
    } catch {
      return null; // storage turned off: the lab starts as a new tab does
    }
  }

  keep(place: Omit<ViewPlace, 'linked'>) {
    try {
      this.store?.setItem(VIEW_PLACE_KEY, viewPlaceText({ ...place, linked: askedText(viewOf(this.hash())) }));
    } catch {
      // Storage full or turned off: a reload starts as a new tab does.
    }
  }
}
