#!/usr/bin/env bash
# Verify, with curl, every behaviour the test servers promise in README.md, and
# write the exchanges to TRANSCRIPTS.md (or $TRANSCRIPT_FILE).
#
# Needs running servers: PY2026_URL and EVERYTHING_URL from the environment or
# from .ports.env (written by start-all.sh). Talks to those loopback URLs only.
# Ends with "N passed, N failed"; exits non-zero if any check failed.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
for tool in curl jq base64; do
  command -v "$tool" >/dev/null || { echo "verify.sh needs $tool" >&2; exit 2; }
done
echo x | grep -Pzq x || { echo "verify.sh needs grep with -P (PCRE)" >&2; exit 2; }
if [ -z "${PY2026_URL:-}" ] || [ -z "${EVERYTHING_URL:-}" ]; then
  # shellcheck disable=SC1091
  [ -f "$here/.ports.env" ] && . "$here/.ports.env"
fi
: "${PY2026_URL:?set PY2026_URL or run start-all.sh}" "${EVERYTHING_URL:?set EVERYTHING_URL or run start-all.sh}"
PY_ADMIN="${PY2026_URL%/mcp}/admin/terminate-sessions"
out="${TRANSCRIPT_FILE:-$here/TRANSCRIPTS.md}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
last=""

V26=2026-07-28
V25=2025-11-25
META='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}},"io.modelcontextprotocol/clientInfo":{"name":"curl","version":"8"}}'
JSON=(-H "Content-Type: application/json" -H "Accept: application/json, text/event-stream")

{
  echo "# Test-server transcripts"
  echo
  echo "Written by \`tests/servers/verify.sh\` on $(date -u +%Y-%m-%dT%H:%MZ) against the servers started by"
  echo "\`start-all.sh\` (\`\$PY2026_URL\` = Python mcp 2.3.0 server, \`\$EVERYTHING_URL\` = server-everything"
  echo "2026.8.31). Responses are verbatim except that \`date\` headers are dropped. Session ids, sealed"
  echo "\`requestState\` tokens and SSE event ids differ on every run."
} >"$out"

# quote ARG: shell-quote for the transcript (single quotes unless plain).
quote() {
  if [[ "$1" =~ ^[A-Za-z0-9_./:=@,+-]+$ ]]; then printf '%s' "$1"; else printf "'%s'" "${1//\'/\'\\\'\'}"; fi
}

# render ARGS...: the curl command line as a reader would type it, URLs as variables.
render() {
  local line="curl -sS -i -N" a
  for a in "$@"; do line+=" $(quote "$a")"; done
  line="${line//$PY_ADMIN/\$PY2026_ADMIN}"
  line="${line//$PY2026_URL/\$PY2026_URL}"
  printf '%s' "${line//$EVERYTHING_URL/\$EVERYTHING_URL}"
}

section() { printf '\n## %s\n' "$1" >>"$out"; echo "== $1"; }

# req TITLE CURL_ARGS...: run curl, keep headers+body in $last, append to the transcript.
req() {
  local title=$1
  shift
  last="$(curl -sS -i -N --max-time 20 "$@" 2>&1)"
  {
    printf '\n### %s\n\n```\n$ %s\n' "$title" "$(render "$@")"
    grep -vi '^date:' <<<"$last" | tr -d '\r'
    printf '```\n'
  } >>"$out"
}

# bg NAME CURL_ARGS...: run a streaming curl in the background into $tmp/NAME.
bg() {
  local name=$1
  shift
  render "$@" >"$tmp/$name.cmd"
  curl -sS -i -N "$@" >"$tmp/$name.out" 2>&1 &
  echo $! >"$tmp/$name.pid"
}

# collect NAME TITLE: wait for a background curl, put its output in $last and the transcript.
collect() {
  local name=$1 title=$2
  wait "$(cat "$tmp/$name.pid")" 2>/dev/null
  last="$(cat "$tmp/$name.out")"
  {
    printf '\n### %s\n\n```\n$ %s\n' "$title" "$(cat "$tmp/$name.cmd")"
    grep -vi '^date:' <<<"$last" | tr -d '\r'
    printf '```\n'
  } >>"$out"
}

# wait_for NAME REGEX: poll (at most 10 s) until a background curl's output matches.
wait_for() {
  local i
  for i in $(seq 1 100); do
    tr -d '\r' <"$tmp/$1.out" 2>/dev/null | grep -Pzq -- "(?m)$2" && return 0
    sleep 0.1
  done
  return 1
}

