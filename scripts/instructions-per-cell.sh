#!/usr/bin/env bash
# Instructions per delivered cell: the engine's cost per cell in a count that does not move with
# the machine's load (wall-clock figures on a shared 2-core machine swing by tens of percent).
# Runs `abrsim run FILE` once under valgrind's cachegrind (instruction counts only) and prints one
# JSON line: instructions of the whole process (parsing and the summary included: well under 1 %),
# events, cells delivered to all destinations, and the ratios.
#
# With --wasm it counts the web build's (web/wasm-pkg, or $ABR_WASM_PKG) instructions instead, as
# V8's optimizing compiler runs it under Node: the difference between one and three runs of
# scripts/bench-wasm.mjs (start-up, parsing and compilation cancel out), halved, per cell. Node
# runs single-threaded and without the baseline compiler, so every function runs optimized code
# from the start, as it does in a warmed-up run.
#
#   bash scripts/instructions-per-cell.sh [--wasm] [FILE]   (default scenarios/bench/ten-sources-oc3.json)
#
# Needs valgrind (Debian's `valgrind`); builds abrsim in release mode if it is out of date.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

wasm=0
if [[ "${1:-}" == --wasm ]]; then
  wasm=1
  shift
fi
scenario="${1:-scenarios/bench/ten-sources-oc3.json}"
if ! command -v valgrind >/dev/null 2>&1; then
  echo "instructions-per-cell.sh: valgrind not found (apt-get install valgrind)" >&2
  exit 1
fi
cargo build --quiet --release --manifest-path engine/Cargo.toml --bin abrsim

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
count() { # count LOG COMMAND...: runs COMMAND under cachegrind, its valgrind log to LOG
  local log=$1
  shift
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>"$log"
}
count "$tmp/native.log" engine/target/release/abrsim run "$scenario" >"$tmp/summary.json"
logs=("$tmp/native.log")
if [[ $wasm == 1 ]]; then
  for runs in 1 3; do
    count "$tmp/wasm$runs.log" node --single-threaded --no-liftoff scripts/bench-wasm.mjs --repeat "$runs" "$scenario" >/dev/null
  done
  logs=("$tmp/wasm1.log" "$tmp/wasm3.log")
fi

node - "$tmp/summary.json" "${logs[@]}" <<'JS'
const fs = require('node:fs');
const [summaryFile, ...logFiles] = process.argv.slice(2);
const summary = JSON.parse(fs.readFileSync(summaryFile, 'utf8'));
const refs = (file) => {
  const m = fs.readFileSync(file, 'utf8').match(/I\s+refs:\s+([\d,]+)/);
  if (!m) throw new Error(`no "I refs" line in valgrind's output:\n${fs.readFileSync(file, 'utf8')}`);
  return Number(m[1].replace(/,/g, ''));
};
// Native: the whole process. Wasm: two runs more (three against one), so per run is half.
const instructions = logFiles.length === 1 ? refs(logFiles[0]) : Math.round((refs(logFiles[1]) - refs(logFiles[0])) / 2);
const cells = summary.connections.reduce((n, c) => n + c.delivered_cells, 0);
console.log(JSON.stringify({
  scenario: summary.scenario,
  runtime: logFiles.length === 1 ? 'native' : 'wasm',
  instructions,
  events: summary.events,
  delivered_cells: cells,
  instructions_per_cell: Math.round(instructions / cells),
  instructions_per_event: Math.round(instructions / summary.events),
  events_per_cell: Number((summary.events / cells).toFixed(3)),
}));
JS
