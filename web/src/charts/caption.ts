// What an exported image says of the run it shows, and what its file is called: the scenario
// (name and id), the seed, the lab's version and, for a comparison, the variants. A figure
// pasted into a report or a slide then names the very run it came from, which a share link or
// the scenario file reproduces. Pure: strings in, strings out.

import { fileSafe } from '../lab/sharing';
import { DEFAULT_SEED } from '../scenario/params';


/** The run an image shows: its scenario and seed, and the lab that drew it. */
export interface RunIdentity {
  /** The scenario's id. */
  id: string;
  /** Its name (left out when empty or the id itself). */
  name?: string;
  /** `run.seed` (absent: DEFAULT_SEED). */
  seed?: number;
  /** The lab's version (absent: not said). */
  version?: string;
}

/** The identity of a scenario as the lab holds it (its id, name and `run.seed`). */
export function runIdentity(scenario: { id?: unknown; name?: unknown; run?: object } | null | undefined, version?: string): RunIdentity {
  const id = typeof scenario?.id === 'string' && scenario.id ? scenario.id : 'scenario';
  const name = typeof scenario?.name === 'string' ? scenario.name.trim() : '';
  const given = (scenario?.run as { seed?: unknown } | undefined)?.seed;
  const seed = typeof given === 'number' ? given : undefined;
  return { id, ...(name ? { name } : {}), ...(seed === undefined ? {} : { seed }), ...(version ? { version } : {}) };
}

/**
 * The caption line of an exported image: `Two sources (two-sources) · seed 1 · ABR Lab 0.1.0`,
 * and for a comparison ` · variants: this scenario; SW1.algorithm = erica_plus`.
 */
export function imageCaption(run: RunIdentity, variants?: readonly string[]): string {
  const scenario = run.name && run.name !== run.id ? `${run.name} (${run.id})` : run.id;
  const parts = [scenario, `seed ${run.seed ?? DEFAULT_SEED}`];
  if (run.version) parts.push(`ABR Lab ${run.version}`);
  if (variants && variants.length) parts.push(`variants: ${variants.join('; ')}`);
  return parts.join(' · ');
}

/**
 * The stem of an exported file's name: the scenario's id and seed, then what the file holds
 * (`two-sources-seed1-rate`), anything but letters, digits, dots, dashes and underscores a dash.
 */
export function exportStem(run: RunIdentity, what: string): string {
  return [fileSafe(run.id), `seed${run.seed ?? DEFAULT_SEED}`, ...(what ? [fileSafe(what)] : [])].join('-');
}

/** The whole run's downloads (the Result tab's): every series as CSV, the summary as JSON. */
export type RunExport = 'series-csv' | 'summary-json';

/**
 * The file name of a whole-run download, named as the charts' files are (scenario id, seed,
 * then what it holds): `two-sources-seed1-series.csv`, `two-sources-seed1-summary.json`
 * (QA: without the seed, the files of two seeds' runs took one name, the second overwriting
 * the first).
 */
export function runExportName(run: RunIdentity, kind: RunExport): string {
  return kind === 'series-csv' ? `${exportStem(run, 'series')}.csv` : `${exportStem(run, 'summary')}.json`;
}
