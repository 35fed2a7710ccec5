#!/usr/bin/env bash
# Shrinks a wasm-pack package in place, as it ships: scripts/build-package.sh (through which
# every script builds its release packages) runs this on it, so the tests run what a user gets.
#   shrink-package.sh PKG_DIR...
#
# 1. The module: scripts/wasm-opt.sh (binaryen's wasm-opt, passes chosen by gzip -9 size).
# 2. The JS (wasm-bindgen's glue and the crate's JS module, src/js/glue.js, shipped under
#    snippets/): esbuild's minifier,
#    file by file (no bundling, so each file keeps its module format, imports and export names;
#    the wasm imports are looked up by property name, which minifying keeps). esbuild is pinned in
#    scripts/esbuild/package-lock.json and installed there by `install.sh esbuild`. Measured on
#    the client build: glue 9,651 -> 5,674 bytes gzip -9, snippets 3,994 -> 2,649. Local names
#    are not kept (`--keep-names` costs 1.1 KB gzip): nothing reads them except wasm-bindgen's
#    debug formatting; exported classes keep their names and `McpError` sets its `name` itself.
# 3. A marker, `.mcp-edge-shrunk`, written last: `build-package.sh --if-stale` rebuilds a package without it, so
#    a package whose shrinking failed (or that predates it) is never taken for a finished one.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
for pkg in "$@"; do rm -f "$pkg/.mcp-edge-shrunk"; done
bash "$root/scripts/install.sh" esbuild >&2
esbuild="$root/scripts/esbuild/node_modules/.bin/esbuild"
for pkg in "$@"; do
  bash "$root/scripts/wasm-opt.sh" "$pkg/mcp_edge_bg.wasm"
  while IFS= read -r js; do
    before=$(stat -c %s "$js")
    "$esbuild" "$js" --minify --charset=utf8 --log-level=error --outfile="$js.min"
    mv "$js.min" "$js"
    echo "minify: $js: $before -> $(stat -c %s "$js") bytes" >&2
  done < <(find "$pkg" -name '*.js' -not -path '*/node_modules/*' -print | sort)
  touch "$pkg/.mcp-edge-shrunk"
done
