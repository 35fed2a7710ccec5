#!/usr/bin/env bash
# The playground with real local servers: builds www/pkg if stale, starts server-everything, the
# Python 2026/2025 server and the MCP Apps example server-basic-vanillajs on 127.0.0.1, serves www/
# on 127.0.0.1 with them pre-filled (and connected on load) and the MCP Apps sandbox proxy on a
# second loopback port, prints the URLs, and stops everything on Ctrl-C.
#   tests/demo/playground.sh [PORT]      (PORT of the page; default: a free one)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
tests/demo/build-web.sh
if [ -z "${MCP_TEST_RUN_DIR:-}" ]; then own_run_dir=$(mktemp -d); export MCP_TEST_RUN_DIR=$own_run_dir; fi
cleanup() {
  [ -n "${static_pid:-}" ] && kill "$static_pid" 2>/dev/null || true
  "$root/tests/servers/stop-all.sh" >/dev/null 2>&1 || true
  "$root/tests/servers/apps/stop.sh" vanillajs >/dev/null 2>&1 || true
  [ -n "${own_run_dir:-}" ] && rm -rf "$own_run_dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
tests/servers/start-all.sh >/dev/null
# shellcheck disable=SC1091
. tests/servers/.ports.env
tests/servers/apps/setup.sh >/dev/null
APPS_URL=$(tests/servers/apps/start.sh vanillajs)
out="$MCP_TEST_RUN_DIR/static.out"
node tests/demo/serve-playground.mjs --port "${1:-0}" \
  --server "everything=$EVERYTHING_URL" --protocol everything=2025-11-25 \
  --server "py2026=$PY2026_URL" --server "apps=$APPS_URL" >"$out" &
static_pid=$!
for _ in $(seq 50); do [ -s "$out" ] && break; sleep 0.1; done
echo "server-everything: $EVERYTHING_URL"
echo "Python 2026 server: $PY2026_URL"
echo "MCP Apps example (server-basic-vanillajs): $APPS_URL"
echo "MCP Apps sandbox proxy: $(sed -n 2p "$out")"
echo "playground: $(head -1 "$out")   (Ctrl-C stops everything)"
wait "$static_pid"
