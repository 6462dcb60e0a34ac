import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Scenario } from '../contract/scenario';
import { repoFile } from '../test/fakes';
import { ENGINE_CATALOGUE } from '../test/engineCatalogue';
import { MemoryStore } from '../test/memoryStore';
import { WASM_ENGINE } from '../test/wasmEngine';
import { exportFile } from './sharing';
import { sweepFile, formDraft, formSeeds, MAX_FORM_SEEDS, MAX_SWEEP_VALUES, blockLeftOut, startingValue, storedDraft, parameterSweepCommand, sentence, valuesOutOfRange, pathsOverlap, parseSweepValues, suggestedValues, SweepDrafts, sweepChoices, withParameterSweep } from './sweepBuilder';

const library = (id: string) => JSON.parse(readFileSync(repoFile(`scenarios/${id}.json`), 'utf8')) as Scenario;
const planOf = (s: Scenario) => JSON.parse(WASM_ENGINE.sweepPlan(JSON.stringify(s))) as { plan?: { runs: number; params: { column: string; values: unknown[] }[] }; problems?: { path: string; rule: string }[] };

describe('the parameters a sweep can vary', () => {
  it("offers two-sources' switches (each and both), its sources and links, each with the value it has now", () => {
    const choices = sweepChoices(library('two-sources'), ENGINE_CATALOGUE);
    const at = (path: string) => choices.find((c) => c.path === path);
    expect(at('nodes.*.params.target_utilization')).toMatchObject({ group: 'Every switch (ERICA)', current: 0.9 });
    expect(at('nodes.SW2.params.target_utilization')).toMatchObject({ group: 'Switch SW2 (ERICA)', current: 0.9 });
    expect(at('nodes.SW1.buffer_cells')?.spec.unit).toBe('cells');
    expect(at('defaults.source.icr_mbps')).toMatchObject({ group: 'Every source (defaults.source)', current: 25 });
    // L3 is given as 1 km: 5 µs at the catalogue's delay per km.
    expect(at('links.L3.delay_us')?.current).toBe(ENGINE_CATALOGUE.delay_us_per_km);
    expect(at('links.L3.rate_mbps')?.current).toBe(155.52);
    expect(new Set(choices.map((c) => c.path)).size).toBe(choices.length);
  });

  it('offers no every-switch entry where the switches run different algorithms, and Ethernet hosts on an Ethernet network', () => {
    const mixed = library('two-sources');
    mixed.nodes = mixed.nodes.map((n) => (n.id === 'SW2' ? { ...n, algorithm: 'eprca' } : n));
    const choices = sweepChoices(mixed, ENGINE_CATALOGUE);
    expect(choices.some((c) => c.path.startsWith('nodes.*'))).toBe(false);
    expect(choices.find((c) => c.path === 'nodes.SW2.params.mrf')?.group).toBe('Switch SW2 (EPRCA)');
    const eth = sweepChoices(library('qcn-hotspot'), ENGINE_CATALOGUE);
    expect(eth.some((c) => c.path === 'defaults.source.rp_gd')).toBe(true);
    expect(eth.some((c) => c.path === 'defaults.source.icr_mbps')).toBe(false);
    expect(eth.some((c) => c.path.endsWith('.buffer_bytes'))).toBe(true);
  });

  it("says what each switch has where an every-switch parameter differs between them, not that the network derives it", () => {
    const edited = library('two-sources');
    edited.nodes = edited.nodes.map((n) => (n.id === 'SW1' ? { ...n, params: { ...n.params, target_utilization: 0.8 } } : n));
    const every = sweepChoices(edited, ENGINE_CATALOGUE).find((c) => c.path === 'nodes.*.params.target_utilization');
    expect(every).toMatchObject({ current: null, byElement: [{ id: 'SW1', value: 0.8 }, { id: 'SW2', value: 0.9 }] });
    expect(sweepChoices(library('two-sources'), ENGINE_CATALOGUE).find((c) => c.path === 'nodes.*.params.target_utilization')?.byElement).toBeUndefined();
  });

  // QA: Compare's pick wrote `nodes.*.params.target_utilization=` empty where the switches differ.
  it("starts a Compare pick at the value it has now, the first switch's where they differ, never empty where one is known", () => {
    const edited = library('two-sources');
    edited.nodes = edited.nodes.map((n) => (n.id === 'SW1' ? { ...n, params: { ...n.params, target_utilization: 0.8 } } : n));
    const at = (path: string) => sweepChoices(edited, ENGINE_CATALOGUE).find((c) => c.path === path)!;
    expect(startingValue(at('nodes.*.params.target_utilization'))).toBe('0.8');
    expect(startingValue(at('nodes.SW2.params.target_utilization'))).toBe('0.9');
    expect(startingValue(at('links.L3.rate_mbps'))).toBe('155.52');
    // A value the engine derives from the network, and the scenario does not give: nothing to start from.
    const pcr = sweepChoices(edited, ENGINE_CATALOGUE).find((c) => c.current === null && !c.byElement);
    if (pcr) expect(startingValue(pcr)).toBe(pcr.spec.default === null ? '' : String(pcr.spec.default));
  });

  // QA: the closed list showed "target_utilization" for every switch and for one switch alike.
  it('names each entry with the part it sets, as the closed list shows it alone', () => {
    const choices = sweepChoices(library('two-sources'), ENGINE_CATALOGUE);
    const name = (path: string) => choices.find((c) => c.path === path)?.name;
    expect(name('nodes.*.params.target_utilization')).toBe('target_utilization (every switch)');
    expect(name('nodes.SW1.params.target_utilization')).toBe('target_utilization (SW1)');
    expect(name('nodes.SW2.buffer_cells')).toBe('buffer_cells (SW2)');
    expect(name('defaults.source.icr_mbps')).toBe('icr_mbps (every source)');
    expect(name('links.L3.delay_us')).toBe('L3 delay_us');
    expect(new Set(choices.map((c) => c.name)).size).toBe(choices.length);
  });

  // QA: vpc-abr's virtual paths were in neither the Sweep form's list nor Compare's.
  it("offers a virtual path's fields, each path's and every path's, as --vary sets them", () => {
    const scenario = library('vpc-abr');
    const choices = sweepChoices(scenario, ENGINE_CATALOGUE);
    const vp = ENGINE_CATALOGUE.fields.virtual_path.find((f) => f.name === 'buffer_cells')!;
    expect(choices.find((c) => c.path === 'virtual_paths.*.buffer_cells')).toMatchObject({ group: 'Every virtual path', current: vp.default, name: 'buffer_cells (every virtual path)' });
    expect(choices.filter((c) => c.group === 'Virtual paths').map((c) => c.path)).toEqual(scenario.virtual_paths!.map((p) => `virtual_paths.${p.id}.buffer_cells`));
    const edited = { ...scenario, virtual_paths: scenario.virtual_paths!.map((p, i) => (i === 0 ? { ...p, buffer_cells: 500 } : p)) };
    const every = sweepChoices(edited, ENGINE_CATALOGUE).find((c) => c.path === 'virtual_paths.*.buffer_cells');
    expect(every?.current).toBeNull();
    expect(every?.byElement?.slice(0, 2)).toEqual([{ id: 'VP1', value: 500 }, { id: 'VP2', value: vp.default }]);
    expect(sweepChoices(library('two-sources'), ENGINE_CATALOGUE).some((c) => c.path.startsWith('virtual_paths'))).toBe(false);
    // The engine sets them all: one value each, the plan's column the path.
    const planned = planOf(withParameterSweep(scenario, [{ path: 'virtual_paths.*.buffer_cells', values: [1000, 2000] }, { path: 'virtual_paths.VP2.buffer_cells', values: [300] }], 1));
    expect(planned.problems ?? []).toEqual([]);
    expect(planned.plan?.runs).toBe(2);
  });

  // Every path the list offers is one the engine sets: at the value the scenario has now, the
  // sweep plans, and its one run is the scenario as it was (its digest unchanged).
  it.each(['two-sources', 'gfc1', 'qcn-hotspot', 'parking-lot-3', 'vpc-abr'])('every parameter offered for %s plans in the engine at its current value', (id) => {
    const scenario = library(id);
    for (const c of sweepChoices(scenario, ENGINE_CATALOGUE)) {
      if (c.current === null) continue;
      const planned = planOf(withParameterSweep(scenario, [{ path: c.path, values: [c.current] }], 1));
      expect(planned.problems ?? [], c.path).toEqual([]);
      expect(planned.plan?.params[0].column).toBe(c.path);
    }
    // (gfc1 plans some 80 sweeps in the wasm engine: seconds on a loaded 2-core machine.)
  }, 30_000);
});

