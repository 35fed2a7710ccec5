"""A protected MCP server of the 2026-07-28 era for mcp-edge's OAuth end-to-end tests.

Built on the Python `mcp` SDK (pinned in ../python/requirements.txt, run from that venv): one URL,
`/mcp`, serving the 2026-07-28 stateless era (and, as the SDK does, the 2025 era by header). It is
an OAuth resource server (MCP 2026-07-28 `basic/authorization`), with the SDK's own resource-server
support doing the HTTP part:

* `AuthSettings(issuer_url, resource_server_url, required_scopes=["mcp:read"],
  validate_token_resource=True)`: 401 `WWW-Authenticate: Bearer ... resource_metadata="..."`
  without a valid token, 403 `insufficient_scope` without `mcp:read`, and Protected Resource
  Metadata (RFC 9728) at `/.well-known/oauth-protected-resource/mcp` naming the issuer;
* the token verifier here: a JWT access token (RFC 9068, `typ: at+jwt`, ES256) signed by a key of
  the issuer's JWKS (its `jwks_uri`, from its metadata), `iss` = the issuer, `aud` = this server's
  resource URL, unexpired;
* DPoP (RFC 9449): the SDK reads `Authorization: Bearer` only, so an outer ASGI layer checks a
  `DPoP` request first (one proof, ES256 by its embedded key, `typ`, `htm`, `htu`, `iat` within
  300 s, `ath`, an unused `jti`), then hands the token on as Bearer with the proof key's thumbprint;
  the verifier accepts a token bound to a key (`cnf.jkt`) only with a proof by that key, and an
  unbound token only without one.

Tools: `whoami` (the caller's `sub`, `client_id`, scopes, token type and audience, as JSON text) and
`echo {message}`.

Usage: python protected_2026.py --issuer URL [--port N] [--port-file FILE]. Binds 127.0.0.1, writes
the bound port to FILE once serving, runs until SIGTERM or SIGINT.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextvars
import hashlib
import json
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import jwt
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from starlette.middleware.cors import CORSMiddleware

# The test servers' shared serving helper (../python/loopback.py).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))
from loopback import serve_loopback  # noqa: E402

REQUIRED_SCOPE = "mcp:read"
PROOF_MAX_AGE_S = 300
MAX_SEEN_JTIS = 10_000

# The thumbprint of the DPoP key whose proof the outer layer verified for this request (None: the
# token came as Bearer).
PROOF_JKT: contextvars.ContextVar[str | None] = contextvars.ContextVar("proof_jkt", default=None)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jwk_thumbprint(jwk: dict[str, Any]) -> str:
    """RFC 7638 thumbprint of an EC public key."""
    members = {k: jwk[k] for k in ("crv", "kty", "x", "y")}
    return b64url(hashlib.sha256(json.dumps(members, separators=(",", ":"), sort_keys=True).encode()).digest())


class JwtVerifier:
    """Verifies the issuer's JWT access tokens for one resource (the SDK's TokenVerifier protocol)."""

    def __init__(self, issuer: str, resource: str) -> None:
        self.issuer = issuer
        self.resource = resource
        self._jwks: jwt.PyJWKClient | None = None

    def _keys(self) -> jwt.PyJWKClient:
        if self._jwks is None:
            with urllib.request.urlopen(f"{self.issuer}/.well-known/openid-configuration", timeout=10) as r:
                meta = json.load(r)
            if meta.get("issuer") != self.issuer:
                raise ValueError(f"issuer metadata names {meta.get('issuer')!r}")
            self._jwks = jwt.PyJWKClient(meta["jwks_uri"], cache_keys=True)
        return self._jwks

    def _decode(self, token: str) -> dict[str, Any]:
        if jwt.get_unverified_header(token).get("typ") != "at+jwt":
            raise jwt.InvalidTokenError("not an RFC 9068 access token")
        key = self._keys().get_signing_key_from_jwt(token)
        return jwt.decode(
            token,
            key.key,
            algorithms=["ES256"],
            audience=self.resource,
            issuer=self.issuer,
            options={"require": ["exp", "iss", "aud"]},
        )

    async def verify_token(self, token: str) -> AccessToken | None:
        try:
            claims = await asyncio.to_thread(self._decode, token)
        except (jwt.PyJWTError, OSError, ValueError, KeyError):
            return None
        bound = (claims.get("cnf") or {}).get("jkt")
        if bound != PROOF_JKT.get():
            # A bound token without its proof, or an unbound token sent as DPoP.
            return None
        scope = claims.get("scope")
        return AccessToken(
            token=token,
            client_id=str(claims.get("client_id", "")),
            scopes=scope.split() if isinstance(scope, str) else [],
            expires_at=int(claims["exp"]),
            resource=self.resource,
            subject=claims.get("sub"),
            claims=claims,
        )


class DpopLayer:
    """ASGI layer in front of the SDK app: checks a DPoP-scheme request's proof, then passes the
    token on as Bearer with the proof key's thumbprint in PROOF_JKT; answers 401 for a bad proof."""

    def __init__(self, app: Any, resource: str, metadata_url: str) -> None:
        self.app = app
        self.resource = resource
        self.metadata_url = metadata_url
        self.seen: set[str] = set()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = [(k, v) for k, v in scope["headers"]]
        auth = next((v.decode("latin-1") for k, v in headers if k == b"authorization"), "")
        if not auth[:5].lower() == "dpop ":
            PROOF_JKT.set(None)
            return await self.app(scope, receive, send)
        token = auth[5:].strip()
        proofs = [v.decode("latin-1") for k, v in headers if k == b"dpop"]
        try:
            if len(proofs) != 1:
                raise ValueError("one DPoP proof is required")
            jkt = self._check(proofs[0], scope["method"], token)
        except (jwt.PyJWTError, ValueError, KeyError, TypeError) as e:
            return await self._refuse(send, str(e))
        PROOF_JKT.set(jkt)
        rest = [(k, v) for k, v in headers if k not in (b"authorization", b"dpop")]
        scope = dict(scope, headers=[*rest, (b"authorization", f"Bearer {token}".encode("latin-1"))])
        await self.app(scope, receive, send)

    def _check(self, proof: str, method: str, token: str) -> str:
        header = jwt.get_unverified_header(proof)
        if header.get("typ") != "dpop+jwt" or header.get("alg") != "ES256":
            raise ValueError("typ must be dpop+jwt and alg ES256")
        jwk = header["jwk"]
        if "d" in jwk:
            raise ValueError("the proof's jwk holds a private key")
        claims = jwt.decode(proof, jwt.PyJWK(jwk, "ES256").key, algorithms=["ES256"], options={"verify_aud": False})
        if claims.get("htm") != method or claims.get("htu") != self.resource:
            raise ValueError("htm/htu do not match the request")
        if abs(time.time() - float(claims["iat"])) > PROOF_MAX_AGE_S:
            raise ValueError("iat is out of range")
        if claims.get("ath") != b64url(hashlib.sha256(token.encode()).digest()):
            raise ValueError("ath does not match the token")
        jti = claims.get("jti")
        if not isinstance(jti, str) or jti in self.seen:
            raise ValueError("jti missing or reused")
        if len(self.seen) >= MAX_SEEN_JTIS:
            self.seen.clear()
        self.seen.add(jti)
        return jwk_thumbprint(jwk)

    async def _refuse(self, send: Any, why: str) -> None:
        why = why.replace('"', "'").replace("\\", "")
        challenge = f'DPoP error="invalid_dpop_proof", error_description="{why}", algs="ES256", resource_metadata="{self.metadata_url}"'
        body = json.dumps({"error": "invalid_dpop_proof", "error_description": why}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 401,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"www-authenticate", challenge.encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def whoami_of(ctx: Context) -> dict[str, Any]:
    token = get_access_token()
    if token is None:
        request = getattr(ctx.request_context, "request", None)
        user = request.scope.get("user") if request is not None else None
        token = getattr(user, "access_token", None)
    if token is None:
        return {"sub": None, "client_id": None, "scope": None, "token_type": None, "aud": None}
    claims = token.claims or {}
    return {
        "sub": token.subject,
        "client_id": token.client_id,
        "scope": " ".join(token.scopes),
        "token_type": "DPoP" if (claims.get("cnf") or {}).get("jkt") else "Bearer",
        "aud": claims.get("aud"),
    }


def build_app(issuer: str, port: int) -> Any:
    base = f"http://127.0.0.1:{port}"
    resource = f"{base}/mcp"
    mcp = MCPServer(
        "mcp-edge-protected-2026",
        version="1.0.0",
        token_verifier=JwtVerifier(issuer, resource),
        auth=AuthSettings(
            issuer_url=issuer,
            resource_server_url=resource,
            required_scopes=[REQUIRED_SCOPE],
            validate_token_resource=True,
        ),
    )

    @mcp.tool(
        description="Who called: the access token's subject, client, scopes, type and audience.", structured_output=False
    )
    def whoami(ctx: Context) -> str:
        return json.dumps(whoami_of(ctx))

    @mcp.tool(description="Echo the message back as text.", structured_output=False)
    def echo(message: str) -> str:
        return message

    security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    app = mcp.streamable_http_app(streamable_http_path="/mcp", host="127.0.0.1", transport_security=security)
    # CORS for pages on another loopback origin (tests/browser-auth): requests carry
    # `authorization` and `dpop`; the 401 challenge and the session id must be readable.
    return CORSMiddleware(
        DpopLayer(app, resource, f"{base}/.well-known/oauth-protected-resource/mcp"),
        allow_origins=["*"],
        allow_methods=["GET", "POST", "DELETE", "OPTIONS"],
        allow_headers=["*", "authorization", "dpop", "content-type", "mcp-protocol-version", "mcp-session-id"],
        expose_headers=["mcp-session-id", "www-authenticate", "dpop-nonce"],
        max_age=600,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--issuer", required=True, help="the authorization server's issuer identifier")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0 = pick a free one)")
    parser.add_argument("--port-file", type=Path, help="write the bound port here once serving")
    args = parser.parse_args()
    asyncio.run(serve_loopback(lambda port: build_app(args.issuer, port), args.port, args.port_file))


if __name__ == "__main__":
    main()
