#!/usr/bin/env bash
# The side-by-side benchmark of the mcp-edge wasm client and the official TypeScript SDK client
# (@modelcontextprotocol/client, pinned in package.json / package-lock.json), in one command:
#
#   bash tests/bench/run.sh              # the figures: 5 rounds, ~12 min on a quiet 2-core machine
#   bash tests/bench/run.sh --rounds 7   # more rounds
#   bash tests/bench/run.sh --stream-mb 16   # shorter streams (default 64 MB per streaming run)
#   bash tests/bench/run.sh --smoke      # tiny sizes, 1 round: checks that the benchmark still runs
#   bash tests/bench/run.sh --hog        # the same with one core kept busy by a busy loop
#                                        # (report in target/bench/hog/)
#   bash tests/bench/run.sh --only "echo c64 2"   # only the measurements whose key has the text
#   bash tests/bench/run.sh --profile    # V8 CPU profiles of the page around each echo measurement
#                                        # (<out>/profiles/, summed in profiles/summary.md)
# Every echo row also reports the CPU time per call of each process (page, network service,
# browser process, server).
#
# Installs what it needs (npm ci from the committed lock: the SDK, esbuild, playwright-core; the
# browser is Debian's /usr/bin/chromium), builds the `web` packages when their sources are newer
# (tests/demo/build-web.sh: the client build into pkg/web-client, which the page runs, since a
# page that connects and calls tools ships that; the full build into www/pkg, whose size is
# reported beside it), bundles the SDK client (sdk-entry.mjs: Client +
# StreamableHTTPClientTransport, minified ESM for browsers) and runs runner.mjs, which starts the
# loopback server, drives headless Chromium and writes the table to target/bench/report.md
# (target/bench/smoke/ for --smoke) with the raw samples beside it, and prints it.
# Not part of `tests/run-all.sh` except as the `bench_smoke` stage (--smoke).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

out="$root/target/bench"
for a in "$@"; do
  [ "$a" = "--smoke" ] && out="$root/target/bench/smoke"
  [ "$a" = "--hog" ] && out="$root/target/bench/hog"
done
mkdir -p "$out"

# 1. npm packages exactly as locked; skipped when the lockfile has not changed since the last install.
stamp="$here/node_modules/.mcp-edge-lock.sha256"
sum=$(sha256sum "$here/package-lock.json" | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$sum" ]; then
  echo "== npm ci in tests/bench" >&2
  (cd "$here" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error >&2)
  echo "$sum" >"$stamp"
fi
[ -x /usr/bin/chromium ] || { echo "run.sh: /usr/bin/chromium missing (bash scripts/install.sh apt)" >&2; exit 1; }

# 2. The wasm `web` packages, rebuilt when src/, Cargo.toml or Cargo.lock are newer.
tests/demo/build-web.sh client
tests/demo/build-web.sh

# 3. The SDK client bundle.
"$here/node_modules/.bin/esbuild" "$here/sdk-entry.mjs" --bundle --minify --format=esm --platform=browser \
  --target=es2022 --log-level=warning --outfile="$out/sdk.js"

# 4. The measurements.
node "$here/runner.mjs" --pkg "$root/pkg/web-client" --full-pkg "$root/www/pkg" --sdk-bundle "$out/sdk.js" --out "$out" "$@"
