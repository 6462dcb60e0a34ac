// A row of tabs as the WAI-ARIA tabs pattern has it (https://www.w3.org/WAI/ARIA/apg/patterns/tabs/):
// each tab names the panel it controls and the panel is labelled by its tab; only the selected
// tab is in the Tab order (a roving tabindex), and ←/→ (wrapping), Home and End move the focus
// along the row and select the tab they reach (automatic activation). A disabled tab (one a
// teacher locked, a result not come yet) is skipped, as a click on it does nothing.

import type { KeyboardEvent } from 'react';

export interface TabItem<T extends string> {
  id: T;
  disabled?: boolean;
}

/** The tab a key moves to from `from` (null: not a key of the row, or nowhere to go). */
export function tabKeyTarget<T extends string>(key: string, tabs: readonly TabItem<T>[], from: T): T | null {
  const open = tabs.filter((t) => !t.disabled).map((t) => t.id);
  if (open.length === 0) return null;
  if (key === 'Home') return open[0];
  if (key === 'End') return open[open.length - 1];
  const step = key === 'ArrowRight' ? 1 : key === 'ArrowLeft' ? -1 : 0;
  if (step === 0) return null;
  // From the tab's place in the whole row, so that a disabled tab selected (a view a teacher
  // started and locked) still has neighbours.
  const all = tabs.map((t) => t.id);
  const at = all.indexOf(from);
  for (let k = 1; k <= all.length; k++) {
    const t = tabs[(((at + step * k) % all.length) + all.length) % all.length];
    if (!t.disabled) return t.id;
  }
  return null;
}

/** The tab in the Tab order: the selected one, or the first open one if it is disabled. */
export function focusableTab<T extends string>(tabs: readonly TabItem<T>[], selected: T): T | null {
  const own = tabs.find((t) => t.id === selected);
  return own && !own.disabled ? selected : (tabs.find((t) => !t.disabled)?.id ?? null);
}

/**
 * The attributes of a row of tabs and of its panel: spread `tab(id)` on each tab's button and
 * `panel` on the element that shows the selected tab's content. `name` keeps the ids of two
 * rows apart (`${name}-tab-${id}`, `${name}-panel-${id}`).
 */
export function tabList<T extends string>(name: string, tabs: readonly TabItem<T>[], selected: T, select: (id: T) => void) {
  const tabId = (id: T) => `${name}-tab-${id}`;
  const panelId = (id: T) => `${name}-panel-${id}`;
  const inOrder = focusableTab(tabs, selected);
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const to = tabKeyTarget(e.key, tabs, selected);
    if (to === null) return;
    e.preventDefault(); // no page scroll on Home/End
    document.getElementById(tabId(to))?.focus();
    if (to !== selected) select(to);
  };
  return {
    tab: (id: T) => ({
      role: 'tab' as const,
      id: tabId(id),
      'aria-selected': id === selected,
      'aria-controls': panelId(id),
      tabIndex: id === inOrder ? 0 : -1,
      onKeyDown,
    }),
    panel: { role: 'tabpanel' as const, id: panelId(selected), 'aria-labelledby': tabId(selected) },
  };
}
