// mcp-edge edge agent: an ES-module Worker (Cloudflare Workers / workerd) that connects to the MCP
// servers named in its configuration and serves their tools to its own caller.
//
//   GET  /tools[?format=openai|openai-responses|anthropic|mcp]   tool definitions of every server,
//                         the servers' states (`pending-approval` for unapproved project servers)
//                         and the configuration's `diagnostics`
//   POST /call            {name, arguments} (or an array of them, run concurrently) -> flat result
//   POST /call?stream=1   the same as Server-Sent Events: `progress` events, then one `result`
//   POST /sessions/<server>/open     connect one server, keep its snapshot in a Durable Object
//   POST /sessions/<server>/call     restore that snapshot (no handshake), call, store it again
//   DELETE /sessions/<server>        restore, close (2025 era: DELETE the session), forget it
//   GET /tasks/<id>                  a call that became a task and outlived its request (202 from
//                                    /sessions/<server>/call): its status, or its result once done
//   POST /pins/accept     {name}: accept a held tool's changed definition (needs PINS)
//   POST /auth/start/<server>        OAuth sign-in to a server whose entry has "auth": answers
//                                    {url}, the authorization page a person must open
//   GET  /auth/callback/<server>     where the authorization server sends the person back: finishes
//                                    the sign-in; later calls to that server carry its token
//
// Who may call it: every route needs the Worker's own inbound credential, checked before anything
// else (no outbound request is made for a refused caller), except the OAuth callback, which a
// person's browser reaches without it: the callback is only accepted with the `state` of a sign-in
// this Worker started (its pending request is looked up by that `state`, used once, within 10
// minutes; anything else is 400 AUTH_STATE_MISMATCH). It fails closed: with neither of these
// configured, every other route answers 500 AUTH_NOT_CONFIGURED.
//   MCP_AGENT_TOKEN   a secret of at least 32 characters (`wrangler secret put MCP_AGENT_TOKEN`);
//                     callers send `Authorization: Bearer <token>`, compared in constant time.
//   ACCESS_TEAM_DOMAIN + ACCESS_AUD   Cloudflare Access in front of the Worker instead (or as well):
//                     a request is let in when its `Cf-Access-Jwt-Assertion` is an RS256 token
//                     signed by a key of https://<team>.cloudflareaccess.com/cdn-cgi/access/certs,
//                     issued by that team domain for the application audience ACCESS_AUD, unexpired.
//
// Bindings (wrangler.toml `[vars]` / secrets, or workerd `bindings`):
//   MCP_CONFIG   {"mcpServers": {...}} as text (or a JSON binding). A server may name a service
//                binding with "service": "BINDING": its requests go through env.BINDING.fetch.
//                A document that cannot be used (not JSON, not an object) fails open: the pool
//                starts empty and GET /tools reports why under `diagnostics`.
//   MCP_PROJECT_CONFIG  (optional) a project's {"mcpServers": {...}} layered over MCP_CONFIG:
//                a server only it defines waits in state `pending-approval` (GET /tools lists it,
//                calls to its tools fail with SERVER_UNAVAILABLE) unless MCP_APPROVED_SERVERS names
//                it; one MCP_CONFIG has too keeps MCP_CONFIG's entry unless approved.
//   MCP_APPROVED_SERVERS  (optional) comma-separated names of project servers the operator approved.
//   MCP_POLICY   (optional) {"denied": [rule...], "allowed": [rule...]}: the pool policy (deny wins;
//                rules as in McpPool's `policy` option). A call to a tool of a refused server is
//                answered 403 before any outbound request; refused servers are never connected.
//   MCP_EDGE     "false" turns the edge bound (6 outbound requests at once) off. Default on.
//   any other text binding: a `${NAME}` variable for the server entries (e.g. a token secret);
//                the inbound credential and the Access settings are not.
//   SESSIONS     (optional) Durable Object namespace of class McpSessions, for /sessions/*.
//   PINS         (optional) Durable Object namespace of class McpPins: the tool pins, kept across
//                requests and isolates. Each request's pool starts from them (`pins` option) and
//                adds what it pinned; a tool whose description or schema changed since it was
//                pinned stays held back (GET /tools lists it under `held`; calls to it fail with
//                TOOL_CHANGED) until POST /pins/accept. Without PINS every request pins afresh,
//                so a changed tool would go unnoticed.
//   AUTH_STORE   (optional) Durable Object namespace of class McpAuthStore: OAuth tokens, client
//                registrations and pending sign-ins of the servers whose entry has an `auth`
//                object (MCP_CONFIG: `"auth": {"clientId": "${ID}", "scope": "..."}`, the AuthOptions
//                of mcp-edge without hooks; `{}` signs in with dynamic registration). Needed by
//                /auth/* and by calls to those servers.
//
// Request bodies are limited to 1 MiB (413 beyond, read no further).
//
// Lifetimes: every request builds its own McpPool and closes it before its response ends. Workers
// tie every I/O object (fetch, stream, timer) to the request that created it, and cancel what is
// left when that request's response is done, so a pool kept across requests would hold dead
// connections. What should outlive a request is the session's durable state: McpClient.snapshot()
// in Durable Object storage, restored with McpClient.restore() without any network round trip.

