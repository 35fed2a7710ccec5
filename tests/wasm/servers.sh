# Sourced by the wasm test runners: starts the local servers the end-to-end suites talk to
# (server-everything, the Python 2026/2025 server via tests/servers/start-all.sh, and the
# misbehaving fixture as a coprocess, and a second Python instance with the fault tools that count
# executions) and exports their URLs for `option_env!` in the suites:
# MCP_EDGE_EVERYTHING_URL, MCP_EDGE_PY2026_URL, MCP_EDGE_PY2026_ADMIN_URL, MCP_EDGE_PYFAULTS_URL,
# MCP_EDGE_FIXTURE_URL, MCP_EDGE_APPS_URL (server-basic-vanillajs, MCP Apps),
# MCP_EDGE_FIXTURE_NOCORS_URL, MCP_EDGE_FIXTURE_DEAD_URL; and the OAuth test servers
# (tests/servers/auth/start.sh: the authorization server and protected servers of both eras; the
# suites use the Python 2026 one) with the client-credentials client the authorization server
# knows: MCP_EDGE_AUTH_ISSUER,
# MCP_EDGE_AUTH_PY_URL, MCP_EDGE_AUTH_CC_ID, MCP_EDGE_AUTH_CC_SECRET (a random secret made for this
# run). stop_wasm_test_servers stops exactly
# what was started (call it from an EXIT trap). Run from the repository root.

start_wasm_test_servers() {
  export MCP_TEST_RUN_DIR="${MCP_TEST_RUN_DIR:-$(mktemp -d)}"
  wasm_test_servers_started=1
  tests/servers/start-all.sh >/dev/null
  # shellcheck disable=SC1091
  . tests/servers/.ports.env
  MCP_EDGE_PYFAULTS_URL=$(PY_SERVER_NAME=pyfaults tests/servers/python/start.sh 0 --fault-tools)
  export MCP_EDGE_PYFAULTS_URL
  coproc FIXTURE { exec node tests/servers/fixture/server.mjs; }
  fixture_pid=$FIXTURE_PID
  fixture_in=${FIXTURE[1]}
  local banner
  read -r -t 15 banner <&"${FIXTURE[0]}"
  port_of() { sed -nE "s/.*\"$1\":([0-9]+).*/\1/p" <<<"$banner"; }
  # The Tasks extension fixture (no published server implements 2026 tasks). It exits when its
  # stdin closes: the write end stays here (bash keeps one coprocess at a time, the fixture's).
  tasks2026_out=$(mktemp)
  exec {tasks2026_in}> >(exec node tests/servers/tasks2026/server.mjs >"$tasks2026_out" 2>&1)
  tasks2026_pid=$!
  local i
  for i in $(seq 1 150); do grep -q '"port"' "$tasks2026_out" && break; sleep 0.1; done
  export MCP_EDGE_TASKS2026_URL="http://127.0.0.1:$(sed -nE '1s/.*"port":([0-9]+).*/\1/p' "$tasks2026_out")"
  # The MCP Apps example server (a tool with a ui:// view), for the Rust API's app host.
  tests/servers/apps/setup.sh >/dev/null
  MCP_EDGE_APPS_URL=$(tests/servers/apps/start.sh vanillajs)
  export MCP_EDGE_APPS_URL
  export MCP_EDGE_EVERYTHING_URL="$EVERYTHING_URL"
  export MCP_EDGE_PY2026_URL="$PY2026_URL"
  export MCP_EDGE_PY2026_ADMIN_URL="$PY2026_ADMIN_URL"
  export MCP_EDGE_FIXTURE_URL="http://127.0.0.1:$(port_of port)"
  export MCP_EDGE_FIXTURE_NOCORS_URL="http://127.0.0.1:$(port_of nocorsPort)"
  export MCP_EDGE_FIXTURE_DEAD_URL="http://127.0.0.1:$(port_of deadPort)"
  wasm_auth_servers_started=1
  tests/servers/auth/start.sh >/dev/null
  # shellcheck disable=SC1091
  . "$MCP_TEST_RUN_DIR/auth.env"
  export MCP_EDGE_AUTH_ISSUER="$AUTH_ISSUER" MCP_EDGE_AUTH_PY_URL="$AUTH_PY_URL"
  export MCP_EDGE_AUTH_CC_ID="$AUTH_CC_BASIC_ID" MCP_EDGE_AUTH_CC_SECRET="$AUTH_CC_BASIC_SECRET"
}

stop_wasm_test_servers() {
  [ -n "${wasm_test_servers_started:-}" ] || return 0
  if [ -n "${wasm_auth_servers_started:-}" ]; then tests/servers/auth/stop.sh >/dev/null 2>&1 || true; fi
  PY_SERVER_NAME=pyfaults tests/servers/python/stop.sh >/dev/null 2>&1 || true
  tests/servers/stop-all.sh >/dev/null 2>&1 || true
  tests/servers/apps/stop.sh vanillajs >/dev/null 2>&1 || true
  if [ -n "${fixture_in:-}" ]; then exec {fixture_in}>&- 2>/dev/null || true; fi
  if [ -n "${fixture_pid:-}" ]; then kill "$fixture_pid" 2>/dev/null || true; fi
  if [ -n "${tasks2026_in:-}" ]; then exec {tasks2026_in}>&- 2>/dev/null || true; fi
  if [ -n "${tasks2026_pid:-}" ]; then kill "$tasks2026_pid" 2>/dev/null || true; fi
  if [ -n "${tasks2026_out:-}" ]; then rm -f "$tasks2026_out"; fi
}
