// A loopback MCP server that serves the tool catalog of catalog.mjs over Streamable HTTP
// (protocol 2025-11-25, with sessions), one simulated server per path. Node built-ins only.
//
//   node tests/bench/search/catalog-server.mjs [--port N]
//
// Binds 127.0.0.1 (port 0, an ephemeral port, unless --port is given), prints exactly one line,
// `http://127.0.0.1:<port>`, once it listens, and exits on SIGTERM or SIGINT.
//
// Each server of the catalog answers at /<server>/mcp (e.g. /github/mcp, /k8s/mcp):
//   POST initialize          -> the requested protocol version when it is 2025-11-25, 2025-06-18 or
//                               2025-03-26 (else 2025-11-25), capabilities {tools: {listChanged:
//                               false}}, serverInfo; a fresh Mcp-Session-Id response header
//   POST <notification>      -> 202, empty body (notifications/initialized and any other), also
//                               for JSON-RPC responses sent by the client
//   POST ping                -> {}
//   POST tools/list          -> pages of PAGE_SIZE tools; `nextCursor` while more remain. Cursors
//                               are opaque tokens; an unknown one is error -32602
//   POST tools/call          -> {content: [{type: "text", text: "<server>/<tool> called with
//                               <json args>"}]}; an unknown tool is a result with isError: true
//   POST <other method>      -> error -32601
//   GET                      -> 405 (no server-initiated stream)
//   DELETE                   -> 200 and the session is forgotten
// Every message but initialize must carry the Mcp-Session-Id of a session opened on the same
// path: missing -> 400, unknown -> 404. An MCP-Protocol-Version header, when sent, must name a
// supported version (else 400). Replies are single JSON-RPC bodies (application/json), whatever
// the Accept header says. Malformed JSON -> 400 with error -32700; a JSON-RPC batch (an array) or
// a body that is not a JSON-RPC message -> 400 with error -32600. JSON-RPC errors answering a
// well-formed request (-32601, -32602) travel with HTTP 200.
//
// CORS, for pages on another loopback origin: OPTIONS preflights on any path get 204 with
// Access-Control-Allow-Origin (the request's Origin, or * without one), Allow-Methods POST, GET,
// DELETE, OPTIONS and Allow-Headers `*` plus, spelled out (a wildcard does not cover
// Authorization), content-type, mcp-session-id, mcp-protocol-version, authorization and
// last-event-id. Every response carries Allow-Origin and Expose-Headers (mcp-session-id,
// mcp-protocol-version).

import http from "node:http";
import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { catalog } from "./catalog.mjs";

export const PAGE_SIZE = 100;
const SUPPORTED_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26"];
const DEFAULT_VERSION = "2025-11-25";
const MAX_BODY_BYTES = 4 << 20;
const MAX_SESSIONS = 10_000;

const ALLOW_METHODS = "POST, GET, DELETE, OPTIONS";
const ALLOW_HEADERS = "*, content-type, mcp-session-id, mcp-protocol-version, authorization, last-event-id";
const EXPOSE_HEADERS = "mcp-session-id, mcp-protocol-version";

// ---------------------------------------------------------------------------------------------
// Cursors: base64url of "<server>:<offset>:<check>", where <check> is a hash of the first two
// parts. Opaque to clients, stable across restarts, and a cursor of another server, a forged
// offset or any other string is rejected.

function fnv(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}

function encodeCursor(server, offset) {
  const body = `${server}:${offset}`;
  return Buffer.from(`${body}:${fnv(`catalog-cursor/${body}`)}`).toString("base64url");
}

/** The offset a cursor stands for on `server`, or null when it is not one of ours. */
function decodeCursor(server, cursor, total) {
  if (typeof cursor !== "string" || cursor.length > 200 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  const m = /^([a-z0-9-]+):(\d+):([a-z0-9]+)$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!m || m[1] !== server) return null;
  const offset = Number(m[2]);
  if (encodeCursor(server, offset) !== cursor) return null;
  if (offset <= 0 || offset >= total || offset % PAGE_SIZE !== 0) return null;
  return offset;
}

