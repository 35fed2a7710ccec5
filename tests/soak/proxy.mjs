// A loopback fault-injection proxy between an MCP client and one real MCP server (Node built-ins
// only). It forwards every request and, on a seeded schedule, breaks what passes through:
//
//   reset        the response breaks off: before its head (the request did reach the server), or
//                in the middle of its body (before, or half-way through, the JSON-RPC response)
//   endEarly     the response ends cleanly without its JSON-RPC response (an empty JSON body)
//   stall        the response stops (before its head, or before the JSON-RPC response) for longer
//                than the client waits
//   throttle     429 or 503 with Retry-After (seconds, or an HTTP-date with a Date header), without
//                forwarding: the server never sees the request
//   session404   2025 era: the session is ended at the server (DELETE) and the request answered 404
//   garbage      event-stream bodies get events that are not JSON-RPC (bad JSON, invalid UTF-8,
//                unknown event types, comments, empty ids) between the real ones
//   oversized    an event larger than the client's limit before the JSON-RPC response
//
// Every body is also re-chunked at random (pieces of 1 byte to 4 KiB, some after a pause). The
// handshake (initialize, notifications/initialized, server/discover) passes untouched unless
// `handshakeFaults` is set: a client whose connect fails stays down until the pool can reconnect.
// Faults start switched off (`setFaults(true)`); CORS is answered here so a browser page can use it.
//
// `setOutage(true)` plays a server that went away: every open connection is destroyed, and so is
// every new one and every request (the handshake and CORS preflights included), without a
// response, until `setOutage(false)`. `stats.outage` counts what it destroyed.
import http from "node:http";
import { prng } from "./soak.mjs";

/** The fault weights per request (the rest is forwarded intact, re-chunked). */
export const DEFAULT_WEIGHTS = {
  reset: 0.07,
  endEarly: 0.05,
  stall: 0.03,
  throttle: 0.08,
  session404: 0.03,
  garbage: 0.08,
  oversized: 0.03,
};

const HANDSHAKE = new Set(["initialize", "notifications/initialized", "server/discover"]);
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "host", "te", "upgrade"]);
const MAX_BODY = 16 << 20;

function cors(req) {
  const origin = req.headers.origin;
  if (!origin) return {};
  return {
    "access-control-allow-origin": origin,
    "access-control-expose-headers": "mcp-session-id, mcp-protocol-version, www-authenticate, retry-after, date",
    vary: "Origin",
  };
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const parts = [];
    let size = 0;
    req.on("data", (c) => {
      size += c.length;
      if (size > MAX_BODY) req.destroy(new Error("request body too large"));
      else parts.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(parts)));
    req.on("error", reject);
  });
}

/** The JSON-RPC message of a POST body, or null. */
function message(body) {
  try {
    const m = JSON.parse(body.toString("utf8"));
    return m && typeof m === "object" && !Array.isArray(m) ? m : null;
  } catch {
    return null;
  }
}

/** Whether an SSE event (its raw text) carries a JSON-RPC response (not a request/notification). */
function isResponseEvent(text) {
  const data = text
    .split(/\r\n|\r|\n/)
    .filter((l) => l.startsWith("data:"))
    .map((l) => l.slice(5).replace(/^ /, ""))
    .join("\n");
  const m = message(Buffer.from(data));
  return m !== null && "id" in m && !("method" in m) && ("result" in m || "error" in m);
}

/** Splits event-stream text into complete events (each with its blank line) and the rest. */
function splitEvents(text) {
  const events = [];
  const boundary = /(\r\n|\r|\n)(\r\n|\r|\n)/g;
  let from = 0;
  let m;
  while ((m = boundary.exec(text)) !== null) {
    // A lone "\r" at the end may be the first half of "\r\n": wait for more.
    if (m.index + m[0].length === text.length && m[0].endsWith("\r")) break;
    events.push(text.slice(from, m.index + m[0].length));
    from = m.index + m[0].length;
  }
  return { events, rest: text.slice(from) };
}

const GARBAGE = [
  Buffer.from("data: {not json at all\n\n"),
  Buffer.from([0x64, 0x61, 0x74, 0x61, 0x3a, 0x20, 0xff, 0xfe, 0x80, 0x0a, 0x0a]), // data: <invalid UTF-8>
  Buffer.from("event: bogus\ndata: 42\n\n"),
  Buffer.from(": a comment the client must skip\n\n"),
  Buffer.from('data: {"jsonrpc":"2.0","method":"notifications/unknown","params":{}}\n\n'),
  Buffer.from("id:\ndata:\n\n"),
  Buffer.from('data: {"jsonrpc":"2.0","id":987654321,"result":{}}\n\n'),
];

