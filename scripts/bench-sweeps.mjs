#!/usr/bin/env node
// Sweep speed (issue 11): the FECN N0 sweep (3 runs) and the Qeq × loop-delay sweep (8 runs),
// natively with `abrsim sweep --jobs 1` and `--jobs 2` (scaling with cores) and in wasm under
// Node one run after another, as one batch worker of the browser's pool runs them (the pool
// runs one such worker per core but one). Numbers, not pass/fail.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadWasmEngine, repoRoot, runToEnd } from '../tests/node/wasm-engine.mjs';

const abrsim = resolve(repoRoot, 'engine/target/release/abrsim');
const pkg = await loadWasmEngine();
const time = (fn) => {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
};

// One untimed run first: the wasm compiles its hot code on the first run.
runToEnd(pkg, pkg.sweepScenario(readFileSync(resolve(repoRoot, 'scenarios/fecn-n0-sweep.json'), 'utf8'), 0)).sim.free();

console.log('\nsweep                 runs   abrsim --jobs 1   --jobs 2   wasm, one worker (ms)');
for (const id of ['fecn-n0-sweep', 'fecn-delay-sweep']) {
  const file = resolve(repoRoot, `scenarios/${id}.json`);
  const json = readFileSync(file, 'utf8');
  const { plan } = JSON.parse(pkg.sweepPlan(json));
  const native = (jobs) => (existsSync(abrsim) ? time(() => execFileSync(abrsim, ['sweep', file, '--jobs', String(jobs)])).toFixed(0) : '-');
  const wasm = time(() => {
    for (let i = 0; i < plan.runs; i++) runToEnd(pkg, pkg.sweepScenario(json, i)).sim.free();
  });
  console.log(id.padEnd(20), String(plan.runs).padStart(6), native(1).padStart(17), native(2).padStart(10), wasm.toFixed(0).padStart(24));
}
