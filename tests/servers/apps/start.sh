#!/usr/bin/env bash
# Starts one MCP Apps example server (vanillajs or react) in Streamable HTTP mode, as its package
# documents (`PORT=... mcp-server-basic-<name>`; stateless, 2025-era protocol), on 127.0.0.1 and a
# free port, in the background. Prints its URL (http://127.0.0.1:PORT/mcp). Stop it with stop.sh.
#   start.sh vanillajs|react
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/../lib/proc.sh"
kind="${1:?usage: start.sh vanillajs|react}"
case "$kind" in vanillajs | react) ;; *) echo "start.sh: unknown server $kind" >&2; exit 2 ;; esac
entry="$here/node_modules/@modelcontextprotocol/server-basic-$kind/dist/index.js"
[ -f "$entry" ] || "$here/setup.sh" >&2
mkdir -p "$run_dir"
# The servers call app.listen(PORT) with no host (every interface): the preload binds loopback.
PORT=0 MCP_TEST_PORT_FILE="$run_dir/apps-$kind.port" \
  start_bg "apps-$kind" "$entry" node --import "$here/../everything/loopback-listen.mjs" "$entry"
