// Values against their catalogue entries (ParamSpec, from the engine): an algorithm's
// parameters and every structural field of a scenario (the catalogue's `fields`) alike. The
// rules and their wording are the engine's `ParamSpec::check` (engine/sim/src/params.rs), so
// that a value refused in the browser reads the same as one refused by the engine or the CLI;
// the ranges, defaults, units and meanings all come from the catalogue.

import type { ParamSpec } from '../contract/engine';
import type { ParamChange, Scenario } from '../contract/scenario';

/** The seed a scenario without `run.seed` runs with (the engine's `default_seed`). */
export const DEFAULT_SEED = 1;

function unitSuffix(unit: string) {
  return unit ? ` ${unit}` : '';
}

/** The rule a value breaks, or null when the catalogue entry accepts it. */
export function checkParamValue(spec: ParamSpec, value: number): string | null {
  if (!Number.isFinite(value)) return `${spec.name} must be a finite number`;
  if (spec.unit === '0/1' && value !== 0 && value !== 1) return `${spec.name} = ${value} must be 0 (off) or 1 (on)`;
  if (value < spec.min || value > spec.max) {
    return `${spec.name} = ${value} is out of range: must be between ${spec.min} and ${spec.max}${unitSuffix(spec.unit)}`;
  }
  if (spec.integer && !Number.isInteger(value)) return `${spec.name} = ${value} must be a whole number`;
  return null;
}

/** The entry named `name` in a list of the catalogue (a missing one is a programming error: the
 *  catalogue and the web disagree on a field's name). */
export function specOf(specs: readonly ParamSpec[], name: string): ParamSpec {
  const spec = specs.find((p) => p.name === name);
  if (!spec) throw new Error(`the engine's catalogue declares no field '${name}' (it has ${specs.map((p) => p.name).join(', ')})`);
  return spec;
}

/** The default as shown in an empty field: the number, or how the engine derives it. */
export function defaultText(spec: ParamSpec): string {
  return spec.default === null ? (spec.default_note ?? '—') : String(spec.default);
}

/** "range 0 – 600000 ms; default 0": the hint under a field. */
export function rangeAndDefault(spec: ParamSpec): string {
  return `range ${describeRange(spec)}; default ${defaultText(spec)}`;
}

/** A catalogue number as the lab shows it to be read: a whole number grouped in thousands
 *  from 10,000 on (QA: a buffer's range read "1–10000000000 bytes"), a long fraction shortened
 *  to six significant figures, a tiny one in exponent form (2⁻¹⁵ reads 3.052e-5). */
export function readableNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v)) return Math.abs(v) >= 10_000 ? v.toLocaleString('en') : String(v);
  if (Math.abs(v) < 1e-4) {
    const [mantissa, exponent] = v.toExponential(3).split('e');
    return `${+mantissa}e${exponent}`;
  }
  return String(+v.toPrecision(6));
}

/** "0.1 – 1", "1 – 1,000,000 cells, whole numbers": the range as shown next to a field. */
export function describeRange(spec: ParamSpec): string {
  return `${readableNumber(spec.min)} – ${readableNumber(spec.max)}${unitSuffix(spec.unit)}${spec.integer ? ', whole numbers' : ''}`;
}

/** What a text field holds: a number, empty (= the catalogue default), or the rule it breaks. */
export type ParsedInput = { ok: true; value: number | null } | { ok: false; rule: string };

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** A number as a scenario file writes it (decimal, with an optional exponent), NaN for any
 *  other text: `Number` would also take `0x10`, `0b1` and `Infinity`, which JSON does not. */
export function readNumber(text: string): number {
  const t = text.trim();
  return DECIMAL.test(t) ? Number(t) : NaN;
}

/**
 * The rule a decimal's text breaks by its size alone, said as the engine says it
 * (`command_value`), or null: past the largest number (1e400, which reads as Infinity), or
 * non-zero digits too small to represent (5e-400, which reads as a 0 the user never typed:
 * `underflowing_number`).
 */
export function sizeRule(name: string, text: string): string | null {
  const t = text.trim();
  const value = readNumber(t);
  if (Number.isNaN(value)) return null;
  if (!Number.isFinite(value)) return `${name} must be a finite number: ${t} is beyond the largest number (about 1.8e308)`;
  if (value === 0 && /[1-9]/.test(t.split(/e/i)[0])) {
    return `${name} must be a representable number: ${t} is too small to represent (below about 4.9e-324), and is not read as 0`;
  }
  return null;
}

/** Reads a parameter field's text against its catalogue entry. */
export function parseParamInput(spec: ParamSpec, text: string): ParsedInput {
  const t = text.trim();
  if (t === '') return { ok: true, value: null };
  const value = readNumber(t);
  if (Number.isNaN(value)) return { ok: false, rule: `${spec.name} must be a number (${describeRange(spec)})` };
  const size = sizeRule(spec.name, t);
  if (size) return { ok: false, rule: size };
  const rule = checkParamValue(spec, value);
  return rule ? { ok: false, rule } : { ok: true, value };
}

/** The switch node with this id (null if there is none, or it is not a switch). */
export function switchNode(s: Scenario, id: string) {
  const node = s.nodes.find((n) => n.id === id);
  return node && node.kind === 'switch' ? node : null;
}

/** The value of a switch parameter at simulated time `atMs`: its last recorded change at or
 *  before then, else the scenario's value, else undefined (the catalogue default applies). */
export function paramAt(s: Scenario, node: string, param: string, atMs: number): number | undefined {
  let value = switchNode(s, node)?.params?.[param];
  for (const ch of sortedChanges(s)) {
    if (ch.at_ms > atMs) break;
    if (ch.node === node && ch.param === param) value = ch.value;
  }
  return value;
}

/** The recorded changes in the order they apply (by time; equal times keep their order). */
export function sortedChanges(s: Scenario): ParamChange[] {
  return (s.changes ?? []).map((c, i) => ({ c, i })).sort((a, b) => a.c.at_ms - b.c.at_ms || a.i - b.i).map(({ c }) => c);
}

