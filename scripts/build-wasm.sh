#!/usr/bin/env bash
# Build engine/wasm into web/wasm-pkg (wasm-pack, --target web), skipped when nothing under
# engine/ changed since the last build. ABR_FORCE_WASM=1 forces a rebuild.
#
# wasm-pack runs with --no-opt (it cannot download binaryen here); the wasm-opt pass uses the
# npm package `binaryen` when installed, and is skipped otherwise. ABR_WASM_OPT=0 skips it.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

out=web/wasm-pkg
stamp="$out/.build-stamp"

if [[ "${ABR_FORCE_WASM:-0}" != 1 && -f "$stamp" && -f "$out/abr_wasm_bg.wasm" ]]; then
  changed=$(find engine -path engine/target -prune -o -type f -newer "$stamp" -print -quit)
  if [[ -z "$changed" && ! scripts/build-wasm.sh -nt "$stamp" ]]; then
    echo "[build-wasm] up to date ($out)"
    exit 0
  fi
fi

echo "[build-wasm] wasm-pack build engine/wasm -> $out"
# Stamp the start time, so that edits made during the build trigger the next one.
start_marker=$(mktemp)
trap 'rm -f "$start_marker"' EXIT
wasm-pack build engine/wasm --target web --release --no-opt --out-dir ../../web/wasm-pkg

wasm="$out/abr_wasm_bg.wasm"
if [[ "${ABR_WASM_OPT:-1}" != 0 && -x node_modules/.bin/wasm-opt ]]; then
  echo "[build-wasm] wasm-opt -O3"
  before=$(stat -c %s "$wasm")
  # --low-memory-unused: the first KB of memory is never addressed (the linker puts the 1 MB
  # stack first, growing down towards 0), so `ptr + k` folds into the load's offset; with the
  # pass that spreads such constants, wasm runs 1 % fewer instructions per cell (V8 adds no
  # bounds check for an offset: the trap handler covers it).
  node_modules/.bin/wasm-opt --low-memory-unused -O3 --optimize-added-constants-propagate -O3 \
    --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals "$wasm" -o "$wasm.opt"
  mv "$wasm.opt" "$wasm"
  echo "[build-wasm] $before -> $(stat -c %s "$wasm") bytes"
fi
mv "$start_marker" "$stamp"
echo "[build-wasm] ok"
