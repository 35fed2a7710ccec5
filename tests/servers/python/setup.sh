#!/usr/bin/env bash
# Idempotent install of the Python test server's venv at tests/servers/python/.venv.
# Skips the install when the venv already holds exactly the pinned set.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/.venv"
python="${PYTHON:-python3}"

want="$(grep -v '^#' "$here/constraints.txt" | sort)"
if [ -x "$venv/bin/python" ]; then
  have="$("$venv/bin/pip" freeze --disable-pip-version-check 2>/dev/null | sort)"
  if [ "$have" = "$want" ]; then
    echo "python venv up to date: $venv"
    exit 0
  fi
fi

"$python" -m venv "$venv"
"$venv/bin/pip" install --disable-pip-version-check -q -r "$here/requirements.txt" -c "$here/constraints.txt"
"$venv/bin/python" -c 'import importlib.metadata as m; v = m.version("mcp"); assert v == "2.3.0", v; print("mcp", v)'
