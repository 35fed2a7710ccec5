#!/usr/bin/env bash
# Builds the wasm-pack `web` package the browser parity leg loads into target/parity-web/pkg
# (git-ignored) with tests/tools/build-package.sh, only when it is missing or older than anything
# it is built from (src/, Cargo.toml, Cargo.lock, the package build scripts). Idempotent; prints
# the package directory.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$root"
export PATH="$HOME/.cargo/bin:$PATH"
out=target/parity-web/pkg
wasm=$out/mcp_edge_bg.wasm
if [ ! -f "$wasm" ] || [ ! -f "$out/.mcp-edge-shrunk" ] || [ -n "$(find src Cargo.toml Cargo.lock tests/tools/build-package.sh tests/tools/shrink-package.sh tests/tools/wasm-opt.sh tests/tools/install.sh -newer "$wasm" -print -quit)" ]; then
  command -v wasm-pack >/dev/null || { echo "build-web.sh: wasm-pack missing (cargo install wasm-pack --locked)" >&2; exit 1; }
  echo "== building $out (tests/tools/build-package.sh web $out)" >&2
  bash tests/tools/build-package.sh web "$out"
  touch "$wasm"
fi
echo "$root/$out"
