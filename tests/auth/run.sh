#!/usr/bin/env bash
# OAuth end to end in Node (the auth_e2e stage): the `mcp-edge` package against a real
# authorization server and protected MCP servers of both eras:
#   1. build pkg/nodejs when stale (scripts/build-nodejs-pkg.sh);
#   2. install (idempotent, pinned) and start the OAuth test servers on free 127.0.0.1 ports
#      (tests/servers/auth/start.sh: oidc-provider, the Python 2026-07-28 server, the TypeScript
#      SDK 2025-11-25 server), in a run directory of its own;
#   3. node --test client.test.mjs with their URLs and the test's client credentials;
#   4. stop exactly the servers it started, also on failure. Exit status: node's test runner's.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
pkg="$("$root/scripts/build-nodejs-pkg.sh")"
export MCP_EDGE_PKG="$pkg/mcp_edge.js"
cd "$here"
"$root/tests/servers/auth/with-servers.sh" node --test --test-concurrency=1 client.test.mjs
