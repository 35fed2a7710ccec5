#!/usr/bin/env bash
# Start @modelcontextprotocol/server-everything in streamableHttp mode on
# 127.0.0.1:PORT in the background (PORT 0 or absent: a free port). Prints its
# URL (http://127.0.0.1:PORT/mcp). Stop it with stop.sh.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/../lib/proc.sh"
port="${1:-0}"
entry="$here/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
[ -f "$entry" ] || "$here/setup.sh" >&2
mkdir -p "$run_dir"
# GZIP_ALLOWED_DOMAINS: the gzip-file-as-resource tool fetches any http(s) URL,
# and its default argument is a public one; allow loopback hosts only so no test
# can make it leave the machine (validation refuses before any fetch).
GZIP_ALLOWED_DOMAINS="127.0.0.1,localhost" PORT="$port" MCP_TEST_PORT_FILE="$run_dir/everything.port" \
  start_bg everything "$entry" node --import "$here/loopback-listen.mjs" "$entry" streamableHttp
