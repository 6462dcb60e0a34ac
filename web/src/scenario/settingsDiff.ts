// What sets two runs of one network apart: the settings (algorithms, parameters, seed, run
// settings, links, connections, recorded changes) in which two scenarios differ, named by the
// `--set` paths of `abrsim run` and sweeps (`nodes.SW1.params.n0`), with the prose and the
// drawing (names, lesson, node positions) left out. Pure: the pinned run's legend reads it.

import type { Scenario } from '../contract/scenario';

/** One setting that differs: its path, and its value in each scenario (undefined: absent). */
export interface SettingDiff {
  path: string;
  a: unknown;
  b: unknown;
}

/** Fields that do not change a run. */
const PROSE = new Set(['name', 'group', 'description', 'source', 'lesson', 'sweep', 'reference']);
const LAYOUT = new Set(['x', 'y']);
/** Lists whose items have ids: addressed by id, as `--set` paths are. */
const BY_ID = new Set(['nodes', 'links', 'connections', 'virtual_paths']);

function leaves(value: unknown, path: string, out: Map<string, unknown>, top = false) {
  if (Array.isArray(value)) {
    const key = path.slice(path.lastIndexOf('.') + 1);
    const byId = top && BY_ID.has(key) && value.every((v) => v && typeof v === 'object' && typeof (v as { id?: unknown }).id === 'string');
    if (!byId) {
      out.set(path, JSON.stringify(value));
      return;
    }
    for (const item of value as { id: string }[]) leaves(item, `${path}.${item.id}`, out);
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (top && PROSE.has(k)) continue;
      if (!top && LAYOUT.has(k) && path.startsWith('nodes.')) continue;
      leaves(v, path ? `${path}.${k}` : k, out, top && path === '');
    }
    return;
  }
  out.set(path, value);
}

/** The settings in which `b` differs from `a`, in `a`'s order, then those only `b` has. */
export function settingsDiff(a: Scenario, b: Scenario): SettingDiff[] {
  const la = new Map<string, unknown>();
  const lb = new Map<string, unknown>();
  leaves(a, '', la, true);
  leaves(b, '', lb, true);
  const out: SettingDiff[] = [];
  for (const [path, v] of la) if (lb.get(path) !== v) out.push({ path, a: v, b: lb.get(path) });
  for (const [path, v] of lb) if (!la.has(path)) out.push({ path, a: undefined, b: v });
  return out.filter((d) => d.path !== 'id' && d.path !== 'version');
}

/** A setting as a reader says it: `SW1 n0`, `L1 delay_us`, `seed`, `changes`. */
export function settingName(path: string): string {
  return path
    .replace(/^(nodes|links|connections|virtual_paths)\./, '')
    .replace(/^run\./, '')
    .replace('.params.', ' ')
    .replace(/\./g, ' ');
}

function show(v: unknown, path: string): string {
  // Absent: the engine's default (no recorded changes: none).
  if (v === undefined) return path === 'changes' ? '0' : 'default';
  if (typeof v === 'string' && v.startsWith('[')) {
    // A list (e.g. the recorded changes): how many.
    try {
      const list = JSON.parse(v) as unknown[];
      return Array.isArray(list) ? `${list.length}` : v;
    } catch {
      return v;
    }
  }
  return String(v);
}

/**
 * How the pinned run `pinned` differs from the run now shown (`now`), in words: "SW1 algorithm
 * erica (now erica_plus); seed 1 (now 2)". Only the first `max` settings, then how many more.
 */
export function describePinned(pinned: Scenario, now: Scenario, max = 3): string {
  const diffs = settingsDiff(pinned, now);
  if (diffs.length === 0) return 'same settings';
  const said = diffs.slice(0, max).map((d) => `${settingName(d.path)} ${show(d.a, d.path)} (now ${show(d.b, d.path)})`);
  if (diffs.length > max) said.push(`${diffs.length - max} more`);
  return said.join('; ');
}
