#!/usr/bin/env bash
# Runs COMMAND with the OAuth test servers up: starts them (start.sh) in a run directory of their
# own (unless MCP_TEST_RUN_DIR is set), exports auth.env to the command, and stops exactly what it
# started afterwards, also on failure. Exit status: the command's.
#   tests/servers/auth/with-servers.sh node --test client.test.mjs
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
own_run_dir=""
if [ -z "${MCP_TEST_RUN_DIR:-}" ]; then own_run_dir=$(mktemp -d); export MCP_TEST_RUN_DIR=$own_run_dir; fi
cleanup() {
  "$here/stop.sh" >/dev/null 2>&1 || true
  [ -n "$own_run_dir" ] && rm -rf "$own_run_dir"
}
trap cleanup EXIT
"$here/start.sh" >/dev/null
set -a
# shellcheck disable=SC1091
. "$MCP_TEST_RUN_DIR/auth.env"
set +a
"$@"