/**
 * Starts a proxy on 127.0.0.1 for `upstream` (an http://127.0.0.1:PORT/path URL). Requests to
 * `/mcp` here go to the upstream path. Returns {url, stats, setFaults(on), setOutage(on), close()}.
 */
export async function startProxy({ upstream, seed, maxEventBytes = 65536, stallMs = 4000, weights = DEFAULT_WEIGHTS, handshakeFaults = false }) {
  const target = new URL(upstream);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const pick = prng(seed);
  // Per `arguments.key` of tools/call requests: the JSON-RPC ids received (`received`, whatever
  // became of them) and forwarded to the server (`calls`), to tell a client's re-issue (a new id)
  // from a transport's own resend (the same request again).
  const stats = { requests: 0, forwarded: 0, faults: {}, calls: {}, received: {}, outage: 0 };
  let faultsOn = false;
  let outage = false;
  const sockets = new Set();
  let index = 0;
  const open = new Set();

  const chooseFault = (msg, req) => {
    if (!faultsOn) return "none";
    const isRequest = msg && typeof msg.method === "string" && "id" in msg;
    if (msg && HANDSHAKE.has(msg.method) && !handshakeFaults) return "none";
    let r = pick();
    for (const [name, w] of Object.entries(weights)) {
      if (r < w) {
        // Faults that need a request body only apply to requests; session404 only to sessions.
        if (name === "session404" && !(isRequest && req.headers["mcp-session-id"])) return "none";
        if (req.method === "POST" && !isRequest && name !== "throttle") return "none";
        return name;
      }
      r -= w;
    }
    return "none";
  };

  const server = http.createServer(async (req, res) => {
    if (outage) {
      stats.outage += 1;
      return req.socket.destroy();
    }
    open.add(res);
    res.on("close", () => open.delete(res));
    try {
      await handle(req, res);
    } catch (e) {
      // An upstream response cut off because the client left is expected; anything else is not.
      if (e?.message !== "aborted" && e?.code !== "ECONNRESET") process.stderr.write(`soak proxy: ${e?.stack ?? e}\n`);
      res.destroy();
    }
  });

  async function handle(req, res) {
    const extra = cors(req);
    if (req.method === "OPTIONS") {
      res.writeHead(204, {
        ...extra,
        "access-control-allow-methods": "GET, POST, DELETE",
        "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "*",
        "access-control-max-age": "600",
      });
      res.end();
      return;
    }
    stats.requests += 1;
    const n = index++;
    const rand = prng((seed ^ Math.imul(n + 1, 0x9e3779b1)) >>> 0);
    const body = await readBody(req);
    const msg = req.method === "POST" ? message(body) : null;
    const fault = chooseFault(msg, req);
    const key = msg?.method === "tools/call" ? msg.params?.arguments?.key ?? msg.params?.arguments?.message : undefined;
    if (typeof key === "string") (stats.received[key] ??= []).push(msg.id);
    stats.faults[fault] = (stats.faults[fault] ?? 0) + 1;
    const url = new URL(req.url, "http://x");
    const path = target.pathname + url.search;

    if (fault === "throttle") {
      const status = rand() < 0.5 ? 429 : 503;
      const headers = { "content-type": "text/plain", ...extra };
      if (rand() < 0.5) {
        headers["retry-after"] = String(Math.floor(rand() * 2));
      } else {
        const now = Date.now();
        headers["retry-after"] = new Date(now + 1000).toUTCString();
        headers.date = new Date(now).toUTCString();
      }
      res.writeHead(status, headers);
      res.end(status === 429 ? "rate limited (soak proxy)" : "overloaded (soak proxy)");
      return;
    }

    const headers = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (!HOP_BY_HOP.has(k) && k !== "origin") headers[k] = v;
    }
    headers.host = target.host;

    if (fault === "session404") {
      await forward("DELETE", headers, null).then((r) => r.resume()).catch(() => {});
      res.writeHead(404, { "content-type": "application/json", ...extra });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found (soak proxy)" } }));
      return;
    }

    function forward(method, h, payload) {
      return new Promise((resolve, reject) => {
        const up = http.request(
          { host: target.hostname, port: target.port, path, method, headers: payload ? { ...h, "content-length": payload.length } : h, agent },
          resolve,
        );
        up.on("error", reject);
        // The client went away first: the server sees its connection close too.
        res.on("close", () => {
          if (!res.writableFinished) up.destroy();
        });
        if (payload) up.end(payload);
        else up.end();
      });
    }

    let upRes;
    try {
      upRes = await forward(req.method, headers, body.length ? body : null);
    } catch {
      res.destroy();
      return;
    }
    stats.forwarded += 1;
    if (typeof key === "string") (stats.calls[key] ??= []).push(msg.id);
    if (res.destroyed) {
      upRes.destroy();
      return;
    }
    // Breaks before the head: the server got the request, the client sees a network error.
    if (fault === "reset" && rand() < 0.3) {
      upRes.destroy();
      res.socket?.destroy();
      return;
    }
    if (fault === "stall" && rand() < 0.5) {
      await sleep(stallMs);
      upRes.destroy();
      res.destroy();
      return;
    }
    const outHeaders = { ...extra };
    for (const [k, v] of Object.entries(upRes.headers)) {
      if (!HOP_BY_HOP.has(k) && !k.startsWith("access-control-") && k !== "vary") outHeaders[k] = v;
    }
    res.writeHead(upRes.statusCode ?? 502, outHeaders);
    const sse = String(upRes.headers["content-type"] ?? "").includes("text/event-stream");
    const write = (buf) => rechunk(res, buf, rand);

    if (!sse) {
      const whole = await collect(upRes);
      if (fault === "endEarly" && upRes.statusCode === 200) return res.end();
      if ((fault === "reset" || fault === "stall") && whole.length > 1) {
        await write(whole.subarray(0, 1 + Math.floor(rand() * (whole.length - 1))));
        if (fault === "stall") await sleep(stallMs);
        return res.destroy();
      }
      await write(whole);
      return res.end();
    }

    // Event stream: relay event by event, applying the fault around the JSON-RPC response.
    let pending = "";
    let events = 0;
    for await (const chunk of upRes) {
      const { events: complete, rest } = splitEvents(pending + chunk.toString("latin1"));
      pending = rest;
      for (const text of complete) {
        const buf = Buffer.from(text, "latin1");
        if (res.destroyed) return upRes.destroy();
        if (fault === "garbage" && rand() < 0.7) await write(GARBAGE[Math.floor(rand() * GARBAGE.length)]);
        const response = isResponseEvent(buf.toString("utf8"));
        if (response || (req.method === "GET" && events >= 2)) {
          if (fault === "oversized" && response) {
            await write(Buffer.from(`data: ${"x".repeat(maxEventBytes + 100)}\n\n`));
          }
          if (fault === "endEarly") {
            upRes.destroy();
            return res.end();
          }
          if (fault === "reset") {
            if (rand() < 0.5) await write(buf.subarray(0, Math.floor(rand() * buf.length)));
            upRes.destroy();
            return res.socket?.destroy();
          }
          if (fault === "stall") {
            await sleep(stallMs);
            upRes.destroy();
            return res.destroy();
          }
        }
        await write(buf);
        events += 1;
      }
    }
    if (pending) await write(Buffer.from(pending, "latin1"));
    res.end();
  }

  server.on("connection", (socket) => {
    if (outage) {
      stats.outage += 1;
      return socket.destroy();
    }
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.keepAliveTimeout = 5000;
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stats,
    setFaults(on) {
      faultsOn = Boolean(on);
    },
    setOutage(on) {
      outage = Boolean(on);
      if (outage) for (const socket of sockets) socket.destroy();
    },
    async close() {
      for (const res of open) res.destroy();
      await new Promise((resolve) => server.close(resolve));
      agent.destroy();
    },
  };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function collect(stream) {
  return new Promise((resolve, reject) => {
    const parts = [];
    stream.on("data", (c) => parts.push(c));
    stream.on("end", () => resolve(Buffer.concat(parts)));
    stream.on("error", reject);
    stream.on("aborted", () => reject(new Error("upstream aborted")));
  });
}

/** Resolves when `res` drained or closed (and leaves no listener behind). */
function writable(res) {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/** Writes `buf` in random pieces (1 byte to 4 KiB), pausing now and then. */
async function rechunk(res, buf, rand) {
  let from = 0;
  while (from < buf.length && !res.destroyed) {
    const size = rand() < 0.3 ? 1 + Math.floor(rand() * 16) : 1 + Math.floor(rand() * 4096);
    const piece = buf.subarray(from, Math.min(buf.length, from + size));
    from += piece.length;
    if (!res.write(piece)) await writable(res);
    if (rand() < 0.05) await sleep(1 + Math.floor(rand() * 5));
  }
}
