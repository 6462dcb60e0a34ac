// Scenario links: the whole scenario (topology, parameters, seed, run settings, recorded
// changes) as canonical JSON → raw deflate → base64url, behind a version tag and followed by a
// check of the JSON, in the URL fragment: `#s=2.<data>.<check>`. The fragment never reaches a
// server. Decoding never throws: every way a link can be damaged (or made to hurt: a deflate
// bomb, JSON nested 100,000 deep) comes back as a message for the user.
//
// Version 2 added the check (QA: raw deflate has none, and about one in twenty single-character
// changes of a version 1 link still inflated to a valid scenario — another network, another run,
// opened without a word). Version 1 links (`#s=1.<data>`, no check) still open as before.

import { deflateSync, Inflate, strFromU8, strToU8 } from 'fflate';
import type { Scenario } from '../contract/scenario';
import type { Speed } from '../engine/protocol';
import { parseSpeed, speedText } from './speed';

/**
 * The preset deflate dictionary of version 1 links: fragments that most scenarios contain, so
 * that even short links compress. Frozen: changing one character breaks every version 1 link
 * (the test pins it); a new dictionary needs a new version.
 */
export const DICTIONARY_V1 =
  '{"behavior":{"kind":"dishonest"},"background":{"kind":"vbr","rate_mbps":'
  + '"tcp":{"mss_bytes":9140,"service":"abr","window_bytes":"traffic":{"kind":"bernoulli","load_percent":100},'
  + '"ethernet":{"frame_bytes":1500},"buffer_bytes":"buffer_cells":"scheduler":"per_vc","params":{"target_utilization":0.9,'
  + '"changes":[{"at_ms":"node":"SW1","param":"value":'
  + '"connections":[{"from":"S1","id":"C1","to":"D1"},{"from":"S2","id":"C2","to":"D2"},{"from":"S3","id":"C3","start_ms":"stop_ms":'
  + '"defaults":{"source":{"icr_mbps":25,"rif":1}},"id":"two-sources","expect_maxmin":false,"tolerance":0.05,'
  + '"links":[{"distance_km":1,"from":"S1","id":"L1","rate_mbps":155.52,"to":"SW1"},{"distance_km":1000,"from":"SW1","id":"L3","rate_mbps":155.52,"to":"SW2"},'
  + '{"delay_us":"rate_mbps":10000,"to":"EP4"},{"distance_km":1,"from":"SW2","id":"L4","rate_mbps":155.52,"to":"D1"},'
  + '"nodes":[{"id":"S1","kind":"source","x":80,"y":80},{"algorithm":"erica","id":"SW1","kind":"switch","x":260,"y":150},'
  + '{"algorithm":"erica_plus","id":"SW2","kind":"switch","x":440,"y":150},{"id":"D1","kind":"destination","x":620,"y":80},'
  + '"run":{"duration_ms":100,"sample_interval_us":500,"seed":1},"version":1}';
const DICT = strToU8(DICTIONARY_V1);

/**
 * Text fields a link leaves out when they are the library's text for the same scenario id (the
 * lesson alone is longer than a whole network); the decoder takes them back from the library.
 * One the scenario has not, though the library's has, goes as null (left out, the decoder would
 * fill it in). They never change the run.
 */
export const LIBRARY_TEXT_FIELDS = ['name', 'group', 'description', 'lesson', 'source'] as const;

/** The library's scenarios by id, as the codec needs them: their text fields, and the order in
 *  which their files write their fields (a link opens in that order, see `inFileOrder`). */
export type TextLibrary = ReadonlyMap<string, Readonly<Record<string, unknown>>>;

/** The envelope version: bump it (and keep a decoder for the old one) if the encoding changes.
 *  Version 2 is version 1 (same dictionary, same data) with `.<check>` after the data. */
export const SHARE_VERSION = 2;
const PREFIX = `${SHARE_VERSION}.`;
/** The versions this lab reads. */
const READS = [1, 2];
/** The fragment key: `#s=…`. */
export const SHARE_KEY = 's';
/** Links longer than this are offered as a file instead (browsers and chat tools cut them). */
export const MAX_LINK_CHARS = 8000;

/**
 * The most scenario text a link may inflate to (bytes). The 10,000-source benchmark network is
 * about 1 MB; a link that would inflate beyond this is refused before it is inflated whole.
 */
export const MAX_LINK_JSON_BYTES = 8 * 1024 * 1024;

/** How deep a scenario may nest arrays and objects (a real one nests about 5 levels). */
export const MAX_NESTING = 64;

/** Compressed input handed to the inflater at a time: bounds what one step may produce. */
const INFLATE_CHUNK = 1024;

