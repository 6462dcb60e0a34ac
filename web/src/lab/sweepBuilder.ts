// A parameter sweep made in the lab, pure: which of the open scenario's parameters can be swept
// (each switch's algorithm parameters, every switch's when they all run one algorithm, the
// sources' TM 4.0 or Ethernet parameters, each link's rate and delay, each switch's buffer),
// with the catalogue's unit, range and meaning and the value the scenario has now; the values a
// user writes ("0.8, 0.9, 1" or "0.8:0.05:1"); and the scenario with the `sweep` block they make,
// the same block `abrsim sweep --vary PATH=V1,V2,…` makes, whose command is shown beside.

import type { Catalogue, ParamSpec } from '../contract/engine';
import type { Scenario } from '../contract/scenario';
import type { KeyValueStore } from '../scenario/storage';
import { draftsKey, type Place } from '../scenario/place';
import { readableNumber } from '../scenario/params';
import { sameRun } from '../scenario/topologyEdits';
import { exportFileName } from './sharing';

export interface SweepChoice {
  /** The `--set` path that takes each value: also the select's value and the table's column. */
  path: string;
  /** The list's group: "Every switch (ERICA)", "Switch SW1 (ERICA)", "Sources", "Links". */
  group: string;
  /** The entry in its group: "target_utilization", "L3 delay_us". */
  label: string;
  /** The entry as the closed list shows it, where its group is not in sight: what it sets on
   *  which part ("target_utilization (every switch)", "target_utilization (SW1)"; QA: the closed
   *  list read the same for every switch and one switch). */
  name: string;
  spec: ParamSpec;
  /** What the scenario has now (its own value, else the default); null where the engine derives
   *  it from the network (a PCR from the link's rate). */
  current: number | null;
  /** An every-switch (or every-virtual-path) entry whose elements differ: what each has
   *  (`current` is then null; QA: the form said "now derived from the network" for a value the
   *  user had set on one switch). */
  byElement?: { id: string; value: number }[];
}

/** The most values one parameter takes (a range written with a tiny step stops here). */
export const MAX_SWEEP_VALUES = 200;

