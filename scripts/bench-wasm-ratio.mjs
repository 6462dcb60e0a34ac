#!/usr/bin/env node
// `npm run bench:wasm`: wasm's time against native's on one scenario (default: the ten-source
// benchmark), as the README's wasm/native figure is measured. This machine's speed swings by a
// third from one moment to the next, so the two take turns: each round runs `abrsim bench
// --repeat 5` (a process of its own) and then five wasm runs here (the web build under Node,
// in slices of 1e5 events as the browser's worker runs it, after one untimed warm-up run), and
// each keeps its best run over all rounds. Prints one JSON line.
//
//   node scripts/bench-wasm-ratio.mjs [--rounds N] [scenario.json]
//
// Installs what is missing and builds both first (scripts/setup.sh, cargo, scripts/build-wasm.sh).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadWasmEngine, repoRoot, timedRun } from '../tests/node/wasm-engine.mjs';

const args = process.argv.slice(2);
let rounds = 15;
let file = resolve(repoRoot, 'scenarios/bench/ten-sources-oc3.json');
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--rounds') rounds = Number(args[++i]);
  else file = resolve(args[i]);
}
if (!Number.isInteger(rounds) || rounds < 1) {
  console.error(`--rounds: a whole number of rounds, at least 1 (got ${JSON.stringify(args[args.indexOf('--rounds') + 1])})`);
  process.exit(2);
}
if (!existsSync(file)) {
  console.error(`scenario: no file ${file}`);
  process.exit(2);
}
// Quiet unless it fails (execFileSync then throws with the output).
execFileSync(
  'bash',
  ['-c', 'export PATH="$HOME/.cargo/bin:$PATH"; bash scripts/setup.sh >/dev/null && cargo build --quiet --release --manifest-path engine/Cargo.toml --bin abrsim && bash scripts/build-wasm.sh >/dev/null'],
  { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
);
const RUNS_PER_ROUND = 5;
const SLICE_EVENTS = 100_000;
const abrsim = resolve(repoRoot, 'engine/target/release/abrsim');
const json = readFileSync(file, 'utf8');
const pkg = await loadWasmEngine();

function wasmRun() {
  const run = timedRun(pkg, json, SLICE_EVENTS);
  return { wallMs: run.wall_ms, events: run.events };
}

function nativeRuns() {
  const out = execFileSync(abrsim, ['bench', '--repeat', String(RUNS_PER_ROUND), file], { encoding: 'utf8' });
  const line = JSON.parse(out.trim().split('\n').pop());
  return { wallMs: line.wall_ms, events: line.events };
}

wasmRun(); // warm-up: Liftoff, then TurboFan
let native = Infinity;
let wasm = Infinity;
let events = { native: 0, wasm: 0 };
for (let r = 0; r < rounds; r++) {
  const n = nativeRuns();
  native = Math.min(native, n.wallMs);
  events.native = n.events;
  for (let k = 0; k < RUNS_PER_ROUND; k++) {
    const w = wasmRun();
    wasm = Math.min(wasm, w.wallMs);
    events.wasm = w.events;
  }
}
if (events.native !== events.wasm) {
  console.error(`native ran ${events.native} events and wasm ${events.wasm}: not the same run`);
  process.exit(1);
}
console.log(
  JSON.stringify({
    scenario: JSON.parse(json).id,
    rounds,
    runs_per_round: RUNS_PER_ROUND,
    events: events.native,
    native_wall_ms: Number(native.toFixed(3)),
    wasm_wall_ms: Number(wasm.toFixed(3)),
    wasm_over_native: Number((wasm / native).toFixed(3)),
  }),
);
