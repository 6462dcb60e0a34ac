#!/usr/bin/env bash
# `npm run bench`: events per second and simulated time / wall time for the library scenarios
# (and scenarios/bench/, with the scale-10/1000/10000 networks: validation and build time and
# events/s against size), natively (abrsim bench) and in wasm (the web build under Node).
# Then the sweeps (natively and in wasm), and the Compare and Network views' frame rates in Chromium.
# Numbers, not pass/fail. Extra arguments go to both runners (e.g. --repeat 5).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

bash scripts/setup.sh --browser >/dev/null
cargo build --quiet --release --manifest-path engine/Cargo.toml --bin abrsim
bash scripts/build-wasm.sh >/dev/null

native=$(mktemp)
wasm=$(mktemp)
trap 'rm -f "$native" "$wasm"' EXIT
engine/target/release/abrsim bench "$@" | tee "$native"
node scripts/bench-wasm.mjs "$@" | tee "$wasm"

# A side-by-side table from the JSON lines.
node - "$native" "$wasm" <<'JS'
const fs = require('node:fs');
const read = (f) => fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const [native, wasm] = process.argv.slice(2).map(read);
const byId = new Map(wasm.map((r) => [r.scenario, r]));
const fmt = (v, d = 1) => (v === undefined ? '-' : v.toFixed(d));
console.log('\nscenario                     events  validate ms  build ms  native Mev/s  x real   wasm Mev/s  x real   wasm/native');
for (const n of native) {
  const w = byId.get(n.scenario);
  console.log(
    n.scenario.padEnd(26),
    String(n.events).padStart(9),
    fmt(n.validate_ms, 1).padStart(12),
    fmt(n.build_ms, 1).padStart(9),
    fmt(n.events_per_s / 1e6).padStart(13),
    fmt(n.sim_over_wall).padStart(8),
    fmt(w && w.events_per_s / 1e6).padStart(12),
    fmt(w && w.sim_over_wall).padStart(8),
    fmt(w && w.events_per_s / n.events_per_s, 2).padStart(13),
  );
}
JS

# Sweeps: natively on one and two cores, and in wasm as a batch worker runs them.
node scripts/bench-sweeps.mjs

# The Compare view's frame rate with two variants (gfc1) running and then drawn, in Chromium.
node scripts/bench-compare.mjs

# The page's frame rate with the Network view open while gfc1 plays at 1× (target ≥ 30 fps),
# with RM cells moving in slow motion, and left idle after the run (unthrottled and at 4× CPU throttling).
node scripts/bench-network.mjs

# Soak: one simulated hour natively and ten minutes in wasm, with peak memory (ABR_SOAK=0 skips
# it; ABR_SOAK_NATIVE_MS, ABR_SOAK_WASM_MS and ABR_SOAK_SCENARIO change it).
if [[ "${ABR_SOAK:-1}" != 0 ]]; then
  node scripts/bench-soak.mjs
fi
