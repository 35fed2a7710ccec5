#!/usr/bin/env bash
# Installs (idempotent) and starts the OAuth test servers on free 127.0.0.1 ports:
#   auth-as      as.mjs: oidc-provider, the authorization server (issuer http://127.0.0.1:PORT)
#   auth-py      protected_2026.py: Python mcp 2.3.0, 2026-07-28 era, protected by that issuer
#   auth-node    protected_2025.mjs: @modelcontextprotocol/sdk 1.32.2, 2025-11-25 era, protected too
# First it makes the test's client credentials: a random secret for `cc-basic` and a fresh P-256
# key pair for `cc-jwt` (the server gets the public JWK, the tests the private PKCS#8 PEM).
# Writes $run_dir/auth.env (run_dir: $MCP_TEST_RUN_DIR or tests/servers/.run) and prints it:
#   AUTH_ISSUER, AUTH_ADMIN (the issuer's test-only routes), AUTH_PY_URL, AUTH_NODE_URL,
#   AUTH_CC_BASIC_ID, AUTH_CC_BASIC_SECRET, AUTH_CC_JWT_ID, AUTH_CC_JWT_KEY_FILE
# Stop them with stop.sh (kills exactly the recorded PIDs).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/../lib/proc.sh"
"$here/setup.sh" >&2
mkdir -p "$run_dir"
secret="cc-basic-secret-$(node -p 'require("node:crypto").randomBytes(24).toString("hex")')"
node -e '
  const { generateKeyPairSync } = require("node:crypto");
  const { writeFileSync } = require("node:fs");
  const k = generateKeyPairSync("ec", { namedCurve: "P-256" });
  writeFileSync(process.argv[1], k.privateKey.export({ format: "pem", type: "pkcs8" }), { mode: 0o600 });
  writeFileSync(process.argv[2], JSON.stringify({ ...k.publicKey.export({ format: "jwk" }), alg: "ES256", use: "sig" }));
' "$run_dir/cc-jwt.pem" "$run_dir/cc-jwt.pub.jwk"

as_url="$(AUTH_CC_BASIC_SECRET="$secret" start_bg auth-as "$here/as.mjs" \
  node "$here/as.mjs" --port-file "$run_dir/auth-as.port" --client-jwk "$run_dir/cc-jwt.pub.jwk")"
issuer="${as_url%/mcp}"
if ! py_url="$(start_bg auth-py "$here/protected_2026.py" \
  "$here/../python/.venv/bin/python" "$here/protected_2026.py" --issuer "$issuer" --port-file "$run_dir/auth-py.port")"; then
  "$here/stop.sh" >&2
  exit 1
fi
if ! node_url="$(start_bg auth-node "$here/protected_2025.mjs" \
  node "$here/protected_2025.mjs" --issuer "$issuer" --port-file "$run_dir/auth-node.port")"; then
  "$here/stop.sh" >&2
  exit 1
fi
cat >"$run_dir/auth.env" <<ENV
AUTH_ISSUER=$issuer
AUTH_ADMIN=$issuer/_test
AUTH_PY_URL=$py_url
AUTH_NODE_URL=$node_url
AUTH_CC_BASIC_ID=cc-basic
AUTH_CC_BASIC_SECRET=$secret
AUTH_CC_JWT_ID=cc-jwt
AUTH_CC_JWT_KEY_FILE=$run_dir/cc-jwt.pem
ENV
cat "$run_dir/auth.env"
