#!/usr/bin/env bash
# Cargo runner for wasm32-wasip2 test binaries: jco transpiles the command component and runs it
# in Node (set as CARGO_TARGET_WASM32_WASIP2_RUNNER by run.sh). The library's component feature
# imports mcp-edge:client/host-input: host-input.mjs answers it (with no handler: nothing).
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec "$here/node_modules/.bin/jco" run --jco-map "mcp-edge:client/host-input=$here/host-input.mjs" -- "$@"
