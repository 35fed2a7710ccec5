#!/usr/bin/env bash
# The WebAssembly component end to end, in two real component hosts (jco + Node, and wasmtime):
#   1. install (idempotent): the wasm32-wasip2 target, jco 1.35.0 and preview2-shim 0.26.1 from
#      the committed lock;
#   2. run the library's unit tests compiled for wasm32-wasip2 (core + wasi transport) under
#      `jco run`; build the component: cargo build --target wasm32-wasip2 --release
#      --features component --lib;
#   3. jco transpile it into out/ (an ES module Node imports); build the wasm-pack nodejs package
#      when stale (scripts/build-nodejs-pkg.sh): pool.test.mjs compares the component's pool
#      with the JS McpPool;
#   4. build wasmtime-host/ (wasmtime 48.0.8 from the committed lock); start the test servers
#      (tests/servers/start-all.sh) and the OAuth servers (tests/servers/auth/start.sh:
#      oidc-provider and its protected servers of both eras); run the component in wasmtime
#      (wasmtime-host: both eras, elicitation answered by that host in both eras, the pool, whose
#      exports it writes for pool.test.mjs, the GET stream); then node --test, one file at a time,
#      on wit.test.mjs (the component's world matches wit/), client.test.mjs (both eras through
#      the WIT interface only), pool.test.mjs (the same export bytes as the JS McpPool and the
#      wasmtime run; hanging and failing servers isolated; app-only tools in no export), input.test.mjs (elicitation answered
#      through host-input.mjs, both eras), stream.test.mjs (list_changed on the 2025 GET stream
#      and 2026 subscriptions/listen) and auth.test.mjs (client credentials with a secret and
#      ES256, DPoP, against the real provider); stop the servers (also on failure);
#   5. print the component's size, raw and gzip -9.
# Exit status: non-zero when the unit tests or a build fail, or the wasmtime run or node's tests do.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
servers="$root/tests/servers"
wasm="$root/target/wasm32-wasip2/release/mcp_edge.wasm"
# Exact pins, as in package.json / package-lock.json. preview2-shim is the WASI implementation the
# transpiled component imports at run time.
JCO_VERSION=1.35.0
SHIM_VERSION=0.26.1

log() { printf '[component] %s\n' "$*" >&2; }

# 1. Tools.
if ! rustup target list --installed | grep -qx wasm32-wasip2; then
  log "adding the wasm32-wasip2 target"
  rustup target add wasm32-wasip2 >&2
fi
installed() {
  node -p 'try { require(process.argv[1]).version } catch { "" }' \
    "$here/node_modules/$1/package.json" 2>/dev/null || true
}
if [ "$(installed @bytecodealliance/jco)" != "$JCO_VERSION" ] ||
  [ "$(installed @bytecodealliance/preview2-shim)" != "$SHIM_VERSION" ]; then
  log "installing jco $JCO_VERSION and preview2-shim $SHIM_VERSION (npm ci)"
  (cd "$here" && npm ci --no-audit --no-fund >&2)
fi

# 2. Unit tests on the target, then the component.
log "unit tests on wasm32-wasip2 (jco run)"
(cd "$root" && CARGO_TARGET_WASM32_WASIP2_RUNNER="$here/jco-run.sh" \
  cargo test --target wasm32-wasip2 --features component --lib >&2)
log "building the component"
(cd "$root" && cargo build --target wasm32-wasip2 --release --features component --lib >&2)
# The second host: wasmtime 48.0.8 (the last line that builds with rustc 1.95) with wasmtime-wasi
# and wasmtime-wasi-http, from the committed lock; cold, this is the longest build of the stage.
log "building the wasmtime host (wasmtime-host/)"
(cd "$here/wasmtime-host" && cargo build --release --locked >&2)

# 3. Transpile.
log "transpiling with jco $JCO_VERSION"
rm -rf "$here/out"
# The host-input import is this test host's own module (host-input.mjs).
"$here/node_modules/.bin/jco" transpile "$wasm" -o "$here/out" --name mcp-edge --quiet \
  --map 'mcp-edge:client/host-input=../host-input.mjs' >&2
printf '{"type":"module"}\n' >"$here/out/package.json"
MCP_EDGE_NODEJS_PKG="$("$root/scripts/build-nodejs-pkg.sh")"
export MCP_EDGE_NODEJS_PKG

# 4. Servers and tests.
own_run_dir=""
if [ -z "${MCP_TEST_RUN_DIR:-}" ]; then own_run_dir=$(mktemp -d); export MCP_TEST_RUN_DIR=$own_run_dir; fi
cleanup() {
  if [ -n "${tasks_in:-}" ]; then exec {tasks_in}>&- 2>/dev/null || true; fi
  [ -n "${tasks_out:-}" ] && rm -f "$tasks_out"
  "$servers/stop-all.sh" >/dev/null 2>&1 || true
  "$servers/auth/stop.sh" >/dev/null 2>&1 || true
  [ -n "$own_run_dir" ] && rm -rf "$own_run_dir"
}
trap cleanup EXIT
# The Tasks extension fixture; it exits when its stdin (held here) closes.
tasks_out=$(mktemp)
exec {tasks_in}> >(exec node "$servers/tasks2026/server.mjs" >"$tasks_out" 2>&1)
for _ in $(seq 1 150); do grep -q '"port"' "$tasks_out" && break; sleep 0.1; done
TASKS2026_URL="http://127.0.0.1:$(sed -nE '1s/.*"port":([0-9]+).*/\1/p' "$tasks_out")/mcp"
export TASKS2026_URL
"$servers/start-all.sh" >/dev/null
"$servers/auth/start.sh" >/dev/null
set -a
# shellcheck disable=SC1091
. "$servers/.ports.env"
# shellcheck disable=SC1091
. "$MCP_TEST_RUN_DIR/auth.env"
set +a
export COMPONENT_WASM="$wasm"
status=0
# wasmtime first: it writes its pool's exports for pool.test.mjs to compare.
export WASMTIME_EXPORTS_DIR="$MCP_TEST_RUN_DIR/wasmtime-exports"
mkdir -p "$WASMTIME_EXPORTS_DIR"
log "running the component in wasmtime"
"$here/wasmtime-host/target/release/mcp-edge-wasmtime-host" "$wasm" "$WASMTIME_EXPORTS_DIR" >&2 || status=$?
# One file at a time: stream.test.mjs adds tools to the shared Python server, which pool.test.mjs
# must not see change between its two pools.
(cd "$here" && node --test --test-concurrency=1 wit.test.mjs client.test.mjs pool.test.mjs input.test.mjs \
  stream.test.mjs auth.test.mjs) || status=$?

# 5. Size.
raw=$(wc -c <"$wasm")
gz=$(gzip -9c "$wasm" | wc -c)
log "component: $wasm"
log "size: $raw bytes raw, $gz bytes gzip -9"
exit "$status"