# matches REGEX: the last response (CR removed) matches the multi-line PCRE REGEX
# (^ and $ match at line boundaries; (.|\n)* spans lines).
matches() { tr -d '\r' <<<"$last" | grep -Pzq -- "(?m)$1"; }

# expect DESCRIPTION REGEX: count and record whether the last response matches.
expect() {
  if matches "$2"; then
    pass=$((pass + 1))
    echo "  ok   $1"
    printf -- '- checked: %s\n' "$1" >>"$out"
  else
    fail=$((fail + 1))
    echo "  FAIL $1 (no match for: $2)"
    printf -- '- **FAILED**: %s\n' "$1" >>"$out"
  fi
}

# expect_not DESCRIPTION REGEX
expect_not() {
  if matches "$2"; then
    fail=$((fail + 1))
    echo "  FAIL $1 (unexpected match: $2)"
    printf -- '- **FAILED**: %s\n' "$1" >>"$out"
  else
    pass=$((pass + 1))
    echo "  ok   $1"
    printf -- '- checked: %s\n' "$1" >>"$out"
  fi
}

# body: the JSON of the last non-SSE response, or the last `data:` line of an SSE one.
body() { tr -d '\r' <<<"$last" | grep -E '^(data: )?\{' | tail -1 | sed 's/^data: //'; }

# m26 TITLE METHOD NAME PARAMS [CURL_ARGS...]: a well-formed 2026-07-28 request to $PY2026_URL.
m26() {
  local title=$1 method=$2 name=$3 params=$4
  shift 4
  local extra=()
  [ -n "$name" ] && extra=(-H "Mcp-Name: $name")
  req "$title" "$PY2026_URL" "${JSON[@]}" -H "MCP-Protocol-Version: $V26" -H "Mcp-Method: $method" "${extra[@]}" "$@" \
    -d "{\"jsonrpc\":\"2.0\",\"id\":$((++rid)),\"method\":\"$method\",\"params\":{${params:+$params,}$META}}"
}
rid=0

############################################################################
section "Python server, 2026-07-28 era (\$PY2026_URL)"

m26 "server/discover" server/discover "" ""
expect "discover answers 200" '^HTTP/1.1 200'
expect "supportedVersions lists 2026-07-28" '"supportedVersions":\["2026-07-28"\]'
expect "resultType complete, ttlMs and cacheScope present" '"resultType":"complete".*"ttlMs":0|"ttlMs":0.*"resultType":"complete"'
expect "serverInfo in result _meta" '"io.modelcontextprotocol/serverInfo":\{"name":"mcp-edge-py-test"'
expect "tools.listChanged advertised (listen is served)" '"tools":\{"listChanged":true\}'

m26 "tools/list, first page" tools/list "" ""
expect "first page has 3 tools: add, echo, slow_progress" '"name":"add".*"name":"echo".*"name":"slow_progress"'
expect "add has an outputSchema with sum" '"name":"add","outputSchema":\{[^}]*"properties":\{"sum"'
expect "first page carries nextCursor" '"nextCursor":"[^"]+"'
names=() pages=0 cursor=""
while :; do
  pages=$((pages + 1))
  [ $pages -gt 20 ] && break
  mapfile -t page < <(body | jq -r '.result.tools[].name')
  names+=("${page[@]}")
  cursor="$(body | jq -r '.result.nextCursor // empty')"
  [ -z "$cursor" ] && break
  m26 "tools/list, cursor $cursor" tools/list "" "\"cursor\":\"$cursor\""
done
last="pages=$pages expected=$(((${#names[@]} + 2) / 3)) tools=${names[*]}"
printf '\nAll pages: `%s`\n' "$last" >>"$out"
expect "paging: 3 tools a page, the last page has no nextCursor" '^pages=(\d+) expected=\1 '
expect "all 9 tools listed in order (then tools added at runtime, if any)" 'tools=add echo slow_progress mrtr_twice region_query bad_header_tool bad_header_space fail add_tool( dyn\w+)*$'

m26 "tools/list with an invalid cursor" tools/list "" '"cursor":"not-a-cursor"'
expect "invalid cursor: HTTP 400" '^HTTP/1.1 400'
expect "invalid cursor: -32602" '"code":-32602,"message":"Invalid cursor"'

