#!/usr/bin/env bash
# Cargo runner for wasm32-wasip2 test binaries: jco transpiles the command component and runs it
# in Node (set as CARGO_TARGET_WASM32_WASIP2_RUNNER by run.sh).
exec "$(dirname "${BASH_SOURCE[0]}")/node_modules/.bin/jco" run "$@"