import init, { McpClient, McpPool, isMcpError, toolNames } from "../pkg/mcp_edge.js";
import wasmModule from "../pkg/mcp_edge_bg.wasm";

let ready;
/** Instantiates the wasm once per isolate; the module is compiled at deploy time (no eval). */
const initOnce = () => (ready ??= init({ module_or_path: wasmModule }));

const MAX_BODY_BYTES = 1 << 20;
const MAX_PARALLEL_CALLS = 16;
const FORMATS = new Set(["openai", "openai-responses", "anthropic", "mcp"]);

const json = (value, status = 200) =>
  new Response(JSON.stringify(value), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
const problem = (status, code, message, headers = {}) => {
  const r = json({ error: { code, message } }, status);
  for (const [k, v] of Object.entries(headers)) r.headers.set(k, v);
  return r;
};

// ---- inbound credential ----------------------------------------------------------------------

const MIN_TOKEN_LENGTH = 32;
/** Bindings that configure the Worker itself, never `${VAR}` values for server entries. */
const OWN_BINDINGS = new Set([
  "MCP_CONFIG", "MCP_PROJECT_CONFIG", "MCP_APPROVED_SERVERS", "MCP_POLICY", "MCP_EDGE", "MCP_AGENT_TOKEN",
  "ACCESS_TEAM_DOMAIN", "ACCESS_AUD",
]);
/** Where a person comes back after signing in to `server` (registered with its authorization server). */
const callbackUrl = (origin, server) => `${origin}/auth/callback/${server}`;
const encoder = new TextEncoder();

/** Whether two strings are equal, in time that depends on neither (both are hashed first). */
async function sameSecret(given, expected) {
  const [a, b] = await Promise.all([
    crypto.subtle.digest("SHA-256", encoder.encode(given)),
    crypto.subtle.digest("SHA-256", encoder.encode(expected)),
  ]);
  if (typeof crypto.subtle.timingSafeEqual === "function") return crypto.subtle.timingSafeEqual(a, b);
  const x = new Uint8Array(a);
  const y = new Uint8Array(b);
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
  return diff === 0;
}

/**
 * `null` when the caller presents the Worker's inbound credential; otherwise the refusal. Runs
 * before anything else of a request and makes no outbound request (except, in Access mode, for
 * the team's signing keys when a token names a key not fetched yet).
 */
async function refusal(request, env) {
  const token = typeof env.MCP_AGENT_TOKEN === "string" ? env.MCP_AGENT_TOKEN : "";
  const access = accessSettings(env);
  if (!token && !access) {
    return problem(500, "AUTH_NOT_CONFIGURED",
      "this Worker has no inbound credential: set the MCP_AGENT_TOKEN secret (wrangler secret put MCP_AGENT_TOKEN) or put it behind Cloudflare Access (ACCESS_TEAM_DOMAIN and ACCESS_AUD); it refuses every request until then");
  }
  if (token && token.length < MIN_TOKEN_LENGTH) {
    return problem(500, "AUTH_NOT_CONFIGURED", `MCP_AGENT_TOKEN is shorter than ${MIN_TOKEN_LENGTH} characters; set a longer secret (e.g. openssl rand -base64 32)`);
  }
  const header = request.headers.get("authorization") ?? "";
  const bearer = /^Bearer +(\S+) *$/i.exec(header)?.[1];
  if (token && bearer !== undefined && (await sameSecret(bearer, token))) return null;
  if (access && (await accessAllows(request, access))) return null;
  return problem(401, "UNAUTHORIZED", "this Worker needs its inbound credential", {
    "www-authenticate": 'Bearer realm="mcp-agent"',
  });
}

// ---- Cloudflare Access -----------------------------------------------------------------------

/** {issuer, certs, audience} from ACCESS_TEAM_DOMAIN and ACCESS_AUD, or null when not set. */
function accessSettings(env) {
  const team = typeof env.ACCESS_TEAM_DOMAIN === "string" ? env.ACCESS_TEAM_DOMAIN.trim() : "";
  const audience = typeof env.ACCESS_AUD === "string" ? env.ACCESS_AUD.trim() : "";
  if (!team || !audience) return null;
  const issuer = (/^https?:\/\//.test(team) ? team : `https://${team}`).replace(/\/+$/, "");
  return { issuer, certs: `${issuer}/cdn-cgi/access/certs`, audience };
}

const ACCESS_KEYS_TTL_MS = 10 * 60_000;
const ACCESS_REFETCH_MIN_MS = 30_000;
const MAX_ASSERTION_BYTES = 16 * 1024;
/** The team's signing keys by kid, per isolate: refetched when stale or when a token names an
 * unknown kid (keys rotate), at most once per ACCESS_REFETCH_MIN_MS. */
let accessKeys = { url: "", byKid: new Map(), fetchedAt: -Infinity };

async function accessKey(access, kid) {
  const now = Date.now();
  const fresh = accessKeys.url === access.certs && now - accessKeys.fetchedAt < ACCESS_KEYS_TTL_MS;
  if (fresh && accessKeys.byKid.has(kid)) return accessKeys.byKid.get(kid);
  if (accessKeys.url === access.certs && now - accessKeys.fetchedAt < ACCESS_REFETCH_MIN_MS) return accessKeys.byKid.get(kid);
  const r = await fetch(access.certs, { headers: { accept: "application/json" } });
  if (!r.ok) throw new Error(`Access certs: HTTP ${r.status}`);
  const { keys } = await r.json();
  const byKid = new Map();
  for (const jwk of Array.isArray(keys) ? keys : []) {
    if (jwk?.kty !== "RSA" || typeof jwk.kid !== "string") continue;
    const key = await crypto.subtle.importKey("jwk", { kty: "RSA", n: jwk.n, e: jwk.e, alg: "RS256", ext: true },
      { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, false, ["verify"]);
    byKid.set(jwk.kid, key);
  }
  accessKeys = { url: access.certs, byKid, fetchedAt: now };
  return byKid.get(kid);
}

function base64url(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** Whether the request carries a valid Access assertion for this application. */
async function accessAllows(request, access) {
  const jwt = request.headers.get("cf-access-jwt-assertion");
  if (!jwt || jwt.length > MAX_ASSERTION_BYTES) return false;
  try {
    const [h, p, sig, extra] = jwt.split(".");
    if (extra !== undefined || !h || !p || !sig) return false;
    const header = JSON.parse(new TextDecoder().decode(base64url(h)));
    if (header.alg !== "RS256" || typeof header.kid !== "string") return false;
    const claims = JSON.parse(new TextDecoder().decode(base64url(p)));
    const now = Date.now() / 1000;
    const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (claims.iss !== access.issuer || !audiences.includes(access.audience)) return false;
    if (typeof claims.exp !== "number" || claims.exp < now - 60) return false;
    if (typeof claims.nbf === "number" && claims.nbf > now + 60) return false;
    const key = await accessKey(access, header.kid);
    if (!key) return false;
    return await crypto.subtle.verify("RSASSA-PKCS1-v1_5", key, base64url(sig), encoder.encode(`${h}.${p}`));
  } catch {
    return false;
  }
}

/**
 * The configuration from the bindings: servers, `${VAR}` values, service bindings by origin. A
 * server entry with `auth` gets the redirect URI of this Worker's callback route for it (`origin`:
 * this Worker's public origin) and DPoP off unless the entry says otherwise: a DPoP key lives in one
 * isolate, and a sign-in started in one may finish in another.
 */
export function readConfig(env, origin = "") {
  // The pool reads each layer and fails open on one it cannot use (its status says why); only
  // entries this Worker rewrites (service bindings, OAuth callbacks) are looked at here.
  const layer = (v) => {
    if (typeof v !== "string") return v;
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  };
  const raw = layer(env.MCP_CONFIG);
  const projectConfig = env.MCP_PROJECT_CONFIG === undefined ? undefined : layer(env.MCP_PROJECT_CONFIG);
  const approvedProjectServers = String(env.MCP_APPROVED_SERVERS ?? "").split(",").map((n) => n.trim()).filter(Boolean);
  if (!raw || typeof raw !== "object" || !raw.mcpServers || typeof raw.mcpServers !== "object") {
    return { config: raw ?? "", projectConfig, approvedProjectServers, vars: {}, services: new Map(), edge: env.MCP_EDGE !== "false", pinStore: env.PINS ?? null };
  }
  const vars = {};
  for (const [name, value] of Object.entries(env)) {
    if (typeof value === "string" && !OWN_BINDINGS.has(name)) vars[name] = value;
  }
  let policy;
  if (env.MCP_POLICY !== undefined) {
    try {
      policy = typeof env.MCP_POLICY === "string" ? JSON.parse(env.MCP_POLICY) : env.MCP_POLICY;
    } catch (e) {
      throw new ConfigError(`MCP_POLICY is not JSON: ${e.message}`);
    }
  }
  const services = new Map();
  const mcpServers = {};
  for (const [name, entry] of Object.entries(raw.mcpServers)) {
    const { service, ...rest } = entry ?? {};
    if (service !== undefined) {
      const binding = env[service];
      if (!binding || typeof binding.fetch !== "function") {
        throw new ConfigError(`server ${JSON.stringify(name)}: service binding ${JSON.stringify(service)} is missing`);
      }
      let origin;
      try {
        origin = new URL(rest.url).origin;
      } catch {
        throw new ConfigError(`server ${JSON.stringify(name)}: a service server needs a url`);
      }
      services.set(origin, binding);
    }
    if (rest.auth !== undefined && (typeof rest.auth !== "object" || rest.auth === null)) {
      throw new ConfigError(`server ${JSON.stringify(name)}: auth must be an object`);
    }
    mcpServers[name] = rest.auth ? { ...rest, auth: { redirectUri: callbackUrl(origin, name), dpop: false, ...rest.auth } } : rest;
  }
  return {
    config: { ...raw, mcpServers }, projectConfig, approvedProjectServers, vars, policy, services,
    edge: env.MCP_EDGE !== "false", pinStore: env.PINS ?? null,
  };
}

/** The project layer and the servers approved in it, as pool options. */
function layers(cfg) {
  return cfg.projectConfig === undefined ? {} : { projectConfig: cfg.projectConfig, approvedProjectServers: cfg.approvedProjectServers };
}

/**
 * The policy's verdict on each configured server, from a pool that is built but not connected
 * (no outbound request): `Map<server, {code, message}>` of the servers it refuses.
 */
function refusedServers(cfg) {
  let pool;
  try {
    pool = new McpPool(cfg.config, { vars: cfg.vars, policy: cfg.policy, ...layers(cfg) });
  } catch (e) {
    throw new ConfigError(`MCP_CONFIG / MCP_POLICY: ${e.message}`);
  }
  try {
    const refused = new Map();
    for (const s of pool.status().servers) {
      if (s.lastError && (s.lastError.code === "DENIED" || s.lastError.code === "NOT_ALLOWED")) refused.set(s.name, s.lastError);
    }
    return refused;
  } finally {
    pool.free();
  }
}

/** The `<server>` segment of an `mcp__<server>__<tool>` name (parts never contain `__`). */
const serverSegment = (name) => (name.startsWith("mcp__") ? name.slice(5).split("__")[0] : null);

/**
 * The configured servers a tool name can belong to: those whose name part, as the library's own
 * naming writes it (whole, or cut short when the tool name is long), is the name's segment.
 */
function serversFor(cfg, name) {
  const segment = serverSegment(name);
  if (!segment) return [];
  return Object.keys(cfg.config.mcpServers).filter((server) => {
    const parts = toolNames([[server, "t"], [server, "t".repeat(64)]]).map(serverSegment);
    return parts.includes(segment);
  });
}

/**
 * Applies the policy to the calls before anything goes out: throws a 403 when a named tool can
 * belong to a refused server (deny wins), else returns the servers the calls need.
 */
function scopeCalls(cfg, names) {
  const refused = refusedServers(cfg);
  const needed = new Set();
  for (const name of names) {
    for (const server of serversFor(cfg, name)) {
      const why = refused.get(server);
      if (why) throw new RequestError(403, `${name}: the server ${JSON.stringify(server)} is refused by MCP_POLICY (${why.message})`, why.code);
      needed.add(server);
    }
  }
  return needed;
}

/** The config with only `servers` (a call connects only the servers it needs). */
function only(cfg, servers) {
  const mcpServers = Object.fromEntries(Object.entries(cfg.config.mcpServers).filter(([n]) => servers.has(n)));
  return { ...cfg, config: { ...cfg.config, mcpServers } };
}

class ConfigError extends Error {}

/** A fetch that sends requests for a service server's origin through its binding. */
function routedFetch(services) {
  return (input, init) => {
    const binding = services.get(new URL(input).origin);
    return binding ? binding.fetch(input, init) : fetch(input, init);
  };
}

/** The one McpPins object of this Worker (all pins in one place), or null without PINS. */
const pinsObject = (cfg) => (cfg.pinStore ? cfg.pinStore.get(cfg.pinStore.idFromName("pins")) : null);

async function loadPins(cfg) {
  const stub = pinsObject(cfg);
  if (!stub) return undefined;
  const r = await stub.fetch("https://pins/");
  return await r.json();
}

async function savePins(cfg, pins) {
  const stub = pinsObject(cfg);
  if (!stub) return;
  await stub.fetch("https://pins/", { method: "PUT", body: JSON.stringify(pins) });
}

/**
 * Runs `work(pool)` with a connected pool (started from the stored pins, which it adds to) and
 * always closes it (no timer or stream is left). Servers with `auth` use the tokens in AUTH_STORE.
 */
async function withPool(cfg, work) {
  const pool = new McpPool(cfg.config, {
    vars: cfg.vars,
    policy: cfg.policy,
    ...layers(cfg),
    edge: cfg.edge,
    fetch: routedFetch(cfg.services),
    connectTimeoutMs: 15_000,
    pins: await loadPins(cfg),
    ...(cfg.authStorage ? { auth: { storage: cfg.authStorage } } : {}),
  });
  try {
    await pool.connectAll();
    const result = await work(pool);
    await savePins(cfg, pool.pins());
    return result;
  } finally {
    await pool.close();
    pool.free();
  }
}

/** The body, at most MAX_BODY_BYTES: a larger declared length is refused unread; a body that
 * grows past the limit is cancelled there. */
async function readBody(request) {
  const tooLarge = () => new RequestError(413, `the body is larger than ${MAX_BODY_BYTES} bytes`, "TOO_LARGE");
  const declared = request.headers.get("content-length");
  if (declared !== null && !(Number(declared) <= MAX_BODY_BYTES)) throw tooLarge();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    text += decoder.decode(value, { stream: true });
  }
}

async function readJson(request) {
  const text = await readBody(request);
  try {
    return JSON.parse(text);
  } catch {
    throw new RequestError(400, "the body is not JSON");
  }
}

class RequestError extends Error {
  constructor(status, message, code = "BAD_REQUEST") {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** `{name, arguments}` or an array of them. */
function parseCalls(body) {
  const list = Array.isArray(body) ? body : [body];
  if (list.length === 0 || list.length > MAX_PARALLEL_CALLS) {
    throw new RequestError(400, `between 1 and ${MAX_PARALLEL_CALLS} calls`);
  }
  for (const c of list) {
    if (!c || typeof c.name !== "string") throw new RequestError(400, "each call needs a string name");
    if (c.arguments !== undefined && (typeof c.arguments !== "object" || c.arguments === null || Array.isArray(c.arguments))) {
      throw new RequestError(400, "arguments must be an object");
    }
  }
  return { list, batch: Array.isArray(body) };
}

async function tools(cfg, url) {
  const format = url.searchParams.get("format") ?? "mcp";
  if (!FORMATS.has(format)) throw new RequestError(400, `format must be one of ${[...FORMATS].join(", ")}`);
  return withPool(cfg, (pool) => {
    const status = pool.status();
    return json({ tools: pool.tools({ format }), servers: status.servers, held: pool.heldTools(), diagnostics: status.diagnostics });
  });
}

/** Accepts a held tool's new definition (re-pins it; the stored pins get the new one). */
async function acceptPin(cfg, request) {
  if (!cfg.pinStore) throw new RequestError(404, "this Worker has no PINS Durable Object binding", "NO_PINS");
  const body = await readJson(request);
  if (!body || typeof body.name !== "string") throw new RequestError(400, "accept needs a string name");
  const servers = scopeCalls(cfg, [body.name]);
  return withPool(only(cfg, servers), (pool) => {
    pool.acceptTool(body.name);
    return json({ accepted: body.name, held: pool.heldTools() });
  });
}

async function call(cfg, request, signal) {
  const { list, batch } = parseCalls(await readJson(request));
  const servers = scopeCalls(cfg, list.map((c) => c.name));
  const results = await withPool(only(cfg, servers), (pool) =>
    Promise.all(list.map((c) => pool.call(c.name, c.arguments ?? {}, { signal }))),
  );
  return json(batch ? results : results[0]);
}

/**
 * Streams one call as SSE: `event: progress` per notifications/progress, then `event: result`.
 * The body and the policy are checked before the stream starts (a refusal is a plain HTTP error).
 * The pool is closed before the stream ends; if the caller goes away, the call is cancelled.
 */
async function callStream(cfg, request, ctx) {
  const body = await readJson(request);
  if (Array.isArray(body)) throw new RequestError(400, "stream one call at a time");
  const [c] = parseCalls(body).list;
  const servers = scopeCalls(cfg, [c.name]);
  const { readable, writable } = new TransformStream();
  const writer = writable.getWriter();
  const abort = new AbortController();
  const send = (event, data) =>
    writer.write(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)).catch(() => abort.abort());
  const work = (async () => {
    try {
      const result = await withPool(only(cfg, servers), (pool) =>
        pool.call(c.name, c.arguments ?? {}, { signal: abort.signal, onProgress: (p) => void send("progress", p) }),
      );
      await send("result", result);
    } catch (e) {
      await send("error", { code: "INTERNAL", message: String(e.message ?? e) });
    } finally {
      await writer.close().catch(() => {});
    }
  })();
  ctx.waitUntil(work);
  return new Response(readable, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-store" },
  });
}

// ---- OAuth sign-in to the configured servers -----------------------------------------------------

/** The OAuth records (tokens, registrations, pending sign-ins) in the AUTH_STORE Durable Object,
 * as mcp-edge's `auth.storage` (get/put/delete of strings). */
function durableAuthStorage(env) {
  if (!env.AUTH_STORE) return null;
  const stub = env.AUTH_STORE.get(env.AUTH_STORE.idFromName("oauth"));
  const call = async (method, key, body) => {
    const r = await stub.fetch(`https://auth-store/?key=${encodeURIComponent(key)}`, { method, body });
    if (method === "GET") return r.status === 200 ? r.text() : (await r.arrayBuffer(), null);
    await r.arrayBuffer();
    if (!r.ok) throw new Error(`AUTH_STORE ${method}: HTTP ${r.status}`);
  };
  return {
    get: (key) => call("GET", key),
    put: (key, value) => call("PUT", key, value),
    delete: (key) => call("DELETE", key),
  };
}

const MAX_CALLBACK_URL_BYTES = 8 * 1024;

/** The connect options of a sign-in to `server`: its `auth` settings (strings `${VAR}`-expanded,
 * redirect URI and DPoP from readConfig), the durable storage, no person's handler (the URL goes
 * back to the caller). */
function signInOptions(cfg, server) {
  const entry = cfg.config.mcpServers[server];
  if (!entry?.url || !entry.auth) {
    throw new RequestError(404, `no server ${JSON.stringify(server)} with an "auth" entry in MCP_CONFIG`, "UNKNOWN_SERVER");
  }
  if (!cfg.authStorage) throw new ConfigError("OAuth needs the AUTH_STORE Durable Object binding");
  const auth = JSON.parse(JSON.stringify(entry.auth), (_k, v) => (typeof v === "string" ? expand(v, cfg.vars) : v));
  return { url: expand(entry.url, cfg.vars), options: { auth: { ...auth, storage: cfg.authStorage }, fetch: routedFetch(cfg.services) } };
}

/** POST /auth/start/<server>: starts a sign-in; answers the authorization URL for a person. */
async function authStart(cfg, server) {
  const { url, options } = signInOptions(cfg, server);
  try {
    // The pending request is in AUTH_STORE when this settles (the library waits for its writes).
    const status = await McpClient.signIn(url, options);
    return json({ signedIn: status });
  } catch (e) {
    if (isMcpError(e) && e.code === "AUTH_INTERACTION_REQUIRED") return json({ url: e.url });
    throw e;
  }
}

/** GET /auth/callback/<server>: the person is back; finishes the sign-in from the stored pending
 * request that the callback's `state` names (the library checks `state` and RFC 9207 `iss`). */
async function authCallback(cfg, server, request) {
  if (request.url.length > MAX_CALLBACK_URL_BYTES) throw new RequestError(414, "the callback URL is too long", "TOO_LARGE");
  const { url, options } = signInOptions(cfg, server);
  try {
    const status = await McpClient.completeAuthorization(url, request.url, options);
    return json({ signedIn: status, server });
  } catch (e) {
    if (isMcpError(e) && e.code.startsWith("AUTH_")) return problem(400, e.code, e.message);
    throw e;
  }
}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    try {
      // The one route a person's browser reaches without the Worker's credential: accepted only
      // with the `state` of a sign-in this Worker started (see authCallback).
      const back = url.pathname.match(/^\/auth\/callback\/([A-Za-z0-9_-]{1,64})$/);
      if (back && request.method === "GET") {
        await initOnce();
        return await authCallback({ ...readConfig(env, url.origin), authStorage: durableAuthStorage(env) }, back[1], request);
      }
      const refused = await refusal(request, env);
      if (refused) return refused;
      await initOnce();
      const cfg = { ...readConfig(env, url.origin), authStorage: durableAuthStorage(env) };
      const start = url.pathname.match(/^\/auth\/start\/([A-Za-z0-9_-]{1,64})$/);
      if (start && request.method === "POST") {
        const why = refusedServers(cfg).get(start[1]);
        if (why) return problem(403, why.code, `the server ${JSON.stringify(start[1])} is refused by MCP_POLICY (${why.message})`);
        return await authStart(cfg, start[1]);
      }
      if (url.pathname === "/tools" && request.method === "GET") return await tools(cfg, url);
      if (url.pathname === "/call" && request.method === "POST") {
        if (url.searchParams.get("stream") === "1") return await callStream(cfg, request, ctx);
        return await call(cfg, request, request.signal);
      }
      if (url.pathname === "/pins/accept" && request.method === "POST") return await acceptPin(cfg, request);
      // A task handle names its server: `<server>:<the server's task id>`, URL-encoded.
      const t = url.pathname.match(/^\/tasks\/([A-Za-z0-9_-]{1,64})%3A([^/]{1,512})$/i);
      if (t && request.method === "GET") {
        if (!env.SESSIONS) return problem(404, "NO_SESSIONS", "this Worker has no SESSIONS Durable Object binding");
        const why = refusedServers(cfg).get(t[1]);
        if (why) return problem(403, why.code, `the server ${JSON.stringify(t[1])} is refused by MCP_POLICY (${why.message})`);
        return await env.SESSIONS.get(env.SESSIONS.idFromName(t[1])).fetch(request);
      }
      const m = url.pathname.match(/^\/sessions\/([A-Za-z0-9_-]{1,64})(\/open|\/call)?$/);
      if (m) {
        if (!env.SESSIONS) return problem(404, "NO_SESSIONS", "this Worker has no SESSIONS Durable Object binding");
        const why = refusedServers(cfg).get(m[1]);
        if (why) return problem(403, why.code, `the server ${JSON.stringify(m[1])} is refused by MCP_POLICY (${why.message})`);
        const stub = env.SESSIONS.get(env.SESSIONS.idFromName(m[1]));
        return await stub.fetch(request);
      }
      return problem(404, "NOT_FOUND", "routes: GET /tools, POST /call[?stream=1], /sessions/<server>/open|call, GET /tasks/<id>, POST /auth/start/<server>, GET /auth/callback/<server>, POST /pins/accept");
    } catch (e) {
      if (e instanceof RequestError) return problem(e.status, e.code, e.message);
      if (e instanceof ConfigError) return problem(500, "CONFIG", e.message);
      if (isMcpError(e)) return problem(502, e.code, e.message);
      return problem(500, "INTERNAL", String(e?.message ?? e));
    }
  },
};

/** Expands `${VAR}` and `${VAR:-default}` in a string (for the /sessions routes' headers). */
function expand(text, vars) {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_, name, fallback) => {
    if (name in vars) return vars[name];
    if (fallback !== undefined) return fallback;
    throw new ConfigError(`variable ${name} is not defined`);
  });
}

