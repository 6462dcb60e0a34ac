import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { JobFailed, WorkerPool } from '../engine/pool';
import { repoFile } from '../test/fakes';
import { InProcessBatchWorker, WASM_ENGINE } from '../test/wasmEngine';
import { textLibrary } from '../scenario/share';
import { compareHash, comparePayloadOf, compareTable, decodeCompare, type VariantSpec } from './compare';
import { CompareDrafts, CompareSession, digestMatches, draftsKey } from './compareSession';
import { NOWHERE, type Place } from '../scenario/place';
import { parseRow } from './sweepTable';
import type { JobRunner } from './sweep';

const file = (id: string) => readFileSync(repoFile(`scenarios/${id}.json`), 'utf8');
const short = (id: string, ms = 30) => {
  const doc = JSON.parse(file(id));
  doc.run.duration_ms = ms;
  if (doc.run.steady_from_ms !== undefined) doc.run.steady_from_ms = ms / 2;
  return JSON.stringify(doc);
};

function setup() {
  const pool = new WorkerPool(() => new InProcessBatchWorker(WASM_ENGINE, true), 3);
  const session = new CompareSession(pool, (id) => short(id, 10));
  const settled = () => vi.waitFor(() => expect(['done', 'refused', 'cancelled']).toContain(session.getState().phase), { timeout: 20_000 });
  return { session, settled };
}

function direct(json: string) {
  const sim = WASM_ENGINE.createSimulation(json);
  const rows: number[] = [];
  while (!sim.done()) {
    sim.advance(sim.endMs(), 1e6);
    rows.push(...sim.takeSamples());
  }
  const out = { row: parseRow(sim.summaryRow()), digest: sim.digest(), rows, meta: JSON.parse(sim.seriesMeta()) };
  sim.free();
  return out;
}

