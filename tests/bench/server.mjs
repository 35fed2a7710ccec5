// The benchmark's HTTP server (Node built-ins only, 127.0.0.1 only): the MCP handlers of
// mcp-server.mjs at /2026/mcp (a 2026-07-28 server) and /2025/mcp (a 2025-11-25 server), and the
// benchmark page with what it loads, all on one origin (no CORS preflights in the figures).
//
//   const { url, close } = await startServer({ pkgDir, sdkBundle });   // in-process (runner.mjs)
//
// Static routes: / (page.html), /page.mjs, /mcp-server.mjs, /sdk.js (the SDK bundle) and
// /pkg/<path> (the wasm-pack `web` package, snippets included). Response bodies are streamed with backpressure; a
// client that goes away cancels the body.
import http from "node:http";
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createMcpHandler } from "./mcp-server.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const MIME = {
  ".html": "text/html; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
};
const MAX_REQUEST_BYTES = 1 << 20;

function readBody(req) {
  return new Promise((resolve, reject) => {
    const parts = [];
    let size = 0;
    req.on("data", (c) => {
      size += c.length;
      if (size > MAX_REQUEST_BYTES) reject(new Error("request body too large"));
      else parts.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(parts)));
    req.on("error", reject);
  });
}

/** Resolves when `res` can take more data or has closed (listeners removed either way). */
function drained(res) {
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

/** Writes a web `Response` to a node:http response, honouring backpressure and client aborts. */
async function send(res, response) {
  const headers = {};
  response.headers.forEach((v, k) => (headers[k] = v));
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  let gone = false;
  res.on("close", () => {
    if (!res.writableFinished) {
      gone = true;
      reader.cancel().catch(() => {});
    }
  });
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done || gone) break;
      if (!res.write(value)) await drained(res);
    }
  } catch {
    // The client went away mid-body.
  }
  res.end();
}

async function serveFile(res, file) {
  try {
    const body = await readFile(file);
    res.writeHead(200, {
      "content-type": MIME[path.extname(file)] ?? "application/octet-stream",
      "cache-control": "no-store",
      // Cross-origin isolation: performance.now() at 5 µs instead of 100 µs.
      "cross-origin-opener-policy": "same-origin",
      "cross-origin-embedder-policy": "require-corp",
    });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
}

/** Starts the server on a free loopback port; resolves `{ url, close }`. */
export async function startServer({ pkgDir, sdkBundle }) {
  const handlers = { "/2026/mcp": createMcpHandler("2026-07-28"), "/2025/mcp": createMcpHandler("2025-11-25") };
  const files = {
    "/": path.join(here, "page.html"),
    "/page.mjs": path.join(here, "page.mjs"),
    "/mcp-server.mjs": path.join(here, "mcp-server.mjs"),
    "/sdk.js": sdkBundle,
  };
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    const handler = handlers[url.pathname];
    try {
      if (handler) {
        const body = req.method === "POST" ? await readBody(req) : undefined;
        const request = new Request(url, { method: req.method, headers: req.headers, body });
        await send(res, await handler(request));
      } else if (req.method === "GET" && files[url.pathname]) {
        await serveFile(res, files[url.pathname]);
      } else if (req.method === "GET" && /^\/pkg(\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)+$/.test(url.pathname)) {
        await serveFile(res, path.join(pkgDir, url.pathname.slice("/pkg/".length)));
      } else {
        res.writeHead(404);
        res.end();
      }
    } catch (e) {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(e?.message ?? e));
    }
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
