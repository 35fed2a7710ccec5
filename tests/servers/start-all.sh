#!/usr/bin/env bash
# Install (idempotent) and start both test servers on free loopback ports, then
# write .ports.env (git-ignored) with their URLs:
#   PY2026_URL      Python mcp 2.3.0 server: 2026-07-28 and 2025 era on one URL
#   EVERYTHING_URL  @modelcontextprotocol/server-everything 2026.8.31 (2025 era)
#   PY2026_ADMIN_URL  POST here ends every 2025-era session on the Python server
# Stop them with stop-all.sh (kills exactly the PIDs recorded here).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
"$here/python/setup.sh" >&2
"$here/everything/setup.sh" >&2
py_url="$("$here/python/start.sh" 0)"
if ! everything_url="$("$here/everything/start.sh" 0)"; then
  "$here/python/stop.sh" >&2
  exit 1
fi
cat >"$here/.ports.env" <<ENV
PY2026_URL=$py_url
PY2026_ADMIN_URL=${py_url%/mcp}/admin/terminate-sessions
EVERYTHING_URL=$everything_url
ENV
cat "$here/.ports.env"
