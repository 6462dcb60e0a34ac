// Determinism across builds: the same scenario gives bit-identical samples natively (abrsim)
// and in wasm (the web build, run here under Node). Compares the sample digests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { loadWasmEngine, repoRoot, runToEnd } from './wasm-engine.mjs';

const abrsim = resolve(repoRoot, 'engine/target/release/abrsim');
const scenarioDir = resolve(repoRoot, 'scenarios');
const scenarios = readdirSync(scenarioDir).filter((f) => f.endsWith('.json')).sort();

function native(file) {
  assert.ok(existsSync(abrsim), `native CLI not built: ${abrsim} (cargo build --release)`);
  return JSON.parse(execFileSync(abrsim, ['run', file], { encoding: 'utf8', maxBuffer: 64 << 20 }));
}

const pkg = await loadWasmEngine();

test('the library includes two-sources', () => {
  assert.ok(scenarios.includes('two-sources.json'));
});

for (const name of scenarios) {
  test(`${name}: wasm digest equals the native CLI digest`, () => {
    const file = resolve(scenarioDir, name);
    const expected = native(file);
    assert.match(expected.digest, /^[0-9a-f]+$/, 'the CLI summary carries a hex digest');
    const { sim, rows } = runToEnd(pkg, readFileSync(file, 'utf8'));
    try {
      assert.ok(rows > 0, 'the wasm run produced samples');
      assert.equal(sim.nowMs(), expected.sim_ms);
      assert.equal(sim.eventsProcessed(), expected.events);
      assert.equal(sim.digest(), expected.digest);
    } finally {
      sim.free();
    }
  });
}

test('slicing does not change the run: tiny slices give the same digest', () => {
  const json = readFileSync(resolve(scenarioDir, 'two-sources.json'), 'utf8');
  const whole = runToEnd(pkg, json, 10_000_000);
  const sliced = runToEnd(pkg, json, 997);
  try {
    assert.equal(sliced.sim.digest(), whole.sim.digest());
    assert.equal(sliced.rows, whole.rows);
  } finally {
    whole.sim.free();
    sliced.sim.free();
  }
});

test('an invalid scenario is reported with field paths, not thrown', () => {
  const bad = JSON.parse(readFileSync(resolve(scenarioDir, 'two-sources.json'), 'utf8'));
  bad.run.duration_ms = -1;
  bad.links[1].rate_mbps = 0;
  const problems = JSON.parse(pkg.validateScenario(JSON.stringify(bad)));
  assert.ok(problems.some((p) => p.path === 'run.duration_ms' && p.at === undefined), JSON.stringify(problems));
  // An element of a list is named by its id too, as abrsim names it; the path stays the JSON path.
  assert.ok(problems.some((p) => p.path === 'links[1].rate_mbps' && p.at === 'links[1] (L2).rate_mbps'), JSON.stringify(problems));
  assert.throws(() => new pkg.Simulation(JSON.stringify(bad)), /links\[1\] \(L2\)\.rate_mbps/);
});

