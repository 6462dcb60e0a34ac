// Where the user was in this tab of the lab: the view tab (Charts, Edit network, Sweep, Compare),
// the Network view open above the charts, and the side panel's tab (Lesson, Result, Switches,
// VPs). View state only, never the scenario's. Kept in the tab's sessionStorage, so that a
// reload comes back to it while a new tab of the lab starts as a new tab does (QA: a reload went
// back to Charts and the Lesson tab). A reload asks for the view tab as a link does
// (`Lab.askView`), so a teacher's hidden or locked tab is not restored (`linkedTab`).

import { VIEW_TABS, type ViewTab } from '../scenario/share';
import type { KeyValueStore } from '../scenario/storage';

/** The side panel's tabs, in their order. */
export const SIDE_TABS = ['lesson', 'result', 'switches', 'paths'] as const;
export type SideTab = (typeof SIDE_TABS)[number];

export interface ViewPlace {
  tab: ViewTab;
  /** The Network view open above the charts. */
  network: boolean;
  side: SideTab;
}

/** The key in the tab's sessionStorage; its value is tagged with VIEW_PLACE_VERSION. */
export const VIEW_PLACE_KEY = 'abrlab.view-place';
export const VIEW_PLACE_VERSION = 1;

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
  const { tab, network, side } = raw as Record<string, unknown>;
  const place: Partial<ViewPlace> = {
    ...((VIEW_TABS as readonly unknown[]).includes(tab) ? { tab: tab as ViewTab } : {}),
    ...(typeof network === 'boolean' ? { network } : {}),
    ...((SIDE_TABS as readonly unknown[]).includes(side) ? { side: side as SideTab } : {}),
  };
  return Object.keys(place).length ? place : null;
}

/** This tab's place, kept as the user moves and given back after a reload only. */
export class ViewPlaceKeeper {
  constructor(
    private readonly store: KeyValueStore | null,
    /** The page was loaded by a reload (not opened anew, nor from a link in this tab). */
    private readonly reloaded: boolean,
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

  keep(place: ViewPlace) {
    try {
      this.store?.setItem(VIEW_PLACE_KEY, viewPlaceText(place));
    } catch {
      // Storage full or turned off: a reload starts as a new tab does.
    }
  }
}
