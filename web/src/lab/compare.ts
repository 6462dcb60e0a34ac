// A comparison, pure: the current scenario and up to four variants, each the current scenario
// (or another library scenario of the same topology) with `--set` overrides — an algorithm per
// switch (`nodes.SW1.algorithm=erica_plus`, `nodes.*.algorithm=erica`), any parameter
// (`nodes.SW1.params.target_utilization=0.8`), a seed (`run.seed=2`). Planning refuses more than
// five runs, a scenario of another topology, an unknown library scenario, a variant that
// changes nothing and one whose later assignment undoes an earlier one (`overriddenSet`), naming
// the variant and the rule. The overrides themselves are applied by the engine (a batch job,
// `applyVariant`), by the very rules of `abrsim run --set`, which also refuses one that does not
// apply or changes the topology; then the engine checks every value.
// The summaries are laid side by side from the runs' sweep rows, and a cell is marked when it
// differs from the first run's by more than a tolerance.

import { decodeScenario, encodeScenario, type TextLibrary } from '../scenario/share';
import { csvField, type RowCell } from './sweepTable';
import type { DisplayUnit } from '../contract/units';

/** The current scenario and at most four variants. */
export const MAX_COMPARE_RUNS = 5;

/** One variant: where it starts from and what it changes. */
export interface VariantSpec {
  /** A library scenario's id to start from; absent: the current scenario. */
  from?: string;
  /** `PATH=VALUE` assignments, applied in order (the rules of the engine's `--set`). */
  sets: string[];
}

/** The scenarios a plan may draw on: the library's, by id (their JSON). */
export type ScenarioLookup = (id: string) => string | undefined;

export interface PlannedRun {
  /** What the run is, for headers: "current", "SW1.algorithm = erica_plus", "vsvd-1-end-to-end". */
  label: string;
  /** The scenario the run starts from (JSON): the current one or a library one. */
  json: string;
  /** The `--set` overrides the engine applies to it before the run (none for the current one). */
  sets: string[];
  /** The variant's number in the form (1, 2, …; 0 for the current scenario): a blank variant
   *  left out leaves a gap, and the engine's problems name the variant the user wrote. */
  variant: number;
}

/** A refusal: the variant (1-based; 0 for the plan as a whole) and the rule it breaks. */
export interface CompareProblem {
  variant: number;
  rule: string;
}

export type Plan = { ok: true; runs: PlannedRun[] } | { ok: false; problems: CompareProblem[] };

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
/** The ids of a scenario's nodes and links: two scenarios with equal keys are one topology. */
export function topologyKey(doc: { nodes?: { id: string }[]; links?: { id: string }[] }): string {
  const ids = (list: { id: string }[] | undefined) => (list ?? []).map((x) => x.id).sort().join(',');
  return `nodes ${ids(doc.nodes)}; links ${ids(doc.links)}`;
}

function sameTopologyProblem(base: Json, other: Json, otherId: string, baseId: string): string | null {
  const a = topologyKey(base as never);
  const b = topologyKey(other as never);
  if (a === b) return null;
  return `'${otherId}' is not of the same topology as '${baseId}' (a variant must have the same node and link ids)`;
}

/**
 * A variant's overrides text with an assignment of `path` to write: the text as it is where it
 * sets `path` already, else with `path=value` added at its end; `select`: where the value is
 * (from, to), for the field to select so that typing replaces it.
 */
export function withSetFor(sets: string, path: string, value: string): { sets: string; select: [number, number] } {
  const found = new RegExp(`(^|\\s)${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}=(\\S*)`).exec(sets);
  if (found) {
    const from = found.index + found[1].length + path.length + 1;
    return { sets, select: [from, from + found[2].length] };
  }
  const head = sets.trimEnd();
  const text = `${head}${head ? ' ' : ''}${path}=${value}`;
  return { sets: text, select: [text.length - value.length, text.length] };
}

/** A short name for a variant: what it starts from and what it sets. */
export function variantLabel(spec: VariantSpec, doc?: unknown): string {
  const sets = everySwitchSets(spec.sets, doc).map((s) => s.replace(/^nodes\./, '').replace('=', ' = '));
  return [spec.from, ...sets].filter(Boolean).join(', ') || 'same as the current scenario';
}