m26 "tools/call add" tools/call add '"name":"add","arguments":{"a":2,"b":40}'
expect "add: JSON response" '^content-type: application/json'
expect "add: text 2 + 40 = 42" '"text":"2 \+ 40 = 42"'
expect "add: structuredContent {sum: 42}" '"structuredContent":\{"sum":42\}'

m26 "tools/call echo (non-ASCII)" tools/call echo '"name":"echo","arguments":{"message":"héllo wörld"}'
expect "echo returns the message" '"text":"h\\u00e9llo w\\u00f6rld"'

req "tools/call slow_progress with a progressToken (SSE)" "$PY2026_URL" "${JSON[@]}" -H "MCP-Protocol-Version: $V26" \
  -H "Mcp-Method: tools/call" -H "Mcp-Name: slow_progress" \
  -d '{"jsonrpc":"2.0","id":"p-1","method":"tools/call","params":{"name":"slow_progress","arguments":{"steps":3,"delay_ms":150},"_meta":{"progressToken":"tok-1","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}'
expect "progress: SSE response" '^content-type: text/event-stream'
expect "progress: 3 notifications with the token, in order" '"progressToken":"tok-1","progress":1,"total":3.*' 
expect "progress: step 3 sent" '"progressToken":"tok-1","progress":3,"total":3'
expect "progress: final result ends the stream" '"id":"p-1","result":\{"content":\[\{"text":"done 3 steps"'

m26 "tools/call fail" tools/call fail '"name":"fail","arguments":{}'
expect "fail: isError true" '"isError":true'
expect "fail: error text" '"text":"Error executing tool fail: requested failure"'

m26 "tools/call of an unknown tool" tools/call nope '"name":"nope","arguments":{}'
expect "unknown tool: 200 with isError (SDK choice, not -32602)" '"text":"Unknown tool: nope".*"isError":true'

section "MRTR: mrtr_twice (2026-07-28)"
m26 "round 1: no requestState" tools/call mrtr_twice '"name":"mrtr_twice","arguments":{}'
expect "round 1: resultType input_required" '"resultType":"input_required"'
expect "round 1: elicitation input request 'first'" '"inputRequests":\{"first":\{"method":"elicitation/create"'
s1="$(body | jq -r '.result.requestState')"
last="$s1"
expect "round 1: sealed requestState" '^v1\.'
m26 "round 2: answer 'first', echo requestState" tools/call mrtr_twice \
  "\"name\":\"mrtr_twice\",\"arguments\":{},\"inputResponses\":{\"first\":{\"action\":\"accept\",\"content\":{\"answer\":\"apple\"}}},\"requestState\":\"$s1\""
expect "round 2: asks again with input request 'second'" '"inputRequests":\{"second":\{"method":"elicitation/create"'
s2="$(body | jq -r '.result.requestState')"
last="$s1 $s2"
expect "round 2: a different requestState" '^(v1\.[^ ]+) (v1\.[^ ]+)$'
[ "$s1" != "$s2" ] && last="differ" || last="same"
expect "round 2: requestState changed between rounds" '^differ$'
m26 "round 3: answer 'second', echo the new requestState" tools/call mrtr_twice \
  "\"name\":\"mrtr_twice\",\"arguments\":{},\"inputResponses\":{\"second\":{\"action\":\"accept\",\"content\":{\"answer\":\"banana\"}}},\"requestState\":\"$s2\""
expect "round 3: complete with both answers" '"text":"first=apple second=banana".*"resultType":"complete"'
tampered="${s2:0:20}$( [ "${s2:20:1}" = A ] && echo B || echo A )${s2:21}"
m26 "round 3 with a requestState altered by one character" tools/call mrtr_twice \
  "\"name\":\"mrtr_twice\",\"arguments\":{},\"inputResponses\":{\"second\":{\"action\":\"accept\",\"content\":{\"answer\":\"banana\"}}},\"requestState\":\"$tampered\""
expect "altered requestState: HTTP 400 -32602" '"code":-32602,"message":"Invalid or expired requestState"'
m26 "round 2 with changed arguments (state is bound to them)" tools/call mrtr_twice \
  "\"name\":\"mrtr_twice\",\"arguments\":{\"extra\":1},\"inputResponses\":{\"first\":{\"action\":\"accept\",\"content\":{\"answer\":\"apple\"}}},\"requestState\":\"$s1\""
expect "state bound to the call: -32602" '"code":-32602,"message":"Invalid or expired requestState"'
m26 "round 2 with a declined elicitation" tools/call mrtr_twice \
  "\"name\":\"mrtr_twice\",\"arguments\":{},\"inputResponses\":{\"first\":{\"action\":\"decline\"}},\"requestState\":\"$s1\""