describe('CompareSession', () => {
  it('runs ERICA against ERICA+ on two-sources: each row and digest equal a direct run', async () => {
    const { session, settled } = setup();
    const json = short('two-sources');
    session.start(json, [{ sets: ['nodes.SW1.algorithm=erica_plus', 'nodes.SW2.algorithm=erica_plus'] }], NOWHERE);
    await settled();
    const s = session.getState();
    expect(s.phase).toBe('done');
    const plus = JSON.parse(json);
    plus.nodes[2].algorithm = plus.nodes[3].algorithm = 'erica_plus';
    const want = [direct(json), direct(JSON.stringify(plus))];
    expect(s.outcomes).toEqual(want.map((w) => ({ ok: true, cells: w.row, digest: w.digest })));
    // Each variant's series, for its charts: the very samples of the direct run.
    for (const [i, w] of want.entries()) {
      const series = session.series[i]!;
      expect(series.meta).toEqual(w.meta);
      expect(series.rows.length).toBe(w.rows.length);
      expect(series.rows.length % (w.meta.length + 1)).toBe(0);
      expect(Array.from(series.rows)).toEqual(w.rows);
    }
    expect(want[0].digest).not.toBe(want[1].digest);
    const rows = compareTable(s.outcomes);
    expect(rows.find((r) => r.label === 'C1 mean rate (Mbps)')!.values.every((v) => typeof v === 'number')).toBe(true);
  });

  it('a variant whose scenario the engine refuses is refused before anything runs, with the path and the rule, beside an override that does not apply', async () => {
    const { session, settled } = setup();
    session.start(
      short('two-sources'),
      [{ sets: ['nodes.SW1.algorithm=no_such'] }, { sets: ['nodes.SW9.algorithm=erica', 'nodes.SW1.params.target_utilization=7'] }, { sets: ['run.seed=2'] }],
      NOWHERE,
    );
    await settled();
    const s = session.getState();
    expect(s.phase).toBe('refused');
    // One line a problem, each naming its variant.
    expect(s.problems).toHaveLength(3);
    expect(s.problems[0]).toMatch(/^variant 1: .*nodes\[2\] \(SW1\)\.algorithm.*no_such/);
    expect(s.problems[1]).toMatch(/^variant 2: .*no element with id 'SW9'/);
    expect(s.problems[2]).toMatch(/^variant 2: .*target_utilization.*between 0\.1 and 1/);
    expect(s.outcomes.every((o) => o === undefined)).toBe(true);
  });

  it('a run that fails in the pool says why; the others finish', async () => {
    const pool = new WorkerPool(() => new InProcessBatchWorker(WASM_ENGINE, true), 3);
    // The pool fails the run of seed 2 (as a worker lost to a crash would).
    const failing: JobRunner = {
      submit: (job) => (job.type === 'run' && /"seed":\s*2\b/.test(job.scenario) ? Promise.reject(new JobFailed('the worker stopped')) : pool.submit(job)),
      cancel: (why) => pool.cancel(why),
      size: pool.size,
    };
    const session = new CompareSession(failing, (id) => short(id, 10));
    session.start(short('two-sources'), [{ sets: ['run.seed=2'] }, { sets: ['run.seed=3'] }], NOWHERE);
    await vi.waitFor(() => expect(session.getState().phase).toBe('done'), { timeout: 20_000 });
    const [a, bad, c] = session.getState().outcomes;
    expect(a?.ok && c?.ok).toBe(true);
    expect(bad).toEqual({ ok: false, error: 'the worker stopped' });
  });

  it('refuses overrides the engine cannot apply, each with its reason, and runs nothing', async () => {
    const { session, settled } = setup();
    session.start(short('two-sources'), [{ sets: ['run.seed=2'] }, { sets: ['nodes.SW3.algorithm=erica'] }, { sets: ['nodes.SW2.id=SW9'] }], NOWHERE);
    await settled();
    const s = session.getState();
    expect(s.phase).toBe('refused');
    expect(s.problems).toEqual([
      "variant 2: --set 'nodes.SW3.algorithm': no element with id 'SW3' in 'nodes'",
      'variant 3: an override may not change the node or link ids (a variant must keep the topology)',
    ]);
    expect(s.outcomes.every((o) => o === undefined)).toBe(true);
  });

  it('with a blank variant left out, what the engine says names the variant as the form numbers it', async () => {
    const { session, settled } = setup();
    session.start(short('two-sources'), [{ sets: [] }, { sets: ['nodes.SW3.algorithm=erica'] }], NOWHERE);
    await settled();
    expect(session.getState().problems).toEqual(["variant 2: --set 'nodes.SW3.algorithm': no element with id 'SW3' in 'nodes'"]);
    const doc = JSON.parse(short('two-sources'));
    doc.changes = [{ at_ms: 8, node: 'SW1', param: 'delta', value: 0.2 }];
    session.start(JSON.stringify(doc), [{ sets: [] }, { sets: ['nodes.SW1.algorithm=ut'] }], NOWHERE);
    await settled();
    const s = session.getState();
    expect(s.phase).toBe('done');
    expect(s.runs).toHaveLength(2);
    expect(s.notes).toEqual([expect.stringMatching(/^variant 2: SW1 now runs Uniform Tracking/)]);
  });

  it("gives every switch of gfc1 another algorithm as --set does: ERICA+'s queue target goes with it", async () => {
    const { session, settled } = setup();
    const json = short('gfc1', 5);
    session.start(json, [{ sets: ['nodes.*.algorithm=erica'] }], NOWHERE);
    await settled();
    const erica = JSON.parse(json);
    for (const n of erica.nodes) if (n.kind === 'switch') {
      n.algorithm = 'erica';
      delete n.params?.target_delay_us;
    }
    expect(session.getState().outcomes[1]).toEqual({ ok: true, cells: direct(JSON.stringify(erica)).row, digest: direct(JSON.stringify(erica)).digest });
  });

  it("a variant with another algorithm drops the recorded changes it has no parameter for, says so, and runs", async () => {
    const { session, settled } = setup();
    const doc = JSON.parse(short('two-sources'));
    doc.changes = [
      { at_ms: 5, node: 'SW1', param: 'target_utilization', value: 0.6 },
      { at_ms: 8, node: 'SW1', param: 'delta', value: 0.2 },
    ];
    session.start(JSON.stringify(doc), [{ sets: ['nodes.SW1.algorithm=ut'] }], NOWHERE);
    await settled();
    const s = session.getState();
    expect(s.phase).toBe('done');
    expect(s.notes).toEqual([
      'variant 1: SW1 now runs Uniform Tracking: its recorded change of delta at 8 ms is dropped (Uniform Tracking has no such parameter)',
    ]);
    const ut = { ...doc, nodes: doc.nodes.map((n: { id: string }) => (n.id === 'SW1' ? { ...n, algorithm: 'ut' } : n)), changes: [doc.changes[0]] };
    expect(JSON.parse(s.scenarios[1]).changes).toEqual(ut.changes);
    expect(s.outcomes[1]).toEqual({ ok: true, cells: direct(JSON.stringify(ut)).row, digest: direct(JSON.stringify(ut)).digest });
    expect(s.outcomes[0]).toMatchObject({ ok: true });
  });

  it('refuses a plan without running anything', () => {
    const { session } = setup();
    session.start(short('two-sources'), [{ from: 'vsvd-1', sets: [] }], NOWHERE);
    expect(session.getState()).toMatchObject({ phase: 'refused', problems: [expect.stringMatching(/^variant 1: 'vsvd-1' is not of the same topology/)] });
  });

  it('a compare link replays every variant digest for digest', async () => {
    const first = setup();
    const json = short('qcn-hotspot', 10);
    const variants: VariantSpec[] = [{ from: 'fqcn-hotspot', sets: [] }, { from: 'fecn-hotspot', sets: ['run.seed=4'] }];
    first.session.start(json, variants, NOWHERE);
    await first.settled();
    const digests = first.session.digests();
    expect(digests.every((d) => typeof d === 'string')).toBe(true);
    const library = textLibrary([{ id: 'qcn-hotspot', scenario: JSON.parse(file('qcn-hotspot')) }]);
    const hash = compareHash(JSON.parse(json), { variants, digests }, library);
    const d = decodeCompare(comparePayloadOf(hash)!, library);
    if (!d.ok) throw new Error(d.error);
    const again = setup();
    again.session.start(d.json, d.data.variants, NOWHERE, { expected: d.data.digests ?? null });
    await again.settled();
    expect(again.session.digests()).toEqual(digests);
    expect([0, 1, 2].map((i) => digestMatches(again.session.getState(), i))).toEqual([true, true, true]);
  });
});

