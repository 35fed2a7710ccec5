#!/usr/bin/env bash
# Builds the wasm-pack `web` package the browser parity leg loads into target/parity-web/pkg
# (git-ignored) with scripts/build-package.sh, only when it is missing or older than anything
# it is built from (src/, Cargo.toml, Cargo.lock, the package build scripts). Idempotent; prints
# the package directory.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$root"
export PATH="$HOME/.cargo/bin:$PATH"
out=target/parity-web/pkg
bash scripts/build-package.sh --if-stale web "$out"
echo "$root/$out"
