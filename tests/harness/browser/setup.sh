#!/usr/bin/env bash
# Idempotent setup of the browser parity leg: playwright-core exactly as locked in this
# directory (no browser download: Debian's /usr/bin/chromium is used), and the wasm `web` package
# (build-web.sh: rebuilt only when src/, Cargo.toml or Cargo.lock are newer). Prints the package
# directory on stdout; everything else goes to stderr.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
command -v node >/dev/null || { echo "setup.sh: node is required" >&2; exit 1; }
[ -x /usr/bin/chromium ] || { echo "setup.sh: /usr/bin/chromium missing (apt-get install -y chromium)" >&2; exit 1; }
want=$(node -p "require('$here/package-lock.json').packages['node_modules/playwright-core'].version")
have=$(node -p "try { require('$here/node_modules/playwright-core/package.json').version } catch { '' }")
if [ "$want" != "$have" ]; then
  (cd "$here" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund >&2)
fi
"$here/build-web.sh"
