#!/usr/bin/env bash
# The TypeScript declarations (src/js/mcp-edge.d.ts) checked against a typed program and against
# what the package really returns:
#   1. install (idempotent): typescript and @types/node exactly as locked in package-lock.json;
#   2. build the wasm-pack `nodejs` package into pkg/nodejs when it is missing or older than src/,
#      Cargo.toml or Cargo.lock, and link it as node_modules/mcp-edge (imported as users do);
#   3. tsc --strict --noEmit of program.ts (Node types) and of browser.ts (DOM types, no Node);
#   4. every error code the Rust code can give JS is in the declared McpErrorCode union;
#   5. program.ts compiled and run in Node against the real servers (server-everything, the Python
#      2026/2025 server, the misbehaving fixture, and the OAuth servers of tests/servers/auth:
#      oidc-provider and its protected servers of both eras), recording every value it gets back;
#   6. those values written as `const v: <declared type> = <value>;` and compiled with tsc --strict;
#   7. the client build (pkg/nodejs-client, --no-default-features) as `mcp-edge-client`:
#      client-build.ts compiled with tsc --strict against its declarations (no pool declared) and
#      run against the same servers (no pool exported; connect, list, call, progress, cancel in
#      both eras; no output-schema validator).
# Stops every server it started, also on failure.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
log() { printf '[types] %s\n' "$*" >&2; }

# 1. npm pins.
locked() { node -p "require('$here/package-lock.json').packages['node_modules/$1'].version"; }
installed() { node -p 'try { require(process.argv[1]).version } catch { "" }' "$here/node_modules/$1/package.json" 2>/dev/null || true; }
if [ "$(installed typescript)" != "$(locked typescript)" ] || [ "$(installed @types/node)" != "$(locked @types/node)" ]; then
  log "npm ci (typescript $(locked typescript), @types/node $(locked @types/node))"
  (cd "$here" && npm ci --no-audit --no-fund >&2)
fi
tsc() { node "$here/node_modules/typescript/bin/tsc" "$@"; }
log "tsc $(tsc --version)"

# 2. The nodejs package, as `mcp-edge`.
pkg="$("$root/scripts/build-nodejs-pkg.sh")"
ln -sfn "$pkg" "$here/node_modules/mcp-edge"
client_pkg="$("$root/scripts/build-nodejs-pkg.sh" client)"
ln -sfn "$client_pkg" "$here/node_modules/mcp-edge-client"

# 3. The declarations against the typed program, and on their own in a browser setting.
cd "$here"
tsc -p tsconfig.json --strict --noEmit
echo "check passed: tsc --strict --noEmit: program.ts uses every declared member, option and event"
tsc -p tsconfig.browser.json --strict --noEmit
echo "check passed: tsc --strict --noEmit: the declarations compile with DOM types and without Node's"
tsc -p tsconfig.client.json --strict --noEmit
echo "check passed: tsc --strict --noEmit: client-build.ts against the client build's declarations (no pool)"

# 4. Error codes.
node check-codes.mjs "$root"

# 5. The program, run against real servers.
build="$here/build"
rm -rf "$build"
tsc -p tsconfig.json --strict --outDir "$build"
tsc -p tsconfig.client.json --strict --outDir "$build"
own_run_dir=""
if [ -z "${MCP_TEST_RUN_DIR:-}" ]; then own_run_dir=$(mktemp -d); export MCP_TEST_RUN_DIR=$own_run_dir; fi
cleanup() {
  exec {fixture_in}>&- 2>/dev/null || true
  [ -n "${fixture_pid:-}" ] && kill "$fixture_pid" 2>/dev/null || true
  "$root/tests/servers/stop-all.sh" >/dev/null 2>&1 || true
  "$root/tests/servers/auth/stop.sh" >/dev/null 2>&1 || true
  [ -n "$own_run_dir" ] && rm -rf "$own_run_dir"
  rm -rf "$build"
}
trap cleanup EXIT
"$root/tests/servers/start-all.sh" >/dev/null
# shellcheck disable=SC1091
. "$root/tests/servers/.ports.env"
# The OAuth servers (authorization server + protected servers of both eras) and the test's client
# credentials, exported as AUTH_*.
"$root/tests/servers/auth/start.sh" >/dev/null
set -a
# shellcheck disable=SC1091
. "$MCP_TEST_RUN_DIR/auth.env"
set +a
export AUTH_PERSON_MODULE="file://$root/tests/servers/auth/person.mjs"
coproc FIXTURE { exec node "$root/tests/servers/fixture/server.mjs"; }
fixture_pid=$FIXTURE_PID
fixture_in=${FIXTURE[1]}
read -r -t 15 banner <&"${FIXTURE[0]}"
port_of() { sed -nE "s/.*\"$1\":([0-9]+).*/\1/p" <<<"$banner"; }
observed="$build/observed.json"
EVERYTHING_URL="$EVERYTHING_URL" PY2026_URL="$PY2026_URL" PY2026_ADMIN_URL="$PY2026_ADMIN_URL" \
  FIXTURE_URL="http://127.0.0.1:$(port_of port)" FIXTURE_DEAD_URL="http://127.0.0.1:$(port_of deadPort)" \
  OBSERVED_OUT="$observed" node "$build/program.js"

# 6. What came back, against the declared types.
node check-observed.mjs "$observed" "$build"

# 7. The client build against the same servers.
EVERYTHING_URL="$EVERYTHING_URL" PY2026_URL="$PY2026_URL" FIXTURE_URL="http://127.0.0.1:$(port_of port)" \
  node "$build/client-build.js"