it('paths overlap where one can set what the other sets', () => {
  expect(pathsOverlap('nodes.*.params.delta', 'nodes.SW1.params.delta')).toBe(true);
  expect(pathsOverlap('nodes.SW1.params.delta', 'nodes.SW1.params.delta')).toBe(true);
  expect(pathsOverlap('nodes.SW1.params.delta', 'nodes.SW2.params.delta')).toBe(false);
  expect(pathsOverlap('nodes.*.params.delta', 'nodes.*.params.interval_us')).toBe(false);
  expect(pathsOverlap('links.L1.delay_us', 'links.L1.rate_mbps')).toBe(false);
});

describe('the values written', () => {
  it('reads lists and start:step:stop ranges, without float noise', () => {
    expect(parseSweepValues('0.8, 0.9 1')).toEqual({ values: [0.8, 0.9, 1] });
    expect(parseSweepValues('0.8:0.05:1')).toEqual({ values: [0.8, 0.85, 0.9, 0.95, 1], vary: '0.8:0.05:1' });
    expect(parseSweepValues('10:-5:0')).toMatchObject({ values: [10, 5, 0] });
    expect(parseSweepValues(' 100 : 300 : 1000 ')).toEqual({ values: [100, 400, 700, 1000], vary: '100:300:1000' });
  });

  it('says what is wrong, naming the word', () => {
    expect(parseSweepValues('')).toHaveProperty('error', expect.stringMatching(/write the values/));
    expect(parseSweepValues('0.8, x')).toEqual({ error: "'x' is not a number" });
    expect(parseSweepValues('1:0:2')).toHaveProperty('error', 'the step 0 does not lead from 1 to 2');
    expect(parseSweepValues('1:-1:2')).toHaveProperty('error', 'the step -1 does not lead from 1 to 2');
    expect(parseSweepValues('1:2')).toHaveProperty('error', expect.stringMatching(/start:step:stop/));
    expect(parseSweepValues('0:0.0001:1')).toHaveProperty('error', expect.stringMatching(new RegExp(`at most ${MAX_SWEEP_VALUES}`)));
    expect(parseSweepValues('1, 2, 1')).toEqual({ error: '1 is written twice' });
    // QA: Number() read '0x10' as 16 and '' between commas as nothing; a number too large for a
    // double is said to be so, not "not a number".
    expect(parseSweepValues('0x10')).toEqual({ error: "'0x10' is not a number" });
    expect(parseSweepValues('1e400')).toEqual({ error: "'1e400' is too large a number" });
  });

  // QA: the form refused "0.5, 0.8:0.1:1" (calling '0.5, 0.8' no number) where `--vary` takes it.
  it('reads a list that holds ranges, as --vary does, and finds a value written twice across them', () => {
    expect(parseSweepValues('0.5, 0.8:0.1:1')).toEqual({ values: [0.5, 0.8, 0.9, 1], vary: '0.5,0.8:0.1:1' });
    expect(parseSweepValues('1 : 1 : 3 10')).toEqual({ values: [1, 2, 3, 10], vary: '1:1:3,10' });
    expect(parseSweepValues('1:1:3, 3')).toEqual({ error: '3 is written twice' });
    expect(parseSweepValues('0.5, 1:2')).toHaveProperty('error', expect.stringMatching(/a range is start:step:stop.*'1:2'/));
  });

  // QA: a value out of the parameter's range ran to the engine's refusal, named as
  // sweep.vary[0].values[0] once per switch; the catalogue's range is known in the form.
  it("names a value out of the parameter's range, or not whole where it must be", () => {
    const spec = ENGINE_CATALOGUE.algorithms.find((a) => a.id === 'erica')!.params.find((p) => p.name === 'target_utilization')!;
    expect(valuesOutOfRange(spec, [0.5, 1])).toBeNull();
    expect(valuesOutOfRange(spec, [0.5, -1, 2])).toBe('-1 is out of range: target_utilization is from 0.1 to 1');
    const whole = ENGINE_CATALOGUE.fields.switch.find((f) => f.name === 'buffer_cells')!;
    expect(valuesOutOfRange(whole, [100, 150.5])).toBe('150.5 is not a whole number: buffer_cells takes whole numbers');
    // QA: big ranges read "1–10000000000"; they are grouped in thousands, as the form's range is.
    const bytes = ENGINE_CATALOGUE.fields.switch.find((f) => f.name === 'buffer_bytes')!;
    expect(valuesOutOfRange({ ...bytes, min: 1, max: 10_000_000_000 }, [0])).toBe('0 is out of range: buffer_bytes is from 1 to 10,000,000,000');
  });

  it('a range gives its start, steps of the step, and no value past its stop', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 1, max: 50 }), fc.integer({ min: 0, max: 100 }), (start, step, n) => {
        const stop = start + step * n + (n % 3) * 0.25 * step;
        const r = parseSweepValues(`${start / 100}:${step / 100}:${stop / 100}`);
        if (!('values' in r)) return n + 1 > MAX_SWEEP_VALUES;
        expect(r.values).toHaveLength(n + 1);
        expect(r.values[0]).toBe(start / 100);
        expect(r.values.at(-1)! <= stop / 100 + 1e-12).toBe(true);
        r.values.slice(1).forEach((v, k) => expect(v - r.values[k]).toBeCloseTo(step / 100, 9));
        return true;
      }),
    );
  });

  it("suggests round values around the current one, within the parameter's range", () => {
    const spec = ENGINE_CATALOGUE.algorithms.find((a) => a.id === 'erica')!.params.find((p) => p.name === 'target_utilization')!;
    expect(suggestedValues(spec, 0.9)).toEqual([0.5, 0.6, 0.7, 0.8, 0.9, 1]);
    const flag = ENGINE_CATALOGUE.algorithms.find((a) => a.id === 'erica')!.params.find((p) => p.name === 'fairshare_first')!;
    expect(suggestedValues(flag, 1)).toEqual([0, 1]);
    for (const a of ENGINE_CATALOGUE.algorithms) {
      for (const p of a.params) {
        if (p.default === null) continue;
        const v = suggestedValues(p, p.default);
        expect(v).toContain(p.default);
        expect(v.every((x) => x >= p.min && x <= p.max && (!p.integer || Number.isInteger(x))), `${a.id}.${p.name}: ${v}`).toBe(true);
        expect(v.length).toBeLessThanOrEqual(12);
      }
    }
    expect(suggestedValues(spec, null)).toEqual([]);
  });
});