// ---------------------------------------------------------------------------------------------

/**
 * Creates the HTTP server (not yet listening). `tools` defaults to the whole catalog; tests may
 * pass a smaller `{ [server]: Tool[] }`.
 */
export function createCatalogServer(tools = catalog()) {
  /** session id -> { server, protocolVersion } */
  const sessions = new Map();

  const corsHeaders = (req) => ({
    "access-control-allow-origin": req.headers.origin ?? "*",
    "access-control-expose-headers": EXPOSE_HEADERS,
    vary: "Origin",
  });

  function send(req, res, status, body, headers = {}) {
    const payload = body === undefined ? "" : JSON.stringify(body);
    res.writeHead(status, {
      ...corsHeaders(req),
      ...(body === undefined ? {} : { "content-type": "application/json", "cache-control": "no-store" }),
      "content-length": Buffer.byteLength(payload),
      ...headers,
    });
    res.end(payload);
  }
  const rpcResult = (id, result) => ({ jsonrpc: "2.0", id, result });
  const rpcError = (id, code, message) => ({ jsonrpc: "2.0", id: id ?? null, error: { code, message } });

  function readBody(req) {
    return new Promise((resolve, reject) => {
      const parts = [];
      let size = 0;
      req.on("data", (chunk) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          reject(Object.assign(new Error("request body too large"), { status: 413 }));
          req.destroy();
        } else parts.push(chunk);
      });
      req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
      req.on("error", reject);
    });
  }

  function openSession(server, protocolVersion) {
    if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value);
    const id = randomUUID();
    sessions.set(id, { server, protocolVersion });
    return id;
  }

  /** The answer to one JSON-RPC request on `server` (a session is already established). */
  function answer(server, msg) {
    const { id, method, params } = msg;
    const list = tools[server];
    switch (method) {
      case "ping":
        return rpcResult(id, {});
      case "tools/list": {
        const cursor = params?.cursor;
        let offset = 0;
        if (cursor !== undefined && cursor !== null) {
          offset = decodeCursor(server, cursor, list.length);
          if (offset === null) return rpcError(id, -32602, "Invalid params: unknown cursor");
        }
        const page = list.slice(offset, offset + PAGE_SIZE);
        const next = offset + PAGE_SIZE;
        return rpcResult(id, { tools: page, ...(next < list.length ? { nextCursor: encodeCursor(server, next) } : {}) });
      }
      case "tools/call": {
        const name = params?.name;
        if (typeof name !== "string") return rpcError(id, -32602, "Invalid params: tools/call needs a string name");
        const args = params?.arguments ?? {};
        if (!list.some((t) => t.name === name)) {
          return rpcResult(id, { content: [{ type: "text", text: `Unknown tool: ${name}` }], isError: true });
        }
        return rpcResult(id, { content: [{ type: "text", text: `${server}/${name} called with ${JSON.stringify(args)}` }] });
      }
      default:
        return rpcError(id, -32601, `Method not found: ${method}`);
    }
  }

  async function handle(req, res) {
    if (req.method === "OPTIONS") {
      const headers = {
        "access-control-allow-methods": ALLOW_METHODS,
        "access-control-allow-headers": ALLOW_HEADERS,
        "access-control-max-age": "600",
      };
      if (req.headers["access-control-request-private-network"]) headers["access-control-allow-private-network"] = "true";
      return send(req, res, 204, undefined, headers);
    }
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    const m = /^\/([a-z0-9-]+)\/mcp\/?$/.exec(path);
    const server = m && Object.hasOwn(tools, m[1]) ? m[1] : null;
    if (!server) return send(req, res, 404, { error: `no MCP server at ${path}; try /<server>/mcp`, servers: Object.keys(tools) });

    const sid = req.headers["mcp-session-id"];
    const session = typeof sid === "string" ? sessions.get(sid) : undefined;
    const known = session !== undefined && session.server === server;

    if (req.method === "GET") return send(req, res, 405, undefined, { allow: ALLOW_METHODS });
    if (req.method === "DELETE") {
      if (typeof sid !== "string") return send(req, res, 400, rpcError(null, -32000, "Bad Request: Mcp-Session-Id header is required"));
      if (!known) return send(req, res, 404, rpcError(null, -32001, "Session not found"));
      sessions.delete(sid);
      return send(req, res, 200);
    }
    if (req.method !== "POST") return send(req, res, 405, undefined, { allow: ALLOW_METHODS });

    let text;
    try {
      text = await readBody(req);
    } catch (err) {
      return send(req, res, err.status ?? 400, rpcError(null, -32600, err.message));
    }
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return send(req, res, 400, rpcError(null, -32700, "Parse error"));
    }
    if (Array.isArray(msg)) return send(req, res, 400, rpcError(null, -32600, "Invalid Request: batches are not supported"));
    if (msg === null || typeof msg !== "object" || msg.jsonrpc !== "2.0") {
      return send(req, res, 400, rpcError(null, -32600, "Invalid Request: not a JSON-RPC 2.0 message"));
    }
    const isRequest = typeof msg.method === "string" && msg.id !== undefined && msg.id !== null;
    const isNotification = typeof msg.method === "string" && msg.id === undefined;
    const isResponse = msg.method === undefined && msg.id !== undefined && ("result" in msg || "error" in msg);
    if (!isRequest && !isNotification && !isResponse) {
      return send(req, res, 400, rpcError(msg.id, -32600, "Invalid Request"));
    }

    if (isRequest && msg.method === "initialize") {
      const requested = msg.params?.protocolVersion;
      const protocolVersion = SUPPORTED_VERSIONS.includes(requested) ? requested : DEFAULT_VERSION;
      const id = openSession(server, protocolVersion);
      return send(
        req,
        res,
        200,
        rpcResult(msg.id, {
          protocolVersion,
          capabilities: { tools: { listChanged: false } },
          serverInfo: { name: `catalog-${server}`, title: `Simulated ${server} server`, version: "1.0.0" },
          instructions: `A simulated ${server} server of the tool-search benchmark with ${tools[server].length} tools; tools/list is paginated (${PAGE_SIZE} per page).`,
        }),
        { "mcp-session-id": id },
      );
    }

    if (typeof sid !== "string") {
      return send(req, res, 400, rpcError(msg.id, -32000, "Bad Request: Mcp-Session-Id header is required"));
    }
    if (!known) return send(req, res, 404, rpcError(msg.id, -32001, "Session not found"));
    const version = req.headers["mcp-protocol-version"];
    if (version !== undefined && !SUPPORTED_VERSIONS.includes(version)) {
      return send(req, res, 400, rpcError(msg.id, -32600, `Bad Request: unsupported MCP-Protocol-Version ${version}`));
    }
    if (!isRequest) return send(req, res, 202);
    return send(req, res, 200, answer(server, msg));
  }

  const httpServer = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) send(req, res, 500, rpcError(null, -32603, `Internal error: ${err.message}`));
      else res.destroy();
    });
  });
  httpServer.sessions = sessions;
  return httpServer;
}

// ---------------------------------------------------------------------------------------------

function parsePort(argv) {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    let value;
    if (a === "--port") value = argv[++i];
    else if (a.startsWith("--port=")) value = a.slice("--port=".length);
    else if (a === "-h" || a === "--help") {
      process.stderr.write("usage: node catalog-server.mjs [--port N]\n");
      process.exit(0);
    } else {
      process.stderr.write(`catalog-server: unknown argument ${a}\n`);
      process.exit(2);
    }
    const port = Number(value);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      process.stderr.write(`catalog-server: bad port ${value}\n`);
      process.exit(2);
    }
    return port;
  }
  return 0;
}

const isMain = !!process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const port = parsePort(process.argv.slice(2));
  const server = createCatalogServer();
  server.on("error", (err) => {
    process.stderr.write(`catalog-server: ${err.message}\n`);
    process.exit(1);
  });
  server.listen(port, "127.0.0.1", () => {
    process.stdout.write(`http://127.0.0.1:${server.address().port}\n`);
  });
  const stop = () => {
    server.close();
    server.closeAllConnections?.();
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
