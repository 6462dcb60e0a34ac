// Which scenario is open, as the page address names it: a library scenario (`?scenario=<id>`),
// one of the user's own (`?mine=<id>`), or neither (a file or a shared link not yet changed:
// a reload opens the last work). The address always follows what is open, so that reload and
// back/forward open it again.

/** What is open, as the address names it. */
export type Place = { kind: 'library'; id: string } | { kind: 'mine'; id: string } | { kind: 'none' };

export const NOWHERE: Place = { kind: 'none' };

/** The place a query string names (`?mine=` before `?scenario=`). */
export function placeOf(search: string): Place {
  const q = new URLSearchParams(search);
  const mine = q.get('mine');
  if (mine) return { kind: 'mine', id: mine };
  const id = q.get('scenario');
  if (id) return { kind: 'library', id };
  return NOWHERE;
}

/** The query string naming a place, keeping every other parameter of `search`. */
export function searchFor(place: Place, search = ''): string {
  const q = new URLSearchParams(search);
  q.delete('mine');
  q.delete('scenario');
  if (place.kind === 'mine') q.set('mine', place.id);
  if (place.kind === 'library') q.set('scenario', place.id);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/**
 * The key of what a form keeps for a scenario (Compare's variants, the Sweep tab's parameters):
 * where the scenario is kept (`library:<id>`, `mine:<id>`), since a user's copy keeps its
 * library scenario's JSON id and has a form of its own. A scenario kept nowhere (a file, a link
 * not yet changed) has only its JSON id (`id:<id>`): two such files with one id share it. Null:
 * no id.
 */
export function draftsKey(place: Place, scenarioId: string | null): string | null {
  if (place.kind !== 'none') return `${place.kind}:${place.id}`;
  return scenarioId === null ? null : `id:${scenarioId}`;
}

export function samePlace(a: Place, b: Place): boolean {
  return a.kind === b.kind && (a.kind === 'none' || a.id === (b as { id: string }).id);
}

/** A scenario opened from elsewhere, as a history entry keeps it: a file or a shared link has
 *  no address of its own, so back/forward reopen it from the entry itself. */
export interface Opened {
  json: string;
  origin: string;
}

/** What a history entry keeps for a place: the scenario itself when the address cannot name
 *  it (null otherwise: the address is enough). */
export function historyState(place: Place, opened: Opened): Opened | null {
  return place.kind === 'none' ? { json: opened.json, origin: opened.origin } : null;
}

/** The scenario a history entry kept (null when it kept none, or something else). */
export function openedOf(state: unknown): Opened | null {
  const s = state as Partial<Opened> | null;
  return s && typeof s.json === 'string' && typeof s.origin === 'string' ? { json: s.json, origin: s.origin } : null;
}
