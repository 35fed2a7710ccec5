#!/usr/bin/env bash
# Idempotent setup of the Playwright tests: playwright-core exactly as locked here (no browser
# download: the tests drive Debian's /usr/bin/chromium), and a check that Chromium is installed.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
want=$(node -p "require('$here/package-lock.json').packages['node_modules/playwright-core'].version")
have=$(node -p "try { require('$here/node_modules/playwright-core/package.json').version } catch { '' }")
if [ "$want" != "$have" ]; then
  (cd "$here" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund >&2)
fi
[ -x /usr/bin/chromium ] || { echo "setup.sh: /usr/bin/chromium missing (apt-get install -y chromium)" >&2; exit 1; }
