#!/usr/bin/env bash
# The main job: the mcp-edge playground talking to real local MCP servers, from the browser.
#
#  1. installs what it needs (rust targets, wasm-bindgen-cli, wasm-pack; the servers' pinned npm and
#     PyPI packages are installed by their own setup scripts);
#  2. builds the `web` package into www/pkg (when stale);
#  3. starts @modelcontextprotocol/server-everything (2025 era) and a Python `mcp` SDK server
#     (2026-07-28, and 2025 on request) on 127.0.0.1;
#  4. serves www/ on 127.0.0.1 with both servers pre-filled and connected, prints the URL, and stops
#     everything on Ctrl-C.
#
#   bash tests/demo.sh [PORT]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
bash scripts/install.sh targets release-toolchain wasm-bindgen wasm-pack binaryen esbuild
exec bash tests/demo/playground.sh "$@"
