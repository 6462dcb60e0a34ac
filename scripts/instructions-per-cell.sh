#!/usr/bin/env bash
# Instructions per delivered cell: the engine's cost per cell in a count that does not move with
# the machine's load (wall-clock figures on a shared 2-core machine swing by tens of percent).
# Runs `abrsim run FILE` once under valgrind's cachegrind (instruction counts only) and prints one
# JSON line: instructions of the whole process (parsing and the summary included: well under 1 %),
# events, cells delivered to all destinations, and the ratios.
#
#   bash scripts/instructions-per-cell.sh [FILE]   (default scenarios/bench/ten-sources-oc3.json)
#
# Needs valgrind (Debian's `valgrind`); builds abrsim in release mode if it is out of date.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

scenario="${1:-scenarios/bench/ten-sources-oc3.json}"
if ! command -v valgrind >/dev/null 2>&1; then
  echo "instructions-per-cell.sh: valgrind not found (apt-get install valgrind)" >&2
  exit 1
fi
cargo build --quiet --release --manifest-path engine/Cargo.toml --bin abrsim

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$tmp/cg.out" \
  engine/target/release/abrsim run "$scenario" >"$tmp/summary.json" 2>"$tmp/valgrind.log"

node - "$tmp/summary.json" "$tmp/valgrind.log" <<'JS'
const fs = require('node:fs');
const [summaryFile, logFile] = process.argv.slice(2);
const summary = JSON.parse(fs.readFileSync(summaryFile, 'utf8'));
const refs = fs.readFileSync(logFile, 'utf8').match(/I\s+refs:\s+([\d,]+)/);
if (!refs) throw new Error(`no "I refs" line in valgrind's output:\n${fs.readFileSync(logFile, 'utf8')}`);
const instructions = Number(refs[1].replace(/,/g, ''));
const cells = summary.connections.reduce((n, c) => n + c.delivered_cells, 0);
console.log(JSON.stringify({
  scenario: summary.scenario,
  instructions,
  events: summary.events,
  delivered_cells: cells,
  instructions_per_cell: Math.round(instructions / cells),
  instructions_per_event: Math.round(instructions / summary.events),
  events_per_cell: Number((summary.events / cells).toFixed(3)),
}));
JS
