import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { WorkerPool } from '../engine/pool';
import { repoFile } from '../test/fakes';
import { InProcessBatchWorker, WASM_ENGINE } from '../test/wasmEngine';
import { textLibrary } from '../scenario/share';
import { compareHash, comparePayloadOf, compareTable, decodeCompare, type VariantSpec } from './compare';
import { CompareDrafts, CompareSession, digestMatches } from './compareSession';
import { parseRow } from './sweepTable';

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
    session.start(json, [{ sets: ['nodes.SW1.algorithm=erica_plus', 'nodes.SW2.algorithm=erica_plus'] }]);
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

  it('a variant the engine refuses says why, with the path; the others finish', async () => {
    const { session, settled } = setup();
    session.start(short('two-sources'), [{ sets: ['nodes.SW1.algorithm=no_such'] }, { sets: ['run.seed=2'] }]);
    await settled();
    const [a, bad, c] = session.getState().outcomes;
    expect(a?.ok && c?.ok).toBe(true);
    expect(bad).toMatchObject({ ok: false, error: expect.stringMatching(/nodes\[2\]\.algorithm|algorithm/) });
  });

  it('refuses overrides the engine cannot apply, each with its reason, and runs nothing', async () => {
    const { session, settled } = setup();
    session.start(short('two-sources'), [{ sets: ['run.seed=2'] }, { sets: ['nodes.SW3.algorithm=erica'] }, { sets: ['nodes.SW2.id=SW9'] }]);
    await settled();
    const s = session.getState();
    expect(s.phase).toBe('refused');
    expect(s.problems).toEqual([
      "variant 2: --set 'nodes.SW3.algorithm': no element with id 'SW3' in 'nodes'",
      'variant 3: an override may not change the node or link ids (a variant must keep the topology)',
    ]);
    expect(s.outcomes.every((o) => o === undefined)).toBe(true);
  });

  it("gives every switch of gfc1 another algorithm as --set does: ERICA+'s queue target goes with it", async () => {
    const { session, settled } = setup();
    const json = short('gfc1', 5);
    session.start(json, [{ sets: ['nodes.*.algorithm=erica'] }]);
    await settled();
    const erica = JSON.parse(json);
    for (const n of erica.nodes) if (n.kind === 'switch') {
      n.algorithm = 'erica';
      delete n.params?.target_delay_us;
    }
    expect(session.getState().outcomes[1]).toEqual({ ok: true, cells: direct(JSON.stringify(erica)).row, digest: direct(JSON.stringify(erica)).digest });
  });

  it('refuses a plan without running anything', () => {
    const { session } = setup();
    session.start(short('two-sources'), [{ from: 'vsvd-1', sets: [] }]);
    expect(session.getState()).toMatchObject({ phase: 'refused', problems: [expect.stringMatching(/^variant 1: 'vsvd-1' is not of the same topology/)] });
  });

  it('a compare link replays every variant digest for digest', async () => {
    const first = setup();
    const json = short('qcn-hotspot', 10);
    const variants: VariantSpec[] = [{ from: 'fqcn-hotspot', sets: [] }, { from: 'fecn-hotspot', sets: ['run.seed=4'] }];
    first.session.start(json, variants);
    await first.settled();
    const digests = first.session.digests();
    expect(digests.every((d) => typeof d === 'string')).toBe(true);
    const library = textLibrary([{ id: 'qcn-hotspot', scenario: JSON.parse(file('qcn-hotspot')) }]);
    const hash = compareHash(JSON.parse(json), { variants, digests }, library);
    const d = decodeCompare(comparePayloadOf(hash)!, library);
    if (!d.ok) throw new Error(d.error);
    const again = setup();
    again.session.start(d.json, d.data.variants, d.data.digests ?? null);
    await again.settled();
    expect(again.session.digests()).toEqual(digests);
    expect([0, 1, 2].map((i) => digestMatches(again.session.getState(), i))).toEqual([true, true, true]);
  });
});

describe('CompareDrafts: the variants as written outlive the view and a reload', () => {
  const memoryStorage = () => {
    const m = new Map<string, string>();
    return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
  };
  const draft = (sets: string) => ({ from: '', algorithms: { SW1: 'erica_plus' }, sets });

  it('keeps each scenario its own, and a new store on the same storage (a reload) reads them back', () => {
    const storage = memoryStorage();
    const drafts = new CompareDrafts(storage);
    expect(drafts.get('two-sources')).toBeNull();
    drafts.set('two-sources', [draft('nodes.SW1.params.target_utilization=0.5')]);
    drafts.set('gfc1', [draft('run.seed=2'), draft('')]);
    const reloaded = new CompareDrafts(storage);
    expect(reloaded.get('two-sources')).toEqual([draft('nodes.SW1.params.target_utilization=0.5')]);
    expect(reloaded.get('gfc1')).toHaveLength(2);
  });

  it('reads nothing from unreadable or ill-shaped storage, and keeps the 20 most recent scenarios', () => {
    for (const raw of ['{', '[]', '{"x":[{"from":1}]}', '{"x":"no"}', '{"x":[{"from":"","algorithms":[],"sets":""}]}', '[["x"]]', '[[1,[]]]', '"x"']) {
      const storage = memoryStorage();
      storage.setItem('abrlab.compare-drafts', raw);
      expect(new CompareDrafts(storage).get('x')).toBeNull();
    }
    const storage = memoryStorage();
    const drafts = new CompareDrafts(storage);
    for (let i = 0; i < 25; i++) drafts.set(`s${i}`, [draft(`run.seed=${i}`)]);
    drafts.set('s3', [draft('again')]); // written again: among the recent
    const reloaded = new CompareDrafts(storage);
    expect(reloaded.get('s5')).toBeNull();
    expect(reloaded.get('s6')).not.toBeNull();
    expect(reloaded.get('s3')).toEqual([draft('again')]);
    expect(reloaded.get('s24')).not.toBeNull();
    // Ids that read as numbers are kept in the order written too.
    const numeric = new CompareDrafts(memoryStorage());
    numeric.set('two-sources', [draft('first')]);
    for (let i = 0; i < 20; i++) numeric.set(String(i), [draft(`run.seed=${i}`)]);
    expect(numeric.get('two-sources')).toBeNull();
    expect(numeric.get('0')).not.toBeNull();
    // The earlier form, an object of drafts by id, is still read.
    const earlier = memoryStorage();
    earlier.setItem('abrlab.compare-drafts', JSON.stringify({ gfc1: [draft('run.seed=2')] }));
    expect(new CompareDrafts(earlier).get('gfc1')).toEqual([draft('run.seed=2')]);
  });

  it("a comparison started from elsewhere (a link) becomes the form's variants; the form's own drafts as written", () => {
    const pool = { submit: () => new Promise<never>(() => undefined), cancel: () => undefined };
    const session = new CompareSession(pool as never, () => undefined);
    const json = short('two-sources');
    void session.start(json, [{ from: 'two-sources-staggered', sets: ['run.seed=2'] }]);
    expect(session.drafts.get('two-sources')).toEqual([{ from: 'two-sources-staggered', algorithms: {}, sets: 'run.seed=2' }]);
    void session.start(json, [{ sets: ['nodes.SW1.algorithm=erica_plus'] }], null, [draft('')]);
    expect(session.drafts.get('two-sources')).toEqual([draft('')]);
  });
});
