#!/usr/bin/env bash
# Stops the OAuth test servers start.sh started (only the PIDs it recorded) and removes the
# credentials it made.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/../lib/proc.sh"
status=0
stop_named auth-node "$here/protected_2025.mjs" || status=1
stop_named auth-py "$here/protected_2026.py" || status=1
stop_named auth-as "$here/as.mjs" || status=1
rm -f "$run_dir/auth.env" "$run_dir/cc-jwt.pem" "$run_dir/cc-jwt.pub.jwk"
exit $status
