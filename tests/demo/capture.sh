#!/usr/bin/env bash
# The demo: a real MCP exchange, decoded by mcp-edge's sans-IO core.
#
#  1. installs what it needs (pinned npm packages under tests/demo/, see scripts/install.sh);
#  2. starts the reference server `@modelcontextprotocol/server-everything` in Streamable HTTP mode on
#     127.0.0.1 (a free port; tests/demo/loopback.mjs keeps it off every other interface);
#  3. talks MCP to it with curl (2025-era session: initialize, notifications/initialized, tools/list,
#     tools/call echo, DELETE) and saves each raw response head and body to a capture directory;
#  4. stops the server, then decodes the capture with `cargo run --example decode_capture`
#     (examples/decode_capture.rs: proto::http::classify, proto::sse::Decoder,
#     proto::jsonrpc::Message).
#
#   bash tests/demo/capture.sh [capture-dir]      (default: target/demo-capture)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
export CARGO_TERM_COLOR=never
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

CAPTURE="${1:-$ROOT/target/demo-capture}"
SERVER_JS="$ROOT/tests/demo/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
PROTOCOL_VERSION="2025-11-25"

echo "== install"
bash scripts/install.sh demo

rm -rf "$CAPTURE"
mkdir -p "$CAPTURE"

PORT="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
URL="http://127.0.0.1:$PORT/mcp"

SERVER_PID=""
stop_server() {
    if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    SERVER_PID=""
}
trap stop_server EXIT

echo "== start server-everything (streamableHttp) on 127.0.0.1:$PORT"
PORT="$PORT" node --import "$ROOT/tests/demo/loopback.mjs" "$SERVER_JS" streamableHttp \
    >"$CAPTURE/server.log" 2>&1 &
SERVER_PID=$!

# Wait (bounded: 10 s) until the server answers anything on its port.
for _ in $(seq 1 100); do
    code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "$URL" || true)"
    [[ "$code" != "000" ]] && break
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$CAPTURE/server.log"; echo "server exited" >&2; exit 1; }
    sleep 0.1
done
[[ "$code" != "000" ]] || { cat "$CAPTURE/server.log"; echo "server did not start in 10 s" >&2; exit 1; }

SESSION_ID=""
# exchange <NN-name> <method> [json-body]: one HTTP request; saves request, response head and body.
exchange() {
    local name="$1" method="$2" body="${3:-}"
    local args=(-sS --max-time 15 -X "$method" -D "$CAPTURE/$name.headers" -o "$CAPTURE/$name.body"
        -w '%{http_code}' -H 'Accept: application/json, text/event-stream')
    if [[ -n "$body" ]]; then
        printf '%s\n' "$body" >"$CAPTURE/$name.request.json"
        args+=(-H 'Content-Type: application/json' --data-binary "@$CAPTURE/$name.request.json")
    fi
    if [[ -n "$SESSION_ID" ]]; then
        args+=(-H "Mcp-Session-Id: $SESSION_ID" -H "MCP-Protocol-Version: $PROTOCOL_VERSION")
    fi
    local status
    status="$(curl "${args[@]}" "$URL")"
    printf '%-28s %s %s -> HTTP %s, %s bytes\n' "$name" "$method" "${body:0:60}" "$status" \
        "$(wc -c <"$CAPTURE/$name.body")"
    [[ "$status" == 2?? ]] || { echo "unexpected HTTP status $status" >&2; cat "$CAPTURE/$name.body" >&2; exit 1; }
}

echo "== exchange (raw responses saved to ${CAPTURE#"$ROOT"/})"
exchange 01-initialize POST '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"'"$PROTOCOL_VERSION"'","capabilities":{},"clientInfo":{"name":"mcp-edge-demo","version":"0.1.0"}}}'
SESSION_ID="$(awk -F': *' 'tolower($1)=="mcp-session-id" {print $2}' "$CAPTURE/01-initialize.headers" | tr -d '\r' | tail -n 1)"
[[ -n "$SESSION_ID" ]] || { echo "no Mcp-Session-Id in the initialize response" >&2; exit 1; }
echo "session: $SESSION_ID"
exchange 02-initialized POST '{"jsonrpc":"2.0","method":"notifications/initialized"}'
exchange 03-tools-list POST '{"jsonrpc":"2.0","id":2,"method":"tools/list"}'
exchange 04-tools-call-echo POST '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hello from mcp-edge"}}}'
exchange 05-delete-session DELETE

stop_server
echo "== server stopped"

echo "== decode with mcp-edge (cargo run --example decode_capture)"
cargo run --quiet --example decode_capture -- "$CAPTURE"