/** Every parameter of `scenario` a sweep can vary, grouped as the list shows them. */
export function sweepChoices(scenario: Scenario, catalogue: Catalogue): SweepChoice[] {
  const out: SweepChoice[] = [];
  const ethernet = !!scenario.ethernet;
  const algorithms = new Map(catalogue.algorithms.map((a) => [a.id, a]));
  const switches = scenario.nodes.filter((n) => n.kind === 'switch');
  const algorithmOf = (n: (typeof switches)[number]) => n.algorithm ?? (ethernet ? catalogue.default_algorithm.ethernet : catalogue.default_algorithm.atm);
  const kinds = new Set(switches.map(algorithmOf));
  // One algorithm on every switch: `nodes.*` sets them all (as `--vary 'nodes.*.…'` does).
  if (switches.length > 1 && kinds.size === 1) {
    const spec = algorithms.get([...kinds][0]);
    for (const p of spec?.params ?? []) {
      const each = switches.map((n) => ({ id: n.id, value: n.params?.[p.name] ?? p.default }));
      const values = new Set(each.map((x) => x.value));
      const common = { path: `nodes.*.params.${p.name}`, group: `Every switch (${spec!.name})`, label: p.name, name: `${p.name} (every switch)`, spec: p };
      if (values.size === 1) out.push({ ...common, current: [...values][0] });
      else out.push({ ...common, current: null, byElement: each.filter((x): x is { id: string; value: number } => x.value !== null) });
    }
  }
  for (const n of switches) {
    const spec = algorithms.get(algorithmOf(n));
    for (const p of spec?.params ?? []) {
      out.push({ path: `nodes.${n.id}.params.${p.name}`, group: `Switch ${n.id} (${spec!.name})`, label: p.name, name: `${p.name} (${n.id})`, spec: p, current: n.params?.[p.name] ?? p.default });
    }
    const buffer = catalogue.fields.switch.find((f) => f.name === (ethernet ? 'buffer_bytes' : 'buffer_cells'));
    if (buffer) {
      const own = ethernet ? n.buffer_bytes : n.buffer_cells;
      out.push({ path: `nodes.${n.id}.${buffer.name}`, group: `Switch ${n.id} (${spec?.name ?? algorithmOf(n)})`, label: buffer.name, name: `${buffer.name} (${n.id})`, spec: buffer, current: own ?? buffer.default });
    }
  }
  for (const p of ethernet ? catalogue.ethernet_source_params : catalogue.source_params) {
    out.push({
      path: `defaults.source.${p.name}`,
      group: ethernet ? 'Every host (defaults.source)' : 'Every source (defaults.source)',
      label: p.name,
      name: `${p.name} (${ethernet ? 'every host' : 'every source'})`,
      spec: p,
      current: scenario.defaults?.source?.[p.name] ?? p.default,
    });
  }
  const rate = catalogue.fields.link.find((f) => f.name === 'rate_mbps');
  const delay = catalogue.fields.link.find((f) => f.name === 'delay_us');
  for (const l of scenario.links) {
    if (rate) out.push({ path: `links.${l.id}.rate_mbps`, group: 'Links', label: `${l.id} rate_mbps`, name: `${l.id} rate_mbps`, spec: rate, current: l.rate_mbps ?? rate.default });
    if (delay) {
      const us = l.delay_us ?? (l.distance_km !== undefined && l.distance_km !== null ? l.distance_km * catalogue.delay_us_per_km : null);
      out.push({ path: `links.${l.id}.delay_us`, group: 'Links', label: `${l.id} delay_us`, name: `${l.id} delay_us`, spec: delay, current: us === null ? null : +us.toPrecision(12) });
    }
  }
  // Virtual paths (ATM): each one's fields, and every path's where there are several, as
  // `--vary 'virtual_paths.*.buffer_cells=…'` sets them all (the engine's `set_at` finds a list's
  // element by id, `*` every element).
  const paths = scenario.virtual_paths ?? [];
  for (const f of paths.length > 0 ? catalogue.fields.virtual_path : []) {
    const own = (vp: (typeof paths)[number]) => ((vp as Record<string, unknown>)[f.name] as number | null | undefined) ?? f.default;
    if (paths.length > 1) {
      const each = paths.map((vp) => ({ id: vp.id, value: own(vp) }));
      const values = new Set(each.map((x) => x.value));
      const common = { path: `virtual_paths.*.${f.name}`, group: 'Every virtual path', label: f.name, name: `${f.name} (every virtual path)`, spec: f };
      if (values.size === 1) out.push({ ...common, current: [...values][0] });
      else out.push({ ...common, current: null, byElement: each.filter((x): x is { id: string; value: number } => x.value !== null) });
    }
    for (const vp of paths) {
      out.push({ path: `virtual_paths.${vp.id}.${f.name}`, group: 'Virtual paths', label: `${vp.id} ${f.name}`, name: `${vp.id} ${f.name}`, spec: f, current: own(vp) });
    }
  }
  return out;
}

/**
 * The value a Compare variant's pick writes for a parameter, for the user to type over: what it
 * has now; where an every-switch (or every-path) entry's elements differ, the first one's (QA:
 * the pick wrote `nodes.*.params.target_utilization=` with nothing after it, which the run
 * refused); the catalogue's default; '' only where the engine derives the value and the
 * scenario gives none (a PCR from the link's rate).
 */
export function startingValue(c: SweepChoice): string {
  const v = c.current ?? c.byElement?.[0]?.value ?? c.spec.default;
  return v === null || v === undefined ? '' : String(v);
}

/** A number as `--vary` and JSON read one: decimal, maybe signed, maybe with an exponent (not
 *  '0x10' or 'Infinity', which JavaScript's Number() would take). */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

function numberOf(word: string): number | { error: string } {
  if (!DECIMAL.test(word)) return { error: `'${word}' is not a number` };
  const v = Number(word);
  return Number.isFinite(v) ? v : { error: `'${word}' is too large a number` };
}

/** A range start:step:stop: its values, the stop taken when a step lands on it (as the engine's
 *  `--vary` reads one). */
