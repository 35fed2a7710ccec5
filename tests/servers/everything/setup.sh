#!/usr/bin/env bash
# Idempotent install of @modelcontextprotocol/server-everything (exact version in
# package.json, exact tree in package-lock.json) into ./node_modules.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
want="$(node -p 'require(process.argv[1]).dependencies["@modelcontextprotocol/server-everything"]' "$here/package.json")"
installed="$here/node_modules/@modelcontextprotocol/server-everything/package.json"
if [ -f "$installed" ] && [ "$(node -p 'require(process.argv[1]).version' "$installed")" = "$want" ] \
  && [ "$here/node_modules/.package-lock.json" -nt "$here/package-lock.json" ]; then
  echo "server-everything $want up to date"
  exit 0
fi
cd "$here"
npm ci --no-audit --no-fund
echo "server-everything $(node -p 'require(process.argv[1]).version' "$installed")"
