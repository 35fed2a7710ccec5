#!/usr/bin/env bash
# Builds a wasm-pack `web` package (scripts/build-package.sh) when it is missing or older than
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
bash scripts/build-package.sh --if-stale web "$out" "${cargo_args[@]}"
