#!/usr/bin/env node
// Soak: one long run natively (`abrsim run --duration-ms`, default one simulated hour) and one
// in wasm under Node (default ten simulated minutes, rows taken as the browser's worker takes
// them), each with its peak memory. Numbers, not pass/fail: the sample history is bounded
// (engine/sim/src/history.rs), so peak memory should not grow with the length of the run.
//
//   node scripts/bench-soak.mjs [--native-ms MS] [--wasm-ms MS] [scenario.json]
//   (default: scenarios/two-sources.json, 3,600,000 ms natively, 600,000 ms in wasm;
//    ABR_SOAK_NATIVE_MS / ABR_SOAK_WASM_MS / ABR_SOAK_SCENARIO set the same)
import { readFileSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { loadWasmEngine, repoRoot } from '../tests/node/wasm-engine.mjs';

const args = process.argv.slice(2);
let nativeMs = Number(process.env.ABR_SOAK_NATIVE_MS ?? 3_600_000);
let wasmMs = Number(process.env.ABR_SOAK_WASM_MS ?? 600_000);
let file = resolve(repoRoot, process.env.ABR_SOAK_SCENARIO ?? 'scenarios/two-sources.json');
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--native-ms') nativeMs = Number(args[++i]);
  else if (args[i] === '--wasm-ms') wasmMs = Number(args[++i]);
  else file = resolve(args[i]);
}
const mb = (bytes) => (bytes / 2 ** 20).toFixed(1);
const id = JSON.parse(readFileSync(file, 'utf8')).id;

// Natively: GNU time's maximum resident set size, when it is installed.
if (nativeMs > 0) {
  const abrsim = resolve(repoRoot, 'engine/target/release/abrsim');
  const command = [abrsim, 'run', file, '--duration-ms', String(nativeMs)];
  const timed = existsSync('/usr/bin/time');
  const started = performance.now();
  const out = timed
    ? spawnSync('/usr/bin/time', ['-f', 'peak_rss_kb=%M', ...command], { encoding: 'utf8', maxBuffer: 1 << 28 })
    : spawnSync(command[0], command.slice(1), { encoding: 'utf8', maxBuffer: 1 << 28 });
  const wall = (performance.now() - started) / 1000;
  if (out.status !== 0) {
    console.error(out.stderr);
    process.exit(1);
  }
  const summary = JSON.parse(out.stdout);
  const rss = /peak_rss_kb=(\d+)/.exec(out.stderr ?? '');
  console.log(
    JSON.stringify({
      soak: 'native',
      scenario: id,
      sim_ms: summary.sim_ms,
      events: summary.events,
      wall_s: Number(wall.toFixed(1)),
      sim_over_wall: Number((summary.sim_ms / 1000 / wall).toFixed(1)),
      peak_rss_mb: rss ? Number(mb(Number(rss[1]) * 1024)) : null,
    }),
  );
}

// In wasm: the engine's linear memory and the process's peak resident set.
if (wasmMs > 0) {
  const pkg = await loadWasmEngine();
  const memory = pkg.initSync({ module: readFileSync(resolve(repoRoot, 'web/wasm-pkg/abr_wasm_bg.wasm')) }).memory;
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  doc.run.duration_ms = wasmMs;
  doc.run.steady_from_ms = null;
  const sim = new pkg.Simulation(JSON.stringify(doc));
  const started = performance.now();
  let rows = 0;
  let peakWasm = memory.buffer.byteLength;
  while (!sim.done()) {
    sim.advance(wasmMs, 100_000);
    rows += sim.takeSamples().length;
    peakWasm = Math.max(peakWasm, memory.buffer.byteLength);
  }
  const wall = (performance.now() - started) / 1000;
  const summary = JSON.parse(sim.summary());
  console.log(
    JSON.stringify({
      soak: 'wasm',
      scenario: id,
      sim_ms: summary.sim_ms,
      events: summary.events,
      values_streamed: rows,
      wall_s: Number(wall.toFixed(1)),
      sim_over_wall: Number((summary.sim_ms / 1000 / wall).toFixed(1)),
      wasm_memory_mb: Number(mb(peakWasm)),
      peak_rss_mb: Number(mb(process.resourceUsage().maxRSS * 1024)),
    }),
  );
}
