#!/usr/bin/env bash
# Stop the server-everything instance started by start.sh (only the PID it recorded).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/../lib/proc.sh"
stop_named everything "$here/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
