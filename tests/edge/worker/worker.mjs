// mcp-edge edge agent: an ES-module Worker (Cloudflare Workers / workerd) that connects to the MCP
// servers named in its configuration and serves their tools to its own caller.
//
//   GET  /tools[?format=openai|openai-responses|anthropic|mcp]   tool definitions of every server
//   POST /call            {name, arguments} (or an array of them, run concurrently) -> flat result
//   POST /call?stream=1   the same as Server-Sent Events: `progress` events, then one `result`
//   POST /sessions/<server>/open     connect one server, keep its snapshot in a Durable Object
//   POST /sessions/<server>/call     restore that snapshot (no handshake), call, store it again
//   DELETE /sessions/<server>        restore, close (2025 era: DELETE the session), forget it
//
// Bindings (wrangler.toml `[vars]` / secrets, or workerd `bindings`):
//   MCP_CONFIG   {"mcpServers": {...}} as text (or a JSON binding). A server may name a service
//                binding with "service": "BINDING": its requests go through env.BINDING.fetch.
//   MCP_EDGE     "false" turns the edge bound (6 outbound requests at once) off. Default on.
//   any other text binding: a `${NAME}` variable for the server entries (e.g. a token secret).
//   SESSIONS     (optional) Durable Object namespace of class McpSessions, for /sessions/*.
//
// Lifetimes: every request builds its own McpPool and closes it before its response ends. Workers
// tie every I/O object (fetch, stream, timer) to the request that created it, and cancel what is
// left when that request's response is done, so a pool kept across requests would hold dead
// connections. What should outlive a request is the session's durable state: McpClient.snapshot()
// in Durable Object storage, restored with McpClient.restore() without any network round trip.

import init, { McpClient, McpPool, isMcpError } from "../pkg/mcp_edge.js";
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
const problem = (status, code, message) => json({ error: { code, message } }, status);

/** The configuration from the bindings: servers, `${VAR}` values, service bindings by origin. */
export function readConfig(env) {
  let raw = env.MCP_CONFIG;
  if (typeof raw === "string") {
    try {
      raw = JSON.parse(raw);
    } catch (e) {
      throw new ConfigError(`MCP_CONFIG is not JSON: ${e.message}`);
    }
  }
  if (!raw || typeof raw !== "object" || !raw.mcpServers || typeof raw.mcpServers !== "object") {
    throw new ConfigError('MCP_CONFIG must be {"mcpServers": {...}}');
  }
  const vars = {};
  for (const [name, value] of Object.entries(env)) {
    if (typeof value === "string" && name !== "MCP_CONFIG") vars[name] = value;
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
    mcpServers[name] = rest;
  }
  return { config: { ...raw, mcpServers }, vars, services, edge: env.MCP_EDGE !== "false" };
}

class ConfigError extends Error {}

/** A fetch that sends requests for a service server's origin through its binding. */
function routedFetch(services) {
  return (input, init) => {
    const binding = services.get(new URL(input).origin);
    return binding ? binding.fetch(input, init) : fetch(input, init);
  };
}

/** Runs `work(pool)` with a connected pool and always closes it (no timer or stream is left). */
async function withPool(cfg, work) {
  const pool = new McpPool(cfg.config, {
    vars: cfg.vars,
    edge: cfg.edge,
    fetch: routedFetch(cfg.services),
    connectTimeoutMs: 15_000,
  });
  try {
    await pool.connectAll();
    return await work(pool);
  } finally {
    await pool.close();
    pool.free();
  }
}

async function readJson(request) {
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) throw new RequestError(413, "the body is too large");
  try {
    return JSON.parse(text);
  } catch {
    throw new RequestError(400, "the body is not JSON");
  }
}

class RequestError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
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
  return withPool(cfg, (pool) => json({ tools: pool.tools({ format }), servers: pool.status().servers }));
}

async function call(cfg, request, signal) {
  const { list, batch } = parseCalls(await readJson(request));
  const results = await withPool(cfg, (pool) =>
    Promise.all(list.map((c) => pool.call(c.name, c.arguments ?? {}, { signal }))),
  );
  return json(batch ? results : results[0]);
}

/**
 * Streams one call as SSE: `event: progress` per notifications/progress, then `event: result`.
 * The pool is closed before the stream ends; if the caller goes away, the call is cancelled.
 */
function callStream(cfg, request, ctx) {
  const { readable, writable } = new TransformStream();
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  const abort = new AbortController();
  const send = (event, data) =>
    writer.write(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)).catch(() => abort.abort());
  const work = (async () => {
    try {
      const body = await readJson(request);
      if (Array.isArray(body)) throw new RequestError(400, "stream one call at a time");
      const { list } = parseCalls(body);
      const [c] = list;
      const result = await withPool(cfg, (pool) =>
        pool.call(c.name, c.arguments ?? {}, { signal: abort.signal, onProgress: (p) => void send("progress", p) }),
      );
      await send("result", result);
    } catch (e) {
      await send("error", { code: e.status ? "BAD_REQUEST" : "INTERNAL", message: String(e.message ?? e) });
    } finally {
      await writer.close().catch(() => {});
    }
  })();
  ctx.waitUntil(work);
  return new Response(readable, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-store" },
  });
}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    try {
      await initOnce();
      const cfg = readConfig(env);
      if (url.pathname === "/tools" && request.method === "GET") return await tools(cfg, url);
      if (url.pathname === "/call" && request.method === "POST") {
        if (url.searchParams.get("stream") === "1") return callStream(cfg, request, ctx);
        return await call(cfg, request, request.signal);
      }
      const m = url.pathname.match(/^\/sessions\/([A-Za-z0-9_-]{1,64})(\/open|\/call)?$/);
      if (m) {
        if (!env.SESSIONS) return problem(404, "NO_SESSIONS", "this Worker has no SESSIONS Durable Object binding");
        const stub = env.SESSIONS.get(env.SESSIONS.idFromName(m[1]));
        return await stub.fetch(request);
      }
      return problem(404, "NOT_FOUND", "routes: GET /tools, POST /call[?stream=1], /sessions/<server>/open|call");
    } catch (e) {
      if (e instanceof RequestError) return problem(e.status, "BAD_REQUEST", e.message);
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

  async fetch(request) {
    await initOnce();
    const url = new URL(request.url);
    const [, , server, action] = url.pathname.split("/");
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
        if (action === "call" && request.method === "POST") {
          const body = await readJson(request);
          if (!body || typeof body.name !== "string") throw new RequestError(400, "a call needs a string name");
          const result = await client.callTool(body.name, body.arguments ?? {});
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
      if (e instanceof RequestError) return problem(e.status, "BAD_REQUEST", e.message);
      if (e instanceof ConfigError) return problem(500, "CONFIG", e.message);
      if (isMcpError(e)) return problem(502, e.code, e.message);
      return problem(500, "INTERNAL", String(e?.message ?? e));
    }
  }
}