expect "decline: isError result" "was not accepted: decline.*\"isError\":true"
m26 "round 2 without the expected key" tools/call mrtr_twice \
  "\"name\":\"mrtr_twice\",\"arguments\":{},\"inputResponses\":{\"other\":{\"action\":\"accept\",\"content\":{\"answer\":\"x\"}}},\"requestState\":\"$s1\""
expect "missing input response: -32602" '"code":-32602,"message":"inputResponses must answer '"'"'first'"'"'"'

req "mrtr_twice from a client without the elicitation capability" "$PY2026_URL" "${JSON[@]}" -H "MCP-Protocol-Version: $V26" \
  -H "Mcp-Method: tools/call" -H "Mcp-Name: mrtr_twice" \
  -d '{"jsonrpc":"2.0","id":"cap-1","method":"tools/call","params":{"name":"mrtr_twice","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}'
expect "no elicitation capability: HTTP 400" '^HTTP/1.1 400'
expect "no elicitation capability: -32021 with requiredCapabilities" '"code":-32021,.*"data":\{"requiredCapabilities":\{"elicitation":\{"form":\{\}\}\}\}'

section "x-mcp-header: region_query and the invalid declarations"
m26 "region_query with a matching Mcp-Param-Region" tools/call region_query \
  '"name":"region_query","arguments":{"region":"eu-west-1","query":"q"}' -H "Mcp-Param-Region: eu-west-1"
expect "matching header: result" '"text":"region=eu-west-1 query=q"'
m26 "region_query with a different Mcp-Param-Region" tools/call region_query \
  '"name":"region_query","arguments":{"region":"eu-west-1","query":"q"}' -H "Mcp-Param-Region: us-east-1"
expect "mismatch: HTTP 400" '^HTTP/1.1 400'
expect "mismatch: -32020" '"code":-32020,"message":"Mcp-Param-Region header does not match'
m26 "region_query without Mcp-Param-Region" tools/call region_query \
  '"name":"region_query","arguments":{"region":"eu-west-1","query":"q"}'
expect "missing header: 400 -32020" '"code":-32020,"message":"Mcp-Param-Region header is missing'
m26 "region_query with a base64-sentinel value (non-ASCII)" tools/call region_query \
  '"name":"region_query","arguments":{"region":"zürich","query":"q"}' -H "Mcp-Param-Region: =?base64?$(printf 'zürich' | base64)?=" 
expect "sentinel decoded and matched" '"text":"region=z\\u00fcrich query=q"'
m26 "tools/list page carrying the invalid x-mcp-header tools" tools/list "" "\"cursor\":\"$(printf 'offset:3' | base64 | tr -d '=')\""
expect "bad_header_tool: x-mcp-header on a number property" '"amount":\{"title":"Amount","type":"number","x-mcp-header":"Amount"\}'
m26 "tools/list last page" tools/list "" "\"cursor\":\"$(printf 'offset:6' | base64 | tr -d '=')\""
expect "bad_header_space: x-mcp-header with a space" '"x-mcp-header":"Bad Label"'
m26 "bad_header_tool called anyway (the server skips invalid declarations)" tools/call bad_header_tool \
  '"name":"bad_header_tool","arguments":{"amount":1.5}'
expect "bad_header_tool answers without any Mcp-Param header" '"text":"amount=1.5"'

section "subscriptions/listen and add_tool"
bg listen "$PY2026_URL" --max-time 4 "${JSON[@]}" -H "MCP-Protocol-Version: $V26" -H "Mcp-Method: subscriptions/listen" \
  -d "{\"jsonrpc\":\"2.0\",\"id\":\"listen-1\",\"method\":\"subscriptions/listen\",\"params\":{\"notifications\":{\"toolsListChanged\":true},$META}}"
