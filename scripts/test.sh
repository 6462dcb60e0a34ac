#!/usr/bin/env bash
# The one test command (`npm test`, also CI's .ci/run). Runs every step even after a failure,
# prints PASS/FAIL per step and ends with "N passed, N failed"; exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

passed=0
failed=0
results=()

step() {
  local name="$1"; shift
  local t0=$SECONDS
  printf '\n===== %s =====\n' "$name"
  if "$@"; then
    passed=$((passed + 1)); results+=("PASS  $name ($((SECONDS - t0))s)")
    printf -- '----- PASS  %s (%ss)\n' "$name" "$((SECONDS - t0))"
  else
    failed=$((failed + 1)); results+=("FAIL  $name ($((SECONDS - t0))s)")
    printf -- '----- FAIL  %s (%ss)\n' "$name" "$((SECONDS - t0))"
  fi
}

rust_checks() {
  cargo fmt --manifest-path engine/Cargo.toml --all --check &&
    cargo test --manifest-path engine/Cargo.toml --release
}

crosscheck() {
  cargo build --quiet --release --manifest-path engine/Cargo.toml --bin abrsim &&
    node --test tests/node/*.test.mjs
}

typecheck() {
  npm run --silent typecheck -w web && npx --no-install tsc --noEmit -p tests/e2e/tsconfig.json
}

step "setup (toolchain, npm packages, chromium)" bash scripts/setup.sh --browser
step "engine: cargo fmt --check, cargo test --release" rust_checks
generated_types_committed() {
  # cargo test (ts-rs) rewrote web/src/contract/generated from the Rust schema: on a clean
  # checkout that must change nothing, else the committed TypeScript types are stale.
  local stale
  stale=$(git status --porcelain -- web/src/contract/generated)
  [[ -z "$stale" ]] || { echo "stale generated types (run cargo test and commit them):"; echo "$stale"; return 1; }
}

if [[ -n "${CI:-}" ]]; then
  step "contract TS types match the Rust types" generated_types_committed
else
  echo "(not CI: the check that committed TS types match the Rust schema runs in CI only)"
fi
step "wasm build" bash scripts/build-wasm.sh
step "web: typecheck (tsc)" typecheck
step "web: unit tests (vitest)" npm run --silent test -w web
step "cross-check: native CLI digest == wasm digest" crosscheck
rm -f playwright-report/results.json
step "e2e: Playwright on system Chromium" npx --no-install playwright test

printf '\n===== summary =====\n'
printf '%s\n' "${results[@]}"
# The failed end-to-end tests again, each with the first lines of its error, where the end of
# the output (all a CI log may keep) shows them.
[[ -f playwright-report/results.json ]] && node scripts/e2e-failures.mjs playwright-report/results.json
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
