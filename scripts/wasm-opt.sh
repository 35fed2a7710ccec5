#!/usr/bin/env bash
# Shrinks wasm-pack's output in place with binaryen's wasm-opt: every script that builds a release
# package runs it on the `.wasm` it built, so the tests run the module that ships.
#   wasm-opt.sh FILE.wasm...
#
# wasm-opt is binaryen 132 from npm (pinned in scripts/binaryen/package-lock.json, installed
# there by `install.sh binaryen`; Cargo.toml keeps wasm-pack's own wasm-opt off, which would try to
# download one). Passes: `-O1 --shrink-level=2`, chosen by gzip -9 size, which is what a user ships:
# on the client build -3.8 KB gzip (-1.7 %), on the full build -4.0 KB (-1.2 %). `-Oz` and `-Os`
# shrink the raw module by 11 % but grow its gzip by 3-4 % (their inlining and local passes leave
# less repetition for gzip); `--converge` adds 0.1 KB for twice the time.
# The features are those Rust enables by default on wasm32 (the stripped module has no
# target_features section to read them from).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/install.sh" binaryen >&2
bin="$root/scripts/binaryen/node_modules/.bin/wasm-opt"
features=(--enable-bulk-memory --enable-mutable-globals --enable-nontrapping-float-to-int
  --enable-sign-ext --enable-reference-types --enable-multivalue)
for wasm in "$@"; do
  before=$(stat -c %s "$wasm")
  "$bin" "${features[@]}" -O1 --shrink-level=2 "$wasm" -o "$wasm.opt"
  mv "$wasm.opt" "$wasm"
  echo "wasm-opt: $wasm: $before -> $(stat -c %s "$wasm") bytes" >&2
done
