import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { repoFile } from '../test/fakes';
import { LIBRARY } from '../scenario/library';
import { encodeScenario, textLibrary } from '../scenario/share';
import type { Scenario } from '../contract/scenario';
import { ENGINE_CATALOGUE } from '../test/engineCatalogue';
import { sweepChoices } from './sweepBuilder';
import {
  algorithmLists,
  everySwitchPick,
  switchCount,
  compareCsv,
  compareHash,
  comparePayloadOf,
  compareTable,
  decodeCompare,
  differs,
  draftOfSpec,
  LESSON_PARTNERS,
  linkDrafts,
  overriddenSet,
  planCompare,
  problemText,
  sameTopology,
  specOfDraft,
  unitOf,
  type CompareOutcome,
  type VariantDraft,
  type VariantSpec,
  withSetFor,
  variantStart,
} from './compare';
import { parseRow } from './sweepTable';

const file = (id: string) => readFileSync(repoFile(`scenarios/${id}.json`), 'utf8');
const lookup = (id: string) => {
  try {
    return file(id);
  } catch {
    return undefined;
  }
};
const twoSources = file('two-sources');

describe('planning a comparison', () => {
  it('runs the current scenario first, then each variant with its overrides', () => {
    const plan = planCompare(twoSources, [{ sets: ['nodes.SW1.algorithm=erica_plus'] }], lookup);
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    expect(plan.runs.map((r) => r.label)).toEqual(['two-sources', 'SW1.algorithm = erica_plus']);
    expect(plan.runs.map((r) => [r.json, r.sets])).toEqual([
      [twoSources, []],
      [twoSources, ['nodes.SW1.algorithm=erica_plus']], // the engine applies them, in the worker
    ]);
  });

  it('takes library scenarios of the same topology', () => {
    const plan = planCompare(file('qcn-hotspot'), [{ from: 'fqcn-hotspot', sets: [] }, { from: 'fecn-hotspot', sets: ['run.seed=3'] }], lookup);
    expect(plan.ok && plan.runs.map((r) => r.label)).toEqual(['qcn-hotspot', 'fqcn-hotspot', 'fecn-hotspot, run.seed = 3']);
  });

  it('refuses more than five runs', () => {
    const plan = planCompare(twoSources, [1, 2, 3, 4, 5].map((s) => ({ sets: [`run.seed=${s}`] })), lookup);
    expect(plan.ok).toBe(false);
    if (!plan.ok) expect(problemText(plan.problems[0])).toMatch(/at most 5 scenarios .* this one has 6/);
  });

  it('refuses another topology and an unknown scenario, naming the variant', () => {
    const plan = planCompare(twoSources, [{ from: 'three-sources', sets: [] }, { from: 'nope', sets: [] }, { sets: [] }], lookup);
    expect(plan.ok).toBe(false);
    if (plan.ok) return;
    expect(plan.problems.map(problemText)).toEqual([
      "variant 1: 'three-sources' is not of the same topology as 'two-sources' (a variant must have the same node and link ids)",
      "variant 2: there is no library scenario 'nope'",
    ]);
  });

  // QA: the rule named neither the algorithm lists nor "+ a parameter…", and two blank variants
  // were refused twice over.
  it('refuses a comparison whose only variants are blank, once, naming what a variant can change', () => {
    const plan = (variants: VariantSpec[]) => {
      const p = planCompare(twoSources, variants, lookup);
      return p.ok ? [] : p.problems.map(problemText);
    };
    expect(plan([{ sets: [] }])).toEqual(['variant 1: it changes nothing: pick an algorithm for a switch, a library scenario to start from, or a parameter to set (+ a parameter…)']);
    expect(plan([{ sets: [] }, { sets: [] }])).toEqual(['no variant changes anything: pick an algorithm for a switch, a library scenario to start from, or a parameter to set (+ a parameter…)']);
  });

  // QA: the form starts with one blank variant; a student who added a second and wrote there
  // was refused ("variant 1: it changes nothing") instead of seeing the comparison.
  it('leaves a blank variant out while another changes something, the others keeping their numbers', () => {
    const plan = planCompare(twoSources, [{ sets: [] }, { sets: ['nodes.SW1.params.target_utilization=1.0'] }, { sets: [] }, { sets: ['run.seed=2'] }], lookup);
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    expect(plan.runs.map((r) => [r.variant, r.sets])).toEqual([
      [0, []],
      [2, ['nodes.SW1.params.target_utilization=1.0']],
      [4, ['run.seed=2']],
    ]);
  });
});

