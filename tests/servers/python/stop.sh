#!/usr/bin/env bash
# Stop the Python MCP test server started by start.sh (only the PID it recorded).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/../lib/proc.sh"
stop_named "${PY_SERVER_NAME:-py2026}" "$here/server_2026.py"
