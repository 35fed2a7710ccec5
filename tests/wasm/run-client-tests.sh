#!/usr/bin/env bash
# Runs tests/client_e2e.rs (the McpClient JS API against real servers) with `wasm-pack test`, in
# Node and in headless Chromium. Starts the servers on 127.0.0.1 (server-everything, the Python
# 2026/2025 server, a second instance of it with --fault-tools, the misbehaving fixture), compiles
# their URLs into the tests, stops them after.
# Usage: run-client-tests.sh [node|chrome|worker]...   (default: all three)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
export PATH="$HOME/.cargo/bin:$PATH"
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
# The headless runner gives a whole suite 20 s by default; the suites wait on real servers
# (Retry-After delays, timeouts, slow progress), so they get longer.
export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-120}"
runtimes=("$@")
[ ${#runtimes[@]} -eq 0 ] && runtimes=(node chrome worker)

export MCP_TEST_RUN_DIR="${MCP_TEST_RUN_DIR:-$(mktemp -d)}"
cleanup() {
  PY_SERVER_NAME=pyfaults tests/servers/python/stop.sh >/dev/null 2>&1 || true
  tests/servers/stop-all.sh >/dev/null 2>&1 || true
  exec {fixture_in}>&- 2>/dev/null || true
  [ -n "${fixture_pid:-}" ] && kill "$fixture_pid" 2>/dev/null || true
}
trap cleanup EXIT

tests/servers/start-all.sh >/dev/null
# shellcheck disable=SC1091
. tests/servers/.ports.env
PYFAULTS_URL=$(PY_SERVER_NAME=pyfaults tests/servers/python/start.sh 0 --fault-tools)
coproc FIXTURE { exec node tests/servers/fixture/server.mjs; }
fixture_pid=$FIXTURE_PID
fixture_in=${FIXTURE[1]}
read -r -t 15 banner <&"${FIXTURE[0]}"
port_of() { sed -nE "s/.*\"$1\":([0-9]+).*/\1/p" <<<"$banner"; }

export MCP_EDGE_EVERYTHING_URL="$EVERYTHING_URL"
export MCP_EDGE_PY2026_URL="$PY2026_URL"
export MCP_EDGE_PY2026_ADMIN_URL="$PY2026_ADMIN_URL"
export MCP_EDGE_PYFAULTS_URL="$PYFAULTS_URL"
export MCP_EDGE_FIXTURE_URL="http://127.0.0.1:$(port_of port)"
export MCP_EDGE_FIXTURE_NOCORS_URL="http://127.0.0.1:$(port_of nocorsPort)"

status=0
# The README's runnable example, against the same servers (needs pkg/nodejs: the package stage).
if [ -f pkg/nodejs/mcp_edge.js ]; then
  echo "== tests/demo/pool-example.mjs"
  if EVERYTHING_URL="$EVERYTHING_URL" PY2026_URL="$PY2026_URL" node tests/demo/pool-example.mjs; then
    echo "check passed: the README's pool example runs"
  else
    echo "check FAILED: the README's pool example"
    status=1
  fi
fi
for runtime in "${runtimes[@]}"; do
  case "$runtime" in
    node) echo "== client_e2e in Node"; wasm-pack test --node -- --test client_e2e --test pool_e2e || status=1 ;;
    chrome) echo "== client_e2e in headless Chromium (page)"; WASM_BINDGEN_USE_BROWSER=1 wasm-pack test --headless --chrome -- --test client_e2e --test pool_e2e || status=1 ;;
    worker) echo "== client_e2e in headless Chromium (dedicated worker)"; WASM_BINDGEN_USE_DEDICATED_WORKER=1 wasm-pack test --headless --chrome -- --test client_e2e --test pool_e2e || status=1 ;;
    *) echo "unknown runtime $runtime" >&2; exit 2 ;;
  esac
done
exit $status