/**
 * One MCP server's session, kept across isolate evictions (Durable Object hibernation, redeploys,
 * restarts): only the snapshot is stored; every request restores a client from it.
 */
export class McpSessions {
  constructor(state, env) {
    this.state = state;
    this.env = env;
  }

  /** A kept task's status, or its result once it ended (the record is then forgotten). */
  async taskStatus(client, server, taskId, key) {
    const record = await this.state.storage.get(`task:${taskId}`);
    if (!record) return problem(404, "UNKNOWN_TASK", `no task ${JSON.stringify(taskId)} of ${server} is kept here`);
    let last = record.task;
    try {
      // Polls it (no tools/call): the result once the task ended, or its status after `waitMs`.
      const result = await client.resumeTask(record.task, { onProgress: (p) => { if (p.task) last = p.task; } });
      await this.state.storage.delete(`task:${taskId}`);
      await this.state.storage.put(key, client.snapshot());
      return json({ status: "completed", task: last, result });
    } catch (e) {
      if (!isMcpError(e)) throw e;
      if (e.code === "TASK_TIMEOUT") {
        await this.state.storage.put(`task:${taskId}`, { ...record, task: { ...record.task, ...last } });
        return json({ status: last.status, statusMessage: last.statusMessage ?? null, task: last }, 202);
      }
      await this.state.storage.delete(`task:${taskId}`);
      return json({ status: "ended", task: last, error: { code: e.code, message: e.message } });
    }
  }