wait_for listen 'subscriptions/acknowledged'
dyn="dyn_$RANDOM"
m26 "add_tool registers $dyn" tools/call add_tool "\"name\":\"add_tool\",\"arguments\":{\"name\":\"$dyn\"}"
expect "add_tool: registered" "\"text\":\"registered $dyn\""
wait_for listen 'tools/list_changed'
collect listen "subscriptions/listen stream (closed by curl --max-time; the server keeps it open)"
expect "listen: SSE" '^content-type: text/event-stream'
expect "listen: acknowledged first, with subscriptionId" '"method":"notifications/subscriptions/acknowledged","params":\{"_meta":\{"io.modelcontextprotocol/subscriptionId":"listen-1"\}'
expect "listen: tools/list_changed with subscriptionId" '"method":"notifications/tools/list_changed","params":\{"_meta":\{"io.modelcontextprotocol/subscriptionId":"listen-1"\}\}'
m26 "call the runtime tool" tools/call "$dyn" "\"name\":\"$dyn\",\"arguments\":{\"text\":\"hi\"}"
expect "runtime tool answers" "\"text\":\"$dyn: hi\""
m26 "add_tool with an existing name" tools/call add_tool '"name":"add_tool","arguments":{"name":"echo"}'
expect "duplicate name: isError" "already exists.*\"isError\":true"

section "Envelope and header errors (SDK behaviour)"
req "unsupported protocol version" "$PY2026_URL" "${JSON[@]}" -H "MCP-Protocol-Version: 2099-01-01" -H "Mcp-Method: tools/list" \
  -d '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}'
expect "unsupported version: HTTP 400" '^HTTP/1.1 400'
expect "unsupported version: -32022 with supported and requested" '"code":-32022,"message":"Unsupported protocol version","data":\{"supported":\["2026-07-28"\],"requested":"2099-01-01"\}'
req "missing params._meta" "$PY2026_URL" "${JSON[@]}" -H "MCP-Protocol-Version: $V26" -H "Mcp-Method: tools/list" \
  -d '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}'
expect "missing _meta: 400 -32602" '"code":-32602,"message":"params._meta must be an object'
req "_meta without clientCapabilities" "$PY2026_URL" "${JSON[@]}" -H "MCP-Protocol-Version: $V26" -H "Mcp-Method: tools/list" \
  -d '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}'
expect "missing clientCapabilities: 400 -32602" '"code":-32602,"message":"params._meta is missing the required envelope key\(s\): io.modelcontextprotocol/clientCapabilities"'
req "MCP-Protocol-Version header differs from _meta" "$PY2026_URL" "${JSON[@]}" -H "MCP-Protocol-Version: $V26" -H "Mcp-Method: tools/list" \
  -d '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}'
expect "version mismatch: 400 -32020 (checked before -32022)" '"code":-32020,"message":"mcp-protocol-version header does not match'
req "Mcp-Method header differs from the body" "$PY2026_URL" "${JSON[@]}" -H "MCP-Protocol-Version: $V26" -H "Mcp-Method: prompts/list" \
  -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{$META}}"
expect "method mismatch: 400 -32020" '"code":-32020,"message":"mcp-method header does not match'
req "Mcp-Method header missing" "$PY2026_URL" "${JSON[@]}" -H "MCP-Protocol-Version: $V26" \
  -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{$META}}"
expect "method header missing: 400 -32020" '"code":-32020,"message":"mcp-method header does not match'
req "Mcp-Name header differs from params.name" "$PY2026_URL" "${JSON[@]}" -H "MCP-Protocol-Version: $V26" -H "Mcp-Method: tools/call" -H "Mcp-Name: add" \
  -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"message\":\"x\"},$META}}"
expect "name mismatch: 400 -32020" '"code":-32020,"message":"mcp-name header does not match'
m26 "unknown method" foo/bar "" ""
expect "unknown method: HTTP 404 -32601" '^HTTP/1.1 404(.|\n)*"code":-32601'
m26 "initialize sent with the 2026 header" initialize "" '"protocolVersion":"2026-07-28","capabilities":{},"clientInfo":{"name":"curl","version":"8"}'
expect "initialize on the modern path: 404 -32601" '"code":-32601,"message":"Method not found","data":"initialize"'
req "GET" "$PY2026_URL" -H "Accept: text/event-stream" -H "MCP-Protocol-Version: $V26"
expect "GET: 405 with Allow: POST" '^HTTP/1.1 405(.|\n)*allow: POST'
req "DELETE" "$PY2026_URL" -X DELETE -H "MCP-Protocol-Version: $V26"
expect "DELETE: 405" '^HTTP/1.1 405'
req "a notification" "$PY2026_URL" "${JSON[@]}" -H "MCP-Protocol-Version: $V26" -H "Mcp-Method: notifications/cancelled" \
  -d "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1,$META}}"
