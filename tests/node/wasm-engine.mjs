// Loads the wasm build (web/wasm-pkg, wasm-pack --target web) in Node, synchronously.
import { readFileSync, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runSlices } from './timed-run.mjs';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// ABR_WASM_PKG points at another build (a --profiling one, say) for benchmarks and profiles.
export const pkgDir = resolve(repoRoot, process.env.ABR_WASM_PKG ?? 'web/wasm-pkg');

export async function loadWasmEngine() {
  const js = resolve(pkgDir, 'abr_wasm.js');
  const bin = resolve(pkgDir, 'abr_wasm_bg.wasm');
  if (!existsSync(js) || !existsSync(bin)) {
    throw new Error(`wasm build not found in ${pkgDir}: run scripts/build-wasm.sh`);
  }
  const pkg = await import(pathToFileURL(js).href);
  pkg.initSync({ module: readFileSync(bin) });
  return pkg;
}

/** Runs a scenario to its end in slices, like the worker does; returns the finished Simulation. */
export function runToEnd(pkg, json, sliceEvents = 100_000) {
  const sim = new pkg.Simulation(json);
  const width = JSON.parse(sim.seriesMeta()).length + 1;
  let rows = 0;
  runSlices(sim, sliceEvents, (taken) => (rows += taken.length / width));
  rows += sim.takeSamples().length / width;
  return { sim, rows, width };
}

export { runSlices, timedRun } from './timed-run.mjs';
