#!/usr/bin/env bash
# Idempotent toolchain setup for ABR Lab. Fast when everything is already there.
#
#   scripts/setup.sh            Rust wasm target, wasm-pack, wasm-bindgen-cli, npm packages
#   scripts/setup.sh --browser  ... and Debian's Chromium for the Playwright tests
#                               (also when ABR_SETUP_BROWSER=1)
#   scripts/setup.sh --ns2      ... and Debian's ns2 (ns-2.35, the peer in `npm run bench:peers`;
#                               never needed by the tests or CI)
#
# Never downloads browsers through Playwright: the e2e tests drive /usr/bin/chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

want_browser="${ABR_SETUP_BROWSER:-0}"
want_ns2=0
for arg in "$@"; do
  case "$arg" in
    --browser) want_browser=1 ;;
    --ns2) want_ns2=1 ;;
    *) echo "setup.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done

say() { printf '[setup] %s\n' "$*"; }

# --- Rust ---------------------------------------------------------------------------------
if ! command -v cargo >/dev/null 2>&1; then
  echo "[setup] cargo not found: install Rust with rustup (https://rustup.rs) first" >&2
  exit 1
fi
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "adding Rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi
if ! command -v wasm-pack >/dev/null 2>&1; then
  say "installing wasm-pack"
  cargo install wasm-pack --locked
fi

# wasm-pack cannot download wasm-bindgen here, so the CLI must be on PATH and match the
# wasm-bindgen crate version the engine locks (engine/Cargo.lock), else the pinned default.
bindgen_version="0.2.130"
if [[ -f engine/Cargo.lock ]]; then
  locked=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' engine/Cargo.lock)
  [[ -n "$locked" ]] && bindgen_version="$locked"
fi
have_bindgen=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [[ "$have_bindgen" != "$bindgen_version" ]]; then
  say "installing wasm-bindgen-cli $bindgen_version (found: ${have_bindgen:-none})"
  # Not --locked: the CLI's own lockfile pins a yanked crate.
  cargo install wasm-bindgen-cli --version "$bindgen_version" --force
fi

# --- Debian packages: Chromium for the e2e tests, ns2 for the peer benchmark -------------
apt_install() {
  say "installing Debian $1"
  local sudo_cmd=""
  [[ "$(id -u)" != 0 ]] && sudo_cmd="sudo"
  $sudo_cmd apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y "$1"
}
if [[ "$want_browser" == 1 ]] && [[ ! -x /usr/bin/chromium ]]; then
  apt_install chromium
fi
if [[ "$want_ns2" == 1 ]] && ! command -v ns >/dev/null 2>&1; then
  apt_install ns2
fi

# --- npm ----------------------------------------------------------------------------------
stamp=node_modules/.abrlab-install-stamp
if [[ ! -f "$stamp" ]] || [[ package-lock.json -nt "$stamp" ]] || [[ package.json -nt "$stamp" ]] \
   || [[ web/package.json -nt "$stamp" ]]; then
  if [[ -n "${CI:-}" && -f package-lock.json ]]; then
    say "npm ci"
    npm ci --no-audit --no-fund
  else
    say "npm install"
    npm install --no-audit --no-fund
  fi
  touch "$stamp"
fi
say "ok"
