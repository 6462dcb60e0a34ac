#!/usr/bin/env bash
# `npm start`: install what is missing, build the engine to wasm, serve the lab at
# http://localhost:5173 (two-sources preloaded).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
bash scripts/setup.sh
bash scripts/build-wasm.sh
echo "[start] ABR Lab at http://localhost:5173"
exec npm run dev -w web -- --port 5173 --strictPort "$@"