/**
 * `sets` with one algorithm picked for each switch of `doc` (the form's "every switch" list:
 * `nodes.SW1.algorithm=erica` … `nodes.SW5.algorithm=erica`) said as the CLI says it,
 * `nodes.*.algorithm=erica`, in the place of the first; as they are otherwise.
 */
function everySwitchSets(sets: readonly string[], doc: unknown): string[] {
  const switches = ((doc as { nodes?: { id?: unknown; kind?: unknown }[] } | undefined)?.nodes ?? []).filter((n) => n.kind === 'switch').map((n) => String(n.id));
  const picks = sets.flatMap((set, at) => {
    const m = ALGORITHM_SET.exec(set);
    return m && switches.includes(m[1]) ? [{ at, id: m[1], algorithm: m[2] }] : [];
  });
  const algorithms = new Set(picks.map((p) => p.algorithm));
  const ids = new Set(picks.map((p) => p.id));
  if (switches.length < 2 || algorithms.size !== 1 || ids.size !== picks.length || switches.some((id) => !ids.has(id))) return [...sets];
  const first = picks[0].at;
  const mine = new Set(picks.map((p) => p.at));
  return sets.flatMap((set, at) => (at === first ? [`nodes.*.algorithm=${picks[0].algorithm}`] : mine.has(at) ? [] : [set]));
}

/**
 * The first assignment a later one undoes, said as a rule; null when none does. A later
 * assignment undoes an earlier one when it sets the very place with another value (the same
 * path; one with `*` where the earlier names an element, `nodes.*.algorithm` after
 * `nodes.SW1.algorithm`), or a place that holds it with a value that does not keep it
 * (`nodes.SW1.params={…}` after `nodes.SW1.params.target_utilization=0.8`). Either way the
 * earlier value would be lost without a word (a switch's algorithm picked in the list and typed
 * too): the user says which. The general before the particular (`nodes.*.algorithm=eprca
 * nodes.SW1.algorithm=ut`, an object and then one of its fields) undoes nothing and stays
 * allowed. Values are read as the engine reads them (JSON, else text): `0.8` and `0.80` are one.
 *
 * With `doc`, the scenario the assignments apply to, a list's element is found as `--set`
 * finds it, so that its id and its index name one place, an id may hold dots (`nodes.S.W`),
 * and `*` in `nodes` stands for every switch; without, the keys are compared as written.
 */
export function overriddenSet(sets: readonly string[], doc?: unknown): string | null {
  const given = sets.flatMap((set) => {
    const at = set.indexOf('=');
    if (at < 0) return [];
    const path = set.slice(0, at);
    const raw = set.slice(at + 1);
    return [{ path, raw, value: commandValue(raw), place: placeOf(path.split('.'), doc) }];
  });
  for (const [k, later] of given.entries()) {
    for (const earlier of given.slice(0, k)) {
      const depth = later.place.length;
      if (depth > earlier.place.length || !later.place.every((step, i) => covers(step, earlier.place[i]))) continue;
      const kept = valueBelow(later.value, earlier.place.slice(depth));
      if (kept !== undefined && sameJson(kept, earlier.value)) continue;
      if (depth < earlier.place.length) {
        return `it sets ${earlier.path} to ${earlier.raw}, and then ${later.path}, which holds it, to ${later.raw}: keep one`;
      }
      const by = later.path === earlier.path ? '' : `(by ${later.path}) `;
      return `it sets ${earlier.path} twice, to ${earlier.raw} and ${by}to ${later.raw}: keep one`;
    }
  }
  return null;
}

/** One step of a path as the place it names: a field, some elements of a list (their indexes
 *  in the scenario), or `*` where the scenario does not say what it stands for. */
type Step = { key: string } | { elements: readonly number[] } | 'any';

/** Where `keys` leads in `doc`, by the rules of the engine's `set_at`; past what `doc` holds (or
 *  with none), the keys as written. */
