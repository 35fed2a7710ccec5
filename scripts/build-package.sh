#!/usr/bin/env bash
# Builds one release package exactly as it ships: every script that builds a package calls this.
#   build-package.sh [--if-stale] TARGET OUT_DIR [CARGO_ARG...]
#     TARGET: web, bundler or nodejs; CARGO_ARG e.g. `--no-default-features` for the client build;
#     a relative OUT_DIR is under the checkout. --if-stale: nothing is done when OUT_DIR holds a
#     finished package (module, glue, marker) newer than everything it is built from (src/,
#     Cargo.toml, Cargo.lock and the scripts that build and shrink it, install.sh for the
#     toolchain pin); the scripts that reuse packages across stages pass it.
#
# 1. wasm-pack, release profile, with the pinned nightly toolchain of `install.sh release-toolchain`
#    rebuilding `std` with the package (`-Zbuild-std`), so that:
#    - `-Cpanic=immediate-abort`: a panic is a trap at once. Nothing is lost: on
#      wasm32-unknown-unknown std's panic message goes nowhere and the package installs no panic
#      hook, so today's panic is already a bare `unreachable` trap; what goes is the formatting code
#      that built the message nobody sees.
#    - `-Zlocation-detail=none`: no file/line/column strings for those messages.
#    - `-Zbuild-std-features=optimize_for_size`: std's smaller implementations (sorting, formatting).
#    Together they take about 8% off the shipped client build (gzip -9, check-package.sh), the
#    panic flag most of it.
#    A Rust user who builds the crate with stable gets the same behaviour, only a larger module.
# 2. scripts/shrink-package.sh: wasm-opt and the JS minifier; it writes `.mcp-edge-shrunk` last,
#    which --if-stale reads as "this package is finished".
# The crate built is this checkout's, or the one at $MCP_EDGE_CRATE (oauth-share.sh builds copies).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
if_stale=false
[[ "${1:-}" == --if-stale ]] && { if_stale=true; shift; }
(($# >= 2)) || { echo "usage: $0 [--if-stale] TARGET OUT_DIR [CARGO_ARG...]" >&2; exit 2; }
target=$1 out=$2
shift 2
crate="${MCP_EDGE_CRATE:-$root}"
case "$out" in /*) ;; *) out="$crate/$out" ;; esac
if $if_stale && [[ -f "$out/mcp_edge_bg.wasm" && -f "$out/mcp_edge.js" && -f "$out/.mcp-edge-shrunk" ]] \
  && [[ -z "$(cd "$crate" && find src Cargo.toml Cargo.lock scripts/build-package.sh \
    scripts/shrink-package.sh scripts/wasm-opt.sh scripts/install.sh \
    -newer "$out/mcp_edge_bg.wasm" -print -quit)" ]]; then
  exit 0
fi
command -v wasm-pack >/dev/null || { echo "build-package.sh: wasm-pack missing (bash scripts/install.sh wasm-pack)" >&2; exit 1; }
echo "== building $out ($target $*)" >&2
bash "$root/scripts/install.sh" release-toolchain >&2
toolchain="$(bash "$root/scripts/install.sh" --print-release-toolchain)"
rm -f "$out/.mcp-edge-shrunk"
# wasm-pack leaves files of an earlier build in place: snippets a build no longer has would ship
# (and be counted) with the new one.
rm -rf "$out/snippets"
(cd "$crate" && RUSTUP_TOOLCHAIN="$toolchain" \
  RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none" \
  wasm-pack --log-level warn build --release --target "$target" --out-dir "$out" . -- \
    -Zbuild-std=std,panic_abort -Zbuild-std-features=optimize_for_size "$@" >&2)
bash "$root/scripts/shrink-package.sh" "$out"
# A build with the app host (feature `apps`, its snippet apps.js) ships the sandbox proxy page and
# its script beside the module, listed in package.json's `files`.
if compgen -G "$out/snippets/*/src/js/apps.js" >/dev/null; then
  cp "$root/src/js/sandbox/mcp-app-sandbox.html" "$root/src/js/sandbox/mcp-app-sandbox.js" "$out/"
  node -e '
    const fs = require("fs"), p = process.argv[1] + "/package.json";
    const pkg = JSON.parse(fs.readFileSync(p, "utf8"));
    pkg.files = [...new Set([...(pkg.files || []), "mcp-app-sandbox.html", "mcp-app-sandbox.js"])];
    fs.writeFileSync(p, JSON.stringify(pkg, null, 2) + "\n");' "$out"
else
  rm -f "$out/mcp-app-sandbox.html" "$out/mcp-app-sandbox.js"
fi
# The module is the reference the --if-stale check compares sources with.
touch "$out/mcp_edge_bg.wasm"
