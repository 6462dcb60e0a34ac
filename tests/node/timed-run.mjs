// A run of the wasm engine, as the browser's worker drives it, timed or not. No Node imports:
// the benchmark serves this file to Chromium too (scripts/bench-wasm-ratio.mjs --browser), so
// that the page times exactly what Node times.

/**
 * Runs `sim` to its end in slices of `sliceEvents` events, handing `onRows` the rows taken
 * after each slice (a `Float64Array`, as the worker transfers them).
 */
export function runSlices(sim, sliceEvents, onRows) {
  const end = sim.endMs();
  while (!sim.done()) {
    sim.advance(end, sliceEvents);
    onRows(sim.takeSamples());
  }
}

/**
 * Runs a scenario to its end in slices of `sliceEvents`, the rows taken after each, timing the
 * event loop but not the build: `{ events, sim_ms, wall_ms }`.
 */
export function timedRun(pkg, json, sliceEvents = 100_000) {
  const sim = new pkg.Simulation(json);
  const t0 = performance.now();
  runSlices(sim, sliceEvents, () => {});
  const wall_ms = performance.now() - t0;
  const run = { events: sim.eventsProcessed(), sim_ms: sim.nowMs(), wall_ms };
  sim.free();
  return run;
}
