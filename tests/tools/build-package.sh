#!/usr/bin/env bash
# Builds one release package exactly as it ships: every script that builds a package calls this.
#   build-package.sh TARGET OUT_DIR [CARGO_ARG...]   (TARGET: web, bundler or nodejs;
#                                                     e.g. `--no-default-features` for the client build;
#                                                     a relative OUT_DIR is under the checkout)
#
# 1. wasm-pack, release profile, with the pinned nightly toolchain of `install.sh release-toolchain`
#    rebuilding `std` with the package (`-Zbuild-std`), so that:
#    - `-Cpanic=immediate-abort`: a panic is a trap at once. Nothing is lost: on
#      wasm32-unknown-unknown std's panic message goes nowhere and the package installs no panic
#      hook, so today's panic is already a bare `unreachable` trap; what goes is the formatting code
#      that built the message nobody sees.
#    - `-Zlocation-detail=none`: no file/line/column strings for those messages.
#    - `-Zbuild-std-features=optimize_for_size`: std's smaller implementations (sorting, formatting).
#    Measured by check-package.sh (gzip -9 shipped): client build 191,084 B with the stable
#    toolchain (a0dd01c), 176,232 this way (bd08f19); full build 306,274 -> 282,810. Flag by flag
#    (client build, cargo build + wasm-bindgen + shrink-package.sh): 191,277 stable, 179,551
#    immediate-abort, 178,632 location-detail, 176,547 optimize_for_size.
#    A Rust user who builds the crate with stable gets the same behaviour, only a larger module.
# 2. tests/tools/shrink-package.sh: wasm-opt and the JS minifier; it writes `.mcp-edge-shrunk` last,
#    which the build scripts read as "this package is finished".
# The crate built is this checkout's, or the one at $MCP_EDGE_CRATE (oauth-share.sh builds copies).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
(($# >= 2)) || { echo "usage: $0 TARGET OUT_DIR [CARGO_ARG...]" >&2; exit 2; }
target=$1 out=$2
shift 2
bash "$root/tests/tools/install.sh" release-toolchain >&2
toolchain="$(bash "$root/tests/tools/install.sh" --print-release-toolchain)"
case "$out" in /*) ;; *) out="${MCP_EDGE_CRATE:-$root}/$out" ;; esac
rm -f "$out/.mcp-edge-shrunk"
(cd "${MCP_EDGE_CRATE:-$root}" && RUSTUP_TOOLCHAIN="$toolchain" \
  RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none" \
  wasm-pack --log-level warn build --release --target "$target" --out-dir "$out" . -- \
    -Zbuild-std=std,panic_abort -Zbuild-std-features=optimize_for_size "$@" >&2)
bash "$root/tests/tools/shrink-package.sh" "$out"
