// A teacher's settings in the page address: controls hidden or locked, and how the lab starts
// (`?hide=editor,params&lock=speed&start=present,lesson`). Pure functions over the address;
// a value the lab does not know is ignored and named in a notice, never an error.

import type { Lesson } from '../contract/scenario';
import { lessonSteps, lessonText } from './lessonWalk';

/** Controls a teacher may hide or lock (lock: shown, but greyed out). */
export const TEACHER_CONTROLS = ['editor', 'params', 'algorithm', 'speed', 'library', 'compare', 'sweep', 'eventlog'] as const;
export type TeacherControl = (typeof TEACHER_CONTROLS)[number];

/** What each control is, in the Teacher dialog. */
export const CONTROL_NAMES: Record<TeacherControl, string> = {
  editor: 'Network editor and virtual paths',
  params: 'Switch settings and parameters',
  algorithm: 'Algorithm picker',
  speed: 'Speed',
  library: 'Scenario picker and Import',
  compare: 'Compare view',
  sweep: 'Sweep view',
  eventlog: 'Event log',
};

/** How far a control is kept from the class: shown < locked < hidden. */
export type ControlChoice = 'shown' | 'locked' | 'hidden';
const STRICTNESS: Record<ControlChoice, number> = { shown: 0, locked: 1, hidden: 2 };

/** Controls that live inside another and go as it goes: the algorithm picker is one of the
 *  switch settings (hidden with them, greyed out with them). */
export const INSIDE: Partial<Record<TeacherControl, TeacherControl>> = { algorithm: 'params' };

/** A control's choice as the lab applies it: its own, or the stricter choice of the control it
 *  is inside. */
export function choiceIn(settings: TeacherSettings, c: TeacherControl): ControlChoice {
  const own: ControlChoice = settings.hide.includes(c) ? 'hidden' : settings.lock.includes(c) ? 'locked' : 'shown';
  const outer = INSIDE[c];
  if (!outer) return own;
  const theirs = choiceIn(settings, outer);
  return STRICTNESS[theirs] > STRICTNESS[own] ? theirs : own;
}

/** Whether `choice` of `c` is overruled by the control it is inside (which is stricter). */
export function overruled(settings: TeacherSettings, c: TeacherControl, choice: ControlChoice): boolean {
  const outer = INSIDE[c];
  return !!outer && STRICTNESS[choiceIn(settings, outer)] > STRICTNESS[choice];
}

/**
 * How the lab starts: presentation mode, the side panel hidden, a side-panel tab, a view, and
 * above the charts the Network view or the event log open.
 */
export const START_MODES = ['present', 'panel-hidden', 'lesson', 'result', 'switches', 'charts', 'editor', 'compare', 'sweep', 'network', 'eventlog'] as const;
export type StartMode = (typeof START_MODES)[number];
export const START_TABS = ['lesson', 'result', 'switches'] as const satisfies readonly StartMode[];
export const START_VIEWS = ['charts', 'editor', 'compare', 'sweep'] as const satisfies readonly StartMode[];

export interface TeacherSettings {
  hide: readonly TeacherControl[];
  lock: readonly TeacherControl[];
  start: readonly StartMode[];
}

export const NO_TEACHER: TeacherSettings = { hide: [], lock: [], start: [] };

const KEYS = ['hide', 'lock', 'start'] as const;