// QA: ERICA+'s gain_under, whose meaning ends in a bracket, read "…to fill the queue) Range 1–2".
it('makes each meaning in the catalogue a sentence, a bracket ending in a stop or given one', () => {
  expect(sentence('b: the capacity factor (how much to over-allocate to fill the queue)')).toBe('b: the capacity factor (how much to over-allocate to fill the queue).');
  expect(sentence('Interval (closes early).')).toBe('Interval (closes early).');
  expect(sentence('(a note.)')).toBe('(a note.)');
  for (const a of ENGINE_CATALOGUE.algorithms) for (const p of a.params) expect(sentence(p.meaning), `${a.id}.${p.name}`).toMatch(/[.!?]\)?$/);
});

// QA: after L3 was set to 100 Mbps in two-sources, the form's command named two-sources.json
// as for the library's file: run from the repository, it swept the library's two-sources.
describe('the file the command names', () => {
  const lib = library('two-sources');

  it("is the library's file while the scenario runs as it does, whatever is drawn or written otherwise", () => {
    expect(sweepFile(lib, lib)).toEqual({ path: 'scenarios/two-sources.json', exportFirst: false });
    const moved = { ...lib, description: 'mine', nodes: lib.nodes.map((n) => ({ ...n, x: (n.x ?? 0) + 10 })) };
    expect(sweepFile(moved, lib)).toEqual({ path: 'scenarios/two-sources.json', exportFirst: false });
  });

  it('is the file Export saves, to be saved first, once the scenario runs otherwise', () => {
    const edited = { ...lib, links: lib.links.map((l) => (l.id === 'L3' ? { ...l, rate_mbps: 100 } : l)) };
    // Named as Export names it, a name that is not the library file's.
    expect(sweepFile(edited, lib)).toEqual({ path: 'two-sources-edited.json', exportFirst: true, notLibrary: 'scenarios/two-sources.json' });
    expect(sweepFile(edited, lib).path).toBe(exportFile(edited, lib).name);
    const command = parameterSweepCommand(sweepFile(edited, lib).path, [{ path: 'links.L1.delay_us', values: [5, 50] }], 1);
    expect(command).toBe('abrsim sweep two-sources-edited.json --vary links.L1.delay_us=5,50');
    // Not a library scenario, or one of another id: its own file, named as Export names it.
    expect(sweepFile({ ...lib, id: 'my net' }, undefined)).toEqual({ path: 'my-net.json', exportFirst: true });
    expect(sweepFile({ ...lib, id: 'mine' }, lib)).toEqual({ path: 'mine.json', exportFirst: true });
  });
});

