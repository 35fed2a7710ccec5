// The benchmark's MCP server, written against web-standard APIs only (Request, Response,
// ReadableStream, TextEncoder), so the same code answers over the network (server.mjs wraps it in
// node:http) and inside the page (an in-page `fetch` that never touches the network).
//
//   handler = createMcpHandler(era)       era: "2026-07-28" (stateless) or "2025-11-25" (sessions)
//   response = await handler(request)     a fetch-style handler: Request in, Response out
//
// Tools (both eras):
//   echo  {text}         -> the text, as one SSE event carrying the result
//   flood {count, size}  -> `count` notifications/progress events of `size` bytes each (the whole
//                           SSE event, terminator included; at least MIN_EVENT bytes), written as
//                           ~64 KiB body chunks, then the result "flood <count> <bytes>" where
//                           <bytes> is the length of the whole response body. Progress needs
//                           `_meta.progressToken`; without one the call is an error result.
//
// 2026-07-28: every POST carries MCP-Protocol-Version 2026-07-28 (else 400 -32022); server/discover,
// tools/list, tools/call; notifications get 202; GET/DELETE 405.
// 2025-11-25: initialize (answers the requested version when it is a 2025 one) issues an
// Mcp-Session-Id that every later request must carry (else 400, unknown id 404); GET 405 (no
// server stream), DELETE ends the session.

const encoder = new TextEncoder();
const SERVER_INFO = { name: "mcp-edge-bench", version: "1.0.0" };
const TOOLS = [
  {
    name: "echo",
    description: "Returns its text.",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  },
  {
    name: "flood",
    description: "Streams count progress notifications of size bytes each, then a result.",
    inputSchema: {
      type: "object",
      properties: { count: { type: "integer", minimum: 1 }, size: { type: "integer", minimum: 1 } },
      required: ["count", "size"],
    },
  },
];
const LEGACY_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26"];
const MODERN = "2026-07-28";
const MAX_COUNT = 10_000_000;
const MAX_SIZE = 1 << 20;
const CHUNK_BYTES = 64 * 1024;
const MAX_SESSIONS = 1000;
/** The smallest event `flood` writes (its JSON frame without padding). */
export const MIN_EVENT = 160;