expect "notification: 202" '^HTTP/1.1 202'
req "Accept without text/event-stream" "$PY2026_URL" -H "Content-Type: application/json" -H "Accept: application/json" \
  -H "MCP-Protocol-Version: $V26" -H "Mcp-Method: tools/list" -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{$META}}"
expect "Accept json only: 406" '^HTTP/1.1 406'
req "a JSON-RPC batch" "$PY2026_URL" "${JSON[@]}" -H "MCP-Protocol-Version: $V26" -H "Mcp-Method: tools/list" \
  -d "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{$META}}]"
expect "batch: 400 -32600 id null" '"code":-32600.*"id":null'

section "CORS on the Python server"
req "preflight from another loopback origin" "$PY2026_URL" -X OPTIONS -H "Origin: http://127.0.0.1:8123" \
  -H "Access-Control-Request-Method: POST" \
  -H "Access-Control-Request-Headers: authorization,content-type,last-event-id,mcp-method,mcp-name,mcp-param-region,mcp-protocol-version,mcp-session-id"
expect "preflight: 200" '^HTTP/1.1 200'
expect "preflight: any origin" '^access-control-allow-origin: \*'
expect "preflight: requested headers reflected" '^access-control-allow-headers: authorization,content-type,last-event-id,mcp-method,mcp-name,mcp-param-region,mcp-protocol-version,mcp-session-id'
expect "preflight: POST, GET, DELETE allowed" '^access-control-allow-methods: GET, POST, DELETE, OPTIONS'
m26 "POST from a non-loopback Origin" tools/call echo '"name":"echo","arguments":{"message":"cors"}' -H "Origin: http://example.test"
expect "any origin accepted (SDK rebinding check off by default)" '^HTTP/1.1 200'
expect "response: allow-origin *" '^access-control-allow-origin: \*'
expect "response: exposes mcp-session-id and www-authenticate" '^access-control-expose-headers: mcp-session-id, mcp-protocol-version, www-authenticate'

############################################################################
section "Python server, 2025 era on the same URL (initialize + sessions)"
req "initialize (no MCP-Protocol-Version header)" "$PY2026_URL" "${JSON[@]}" \
  -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"$V25\",\"capabilities\":{\"elicitation\":{\"form\":{}}},\"clientInfo\":{\"name\":\"curl\",\"version\":\"8\"}}}"
expect "initialize: Mcp-Session-Id issued" '^mcp-session-id: [0-9a-f]{32}'
expect "initialize: protocolVersion 2025-11-25, tools.listChanged" '"protocolVersion":"2025-11-25"'
expect "initialize: tools.listChanged true" '"tools":\{"listChanged":true\}'
sid="$(tr -d '\r' <<<"$last" | awk 'tolower($1)=="mcp-session-id:" {print $2}')"
S=(-H "Mcp-Session-Id: $sid" -H "MCP-Protocol-Version: $V25")
req "notifications/initialized" "$PY2026_URL" "${JSON[@]}" "${S[@]}" -d '{"jsonrpc":"2.0","method":"notifications/initialized"}'
expect "initialized: 202" '^HTTP/1.1 202'
req "tools/list in the session" "$PY2026_URL" "${JSON[@]}" "${S[@]}" -d '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}'
expect "2025 tools/list is paged too" '"nextCursor":"b2Zmc2V0OjM"'
req "slow_progress in the session" "$PY2026_URL" "${JSON[@]}" "${S[@]}" \
  -d '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow_progress","arguments":{"steps":2,"delay_ms":100},"_meta":{"progressToken":7}}}'
expect "2025 progress notifications" '"progressToken":7,"progress":2,"total":2'
bg mrtr25 "$PY2026_URL" --max-time 10 "${JSON[@]}" "${S[@]}" \
  -d '{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"mrtr_twice","arguments":{}}}'
wait_for mrtr25 'first question'
q1="$(grep '^data: {' "$tmp/mrtr25.out" | sed -n 1p | cut -c7- | jq -c .id)"
req "answer the first elicitation/create (id $q1)" "$PY2026_URL" "${JSON[@]}" "${S[@]}" \
  -d "{\"jsonrpc\":\"2.0\",\"id\":$q1,\"result\":{\"action\":\"accept\",\"content\":{\"answer\":\"apple\"}}}"
expect "response POST: 202" '^HTTP/1.1 202'
wait_for mrtr25 'second question'
q2="$(grep '^data: {' "$tmp/mrtr25.out" | sed -n 2p | cut -c7- | jq -c .id)"
req "answer the second elicitation/create (id $q2)" "$PY2026_URL" "${JSON[@]}" "${S[@]}" \
  -d "{\"jsonrpc\":\"2.0\",\"id\":$q2,\"result\":{\"action\":\"accept\",\"content\":{\"answer\":\"banana\"}}}"
