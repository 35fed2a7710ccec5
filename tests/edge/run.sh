#!/usr/bin/env bash
# Edge agents end to end:
#   1. install (idempotent): workerd and playwright-core exactly as locked in package-lock.json
#      (`npm ci` only when an installed version differs); checks the workerd binary runs here;
#   2. build the wasm `web` package into tests/edge/pkg (git-ignored) when it is missing or older
#      than src/, Cargo.toml, Cargo.lock or the package build scripts: scripts/build-package.sh;
#   3. start the test servers (tests/servers/start-all.sh: server-everything, 2025 era; the Python
#      server, 2026-07-28 and 2025) and the OAuth servers (tests/servers/auth/start.sh: oidc-provider
#      and its protected servers of both eras) on 127.0.0.1;
#   4. node --test: auth (the inbound credential), oauth (sign-in to protected servers, also across
#      a workerd restart), routes (workerd), cap (workerd + counting proxy), snapshot (two workerd
#      processes), webworker (headless Chromium). Each test file starts and stops its own workerd,
#      proxy, extra Python servers or static server and browser;
#   5. stop everything it started, also on failure. Exit status: node's test runner's.
# Usage: tests/edge/run.sh [test files...]   (default: all *.test.mjs)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
export PATH="$HOME/.cargo/bin:$PATH"
log() { printf '[edge] %s\n' "$*" >&2; }

# 1. npm tools, pinned.
locked() { node -p "require('$here/package-lock.json').packages['node_modules/$1'].version"; }
installed() {
  node -p 'try { require(process.argv[1]).version } catch { "" }' "$here/node_modules/$1/package.json" 2>/dev/null || true
}
if [ "$(installed workerd)" != "$(locked workerd)" ] || [ "$(installed playwright-core)" != "$(locked playwright-core)" ]; then
  log "npm ci (workerd $(locked workerd), playwright-core $(locked playwright-core))"
  (cd "$here" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund >&2)
fi
log "workerd $("$here/node_modules/.bin/workerd" --version)"
[ -x /usr/bin/chromium ] || { log "/usr/bin/chromium missing (apt-get install -y chromium)"; exit 1; }

# 2. The web package.
bash "$root/scripts/build-package.sh" --if-stale web "$here/pkg"

# 3. Servers (their own run directory, so nothing else's PIDs are touched).
own_run_dir=""
if [ -z "${MCP_TEST_RUN_DIR:-}" ]; then own_run_dir=$(mktemp -d); export MCP_TEST_RUN_DIR=$own_run_dir; fi
cleanup() {
  "$root/tests/servers/stop-all.sh" >/dev/null 2>&1 || true
  "$root/tests/servers/auth/stop.sh" >/dev/null 2>&1 || true
  [ -n "$own_run_dir" ] && rm -rf "$own_run_dir"
  rm -rf "$here/.run"
}
trap cleanup EXIT
"$root/tests/servers/start-all.sh" >/dev/null
"$root/tests/servers/auth/start.sh" >/dev/null
set -a
# shellcheck disable=SC1091
. "$root/tests/servers/.ports.env"
# shellcheck disable=SC1091
. "$MCP_TEST_RUN_DIR/auth.env"
set +a

# 4. Tests.
cd "$here"
files=("$@")
[ ${#files[@]} -eq 0 ] && files=(auth.test.mjs oauth.test.mjs routes.test.mjs project.test.mjs cap.test.mjs snapshot.test.mjs tasks.test.mjs pins.test.mjs webworker.test.mjs)
node --test --test-concurrency=1 "${files[@]}"
