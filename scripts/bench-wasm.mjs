#!/usr/bin/env node
// Wasm speed: runs scenarios with the web build (web/wasm-pkg) under Node, advancing in slices
// of 1e5 events as the browser worker does (after one untimed warm-up run), and prints one JSON line per scenario in the same
// shape as `abrsim bench`: events/s and simulated time / wall time.
//
//   node scripts/bench-wasm.mjs [--repeat N] [scenario.json ...]
//   (default: scenarios/*.json and scenarios/bench/*.json)
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadWasmEngine, repoRoot, timedRun } from '../tests/node/wasm-engine.mjs';

const args = process.argv.slice(2);
let repeat = 1;
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--repeat') {
    repeat = Number(args[++i]);
    if (!Number.isInteger(repeat) || repeat < 1) {
      console.error(`--repeat: a whole number of runs, at least 1 (got ${JSON.stringify(args[i])})`);
      process.exit(2);
    }
  } else files.push(resolve(args[i]));
}
if (!files.length) {
  for (const dir of ['scenarios', 'scenarios/bench']) {
    const abs = resolve(repoRoot, dir);
    if (!existsSync(abs)) continue;
    for (const f of readdirSync(abs).filter((f) => f.endsWith('.json')).sort()) files.push(resolve(abs, f));
  }
}

const pkg = await loadWasmEngine();
const SLICE_EVENTS = 100_000;

for (const file of files) {
  const json = readFileSync(file, 'utf8');
  let best = null;
  // Run 0 warms the JIT (Liftoff -> TurboFan) and is not counted.
  for (let r = -1; r < repeat; r++) {
    const run = timedRun(pkg, json, SLICE_EVENTS);
    if (r >= 0 && (!best || run.wall_ms < best.wall_ms)) best = run;
  }
  const id = JSON.parse(json).id;
  console.log(
    JSON.stringify({
      events: best.events,
      events_per_s: best.events / (best.wall_ms / 1000),
      runtime: 'wasm',
      scenario: id,
      sim_ms: best.sim_ms,
      sim_over_wall: best.sim_ms / best.wall_ms,
      wall_ms: best.wall_ms,
    }),
  );
}
