#!/usr/bin/env node
// `npm run bench:wasm`: wasm's time against native's on one scenario (default: the ten-source
// benchmark), as the README's wasm/native figure is measured. This machine's speed swings by a
// third from one moment to the next, so the two take turns: each round runs `abrsim bench
// --repeat 5` (a process of its own) and then five wasm runs here (the web build under Node,
// in slices of 1e5 events as the browser's worker runs it, after one untimed warm-up run), and
// each keeps its best run over all rounds. Prints one JSON line.
//
// With --browser, each round also times five runs of the same build in the system Chromium (a
// page served from here, cross-origin isolated so that its clock reads to 5 µs, running the
// same timedRun on its main thread), and the line adds `browser_wall_ms`,
// `browser_over_native` and the browser's version: Chromium's V8 is not Node's.
//
//   node scripts/bench-wasm-ratio.mjs [--rounds N] [--browser] [scenario.json]
//
// Installs what is missing and builds both first (scripts/setup.sh, cargo, scripts/build-wasm.sh).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { loadWasmEngine, pkgDir, repoRoot, timedRun } from '../tests/node/wasm-engine.mjs';

const args = process.argv.slice(2);
let rounds = 15;
let browser = false;
let file = resolve(repoRoot, 'scenarios/bench/ten-sources-oc3.json');
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--rounds') rounds = Number(args[++i]);
  else if (args[i] === '--browser') browser = true;
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
  ['-c', `export PATH="$HOME/.cargo/bin:$PATH"; bash scripts/setup.sh ${browser ? '--browser' : ''} >/dev/null && cargo build --quiet --release --manifest-path engine/Cargo.toml --bin abrsim && bash scripts/build-wasm.sh >/dev/null`],
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

/**
 * The same build and the same timedRun in a Chromium page: `{ version, bestOf(n), close() }`,
 * bestOf giving `{ wallMs, events }`, the best of n runs (after one untimed warm-up at load).
 */
async function openBrowser() {
  const page = `<!doctype html><meta charset="utf-8"><title>abrsim wasm bench</title>
<script type="module">
import init, * as pkg from '/pkg/abr_wasm.js';
import { timedRun } from '/timed-run.mjs';
await init({ module_or_path: '/pkg/abr_wasm_bg.wasm' });
const json = await (await fetch('/scenario.json')).text();
timedRun(pkg, json, ${SLICE_EVENTS});
window.bestOf = (n) => {
  let best = { wallMs: Infinity, events: 0 };
  for (let i = 0; i < n; i++) {
    const run = timedRun(pkg, json, ${SLICE_EVENTS});
    if (run.wall_ms < best.wallMs) best = { wallMs: run.wall_ms, events: run.events };
  }
  return best;
};
window.ready = crossOriginIsolated ? 'isolated' : 'not isolated';
</script>`;
  const files = {
    '/': ['text/html', page],
    '/pkg/abr_wasm.js': ['text/javascript', readFileSync(resolve(pkgDir, 'abr_wasm.js'))],
    '/pkg/abr_wasm_bg.wasm': ['application/wasm', readFileSync(resolve(pkgDir, 'abr_wasm_bg.wasm'))],
    '/timed-run.mjs': ['text/javascript', readFileSync(resolve(repoRoot, 'tests/node/timed-run.mjs'))],
    '/scenario.json': ['application/json', json],
  };
  const server = createServer((req, res) => {
    const file = files[new URL(req.url, 'http://x').pathname];
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    // Cross-origin isolation: performance.now() then reads to 5 µs instead of 100 µs.
    res.writeHead(200, {
      'content-type': file[0],
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
    });
    res.end(file[1]);
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  // Imported only here: a run without --browser needs no Playwright.
  const { launchChromium } = await import('./bench-page.mjs');
  const instance = await launchChromium();
  const tab = await instance.newPage();
  const errors = [];
  tab.on('pageerror', (e) => errors.push(e.message));
  await tab.goto(`http://127.0.0.1:${server.address().port}/`);
  try {
    await tab.waitForFunction(() => window.ready, null, { timeout: 60_000 });
  } catch (e) {
    throw new Error(`the benchmark page did not load: ${errors.join('; ') || e.message}`);
  }
  if ((await tab.evaluate(() => window.ready)) !== 'isolated') throw new Error('the benchmark page is not cross-origin isolated');
  return {
    version: instance.version(),
    bestOf: (n) => tab.evaluate((k) => window.bestOf(k), n),
    close: async () => {
      await instance.close();
      server.close();
    },
  };
}

const page = browser ? await openBrowser() : null;
wasmRun(); // warm-up: Liftoff, then TurboFan
const best = { native: Infinity, wasm: Infinity, browser: Infinity };
const events = { native: 0, wasm: 0, browser: 0 };
try {
  for (let r = 0; r < rounds; r++) {
    const n = nativeRuns();
    best.native = Math.min(best.native, n.wallMs);
    events.native = n.events;
    for (let k = 0; k < RUNS_PER_ROUND; k++) {
      const w = wasmRun();
      best.wasm = Math.min(best.wasm, w.wallMs);
      events.wasm = w.events;
    }
    if (page) {
      const b = await page.bestOf(RUNS_PER_ROUND);
      best.browser = Math.min(best.browser, b.wallMs);
      events.browser = b.events;
    }
  }
} finally {
  await page?.close();
}
for (const other of page ? ['wasm', 'browser'] : ['wasm']) {
  if (events.native !== events[other]) {
    console.error(`native ran ${events.native} events and ${other} ${events[other]}: not the same run`);
    process.exit(1);
  }
}
const ms = (v) => Number(v.toFixed(3));
console.log(
  JSON.stringify({
    scenario: JSON.parse(json).id,
    rounds,
    runs_per_round: RUNS_PER_ROUND,
    events: events.native,
    native_wall_ms: ms(best.native),
    wasm_wall_ms: ms(best.wasm),
    wasm_over_native: ms(best.wasm / best.native),
    ...(page && {
      browser: page.version,
      browser_wall_ms: ms(best.browser),
      browser_over_native: ms(best.browser / best.native),
    }),
  }),
);