function rangeValues(word: string): number[] | { error: string } {
  const parts = word.split(':');
  if (parts.length !== 3) return { error: `a range is start:step:stop (three numbers), not '${word}'` };
  const numbers = parts.map((p) => (p === '' ? { error: '' } : numberOf(p)));
  const bad = numbers.findIndex((n) => typeof n !== 'number');
  if (bad >= 0) return { error: `'${parts[bad]}' in the range is not a number` };
  const [start, step, stop] = numbers as number[];
  if (step === 0 || Math.sign(stop - start) * Math.sign(step) < 0) {
    return { error: `the step ${step} does not lead from ${start} to ${stop}` };
  }
  const count = Math.floor((stop - start) / step + 1e-9) + 1;
  if (count > MAX_SWEEP_VALUES) return { error: `the range gives ${count} values; a sweep of one parameter takes at most ${MAX_SWEEP_VALUES}` };
  return Array.from({ length: count }, (_, k) => +(start + k * step).toPrecision(12));
}

/**
 * The values written in the form: numbers apart by commas or spaces ("0.8, 0.9, 1"), any of them
 * a range start:step:stop ("0.8:0.05:1", the stop taken when a step lands on it), as `--vary`
 * takes them. `vary`, where a range is written: the list as `--vary` takes it ("0.5,0.8:0.1:1"),
 * for the command. The parameter's range is `valuesOutOfRange`'s.
 */
export function parseSweepValues(text: string): { values: number[]; vary?: string } | { error: string } {
  const t = text.trim();
  if (!t) return { error: 'write the values to run, e.g. 0.8, 0.9, 1 or 0.8:0.05:1' };
  // Spaces around a range's colons belong to the range, not between two values.
  const words = t.replace(/\s*:\s*/g, ':').split(/[\s,;]+/).filter(Boolean);
  const values: number[] = [];
  for (const w of words) {
    const r = w.includes(':') ? rangeValues(w) : numberOf(w);
    if (typeof r === 'object' && 'error' in r) return r;
    values.push(...(typeof r === 'number' ? [r] : r));
  }
  if (values.length > MAX_SWEEP_VALUES) return { error: `${values.length} values; a sweep of one parameter takes at most ${MAX_SWEEP_VALUES}` };
  const twice = values.find((v, i) => values.indexOf(v) !== i);
  if (twice !== undefined) return { error: `${twice} is written twice` };
  return words.some((w) => w.includes(':')) ? { values, vary: words.join(',') } : { values };
}

/** The first of `values` the parameter does not take (out of its range, or not whole where it
 *  must be), said as a rule; null when it takes them all. The catalogue's range is the engine's. */
export function valuesOutOfRange(spec: ParamSpec, values: readonly number[]): string | null {
  const out = values.find((v) => v < spec.min || v > spec.max);
  if (out !== undefined) return `${readableNumber(out)} is out of range: ${spec.name} is from ${readableNumber(spec.min)} to ${readableNumber(spec.max)}`;
  const part = spec.integer ? values.find((v) => !Number.isInteger(v)) : undefined;
  if (part !== undefined) return `${part} is not a whole number: ${spec.name} takes whole numbers`;
  return null;
}

/** A catalogue line as a sentence, for the text that follows it (its meaning may end without a
 *  stop, or in a bracket without one: QA, "…to fill the queue) Range 1–2"). */
export function sentence(text: string): string {
  const t = text.trim();
  return /[.!?]\)?$/.test(t) ? t : `${t}.`;
}

/** Values to start from: evenly spaced around the current value (from half to one and a half
 *  times it, a round step), within the parameter's range; a 0/1 switch both; none without a
 *  current value. */
export function suggestedValues(spec: ParamSpec, current: number | null): number[] {
  if (spec.integer && spec.min === 0 && spec.max === 1) return [0, 1];
  if (current === null || !Number.isFinite(current)) return [];
  const lo = Math.max(spec.min, current === 0 ? spec.min : current * 0.5);
  const hi = Math.min(spec.max, current === 0 ? Math.min(spec.max, spec.min + 1) : current * 1.5);
  if (!(hi > lo)) return [current];
  const raw = (hi - lo) / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const round = Math.max(...[1, 2, 2.5, 5].map((k) => k * power).filter((s) => s <= raw));
  const step = spec.integer ? Math.max(1, Math.round(round)) : round;
  const values: number[] = [];
  for (let k = -Math.floor((current - lo) / step + 1e-9); current + k * step <= hi + step * 1e-9; k++) values.push(+(current + k * step).toPrecision(12));
  return values;
}

