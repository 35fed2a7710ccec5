// Serves tests/edge/webworker/ at / and the wasm package (tests/edge/pkg) at /pkg/ on 127.0.0.1.
// Prints {"port": N} first; exits when stdin closes. Node built-ins only.
import http from "node:http";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const edgeDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const roots = [
  ["/pkg/", path.join(edgeDir, "pkg")],
  ["/", path.join(edgeDir, "webworker")],
];
const types = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm" };

const server = http.createServer(async (req, res) => {
  const pathname = decodeURIComponent(new URL(req.url, "http://127.0.0.1").pathname);
  const [prefix, dir] = roots.find(([p]) => pathname.startsWith(p));
  const file = path.resolve(dir, `./${pathname.slice(prefix.length) || "index.html"}`);
  if (!file.startsWith(dir + path.sep)) {
    res.writeHead(403).end();
    return;
  }
  try {
    const body = await readFile(file);
    res.writeHead(200, { "content-type": types[path.extname(file)] ?? "application/octet-stream", "cache-control": "no-store" });
    res.end(body);
  } catch {
    res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
  }
});
server.listen(0, "127.0.0.1", () => process.stdout.write(JSON.stringify({ port: server.address().port }) + "\n"));
process.stdin.on("end", () => process.exit(0));
process.stdin.on("close", () => process.exit(0));
process.stdin.resume();
