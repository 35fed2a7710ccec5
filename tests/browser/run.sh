#!/usr/bin/env bash
# Browser tests of the www/ playground: installs playwright-core (idempotent, pinned by the
# committed lock), rebuilds the wasm `web` package into www/pkg when sources are newer, starts the
# test servers (server-everything, the Python 2026/2025 server, the misbehaving fixture) and the
# static server on 127.0.0.1, runs `node --test`, and stops everything it started.
# Screenshots land in target/browser-screenshots/.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"

# 1. playwright-core, exactly as locked (no browser download: we use Debian's /usr/bin/chromium).
"$here/setup.sh"

# 2. The wasm package, rebuilt when anything it is built from is newer than the module.
tests/demo/build-web.sh

# 3. Servers, all on loopback; everything started here is stopped on exit.
if [ -z "${MCP_TEST_RUN_DIR:-}" ]; then own_run_dir=$(mktemp -d); export MCP_TEST_RUN_DIR=$own_run_dir; fi
cleanup() {
  [ -n "${static_pid:-}" ] && kill "$static_pid" 2>/dev/null || true
  exec {fixture_in}>&- 2>/dev/null || true
  [ -n "${fixture_pid:-}" ] && kill "$fixture_pid" 2>/dev/null || true
  "$root/tests/servers/stop-all.sh" >/dev/null 2>&1 || true
  for k in vanillajs react; do "$root/tests/servers/apps/stop.sh" "$k" >/dev/null 2>&1 || true; done
  exec {hostile_in}>&- 2>/dev/null || true
  [ -n "${hostile_pid:-}" ] && kill "$hostile_pid" 2>/dev/null || true
  [ -n "${own_run_dir:-}" ] && rm -rf "$own_run_dir"
}
trap cleanup EXIT
tests/servers/start-all.sh >/dev/null
# shellcheck disable=SC1091
. tests/servers/.ports.env
coproc FIXTURE { exec node tests/servers/fixture/server.mjs; }
fixture_pid=$FIXTURE_PID
fixture_in=${FIXTURE[1]}
read -r -t 15 banner <&"${FIXTURE[0]}"
port_of() { sed -nE "s/.*\"$1\":([0-9]+).*/\1/p" <<<"$banner"; }
# MCP Apps: the official example servers (vanilla JS and React views) and the hostile-view fixture.
tests/servers/apps/setup.sh >/dev/null
APPS_VANILLA_URL=$(tests/servers/apps/start.sh vanillajs)
APPS_REACT_URL=$(tests/servers/apps/start.sh react)
# Its stdin is a FIFO held open here (one coproc at a time in bash): closing it stops the fixture.
mkfifo "$MCP_TEST_RUN_DIR/hostile.in"
node tests/servers/apps/hostile.mjs <"$MCP_TEST_RUN_DIR/hostile.in" >"$MCP_TEST_RUN_DIR/hostile.out" &
hostile_pid=$!
exec {hostile_in}>"$MCP_TEST_RUN_DIR/hostile.in"
for _ in $(seq 150); do [ -s "$MCP_TEST_RUN_DIR/hostile.out" ] && break; sleep 0.1; done
HOSTILE_PORT=$(sed -nE 's/.*"port":([0-9]+).*/\1/p' "$MCP_TEST_RUN_DIR/hostile.out")
[ -n "$HOSTILE_PORT" ] || { echo "run.sh: the hostile-view fixture did not start" >&2; exit 1; }
export APPS_VANILLA_URL APPS_REACT_URL HOSTILE_URL="http://127.0.0.1:$HOSTILE_PORT"

static_out="$MCP_TEST_RUN_DIR/static.out"
node tests/demo/serve-playground.mjs --server "everything=$EVERYTHING_URL" --server "py2026=$PY2026_URL" \
  --project-server "proj=$PY2026_URL?as=project" --protocol everything=2025-11-25 >"$static_out" &
static_pid=$!
for _ in $(seq 50); do [ -s "$static_out" ] && break; sleep 0.1; done
PLAYGROUND_URL=$(head -1 "$static_out")
[ -n "$PLAYGROUND_URL" ] || { echo "run.sh: static server did not start" >&2; exit 1; }

export PLAYGROUND_URL EVERYTHING_URL PY2026_URL
export FIXTURE_URL="http://127.0.0.1:$(port_of port)"
export FIXTURE_NOCORS_URL="http://127.0.0.1:$(port_of nocorsPort)"
export SCREENSHOT_DIR="$root/target/browser-screenshots"
mkdir -p "$SCREENSHOT_DIR"
echo "== playground at $PLAYGROUND_URL; screenshots in $SCREENSHOT_DIR" >&2
cd "$here"
node --test --test-concurrency=1 "$@" ${BROWSER_TESTS:-./*.test.mjs}
