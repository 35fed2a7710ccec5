#!/usr/bin/env bash
# The tool-search benchmark in one command: a catalog of 1,239 generated tools on 24 loopback
# servers (catalog.mjs, served by catalog-server.mjs) plus the real test servers
# (server-everything, the Python 2026-07-28 server), searched with the 121 queries of
# queries.json whose right tools are known.
#
#   bash tests/bench/search/run.sh              # the figures (report in target/bench/search/)
#   bash tests/bench/search/run.sh --rounds 5   # more rounds of the JS measurements
#
# Steps: npm ci in tests/bench (playwright-core, as locked; Debian's /usr/bin/chromium); the
# nodejs and web packages when stale; the fixtures' own check (check-fixtures.mjs); the native
# measurements (`cargo bench --bench tool_search`); then bench.mjs in Node and Chromium.
# Servers it starts bind 127.0.0.1 and are stopped on exit. Not part of tests/run-all.sh; the
# search itself is tested there (tools_search, pool_driver, the browser and component suites).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
cd "$root"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
out="$root/target/bench/search"
mkdir -p "$out"

bench="$root/tests/bench"
stamp="$bench/node_modules/.mcp-edge-lock.sha256"
sum=$(sha256sum "$bench/package-lock.json" | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$sum" ]; then
  (cd "$bench" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error >&2)
  echo "$sum" >"$stamp"
fi
[ -x /usr/bin/chromium ] || { echo "run.sh: /usr/bin/chromium missing (bash scripts/install.sh apt)" >&2; exit 1; }

scripts/build-nodejs-pkg.sh >/dev/null
tests/demo/build-web.sh
node "$here/check-fixtures.mjs" >&2

run_dir=$(mktemp -d)
export MCP_TEST_RUN_DIR="$run_dir"
cleanup() {
  [ -n "${catalog_pid:-}" ] && kill "$catalog_pid" 2>/dev/null || true
  tests/servers/stop-all.sh >/dev/null 2>&1 || true
  rm -rf "$run_dir"
}
trap cleanup EXIT
tests/servers/start-all.sh >/dev/null
# shellcheck disable=SC1091
. tests/servers/.ports.env
node "$here/catalog-server.mjs" >"$run_dir/catalog.out" &
catalog_pid=$!
for _ in $(seq 100); do [ -s "$run_dir/catalog.out" ] && break; sleep 0.1; done
catalog_url=$(head -1 "$run_dir/catalog.out")
[ -n "$catalog_url" ] || { echo "run.sh: the catalog server did not start" >&2; exit 1; }

node --input-type=module -e "import { catalog } from '$here/catalog.mjs'; import { writeFileSync } from 'node:fs'; writeFileSync('$out/catalog.json', JSON.stringify(catalog()));"
MCP_EDGE_CATALOG="$out/catalog.json" MCP_EDGE_QUERIES="$here/queries.json" \
  cargo bench --quiet --bench tool_search >"$out/native.json"

node "$here/bench.mjs" --catalog "$catalog_url" --queries "$here/queries.json" \
  --nodejs-pkg "$root/pkg/nodejs" --web-pkg "$root/www/pkg" --native "$out/native.json" --out "$out" \
  --server "everything=$EVERYTHING_URL" --server "py2026=$PY2026_URL" "$@"