describe('CompareDrafts: the variants as written outlive the view, a reload and the browser', () => {
  const draft = (sets: string) => ({ from: '', algorithms: { SW1: 'erica_plus' }, sets });
  const library = (id: string): Place => ({ kind: 'library', id });
  const mine = (id: string): Place => ({ kind: 'mine', id });
  /** Web Storage in memory. */
  const memoryStorage = () => {
    const m = new Map<string, string>();
    return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
  };
  // localStorage: one for the browser, shared by its tabs, kept when it closes.
  const browser = memoryStorage;

  it('keeps each scenario its own, and a new CompareDrafts on the same store (the browser opened again) reads them back', () => {
    const storage = browser();
    const drafts = new CompareDrafts(storage);
    expect(drafts.get(library('two-sources'), 'two-sources')).toBeNull();
    drafts.set(library('two-sources'), 'two-sources', [draft('nodes.SW1.params.target_utilization=0.5')]);
    drafts.set(library('gfc1'), 'gfc1', [draft('run.seed=2'), draft('')]);
    const reopened = new CompareDrafts(storage);
    expect(reopened.get(library('two-sources'), 'two-sources')).toEqual([draft('nodes.SW1.params.target_utilization=0.5')]);
    expect(reopened.get(library('gfc1'), 'gfc1')).toHaveLength(2);
  });

  // The bug: drafts were kept by the scenario JSON's id, which a user's copy keeps, so the
  // variants typed for the copy replaced those of the library scenario, and the other way round.
  it("regression: a user's copy of two-sources and the library's two-sources (one JSON id) keep their own variants", () => {
    const storage = browser();
    const drafts = new CompareDrafts(storage);
    drafts.set(library('two-sources'), 'two-sources', [draft('run.seed=1')]);
    drafts.set(mine('m1'), 'two-sources', [draft('run.seed=2'), draft('run.seed=3')]);
    drafts.set(mine('m2'), 'two-sources', []);
    const reopened = new CompareDrafts(storage);
    expect(reopened.get(library('two-sources'), 'two-sources')).toEqual([draft('run.seed=1')]);
    expect(reopened.get(mine('m1'), 'two-sources')).toEqual([draft('run.seed=2'), draft('run.seed=3')]);
    expect(reopened.get(mine('m2'), 'two-sources')).toEqual([]);
    // A file or a link of that id, kept nowhere, is keyed by its id: none of the three.
    expect(reopened.get(NOWHERE, 'two-sources')).toBeNull();
    expect(draftsKey(NOWHERE, 'two-sources')).toBe('id:two-sources');
    expect(draftsKey(NOWHERE, null)).toBeNull();
    expect(draftsKey(mine('m1'), 'two-sources')).toBe('mine:m1');
  });

  it("two tabs writing two scenarios keep both, and each reads the other's newer variants", () => {
    const storage = browser();
    const tabA = new CompareDrafts(storage);
    const tabB = new CompareDrafts(storage);
    tabA.set(library('two-sources'), 'two-sources', [draft('a')]);
    tabB.set(library('gfc1'), 'gfc1', [draft('b')]); // B read nothing at its start: A's are kept all the same
    tabA.set(library('two-sources'), 'two-sources', [draft('a again')]);
    const reopened = new CompareDrafts(storage);
    expect(reopened.get(library('two-sources'), 'two-sources')).toEqual([draft('a again')]);
    expect(reopened.get(library('gfc1'), 'gfc1')).toEqual([draft('b')]);
    expect(tabB.get(library('two-sources'), 'two-sources')).toEqual([draft('a again')]);
    expect(tabA.get(library('gfc1'), 'gfc1')).toEqual([draft('b')]);
  });

  it('reads nothing from unreadable or ill-shaped storage, and keeps the 20 most recently written scenarios', () => {
    for (const raw of ['{', '[]', '{"x":[{"from":1}]}', '{"x":"no"}', '{"x":[{"from":"","algorithms":[],"sets":""}]}', '[["x"]]', '[[1,[]]]', '"x"', '[["library:x",[{"from":1}]]]']) {
      const storage = browser();
      storage.setItem('abrlab.compare-drafts', raw);
      expect(new CompareDrafts(storage).get(library('x'), 'x')).toBeNull();
      // What could not be read is written over at the next change.
      const drafts = new CompareDrafts(storage);
      drafts.set(library('y'), 'y', [draft('')]);
      expect(new CompareDrafts(storage).get(library('y'), 'y')).toEqual([draft('')]);
    }
    const storage = browser();
    // Written from two tabs in turn: the store keeps the 20 newest of all.
    const tabs = [new CompareDrafts(storage), new CompareDrafts(storage)];
    for (let i = 0; i < 25; i++) tabs[i % 2].set(library(`s${i}`), `s${i}`, [draft(`run.seed=${i}`)]);
    tabs[0].set(library('s3'), 's3', [draft('again')]); // written again: among the recent
    const reopened = new CompareDrafts(storage);
    expect(reopened.get(library('s5'), 's5')).toBeNull();
    expect(reopened.get(library('s6'), 's6')).not.toBeNull();
    expect(reopened.get(library('s3'), 's3')).toEqual([draft('again')]);
    expect(reopened.get(library('s24'), 's24')).not.toBeNull();
    expect((JSON.parse(storage.getItem('abrlab.compare-drafts')!) as unknown[]).length).toBe(20);
    // Keys that read as numbers are kept in the order written too.
    const numeric = new CompareDrafts(browser());
    numeric.set(library('two-sources'), 'two-sources', [draft('first')]);
    for (let i = 0; i < 20; i++) numeric.set(mine(String(i)), 'two-sources', [draft(`run.seed=${i}`)]);
    expect(numeric.get(library('two-sources'), 'two-sources')).toBeNull();
    expect(numeric.get(mine('0'), 'two-sources')).not.toBeNull();
  });

  it('a store that refuses writes (private mode, quota): the page keeps what it was given', () => {
    const full = { getItem: () => null, setItem: () => { throw new Error('QuotaExceededError'); } };
    const drafts = new CompareDrafts(full);
    drafts.set(library('gfc1'), 'gfc1', [draft('run.seed=2')]);
    expect(drafts.get(library('gfc1'), 'gfc1')).toEqual([draft('run.seed=2')]);
  });

  it("what a tab kept the earlier way (its sessionStorage, by scenario id) shows until the form is written again", () => {
    const tab = memoryStorage();
    tab.setItem('abrlab.compare-drafts', JSON.stringify([['two-sources', [draft('run.seed=2')]]]));
    const drafts = new CompareDrafts(browser(), tab);
    expect(drafts.get(library('two-sources'), 'two-sources')).toEqual([draft('run.seed=2')]);
    expect(drafts.get(mine('m1'), 'two-sources')).toEqual([draft('run.seed=2')]);
    drafts.set(mine('m1'), 'two-sources', [draft('mine')]);
    expect(drafts.get(mine('m1'), 'two-sources')).toEqual([draft('mine')]);
    expect(drafts.get(library('two-sources'), 'two-sources')).toEqual([draft('run.seed=2')]);
    // The form before that, an object of drafts by id, is read too.
    const older = memoryStorage();
    older.setItem('abrlab.compare-drafts', JSON.stringify({ gfc1: [draft('run.seed=3')] }));
    expect(new CompareDrafts(browser(), older).get(library('gfc1'), 'gfc1')).toEqual([draft('run.seed=3')]);
  });

  it("a scenario's variants go with it when it moves (the user's copy at a first change); the place it left keeps its own", () => {
    const drafts = new CompareDrafts(browser());
    drafts.set(library('two-sources'), 'two-sources', [draft('typed on the library scenario')]);
    drafts.moved(library('two-sources'), mine('m1'), 'two-sources');
    expect(drafts.get(mine('m1'), 'two-sources')).toEqual([draft('typed on the library scenario')]);
    drafts.set(mine('m1'), 'two-sources', [draft('the copy')]);
    expect(drafts.get(library('two-sources'), 'two-sources')).toEqual([draft('typed on the library scenario')]);
    // A place with variants of its own keeps them; a place without any moves nothing.
    drafts.moved(library('two-sources'), mine('m1'), 'two-sources');
    expect(drafts.get(mine('m1'), 'two-sources')).toEqual([draft('the copy')]);
    drafts.moved(library('gfc1'), mine('m2'), 'gfc1');
    expect(drafts.get(mine('m2'), 'gfc1')).toBeNull();
    // A link's scenario (kept nowhere, by its id) moves as well.
    drafts.set(NOWHERE, 'gfc1', [draft('from a link')]);
    drafts.moved(NOWHERE, mine('m3'), 'gfc1');
    expect(drafts.get(mine('m3'), 'gfc1')).toEqual([draft('from a link')]);
  });

  it("a comparison started from elsewhere (a link, a lesson) becomes the form's variants where the form reads them; the form's own as written", () => {
    const pool = { submit: () => new Promise<never>(() => undefined), cancel: () => undefined };
    const session = new CompareSession(pool as never, () => undefined);
    const json = short('two-sources');
    void session.start(json, [{ from: 'two-sources-staggered', sets: ['run.seed=2'] }], NOWHERE);
    expect(session.drafts.get(NOWHERE, 'two-sources')).toEqual([{ from: 'two-sources-staggered', algorithms: {}, sets: 'run.seed=2' }]);
    expect(session.drafts.get(library('two-sources'), 'two-sources')).toBeNull();
    // A lesson's button on the user's copy: the copy's variants, not the library scenario's.
    void session.start(json, [{ from: 'two-sources-staggered', sets: [] }], mine('m1'));
    expect(session.drafts.get(mine('m1'), 'two-sources')).toEqual([{ from: 'two-sources-staggered', algorithms: {}, sets: '' }]);
    expect(session.drafts.get(library('two-sources'), 'two-sources')).toBeNull();
    void session.start(json, [{ sets: ['nodes.SW1.algorithm=erica_plus'] }], library('two-sources'), { drafts: [draft('')] });
    expect(session.drafts.get(library('two-sources'), 'two-sources')).toEqual([draft('')]);
  });

  // Review: a link without drafts put a source's `algorithm` in a list the form does not show.
  it("reads a variant without a draft against its own scenario's switches: only theirs go to a list", () => {
    const pool = { submit: () => new Promise<never>(() => undefined), cancel: () => undefined };
    const session = new CompareSession(pool as never, (id) => (id === 'vsvd-1-end-to-end' ? file(id) : undefined));
    void session.start(
      file('vsvd-1'),
      [
        { sets: ['nodes.SW3.algorithm=erica', 'nodes.S1.algorithm=erica', 'nodes.SW1.algorithm=ut'] },
        { from: 'vsvd-1-end-to-end', sets: ['nodes.SW2.algorithm=eprca', 'connections.C1.mcr_mbps=1'] },
      ],
      NOWHERE,
    );
    expect(session.getState().drafts).toEqual([
      { from: '', algorithms: { SW3: 'erica' }, sets: 'nodes.S1.algorithm=erica nodes.SW1.algorithm=ut' },
      { from: 'vsvd-1-end-to-end', algorithms: { SW2: 'eprca' }, sets: 'connections.C1.mcr_mbps=1' },
    ]);
  });
});
