import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import type { BatchEngine } from '../contract/engine';
import { WorkerPool } from '../engine/pool';
import { repoFile } from '../test/fakes';
import { ENGINE_CATALOGUE } from '../test/engineCatalogue';
import { InProcessBatchWorker, pumpedPool, WASM_ENGINE } from '../test/wasmEngine';
import { algorithmSweepCommand, commandFile, MAX_BROWSER_RUNS, remade, SweepSession, withAlgorithmSweep } from './sweep';
import { parseRow, pointTable, sweepCsv } from './sweepTable';

function sweepDoc(id = 'fecn-n0-sweep') {
  const doc = JSON.parse(readFileSync(repoFile(`scenarios/${id}.json`), 'utf8'));
  doc.run.duration_ms = 20;
  doc.run.steady_from_ms = 10;
  return doc;
}

function setup(engine: BatchEngine = WASM_ENGINE, size = 2) {
  const pool = new WorkerPool(() => new InProcessBatchWorker(engine, true), size);
  const open = vi.fn();
  // The test's fecn-n0-sweep (shortened) stands for the library's.
  const session = new SweepSession(pool, open, (id) => (id === 'fecn-n0-sweep' ? sweepDoc() : undefined));
  const settled = () => vi.waitFor(() => expect(['done', 'refused', 'cancelled']).toContain(session.getState().phase), { timeout: 10_000 });
  return { pool, session, open, settled };
}

