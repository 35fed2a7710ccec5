#!/bin/sh
# What the conformance suite spawns: `launch.sh <serverUrl>`. Runs the launcher under the pinned
# Node 22 (`$MCP_EDGE_CONFORMANCE_NODE client.mjs <serverUrl>`) and appends
# "<scenario> <exit status>" to $MCP_EDGE_CONFORMANCE_EXITS, because the suite's result files do
# not record the client's exit status. Set both variables (run.sh does).
here=$(dirname "$0")
"${MCP_EDGE_CONFORMANCE_NODE:?set MCP_EDGE_CONFORMANCE_NODE}" "$here/client.mjs" "$@"
status=$?
if [ -n "$MCP_EDGE_CONFORMANCE_EXITS" ]; then
  printf '%s %s\n' "$MCP_CONFORMANCE_SCENARIO" "$status" >>"$MCP_EDGE_CONFORMANCE_EXITS"
fi
exit "$status"
