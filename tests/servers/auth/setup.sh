#!/usr/bin/env bash
# Idempotent install of the OAuth test servers' dependencies: npm (oidc-provider, the TypeScript
# SDK, jose, zod: exact versions in package.json, exact tree in package-lock.json) into
# ./node_modules, and the Python venv of ../python (mcp 2.3.0 and PyJWT, pinned there).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
"$here/../python/setup.sh"
# Up to date when every direct dependency is installed at its pinned version and npm's own record
# of the tree is newer than the lock.
current=1
for dep in $(node -p 'Object.keys(require(process.argv[1]).dependencies).join(" ")' "$here/package.json"); do
  want="$(node -p 'require(process.argv[1]).dependencies[process.argv[2]]' "$here/package.json" "$dep")"
  have="$(node -p 'try { require(process.argv[1]).version } catch { "" }' "$here/node_modules/$dep/package.json" 2>/dev/null || true)"
  [ "$have" = "$want" ] || current=0
done
if [ "$current" = 1 ] && [ "$here/node_modules/.package-lock.json" -nt "$here/package-lock.json" ]; then
  echo "auth servers' npm dependencies up to date"
  exit 0
fi
cd "$here"
npm ci --no-audit --no-fund
echo "oidc-provider $(node -p 'require("./node_modules/oidc-provider/package.json").version')"
