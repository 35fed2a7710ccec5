// The soak's proxies in a process of their own, so that the runner's memory figures are the
// client's alone. One proxy per server (py26 and py25 in front of the same Python server,
// everything in front of server-everything), each with its own fault schedule from the seed:
//
//   node tests/soak/proxies.mjs --py URL --everything URL --tasks URL --seed N --max-event-bytes B --stall-ms MS \
//        [--handshake-faults 1]
//
// Prints {"urls": {...}, "control": "http://127.0.0.1:P"} as its first stdout line; exits when
// stdin closes. Control: POST /faults?on=1|0 (every proxy), POST /outage?server=NAME&on=1|0 (that
// proxy destroys every connection and request while on: its server is gone), GET /stats (fault
// counts and, per call key, the JSON-RPC ids forwarded).
import http from "node:http";
import { startProxy } from "./proxy.mjs";

const opts = { py: "", everything: "", tasks: "", seed: 1, "max-event-bytes": 65536, "stall-ms": 4000, "handshake-faults": 0 };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) opts[argv[i].replace(/^--/, "")] = argv[i + 1];
const seed = Number(opts.seed);
const common = {
  maxEventBytes: Number(opts["max-event-bytes"]),
  stallMs: Number(opts["stall-ms"]),
  handshakeFaults: Number(opts["handshake-faults"]) === 1,
};
const proxies = {
  py26: await startProxy({ upstream: opts.py, seed: seed * 3 + 1, ...common }),
  py25: await startProxy({ upstream: opts.py, seed: seed * 3 + 2, ...common }),
  everything: await startProxy({ upstream: opts.everything, seed: seed * 3 + 3, ...common }),
  tasks26: await startProxy({ upstream: opts.tasks, seed: seed * 3 + 4, ...common }),
};

const control = http.createServer((req, res) => {
  const url = new URL(req.url, "http://x");
  if (req.method === "POST" && url.pathname === "/faults") {
    for (const p of Object.values(proxies)) p.setFaults(url.searchParams.get("on") === "1");
    res.writeHead(204);
    return res.end();
  }
  if (req.method === "POST" && url.pathname === "/outage") {
    const proxy = proxies[url.searchParams.get("server")];
    if (!proxy) {
      res.writeHead(404);
      return res.end();
    }
    proxy.setOutage(url.searchParams.get("on") === "1");
    res.writeHead(204);
    return res.end();
  }
  if (req.method === "GET" && url.pathname === "/stats") {
    res.writeHead(200, { "content-type": "application/json" });
    return res.end(JSON.stringify(Object.fromEntries(Object.entries(proxies).map(([k, p]) => [k, p.stats]))));
  }
  res.writeHead(404);
  res.end();
});
await new Promise((r) => control.listen(0, "127.0.0.1", r));
process.stdout.write(
  JSON.stringify({
    urls: Object.fromEntries(Object.entries(proxies).map(([k, p]) => [k, p.url])),
    control: `http://127.0.0.1:${control.address().port}`,
  }) + "\n",
);
const quit = async () => {
  await Promise.all(Object.values(proxies).map((p) => p.close()));
  process.exit(0);
};
process.stdin.on("end", quit);
process.stdin.on("close", quit);
process.stdin.resume();