describe('SweepSession', () => {
  it("runs every run of the plan and keeps each run's row, as the engine makes it", async () => {
    const { session, settled } = setup();
    const json = JSON.stringify(sweepDoc());
    await session.start(json, 'fecn-n0-sweep');
    await settled();
    const s = session.getState();
    expect(s.phase).toBe('done');
    expect(s.plan!.runs).toBe(3);
    expect([s.finished, s.failed]).toEqual([3, 0]);
    for (let i = 0; i < 3; i++) {
      const sim = WASM_ENGINE.createSimulation(WASM_ENGINE.sweepScenario(json, i));
      while (!sim.done()) sim.advance(sim.endMs(), 1e6);
      const o = session.outcomes[i]!;
      expect(o.ok && o.cells).toEqual(parseRow(sim.summaryRow()));
      sim.free();
    }
    const table = pointTable(s.plan!, session.outcomes, s.firstSeed);
    expect(table.map((r) => r.values)).toEqual([[1], [10], [200]]);
    const csv = sweepCsv(s.plan!, session.outcomes, s.firstSeed).trimEnd().split('\n');
    expect(csv[0].split(',')).toEqual(s.plan!.header);
    expect(csv).toHaveLength(4);
  });

  // QA: values written 1.0 and 200.0 came out of the CSV as 1 and 200 (JSON.parse keeps no
  // trailing zeros); abrsim sweep prints them as written.
  it('writes the varied values in the CSV as the file and abrsim sweep write them (200.0, not 200)', async () => {
    const { session, settled } = setup();
    const doc = sweepDoc();
    const json = JSON.stringify(doc).replace('"values":[1,10,200]', '"values":[1.0,10,200.0]');
    expect(json).toContain('[1.0,10,200.0]');
    await session.start(json, 'n0.json');
    await settled();
    const s = session.getState();
    expect(s.phase).toBe('done');
    const csv = sweepCsv(s.plan!, session.outcomes, s.firstSeed).trimEnd().split('\n');
    expect(csv.slice(1).map((l) => l.split(',').slice(0, 2).join(','))).toEqual(['1.0,1', '10,1', '200.0,1']);
    // The table and the plot keep the numbers.
    expect(s.plan!.params[0].values).toEqual([1, 10, 200]);
  });

  it('a run that fails says why in its row; the others finish', async () => {
    const failing: BatchEngine = {
      ...WASM_ENGINE,
      createSimulation: (json) => {
        if (JSON.parse(json).nodes[0].params.n0 === 10) throw new Error('no memory left for this run');
        return WASM_ENGINE.createSimulation(json);
      },
    };
    const { session, settled } = setup(failing, 1);
    await session.start(JSON.stringify(sweepDoc()), 'fecn-n0-sweep');
    await settled();
    const s = session.getState();
    expect([s.phase, s.finished, s.failed]).toEqual(['done', 3, 1]);
    const table = pointTable(s.plan!, session.outcomes, s.firstSeed);
    expect(table[1].errors).toEqual(['seed 1: no memory left for this run']);
    expect(table[0].stats[0].mean).not.toBeNull();
    expect(table[2].stats[0].mean).not.toBeNull();
    const lines = sweepCsv(s.plan!, session.outcomes, s.firstSeed).trimEnd().split('\n');
    expect(lines[2]).toMatch(/^10,1,,.*,error: no memory left for this run$/);
  });

  it("refuses a bad sweep with the engine's problems, naming the field", async () => {
    const { session, settled } = setup();
    const doc = sweepDoc();
    doc.sweep.vary[0].values = [1, 0];
    await session.start(JSON.stringify(doc), 'fecn-n0-sweep');
    await settled();
    const s = session.getState();
    expect(s.phase).toBe('refused');
    expect(s.problems!.map((p) => p.path)).toContain('sweep.vary[0].values[1]');
    expect(session.outcomes).toEqual([]);
  });

  it('refuses more than 10,000 runs and gives the command that runs them', async () => {
    const { session, settled } = setup();
    const doc = sweepDoc();
    doc.sweep.vary[0].values = Array.from({ length: 101 }, (_, i) => i + 1);
    doc.sweep.seeds = 100;
    await session.start(JSON.stringify(doc), 'fecn-n0-sweep');
    await settled();
    const s = session.getState();
    expect(s.phase).toBe('refused');
    expect(s.plan!.runs).toBe(10_100);
    expect(s.plan!.runs).toBeGreaterThan(MAX_BROWSER_RUNS);
    // Its block is not the library's (101 values, 100 seeds): the command names the file Export
    // saves, since the library's file would sweep its own three values.
    expect(s.message).toContain('abrsim sweep fecn-n0-sweep-edited.json > fecn-n0-sweep.csv');
    expect(s.message).toContain('10,100 runs (101 points × 100 seeds)');
  });

  // QA: a sweep made in the form was refused with `abrsim sweep <file>`, without its --vary, and
  // said "× 1 seeds".
  it("gives a made sweep's own command when it refuses it, and counts one seed as one", async () => {
    const { session, settled } = setup();
    const doc = sweepDoc();
    doc.sweep = { vary: [{ paths: ['nodes.SW1.params.n0'], values: Array.from({ length: 10_001 }, (_, i) => i + 1) }] };
    const command = 'abrsim sweep scenarios/fecn-n0-sweep.json --vary nodes.SW1.params.n0=1:1:10001';
    await session.start(JSON.stringify(doc), 'fecn-n0-sweep', JSON.stringify(sweepDoc()), { by: 'form', command });
    await settled();
    const s = session.getState();
    expect(s.phase).toBe('refused');
    expect(s.message).toContain('10,001 runs (10,001 points × 1 seed);');
    expect(s.message!.endsWith(`: ${command}`)).toBe(true);
    expect(s.message).not.toContain('> fecn-n0-sweep.csv');
  });

  it('the algorithm sweep names its --vary in its command', () => {
    const scenario = JSON.parse(readFileSync(repoFile('scenarios/two-sources.json'), 'utf8'));
    const swept = withAlgorithmSweep(scenario, ENGINE_CATALOGUE)!;
    const ids = swept.sweep!.vary[0].values.join(',');
    expect(algorithmSweepCommand(swept, 'scenarios/two-sources.json')).toBe(`abrsim sweep scenarios/two-sources.json --vary 'nodes.*.algorithm=${ids}' > two-sources.csv`);
    expect(algorithmSweepCommand(swept, 'two-sources.json')).toBe(`abrsim sweep two-sources.json --vary 'nodes.*.algorithm=${ids}' > two-sources.csv`);
  });

  // Review: Run it again and the refusal named scenarios/<id>.json by the origin alone, for an
  // edited library scenario too (the form's command already went by what the scenario runs).
  it('names the library file for a scenario that runs as the library\'s, else the file Export saves', () => {
    const library = JSON.parse(readFileSync(repoFile('scenarios/two-sources.json'), 'utf8'));
    const byId = (id: string) => (id === 'two-sources' ? library : undefined);
    expect(commandFile(JSON.stringify(library), byId)).toBe('scenarios/two-sources.json');
    const edited = { ...library, links: library.links.map((l: { id: string }) => (l.id === 'L3' ? { ...l, rate_mbps: 100 } : l)) };
    expect(commandFile(JSON.stringify(edited), byId)).toBe('two-sources-edited.json');
    const swept = withAlgorithmSweep(edited, ENGINE_CATALOGUE)!;
    expect(remade({ madeBy: 'algorithms', scenarioId: 'two-sources', json: JSON.stringify(swept), sourceJson: JSON.stringify(edited) }, commandFile(JSON.stringify(edited), byId))!.command).toMatch(/^abrsim sweep two-sources-edited\.json /);
  });

  // QA: a refusal stayed on screen under the form's new field error until the next run.
  it("forgets a refusal of the form's sweep when the form changes, not one of the scenario's own block", async () => {
    const { session, settled } = setup();
    const bad = sweepDoc();
    bad.sweep.vary[0].values = [1, 0];
    await session.start(JSON.stringify(bad), 'fecn-n0-sweep', JSON.stringify(sweepDoc()), { by: 'form', command: 'abrsim sweep …' });
    await settled();
    expect(session.getState()).toMatchObject({ phase: 'refused', madeBy: 'form' });
    session.formChanged();
    expect(session.getState()).toMatchObject({ phase: 'idle', problems: null, message: null });
    await session.start(JSON.stringify(bad), 'fecn-n0-sweep');
    await settled();
    expect(session.getState()).toMatchObject({ phase: 'refused', madeBy: 'block' });
    session.formChanged();
    expect(session.getState().phase).toBe('refused');
  });

  it('a cancel keeps the runs already done and stops the rest', async () => {
    // A worker that works only when pumped: the plan, then one run, then the cancel.
    const { pool, workers } = pumpedPool();
    const session = new SweepSession(pool, vi.fn());
    const started = session.start(JSON.stringify(sweepDoc('fecn-delay-sweep')), 'fecn-delay-sweep');
    workers[0].pump();
    await started;
    expect(session.getState().phase).toBe('running');
    workers[0].pump();
    await vi.waitFor(() => expect(session.getState().finished).toBe(1));
    session.cancel();
    const s = session.getState();
    expect(s.phase).toBe('cancelled');
    expect(s.finished).toBeLessThan(8);
    expect(pool.pending).toBe(0);
    const kept = session.outcomes.filter((o) => o?.ok).length;
    await new Promise((r) => setTimeout(r, 50));
    expect(session.outcomes.filter((o) => o !== undefined).length).toBe(kept);
    expect(session.getState().finished).toBe(s.finished);
  });

  it('opens a run in the lab: the scenario of that run, named by its values', async () => {
    const { session, settled, open } = setup();
    const json = JSON.stringify(sweepDoc());
    await session.start(json, 'fecn-n0-sweep');
    await settled();
    await session.openRun(2);
    expect(open).toHaveBeenCalledWith(WASM_ENGINE.sweepScenario(json, 2), 'fecn-n0-sweep · sweep run 3: n0 = 200, seed 1');
  });
});

