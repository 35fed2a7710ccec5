#!/usr/bin/env bash
# From a page on another loopback origin, call both running test servers in headless Chromium
# with the headers that trigger a CORS preflight (Mcp-Method, Mcp-Name, Mcp-Param-Region,
# MCP-Protocol-Version, Authorization, Last-Event-ID) and check that the page can read the
# results and the Mcp-Session-Id header. Needs .ports.env (start-all.sh) and /usr/bin/chromium.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck disable=SC1091
. "$here/.ports.env"
tmp="$(mktemp -d)"
python3 -m http.server 0 --bind 127.0.0.1 --directory "$here/cors-check" >"$tmp/http.log" 2>&1 &
http_pid=$!
trap 'kill "$http_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
port=""
for _ in $(seq 1 50); do
  port="$(grep -o 'port [0-9]*' "$tmp/http.log" | awk '{print $2}')"
  [ -n "$port" ] && break
  sleep 0.1
done
page="http://127.0.0.1:$port/index.html?py=$PY2026_URL&ev=$EVERYTHING_URL"
dom="$(timeout 60 chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --disable-quic --disable-dev-shm-usage --virtual-time-budget=8000 \
  --dump-dom "$page" 2>/dev/null)"
result="$(sed -n '/<pre id="out">/,/<\/pre>/p' <<<"$dom" | sed 's/<[^>]*>//g')"
echo "$result"
pass=0 fail=0
for want in '^py2026 200 region=eu-west-1 query=q$' '^py2025 200 session=[0-9a-f]{32}$' '^everything 200 session=[0-9a-f-]{36}$'; do
  if grep -Eq -- "$want" <<<"$result"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: no line matching $want"; fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
