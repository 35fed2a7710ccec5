#!/usr/bin/env bash
# Builds (scripts/build-package.sh) the npm package for the three wasm-pack targets (web, bundler, nodejs) and checks what a
# user gets: the package name, the hand-written TypeScript surface, no `any` in it, and the sizes;
# then the client build (`--no-default-features`, web target): McpClient declared and exported,
# no pool, and its size beside the full build's; last, the size budget (tests/tools/size-budget.sh:
# each build's shipped gzip -9 size at most 1% over its figure in tests/tools/size-budget.txt).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
# Every declaration (`export ...` line) of the hand-written files ($2...) is in the package's
# .d.ts ($1) (wasm-bindgen re-indents the sections, so lines are compared, not the whole text).
check_sections() {
    node -e 'const fs = require("fs"); const [dts, ...parts] = process.argv.slice(1);
        const have = new Set(fs.readFileSync(dts, "utf8").split("\n").map((l) => l.trim()));
        for (const p of parts) for (const l of fs.readFileSync(p, "utf8").split("\n"))
            if (l.startsWith("export ") && !have.has(l.trim())) { console.log(`${p}: missing: ${l}`); process.exit(1); }' "$@"
}
for target in web bundler nodejs; do
    out="pkg/$target"
    bash scripts/build-package.sh "$target" "$out"
    name="$(node -p "require('./$out/package.json').name")"
    [[ "$name" == "mcp-edge" ]] || { echo "check FAILED: $target package is named $name"; exit 1; }
    for symbol in "class McpClient" "class McpPool" "interface McpError" "export function isMcpError"; do
        grep -q "$symbol" "$out/mcp_edge.d.ts" || { echo "check FAILED: $target .d.ts lacks '$symbol'"; exit 1; }
    done
    # The public declarations are the hand-written sections (src/js/*.d.ts), in the package
    # verbatim; they must not use `any`.
    check_sections "$out/mcp_edge.d.ts" src/js/mcp-edge.d.ts src/js/mcp-edge-pool.d.ts \
        || { echo "check FAILED: $target .d.ts lacks a hand-written section"; exit 1; }
    public="$(cat src/js/mcp-edge.d.ts src/js/mcp-edge-pool.d.ts)"
    if grep -nE '(:|<|\|) *any\b' <<<"$public"; then
        echo "check FAILED: $target public declarations use any"
        exit 1
    fi
    echo "check passed: $target package (name, declarations)"
done
# The nodejs build loads and exposes the API.
node -e "const m = require('./pkg/nodejs/mcp_edge.js'); if (typeof m.McpClient?.connect !== 'function' || typeof m.McpPool !== 'function') process.exit(1)" \
    && echo "check passed: nodejs build loads and exports McpClient, McpPool"
# What a page ships: the module, the glue and the JS snippets (src/js/glue.js), each gzip -9.
shipped_gz() { read -r total _ < <(bash scripts/shipped-size.sh "$1"); echo "$total"; }
size_line() {
    local total wasm glue snippets
    read -r total wasm glue snippets < <(bash scripts/shipped-size.sh "$1")
    echo "size: $2: .wasm $(stat -c %s "$1/mcp_edge_bg.wasm") bytes ($wasm gzip -9), JS glue $glue gzip -9; shipped $total gzip -9"
}
size_line pkg/web "web, full build"

# The client build: McpClient without the pool, the adapters and the validator.
bash scripts/build-package.sh web pkg/web-client --no-default-features
dts=pkg/web-client/mcp_edge.d.ts
grep -q "class McpClient" "$dts" || { echo "check FAILED: client build .d.ts lacks McpClient"; exit 1; }
if grep -nE "class McpPool|function toolNames|interface PoolOptions" "$dts"; then
    echo "check FAILED: client build declares the pool"
    exit 1
fi
# The module's exports as the JS engine sees them (the glue is minified: no grep on its text).
exports="$(node --input-type=module -e 'const m = await import(process.argv[1]); console.log(Object.keys(m).sort().join(" "))' \
    "file://$ROOT/pkg/web-client/mcp_edge.js")"
[[ " $exports " == *" McpClient "* ]] || { echo "check FAILED: client build does not export McpClient ($exports)"; exit 1; }
if [[ " $exports " == *" McpPool "* || " $exports " == *" toolNames "* ]]; then
    echo "check FAILED: client build exports the pool ($exports)"
    exit 1
fi
check_sections "$dts" src/js/mcp-edge.d.ts || { echo "check FAILED: client build .d.ts lacks the client declarations"; exit 1; }
echo "check passed: client build (web): declares and exports McpClient, no pool"
size_line pkg/web-client "web, client build"
# What ships is the nightly build with std rebuilt (build-package.sh); the wasm_imports stage
# checks the stable build a Rust user makes. Neither may import from `env`.
for wasm in pkg/web/mcp_edge_bg.wasm pkg/web-client/mcp_edge_bg.wasm; do
    node tests/tools/check-wasm-imports.mjs "$wasm" || { echo "check FAILED: $wasm imports from env"; exit 1; }
done
echo "check passed: no env imports in the shipped modules (full and client builds)"
full=$(shipped_gz pkg/web)
client=$(shipped_gz pkg/web-client)
((client < full)) || { echo "check FAILED: the client build ($client) is not smaller than the full build ($full)"; exit 1; }
echo "check passed: client build ships $client bytes gzip -9, full build $full"
# The size budget: each build at most 1% over its recorded figure (tests/tools/size-budget.txt).
bash tests/tools/size-budget.sh check