wait_for mrtr25 'first=apple'
kill "$(cat "$tmp/mrtr25.pid")" 2>/dev/null
collect mrtr25 "mrtr_twice in the 2025 era: two elicitation/create requests on the call's stream"
expect "2025 mrtr_twice: elicitation/create requests" '"method":"elicitation/create","params":\{"mode":"form","message":"mrtr_twice: second question"'
expect "2025 mrtr_twice: result with both answers" '"id":10,"result":\{"content":\[\{"text":"first=apple second=banana"'
dyn25="dyn25_$RANDOM"
bg get25 "$PY2026_URL" --max-time 10 -H "Accept: text/event-stream" "${S[@]}"
sleep 0.5 # curl prints a stream's headers only with its first event: give the GET time to connect
req "add_tool in the session" "$PY2026_URL" "${JSON[@]}" "${S[@]}" \
  -d "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/call\",\"params\":{\"name\":\"add_tool\",\"arguments\":{\"name\":\"$dyn25\"}}}"
wait_for get25 'list_changed'
kill "$(cat "$tmp/get25.pid")" 2>/dev/null
collect get25 "the session's GET stream (curl stopped once the notification arrived)"
expect "GET stream: tools/list_changed" '"method":"notifications/tools/list_changed"'
req "DELETE the session" "$PY2026_URL" -X DELETE "${S[@]}"
expect "DELETE: 200" '^HTTP/1.1 200'
req "request with the deleted session id" "$PY2026_URL" "${JSON[@]}" "${S[@]}" -d '{"jsonrpc":"2.0","id":12,"method":"tools/list","params":{}}'
expect "deleted session: 404 (client must initialize again)" '^HTTP/1.1 404(.|\n)*"message":"Session not found"'
req "initialize a second session" "$PY2026_URL" "${JSON[@]}" \
  -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"$V25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"curl\",\"version\":\"8\"}}}"
sid2="$(tr -d '\r' <<<"$last" | awk 'tolower($1)=="mcp-session-id:" {print $2}')"
req "POST /admin/terminate-sessions" "$PY_ADMIN" -X POST
expect "admin: terminated count" '"terminated":[1-9][0-9]*'
req "request with a session ended by the admin route" "$PY2026_URL" "${JSON[@]}" -H "Mcp-Session-Id: $sid2" -H "MCP-Protocol-Version: $V25" \
  -d '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}'
expect "terminated session: 404" '^HTTP/1.1 404'

############################################################################
section "server-everything 2026.8.31 (\$EVERYTHING_URL), 2025 era only"
req "preflight" "$EVERYTHING_URL" -X OPTIONS -H "Origin: http://127.0.0.1:8123" -H "Access-Control-Request-Method: POST" \
  -H "Access-Control-Request-Headers: authorization,content-type,last-event-id,mcp-protocol-version,mcp-session-id"
expect "preflight: 204, any origin" '^HTTP/1.1 204(.|\n)*Access-Control-Allow-Origin: \*'
expect "preflight: headers reflected" 'Access-Control-Allow-Headers: authorization,content-type,last-event-id,mcp-protocol-version,mcp-session-id'
expect "preflight: exposes mcp-session-id (not www-authenticate)" 'Access-Control-Expose-Headers: mcp-session-id,last-event-id,mcp-protocol-version'
req "initialize" "$EVERYTHING_URL" "${JSON[@]}" -H "Origin: http://127.0.0.1:8123" \
  -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"$V25\",\"capabilities\":{\"elicitation\":{\"form\":{}}},\"clientInfo\":{\"name\":\"curl\",\"version\":\"8\"}}}"
