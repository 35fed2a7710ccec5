#!/usr/bin/env bash
# Runs tests/client_e2e.rs, pool_e2e.rs and rust_app.rs (the JS and Rust APIs against real servers)
# with `wasm-pack test`, in Node and in headless Chromium. Starts the servers on 127.0.0.1
# (server-everything, the Python 2026/2025 server, the misbehaving fixture; tests/wasm/servers.sh),
# compiles their URLs into the tests (and, as MCP_EDGE_EXPECT_SCOPE, the scope each run must land
# in: tests/e2e/scope.rs checks it), stops them after.
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

suites=(client_e2e pool_e2e rust_app)
test_args=()
for suite in "${suites[@]}"; do test_args+=(--test "$suite"); done
log=$(mktemp)
# shellcheck source=tests/wasm/servers.sh
. "$here/servers.sh"
trap 'stop_wasm_test_servers; rm -f "$log"' EXIT
start_wasm_test_servers

status=0
# The pool's runnable example (docs/pool-and-adapters.md), against the same servers, on pkg/nodejs (built here when the
# package stage has not built it from these sources).
echo "== tests/demo/pool-example.mjs"
if scripts/build-nodejs-pkg.sh >/dev/null \
  && EVERYTHING_URL="$EVERYTHING_URL" PY2026_URL="$PY2026_URL" node tests/demo/pool-example.mjs; then
  echo "check passed: the pool example runs"
else
  echo "check FAILED: the pool example"
  status=1
fi
# A test whose future never settles ends Node's event loop and the runner exits 0 mid-suite: a
# run passes only when every suite printed its `test result: ok` line.
reported() {
  local ok
  ok=$(grep -c '^test result: ok' "$log" || true)
  ((ok == ${#suites[@]})) || {
    echo "check FAILED: $1: $ok of ${#suites[@]} suites reported a result (a test that never settled?)" >&2
    return 1
  }
}
for runtime in "${runtimes[@]}"; do
  case "$runtime" in
    node) where="Node"; run=(env MCP_EDGE_EXPECT_SCOPE=node wasm-pack test --node) ;;
    chrome) where="headless Chromium (page)"; run=(env MCP_EDGE_EXPECT_SCOPE=window WASM_BINDGEN_USE_BROWSER=1 wasm-pack test --headless --chrome) ;;
    worker) where="headless Chromium (dedicated worker)"; run=(env MCP_EDGE_EXPECT_SCOPE=worker WASM_BINDGEN_USE_DEDICATED_WORKER=1 wasm-pack test --headless --chrome) ;;
    *) echo "unknown runtime $runtime" >&2; exit 2 ;;
  esac
  echo "== client_e2e in $where"
  "${run[@]}" -- "${test_args[@]}" 2>&1 | tee "$log" || status=1
  reported "$runtime" || status=1
done
exit $status