  async fetch(request) {
    await initOnce();
    const url = new URL(request.url);
    let [, route, server, action] = url.pathname.split("/");
    let taskId = null;
    if (route === "tasks") {
      const handle = decodeURIComponent(server);
      server = handle.slice(0, handle.indexOf(":"));
      taskId = handle.slice(server.length + 1);
    }
    try {
      const cfg = readConfig(this.env);
      const entry = cfg.config.mcpServers[server];
      if (!entry?.url) return problem(404, "UNKNOWN_SERVER", `no HTTP server ${JSON.stringify(server)} in MCP_CONFIG`);
      const requests = [];
      const options = {
        headers: Object.fromEntries(Object.entries(entry.headers ?? {}).map(([k, v]) => [k, expand(v, cfg.vars)])),
        protocol: entry.protocol,
        timeoutMs: entry.timeoutMs,
        openGetStream: false,
        // A long tool becomes a task (the server's choice): the request waits this long for it,
        // then answers 202 with the task's handle; the task's state lives on in storage.
        maxTaskWaitMs: boundedWait(url.searchParams.get("waitMs")),
        fetch: routedFetch(cfg.services),
        onTraffic: (r) => {
          if (r.type === "request") {
            let method = null;
            try {
              method = JSON.parse(r.body ?? "null")?.method ?? null;
            } catch {}
            requests.push({ http: r.method, method });
          }
        },
      };
      const key = `snapshot:${server}`;
      if (action === "open" && request.method === "POST") {
        const client = await McpClient.connect(entry.url, options);
        try {
          const tools = await client.listTools();
          const snapshot = client.snapshot();
          await this.state.storage.put(key, snapshot);
          return json({ era: client.era, protocolVersion: client.protocolVersion, sessionId: client.sessionId ?? null, tools: tools.map((t) => t.name), requests });
        } finally {
          client.free(); // not close(): the session must live on
        }
      }
      const stored = await this.state.storage.get(key);
      if (!stored) return problem(404, "NO_SNAPSHOT", `open /sessions/${server}/open first`);
      const client = McpClient.restore(entry.url, stored, options);
      try {
        if (taskId !== null) return await this.taskStatus(client, server, taskId, key);
        if (action === "call" && request.method === "POST") {
          const body = await readJson(request);
          if (!body || typeof body.name !== "string") throw new RequestError(400, "a call needs a string name");
          let last = null;
          let result;
          try {
            result = await client.callTool(body.name, body.arguments ?? {}, { onProgress: (p) => { if (p.task) last = p.task; } });
          } catch (e) {
            if (!isMcpError(e) || e.code !== "TASK_TIMEOUT") throw e;
            // The task runs on at the server; its state goes to storage, never the call again.
            const task = last?.taskId === e.taskId ? last : { taskId: e.taskId, shape: last?.shape ?? "extension", status: "working" };
            await this.state.storage.put(`task:${task.taskId}`, { task, name: body.name, at: Date.now() });
            await this.state.storage.put(key, client.snapshot());
            const handle = encodeURIComponent(`${server}:${task.taskId}`);
            return json({ task: { id: handle, ...task }, poll: `/tasks/${handle}`, requests }, 202);
          }
          await this.state.storage.put(key, client.snapshot());
          return json({
            result,
            era: client.era,
            protocolVersion: client.protocolVersion,
            sessionId: client.sessionId ?? null,
            restoredSessionId: stored.sessionId ?? null,
            requests,
          });
        }
        if (action === undefined && request.method === "DELETE") {
          await client.close();
          await this.state.storage.delete(key);
          return json({ closed: true, requests });
        }
        return problem(405, "METHOD", "POST /open, POST /call or DELETE");
      } finally {
        client.free();
      }
    } catch (e) {
      if (e instanceof RequestError) return problem(e.status, e.code, e.message);
      if (e instanceof ConfigError) return problem(500, "CONFIG", e.message);
      if (isMcpError(e)) return problem(502, e.code, e.message);
      return problem(500, "INTERNAL", String(e?.message ?? e));
    }
  }
}

