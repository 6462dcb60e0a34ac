// A sweep's results as tables, pure: runs' rows as `abrsim sweep` prints them (the same columns,
// the same numbers: each value is kept as the engine wrote it), and one row per point with the
// mean and 95 % confidence interval over its seeds of each tabulated metric.

import type { PlanInfo } from '../contract/engine';

/** One column of a run's row: its name, its text as the engine wrote it, and its value. */
export interface RowCell {
  name: string;
  /** JSON text: a number as written (`1.0` stays `1.0`), `null`, or a quoted string. */
  raw: string;
  value: number | string | null;
}

const CELL = /\["((?:[^"\\]|\\.)*)",(null|-?\d[\d.eE+-]*|"(?:[^"\\]|\\.)*")\]/g;

/** Parses a summary row (`[["jain_index",1.0],…,["digest","…"]]`), keeping each value's text. */
export function parseRow(text: string): RowCell[] {
  const out: RowCell[] = [];
  for (const m of text.matchAll(CELL)) {
    const raw = m[2];
    out.push({ name: JSON.parse(`"${m[1]}"`) as string, raw, value: JSON.parse(raw) as number | string | null });
  }
  return out;
}

/** What became of one run: its row, or why it has none. */
export type RunOutcome = { ok: true; cells: RowCell[]; digest: string; wallMs: number } | { ok: false; error: string };

/**
 * Run `index`'s parameter values and seed: seeds vary fastest, then the last parameter (as
 * Plan::run). A point's seeds start at `firstSeed` (the scenario's `run.seed`), or at its own
 * value of the parameter that varies `run.seed` (`plan.seed_param`).
 */
export function runOf(plan: PlanInfo, index: number, firstSeed: number): { values: (number | string)[]; at: number[]; seed: number; point: number } {
  const point = Math.floor(index / plan.seeds);
  let rest = point;
  const values: (number | string)[] = new Array(plan.params.length);
  // Each value's place in its parameter's list.
  const at: number[] = new Array(plan.params.length);
  for (let k = plan.params.length - 1; k >= 0; k--) {
    const vs = plan.params[k].values;
    at[k] = rest % vs.length;
    values[k] = vs[at[k]];
    rest = Math.floor(rest / vs.length);
  }
  const first = plan.seed_param === null ? firstSeed : Number(values[plan.seed_param]);
  return { values, at, seed: first + (index % plan.seeds), point };
}

/** The columns a sweep table shows: the file's `metrics`, else a few totals. */
export const DEFAULT_METRICS = ['jain_index', 'convergence_ms', 'lost_cells', 'max_queue_cells', 'max_utilization'];

export function tableMetrics(plan: PlanInfo): string[] {
  return plan.metrics.length ? plan.metrics : DEFAULT_METRICS.filter((m) => plan.header.includes(m));
}

/** Student's t, two-sided 95 %, by degrees of freedom (1…30); the normal 1.96 beyond. */
const T95 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08,
  2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

export function t95(df: number): number {
  return df >= 1 && df <= T95.length ? T95[df - 1] : df > T95.length ? (df <= 60 ? 2.0 : 1.96) : NaN;
}

/** Mean and 95 % confidence half-width (t-based; null with one value) of some numbers. */
export function meanCi(xs: number[]): { mean: number | null; ci: number | null; n: number } {
  const n = xs.length;
  if (n === 0) return { mean: null, ci: null, n };
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { mean, ci: null, n };
  const variance = xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1);
  return { mean, ci: (t95(n - 1) * Math.sqrt(variance)) / Math.sqrt(n), n };
}

export interface PointRow {
  point: number;
  /** The varied parameters' values. */
  values: (number | string)[];
  /** Its runs (one per seed). */
  runs: number[];
  /** Runs finished (with a row or failed). */
  finished: number;
  /** Why runs failed (one entry per failed run: "seed 2: …"). */
  errors: string[];
  /** Per metric (tableMetrics order): over the seeds with a value. */
  stats: { metric: string; mean: number | null; ci: number | null; n: number }[];
}

/** One row per point of the plan, from the outcomes so far (undefined: not finished yet). */
export function pointTable(plan: PlanInfo, outcomes: readonly (RunOutcome | undefined)[], firstSeed: number): PointRow[] {
  const metrics = tableMetrics(plan);
  const rows: PointRow[] = [];
  for (let p = 0; p < plan.points; p++) {
    const runs = Array.from({ length: plan.seeds }, (_, k) => p * plan.seeds + k);
    const done = runs.map((i) => outcomes[i]).filter((o): o is RunOutcome => o !== undefined);
    const errors = runs.flatMap((i) => {
      const o = outcomes[i];
      return o && !o.ok ? [`seed ${runOf(plan, i, firstSeed).seed}: ${o.error}`] : [];
    });
    const stats = metrics.map((metric) => {
      const xs = done.flatMap((o) => {
        if (!o.ok) return [];
        const v = o.cells.find((c) => c.name === metric)?.value;
        return typeof v === 'number' && Number.isFinite(v) ? [v] : [];
      });
      return { metric, ...meanCi(xs) };
    });
    rows.push({ point: p, values: runOf(plan, runs[0], firstSeed).values, runs, finished: done.length, errors, stats });
  }
  return rows;
}

export function csvField(s: string): string {
  return /[,"\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function csvValue(raw: string): string {
  if (raw === 'null') return '';
  return raw.startsWith('"') ? csvField(JSON.parse(raw) as string) : csvField(raw);
}

/**
 * The finished runs as `abrsim sweep --format csv` prints them: the header (the parameters,
 * `seed`, every summary column), then one line per run in run order; a failed run's line has
 * its reason in the digest column (the last).
 */
export function sweepCsv(
  plan: PlanInfo,
  outcomes: readonly (RunOutcome | undefined)[],
  firstSeed: number,
): string {
  const n = plan.params.length;
  const out = [plan.header.map(csvField).join(',')];
  for (let i = 0; i < plan.runs; i++) {
    const o = outcomes[i];
    if (!o) continue;
    const run = runOf(plan, i, firstSeed);
    // As the engine writes each value (`texts`: 200.0 stays 200.0, as abrsim sweep prints it).
    const value = (v: number | string, k: number) => csvField(plan.params[k].texts?.[run.at[k]] ?? String(v));
    const fields = [...run.values.map(value), String(run.seed)];
    for (const name of plan.header.slice(n + 1)) {
      if (o.ok) {
        const cell = o.cells.find((c) => c.name === name);
        fields.push(cell ? csvValue(cell.raw) : '');
      } else fields.push(name === 'digest' ? csvField(`error: ${o.error}`) : '');
    }
    out.push(fields.join(','));
  }
  return out.join('\n') + '\n';
}