const json = (status, body, headers = {}) =>
  new Response(typeof body === "string" ? body : JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
const rpcError = (status, id, code, message, headers) =>
  json(status, { jsonrpc: "2.0", id: id ?? null, error: { code, message } }, headers);
const sseHeaders = (headers = {}) => ({ "content-type": "text/event-stream", "cache-control": "no-store", ...headers });
const sseEvent = (message) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;
const textResult = (text, isError = false) => ({ content: [{ type: "text", text }], ...(isError ? { isError } : {}) });

/**
 * The body of a `flood` call as a pull-driven stream of ~64 KiB chunks: `count` progress events of
 * `size` bytes, then the event carrying the response to `id`. Resolves `bytes` (the body length)
 * before the first chunk is pulled, so the result can state it.
 */
export function floodBody(id, token, count, size, resultMeta = {}) {
  const tokenJson = JSON.stringify(token);
  const head = `event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":${tokenJson},"progress":`;
  const mid = `,"total":${count},"message":"`;
  const tail = `"}}\n\n`;
  const fixed = head.length + mid.length + tail.length;
  const padFor = (i) => Math.max(0, size - fixed - String(i).length);
  // Padding strings by length, built once (the digits of `i` change the padding by a few bytes).
  const pads = new Map();
  const pad = (n) => {
    let p = pads.get(n);
    if (p === undefined) pads.set(n, (p = "x".repeat(n)));
    return p;
  };
  let eventBytes = 0;
  for (let digits = 1, from = 1; from <= count; digits++, from *= 10) {
    const to = Math.min(count, from * 10 - 1);
    eventBytes += (to - from + 1) * (fixed + digits + padFor(from));
  }
  const resultFor = (bytes) =>
    sseEvent({ jsonrpc: "2.0", id, result: { ...textResult(`flood ${count} ${bytes}`), ...resultMeta } });
  // The result states the body length, its own included: find the fixed point (the digit count
  // settles within a few steps).
  let bytes = eventBytes;
  for (let step = 0; step < 8 && eventBytes + resultFor(bytes).length !== bytes; step++) {
    bytes = eventBytes + resultFor(bytes).length;
  }
  const final = resultFor(bytes);
  if (eventBytes + final.length !== bytes) throw new Error("flood: body length did not settle");
  // Events are written as bytes: one encoded template per digit count of `i` (the events with
  // as many digits are the same length), copied and its digits patched. Assembling strings and
  // encoding every chunk cost the server about a third of the page's time in the in-page rows,
  // time that diluted the difference between the clients.
  const templates = new Map();
  const templateFor = (digits) => {
    let t = templates.get(digits);
    if (t === undefined) {
      t = encoder.encode(head + "0".repeat(digits) + mid + pad(padFor(10 ** (digits - 1))) + tail);
      templates.set(digits, t);
    }
    return t;
  };
  const finalBytes = encoder.encode(final);
  let next = 1;
  let done = false;
  const stream = new ReadableStream(
    {
      pull(controller) {
        if (done) return;
        const from = next;
        let len = 0;
        while (next <= count && len < CHUNK_BYTES) {
          len += templateFor(String(next).length).length;
          next++;
        }
        done = next > count;
        const chunk = new Uint8Array(len + (done ? finalBytes.length : 0));
        let at = 0;
        for (let i = from; i < next; i++) {
          const digits = String(i);
          const t = templateFor(digits.length);
          chunk.set(t, at);
          for (let d = 0; d < digits.length; d++) chunk[at + head.length + d] = digits.charCodeAt(d);
          at += t.length;
        }
        if (done) chunk.set(finalBytes, at);
        controller.enqueue(chunk);
        if (done) controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, bytes };
}

function checkFlood(args) {
  const count = Number(args?.count);
  const size = Number(args?.size);
  if (!Number.isInteger(count) || count < 1 || count > MAX_COUNT) return `count must be an integer in 1..${MAX_COUNT}`;
  if (!Number.isInteger(size) || size < MIN_EVENT || size > MAX_SIZE) return `size must be an integer in ${MIN_EVENT}..${MAX_SIZE}`;
  return null;
}

/** Answers one JSON-RPC request (`msg`) whose era-specific checks passed. */
function answer(msg, era, headers) {
  const { id, method, params } = msg;
  const meta = era === MODERN ? { _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO } } : {};
  const ok = (result) => json(200, { jsonrpc: "2.0", id, result: { ...result, ...meta } }, headers);
  switch (method) {
    case "server/discover":
      if (era !== MODERN) return rpcError(404, id, -32601, "Method not found: server/discover", headers);
      return ok({ resultType: "complete", supportedVersions: [MODERN], capabilities: { tools: {} }, ttlMs: 0, cacheScope: "public" });
    case "ping":
      return ok({});
    case "tools/list":
      return ok({ tools: TOOLS, ...(era === MODERN ? { resultType: "complete", ttlMs: 0, cacheScope: "public" } : {}) });
    case "tools/call": {
      const name = params?.name;
      const args = params?.arguments ?? {};
      const extra = era === MODERN ? { resultType: "complete", ...meta } : {};
      if (name === "echo") {
        const result = { ...textResult(String(args.text ?? "")), ...extra };
        return new Response(sseEvent({ jsonrpc: "2.0", id, result }), { status: 200, headers: sseHeaders(headers) });
      }
      if (name === "flood") {
        const problem = checkFlood(args);
        const token = params?._meta?.progressToken;
        if (problem || token === undefined) {
          return ok({ ...textResult(problem ?? "flood needs _meta.progressToken", true), ...extra });
        }
        const { stream } = floodBody(id, token, args.count, args.size, extra);
        return new Response(stream, { status: 200, headers: sseHeaders(headers) });
      }
      return rpcError(200, id, -32602, `Unknown tool: ${name}`, headers);
    }
    default:
      return rpcError(404, id, -32601, `Method not found: ${method}`, headers);
  }
}

/** A fetch-style handler for one server of the given era. */
export function createMcpHandler(era) {
  if (era !== MODERN && !LEGACY_VERSIONS.includes(era)) throw new Error(`unknown era ${era}`);
  const sessions = new Set();
  let sessionSeq = 0;
  return async function handle(request) {
    if (request.method === "GET" || request.method === "DELETE") {
      if (era !== MODERN && request.method === "DELETE") {
        const sid = request.headers.get("mcp-session-id");
        return new Response(null, { status: sessions.delete(sid) ? 200 : 404 });
      }
      return new Response(null, { status: 405, headers: { allow: era === MODERN ? "POST" : "POST, DELETE" } });
    }
    if (request.method !== "POST") return new Response(null, { status: 405 });
    let msg;
    try {
      msg = JSON.parse(await request.text());
    } catch {
      return rpcError(400, null, -32700, "Parse error");
    }
    if (typeof msg !== "object" || msg === null || Array.isArray(msg)) {
      return rpcError(400, null, -32600, "Invalid request");
    }
    const isNotification = msg.id === undefined;
    if (era === MODERN) {
      const version = request.headers.get("mcp-protocol-version");
      if (version !== MODERN) {
        const error = { code: -32022, message: "Unsupported protocol version", data: { supported: [MODERN], requested: version } };
        return json(400, { jsonrpc: "2.0", id: msg.id ?? null, error });
      }
      if (isNotification) return new Response(null, { status: 202 });
      return answer(msg, era, {});
    }
    // 2025 era: sessions.
    if (msg.method === "initialize") {
      const requested = msg.params?.protocolVersion;
      const protocolVersion = LEGACY_VERSIONS.includes(requested) ? requested : era;
      if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.values().next().value);
      const sid = `s${++sessionSeq}-${Math.random().toString(36).slice(2)}`;
      sessions.add(sid);
      const result = { protocolVersion, capabilities: { tools: {} }, serverInfo: SERVER_INFO };
      return json(200, { jsonrpc: "2.0", id: msg.id, result }, { "mcp-session-id": sid });
    }
    const sid = request.headers.get("mcp-session-id");
    if (!sid) return rpcError(400, msg.id, -32600, "Bad Request: Missing session ID");
    if (!sessions.has(sid)) return rpcError(404, msg.id, -32600, "Session not found");
    if (isNotification || msg.method === undefined) return new Response(null, { status: 202 });
    return answer(msg, era, {});
  };
}
