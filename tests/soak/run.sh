#!/usr/bin/env bash
# The fault-injection soak: tool calls through McpPool to real servers of both eras (the Python
# server with --fault-tools, 2026-07-28 and 2025; server-everything, 2025), each behind a
# fault-injection proxy (tests/soak/proxy.mjs), in Node and in headless Chromium. After the calls,
# in both runtimes, the flap phase: faults off, each server in turn goes away at its proxy and
# comes back, and the pool must reconnect it on its own (about 20 s per runtime).
#
#   bash tests/soak/run.sh                          # 1,000 calls in Node, 200 in Chromium (CI)
#   SOAK_CALLS=10000 SOAK_BROWSER_CALLS=1000 bash tests/soak/run.sh
#   SOAK_SEED=7 SOAK_BROWSER_CALLS=0 bash tests/soak/run.sh    # another schedule, Node only
#   SOAK_CALLS=0 SOAK_BROWSER_CALLS=2000 bash tests/soak/run.sh  # Chromium only
#   SOAK_HANDSHAKE_FAULTS=1 SOAK_BROWSER_CALLS=0 bash tests/soak/run.sh  # connects break too (Node)
#
# Builds the nodejs package (pkg/nodejs) and the web package (www/pkg) when they are older than
# the sources; starts the servers on 127.0.0.1 and stops them on exit. Prints `check passed` /
# `check FAILED` lines (one per invariant per runtime).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
export PATH="$HOME/.cargo/bin:$PATH"
calls="${SOAK_CALLS:-1000}"
browser_calls="${SOAK_BROWSER_CALLS:-200}"
seed="${SOAK_SEED:-1}"
out_dir="${SOAK_OUT:-$root/target/soak}"
mkdir -p "$out_dir"

# 1. Packages, rebuilt when a source is newer.
scripts/build-nodejs-pkg.sh >/dev/null
if [ "$browser_calls" -gt 0 ]; then
  tests/demo/build-web.sh
  # playwright-core exactly as tests/browser locks it (Debian's Chromium, no browser download).
  want=$(node -p "require('$root/tests/browser/package-lock.json').packages['node_modules/playwright-core'].version")
  have=$(node -p "try { require('$root/tests/browser/node_modules/playwright-core/package.json').version } catch { '' }")
  if [ "$want" != "$have" ]; then
    (cd tests/browser && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund >&2)
  fi
fi

# 2. Servers of its own (their own run dir, so they never clash with another suite's).
run_dir=$(mktemp -d)
export MCP_TEST_RUN_DIR="$run_dir"
cleanup() {
  if [ -n "${tasks_in:-}" ]; then exec {tasks_in}>&- 2>/dev/null || true; fi
  PY_SERVER_NAME=soakpy tests/servers/python/stop.sh >/dev/null 2>&1 || true
  tests/servers/everything/stop.sh >/dev/null 2>&1 || true
  rm -rf "$run_dir"
}
trap cleanup EXIT
tests/servers/python/setup.sh >&2
tests/servers/everything/setup.sh >&2
py_url=$(PY_SERVER_NAME=soakpy tests/servers/python/start.sh 0 --fault-tools)
everything_url=$(tests/servers/everything/start.sh 0)
# The Tasks extension fixture (task-backed tools); it exits when its stdin (held here) closes.
tasks_out="$run_dir/tasks2026.out"
exec {tasks_in}> >(exec node tests/servers/tasks2026/server.mjs >"$tasks_out" 2>&1)
for _ in $(seq 1 150); do grep -q '"port"' "$tasks_out" && break; sleep 0.1; done
tasks_url="http://127.0.0.1:$(sed -nE '1s/.*"port":([0-9]+).*/\1/p' "$tasks_out")/mcp"

# 3. The soaks. Both run even when the first fails, so one run reports everything.
status=0
if [ "$calls" -gt 0 ]; then
  node --expose-gc tests/soak/run-node.mjs --py "$py_url" --everything "$everything_url" --tasks "$tasks_url" \
    --calls "$calls" --seed "$seed" --handshake-faults "${SOAK_HANDSHAKE_FAULTS:-0}" \
    --out "$out_dir/node.json" || status=1
fi
if [ "$browser_calls" -gt 0 ]; then
  node tests/soak/run-chromium.mjs --py "$py_url" --everything "$everything_url" --tasks "$tasks_url" \
    --calls "$browser_calls" --seed "$seed" --out "$out_dir/chromium.json" || status=1
fi
exit $status
