import { describe, expect, it } from 'vitest';
import { buildLibrary, DEFAULT_SCENARIO, groupLibrary, LIBRARY } from './library';

describe('scenario library', () => {
  it('bundles every scenarios/*.json, the default among them, none broken', () => {
    expect(LIBRARY.broken).toEqual([]);
    expect(LIBRARY.entries.map((e) => e.id)).toContain(DEFAULT_SCENARIO);
    for (const e of LIBRARY.entries) {
      expect(e.group).not.toBe('Other');
      // The picker and the side panel show it: one line, present for every file.
      expect(e.description.length, `${e.id} description`).toBeGreaterThan(20);
      expect(e.description, `${e.id} description`).not.toMatch(/\n/);
      expect(e.scenario.version).toBe(1);
    }
  });

  it('groups entries by their group field and reports files that are not JSON', () => {
    const { entries, broken } = buildLibrary({
      '/s/b.json': '{"id":"b","name":"B","group":"G2"}',
      '/s/a.json': '{"id":"a","name":"A","group":"G1"}',
      '/s/c.json': '{"id":"c","name":"C","group":"G1"}',
      '/s/bad.json': '{',
    });
    expect(broken).toHaveLength(1);
    expect(broken[0]).toMatch(/^bad\.json/);
    expect(groupLibrary(entries).map(([g, es]) => [g, es.map((e) => e.id)])).toEqual([
      ['G1', ['a', 'c']],
      ['G2', ['b']],
    ]);
  });
});
