#!/usr/bin/env bash
# Install the parity servers (pinned, idempotent: each setup script skips when the exact
# versions are present) and the browser leg (playwright-core, the wasm web package), and run the
# harness tests: unit tests, the HTTP transport tests, the stdio failure modes, the stdio-vs-HTTP
# parity scenarios and the HTTP-vs-browser parity scenarios (headless Chromium). The tests start
# every server they need on 127.0.0.1 and stop it again. Prints cargo test's summary; exits with
# its status.
#
#   tests/harness/run-parity.sh [extra cargo test args, e.g. a test name filter]
#
# MCP_EDGE_SERVERS_DIR overrides where the server setups live (default: tests/servers).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
servers="${MCP_EDGE_SERVERS_DIR:-$root/tests/servers}"

need() {
  command -v "$1" >/dev/null 2>&1 || { echo "run-parity: '$1' is required ($2)" >&2; exit 1; }
}
need cargo "the Rust toolchain"
need node "server-everything runs on Node"
need npm "installs server-everything"
need python3 "the Python SDK server and the misbehaving fixtures"
[ -x /usr/bin/chromium ] || { echo "run-parity: /usr/bin/chromium is required (the browser leg)" >&2; exit 1; }

for kind in everything python; do
  if [ ! -x "$servers/$kind/setup.sh" ]; then
    echo "run-parity: $servers/$kind/setup.sh not found; set MCP_EDGE_SERVERS_DIR" >&2
    exit 1
  fi
  echo "== setup $kind"
  "$servers/$kind/setup.sh"
done
export MCP_EDGE_SERVERS_DIR="$servers"
# The browser leg (tests/parity_browser.rs): playwright-core as locked and the wasm `web` package,
# built here rather than from inside `cargo test`.
echo "== setup browser leg"
"$root/tests/harness/browser/setup.sh" >/dev/null

cd "$root"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
set +e
# --no-fail-fast: a failure in one test binary (one leg) must not hide the others' results.
cargo test -p mcp-edge-harness --no-fail-fast "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e

echo
echo "== mcp-edge-harness test summary"
grep -E '^\s+Running |^test result:' "$log" | sed -E 's/^\s+//; s/^test result:/  result:/'
awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed;?$/) p += $i; if ($(i+1) ~ /^failed;?$/) f += $i; if ($(i+1) ~ /^ignored;?$/) g += $i } }
     END { printf "total: %d passed, %d failed, %d ignored\n", p, f, g }' "$log"
echo "transcripts of the parity runs: target/tmp/transcripts/"
exit "$status"
