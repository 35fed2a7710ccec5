#!/usr/bin/env bash
# What a page ships of a package, gzip -9 each file: the module (mcp_edge_bg.wasm), the glue
# (mcp_edge.js) and the JS snippets (snippets/**/*.js: the crate's src/js/glue.js).
#   shipped-size.sh PKG_DIR   ->   "TOTAL WASM GLUE SNIPPETS" (bytes)
# The one definition for check-package.sh's `size:` lines and oauth-share.sh.
set -euo pipefail
(($# == 1)) || { echo "usage: $0 PKG_DIR" >&2; exit 2; }
gz() { gzip -9 -c "$1" | wc -c; }
w=$(gz "$1/mcp_edge_bg.wasm")
g=$(gz "$1/mcp_edge.js")
s=0
if [[ -d "$1/snippets" ]]; then
  while IFS= read -r f; do s=$((s + $(gz "$f"))); done < <(find "$1/snippets" -name '*.js' -print | sort)
fi
echo "$((w + g + s)) $w $g $s"
