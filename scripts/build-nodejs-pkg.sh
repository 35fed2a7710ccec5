#!/usr/bin/env bash
# Builds the wasm-pack `nodejs` package (scripts/build-package.sh) when it is missing or older
# than src/, Cargo.toml, Cargo.lock or the package build scripts, and prints its directory:
#   build-nodejs-pkg.sh          the full build (default features) into pkg/nodejs
#   build-nodejs-pkg.sh client   the client build (--no-default-features: McpClient without the
#                                pool, the adapters and the validator) into pkg/nodejs-client
# Used by the stages that run the package in Node (types, auth_e2e, soak, conformance, component).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
case "${1:-full}" in
  full) out=pkg/nodejs; cargo_args=() ;;
  client) out=pkg/nodejs-client; cargo_args=(--no-default-features) ;;
  *) echo "usage: $0 [full|client]" >&2; exit 2 ;;
esac
pkg="$root/$out"
bash scripts/build-package.sh --if-stale nodejs "$out" "${cargo_args[@]}"
echo "$pkg"