const run = (cells: string): CompareOutcome => ({ ok: true, cells: parseRow(cells), digest: 'd' });

describe('the summaries side by side', () => {
  const a = run('[["jain_index",1.0],["convergence_ms",20.5],["lost_cells",0],["max_queue_cells",40],["goodput_mbps",null],["conn.C1.mean_rate_mbps",70.0],["conn.C1.target_share_mbps",70.0],["conn.C2.mean_rate_mbps",70.0],["conn.C2.target_share_mbps",70.0]]');
  const b = run('[["jain_index",0.99],["convergence_ms",30.0],["lost_cells",0],["max_queue_cells",400],["goodput_mbps",null],["conn.C1.mean_rate_mbps",77.0],["conn.C1.target_share_mbps",77.7],["conn.C2.mean_rate_mbps",71.0],["conn.C2.target_share_mbps",77.7]]');

  it('marks what differs from the first run by more than the tolerance', () => {
    const rows = compareTable([a, b, { ok: false, error: 'boom' }]);
    const by = Object.fromEntries(rows.map((r) => [r.label, r]));
    expect(Object.keys(by)).toEqual([
      'C1 mean rate (Mbps)',
      'C1 target share (Mbps)',
      'C2 mean rate (Mbps)',
      'C2 target share (Mbps)',
      "Jain's index",
      'convergence (ms)',
      'lost cells',
      'largest queue (cells)',
    ]); // goodput is null everywhere (no TCP): no row
    expect(by['C1 mean rate (Mbps)'].values).toEqual([70, 77, null]);
    expect(by['C1 mean rate (Mbps)'].differs).toEqual([false, true, false]);
    expect(by['C2 mean rate (Mbps)'].differs).toEqual([false, false, false]); // 1.4 % apart
    expect(by["Jain's index"].differs).toEqual([false, false, false]);
    // Shown to 4 decimals, as the Result tab: to the readouts' 2, 0.9988 would read a perfect 1.00.
    expect(by["Jain's index"].digits).toBe(4);
    expect(by['C1 mean rate (Mbps)'].digits).toBeUndefined();
    expect(by['largest queue (cells)'].differs).toEqual([false, true, false]);
    expect(by['lost cells'].differs).toEqual([false, false, false]);
  });

  it('shows how much of the steady window the rates were within 10 % of target, in per cent', () => {
    const moving = run('[["jain_index",1.0],["convergence_ms",null],["on_target_fraction",0.9],["conn.C1.mean_rate_mbps",46.5]]');
    const settled = run('[["jain_index",1.0],["convergence_ms",12.0],["on_target_fraction",1.0],["conn.C1.mean_rate_mbps",46.5]]');
    const row = compareTable([moving, settled]).find((r) => r.label === 'within 10 % of target (% of steady window)')!;
    expect(row.values).toEqual([90, 100]);
    expect(row.differs).toEqual([false, true]);
    // Where every run settled, the row would read 100 everywhere: it is left out.
    expect(compareTable([settled, settled]).some((r) => r.label.startsWith('within 10 %'))).toBe(false);
  });

  it('counts frames on an Ethernet network', () => {
    expect(unitOf(file('qcn-hotspot'))).toBe('frames');
    expect(unitOf(twoSources)).toBe('cells');
    expect(compareTable([a], new Map(), 0.05, 'frames').map((r) => r.label)).toContain('largest queue (frames)');
  });

  it('gives rates in the unit the charts use (Gbps on Ethernet), scaled from the engine\'s Mbps', () => {
    const mbps = compareTable([a]);
    const gbps = compareTable([a], new Map(), 0.05, 'frames', { unit: 'Gbps', scale: 1e-3 });
    const rateRow = (rows: typeof mbps, unit: string) => rows.find((r) => r.label === `C1 mean rate (${unit})`)!;
    expect(rateRow(gbps, 'Gbps').values[0]).toBeCloseTo((rateRow(mbps, 'Mbps').values[0] as number) / 1000, 12);
    expect(gbps.some((r) => r.label.includes('(Mbps)') && r.label.includes('share'))).toBe(false);
    const tcp = run('[["goodput_mbps",9500.0],["conn.C1.mean_rate_mbps",46.5]]');
    const goodput = compareTable([tcp], new Map(), 0.05, 'frames', { unit: 'Gbps', scale: 1e-3 }).find((r) => r.label.startsWith('goodput'))!;
    expect([goodput.label, goodput.values[0]]).toEqual(['goodput (Gbps)', 9.5]);
    // No float noise from the scale: fecn-hotspot's F2 at 4999.68 Mbps read 4.999680000000001 Gbps in the CSV.
    const eth = run('[["conn.F2.mean_rate_mbps",4999.68],["conn.F2.target_share_mbps",5000.0],["goodput_mbps",7621.46]]');
    const rows = compareTable([eth], new Map(), 0.05, 'frames', { unit: 'Gbps', scale: 1e-3 });
    expect(rows.find((r) => r.label === 'F2 mean rate (Gbps)')!.values).toEqual([4.99968]);
    expect(rows.find((r) => r.label === 'goodput (Gbps)')!.values).toEqual([7.62146]);
  });

  it("shows no rate for a connection gone before a run's steady window, and says when the windows differ", () => {
    const same = { durationMs: 100, steadyFromMs: 66.7, leftBefore: new Set<string>() };
    const rows = compareTable([a, b], new Map(), 0.05, 'cells', undefined, [same, { durationMs: 100, steadyFromMs: 66.7, leftBefore: new Set(['C2']) }]);
    const by = Object.fromEntries(rows.map((r) => [r.label, r.values]));
    expect(by['C2 mean rate (Mbps)']).toEqual([70, null]);
    expect(by['C2 target share (Mbps)']).toEqual([70, null]);
    expect(by['C1 mean rate (Mbps)']).toEqual([70, 77]);
    expect(by['run length (ms)']).toBeUndefined(); // the same windows: nothing to say
    const longer = compareTable([a, b], new Map(), 0.05, 'cells', undefined, [same, { durationMs: 250, steadyFromMs: 166.7, leftBefore: new Set() }]);
    const rowsBy = Object.fromEntries(longer.map((r) => [r.label, r]));
    expect(rowsBy['run length (ms)'].values).toEqual([100, 250]);
    expect(rowsBy['steady window from (ms)'].values).toEqual([66.7, 166.7]);
    expect(rowsBy['run length (ms)'].differs).toEqual([false, true]);
  });

  // A source given volume_mb leaves once it has sent it: its zeros are not a rate of the window.
  it('shows no rate for a connection that sent its volume and left before the window', () => {
    const gone = run('[["conn.C1.mean_rate_mbps",70.0],["conn.C1.fair_share_mbps",70.0],["conn.C2.mean_rate_mbps",0],["conn.C2.fair_share_mbps",0],["conn.C2.target_share_mbps",0]]');
    const stayed = run('[["conn.C1.mean_rate_mbps",70.0],["conn.C1.fair_share_mbps",70.0],["conn.C2.mean_rate_mbps",35.0],["conn.C2.fair_share_mbps",70.0],["conn.C2.target_share_mbps",63.0]]');
    const w = { durationMs: 100, steadyFromMs: 66.7, leftBefore: new Set<string>(), sendVolume: new Set(['C2']) };
    const by = Object.fromEntries(compareTable([gone, stayed], new Map(), 0.05, 'cells', undefined, [w, w]).map((r) => [r.label, r.values]));
    expect(by['C2 mean rate (Mbps)']).toEqual([null, 35]);
    expect(by['C2 target share (Mbps)']).toEqual([null, 63]);
    // Without a volume the zeros are the run's figures.
    const plain = { ...w, sendVolume: new Set<string>() };
    const byPlain = Object.fromEntries(compareTable([gone], new Map(), 0.05, 'cells', undefined, [plain]).map((r) => [r.label, r.values]));
    expect(byPlain['C2 mean rate (Mbps)']).toEqual([0]);
  });

  // QA: gfc-edge's group A read 13.5 Mbps (three sources' sum) where the lesson, the Result tab
  // and the published figures say 4.5 each: a group's rate is its connections' mean.
  it("shows a group's mean rate and share as its connections' mean, as the engine's group figures are", () => {
    const rows = compareTable([a, b], new Map([['C1', 'A'], ['C2', 'A']]));
    expect(rows[0]).toMatchObject({ label: 'group A mean rate (Mbps)', values: [70, 74] });
    expect(rows[1]).toMatchObject({ label: 'group A target share (Mbps)', values: [70, 77.7] });
    // One gone before the window: the mean of those left.
    const same = { durationMs: 100, steadyFromMs: 66.7, leftBefore: new Set<string>() };
    const gone = compareTable([a, b], new Map([['C1', 'A'], ['C2', 'A']]), 0.05, 'cells', undefined, [same, { ...same, leftBefore: new Set(['C2']) }]);
    expect(gone[0].values).toEqual([70, 77]);
  });

  it('writes the table as CSV: a column per run, a line per row, values unrounded', () => {
    const outcomes = [a, b, { ok: false as const, error: 'boom, at 3 ms' }];
    const rows = compareTable(outcomes);
    const csv = compareCsv(['two-sources', 'SW1.algorithm = erica_plus', 'bad, "quoted"'], rows, outcomes);
    const [head, ...lines] = csv.trimEnd().split('\n');
    expect(head).toBe('metric,two-sources,SW1.algorithm = erica_plus,"bad, ""quoted"""');
    expect(lines.slice(0, -1).map((l) => l.split(',')[0])).toEqual(rows.map((r) => r.label));
    expect(lines[0]).toBe('C1 mean rate (Mbps),70,77,');
    expect(lines[4]).toBe("Jain's index,1,0.99,");
    // The failed run's empty column says why, on a last line.
    expect(lines.at(-1)).toBe('failed,,,"boom, at 3 ms"');
    expect(compareCsv(['x'], compareTable([a]), [a]).includes('failed')).toBe(false);
  });

  it('treats a missing value against a number as a difference', () => {
    expect(differs(null, 1, 0.05)).toBe(true);
    expect(differs(null, null, 0.05)).toBe(false);
    expect(differs(0, 0, 0.05)).toBe(false);
    expect(differs(100, 104, 0.05)).toBe(false);
    expect(differs(100, 106, 0.05)).toBe(true);
  });
});

