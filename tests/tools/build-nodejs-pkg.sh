#!/usr/bin/env bash
# Builds the wasm-pack `nodejs` package into pkg/nodejs when it is missing or older than src/,
# Cargo.toml or Cargo.lock (wasm-pack build --release --target nodejs). Prints its directory.
# Used by the stages that run the package in Node (types, auth_e2e).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
pkg="$root/pkg/nodejs"
if [ ! -f "$pkg/mcp_edge_bg.wasm" ] || [ -n "$(find src Cargo.toml Cargo.lock -newer "$pkg/mcp_edge_bg.wasm" -print -quit)" ]; then
  command -v wasm-pack >/dev/null || { echo "wasm-pack missing (bash tests/tools/install.sh)" >&2; exit 1; }
  echo "building pkg/nodejs (wasm-pack build --release --target nodejs)" >&2
  wasm-pack --log-level warn build --release --target nodejs --out-dir pkg/nodejs >&2
  touch "$pkg/mcp_edge_bg.wasm"
fi
echo "$pkg"
