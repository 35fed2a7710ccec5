// A protected MCP server of the 2025 era (2025-11-25, `initialize` + `Mcp-Session-Id`), built on the
// official TypeScript SDK (@modelcontextprotocol/sdk, pinned in package.json), for mcp-edge's OAuth
// end-to-end tests. It is an OAuth resource server (MCP 2025-11-25 `basic/authorization`):
//
// * every request to /mcp needs an access token from the configured issuer: a JWT (RFC 9068,
//   `typ: at+jwt`) verified with the issuer's keys (its `jwks_uri`, from its metadata): signature,
//   `iss`, `aud` = this server's resource URL, `exp`; scope `mcp:read` required (403
//   `insufficient_scope` otherwise);
// * a DPoP-bound token (`cnf.jkt`) must come as `Authorization: DPoP` with a valid proof (RFC 9449
//   § 4.3, § 7.1: ES256 signature by the embedded key, its thumbprint = `cnf.jkt`, `htm`, `htu`,
//   `iat` within 300 s, `ath`, a `jti` not seen before); a bound token sent as Bearer is refused;
// * without a valid token: 401 `WWW-Authenticate: Bearer ... resource_metadata="<PRM URL>"`;
// * Protected Resource Metadata (RFC 9728) at /.well-known/oauth-protected-resource/mcp naming the
//   issuer;
// * CORS for any origin (the browser sign-in tests call it from a page on another port);
//   `POST /_test/expose-challenge?on=0` stops exposing `WWW-Authenticate` to pages (as many
//   deployed servers forget to), `on=1` exposes it again.
//
// Tools: `whoami` (who called: `sub`, `client_id`, `scope`, token type, audience, as JSON text) and
// `echo {message}`.
//
// Usage: node protected_2025.mjs --issuer URL [--port N] [--port-file FILE]. Stops on SIGTERM/SIGINT.
import http from "node:http";
import { createHash, randomUUID } from "node:crypto";
import { renameSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { calculateJwkThumbprint, createRemoteJWKSet, EmbeddedJWK, jwtVerify } from "jose";
import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

const { values: args } = parseArgs({
  options: {
    issuer: { type: "string" },
    port: { type: "string", default: "0" },
    "port-file": { type: "string" },
  },
});
if (!args.issuer) {
  console.error("protected_2025.mjs needs --issuer URL");
  process.exit(2);
}
const ISSUER = args.issuer;
const REQUIRED_SCOPE = "mcp:read";
const MAX_BODY_BYTES = 1 << 20;
const MAX_SEEN_JTIS = 10_000;

let jwks;
/** The issuer's signing keys, located through its metadata (fetched on first use). */
async function issuerKeys() {
  if (jwks) return jwks;
  const r = await fetch(`${ISSUER}/.well-known/openid-configuration`);
  if (!r.ok) throw new Error(`issuer metadata: HTTP ${r.status}`);
  const meta = await r.json();
  if (meta.issuer !== ISSUER) throw new Error(`issuer metadata names ${meta.issuer}`);
  jwks = createRemoteJWKSet(new URL(meta.jwks_uri));
  return jwks;
}

const seenJtis = new Set();
const b64sha256 = (text) => createHash("sha256").update(text).digest("base64url");

class Refusal extends Error {
  constructor(status, scheme, error, description) {
    super(description);
    this.status = status;
    this.scheme = scheme;
    this.error = error;
  }
}

/** The verified token's claims and how it was presented, or throws a Refusal. */
async function authenticate(req, resource) {
  const header = req.headers.authorization ?? "";
  const m = /^(Bearer|DPoP) +([A-Za-z0-9._~+/-]+=*)$/i.exec(header);
  if (!m) throw new Refusal(401, "Bearer", null, "an access token is required");
  const scheme = m[1].toLowerCase() === "dpop" ? "DPoP" : "Bearer";
  const token = m[2];
  let claims;
  try {
    ({ payload: claims } = await jwtVerify(token, await issuerKeys(), {
      issuer: ISSUER,
      audience: resource,
      typ: "at+jwt",
      algorithms: ["ES256"],
    }));
  } catch (e) {
    throw new Refusal(401, scheme, "invalid_token", `the access token is not valid here (${e.code ?? e.message})`);
  }
  const jkt = claims.cnf?.jkt;
  if (jkt === undefined && scheme === "DPoP") throw new Refusal(401, "DPoP", "invalid_token", "not a DPoP-bound token");
  if (jkt !== undefined) {
    if (scheme !== "DPoP") throw new Refusal(401, "DPoP", "invalid_token", "a DPoP-bound token must be sent with the DPoP scheme");
    const proof = req.headers.dpop;
    if (typeof proof !== "string") throw new Refusal(401, "DPoP", "invalid_dpop_proof", "one DPoP proof is required");
    try {
      const { payload: p, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, {
        typ: "dpop+jwt",
        algorithms: ["ES256"],
        maxTokenAge: 300,
        clockTolerance: 5,
      });
      if ((await calculateJwkThumbprint(protectedHeader.jwk)) !== jkt) throw new Error("the proof's key is not the token's");
      if (p.htm !== req.method) throw new Error("htm");
      if (p.htu !== resource) throw new Error("htu");
      if (p.ath !== b64sha256(token)) throw new Error("ath");
      if (typeof p.jti !== "string" || seenJtis.has(p.jti)) throw new Error("jti reused");
      if (seenJtis.size >= MAX_SEEN_JTIS) seenJtis.clear();
      seenJtis.add(p.jti);
    } catch (e) {
      throw new Refusal(401, "DPoP", "invalid_dpop_proof", `the DPoP proof is not valid (${e.code ?? e.message})`);
    }
  }
  const scopes = typeof claims.scope === "string" ? claims.scope.split(" ") : [];
  if (!scopes.includes(REQUIRED_SCOPE)) {
    throw new Refusal(403, scheme, "insufficient_scope", `scope ${REQUIRED_SCOPE} is required`);
  }
  return { claims, scheme, scopes };
}

function challenge(refusal, prmUrl) {
  const parts = [];
  if (refusal.error) parts.push(`error="${refusal.error}"`);
  parts.push(`error_description="${refusal.message.replace(/["\\]/g, "")}"`);
  if (refusal.error === "insufficient_scope") parts.push(`scope="${REQUIRED_SCOPE}"`);
  parts.push(`resource_metadata="${prmUrl}"`);
  if (refusal.scheme === "DPoP") parts.push('algs="ES256"');
  return `${refusal.scheme} ${parts.join(", ")}`;
}

function newServer() {
  const server = new McpServer({ name: "mcp-edge-protected-2025", version: "1.0.0" });
  server.registerTool("whoami", { description: "Who called: the access token's subject, client, scopes and type." }, (extra) => {
    const a = extra.authInfo;
    const who = {
      sub: a?.extra?.sub ?? null,
      client_id: a?.clientId ?? null,
      scope: a?.scopes?.join(" ") ?? null,
      token_type: a?.extra?.scheme ?? null,
      aud: a?.resource?.href ?? null,
    };
    return { content: [{ type: "text", text: JSON.stringify(who) }] };
  });
  server.registerTool("echo", { description: "Echo the message back.", inputSchema: { message: z.string() } }, ({ message }) => ({
    content: [{ type: "text", text: message }],
  }));
  return server;
}

async function readBody(req) {
  const chunks = [];
  let size = 0;
  for await (const c of req) {
    size += c.length;
    if (size > MAX_BODY_BYTES) throw new Error("body too large");
    chunks.push(c);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : undefined;
}

const sessions = new Map();
let exposeChallenge = true;
const httpServer = http.createServer(async (req, res) => {
  const { port } = httpServer.address();
  const base = `http://127.0.0.1:${port}`;
  const resource = `${base}/mcp`;
  const prmUrl = `${base}/.well-known/oauth-protected-resource/mcp`;
  const url = new URL(req.url, base);
  // CORS for pages on another loopback origin (tests/browser-auth): requests carry
  // `authorization` and `dpop`; the 401 challenge and the session id must be readable.
  if (req.headers.origin) {
    res.setHeader("access-control-allow-origin", req.headers.origin);
    res.setHeader("vary", "origin");
    res.setHeader("access-control-expose-headers", exposeChallenge ? "mcp-session-id, www-authenticate, dpop-nonce" : "mcp-session-id, dpop-nonce");
  }
  if (url.pathname === "/_test/expose-challenge" && req.method === "POST") {
    exposeChallenge = url.searchParams.get("on") !== "0";
    res.writeHead(204).end();
    return;
  }
  if (req.method === "OPTIONS" && req.headers["access-control-request-method"]) {
    res.writeHead(204, {
      "access-control-allow-methods": "GET, POST, DELETE",
      "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "",
      "access-control-max-age": "600",
    });
    res.end();
    return;
  }
  try {
    if (url.pathname === "/.well-known/oauth-protected-resource/mcp" && req.method === "GET") {
      const prm = {
        resource,
        authorization_servers: [ISSUER],
        scopes_supported: [REQUIRED_SCOPE],
        bearer_methods_supported: ["header"],
        dpop_signing_alg_values_supported: ["ES256"],
        resource_name: "mcp-edge protected test server (2025-11-25)",
      };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(prm));
      return;
    }
    if (url.pathname !== "/mcp") {
      res.writeHead(404).end();
      return;
    }
    let who;
    try {
      who = await authenticate(req, resource);
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      res.writeHead(e.status, { "www-authenticate": challenge(e, prmUrl), "content-type": "application/json" });
      res.end(JSON.stringify({ error: e.error ?? "invalid_token", error_description: e.message }));
      return;
    }
    req.auth = {
      token: "",
      clientId: String(who.claims.client_id ?? ""),
      scopes: who.scopes,
      expiresAt: who.claims.exp,
      resource: new URL(resource),
      extra: { sub: who.claims.sub ?? null, scheme: who.scheme },
    };
    const body = req.method === "POST" ? await readBody(req) : undefined;
    const id = req.headers["mcp-session-id"];
    let transport = typeof id === "string" ? sessions.get(id) : undefined;
    if (!transport) {
      if (typeof id === "string") {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } }));
        return;
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => sessions.set(sid, transport),
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await newServer().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  } catch (e) {
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
    res.end(String(e?.message ?? e));
  }
});

httpServer.listen(Number(args.port), "127.0.0.1", () => {
  const { port } = httpServer.address();
  if (args["port-file"]) {
    writeFileSync(`${args["port-file"]}.tmp`, `${port}\n`);
    renameSync(`${args["port-file"]}.tmp`, args["port-file"]);
  }
  console.log(`protected 2025-era MCP server http://127.0.0.1:${port}/mcp (issuer ${ISSUER})`);
});

for (const sig of ["SIGTERM", "SIGINT"]) {
  process.on(sig, () => {
    httpServer.close();
    httpServer.closeAllConnections();
    process.exit(0);
  });
}
