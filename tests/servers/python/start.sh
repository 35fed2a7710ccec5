#!/usr/bin/env bash
# Start the Python MCP test server (both eras) on 127.0.0.1:PORT in the background.
# Usage: start.sh [PORT] [server_2026.py options...]   (PORT 0 or absent: a free port)
# Prints its URL (http://127.0.0.1:PORT/mcp). Stop it with stop.sh. PY_SERVER_NAME (default py2026)
# names its pid/port/log files, so a second instance (e.g. with --fault-tools) can run beside it.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/../lib/proc.sh"
port="${1:-0}"
[ $# -gt 0 ] && shift
[ -x "$here/.venv/bin/python" ] || "$here/setup.sh" >&2
start_bg "${PY_SERVER_NAME:-py2026}" "$here/server_2026.py" \
  "$here/.venv/bin/python" "$here/server_2026.py" --port "$port" --port-file "$run_dir/${PY_SERVER_NAME:-py2026}.port" "$@"