/** Thrown inside the inflater's callback to stop it once the budget is spent. */
class OverBudget extends Error {}

/**
 * Inflates raw deflate data with the version 1 dictionary, refusing (null) once the output
 * passes `budget` bytes: a small link cannot make the page inflate hundreds of MB.
 */
export function inflateBounded(bytes: Uint8Array, budget = MAX_LINK_JSON_BYTES): Uint8Array | null {
  const parts: Uint8Array[] = [];
  let total = 0;
  const inflater = new Inflate({ dictionary: DICT }, (chunk) => {
    total += chunk.length;
    if (total > budget) throw new OverBudget();
    parts.push(chunk);
  });
  try {
    for (let i = 0; i < bytes.length; i += INFLATE_CHUNK) {
      const end = Math.min(bytes.length, i + INFLATE_CHUNK);
      inflater.push(bytes.subarray(i, end), end === bytes.length);
    }
  } catch (e) {
    if (e instanceof OverBudget) return null;
    throw e;
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * How deep a JSON value nests arrays and objects, counted without recursion (so that a value
 * nested 100,000 deep cannot overflow the stack); stops counting past `limit`.
 */
export function nestingDepth(value: unknown, limit = MAX_NESTING): number {
  if (!value || typeof value !== 'object') return 0;
  let deepest = 0;
  // Objects only, and their depths in a parallel stack: a 10,000-source scenario is checked in
  // a few ms (a tuple for every value took ~100 ms).
  const values: object[] = [value];
  const depths: number[] = [1];
  while (values.length) {
    const v = values.pop()!;
    const depth = depths.pop()!;
    if (depth > deepest) deepest = depth;
    if (deepest > limit) return deepest;
    const children = Array.isArray(v) ? v : Object.values(v);
    for (let i = 0; i < children.length; i++) {
      const child: unknown = children[i];
      if (child && typeof child === 'object') {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return deepest;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (IEEE, as zip and PNG use) of some bytes. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** How many characters a version 2 link's check has. */
const CHECK_CHARS = 6;

/** The check a version 2 link ends with: the CRC-32 of its JSON text (UTF-8), as 6 base64url
 *  characters (4 bytes, big-endian). */
export function linkCheck(jsonBytes: Uint8Array): string {
  const c = crc32(jsonBytes);
  return toBase64Url(new Uint8Array([c >>> 24, (c >>> 16) & 0xff, (c >>> 8) & 0xff, c & 0xff]));
}

/** JSON with object keys sorted at every level and no whitespace: one text per scenario. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(Object.keys(v).sort().map((k) => [k, (v as Record<string, unknown>)[k]]));
    }
    return v;
  });
}

export function toBase64Url(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Decodes base64url (no padding); null when the text is not base64url. */
export function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  try {
    const bin = atob(b64);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

/** The fragment payload (`2.<data>.<check>`) of a scenario. */
export function encodeScenario(scenario: Scenario | unknown, library: TextLibrary = new Map()): string {
  let value = scenario as Record<string, unknown>;
  const known = value && typeof value === 'object' ? library.get(String(value.id)) : undefined;
  if (known) {
    value = { ...value };
    // By value: a lesson with steps is an object.
    for (const f of LIBRARY_TEXT_FIELDS) {
      if (value[f] === undefined) {
        // Absent here but not in the library: null says so, or the decoder would fill it in.
        if (known[f] !== undefined) value[f] = null;
        else delete value[f];
      } else if (canonicalJson(value[f]) === canonicalJson(known[f])) delete value[f];
    }
  }
  const json = strToU8(canonicalJson(value));
  return `${PREFIX}${toBase64Url(deflateSync(json, { level: 9, dictionary: DICT }))}.${linkCheck(json)}`;
}

/** A link that cannot be read: why, and `newer`, its version when that is newer than this lab
 *  reads (made by a newer ABR Lab: an update opens it). */
export type Decoded = { ok: true; scenario: Scenario; json: string } | { ok: false; error: string; newer?: number };

const fail = (error: string): Decoded => ({ ok: false, error });

/**
 * The shape a scenario must have before it goes to the engine (which checks everything else
 * and names the field); null when it has it, else the problem.
 */
export function shapeProblem(value: unknown): string | null {
  if (value === null) return 'it holds only null, not a scenario object';
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return `it holds ${Array.isArray(value) ? 'an array' : `a ${typeof value}`}, not a scenario object`;
  }
  if (nestingDepth(value) > MAX_NESTING) return `it nests arrays or objects more than ${MAX_NESTING} levels deep (a scenario nests about 5)`;
  const s = value as Record<string, unknown>;
  // Absent, it has none; present of the wrong type, the field and its rule are named (QA: an
  // `"id": 3` was reported as "the scenario has no id").
  const wrong = (field: string, rule: string) => `${field} must be ${rule}, not ${describeValue(s[field])}`;
  if (s.version === undefined) return 'the scenario has no version';
  if (typeof s.version !== 'number') return wrong('version', 'a number (the format version, e.g. 1)');
  if (s.id === undefined) return 'the scenario has no id';
  if (typeof s.id !== 'string' || s.id === '') return wrong('id', 'a non-empty string');
  for (const list of ['nodes', 'links', 'connections'] as const) {
    if (s[list] === undefined) return `the scenario has no ${list} list`;
    if (!Array.isArray(s[list])) return wrong(list, 'a list');
  }
  if (s.run === undefined) return 'the scenario has no run settings';
  // A list goes on to the engine, which names it in its own words, with every other problem.
  if (!s.run || typeof s.run !== 'object') return wrong('run', 'an object of run settings');
  return null;
}

/** A JSON value in a few words, for a message: `the number 3`, `an empty string`, `a list`. */
function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return v === '' ? 'an empty string' : `the string ${JSON.stringify(v.length > 20 ? `${v.slice(0, 20)}…` : v)}`;
  if (typeof v === 'number' || typeof v === 'boolean') return `${typeof v === 'number' ? 'the number' : ''} ${String(v)}`.trim();
  return 'an object';
}

/** The versions of links this lab reads, as words: "1 and 2". */
export const READ_VERSIONS_TEXT = READS.join(' and ');

/** Decodes a fragment payload (`2.<data>.<check>`, or a version 1 `1.<data>`; without `#s=`).
 *  Never throws. */
export function decodeScenario(payload: string, library: TextLibrary = new Map()): Decoded {
  try {
    return decode(payload, library);
  } catch (e) {
    // Nothing known throws past decode(); should anything, it is a message all the same.
    return fail(`the link could not be read: ${(e as Error)?.message || String(e)}`);
  }
}

function decode(payload: string, library: TextLibrary): Decoded {
  const dot = payload.indexOf('.');
  const version = dot < 0 ? '' : payload.slice(0, dot);
  const reads = `this lab reads versions ${READ_VERSIONS_TEXT}`;
  if (!READS.map(String).includes(version)) {
    if (!/^\d+$/.test(version)) return fail(`the link does not start with a version tag ("${SHARE_VERSION}.")`);
    if (Number(version) > SHARE_VERSION) {
      return { ok: false, error: `the link is of version ${version}, made by a newer ABR Lab than this one: ${reads}`, newer: Number(version) };
    }
    return fail(`the link is of version ${version}: ${reads}`);
  }
  let data = payload.slice(dot + 1);
  let check: string | null = null;
  if (version === '2') {
    const end = data.indexOf('.');
    // Cut before its end, a link loses its check first.
    if (end < 0) return fail('the link is cut short: the check at its end is missing (copy the whole link again)');
    // What follows the check is left: the check vouches for the data, and a chat tool or a
    // sentence may have added a full stop or a bracket to the link it made clickable.
    check = data.slice(end + 1, end + 1 + CHECK_CHARS);
    data = data.slice(0, end);
    if (check.length < CHECK_CHARS) return fail(`the link is cut short: its check ends after ${check.length} of its ${CHECK_CHARS} characters (copy the whole link again)`);
  }
  const stray = /[^A-Za-z0-9_-]/.exec(data);
  if (stray) return fail(`the link holds a character that is not base64url, '${stray[0]}' at place ${stray.index + 1} of its data (was it edited?)`);
  const bytes = fromBase64Url(data);
  // Of the right characters but not a whole number of bytes: a link cut short.
  if (!bytes) return fail(`the link's data is cut short (${data.length} characters cannot be whole bytes): copy the whole link again`);
  if (bytes.length === 0) return fail('the link is empty after its version tag (was it cut?)');
  let text: string;
  try {
    const inflated = inflateBounded(bytes);
    if (!inflated) {
      const mb = MAX_LINK_JSON_BYTES / (1024 * 1024);
      return fail(`the link's data would inflate to more than ${mb} MB, more than any scenario (it was not opened)`);
    }
    // Checked before anything is read from it: a changed character that still inflates would
    // otherwise open another scenario as if it were the one sent.
    if (check !== null && check !== linkCheck(inflated)) {
      return fail("the link was changed on its way: its data does not match the check at its end (a character was altered, added or lost; copy the whole link again)");
    }
    text = strFromU8(inflated);
  } catch {
    // The inflater's own words ("invalid distance", "unexpected EOF") say nothing to a reader.
    return fail("the link's data does not decompress: it was cut short or changed on its way (copy the whole link again)");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return fail(`the link's data is not valid JSON: ${(e as Error).message}`);
  }
  const problem = shapeProblem(value);
  if (problem) return fail(`the link's data is not a scenario: ${problem}`);
  const linked = value as Record<string, unknown>;
  const known = library.get(String(linked.id));
  for (const f of LIBRARY_TEXT_FIELDS) {
    // null: a text field the scenario had not, though the library's scenario of its id has it.
    if (linked[f] === null) delete linked[f];
    else if (known && !(f in linked) && known[f] !== undefined) linked[f] = known[f];
  }
  const s = inFileOrder(linked, known, keyRanks(library)) as Record<string, unknown>;
  return { ok: true, scenario: s as unknown as Scenario, json: JSON.stringify(s, null, 2) };
}

const ranksOf = new WeakMap<TextLibrary, Map<string, number>>();

/** Every field name the library's files write, ranked in the order the files first write it
 *  (`version`, `id`, `name`, … then `run`'s, the nodes' …). */
function keyRanks(library: TextLibrary): Map<string, number> {
  let ranks = ranksOf.get(library);
  if (ranks) return ranks;
  ranks = new Map();
  const r = ranks;
  const walk = (v: unknown) => {
    if (!v || typeof v !== 'object') return;
    if (Array.isArray(v)) return v.forEach(walk);
    for (const k of Object.keys(v)) if (!r.has(k)) r.set(k, r.size);
    Object.values(v).forEach(walk);
  };
  library.forEach(walk);
  ranksOf.set(library, ranks);
  return ranks;
}

/**
 * A decoded scenario with its fields in the order its file writes them: a link carries them
 * sorted (one text per scenario), which an exported file kept (QA: a library scenario opened
 * from a link exported with `"background"` first and `"version"` last, every line moved in a
 * diff against its file). Fields follow `template` (the library scenario of the same id, each
 * list element matched by its `id`, else by its place), then the order the library's files
 * write fields in, then the alphabet. The value is unchanged; only its key order is.
 */
export function inFileOrder(value: unknown, template: unknown, ranks: ReadonlyMap<string, number>): unknown {
  if (!value || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const t = Array.isArray(template) ? template : [];
    const byId = new Map(t.filter((e) => e && typeof e === 'object' && typeof e.id === 'string').map((e) => [e.id as string, e]));
    return value.map((e, i) => {
      const id = e && typeof e === 'object' ? (e as Record<string, unknown>).id : undefined;
      return inFileOrder(e, (typeof id === 'string' ? byId.get(id) : undefined) ?? t[i] ?? t[0], ranks);
    });
  }
  const t = template && typeof template === 'object' && !Array.isArray(template) ? (template as Record<string, unknown>) : null;
  const own = t ? Object.keys(t) : [];
  const v = value as Record<string, unknown>;
  const placed = Object.keys(v).map((k) => {
    const i = own.length ? own.indexOf(k) : -1;
    return { k, at: i >= 0 ? i : own.length + (ranks.get(k) ?? ranks.size) };
  });
  placed.sort((a, b) => a.at - b.at || (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  // fromEntries: a key such as `__proto__` stays an own field, as JSON.parse made it.
  return Object.fromEntries(placed.map(({ k }) => [k, inFileOrder(v[k], t && Object.hasOwn(t, k) ? t[k] : undefined, ranks)]));
}

/**
 * A location hash without its `#` and without the punctuation a sentence or a chat tool may
 * have stuck to the link it made clickable (`…&v=0.005.`, `(…&v=max)`): no link ends in one.
 */
function fragment(hash: string): string {
  return (hash.startsWith('#') ? hash.slice(1) : hash).replace(/[.,;:!?)\]}>'"]+$/, '');
}

/** The payload of `#s=…` in a location hash, or null when the hash holds no scenario. */
export function payloadOf(hash: string): string | null {
  const h = fragment(hash);
  for (const part of h.split('&')) {
    if (part.startsWith(`${SHARE_KEY}=`)) return part.slice(SHARE_KEY.length + 1);
  }
  return null;
}

/** The lab's view tabs, as a link names them (`&t=sweep`); `charts`, the default, is never
 *  written, so that a link without `t` (every link made before it was carried) opens on it. */
export const VIEW_TABS = ['charts', 'editor', 'sweep', 'compare'] as const;
export type ViewTab = (typeof VIEW_TABS)[number];

/** The side panel's tabs, in their order, as a link names them (`&p=result`). */
export const SIDE_TABS = ['lesson', 'result', 'switches', 'paths'] as const;
export type SideTab = (typeof SIDE_TABS)[number];

/**
 * View choices a link may carry after the scenario: `&q=<algorithm quantity>&u=<queue unit>`,
 * `&v=<playback speed>` (one the toolbar offers, e.g. `0.005` or `max`), `&t=<view tab>`,
 * `&n=1` (the Network view open above the charts) and `&p=<side panel tab>`. They stay outside the check, which vouches
 * for the scenario (the run) alone: a link of version 2 without them still opens and verifies.
 */
export interface LinkView {
  quantity?: string | null;
  queueUnit?: 'KB' | 'frames';
  speed?: Speed;
  /** The view tab the link opens on (absent: the charts). */
  tab?: ViewTab;
  /** The Network view open above the charts. */
  network?: boolean;
  /** The side panel's tab the link opens on (absent: the lab's start tab, the lesson's). */
  side?: SideTab;
}

/** The fragment for a scenario: `#s=2.<data>.<check>`, then the view choices that differ from the defaults. */
export function shareHash(scenario: Scenario | unknown, library: TextLibrary = new Map(), view: LinkView = {}): string {
  return `#${[`${SHARE_KEY}=${encodeScenario(scenario, library)}`, ...viewParts(view)].join('&')}`;
}

/** The fragment of a link whose address names the scenario (`?scenario=<id>`): the view
 *  choices alone (`#v=0.01`), or nothing. */
export function viewHash(view: LinkView): string {
  const parts = viewParts(view);
  return parts.length ? `#${parts.join('&')}` : '';
}

function viewParts(view: LinkView): string[] {
  const parts: string[] = [];
  if (view.quantity) parts.push(`q=${encodeURIComponent(view.quantity)}`);
  if (view.queueUnit === 'frames') parts.push('u=frames');
  if (view.speed !== undefined) parts.push(`v=${speedText(view.speed)}`);
  if (view.tab !== undefined && view.tab !== 'charts') parts.push(`t=${view.tab}`);
  if (view.network) parts.push('n=1');
  if (view.side !== undefined) parts.push(`p=${view.side}`);
  return parts;
}

/** The view choices of a hash (ignoring what it does not know). */
export function viewOf(hash: string): LinkView {
  const h = fragment(hash);
  const view: LinkView = {};
  for (const part of h.split('&')) {
    const [k, v = ''] = part.split('=', 2);
    try {
      if (k === 'q' && v) view.quantity = decodeURIComponent(v);
      if (k === 'u' && (v === 'KB' || v === 'frames')) view.queueUnit = v;
      const speed = k === 'v' ? parseSpeed(v) : null;
      if (speed !== null) view.speed = speed;
      if (k === 't' && (VIEW_TABS as readonly string[]).includes(v)) view.tab = v as ViewTab;
      if (k === 'n' && v === '1') view.network = true;
      if (k === 'p' && (SIDE_TABS as readonly string[]).includes(v)) view.side = v as SideTab;
    } catch {
      // A damaged view choice is dropped; the scenario still opens.
    }
  }
  return view;
}

/**
 * The view choices of a hash that `viewOf` drops as unreadable, in words ("playback speed
 * “abc”"): the lab opens the link without them and says which.
 */
export function unreadViewChoices(hash: string): string[] {
  const h = fragment(hash);
  const view = viewOf(hash);
  const out: string[] = [];
  for (const part of h.split('&')) {
    const [k, v = ''] = part.split('=', 2);
    if (k === 'v' && view.speed === undefined) out.push(`playback speed “${v}”`);
    if (k === 'u' && view.queueUnit === undefined) out.push(`queue unit “${v}”`);
    if (k === 'q' && view.quantity === undefined) out.push(`quantity “${v}”`);
    if (k === 't' && view.tab === undefined) out.push(`view “${v}” (the views are ${VIEW_TABS.join(', ')})`);
    if (k === 'n' && !view.network) out.push(`Network view “${v}” (1 opens it)`);
    if (k === 'p' && view.side === undefined) out.push(`side panel tab “${v}” (the tabs are ${SIDE_TABS.join(', ')})`);
  }
  return out;
}

/** The text library of a list of scenarios (the bundled library, in the app). */
export function textLibrary(scenarios: readonly { id: string; scenario: unknown }[]): TextLibrary {
  return new Map(scenarios.map((e) => [e.id, e.scenario as Record<string, unknown>]));
}

/** The scenario as a file in the format of scenarios/*.json (two-space indent, final newline). */
export function scenarioFileText(scenario: Scenario | unknown): string {
  return `${JSON.stringify(scenario, null, 2)}\n`;
}
