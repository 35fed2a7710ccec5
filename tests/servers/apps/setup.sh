#!/usr/bin/env bash
# Idempotent install of the MCP Apps example servers (@modelcontextprotocol/server-basic-vanillajs
# and server-basic-react, exact versions in package.json, exact tree in package-lock.json).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ -d "$here/node_modules/@modelcontextprotocol/server-basic-react/dist" ] \
  && [ "$here/node_modules/.package-lock.json" -nt "$here/package-lock.json" ]; then
  echo "MCP Apps example servers up to date"
  exit 0
fi
cd "$here"
npm ci --no-audit --no-fund