function placeOf(keys: readonly string[], doc: unknown): Step[] {
  const steps: Step[] = [];
  let cur = doc;
  for (let at = 0; at < keys.length; ) {
    const key = keys[at];
    if (Array.isArray(cur)) {
      const items: unknown[] = cur;
      if (key === '*') {
        const switchesOnly = at === 1 && keys[0] === 'nodes';
        steps.push({ elements: items.flatMap((x, i) => (!switchesOnly || fieldOf(x, 'kind') === 'switch' ? [i] : [])) });
        // The elements may differ below: what follows is read as written.
        cur = undefined;
        at += 1;
        continue;
      }
      // An id may hold dots: the longest run of keys that is an element's id; else an index.
      let found: { pos: number; taken: number } | undefined;
      for (let n = keys.length - at; n >= 1 && !found; n--) {
        const id = keys.slice(at, at + n).join('.');
        const pos = items.findIndex((x) => fieldOf(x, 'id') === id);
        if (pos >= 0) found = { pos, taken: n };
      }
      if (!found && /^\d+$/.test(key) && Number(key) < items.length) found = { pos: Number(key), taken: 1 };
      if (found) {
        steps.push({ elements: [found.pos] });
        cur = items[found.pos];
        at += found.taken;
        continue;
      }
      // No such element: the engine refuses the assignment; here it names what it says.
      steps.push({ key });
      cur = undefined;
      at += 1;
      continue;
    }
    steps.push(key === '*' && cur === undefined ? 'any' : { key });
    cur = fieldOf(cur, key);
    at += 1;
  }
  return steps;
}

/** Whether a later step names every place the earlier one does. */
function covers(later: Step, earlier: Step): boolean {
  if (later === 'any') return true;
  if (earlier === 'any') return false;
  if ('key' in later) return 'key' in earlier && earlier.key === later.key;
  return 'elements' in earlier && earlier.elements.every((e) => later.elements.includes(e));
}

/** What `value` holds at `steps` (fields only); undefined where it holds nothing or a step is a
 *  list's element (a list set whole is not the list the element was found in). */
function valueBelow(value: unknown, steps: readonly Step[]): unknown {
  let cur = value;
  for (const step of steps) {
    if (step === 'any' || !('key' in step)) return undefined;
    cur = fieldOf(cur, step.key);
  }
  return cur;
}

function fieldOf(v: unknown, key: string): unknown {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && Object.hasOwn(v, key) ? (v as Record<string, unknown>)[key] : undefined;
}

