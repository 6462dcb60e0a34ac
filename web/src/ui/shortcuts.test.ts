import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { commandOf, SHORTCUTS, shortcutsFor } from './shortcuts';
import { NO_TEACHER } from '../lab/teacher';

const press = (key: string, more: Partial<KeyboardEvent> = {}, tagName = 'BODY') =>
  commandOf({ key, ctrlKey: false, metaKey: false, altKey: false, target: { tagName, isContentEditable: false } as unknown as EventTarget, ...more });

describe('keyboard shortcuts', () => {
  it('P, \\ and ? are page-wide commands, except with a modifier or in a field', () => {
    expect(press('p')).toBe('present');
    expect(press('P')).toBe('present');
    expect(press('\\')).toBe('panel');
    expect(press('?')).toBe('help');
    expect(press('x')).toBeNull();
    expect(press('p', { ctrlKey: true })).toBeNull();
    for (const tag of ['INPUT', 'SELECT', 'TEXTAREA']) expect(press('p', {}, tag), tag).toBeNull();
    expect(press('?', {}, 'BUTTON')).toBe('help');
  });

  // QA: the lesson's Next was more than 50 Tab presses from its text.
  it("N and B step the lesson's walk-through, except with a modifier or in a field", () => {
    expect(press('n')).toBe('next-step');
    expect(press('N')).toBe('next-step');
    expect(press('b')).toBe('previous-step');
    expect(press('n', { ctrlKey: true })).toBeNull();
    expect(press('n', {}, 'INPUT')).toBeNull();
    expect(SHORTCUTS.find((s) => s.keys.includes('N'))?.does).toMatch(/^Next step of the lesson/);
  });

  it('the help lists every key a keydown handler of the UI reacts to', () => {
    const ui = dirname(fileURLToPath(import.meta.url));
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : /\.tsx?$/.test(f) && !f.includes('.test.') ? [join(dir, f)] : []));
    const listed = new Set(SHORTCUTS.flatMap((s) => s.keys.flatMap((k) => k.split('+'))).map((k) => k.toLowerCase()));
    // Key names as the source spells them → as the help does ('\\\\' is the backslash key).
    const names: Record<string, string> = { Escape: 'esc', ' ': 'space', '\\\\': '\\' };
    const handled = new Set<string>();
    for (const f of files(ui)) {
      const text = readFileSync(f, 'utf8');
      for (const m of text.matchAll(/\.key === '([^']+)'/g)) handled.add(names[m[1]] ?? m[1].toLowerCase());
      for (const m of text.matchAll(/\.code !== '([^']+)'/g)) handled.add(m[1].toLowerCase());
      for (const m of text.matchAll(/key === '([a-z])'/g)) handled.add(m[1]);
    }
    expect(handled.size).toBeGreaterThan(4);
    for (const k of handled) expect(listed, `the key "${k}" is handled but not in the help`).toContain(k);
  });
});

describe('the shortcuts a teacher link leaves', () => {
  const editorRows = (list: readonly { where?: string }[]) => list.filter((s) => s.where === 'Edit network').length;

  it('lists every shortcut without a teacher link', () => {
    expect(shortcutsFor(NO_TEACHER)).toEqual(SHORTCUTS);
    expect(editorRows(SHORTCUTS)).toBeGreaterThan(5);
  });

  // QA: ?hide=editor still listed Tab to a node, L for a link, Delete… with no editor to use them in.
  it("drops the editor's keys when the editor is hidden or locked, and keeps the rest", () => {
    for (const settings of [{ ...NO_TEACHER, hide: ['editor' as const] }, { ...NO_TEACHER, lock: ['editor' as const] }]) {
      const list = shortcutsFor(settings);
      expect(editorRows(list)).toBe(0);
      expect(list.some((s) => s.keys.includes('P'))).toBe(true);
      // Undo still undoes a live parameter change in the switch settings.
      expect(list.some((s) => s.keys.includes('Ctrl+Z'))).toBe(true);
    }
  });

  it('drops undo and redo when neither the editor nor the switch settings can be used', () => {
    const list = shortcutsFor({ ...NO_TEACHER, hide: ['editor', 'params'] });
    expect(list.some((s) => s.keys.includes('Ctrl+Z') || s.keys.includes('Ctrl+Y'))).toBe(false);
    expect(list.some((s) => s.keys.includes('Space'))).toBe(true);
  });
});