/** Whether two `--set` paths can set one place: the same keys, or a `*` where the other names
 *  an element (`nodes.*.params.delta` and `nodes.SW1.params.delta`). */
export function pathsOverlap(a: string, b: string): boolean {
  const x = a.split('.');
  const y = b.split('.');
  return x.length === y.length && x.every((k, i) => k === y[i] || k === '*' || y[i] === '*');
}

/** Whether the form can show and write one of a sweep block's parameters: one path it lists,
 *  numbers, no scale. */
export function formVaries(v: NonNullable<Scenario['sweep']>['vary'][number], choices: readonly SweepChoice[]): boolean {
  return v.paths.length === 1 && v.scale === undefined && choices.some((c) => c.path === v.paths[0]) && v.values.every((x) => typeof x === 'number');
}

/** What a sweep block varies that the form cannot write (an algorithm, several paths at once, a
 *  scale), by name: the form's sweep, and its Keep, go without them. */
export function blockLeftOut(block: Scenario['sweep'], choices: readonly SweepChoice[]): string[] {
  return (block?.vary ?? []).filter((v) => !formVaries(v, choices)).map((v) => v.name ?? v.paths.join(' + '));
}

/** One varied parameter: its path and its values. */
export interface SweptParam {
  path: string;
  values: number[];
  /** The values as a range was written (start:step:stop), which `--vary` takes as it is. */
  range?: string;
}

/** The most parameters the form varies at once (a grid of every combination). */
export const MAX_SWEPT_PARAMS = 3;

/** The scenario with a sweep of `params` (the first varies slowest), `seeds` runs a point. What
 *  its own sweep block says beside its values stays (QA: its metrics were lost): its metrics, and
 *  a column's name where the parameter is one the block varies, alone and unscaled. */
export function withParameterSweep(scenario: Scenario, params: SweptParam[], seeds: number): Scenario {
  const block = scenario.sweep;
  const nameOf = (path: string) => block?.vary.find((v) => v.paths.length === 1 && v.paths[0] === path && v.scale === undefined)?.name;
  const vary = params.map((p) => {
    const name = nameOf(p.path);
    return { ...(name !== undefined ? { name } : {}), paths: [p.path], values: p.values };
  });
  return { ...scenario, sweep: { vary, ...(seeds > 1 ? { seeds } : {}), ...(block?.metrics ? { metrics: block.metrics } : {}) } };
}

/** The scenario file a sweep command names: the library's, or the one Export saves. */
export interface SweepFile {
  /** As the command names it: `scenarios/<id>.json` (from the repository's root), or the
   *  exported file's name (from the folder it is saved in). */
  path: string;
  /** The scenario open is not the library's file as it is: the command runs only on the file
   *  Export saves (named `path`), which must be saved first. */
  exportFirst: boolean;
  /** The library's file of the same id that it is not (it has been changed): the form says so. */
  notLibrary?: string;
}

/**
 * The file whose sweep makes the form's runs: the library's own when the scenario open runs as
 * it does (`sameRun`: drawn or described otherwise at most, whatever it was opened from), else
 * the file Export saves of it (QA: after L3 was set to 100 Mbps in two-sources, the command
 * named two-sources.json with nothing to say it was not the library's: run from the
 * repository, it swept the library's two-sources, other runs than the form's).
 */
export function sweepFile(current: Scenario, library: Scenario | undefined): SweepFile {
  const own = library && library.id === current.id ? `scenarios/${library.id}.json` : null;
  if (own && sameRun(library!, current)) return { path: own, exportFirst: false };
  return { path: exportFileName(current, library), exportFirst: true, ...(own ? { notLibrary: own } : {}) };
}

/**
 * The `abrsim sweep` command that makes the same runs on `file` (`sweepFile`'s path). `block`, the
 * scenario's own sweep block: the form's sweep takes its place (`withParameterSweep`), while
 * `--vary` adds to a file's block (replacing a parameter of the same path) and `--seeds` defaults
 * to its seeds, so the command empties the block's values where it varies one the form does not
 * (`--set 'sweep.vary=[]'`) and says the form's seeds where the block's differ
 * (QA: on a block of three seeds, the command of a one-seed form sweep ran three, and the
 * block's other parameters too).
 */