/** A `--set` value as the engine reads it (`scenario::command_value`): JSON, else the text. */
function commandValue(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** Whether two JSON values are equal (an object's fields in any order). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Plans a comparison of `currentJson` with `variants`: the scenarios to run, or what is wrong. */
export function planCompare(currentJson: string, variants: VariantSpec[], lookup: ScenarioLookup): Plan {
  const problems: CompareProblem[] = [];
  if (variants.length + 1 > MAX_COMPARE_RUNS) {
    problems.push({
      variant: 0,
      rule: `a comparison runs at most ${MAX_COMPARE_RUNS} scenarios (the current one and ${MAX_COMPARE_RUNS - 1} variants); this one has ${variants.length + 1}`,
    });
    return { ok: false, problems };
  }
  if (variants.length === 0) return { ok: false, problems: [{ variant: 0, rule: 'add at least one variant to compare with' }] };
  let base: Json;
  try {
    base = JSON.parse(currentJson) as Json;
  } catch (e) {
    return { ok: false, problems: [{ variant: 0, rule: `the current scenario is not valid JSON: ${(e as Error).message}` }] };
  }
  const baseId = String((base as { id?: unknown }).id ?? 'the current scenario');
  const runs: PlannedRun[] = [{ label: baseId, json: currentJson, sets: [], variant: 0 }];
  // A variant left blank (the form's first, before another was added and written) would run the
  // current scenario again: it is left out while another variant changes something.
  const blank = (spec: VariantSpec) => !spec.from && spec.sets.length === 0;
  const someWritten = variants.some((spec) => !blank(spec));
  const what = 'pick an algorithm for a switch, a library scenario to start from, or a parameter to set (+ a parameter…)';
  if (!someWritten) {
    return { ok: false, problems: [variants.length === 1 ? { variant: 1, rule: `it changes nothing: ${what}` } : { variant: 0, rule: `no variant changes anything: ${what}` }] };
  }
  variants.forEach((spec, k) => {
    const variant = k + 1;
    if (someWritten && blank(spec)) return;
    let json = currentJson;
    let doc = base;
    if (spec.from) {
      const text = lookup(spec.from);
      if (text === undefined) {
        problems.push({ variant, rule: `there is no library scenario '${spec.from}'` });
        return;
      }
      doc = JSON.parse(text) as Json;
      const p = sameTopologyProblem(base, doc, spec.from, baseId);
      if (p) {
        problems.push({ variant, rule: p });
        return;
      }
      json = text;
    }
    const twice = overriddenSet(spec.sets, doc);
    if (twice) {
      problems.push({ variant, rule: twice });
      return;
    }
    runs.push({ label: variantLabel(spec, doc), json, sets: spec.sets, variant });
  });
  return problems.length ? { ok: false, problems } : { ok: true, runs };
}

/** Says a refusal as a line: "variant 2: …". */
export function problemText(p: CompareProblem): string {
  return p.variant ? `variant ${p.variant}: ${p.rule}` : p.rule;
}

// ---- The table ------------------------------------------------------------------------------

/** What happened to one run: its row, or why it has none. */
export type CompareOutcome = { ok: true; cells: RowCell[]; digest: string } | { ok: false; error: string };

export interface CompareRow {
  /** What the row shows ("C1 mean rate (Mbps)", "Jain's index"). */
  label: string;
  /** Per run: its value (null where the run has none or failed). */
  values: (number | null)[];
  /** Per run: the value differs from the first run's by more than the tolerance. */
  differs: boolean[];
  /** Decimals to show, where the row's own scale needs them (Jain's index: 4, as the Result
   *  tab, so 0.9988 is not read as a perfect 1.00); none: as the charts' readouts. */
  digits?: number;
}

/** Relative difference above which a cell is marked (5 %). */
export const DEFAULT_TOLERANCE = 0.05;

/** Whether b differs from a by more than `tol` (relative to the larger magnitude; nulls differ from numbers). */
export function differs(a: number | null, b: number | null, tol: number): boolean {
  if (a === null || b === null) return a !== b;
  const scale = Math.max(Math.abs(a), Math.abs(b));
  if (scale === 0) return false;
  return Math.abs(a - b) / scale > tol;
}

/** What a scenario's `*_cells` counts: frames on an Ethernet network, else ATM cells. */
export function unitOf(json: string): 'cells' | 'frames' {
  try {
    return (JSON.parse(json) as { ethernet?: unknown }).ethernet ? 'frames' : 'cells';
  } catch {
    return 'cells';
  }
}

/** The connections' report groups (`group`), by connection id, from a scenario's JSON. */
export function connectionGroups(json: string): Map<string, string> {
  try {
    const doc = JSON.parse(json) as { connections?: { id: string; group?: string }[] };
    return new Map((doc.connections ?? []).filter((c) => c.group).map((c) => [c.id, c.group!]));
  } catch {
    return new Map();
  }
}

const num = (cells: Map<string, number | string | null>, name: string): number | null => {
  const v = cells.get(name);
  return typeof v === 'number' ? v : null;
};

/**
 * The summaries side by side: per connection (or per `group`, its connections' mean) mean rate and target
 * share, then Jain's index, convergence, losses, the largest queue and goodput. Rows come in the
 * order of the first run that has them.
 */
/**
 * A source given `volume_mb` leaves once it has sent it: when its run gives it neither rate nor
 * share over the steady window, it left before the window (its zeros are not a rate of it).
 */
export function leftAfterVolume(hasVolume: boolean, meanMbps: number | null | undefined, fairShareMbps: number | null | undefined): boolean {
  return hasVolume && meanMbps === 0 && fairShareMbps === 0;
}

/** What a compared run averages over: its length, its steady window, who left before it. */
export interface RunWindow {
  durationMs: number;
  steadyFromMs: number;
  leftBefore: ReadonlySet<string>;
  /** Connections given a `volume_mb`: gone before the window when their run gives them neither
   *  rate nor share there (as the Result tab's `leftEarly` reads it). */
  sendVolume?: ReadonlySet<string>;
}

/** An engine value in the unit shown, to 15 significant digits when scaled: 4999.68 Mbps is
 *  4.99968 Gbps, where × 0.001 (or / 1000) gives 4.999680000000001 (QA: in the table's CSV). */
const inUnit = (v: number, u: DisplayUnit) => (u.scale === 1 ? v : +(v * u.scale).toPrecision(15));

export function compareTable(
  outcomes: (CompareOutcome | undefined)[],
  groups: Map<string, string> = new Map(),
  tol = DEFAULT_TOLERANCE,
  unit: 'cells' | 'frames' = 'cells',
  /** Rates as the charts beside the table show them (Gbps on Ethernet): the unit, and the
   *  factor from the engine's Mbps. */
  rate: DisplayUnit = { unit: 'Mbps', scale: 1 },
  /** Per run (once known): its length, where its steady window starts, and the connections
   *  that left before it (their mean rate and share over it say nothing: no value). */
  windows: readonly (RunWindow | null | undefined)[] = [],
): CompareRow[] {
  const maps = outcomes.map((o) => (o && o.ok ? new Map(o.cells.map((c) => [c.name, c.value])) : null));
  // The connections, in row order, from any run that has a row.
  const conns: string[] = [];
  for (const m of maps) {
    if (!m) continue;
    for (const k of m.keys()) {
      const hit = /^conn\.(.+)\.mean_rate_mbps$/.exec(k);
      if (hit && !conns.includes(hit[1])) conns.push(hit[1]);
    }
  }
  // `keep`: a row shown even with no value at all (a connection gone before every window).
  const keys: { label: string; value: (m: Map<string, number | string | null>, run: number) => number | null; keep?: boolean; digits?: number }[] = [];
  // A group's rate is its connections' mean, as the engine's group figures are (the Result
  // tab's, the published ones): QA read gfc-edge's group A at 13.5 Mbps, its three sources'
  // sum, where the lesson says 4.5 each. Those gone before the window have no rate to average.
  const meanOf = (ids: string[], field: string) => (m: Map<string, number | string | null>, run: number) => {
    const w = windows[run];
    const gone = (id: string) =>
      !!w &&
      (w.leftBefore.has(id) ||
        leftAfterVolume(!!w.sendVolume?.has(id), num(m, `conn.${id}.mean_rate_mbps`), num(m, `conn.${id}.fair_share_mbps`)));
    const vs = ids.map((id) => (gone(id) ? null : num(m, `conn.${id}.${field}`))).filter((v): v is number => v !== null);
    return vs.length === 0 ? null : inUnit(vs.reduce((s, v) => s + v, 0) / vs.length, rate);
  };
  const units: [string, string[]][] = [];
  for (const c of conns) {
    const g = groups.get(c);
    const key = g ? `group ${g}` : c;
    const u = units.find(([k]) => k === key);
    if (u) u[1].push(c);
    else units.push([key, [c]]);
  }
  for (const [name, ids] of units) {
    keys.push({ label: `${name} mean rate (${rate.unit})`, value: meanOf(ids, 'mean_rate_mbps'), keep: true });
    keys.push({ label: `${name} target share (${rate.unit})`, value: meanOf(ids, 'target_share_mbps'), keep: true });
  }
  keys.push({ label: "Jain's index", value: (m) => num(m, 'jain_index'), keep: true, digits: 4 });
  keys.push({ label: 'convergence (ms)', value: (m) => num(m, 'convergence_ms'), keep: true });
  // How well rates track a target that keeps moving (then there is no convergence time). Only
  // when some run has no convergence time: where every run settled, it reads 100 everywhere.
  const unsettled = maps.some((m) => !!m && num(m, 'convergence_ms') === null && num(m, 'on_target_fraction') !== null);
  if (unsettled) {
    keys.push({
      label: 'within 10 % of target (% of steady window)',
      value: (m) => {
        const on = num(m, 'on_target_fraction');
        return on === null ? null : on * 100;
      },
    });
  }
  keys.push({ label: `lost ${unit}`, value: (m) => num(m, 'lost_cells') });
  keys.push({ label: `largest queue (${unit})`, value: (m) => num(m, 'max_queue_cells') });
  keys.push({
    label: `goodput (${rate.unit})`,
    value: (m) => {
      const v = num(m, 'goodput_mbps');
      return v === null ? null : inUnit(v, rate);
    },
  });
  // Runs of different lengths average over different windows: then the table says so.
  const known = windows.filter((w): w is RunWindow => !!w);
  if (known.some((w) => w.durationMs !== known[0].durationMs || w.steadyFromMs !== known[0].steadyFromMs)) {
    keys.push({ label: 'run length (ms)', value: (_, i) => windows[i]?.durationMs ?? null });
    keys.push({ label: 'steady window from (ms)', value: (_, i) => windows[i]?.steadyFromMs ?? null });
  }
  const rows: CompareRow[] = [];
  for (const k of keys) {
    const values = maps.map((m, i) => (m ? k.value(m, i) : null));
    if (values.every((v) => v === null) && !k.keep) continue;
    const first = values[0];
    const row: CompareRow = { label: k.label, values, differs: values.map((v, i) => i > 0 && !!maps[0] && !!maps[i] && differs(first, v, tol)) };
    if (k.digits !== undefined) row.digits = k.digits;
    rows.push(row);
  }
  return rows;
}

/**
 * The table as CSV: a `metric` column and one column per run (headed by its label), one line per
 * row of the table, each value as the engine computed it (not rounded as shown); an empty field
 * where a run has none. When a run failed, a last line `failed` says why under its column.
 */
export function compareCsv(labels: string[], rows: CompareRow[], outcomes: readonly (CompareOutcome | undefined)[] = []): string {
  const out = [['metric', ...labels].map(csvField).join(',')];
  for (const r of rows) out.push([csvField(r.label), ...r.values.map((v) => (v === null ? '' : String(v)))].join(','));
  const failures = labels.map((_, i) => {
    const o = outcomes[i];
    return o && !o.ok ? o.error : '';
  });
  if (failures.some((f) => f)) out.push(['failed', ...failures].map(csvField).join(','));
  return out.join('\n') + '\n';
}

// ---- The compare link -----------------------------------------------------------------------

/** The fragment key of a compare link: `#c=2.<data>.<check>`. */
export const COMPARE_KEY = 'c';

/** What a compare link carries besides the current scenario. */
export interface CompareLinkData {
  variants: VariantSpec[];
  /** The runs' digests when the link was made (current first), to check the replay against. */
  digests?: (string | null)[];
  /** The variants as the form held them (a list's pick in the list, typed text as typed), one
   *  per variant; absent in links made before they were carried (then `draftOfSpec` guesses). */
  drafts?: VariantDraft[];
}

/**
 * The fragment of a comparison: the scenario link's codec (scenario/share.ts, same version tag,
 * dictionary and library text elision) over the current scenario with the variants (and the
 * digests, if known) in a `compare` field that never reaches the engine.
 */
export function compareHash(current: unknown, data: CompareLinkData, library: TextLibrary = new Map()): string {
  const doc = { ...(current as Record<string, unknown>), compare: data };
  return `#${COMPARE_KEY}=${encodeScenario(doc, library)}`;
}

/** The payload of `#c=…` in a location hash, or null. */
export function comparePayloadOf(hash: string): string | null {
  const h = hash.startsWith('#') ? hash.slice(1) : hash;
  for (const part of h.split('&')) if (part.startsWith(`${COMPARE_KEY}=`)) return part.slice(COMPARE_KEY.length + 1);
  return null;
}

export type DecodedCompare = { ok: true; json: string; data: CompareLinkData } | { ok: false; error: string; newer?: number };

/** Decodes a compare link's payload; every damage comes back as a message. */
export function decodeCompare(payload: string, library: TextLibrary = new Map()): DecodedCompare {
  const d = decodeScenario(payload, library);
  if (!d.ok) return { ok: false, error: d.error.replace(/^the link/, 'the compare link'), ...(d.newer === undefined ? {} : { newer: d.newer }) };
  const s = d.scenario as unknown as Record<string, unknown>;
  const data = s.compare as CompareLinkData | undefined;
  delete s.compare;
  if (!data || typeof data !== 'object' || !Array.isArray(data.variants)) {
    return { ok: false, error: 'the compare link holds a scenario but no variants (compare.variants)' };
  }
  for (const [i, v] of data.variants.entries()) {
    const bad = !v || typeof v !== 'object' || !Array.isArray(v.sets) || v.sets.some((x) => typeof x !== 'string') || (v.from !== undefined && typeof v.from !== 'string');
    if (bad) return { ok: false, error: `the compare link's variant ${i + 1} is not {from?: scenario id, sets: ["PATH=VALUE", …]}` };
  }
  // The form's drafts are what the link shows, never what it runs: drafts that do not stand for
  // the very variants (damaged, or edited by hand) are dropped, and the form guesses from them.
  const { drafts, ...rest } = data;
  const kept = Array.isArray(drafts) && drafts.length === data.variants.length && drafts.every((d, i) => isVariantDraft(d) && sameSpec(specOfDraft(d), data.variants[i]));
  return { ok: true, json: JSON.stringify(s, null, 2), data: kept ? { ...rest, drafts } : rest };
}

function sameSpec(a: VariantSpec, b: VariantSpec): boolean {
  return (a.from ?? '') === (b.from ?? '') && a.sets.length === b.sets.length && a.sets.every((x, i) => x === b.sets[i]);
}

// ---- Variants as the view edits them -------------------------------------------------------

/** A variant as the Compare view's form holds it. */
export interface VariantDraft {
  /** A library scenario's id, or '' for the current scenario. */
  from: string;
  /** An algorithm per switch id ('' or absent: as it is). */
  algorithms: Record<string, string>;
  /** More `PATH=VALUE` assignments, separated by spaces or new lines (a parameter, `run.seed=2`). */
  sets: string;
}

/** A switch's algorithm as the form's list sets it: `nodes.SW1.algorithm=eprca` (an id, bare). */
const ALGORITHM_SET = /^nodes\.([^.*=\s]+)\.algorithm=([\w-]+)$/;

/**
 * A variant's draft as the form shows one that ran with no draft of its own (a link made before
 * links carried them, a lesson's): the algorithm choices the form puts first (`specOfDraft`) go
 * back to the lists, the rest to the assignments, so that the draft gives the very variant again
 * (QA: a link showed "as it is" in the list and the choice as typed text, and a new pick in the
 * list then lost to it). A guess: an algorithm typed first comes back in its list.
 *
 * `switches`: the ids of the switches of the scenario the variant starts from (`switchIds`),
 * the lists the form has. Another node's `algorithm` (a source's, one the scenario lacks, one
 * named by its index) stays typed, where the form shows it (review: it went to a list the form
 * does not draw, and ran unseen).
 */
export function draftOfSpec(v: VariantSpec, switches: readonly string[]): VariantDraft {
  const picks: [string, string][] = [];
  let k = 0;
  for (; k < v.sets.length; k++) {
    const m = ALGORITHM_SET.exec(v.sets[k]);
    if (!m || !switches.includes(m[1]) || picks.some(([sw]) => sw === m[1])) break;
    picks.push([m[1], m[2]]);
  }
  // Own fields whatever the id (`__proto__` assigned would set the prototype and be lost).
  return { from: v.from ?? '', algorithms: Object.fromEntries(picks), sets: v.sets.slice(k).join(' ') };
}

/** The ids of a scenario's switches (from its JSON; none when it cannot be read). */
export function switchIds(json: string | undefined): string[] {
  try {
    const doc = JSON.parse(json ?? '') as { nodes?: { id?: unknown; kind?: unknown }[] };
    return (doc.nodes ?? []).filter((n) => n.kind === 'switch' && typeof n.id === 'string').map((n) => n.id as string);
  } catch {
    return [];
  }
}

/** The drafts a link carries: as the form held them, the lists left "as it is" left out. */
export function linkDrafts(drafts: readonly VariantDraft[]): VariantDraft[] {
  return drafts.map((d) => ({ ...d, algorithms: Object.fromEntries(Object.entries(d.algorithms).filter(([, alg]) => alg)) }));
}

/** Whether `v` is a draft the form can show (what storage gave back may be anything). */
export function isVariantDraft(v: unknown): v is VariantDraft {
  const d = v as VariantDraft;
  return (
    !!d &&
    typeof d.from === 'string' &&
    typeof d.sets === 'string' &&
    !!d.algorithms &&
    typeof d.algorithms === 'object' &&
    !Array.isArray(d.algorithms) &&
    Object.values(d.algorithms).every((a) => typeof a === 'string')
  );
}

/** The variant a draft stands for: algorithm choices first, then the typed assignments. */
export function specOfDraft(d: VariantDraft): VariantSpec {
  const sets = Object.entries(d.algorithms)
    .filter(([, alg]) => alg)
    .map(([sw, alg]) => `nodes.${sw}.algorithm=${alg}`);
  sets.push(...d.sets.split(/\s+/).filter(Boolean));
  return d.from ? { from: d.from, sets } : { sets };
}

/**
 * The scenario a variant's "+ a parameter…" list reads (QA: with EPRCA picked for SW1 it offered
 * ERICA's target_utilization, which the run refused): `scenario` with the algorithms the variant
 * sets, its lists' picks and then its typed `nodes.ID.algorithm=…` / `nodes.*.algorithm=…` in
 * order, as `specOfDraft` gives them to the engine (`*`: every switch). A switch keeps its
 * params: those of the new algorithm's names still hold their values. `scenario` itself where the
 * variant sets no algorithm.
 */
export function variantStart<S extends { nodes: readonly { id: string; kind?: string; algorithm?: string | null }[] }>(scenario: S, draft: VariantDraft): S {
  const sets = specOfDraft({ ...draft, from: '' }).sets.flatMap((set) => {
    const m = /^nodes\.([^=]+)\.algorithm=(\S+)$/.exec(set);
    return m ? [{ node: m[1], algorithm: m[2] }] : [];
  });
  if (sets.length === 0) return scenario;
  const nodes = scenario.nodes.map((n) => {
    const last = sets.filter((x) => x.node === n.id || (x.node === '*' && n.kind === 'switch')).at(-1);
    return last ? { ...n, algorithm: last.algorithm } : n;
  });
  return { ...scenario, nodes };
}

/** One algorithm list of a variant's form. */
export interface AlgorithmList {
  /** The switch's id (or the node's that a kept pick names). */
  id: string;
  /** What the node runs as it is, in the scenario the variant starts from ('' : nothing). */
  asItIs: string;
  /** The pick ('' : as it is). */
  pick: string;
}

/**
 * The algorithm lists a variant's form shows: one per switch of `scenario`, the one the variant
 * starts from (the library scenario it names, else the current one), in its order; then one
 * per other node the draft holds a pick for (a draft kept before, or read from an old link, may
 * name one), so that every pick that runs is shown, whatever "from" names. Review: the lists
 * hid when "from" named a library scenario, and a pick made before still ran, unseen; now a
 * library scenario's switches take picks as the current one's do (`specOfDraft` sets them on
 * it) and say what they run as they are.
 */
export function algorithmLists(
  draft: VariantDraft,
  scenario: { nodes?: readonly { id: string; kind?: string; algorithm?: string | null }[] } | undefined,
): AlgorithmList[] {
  const nodes = scenario?.nodes ?? [];
  const pickOf = (id: string) => (Object.hasOwn(draft.algorithms, id) ? draft.algorithms[id] : '');
  const lists = nodes.filter((n) => n.kind === 'switch').map((n) => ({ id: n.id, asItIs: n.algorithm ?? '', pick: pickOf(n.id) }));
  for (const [id, pick] of Object.entries(draft.algorithms)) {
    if (pick && !lists.some((l) => l.id === id)) lists.push({ id, asItIs: nodes.find((n) => n.id === id)?.algorithm ?? '', pick });
  }
  return lists;
}

/**
 * The "every switch" list of a variant's form, over the lists of `scenario`'s switches (the
 * first `switches` of `algorithmLists`): the pick they all hold ('' : every one as it is), or
 * null when they differ; undefined where there are fewer than two switches (no such list).
 * Picking in it sets each switch's list, so a draft, a link and the engine's overrides stay
 * one per switch.
 */
export function everySwitchPick(lists: readonly AlgorithmList[], switches: number): string | null | undefined {
  if (switches < 2) return undefined;
  const picks = new Set(lists.slice(0, switches).map((l) => l.pick));
  return picks.size === 1 ? [...picks][0] : null;
}

/** How many switches `scenario` has (the first lists of `algorithmLists`). */
export function switchCount(scenario: { nodes?: readonly { kind?: string }[] } | undefined): number {
  return (scenario?.nodes ?? []).filter((n) => n.kind === 'switch').length;
}

/** The library scenarios one may compare `json` with: same node and link ids, not itself. */
export function sameTopology(json: string, library: readonly { id: string; scenario: unknown }[]): string[] {
  let key: string;
  let id: unknown;
  try {
    const doc = JSON.parse(json) as { id?: unknown };
    key = topologyKey(doc as never);
    id = doc.id;
  } catch {
    return [];
  }
  return library.filter((e) => e.id !== id && topologyKey(e.scenario as never) === key).map((e) => e.id);
}

/** Library lessons that ask for a comparison: the scenarios each is read against. */
export const LESSON_PARTNERS: Readonly<Record<string, readonly string[]>> = {
  'vsvd-1': ['vsvd-1-end-to-end'],
  'vsvd-1-end-to-end': ['vsvd-1'],
  'vpc-abr': ['vpc-ubr'],
  'vpc-ubr': ['vpc-abr'],
  'qcn-hotspot': ['fqcn-hotspot', 'fecn-hotspot'],
  'fqcn-hotspot': ['qcn-hotspot', 'fecn-hotspot'],
  'fecn-hotspot': ['qcn-hotspot', 'fqcn-hotspot'],
  'gfc-edge': ['gfc-edge-case2'],
  'gfc-edge-case2': ['gfc-edge'],
};