// The RM-cell trace natively (abrsim run --rm-trace, CSV) and in wasm (takeRmTrace, JSON, drained
// after every slice as the worker would) holds the same records, number for number.
const traced = [
  ['two-sources.json', 100],
  ['parking-lot-3.json', 60],
  ['vsvd-1.json', 1500],
  ['vpc-abr.json', 80],
  ['fecn-hotspot.json', 40],
  ['qcn-hotspot.json', 40],
];
for (const [name, durationMs] of traced) {
  test(`${name}: the RM-cell trace in wasm equals abrsim run --rm-trace`, () => {
    const doc = JSON.parse(readFileSync(resolve(scenarioDir, name), 'utf8'));
    doc.run.duration_ms = durationMs;
    delete doc.run.steady_from_ms;
    const json = JSON.stringify(doc);
    const dir = mkdtempSync(resolve(tmpdir(), 'abr-rm-trace-'));
    writeFileSync(resolve(dir, 'scenario.json'), json);
    const csvFile = resolve(dir, 'trace.csv');
    const summary = JSON.parse(
      execFileSync(abrsim, ['run', resolve(dir, 'scenario.json'), '--rm-trace', csvFile], { encoding: 'utf8' }),
    );
    const [header, ...lines] = readFileSync(csvFile, 'utf8').trim().split('\n');
    const columns = header.split(',');
    assert.deepEqual(columns, [
      'time_us', 'connection', 'rm_seq', 'node', 'direction', 'er_in_mbps', 'er_out_mbps', 'ccr_mbps', 'ci', 'ni', 'by',
    ]);
    const sim = new pkg.Simulation(json);
    const records = [];
    try {
      sim.setRmTrace(1 << 20);
      while (!sim.done()) {
        sim.advance(sim.endMs(), 50_000);
        records.push(...JSON.parse(sim.takeRmTrace()));
      }
      assert.equal(sim.rmTraceDropped(), 0);
      assert.equal(sim.digest(), summary.digest, 'tracing changes nothing in wasm either');
    } finally {
      sim.free();
    }
    assert.ok(records.length > 100, `${records.length} records`);
    assert.equal(records.length, lines.length, 'as many records natively as in wasm');
    const num = (text) => (text === '' ? null : Number(text));
    // Each path's cells travel under its first member.
    const pathOf = new Map((doc.virtual_paths ?? []).map((p) => [p.connections[0], p.id]));
    const sources = new Set(doc.nodes.filter((n) => n.kind === 'source').map((n) => n.id));
    lines.forEach((line, i) => {
      const f = line.split(',');
      // BN, the virtual path, a notification's feedback and the source's ACR around a cell it
      // received are in the JSON only (the CSV's columns are a contract; it writes the
      // feedback in its ER columns).
      const { bn, vp, feedback, acr_before_mbps, acr_after_mbps, ...r } = records[i];
      assert.equal(typeof bn, 'boolean');
      assert.equal(feedback !== null, bn, `record ${i}: feedback exactly on a notification's records`);
      if (feedback !== null) Object.assign(r, { er_in_mbps: feedback, er_out_mbps: feedback });
      // A connection's own source (not a VS/VD switch's virtual source, not a path's end).
      const atSource = r.direction === 'received' && sources.has(r.node) && !vp;
      assert.equal(acr_before_mbps !== null && acr_after_mbps !== null, atSource, `record ${i}: the source's ACR around the cell`);
      // A path's own RM cells (vpc-abr's, all of them: its members are UBR) name it.
      assert.equal(vp, pathOf.get(r.connection) ?? '', `record ${i}: vp`);
      const native = {
        time_us: num(f[0]), connection: f[1], rm_seq: num(f[2]), node: f[3], direction: f[4],
        er_in_mbps: num(f[5]), er_out_mbps: num(f[6]), ccr_mbps: num(f[7]),
        ci: f[8] === '1', ni: f[9] === '1', by: f[10],
      };
      assert.deepEqual(r, native, `record ${i}`);
    });
  });
}

test('explain: a switch port explains itself; a bad switch or port is a problem naming the argument', () => {
  const sim = new pkg.Simulation(readFileSync(resolve(scenarioDir, 'two-sources.json'), 'utf8'));
  try {
    sim.advance(20, 1e9);
    const { explain } = JSON.parse(sim.explain('SW1', 'SW2'));
    assert.equal(explain.algorithm, 'erica');
    assert.equal(explain.port, 'SW1->SW2');
    assert.equal(explain.time_us, 20_000);
    const fairShare = explain.values.find((q) => q.name === 'fair_share_mbps');
    assert.equal(fairShare.unit, 'Mbps');
    assert.ok(Math.abs(fairShare.value - 69.984) < 1e-9, JSON.stringify(fairShare));
    assert.deepEqual(explain.vcs.map((v) => v.connection), ['C1', 'C2']);
    assert.equal(JSON.parse(sim.explain('SW9', 'SW2')).problem.path, 'switch');
    assert.equal(JSON.parse(sim.explain('SW1', 'D1')).problem.path, 'port');
  } finally {
    sim.free();
  }
});