export function parameterSweepCommand(file: string, params: SweptParam[], seeds: number, block?: Scenario['sweep']): string {
  // A block's parameter the form varies too is replaced by its --vary (keeping its name).
  const replaced = (v: NonNullable<Scenario['sweep']>['vary'][number]) => v.paths.length === 1 && params.some((p) => p.path === v.paths[0]);
  const empty = block && !(block.vary ?? []).every(replaced) ? ` --set 'sweep.vary=[]'` : '';
  const vary = params.map((p) => {
    const arg = `${p.path}=${p.range ?? p.values.join(',')}`;
    return ` --vary ${/^[\w.=,:-]+$/.test(arg) ? arg : `'${arg}'`}`;
  });
  const seedsArg = seeds > 1 || (block?.seeds ?? 1) !== seeds ? ` --seeds ${seeds}` : '';
  return `abrsim sweep ${file}${empty}${vary.join('')}${seedsArg}`;
}

/** What the form holds for one scenario: each parameter's path and values as written. */
export interface SweepDraft {
  params: { path: string; values: string }[];
  seeds: number;
}

/** A parameter as the form first offers it: with values around its current one. */
export function freshParam(c: SweepChoice): SweepDraft['params'][number] {
  return { path: c.path, values: suggestedValues(c.spec, c.current).join(', ') };
}

/**
 * What the form holds for a scenario (`choices`, its parameters): its kept draft's parameters
 * the scenario offers; nothing kept, its sweep block's the form can write (one path, numbers,
 * no scale), to change from; else its first parameter with suggested values. Null when it
 * offers none.
 */
export function formDraft(choices: readonly SweepChoice[], kept: SweepDraft | null, block: Scenario['sweep']): SweepDraft | null {
  const known = kept?.params.filter((p) => choices.some((c) => c.path === p.path)) ?? [];
  if (kept && known.length > 0) return { ...kept, params: known };
  const fromBlock = (block?.vary ?? [])
    .filter((v) => formVaries(v, choices))
    .slice(0, MAX_SWEPT_PARAMS)
    .map((v) => ({ path: v.paths[0], values: v.values.join(', ') }));
  if (fromBlock.length > 0) return { params: fromBlock, seeds: formSeeds(block?.seeds) ?? 1 };
  return choices[0] ? { params: [freshParam(choices[0])], seeds: 1 } : null;
}

/** What a sweep block varies, as a kept sweep says it (`sweepVaries` of a scenario with that
 *  block): each entry's paths, apart by commas, the entries apart by ` × `. */
export function blockVaries(block: unknown): string {
  const vary = (block as { vary?: { paths?: unknown }[] } | null | undefined)?.vary;
  if (!Array.isArray(vary)) return '';
  return vary.map((v) => (Array.isArray(v?.paths) ? v.paths.map(String).join(',') : '')).join(' × ');
}

/** What the sweep a draft makes varies, as a kept sweep says it: `blockVaries` of the block
 *  `withParameterSweep` makes (each parameter's one path, the first first), so the two cannot
 *  drift apart. */
export function draftVaries(draft: SweepDraft): string {
  return blockVaries({ vary: draft.params.map((p) => ({ paths: [p.path] })) });
}

/** The most seeds per point the form offers (the engine's own limit is higher). */
export const MAX_FORM_SEEDS = 100;

/** The form's one rule for seeds: a count it takes (a whole number from 1 to MAX_FORM_SEEDS),
 *  else null — a kept draft's, a sweep block's it starts from (QA: a block of 20,000 seeds, which
 *  the engine refuses, filled the field unchecked), or what is typed. */
export function formSeeds(v: unknown): number | null {
  return Number.isInteger(v) && (v as number) >= 1 && (v as number) <= MAX_FORM_SEEDS ? (v as number) : null;
}

/**
 * A stored draft as the form can take it, or null when nothing of it is usable: what is invalid
 * is dropped (QA: an old draft with seeds 500 was used as it was), a parameter without a path or
 * values, those past the form's three, seeds that are not 1 to 100 (then 1). Storage may hold
 * anything: a page of an older version wrote it, or a user edited it.
 */
