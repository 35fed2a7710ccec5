#!/usr/bin/env bash
# Browser sign-in tests (the browser_auth stage): the `mcp-edge` web package in Debian's headless
# Chromium (playwright-core, popup blocker on) signing in to a real authorization server
# (oidc-provider) for protected MCP servers of both eras:
#   1. playwright-core as locked by tests/browser (tests/browser/setup.sh), the wasm `web` package
#      into www/pkg when stale (tests/demo/build-web.sh);
#   2. the OAuth test servers on free 127.0.0.1 ports, in a run directory of their own, stopped
#      afterwards also on failure (tests/servers/auth/with-servers.sh); the tests serve www/ and
#      page/ themselves on another loopback port;
#   3. node --test (arguments go to it, e.g. --test-name-pattern=...; TEST_FILES narrows the
#      files); screenshots in target/browser-screenshots/.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"
tests/browser/setup.sh
tests/demo/build-web.sh
export SCREENSHOT_DIR="$root/target/browser-screenshots"
mkdir -p "$SCREENSHOT_DIR"
cd "$here"
# shellcheck disable=SC2086
"$root/tests/servers/auth/with-servers.sh" node --test --test-concurrency=1 "$@" ${TEST_FILES:-./*.test.mjs}
