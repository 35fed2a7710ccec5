// A reverse proxy on 127.0.0.1 that counts the requests it has open at once: the server-side
// measure of a Worker's outbound concurrency. Node built-ins only.
//
//   node counting-proxy.mjs '["http://127.0.0.1:P1/mcp", ...]'
// prints {"port": N} as its first stdout line; exits when stdin closes.
//   /u/<i>        forwarded (method, headers, streamed body both ways) to upstream i
//   GET  /_stats  {inFlight, max, total, perUpstreamMax}
//   POST /_reset  zeroes max and total (inFlight stays: it is the truth)
//
// A request counts from its arrival until its response has ended or either side closed.
import http from "node:http";

const upstreams = JSON.parse(process.argv[2] ?? "[]").map((u) => new URL(u));
let inFlight = 0;
let max = 0;
let total = 0;
const perUpstream = upstreams.map(() => ({ inFlight: 0, max: 0 }));

function stats() {
  return { inFlight, max, total, perUpstreamMax: perUpstream.map((p) => p.max) };
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, "http://127.0.0.1");
  if (url.pathname === "/_stats") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(stats()));
    return;
  }
  if (url.pathname === "/_reset" && req.method === "POST") {
    max = inFlight;
    total = 0;
    for (const p of perUpstream) p.max = p.inFlight;
    res.writeHead(204);
    res.end();
    return;
  }
  const m = url.pathname.match(/^\/u\/(\d+)(\/.*)?$/);
  const index = m ? Number(m[1]) : -1;
  const target = upstreams[index];
  if (!target) {
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("no such upstream\n");
    return;
  }
  inFlight += 1;
  total += 1;
  max = Math.max(max, inFlight);
  const mine = perUpstream[index];
  mine.inFlight += 1;
  mine.max = Math.max(mine.max, mine.inFlight);
  let counted = true;
  const done = () => {
    if (!counted) return;
    counted = false;
    inFlight -= 1;
    mine.inFlight -= 1;
  };
  res.on("close", done);
  const headers = { ...req.headers, host: target.host };
  const upstream = http.request(
    { host: target.hostname, port: target.port, method: req.method, path: target.pathname + url.search, headers },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
      up.on("error", () => res.destroy());
    },
  );
  upstream.on("error", () => {
    if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
    res.end("upstream failed\n");
  });
  // The caller going away (a cancelled call) cancels the upstream request too.
  res.on("close", () => upstream.destroy());
  req.pipe(upstream);
});
server.keepAliveTimeout = 2000;
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(JSON.stringify({ port: server.address().port }) + "\n");
});
process.stdin.on("end", () => process.exit(0));
process.stdin.on("close", () => process.exit(0));
process.stdin.resume();
