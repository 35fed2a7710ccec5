#!/usr/bin/env bash
# Builds a wasm-pack `web` package (tests/tools/build-package.sh) when it is missing or older than
# anything it is built from (src/, Cargo.toml, Cargo.lock, the package build scripts). Idempotent.
#   build-web.sh          the full build (default features) into www/pkg
#   build-web.sh client   the client build (--no-default-features: McpClient without the pool,
#                         the adapters and the validator) into pkg/web-client
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
export PATH="$HOME/.cargo/bin:$PATH"
case "${1:-full}" in
  full) out=www/pkg; cargo_args=() ;;
  client) out=pkg/web-client; cargo_args=(--no-default-features) ;;
  *) echo "usage: $0 [full|client]" >&2; exit 2 ;;
esac
wasm=$out/mcp_edge_bg.wasm
if [ ! -f "$wasm" ] || [ ! -f "$out/.mcp-edge-shrunk" ] || [ -n "$(find src Cargo.toml Cargo.lock tests/tools/build-package.sh tests/tools/shrink-package.sh tests/tools/wasm-opt.sh tests/tools/install.sh -newer "$wasm" -print -quit)" ]; then
  command -v wasm-pack >/dev/null || { echo "build-web.sh: wasm-pack missing (cargo install wasm-pack --locked)" >&2; exit 1; }
  echo "== building $out (tests/tools/build-package.sh web $out ${cargo_args[*]})" >&2
  bash tests/tools/build-package.sh web "$out" "${cargo_args[@]}"
  touch "$wasm"
fi
