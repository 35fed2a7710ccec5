#!/usr/bin/env bash
# Stop the servers start-all.sh started (only the PIDs it recorded) and remove .ports.env.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
status=0
"$here/python/stop.sh" || status=1
"$here/everything/stop.sh" || status=1
rm -f "$here/.ports.env"
exit $status
