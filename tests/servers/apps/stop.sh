#!/usr/bin/env bash
# Stops the MCP Apps example server start.sh started (only the PID it recorded).
#   stop.sh vanillajs|react
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/../lib/proc.sh"
kind="${1:?usage: stop.sh vanillajs|react}"
stop_named "apps-$kind" "$here/node_modules/@modelcontextprotocol/server-basic-$kind/dist/index.js"