describe('the compare link', () => {
  const library = textLibrary([{ id: 'two-sources', scenario: JSON.parse(twoSources) }]);
  const data = { variants: [{ sets: ['nodes.SW1.algorithm=erica_plus'] }, { from: 'vsvd-1', sets: ['run.seed=2'] }], digests: ['aa', 'bb', null] };

  it('round-trips the scenario, the variants and the digests through #c=2.…', () => {
    const hash = compareHash(JSON.parse(twoSources), data, library);
    expect(hash).toMatch(/^#c=2\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{6}$/);
    const d = decodeCompare(comparePayloadOf(`${hash}&q=x`)!, library);
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    expect(d.data).toEqual(data);
    expect(JSON.parse(d.json)).toEqual(JSON.parse(twoSources)); // no `compare` left for the engine
  });

  // QA: a variant made with SW1's list at EPRCA came back from its link with the list "as it
  // is" and the pick as typed text; one typed came back in the list. The link carries the form.
  it('carries the form as it was made: a pick stays in its list, typed text stays typed', () => {
    const made: VariantDraft[] = [
      { from: '', algorithms: { SW1: 'eprca', SW2: '' }, sets: '' },
      { from: '', algorithms: {}, sets: 'nodes.SW1.algorithm=eprca defaults.source.icr_mbps=10' },
    ];
    const variants = made.map(specOfDraft);
    const hash = compareHash(JSON.parse(twoSources), { variants, drafts: linkDrafts(made) }, library);
    const d = decodeCompare(comparePayloadOf(hash)!, library);
    expect(d.ok && d.data.drafts).toEqual([
      { from: '', algorithms: { SW1: 'eprca' }, sets: '' },
      { from: '', algorithms: {}, sets: 'nodes.SW1.algorithm=eprca defaults.source.icr_mbps=10' },
    ]);
    expect(d.ok && d.data.variants).toEqual(variants);
    // Drafts that are not the variants (damaged, edited by hand) are dropped: what runs is the
    // variants, and the form guesses from them as it does for a link made before drafts.
    for (const drafts of [[made[1], made[0]], [made[0]], [{ from: '', algorithms: { SW1: 3 }, sets: '' }, made[1]]]) {
      const other = compareHash(JSON.parse(twoSources), { variants, drafts: drafts as VariantDraft[] }, library);
      const o = decodeCompare(comparePayloadOf(other)!, library);
      expect(o.ok && o.data).toEqual({ variants });
    }
  });

  it('says what is wrong with a damaged or variant-less link', () => {
    expect(decodeCompare('3.abc')).toEqual({ ok: false, error: 'the compare link is of version 3, made by a newer ABR Lab than this one: this lab reads versions 1 and 2', newer: 3 });
    expect(decodeCompare(encodeScenario(JSON.parse(twoSources)))).toEqual({ ok: false, error: 'the compare link holds a scenario but no variants (compare.variants)' });
    const bad = compareHash(JSON.parse(twoSources), { variants: [{ sets: [3] as unknown as string[] }] });
    expect(decodeCompare(comparePayloadOf(bad)!)).toMatchObject({ ok: false, error: expect.stringMatching(/variant 1 is not/) });
    expect(comparePayloadOf('#s=1.abc')).toBeNull();
  });
});

describe('variants from the form', () => {
  it('turns algorithm picks and typed assignments into --set lines', () => {
    expect(specOfDraft({ from: '', algorithms: { SW1: 'erica_plus', SW2: '' }, sets: ' nodes.SW2.params.target_utilization=0.8\nrun.seed=3 ' })).toEqual({
      sets: ['nodes.SW1.algorithm=erica_plus', 'nodes.SW2.params.target_utilization=0.8', 'run.seed=3'],
    });
    expect(specOfDraft({ from: 'vsvd-1', algorithms: {}, sets: '' })).toEqual({ from: 'vsvd-1', sets: [] });
  });

  it("gives a variant that ran back to the form as it was made: the list's algorithms in the lists", () => {
    const drafts: VariantDraft[] = [
      { from: '', algorithms: { SW1: 'eprca' }, sets: 'defaults.source.icr_mbps=10' },
      { from: 'vsvd-1', algorithms: { SW1: 'ut', SW2: 'erica_plus' }, sets: '' },
      { from: '', algorithms: {}, sets: 'nodes.*.algorithm=efci run.seed=2' },
    ];
    for (const d of drafts) expect(draftOfSpec(specOfDraft(d), ['SW1', 'SW2'])).toEqual(d);
    // Only the algorithms before any other assignment are the list's: an order kept exactly.
    expect(draftOfSpec({ sets: ['run.seed=2', 'nodes.SW1.algorithm=ut'] }, ['SW1'])).toEqual({ from: '', algorithms: {}, sets: 'run.seed=2 nodes.SW1.algorithm=ut' });
  });

  // Review: the guess put any `nodes.X.algorithm=…` in X's list, but the form has a list for a
  // switch only: one for a source (or a node the scenario lacks, or a node by its index) was
  // shown nowhere and still ran. Only a switch's algorithm goes to a list; the rest stays typed.
  it("guesses a list only for a switch of the variant's scenario: other assignments stay typed, in order", () => {
    const switches = ['SW1', 'SW2'];
    const typed = (sets: string[]) => ({ from: '', algorithms: {}, sets: sets.join(' ') });
    for (const sets of [
      ['nodes.S1.algorithm=erica'], // a source
      ['nodes.SW9.algorithm=erica'], // no such node: the engine says so, next to what the form shows
      ['nodes.2.algorithm=erica'], // SW1 by its index
      ['connections.C1.mcr_mbps=5', 'nodes.SW1.algorithm=ut'], // a connection's parameter first
      ['links.L3.rate_mbps=100'],
      ['nodes.SW1.params.target_utilization=0.8'],
      ['nodes.*.algorithm=ut'],
      ['nodes.SW1.algorithm="ut"'], // JSON, not an id the list holds
    ]) {
      expect(draftOfSpec({ sets }, switches), sets.join(' ')).toEqual(typed(sets));
    }
    expect(draftOfSpec({ sets: ['nodes.SW2.algorithm=ut', 'nodes.S1.algorithm=erica', 'nodes.SW1.algorithm=eprca'] }, switches)).toEqual({
      from: '',
      algorithms: { SW2: 'ut' },
      sets: 'nodes.S1.algorithm=erica nodes.SW1.algorithm=eprca',
    });
    // Whatever the ids, the guess gives the very variant back.
    for (const id of ['__proto__', 'constructor', 'S.W']) {
      const v = { sets: [`nodes.${id}.algorithm=ut`, 'run.seed=2'] };
      expect(specOfDraft(draftOfSpec(v, [id]))).toEqual(v);
    }
    expect(Object.keys(draftOfSpec({ sets: ['nodes.__proto__.algorithm=ut'] }, ['__proto__']).algorithms)).toEqual(['__proto__']);
  });

  it('refuses a variant that sets one path twice to different values (a list pick and a typed one)', () => {
    const twice = specOfDraft({ from: '', algorithms: { SW1: 'erica_plus' }, sets: 'nodes.SW1.algorithm=eprca' });
    expect(planCompare(twoSources, [twice], () => undefined)).toEqual({
      ok: false,
      problems: [{ variant: 1, rule: 'it sets nodes.SW1.algorithm twice, to erica_plus and to eprca: keep one' }],
    });
    const same = specOfDraft({ from: '', algorithms: { SW1: 'eprca' }, sets: 'nodes.SW1.algorithm=eprca' });
    expect(planCompare(twoSources, [same], () => undefined).ok).toBe(true);
  });

  // QA: a pick of SW1's algorithm and a typed `nodes.*.algorithm=…` ran the typed one on SW1,
  // the header naming both and nothing said.
  it("refuses a typed wildcard that undoes a list's pick with another value; the general before the particular stays", () => {
    const undone = specOfDraft({ from: '', algorithms: { SW1: 'erica_plus' }, sets: 'nodes.*.algorithm=eprca' });
    expect(planCompare(twoSources, [{ sets: ['run.seed=2'] }, undone], () => undefined)).toEqual({
      ok: false,
      problems: [{ variant: 2, rule: 'it sets nodes.SW1.algorithm twice, to erica_plus and (by nodes.*.algorithm) to eprca: keep one' }],
    });
    // Same value: nothing lost. Every switch one way, then SW1 another: what the user means.
    expect(planCompare(twoSources, [specOfDraft({ from: '', algorithms: { SW1: 'eprca' }, sets: 'nodes.*.algorithm=eprca' })], () => undefined).ok).toBe(true);
    expect(planCompare(twoSources, [{ sets: ['nodes.*.algorithm=eprca', 'nodes.SW1.algorithm=ut'] }], () => undefined).ok).toBe(true);
    // Typed twice, a parameter: the same rule.
    expect(overriddenSet(['nodes.SW2.params.target_utilization=0.8', 'nodes.*.params.target_utilization=0.9'])).toBe(
      'it sets nodes.SW2.params.target_utilization twice, to 0.8 and (by nodes.*.params.target_utilization) to 0.9: keep one',
    );
    expect(overriddenSet(['nodes.SW1.params.target_utilization=0.8', 'nodes.SW2.params.target_utilization=0.9', 'run.seed=2'])).toBeNull();
  });

  // Review: the check compared only paths of one length, key by key as written. A path that
  // holds the other (a whole object set after one of its fields), an element named by its index
  // and by its id, or by an id with a dot in it against `*`, set one place twice unseen.
  it('refuses a later assignment of a whole object that drops an earlier one of its fields; the object first stays allowed', () => {
    expect(overriddenSet(['nodes.SW1.params.target_utilization=0.8', 'nodes.SW1.params={"target_utilization":0.9}'])).toBe(
      'it sets nodes.SW1.params.target_utilization to 0.8, and then nodes.SW1.params, which holds it, to {"target_utilization":0.9}: keep one',
    );
    expect(overriddenSet(['nodes.SW1.params.target_utilization=0.8', 'nodes.SW1.params={}'])).toMatch(/^it sets nodes.SW1.params.target_utilization to 0.8, and then nodes.SW1.params/);
    expect(overriddenSet(['nodes.SW1.algorithm=eprca', 'nodes.*={"id":"SW1","kind":"switch","algorithm":"ut"}'])).toMatch(/^it sets nodes.SW1.algorithm to eprca, and then nodes.\*, which holds it/);
    // The object keeps the value: nothing lost. The object first, then one of its fields: meant.
    expect(overriddenSet(['nodes.SW1.params.target_utilization=0.8', 'nodes.SW1.params={"target_utilization":0.8,"delta":0.1}'])).toBeNull();
    expect(overriddenSet(['nodes.SW1.params={"target_utilization":0.9}', 'nodes.SW1.params.target_utilization=0.8'])).toBeNull();
  });

  it('reads the values as the engine does: one value written two ways is not set twice', () => {
    expect(overriddenSet(['nodes.SW1.params.target_utilization=0.8', 'nodes.*.params.target_utilization=0.80'])).toBeNull();
    expect(overriddenSet(['nodes.SW1.algorithm=eprca', 'nodes.SW1.algorithm="eprca"'])).toBeNull();
    expect(overriddenSet(['run.seed=2', 'run.seed="2"'])).toBe('it sets run.seed twice, to 2 and to "2": keep one');
  });

  it("names an element by its id or its index alike, and an id with dots in it as one, against the variant's scenario", () => {
    // two-sources: SW1 is nodes[2], L3 is links[2].
    expect(planCompare(twoSources, [{ sets: ['nodes.2.algorithm=eprca', 'nodes.SW1.algorithm=ut'] }], lookup)).toEqual({
      ok: false,
      problems: [{ variant: 1, rule: 'it sets nodes.2.algorithm twice, to eprca and (by nodes.SW1.algorithm) to ut: keep one' }],
    });
    expect(overriddenSet(['links.L3.rate_mbps=100', 'links.2.rate_mbps=50'], JSON.parse(twoSources))).toBe(
      'it sets links.L3.rate_mbps twice, to 100 and (by links.2.rate_mbps) to 50: keep one',
    );
    // A switch whose id holds a dot: `*` stands for it as for any other.
    const dotted = JSON.parse(twoSources.replaceAll('"SW1"', '"S.W"'));
    expect(planCompare(JSON.stringify(dotted), [{ sets: ['nodes.S.W.algorithm=eprca', 'nodes.*.algorithm=ut'] }], lookup)).toEqual({
      ok: false,
      problems: [{ variant: 1, rule: 'it sets nodes.S.W.algorithm twice, to eprca and (by nodes.*.algorithm) to ut: keep one' }],
    });
    expect(planCompare(JSON.stringify(dotted), [{ sets: ['nodes.*.algorithm=ut', 'nodes.S.W.algorithm=eprca'] }], lookup).ok).toBe(true);
    // In `nodes`, `*` is every switch (as --set has it): a source's field is not one of them.
    expect(overriddenSet(['nodes.S1.x=1', 'nodes.*.x=2'], JSON.parse(twoSources))).toBeNull();
    expect(overriddenSet(['nodes.SW2.x=1', 'nodes.*.x=2'], JSON.parse(twoSources))).toBe('it sets nodes.SW2.x twice, to 1 and (by nodes.*.x) to 2: keep one');
    // A library scenario is read as itself: the index names its element.
    expect(planCompare(file('vsvd-1'), [{ from: 'vsvd-1-end-to-end', sets: ['nodes.0.algorithm=eprca', 'nodes.SW1.algorithm=ut'] }], lookup).ok).toBe(false);
  });

  it("lists a variant's algorithms by the switches of the scenario it starts from, then any other pick it holds", () => {
    const end = JSON.parse(file('vsvd-1-end-to-end'));
    end.nodes.find((n: { id: string }) => n.id === 'SW2').algorithm = 'ut';
    expect(algorithmLists({ from: 'vsvd-1-end-to-end', algorithms: { SW1: 'erica', S1: 'eprca', D1: '' }, sets: '' }, end)).toEqual([
      { id: 'SW1', asItIs: 'erica_plus', pick: 'erica' },
      { id: 'SW2', asItIs: 'ut', pick: '' },
      { id: 'SW3', asItIs: 'erica_plus', pick: '' },
      { id: 'S1', asItIs: '', pick: 'eprca' }, // not a switch, but it runs: shown
    ]);
    // Every pick the variant runs has its list.
    const d: VariantDraft = { from: '', algorithms: { SW9: 'ut', constructor: 'erica' }, sets: '' };
    const shown = algorithmLists(d, JSON.parse(twoSources)).filter((l) => l.pick);
    expect(shown.map((l) => `nodes.${l.id}.algorithm=${l.pick}`)).toEqual(specOfDraft(d).sets);
  });

  it("the every-switch list holds the pick all of the scenario's switches share, and none where they differ", () => {
    const gfc = JSON.parse(file('gfc1'));
    const n = switchCount(gfc);
    expect(n).toBe(5);
    const lists = (algorithms: Record<string, string>) => algorithmLists({ from: '', algorithms, sets: '' }, gfc);
    expect(everySwitchPick(lists({}), n)).toBe('');
    const all = Object.fromEntries(['SW1', 'SW2', 'SW3', 'SW4', 'SW5'].map((id) => [id, 'erica']));
    expect(everySwitchPick(lists(all), n)).toBe('erica');
    expect(everySwitchPick(lists({ ...all, SW3: 'ut' }), n)).toBeNull();
    expect(everySwitchPick(lists({ SW1: 'erica' }), n)).toBeNull();
    // A kept pick for a node that is no switch of the scenario is not one of "every switch".
    expect(everySwitchPick(lists({ ...all, S1: 'eprca' }), n)).toBe('erica');
    // One switch: its own list says it all.
    // Run, the variant is headed as the CLI would say it; a switch left out keeps the list's words.
    const head = (algorithms: Record<string, string>) => {
      const plan = planCompare(file('gfc1'), [specOfDraft({ from: '', algorithms, sets: 'run.seed=2' })], lookup);
      return plan.ok ? plan.runs[1].label : plan.problems;
    };
    expect(head(all)).toBe('*.algorithm = erica, run.seed = 2');
    expect(head({ ...all, SW5: '' })).toBe('SW1.algorithm = erica, SW2.algorithm = erica, SW3.algorithm = erica, SW4.algorithm = erica, run.seed = 2');
    const hotspot = JSON.parse(file('fecn-hotspot'));
    expect(everySwitchPick(algorithmLists({ from: '', algorithms: {}, sets: '' }, hotspot), switchCount(hotspot))).toBeUndefined();
  });

  it("a lesson's partners are library scenarios of its topology, and each names it back", () => {
    const byId = new Map(LIBRARY.entries.map((e) => [e.id, e]));
    expect(LESSON_PARTNERS['gfc-edge']).toEqual(['gfc-edge-case2']);
    for (const [id, partners] of Object.entries(LESSON_PARTNERS)) {
      expect(byId.has(id), id).toBe(true);
      const same = sameTopology(byId.get(id)!.json, LIBRARY.entries);
      for (const p of partners) {
        expect(same, `${id} -> ${p}`).toContain(p);
        expect(LESSON_PARTNERS[p], `${p} names ${id} back`).toContain(id);
      }
    }
  });

  it('offers the library scenarios of the same topology only', () => {
    const lib = ['vsvd-1', 'vsvd-1-end-to-end', 'two-sources'].map((id) => ({ id, scenario: JSON.parse(file(id)) }));
    expect(sameTopology(file('vsvd-1'), lib)).toEqual(['vsvd-1-end-to-end']);
    expect(sameTopology(twoSources, lib)).toEqual([]);
  });
});

describe('a parameter picked for a variant', () => {
  it('adds path=value at the end, selecting the value; a path set already is selected where it is', () => {
    expect(withSetFor('', 'nodes.SW1.params.delta', '0.1')).toEqual({ sets: 'nodes.SW1.params.delta=0.1', select: [23, 26] });
    const r = withSetFor('run.seed=2  ', 'nodes.*.params.target_utilization', '0.9');
    expect(r.sets).toBe('run.seed=2 nodes.*.params.target_utilization=0.9');
    expect(r.sets.slice(...r.select)).toBe('0.9');
    const again = withSetFor('nodes.*.params.target_utilization=0.95 run.seed=2', 'nodes.*.params.target_utilization', '0.9');
    expect(again.sets).toBe('nodes.*.params.target_utilization=0.95 run.seed=2');
    expect(again.sets.slice(...again.select)).toBe('0.95');
    // A path that only ends like another is not it (nor is `*` a pattern).
    const other = withSetFor('xnodes.SW1.params.delta=0.2', 'nodes.SW1.params.delta', '0.1');
    expect(other.sets).toBe('xnodes.SW1.params.delta=0.2 nodes.SW1.params.delta=0.1');
    expect(withSetFor('nodes.SW1.params.delta=0.2', 'nodes.*.params.delta', '0.1').sets).toBe('nodes.SW1.params.delta=0.2 nodes.*.params.delta=0.1');
  });
});

// QA: with EPRCA picked for SW1, the variant's "+ a parameter…" list still offered ERICA's
// target_utilization (the scenario's own algorithm), which the run then refused.
describe('the scenario a variant picks its parameters from', () => {
  const scenario = JSON.parse(twoSources) as Scenario;
  const algOf = (s: Scenario, id: string) => s.nodes.find((n) => n.id === id)?.algorithm;
  it("runs the algorithms the variant picks in its lists, or types, later over earlier", () => {
    const draft: VariantDraft = { from: '', algorithms: { SW1: 'eprca', SW2: '' }, sets: 'run.seed=2' };
    const s = variantStart(scenario, draft);
    expect([algOf(s, 'SW1'), algOf(s, 'SW2')]).toEqual(['eprca', algOf(scenario, 'SW2')]);
    const typed = variantStart(scenario, { from: '', algorithms: {}, sets: 'nodes.*.algorithm=ut nodes.SW2.algorithm=eprca' });
    expect([algOf(typed, 'SW1'), algOf(typed, 'SW2')]).toEqual(['ut', 'eprca']);
    expect(sweepChoices(s, ENGINE_CATALOGUE).some((c) => c.path === 'nodes.SW1.params.target_utilization')).toBe(false);
    expect(sweepChoices(s, ENGINE_CATALOGUE).some((c) => c.path === 'nodes.SW1.params.mrf')).toBe(true);
    // Nothing picked: the scenario as it is.
    expect(variantStart(scenario, { from: '', algorithms: {}, sets: '' })).toBe(scenario);
  });
});