describe('withAlgorithmSweep', () => {
  const catalogue = ENGINE_CATALOGUE;

  it('sweeps every ATM algorithm on every switch of an ATM network, and every Ethernet one on Ethernet', () => {
    const atm = withAlgorithmSweep(sweepDoc('two-sources'), catalogue)!;
    expect(atm.sweep!.vary[0].paths).toEqual(['nodes.*.algorithm']);
    expect(atm.sweep!.vary[0].values).toEqual(['erica', 'erica_plus', 'debra', 'series_d', 'ut', 'eprca', 'efci']);
    const eth = withAlgorithmSweep(sweepDoc('fecn-hotspot'), catalogue)!;
    expect(eth.sweep!.vary[0].values).toEqual(['fecn', 'qcn', 'none']);
  });

  it('makes a sweep the engine plans: one run per algorithm, each a valid scenario', () => {
    const gfc1 = sweepDoc('gfc1'); // ERICA+ parameters on every switch: the others drop them
    const json = JSON.stringify(withAlgorithmSweep(gfc1, catalogue));
    const { plan } = JSON.parse(WASM_ENGINE.sweepPlan(json));
    expect(plan.runs).toBe(7);
    for (let i = 0; i < 7; i++) expect(JSON.parse(WASM_ENGINE.validateScenario(WASM_ENGINE.sweepScenario(json, i)))).toEqual([]);
  });

  it('tabulates utilisation beside fairness, and goodput where a connection runs TCP', () => {
    const plain = withAlgorithmSweep(sweepDoc('two-sources'), catalogue)!;
    expect(plain.sweep!.metrics).toContain('max_utilization');
    expect(plain.sweep!.metrics).not.toContain('goodput_mbps');
    const tcp = withAlgorithmSweep(sweepDoc('vsvd-1'), catalogue)!;
    expect(tcp.sweep!.metrics).toEqual(expect.arrayContaining(['jain_index', 'max_utilization', 'goodput_mbps']));
  });

  it('has nothing to sweep in a network without a switch', () => {
    const doc = sweepDoc('two-sources');
    doc.nodes = doc.nodes.filter((n: { kind: string }) => n.kind !== 'switch');
    expect(withAlgorithmSweep(doc, catalogue)).toBeNull();
  });
});

describe('a sweep made again (remade): what made it and its abrsim command, from its own text', () => {
  it('gives the form\'s command with its values and seeds, the algorithms\' --vary, and nothing for a block', () => {
    const source = sweepDoc();
    const form = { ...source, sweep: { vary: [{ paths: ['nodes.SW1.params.n0'], values: [3, 30] }], seeds: 2 } };
    const at = { scenarioId: 'fecn-n0-sweep', sourceJson: JSON.stringify(source) };
    expect(remade({ ...at, madeBy: 'form', json: JSON.stringify(form) }, 'scenarios/fecn-n0-sweep.json')).toEqual({
      by: 'form',
      command: "abrsim sweep scenarios/fecn-n0-sweep.json --vary nodes.SW1.params.n0=3,30 --seeds 2",
    });
    const algorithms = withAlgorithmSweep(source, ENGINE_CATALOGUE)!;
    expect(remade({ ...at, madeBy: 'algorithms', json: JSON.stringify(algorithms) }, 'scenarios/fecn-n0-sweep.json')).toEqual({ by: 'algorithms', command: algorithmSweepCommand(algorithms, 'scenarios/fecn-n0-sweep.json') });
    expect(remade({ ...at, madeBy: 'block', json: at.sourceJson }, 'scenarios/fecn-n0-sweep.json')).toBeNull();
  });
});