describe('the sweep made', () => {
  it('runs the values given, seeds each, and the command says the same', () => {
    const tu = { path: 'nodes.*.params.target_utilization', values: [0.8, 1] };
    const planned = planOf(withParameterSweep(library('two-sources'), [tu], 3));
    expect(planned.plan).toMatchObject({ runs: 6, params: [{ column: 'nodes.*.params.target_utilization', values: [0.8, 1] }] });
    expect(parameterSweepCommand('scenarios/two-sources.json', [tu], 3)).toBe("abrsim sweep scenarios/two-sources.json --vary 'nodes.*.params.target_utilization=0.8,1' --seeds 3");
    expect(parameterSweepCommand('mine.json', [{ path: 'links.L1.delay_us', values: [5, 50] }], 1)).toBe('abrsim sweep mine.json --vary links.L1.delay_us=5,50');
    expect(parameterSweepCommand('mine.json', [{ path: 'links.L1.delay_us', values: [5, 50], range: '5:45:50' }], 1)).toBe('abrsim sweep mine.json --vary links.L1.delay_us=5:45:50');
  });

  // QA: --vary adds to a file's sweep block and --seeds defaults to the block's, while the form's
  // sweep takes the block's place: the command of a one-seed form sweep on a block of three seeds
  // ran three, and the block's own parameter too.
  it("on a scenario with a sweep block, the command empties the block's values and says the form's seeds", () => {
    const scenario = library('fecn-n0-sweep');
    const block = { ...scenario.sweep!, seeds: 3 };
    const n0 = { path: 'nodes.SW1.params.n0', values: [5, 50] };
    const delay = { path: 'links.L1.delay_us', values: [1, 2] };
    // The block's n0 replaced by the form's (--vary of the same path replaces it).
    expect(parameterSweepCommand('scenarios/fecn-n0-sweep.json', [n0], 1, block)).toBe('abrsim sweep scenarios/fecn-n0-sweep.json --vary nodes.SW1.params.n0=5,50 --seeds 1');
    expect(parameterSweepCommand('scenarios/fecn-n0-sweep.json', [n0], 3, block)).toBe('abrsim sweep scenarios/fecn-n0-sweep.json --vary nodes.SW1.params.n0=5,50 --seeds 3');
    // The block's n0 not in the form: emptied, or the CLI would vary it too.
    expect(parameterSweepCommand('scenarios/fecn-n0-sweep.json', [delay], 1, block)).toBe("abrsim sweep scenarios/fecn-n0-sweep.json --set 'sweep.vary=[]' --vary links.L1.delay_us=1,2 --seeds 1");
    // The runs the form makes: its values alone, one seed each, as the command's.
    const planned = planOf(withParameterSweep({ ...scenario, sweep: block }, [delay], 1));
    expect(planned.plan).toMatchObject({ runs: 2, params: [{ values: [1, 2] }] });
    // Without a block, nothing more is said.
    expect(parameterSweepCommand('scenarios/two-sources.json', [n0], 1, undefined)).toBe('abrsim sweep scenarios/two-sources.json --vary nodes.SW1.params.n0=5,50');
  });

  it('varies several parameters as a grid, the first slowest, as abrsim sweep with one --vary each', () => {
    const params = [
      { path: 'nodes.*.params.target_utilization', values: [0.8, 0.9, 1] },
      { path: 'links.L3.delay_us', values: [5, 500] },
    ];
    const planned = planOf(withParameterSweep(library('two-sources'), params, 1));
    expect(planned.plan).toMatchObject({ runs: 6, points: 6, params: params.map((p) => ({ column: p.path, values: p.values })) });
    expect(parameterSweepCommand('scenarios/two-sources.json', params, 1)).toBe(
      "abrsim sweep scenarios/two-sources.json --vary 'nodes.*.params.target_utilization=0.8,0.9,1' --vary links.L3.delay_us=5,500",
    );
  });

  // QA: "Keep in the scenario" on fecn-n0-sweep dropped its block's metrics (dropped cells and L4's
  // throughput) and its column's name; the form's own run lost them too.
  it("keeps the scenario's sweep block's metrics, and a column's name where its path stays", () => {
    const block = library('fecn-n0-sweep');
    const made = withParameterSweep(block, [{ path: 'nodes.SW1.params.n0', values: [1, 10] }, { path: 'nodes.SW1.params.qeq_bytes', values: [24000, 150000] }], 2);
    expect(made.sweep).toEqual({
      vary: [{ name: 'n0', paths: ['nodes.SW1.params.n0'], values: [1, 10] }, { paths: ['nodes.SW1.params.qeq_bytes'], values: [24000, 150000] }],
      seeds: 2,
      metrics: block.sweep!.metrics,
    });
    expect(planOf(made).plan?.params.map((p) => p.column)).toEqual(['n0', 'nodes.SW1.params.qeq_bytes']);
    expect(withParameterSweep(library('two-sources'), [{ path: 'links.L1.delay_us', values: [5] }], 1).sweep).toEqual({ vary: [{ paths: ['links.L1.delay_us'], values: [5] }] });
  });

  // QA: on fecn-delay-sweep the form showed qeq_bytes alone, and Keep replaced the block without
  // its loop delay (five links' delays, scaled) without a word.
  it("names what the scenario's sweep block varies that the form cannot write", () => {
    const at = (id: string) => blockLeftOut(library(id).sweep, sweepChoices(library(id), ENGINE_CATALOGUE));
    expect(at('fecn-delay-sweep')).toEqual(['loop_delay_us']);
    expect(at('gfc1-algorithms')).toEqual(['algorithm']);
    expect(at('fecn-n0-sweep')).toEqual([]);
    expect(blockLeftOut(undefined, [])).toEqual([]);
  });

  it('a value out of range is refused by the engine, naming the value and the rule', () => {
    const planned = planOf(withParameterSweep(library('two-sources'), [{ path: 'nodes.SW1.params.target_utilization', values: [0.9, 1.5] }], 1));
    expect(planned.plan).toBeUndefined();
    expect(planned.problems?.map((p) => `${p.path}: ${p.rule}`).join('\n')).toMatch(/values\[1\].*1\.5.*target_utilization/);
  });
});

