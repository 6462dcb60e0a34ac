// A sweep in wasm (as the lab runs it: sweepPlan, then each run's scenario from sweepScenario,
// then its summaryRow) gives the very rows `abrsim sweep` prints for the same file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { loadWasmEngine, repoRoot, runToEnd } from './wasm-engine.mjs';

const abrsim = resolve(repoRoot, 'engine/target/release/abrsim');
const pkg = await loadWasmEngine();

test('the FECN N0 sweep: wasm rows equal abrsim sweep rows, value for value', () => {
  const doc = JSON.parse(readFileSync(resolve(repoRoot, 'scenarios/fecn-n0-sweep.json'), 'utf8'));
  doc.run.duration_ms = 30; // short, so that the test is quick; the same for both
  doc.run.steady_from_ms = 15;
  const json = JSON.stringify(doc);
  const planned = JSON.parse(pkg.sweepPlan(json));
  assert.ok(planned.plan, JSON.stringify(planned));
  const { plan } = planned;
  assert.equal(plan.runs, 3);
  // Each value also as abrsim sweep's CSV writes it.
  assert.deepEqual(plan.params, [{ column: 'n0', values: [1, 10, 200], texts: ['1', '10', '200'] }]);
  const native = execFileSync(abrsim, ['sweep', writeTemp(json), '--format', 'json'], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(native.length, plan.runs);
  for (let i = 0; i < plan.runs; i++) {
    const { sim } = runToEnd(pkg, pkg.sweepScenario(json, i));
    try {
      const row = Object.fromEntries(JSON.parse(sim.summaryRow()));
      const names = Object.keys(row);
      assert.deepEqual(names, plan.header.slice(plan.params.length + 1), 'a row has the header\'s columns');
      for (const name of names) assert.deepEqual(row[name], native[i][name], `run ${i}: ${name}`);
      assert.equal(native[i].n0, plan.params[0].values[i]);
    } finally {
      sim.free();
    }
  }
});

test('a bad sweep comes back as problems with paths, not as an exception', () => {
  const doc = JSON.parse(readFileSync(resolve(repoRoot, 'scenarios/fecn-n0-sweep.json'), 'utf8'));
  doc.sweep.vary[0].values = [1, 0];
  const { problems } = JSON.parse(pkg.sweepPlan(JSON.stringify(doc)));
  assert.ok(problems.some((p) => p.path === 'sweep.vary[0].values[1]'), JSON.stringify(problems));
  assert.throws(() => pkg.sweepScenario(JSON.stringify(doc), 0), /values\[1\]/);
});

function writeTemp(text) {
  const path = resolve(mkdtempSync(resolve(tmpdir(), 'abr-sweep-')), 'sweep.json');
  writeFileSync(path, text);
  return path;
}
