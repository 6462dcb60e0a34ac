// Embed mode (`?embed=1`): the lab in an iframe of a course page, with the scenario's run
// controls and charts only. Pure functions over the address.

import { EMBED_PARAM } from '../lab/sharing';
import type { TeacherSettings } from '../lab/teacher';

/** Whether the address asks for embed mode (`?embed=1`, or `=true`). */
export function embedIn(search: string): boolean {
  const v = new URLSearchParams(search).get(EMBED_PARAM);
  return v === '1' || v === 'true';
}

/** What embed mode leaves out, on top of the teacher's own settings: the library, the editor,
 *  the other views and the event log; the side panel starts hidden (its button shows it). */
export function embedSettings(s: TeacherSettings): TeacherSettings {
  const hide = [...new Set([...s.hide, 'library', 'editor', 'compare', 'sweep', 'eventlog'] as const)];
  return { hide, lock: s.lock.filter((c) => !hide.includes(c)), start: [...new Set([...s.start, 'panel-hidden'] as const)] };
}