describe('SweepDrafts', () => {
  const draft = (values: string) => ({ params: [{ path: 'p', values }], seeds: 1 });
  const lib = (id: string) => ({ kind: 'library' as const, id });
  const mine = (id: string) => ({ kind: 'mine' as const, id });
  it('keeps the form per scenario across a new page on the same storage, the 20 last written', () => {
    const store = new MemoryStore();
    const a = new SweepDrafts(store);
    const two = { params: [{ path: 'nodes.*.params.target_utilization', values: '0.8, 1' }, { path: 'links.L3.delay_us', values: '5:50:105' }], seeds: 2 };
    a.set(lib('two-sources'), 'two-sources', two);
    expect(new SweepDrafts(store).get(lib('two-sources'), 'two-sources')).toEqual(two);
    for (let k = 0; k < 25; k++) a.set(lib(`s${k}`), `s${k}`, draft(String(k)));
    const b = new SweepDrafts(store);
    expect(b.get(lib('two-sources'), 'two-sources')).toBeNull();
    expect(b.get(lib('s24'), 's24')?.params[0].values).toBe('24');
    expect(b.get(lib('s4'), 's4')).toBeNull();
    expect(b.get(lib('s5'), 's5')?.params[0].values).toBe('5');
  });

  it('reads nothing from damaged storage, and keeps the page its own when the store refuses writes', () => {
    const store = new MemoryStore();
    store.setItem('abrlab.sweep-drafts-by-place', '{not json');
    expect(new SweepDrafts(store).get(lib('x'), 'x')).toBeNull();
    store.setItem('abrlab.sweep-drafts-by-place', JSON.stringify([['library:x', { params: [{ path: 1 }], seeds: 1 }], ['library:w', { params: [], seeds: 1 }], ['library:y', draft('1')]]));
    expect(new SweepDrafts(store).get(lib('x'), 'x')).toBeNull();
    expect(new SweepDrafts(store).get(lib('w'), 'w')).toBeNull();
    expect(new SweepDrafts(store).get(lib('y'), 'y')?.params[0].values).toBe('1');
    const refusing = { getItem: () => null, setItem: () => { throw new Error('quota'); } };
    const d = new SweepDrafts(refusing);
    d.set(lib('x'), 'x', draft('2'));
    expect(d.get(lib('x'), 'x')?.params[0].values).toBe('2');
  });

  // QA: an old stored draft with seeds 500 was used as it was.
  it('drops what a stored draft holds out of range, keeping the rest, with no crash', () => {
    const store = new MemoryStore();
    const p = (path: string) => ({ path, values: '1, 2' });
    store.setItem(
      'abrlab.sweep-drafts-by-place',
      JSON.stringify([
        ['library:seeds', { params: [p('a')], seeds: 500 }],
        ['library:zero', { params: [p('a')], seeds: 0 }],
        ['library:half', { params: [p('a')], seeds: 2.5 }],
        ['library:many', { params: [p('a'), p('b'), p('c'), p('d')], seeds: 3 }],
        ['library:some', { params: [p('a'), null, { path: '', values: '1' }, { path: 'b', values: 7 }, p('c')], seeds: 2 }],
        ['library:none', { params: 'a=1', seeds: 2 }],
        ['library:null', null],
      ]),
    );
    const d = new SweepDrafts(store);
    expect(d.get(lib('seeds'), 'seeds')).toEqual({ params: [p('a')], seeds: 1 });
    expect(d.get(lib('zero'), 'zero')?.seeds).toBe(1);
    expect(d.get(lib('half'), 'half')?.seeds).toBe(1);
    expect(d.get(lib('many'), 'many')).toEqual({ params: [p('a'), p('b'), p('c')], seeds: 3 });
    expect(d.get(lib('some'), 'some')).toEqual({ params: [p('a'), p('c')], seeds: 2 });
    expect(d.get(lib('none'), 'none')).toBeNull();
    expect(d.get(lib('null'), 'null')).toBeNull();
    expect(storedDraft({ params: [p('a')], seeds: MAX_FORM_SEEDS })?.seeds).toBe(MAX_FORM_SEEDS);
    expect(storedDraft({ params: [p('a')], seeds: MAX_FORM_SEEDS + 1 })?.seeds).toBe(1);
  });

  // QA: a library scenario and the user's copy of it (same JSON id) shared one draft.
  it("keeps a library scenario's form and the user's copy's apart, and reads a draft kept by id before", () => {
    const store = new MemoryStore();
    store.setItem('abrlab.sweep-drafts', JSON.stringify([['two-sources', draft('old')]]));
    const d = new SweepDrafts(store);
    // Kept before by id: read for either place of that id until written.
    expect(d.get(lib('two-sources'), 'two-sources')?.params[0].values).toBe('old');
    expect(d.get(mine('m1'), 'two-sources')?.params[0].values).toBe('old');
    d.set(lib('two-sources'), 'two-sources', draft('library'));
    d.set(mine('m1'), 'two-sources', draft('mine'));
    const next = new SweepDrafts(store);
    expect(next.get(lib('two-sources'), 'two-sources')?.params[0].values).toBe('library');
    expect(next.get(mine('m1'), 'two-sources')?.params[0].values).toBe('mine');
    expect(next.get({ kind: 'none' }, 'two-sources')?.params[0].values).toBe('old');
    expect(next.get({ kind: 'none' }, null)).toBeNull();
    // The old key is never written.
    expect(JSON.parse(store.getItem('abrlab.sweep-drafts')!)).toEqual([['two-sources', draft('old')]]);
    // A first change makes the library scenario the user's: its form goes with it, and stays.
    next.moved(lib('two-sources'), mine('m2'), 'two-sources');
    expect(next.get(mine('m2'), 'two-sources')?.params[0].values).toBe('library');
    expect(next.get(lib('two-sources'), 'two-sources')?.params[0].values).toBe('library');
    next.moved(lib('two-sources'), mine('m1'), 'two-sources');
    expect(next.get(mine('m1'), 'two-sources')?.params[0].values).toBe('mine');
  });
});

// QA: a scenario whose block runs 20,000 seeds (which the engine refuses at load) or 500 (which
// it runs) filled the form's seeds field with that count, past the form's own rule, unchecked.
describe('the form as it first opens (formDraft)', () => {
  const doc = () => JSON.parse(readFileSync(repoFile('scenarios/fecn-n0-sweep.json'), 'utf8')) as Scenario;

  it("starts from the block's parameters and its seeds where the form takes them, else one seed", () => {
    const scenario = doc();
    const choices = sweepChoices(scenario, ENGINE_CATALOGUE);
    const withSeeds = (seeds: number) => formDraft(choices, null, { ...scenario.sweep!, seeds });
    expect(withSeeds(3)).toEqual({ params: [{ path: 'nodes.SW1.params.n0', values: '1, 10, 200' }], seeds: 3 });
    expect(withSeeds(MAX_FORM_SEEDS)?.seeds).toBe(MAX_FORM_SEEDS);
    expect(withSeeds(500)?.seeds).toBe(1);
    expect(withSeeds(20_000)?.seeds).toBe(1);
    expect([formSeeds(0), formSeeds(1.5), formSeeds('3'), formSeeds(7)]).toEqual([null, null, null, 7]);
  });
});
