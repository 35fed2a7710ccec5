// The tool-search benchmark's driver (run it through run.sh, which builds and starts what it needs):
//
//   node bench.mjs --catalog URL --queries FILE --nodejs-pkg DIR --web-pkg DIR --native FILE --out DIR
//                  [--server name=URL ...] [--rounds N] [--repeats N]
//
// --catalog is catalog-server.mjs's base URL (every catalog server at <URL>/<server>/mcp);
// --server adds a real server (the test servers run.sh starts); --native is the JSON line
// `cargo bench --bench tool_search` printed. Runs measure.mjs `rounds` times in Node (the nodejs
// package) and in headless Chromium (the web package, a cross-origin isolated page so timers are
// precise), then writes <out>/report.md (medians over the rounds) and <out>/results.json, and prints
// the report.
import { chromium } from "playwright-core";
import http from "node:http";
import { createRequire } from "node:module";
import { readFile, writeFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { catalog } from "./catalog.mjs";
import { measure } from "./measure.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));

function parseArgs(argv) {
  const o = { servers: [], rounds: 3, repeats: 20 };
  for (let i = 0; i < argv.length; i += 2) {
    const [k, v] = [argv[i].replace(/^--/, ""), argv[i + 1]];
    if (v === undefined) throw new Error(`--${k} needs a value`);
    if (k === "server") o.servers.push(v.split(/=(.*)/s).slice(0, 2));
    else if (k === "rounds" || k === "repeats") o[k] = Number(v);
    else o[k] = v;
  }
  for (const k of ["catalog", "queries", "nodejs-pkg", "web-pkg", "native", "out"]) if (!o[k]) throw new Error(`--${k} is required`);
  return o;
}

const opts = parseArgs(process.argv.slice(2));
const queries = JSON.parse(await readFile(opts.queries, "utf8"));
const mcpServers = {};
for (const server of Object.keys(catalog())) mcpServers[server] = { url: `${opts.catalog}/${server}/mcp`, protocol: "2025-11-25" };
for (const [name, url] of opts.servers) mcpServers[name] = { url };
const config = { mcpServers };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function inNode() {
  const require = createRequire(import.meta.url);
  const Instance = WebAssembly.Instance;
  let instance = null;
  WebAssembly.Instance = function (...a) {
    instance = new Instance(...a);
    return instance;
  };
  const { McpPool } = require(path.resolve(opts["nodejs-pkg"], "mcp_edge.js"));
  WebAssembly.Instance = Instance;
  const memory = () => instance?.exports.memory.buffer.byteLength ?? 0;
  const rounds = [];
  for (let r = 0; r < opts.rounds; r++) rounds.push(await measure({ McpPool, config, queries, repeats: opts.repeats, memory }));
  return rounds;
}

/** Serves the page, measure.mjs, queries and the web package, cross-origin isolated. */
async function servePage() {
  const pkg = path.resolve(opts["web-pkg"]);
  const types = { ".html": "text/html", ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };
  const page = `<!doctype html><meta charset="utf-8"><title>tool search</title><script type="module">
import init, { McpPool } from "/pkg/mcp_edge.js";
import { measure } from "/measure.mjs";
const wasm = await init();
window.run = (config, queries, repeats) => measure({ McpPool, config, queries, repeats, memory: () => wasm.memory.buffer.byteLength });
window.ready = true;
</script>`;
  const server = http.createServer(async (req, res) => {
    const isolation = { "cross-origin-opener-policy": "same-origin", "cross-origin-embedder-policy": "require-corp" };
    const url = new URL(req.url, "http://x");
    try {
      let body;
      let file = url.pathname;
      if (file === "/") body = page, file = "/index.html";
      else if (file === "/measure.mjs") body = await readFile(path.join(here, "measure.mjs"));
      else if (file.startsWith("/pkg/") && !file.includes("..")) body = await readFile(path.join(pkg, file.slice(5)));
      else throw new Error("not found");
      res.writeHead(200, { "content-type": types[path.extname(file)] ?? "application/octet-stream", ...isolation }).end(body);
    } catch {
      res.writeHead(404, isolation).end();
    }
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

async function inChromium() {
  const site = await servePage();
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--disable-background-networking"],
  });
  try {
    const page = await (await browser.newContext()).newPage();
    page.on("pageerror", (e) => console.error(`page error: ${e.message}`));
    await page.goto(site.url);
    await page.waitForFunction(() => window.ready === true, null, { timeout: 60_000 });
    if (!(await page.evaluate(() => crossOriginIsolated))) throw new Error("the page is not cross-origin isolated: coarse timers");
    const rounds = [];
    for (let r = 0; r < opts.rounds; r++) rounds.push(await page.evaluate(([c, q, n]) => window.run(c, q, n), [config, queries, opts.repeats]));
    return rounds;
  } finally {
    await browser.close();
    site.server.close();
  }
}

const native = JSON.parse((await readFile(opts.native, "utf8")).trim().split("\n").pop());
const node = await inNode();
const browser = await inChromium();
for (const [where, rounds] of [["Node", node], ["Chromium", browser]]) {
  const down = rounds.flatMap((r) => r.down);
  if (down.length) throw new Error(`${where}: servers did not connect: ${down.join(", ")}`);
}

const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
const row = (where, rounds) => {
  const m = (f) => median(rounds.map(f));
  // Memory: the first round's (later rounds reuse what the first one grew).
  const mem = rounds[0].wasmBytes;
  return `| ${where} | ${rounds[0].tools} | ${m((r) => r.connectMs).toFixed(0)} ms | ${m((r) => r.queryUs.p50).toFixed(0)} µs | ${m((r) => r.queryUs.p99).toFixed(0)} µs | ${kib(mem.before)} → ${kib(mem.after)} | ${rounds[0].recallAt5.toFixed(3)} | ${rounds[0].hitAt1.toFixed(3)} |`;
};
const tokenRows = Object.entries(native.tokens).map(([f, t]) => `| ${f} | ${t.all.toLocaleString("en")} | ${t.upfront.toLocaleString("en")} | ${(t.all / t.upfront).toFixed(0)}× |`);
const report = `# Tool search over ${native.tools.toLocaleString("en")} generated tools (${native.servers} servers) plus the real test servers

Load average: ${native.loadAverage}. Medians over ${opts.rounds} rounds (JS) and ${native.rounds} (native); query latency over ${queries.length} queries × ${opts.repeats}.

| where | tools | connect all (list + index) | query p50 | query p99 | wasm linear memory, before → connected | recall@5 | hit@1 |
|---|---|---|---|---|---|---|---|
${row("Node (nodejs package)", node)}
${row("Chromium (web package)", browser)}
| native (release) | ${native.tools} | registry ${native.registryBuildMs.toFixed(1)} ms, index alone ${native.indexBuildMs.toFixed(1)} ms, one server replaced ${native.replaceOneServerMs.toFixed(1)} ms | ${native.queryUs.p50.toFixed(0)} µs | ${native.queryUs.p99.toFixed(0)} µs | — | ${native.recallAt5.toFixed(3)} | ${native.hitAt1.toFixed(3)} |

Estimated tokens of the \`tools\` array of one request (generated catalog only, native figures; ceil(chars/4)). With
deferral the model reads only the search tool up front (and, in the native Anthropic and OpenAI
shapes, the API keeps the deferred definitions, which the request still carries, out of the prompt):

| format | every definition | deferred (default settings) | ratio |
|---|---|---|---|
${tokenRows.join("\n")}
`;
await mkdir(opts.out, { recursive: true });
await writeFile(path.join(opts.out, "report.md"), report);
await writeFile(path.join(opts.out, "results.json"), JSON.stringify({ native, node, chromium: browser }, null, 2));
console.log(report);