/** The values of `key` in the query string and in the fragment (`#s=…&hide=…`), comma-separated. */
function valuesOf(search: string, hash: string, key: string): string[] {
  const out: string[] = [];
  for (const part of [search.replace(/^\?/, ''), hash.replace(/^#/, '')]) {
    for (const v of new URLSearchParams(part).getAll(key)) out.push(...v.split(',').map((x) => x.trim()).filter(Boolean));
  }
  return out;
}

/** The settings an address carries, and what it named that the lab does not know (`hide=foo`). */
export function parseTeacher(search: string, hash = ''): { settings: TeacherSettings; ignored: string[] } {
  const ignored: string[] = [];
  const pick = <T extends string>(key: string, known: readonly T[]): T[] => {
    const got: T[] = [];
    for (const v of valuesOf(search, hash, key)) {
      if ((known as readonly string[]).includes(v)) {
        if (!got.includes(v as T)) got.push(v as T);
      } else ignored.push(`${key}=${v}`);
    }
    return got;
  };
  const hide = pick('hide', TEACHER_CONTROLS);
  const lock = pick('lock', TEACHER_CONTROLS).filter((c) => !hide.includes(c));
  const start = pick('start', START_MODES);
  return { settings: { hide, lock, start }, ignored };
}

/** The notice for values a link named that the lab does not know (null: none). */
export function ignoredNotice(ignored: readonly string[]): string | null {
  if (!ignored.length) return null;
  return `This link's teacher settings name what this lab does not know, ignored: ${ignored.join(', ')}. Known controls: ${TEACHER_CONTROLS.join(', ')}; start: ${START_MODES.join(', ')}.`;
}

/** Whether the lab hides `c` (or the control it is inside). */
export const isHidden = (s: TeacherSettings, c: TeacherControl) => choiceIn(s, c) === 'hidden';
/** Whether the lab shows `c` greyed out (or the control it is inside). */
export const isLocked = (s: TeacherSettings, c: TeacherControl) => choiceIn(s, c) === 'locked';

/** Whether the class may use `c`: neither hidden nor locked (nor the control it is inside). A
 *  way into a view other than its tab (the lesson's *Compare with …*) is offered only then. */
export const isOpen = (s: TeacherSettings, c: TeacherControl) => choiceIn(s, c) === 'shown';

/** The side-panel tab and the view to start in (null: the lab's own default). */
export function startTab(s: TeacherSettings): (typeof START_TABS)[number] | null {
  return START_TABS.find((t) => s.start.includes(t)) ?? null;
}
export function startView(s: TeacherSettings): (typeof START_VIEWS)[number] | null {
  const v = START_VIEWS.find((t) => s.start.includes(t)) ?? null;
  // A view the teacher hid is not started in.
  return v && v !== 'charts' && isHidden(s, v) ? null : v;
}

/** `url` with these settings in its query string (replacing any it had; the fragment kept). */
export function withTeacher(url: string, s: TeacherSettings): string {
  const u = new URL(url);
  for (const k of KEYS) u.searchParams.delete(k);
  for (const k of KEYS) if (s[k].length) u.searchParams.set(k, s[k].join(','));
  // Commas read better than %2C, and URLSearchParams leaves them readable to every browser.
  return u.toString().replace(/(hide|lock|start)=([^&#]*)/g, (_, k: string, v: string) => `${k}=${decodeURIComponent(v)}`);
}

/** Where a lesson asks the class to use a control: `where` is "the lesson" or "step 3". */
export interface LessonUse {
  control: TeacherControl;
  where: string;
  /** The words that ask for it ("Set max_alloc to 0 …"). */
  quote: string;
}

/**
 * What a lesson's text and steps ask the class to do with a control a teacher may hide or lock
 * (QA h53: gfc1's third step says "Set max_alloc to 0 on the switches (the Switches tab)"; with
 * the switch settings locked a class cannot). Read from the words a lesson uses for them: the
 * Switches tab or "set/raise/lower <parameter> to" (a name with an underscore), the algorithm
 * menu, the event log.
 */
export function lessonUses(lesson: Lesson | undefined): LessonUse[] {
  const parts: { where: string; text: string }[] = [{ where: 'the lesson', text: lessonText(lesson) }];
  lessonSteps(lesson).forEach((s, i) => parts.push({ where: `step ${i + 1}`, text: `${s.prompt} ${s.reveal ?? ''}` }));
  const asks: [TeacherControl, RegExp][] = [
    ['params', /\b(?:set|raise|lower)\s+[a-z]+_[a-z_]+\s+(?:back\s+)?to\b[^.;:]*|\bthe Switches tab\b/gi],
    ['algorithm', /\bthe algorithm menu\b/gi],
    ['eventlog', /\bthe event log\b/gi],
  ];
  const out: LessonUse[] = [];
  for (const { where, text } of parts) {
    for (const [control, re] of asks) {
      const m = text.match(re);
      if (m && !out.some((u) => u.control === control && u.where === where)) out.push({ control, where, quote: m[0].trim() });
    }
  }
  return out;
}
