// The scenario library: every scenarios/*.json of the repository, bundled at build time.

import type { Scenario } from '../contract/scenario';

export interface LibraryEntry {
  id: string;
  name: string;
  group: string;
  description: string;
  /** The file's text, sent to the engine as is. */
  json: string;
  scenario: Scenario;
}

const files = import.meta.glob<string>('../../../scenarios/*.json', { eager: true, query: '?raw', import: 'default' });

/** Parses library files; a file that is not even JSON is reported and left out. */
export function buildLibrary(raw: Record<string, string>): { entries: LibraryEntry[]; broken: string[] } {
  const entries: LibraryEntry[] = [];
  const broken: string[] = [];
  for (const [path, json] of Object.entries(raw)) {
    const file = path.split('/').pop()!;
    try {
      const scenario = JSON.parse(json) as Scenario;
      entries.push({
        id: scenario.id || file.replace(/\.json$/, ''),
        name: scenario.name || scenario.id || file,
        group: scenario.group || 'Other',
        description: scenario.description ?? '',
        json,
        scenario,
      });
    } catch (e) {
      broken.push(`${file}: ${(e as Error).message}`);
    }
  }
  entries.sort((a, b) => a.group.localeCompare(b.group) || a.name.localeCompare(b.name));
  return { entries, broken };
}

/** Entries grouped by their `group`, groups in order. */
export function groupLibrary(entries: LibraryEntry[]): [string, LibraryEntry[]][] {
  const groups = new Map<string, LibraryEntry[]>();
  for (const e of entries) {
    if (!groups.has(e.group)) groups.set(e.group, []);
    groups.get(e.group)!.push(e);
  }
  return [...groups];
}

export const LIBRARY = buildLibrary(files);

export const DEFAULT_SCENARIO = 'two-sources';