/** The longest a request waits for a task before answering 202 (a Worker's request has a budget). */
const MAX_TASK_WAIT_MS = 25_000;
function boundedWait(text) {
  const n = Number(text ?? 20_000);
  return Number.isFinite(n) && n >= 0 ? Math.min(n, MAX_TASK_WAIT_MS) : 20_000;
}


/** The OAuth records of the servers with `auth` (values hold secrets: tokens, the PKCE verifier
 * of a pending sign-in): a key/value store over Durable Object storage, reached by this Worker
 * only (`GET|PUT|DELETE /?key=`). */
export class McpAuthStore {
  constructor(state) {
    this.state = state;
  }

  async fetch(request) {
    const key = new URL(request.url).searchParams.get("key");
    if (!key || key.length > 2048) return new Response("a key is required", { status: 400 });
    if (request.method === "GET") {
      const value = await this.state.storage.get(key);
      return typeof value === "string" ? new Response(value) : new Response(null, { status: 404 });
    }
    if (request.method === "PUT") {
      const value = await request.text();
      if (value.length > MAX_BODY_BYTES) return new Response("too large", { status: 413 });
      await this.state.storage.put(key, value);
      return new Response(null, { status: 204 });
    }
    if (request.method === "DELETE") {
      await this.state.storage.delete(key);
      return new Response(null, { status: 204 });
    }
    return new Response("GET, PUT or DELETE", { status: 405 });
  }
}

/**
 * The Worker's tool pins (`{server: {tool: fingerprint}}`), kept in Durable Object storage so a
 * tool whose definition changes is noticed in any later request, in any isolate. GET returns
 * them; PUT merges a pool's pins in (per tool; a pool keeps a held tool's old pin and re-pins
 * only what was accepted).
 */
export class McpPins {
  constructor(state) {
    this.state = state;
  }

  async fetch(request) {
    const stored = (await this.state.storage.get("pins")) ?? {};
    if (request.method === "PUT") {
      const incoming = await request.json();
      for (const [server, tools] of Object.entries(incoming ?? {})) {
        stored[server] = { ...(stored[server] ?? {}), ...tools };
      }
      await this.state.storage.put("pins", stored);
    }
    return json(stored);
  }
}