export function storedDraft(v: unknown): SweepDraft | null {
  if (!v || typeof v !== 'object') return null;
  const d = v as { params?: unknown; seeds?: unknown };
  const params = (Array.isArray(d.params) ? d.params : [])
    .filter((p: unknown): p is SweepDraft['params'][number] => {
      const q = p as { path?: unknown; values?: unknown } | null;
      return !!q && typeof q === 'object' && typeof q.path === 'string' && q.path !== '' && typeof q.values === 'string';
    })
    .slice(0, MAX_SWEPT_PARAMS)
    .map((p) => ({ path: p.path, values: p.values }));
  if (params.length === 0) return null;
  const seeds = formSeeds(d.seeds) ?? 1;
  return { params, seeds };
}

/** Where the drafts are kept, by place (`library:<id>`, `mine:<id>`, `id:<id>`: `draftsKey`). */
const DRAFTS_KEY = 'abrlab.sweep-drafts-by-place';
/** Where they were kept before, by the scenario JSON's id: read, never written. */
const DRAFTS_BY_ID_KEY = 'abrlab.sweep-drafts';
const DRAFTS_KEPT = 20;

/** The [key, draft] pairs a stored text holds, oldest written first; what does not read is left out. */
function draftsIn(text: string | null): [string, SweepDraft][] {
  if (text === null) return [];
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((e: unknown) => {
      if (!Array.isArray(e) || typeof e[0] !== 'string') return [];
      const d = storedDraft(e[1]);
      return d ? [[e[0], d] as [string, SweepDraft]] : [];
    });
  } catch {
    return [];
  }
}

/**
 * The form as last written per scenario place, kept in the browser's storage (the 20 last
 * written), so that a reload or a return to the scenario finds it as it was left. By place, as
 * Compare's variants are: a library scenario and the user's copy of it (which keeps its JSON id)
 * have a form each. A draft kept by id before is still read for a scenario of that id, until its
 * form is written again.
 */
export class SweepDrafts {
  private memory: [string, SweepDraft][];
  private readonly earlier: [string, SweepDraft][];
  private pageOnly = false;

  constructor(private readonly store: KeyValueStore | null = null) {
    this.memory = this.read();
    this.earlier = draftsIn(this.item(DRAFTS_BY_ID_KEY));
  }

  get(place: Place, scenarioId: string | null): SweepDraft | null {
    const key = draftsKey(place, scenarioId);
    if (key === null) return null;
    const all = this.store && !this.pageOnly ? this.read() : this.memory;
    return all.find(([k]) => k === key)?.[1] ?? this.earlier.find(([id]) => id === scenarioId)?.[1] ?? null;
  }

  set(place: Place, scenarioId: string | null, draft: SweepDraft) {
    const key = draftsKey(place, scenarioId);
    if (key === null) return;
    const all = (this.store && !this.pageOnly ? this.read() : this.memory).filter(([k]) => k !== key);
    all.push([key, draft]);
    this.memory = all.slice(-DRAFTS_KEPT);
    if (!this.store || this.pageOnly) return;
    try {
      this.store.setItem(DRAFTS_KEY, JSON.stringify(this.memory));
    } catch {
      this.pageOnly = true;
    }
  }

  /** The open scenario moved (a change made a library scenario the user's own): its form goes
   *  with it, where the new place has none; the old place keeps its own. */
  moved(from: Place, to: Place, scenarioId: string | null) {
    const draft = this.get(from, scenarioId);
    const key = draftsKey(to, scenarioId);
    const all = this.store && !this.pageOnly ? this.read() : this.memory;
    if (draft && key !== null && !all.some(([k]) => k === key)) this.set(to, scenarioId, draft);
  }

  private item(key: string): string | null {
    try {
      return this.store?.getItem(key) ?? null;
    } catch {
      return null;
    }
  }

  private read(): [string, SweepDraft][] {
    let text: string | null;
    try {
      text = this.store?.getItem(DRAFTS_KEY) ?? null;
    } catch {
      return this.memory ?? [];
    }
    if (text === null) return this.memory ?? [];
    return draftsIn(text);
  }
}