expect "initialize: session id" '^mcp-session-id: [0-9a-f-]{36}'
expect "initialize: priming event (id, empty data) first" '^id: [0-9a-f-]{36}\r?\ndata: \r?$'
expect "initialize: 2025-11-25" '"protocolVersion":"2025-11-25"'
esid="$(tr -d '\r' <<<"$last" | awk 'tolower($1)=="mcp-session-id:" {print $2}')"
ES=(-H "Mcp-Session-Id: $esid" -H "MCP-Protocol-Version: $V25")
bg eget "$EVERYTHING_URL" --max-time 10 -H "Accept: text/event-stream" "${ES[@]}"
sleep 0.5 # curl prints a stream's headers only with its first event: give the GET time to connect
req "notifications/initialized" "$EVERYTHING_URL" "${JSON[@]}" "${ES[@]}" -d '{"jsonrpc":"2.0","method":"notifications/initialized"}'
expect "initialized: 202" '^HTTP/1.1 202'
wait_for eget 'list_changed(.|\n)*list_changed'
kill "$(cat "$tmp/eget.pid")" 2>/dev/null
req "tools/list" "$EVERYTHING_URL" "${JSON[@]}" "${ES[@]}" -d '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}'
expect "tools/list: one page (no nextCursor)" '"tools":\['
expect_not "tools/list: no nextCursor" '"nextCursor"'
expect "elicitation tool registered for an elicitation-capable client" '"name":"trigger-elicitation-request"'
req "trigger-long-running-operation with a progressToken" "$EVERYTHING_URL" "${JSON[@]}" "${ES[@]}" \
  -d '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"trigger-long-running-operation","arguments":{"duration":1,"steps":3},"_meta":{"progressToken":"p1"}}}'
expect "long-running: progress 3/3 then the result" '"progress":3,"total":3,"progressToken":"p1"(.|\n)*"id":3'
req "get-structured-content" "$EVERYTHING_URL" "${JSON[@]}" "${ES[@]}" \
  -d '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"get-structured-content","arguments":{"location":"Chicago"}}}'
expect "structuredContent" '"structuredContent":\{"temperature":36'
req "gzip-file-as-resource with its default (public) URL is refused" "$EVERYTHING_URL" "${JSON[@]}" "${ES[@]}" \
  -d '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"gzip-file-as-resource","arguments":{}}}'
expect "gzip: domain refused before any fetch" 'is not in the allowed domains list'
bg eelicit "$EVERYTHING_URL" --max-time 10 "${JSON[@]}" "${ES[@]}" \
  -d '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"trigger-elicitation-request","arguments":{}}}'
wait_for eelicit 'elicitation/create'
eq="$(grep '^data: {' "$tmp/eelicit.out" | sed -n 1p | cut -c7- | jq -c .id)"
req "answer elicitation/create (id $eq)" "$EVERYTHING_URL" "${JSON[@]}" "${ES[@]}" \
  -d "{\"jsonrpc\":\"2.0\",\"id\":$eq,\"result\":{\"action\":\"accept\",\"content\":{\"name\":\"Ada\",\"check\":true}}}"
expect "elicitation response: 202" '^HTTP/1.1 202'
wait_for eelicit '"id":6'
kill "$(cat "$tmp/eelicit.pid")" 2>/dev/null
collect eelicit "trigger-elicitation-request stream"
expect "elicitation: request then result" '"method":"elicitation/create"(.|\n)*Name: Ada'
collect eget "GET stream opened before notifications/initialized (curl stopped after two events)"
expect "GET stream: tools/list_changed after initialized" '"method":"notifications/tools/list_changed"'
resume_from="$(tr -d '\r' <"$tmp/eelicit.out" | grep '^id: ' | sed -n 2p | cut -c5-)"
req "GET with Last-Event-ID (resumption replays what followed)" "$EVERYTHING_URL" --max-time 2 -H "Accept: text/event-stream" "${ES[@]}" -H "Last-Event-ID: $resume_from"
expect "resumption: the call's result is replayed" '"id":6'
req "server/discover with 2026 headers" "$EVERYTHING_URL" "${JSON[@]}" -H "MCP-Protocol-Version: $V26" -H "Mcp-Method: server/discover" \
  -d '{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}'
expect "2026 probe: 400 without a modern error code (fall back to initialize)" '^HTTP/1.1 400(.|\n)*"code":-32000,"message":"Bad Request: Server not initialized"'
req "DELETE the session" "$EVERYTHING_URL" -X DELETE "${ES[@]}"
expect "DELETE: 200" '^HTTP/1.1 200'
req "request with the deleted session id" "$EVERYTHING_URL" "${JSON[@]}" "${ES[@]}" -d '{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{}}'
expect "deleted session: 400 -32000 (NOT the 404 the spec asks for)" '^HTTP/1.1 400(.|\n)*"code":-32000,"message":"Bad Request: No valid session ID provided"'

printf '\n%d passed, %d failed\n' "$pass" "$fail" | tee -a "$out"
[ "$fail" -eq 0 ]
