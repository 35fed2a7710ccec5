#!/usr/bin/env bash
# Builds the npm package for the three wasm-pack targets (web, bundler, nodejs) and checks what a
# user gets: the package name, the hand-written TypeScript surface, no `any` in it, and the sizes.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
for target in web bundler nodejs; do
    out="pkg/$target"
    wasm-pack --log-level warn build --release --target "$target" --out-dir "$out"
    name="$(node -p "require('./$out/package.json').name")"
    [[ "$name" == "mcp-edge" ]] || { echo "check FAILED: $target package is named $name"; exit 1; }
    for symbol in "class McpClient" "class McpPool" "interface McpError" "export function isMcpError"; do
        grep -q "$symbol" "$out/mcp_edge.d.ts" || { echo "check FAILED: $target .d.ts lacks '$symbol'"; exit 1; }
    done
    # The public declarations are the hand-written section; it must not use `any`.
    public="$(sed -n '/^export type Json /,/^export class McpPool/p' "$out/mcp_edge.d.ts")"
    if grep -nE '(:|<|\|) *any\b' <<<"$public"; then
        echo "check FAILED: $target public declarations use any"
        exit 1
    fi
    echo "check passed: $target package (name, declarations)"
done
# The nodejs build loads and exposes the API.
node -e "const m = require('./pkg/nodejs/mcp_edge.js'); if (typeof m.McpClient?.connect !== 'function' || typeof m.McpPool !== 'function') process.exit(1)" \
    && echo "check passed: nodejs build loads and exports McpClient, McpPool"
wasm=$(stat -c %s pkg/web/mcp_edge_bg.wasm)
wasm_gz=$(gzip -9 -c pkg/web/mcp_edge_bg.wasm | wc -c)
js_gz=$(gzip -9 -c pkg/web/mcp_edge.js | wc -c)
echo "size: web .wasm $wasm bytes ($wasm_gz gzip -9), JS glue $(stat -c %s pkg/web/mcp_edge.js) bytes ($js_gz gzip -9)"
