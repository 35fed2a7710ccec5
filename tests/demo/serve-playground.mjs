// A tiny static file server for the www/ playground (Node built-ins only, 127.0.0.1 only).
// Also answers /servers.json with the default servers given on the command line, so the page
// comes up with them pre-filled (a www/servers.json file, if present, wins).
//
//   node tests/demo/serve-playground.mjs [--port N] [--root DIR]
//        [--server NAME=URL]... [--project-server NAME=URL]... [--protocol NAME=VERSION]... [--no-autoconnect]
//
// Every response carries the page's Content-Security-Policy (the one in index.html's <meta> tag,
// plus frame-ancestors, which only a header can set). A second listener, on another port and so
// another origin, serves the MCP Apps sandbox proxy (www/pkg/mcp-app-sandbox.html and its script);
// its URL is `sandboxUrl` in /servers.json, and the page's policy (header and served <meta>) gains
// `frame-src` for that one origin and nothing else.
//
// Prints the page URL as its first stdout line and the sandbox origin as the second; stops on
// SIGINT/SIGTERM.
import http from "node:http";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const MIME = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".ts": "text/plain; charset=utf-8",
  ".map": "application/json; charset=utf-8",
};

function parseArgs(argv) {
  const opts = { port: 0, root: path.resolve(here, "../../www"), servers: [], protocols: {}, autoConnect: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    const pair = (v) => {
      const at = v.indexOf("=");
      if (at <= 0) throw new Error(`expected NAME=VALUE, got ${v}`);
      return [v.slice(0, at), v.slice(at + 1)];
    };
    if (a === "--port") opts.port = Number(value());
    else if (a === "--root") opts.root = path.resolve(value());
    else if (a === "--server") {
      const [name, url] = pair(value());
      opts.servers.push({ name, url });
    } else if (a === "--project-server") {
      // A server from a project's configuration: the page shows it waiting for approval.
      const [name, url] = pair(value());
      opts.servers.push({ name, url, project: true });
    } else if (a === "--protocol") {
      const [name, version] = pair(value());
      opts.protocols[name] = version;
    } else if (a === "--no-autoconnect") opts.autoConnect = false;
    else throw new Error(`unknown argument ${a}`);
  }
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) throw new Error("--port must be 0..65535");
  for (const s of opts.servers) if (opts.protocols[s.name]) s.protocol = opts.protocols[s.name];
  return opts;
}

let opts;
try {
  opts = parseArgs(process.argv.slice(2));
} catch (e) {
  process.stderr.write(`serve-playground: ${e.message}\n`);
  process.exit(2);
}
// The sandbox proxy's own listener: a different port is a different origin.
const sandbox = http.createServer((req, res) => {
  const name = new URL(req.url, "http://127.0.0.1").pathname.slice(1);
  if (!["mcp-app-sandbox.html", "mcp-app-sandbox.js"].includes(name)) {
    res.writeHead(404, { "content-type": "text/plain" });
    return res.end("not found\n");
  }
  readFile(path.join(opts.root, "pkg", name)).then(
    (body) => {
      // Only the playground may frame the proxy. (The view's document inherits this policy;
      // frame-ancestors does not apply to it.)
      const page = `http://127.0.0.1:${server.address()?.port}`;
      res.writeHead(200, {
        "content-type": MIME[path.extname(name)],
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
        "content-security-policy": `frame-ancestors ${page}`,
      });
      res.end(body);
    },
    () => {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("the package has no sandbox proxy (build www/pkg)\n");
    },
  );
});
await new Promise((resolve) => sandbox.listen(0, "127.0.0.1", resolve));
const sandboxOrigin = `http://127.0.0.1:${sandbox.address().port}`;
const serversJson = JSON.stringify(
  { servers: opts.servers, autoConnect: opts.autoConnect, sandboxUrl: `${sandboxOrigin}/mcp-app-sandbox.html` },
  null,
  2,
);

/** The policy of the page's <meta http-equiv="Content-Security-Policy"> tag, as a header. */
async function pagePolicy(root) {
  let html = "";
  try {
    html = await readFile(path.join(root, "index.html"), "utf8");
  } catch {
    /* no page: the strictest policy */
  }
  const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/i.exec(html);
  return `${withFrames(meta ? meta[1] : "default-src 'none'")}; frame-ancestors 'none'`;
}
/** A policy that may frame the sandbox proxy's origin, and only it. */
const withFrames = (policy) => policy.replace("default-src 'none';", `default-src 'none'; frame-src ${sandboxOrigin};`);
const csp = await pagePolicy(opts.root);

function send(res, status, type, body, method) {
  res.writeHead(status, {
    "content-type": type,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "content-security-policy": csp,
    "referrer-policy": "no-referrer",
  });
  res.end(method === "HEAD" ? undefined : body);
}

async function handle(req, res) {
  if (req.method !== "GET" && req.method !== "HEAD") return send(res, 405, "text/plain", "GET only\n", req.method);
  let pathname;
  try {
    pathname = decodeURIComponent(new URL(req.url, "http://127.0.0.1").pathname);
  } catch {
    return send(res, 400, "text/plain", "bad path\n", req.method);
  }
  if (pathname.endsWith("/")) pathname += "index.html";
  const file = path.resolve(opts.root, `.${pathname}`);
  if (file !== opts.root && !file.startsWith(opts.root + path.sep)) return send(res, 403, "text/plain", "outside the root\n", req.method);
  try {
    const info = await stat(file);
    if (!info.isFile()) throw Object.assign(new Error("not a file"), { code: "ENOENT" });
    let body = await readFile(file);
    if (path.extname(file) === ".html") {
      body = body.toString("utf8").replace(/(<meta\s+http-equiv="Content-Security-Policy"\s+content=")([^"]+)"/i, (_, a, p) => `${a}${withFrames(p)}"`);
    }
    return send(res, 200, MIME[path.extname(file)] ?? "application/octet-stream", body, req.method);
  } catch (e) {
    if (e.code !== "ENOENT" && e.code !== "ENOTDIR") throw e;
    if (pathname === "/servers.json") return send(res, 200, MIME[".json"], serversJson, req.method);
    return send(res, 404, "text/plain", "not found\n", req.method);
  }
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((e) => {
    process.stderr.write(`serve-playground: ${e.stack}\n`);
    if (!res.headersSent) send(res, 500, "text/plain", "internal error\n", req.method);
    else res.destroy();
  });
});
server.listen(opts.port, "127.0.0.1", () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}/\n${sandboxOrigin}\n`);
});
const stop = () => {
  sandbox.close();
  sandbox.closeAllConnections();
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
