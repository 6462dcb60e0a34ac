// Determinism across builds: the same scenario gives bit-identical samples natively (abrsim)
// and in wasm (the web build, run here under Node). Compares the sample digests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
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
  const problems = JSON.parse(pkg.validateScenario(JSON.stringify(bad)));
  assert.ok(problems.length > 0);
  assert.ok(problems.some((p) => p.path.includes('duration_ms')), JSON.stringify(problems));
  assert.throws(() => new pkg.Simulation(JSON.stringify(bad)));
});
