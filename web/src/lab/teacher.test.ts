import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Lesson } from '../contract/scenario';
import { repoFile } from '../test/fakes';
import { choiceIn, ignoredNotice, isHidden, isLocked, isOpen, lessonUses, NO_TEACHER, overruled, parseTeacher, startTab, startView, withTeacher } from './teacher';

const lessonOf = (id: string) => (JSON.parse(readFileSync(repoFile(`scenarios/${id}.json`), 'utf8')) as { lesson?: Lesson }).lesson;

// QA h53: a teacher who locks or hides the switch settings, the algorithm picker or the event log
// is told which part of the lesson asks the class to use it (gfc1's step 3: "Set max_alloc to 0
// on the switches (the Switches tab)").
describe('what a lesson asks the class to use', () => {
  it("finds the library's asks, in the lesson and in its steps", () => {
    expect(lessonUses(lessonOf('gfc1'))).toEqual([
      { control: 'params', where: 'the lesson', quote: 'Set max_alloc to 0 on the switches and every queue settles at its target, but fairness pays' },
      { control: 'params', where: 'step 3', quote: 'Set max_alloc to 0 on the switches (the Switches tab)' },
    ]);
    expect(lessonUses(lessonOf('two-sources-staggered'))).toEqual([{ control: 'eventlog', where: 'step 3', quote: 'the event log' }]);
    expect(lessonUses(lessonOf('gfc-edge')).map((u) => u.control)).toEqual(['algorithm']);
    expect(lessonUses(lessonOf('three-sources-transient'))).toEqual([{ control: 'params', where: 'the lesson', quote: 'set count_brm to 0 on SW1)?' }]);
  });

  it('asks for nothing in a lesson that names no control, or in none', () => {
    expect(lessonUses(lessonOf('parking-lot-3'))).toEqual([]);
    expect(lessonUses(undefined)).toEqual([]);
    // A word that is not a parameter (no underscore) is not an ask.
    expect(lessonUses('Set the rate to 10 Mbps and watch.')).toEqual([]);
  });
});

describe("a teacher's settings in the address", () => {
  // QA: hide=params&lock=algorithm hid the picker, and the dialog offered "locked" for it.
  it('applies to the algorithm picker the stricter of its own choice and the switch settings\' it is inside', () => {
    const of = (q: string) => parseTeacher(q).settings;
    expect(choiceIn(of('?hide=params&lock=algorithm'), 'algorithm')).toBe('hidden');
    expect(isHidden(of('?hide=params&lock=algorithm'), 'algorithm')).toBe(true);
    expect(isLocked(of('?hide=params&lock=algorithm'), 'algorithm')).toBe(false);
    expect(choiceIn(of('?lock=params'), 'algorithm')).toBe('locked');
    expect(choiceIn(of('?lock=params&hide=algorithm'), 'algorithm')).toBe('hidden');
    expect(choiceIn(of('?lock=algorithm'), 'algorithm')).toBe('locked');
    expect(choiceIn(of('?hide=algorithm'), 'params')).toBe('shown'); // not the other way round
    // The dialog greys out what the switch settings overrule.
    expect(overruled(of('?lock=params'), 'algorithm', 'shown')).toBe(true);
    expect(overruled(of('?lock=params'), 'algorithm', 'locked')).toBe(false);
    expect(overruled(of('?hide=params'), 'algorithm', 'locked')).toBe(true);
    expect(overruled(of('?hide=params'), 'speed', 'shown')).toBe(false);
  });

  it('opens a control to the class only when it is neither hidden nor locked, itself or the control it is inside', () => {
    const of = (q: string) => parseTeacher(q).settings;
    expect(isOpen(NO_TEACHER, 'compare')).toBe(true);
    expect(isOpen(of('?hide=compare'), 'compare')).toBe(false);
    expect(isOpen(of('?lock=compare'), 'compare')).toBe(false);
    expect(isOpen(of('?lock=params'), 'algorithm')).toBe(false);
    expect(isOpen(of('?hide=sweep'), 'compare')).toBe(true);
  });

  it('reads hide, lock and start from the query string and from a share link fragment', () => {
    const { settings, ignored } = parseTeacher('?scenario=gfc1&hide=editor,params&start=present', '#s=1.abc&v=0.005&lock=speed&start=lesson');
    expect(settings).toEqual({ hide: ['editor', 'params'], lock: ['speed'], start: ['present', 'lesson'] });
    expect(ignored).toEqual([]);
    expect(isHidden(settings, 'editor')).toBe(true);
    expect(isLocked(settings, 'speed')).toBe(true);
    expect(isLocked(settings, 'editor')).toBe(false);
    expect(startTab(settings)).toBe('lesson');
    expect(startView(settings)).toBeNull();
  });

  it('ignores what it does not know, names it, and never throws', () => {
    const { settings, ignored } = parseTeacher('?hide=editor,wings,,editor&lock=&start=moon&start=sweep', '#%E0%A4%A');
    expect(settings).toEqual({ hide: ['editor'], lock: [], start: ['sweep'] });
    expect(ignored).toEqual(['hide=wings', 'start=moon']);
    expect(ignoredNotice(ignored)).toMatch(/^This link's teacher settings name what this lab does not know, ignored: hide=wings, start=moon\./);
    expect(ignoredNotice([])).toBeNull();
    expect(parseTeacher('', '').settings).toEqual(NO_TEACHER);
  });

  it('starts with the Network view or the event log open', () => {
    const { settings, ignored } = parseTeacher('?start=network,eventlog,charts', '');
    expect(settings.start).toEqual(['network', 'eventlog', 'charts']);
    expect(ignored).toEqual([]);
    expect(startView(settings)).toBe('charts');
  });

  it('a hidden control is not also locked, and a hidden view is not started in', () => {
    const { settings } = parseTeacher('?hide=compare&lock=compare,speed&start=compare');
    expect(settings.lock).toEqual(['speed']);
    expect(startView(settings)).toBeNull();
    expect(startView(parseTeacher('?start=editor').settings)).toBe('editor');
  });

  it('writes the settings into a link, keeping its fragment, and reads them back', () => {
    const s = { hide: ['editor', 'params'] as const, lock: ['speed'] as const, start: ['lesson'] as const };
    const url = withTeacher('http://localhost:5173/?present=1&hide=old#s=1.abc&v=0.005', { hide: [...s.hide], lock: [...s.lock], start: [...s.start] });
    expect(url).toBe('http://localhost:5173/?present=1&hide=editor,params&lock=speed&start=lesson#s=1.abc&v=0.005');
    const u = new URL(url);
    expect(parseTeacher(u.search, u.hash).settings).toEqual(s);
    expect(withTeacher('http://x/?hide=editor', NO_TEACHER)).toBe('http://x/');
  });
});
