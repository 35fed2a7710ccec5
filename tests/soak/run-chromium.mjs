// The fault-injection soak in headless Chromium: the same calls as run-node.mjs, made by McpPool
// (the `web` package, www/pkg) inside a page, through the same kind of proxies (which answer
// CORS). Debian's Chromium through playwright-core (tests/browser/node_modules). Start the
// servers first (tests/soak/run.sh does it all). The flap phase (soak.mjs `flap`) runs in the page
// too, switching the proxies' outages through a function exposed to it (`soakOutage`):
//
//   node tests/soak/run-chromium.mjs --py http://127.0.0.1:P/mcp --everything http://127.0.0.1:Q/mcp --tasks http://127.0.0.1:R/mcp \
//        [--calls 200] [--seed 1] [--concurrency 8] [--out report.json]
import http from "node:http";
import { createRequire } from "node:module";
import { readFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { args, CLIENT, HANG_AFTER_MS, startProxies, conclude } from "./harness.mjs";
import { servers, poolConfig, plan } from "./soak.mjs";

const opts = args({ py: "", everything: "", tasks: "", calls: 200, seed: 1, concurrency: 8, out: "" });
if (!opts.py || !opts.everything || !opts.tasks) {
  console.error("--py, --everything and --tasks are required (see the header of this file)");
  process.exit(2);
}
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const require = createRequire(import.meta.url);
const { chromium } = require(path.join(root, "tests/browser/node_modules/playwright-core"));

// The page and the files it imports, from 127.0.0.1 (another origin than the proxies).
const PAGE = `<!doctype html><meta charset="utf-8"><title>mcp-edge soak</title>
<script type="module">
  import init, { McpPool } from "/www/pkg/mcp_edge.js";
  window.wasm = await init();
  window.McpPool = McpPool;
  window.soak = await import("/tests/soak/soak.mjs");
  document.body.dataset.ready = "true";
</script><body>`;
// The web package (with its snippets/) and the soak module; nothing else.
const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm" };
const pageServer = http.createServer(async (req, res) => {
  const p = path.posix.normalize(new URL(req.url, "http://x").pathname);
  if (p === "/") {
    res.writeHead(200, { "content-type": "text/html" });
    return res.end(PAGE);
  }
  const type = TYPES[path.extname(p)];
  if (!type || !(p.startsWith("/www/pkg/") || p === "/tests/soak/soak.mjs")) {
    res.writeHead(404);
    return res.end();
  }
  try {
    const body = await readFile(path.join(root, p));
    res.writeHead(200, { "content-type": type });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
});
await new Promise((r) => pageServer.listen(0, "127.0.0.1", r));
const pageUrl = `http://127.0.0.1:${pageServer.address().port}/`;

const proxies = await startProxies({ py: opts.py, everything: opts.everything, tasks: opts.tasks, seed: opts.seed, handshakeFaults: false });
const all = servers(proxies.urls);
const userDataDir = await mkdtemp(path.join(tmpdir(), "mcp-edge-soak-"));
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic",
    "--enable-precise-memory-info", "--js-flags=--expose-gc",
  ],
});
let ok = false;
try {
  const page = await context.newPage();
  page.on("pageerror", (e) => console.log(`   page error: ${e.message}`));
  await page.goto(pageUrl);
  await page.waitForFunction(() => document.body?.dataset.ready === "true", null, { timeout: 30_000 });
  const status = await page.evaluate(async ({ config, client }) => {
    // Server state changes, for the flap phase's figures.
    window.poolEvents = [];
    const onEvent = (e) => e.type === "state" && window.poolEvents.push({ ...e, at: Date.now() });
    window.pool = new window.McpPool(config, { ...client, onEvent });
    return window.pool.connectAll();
  }, { config: poolConfig(all), client: CLIENT });
  const down = status.servers.filter((s) => s.state !== "connected");
  if (down.length) throw new Error(`servers down before faults start: ${JSON.stringify(down)}`);
  const memory = () => page.evaluate(() => {
    window.gc?.();
    return { "JS heap": performance.memory?.usedJSHeapSize ?? 0, "wasm linear memory": window.wasm.memory.buffer.byteLength };
  });
  await page.evaluate(async () => {
    for (const s of ["py26", "py25"]) await window.pool.call(`mcp__${s}__count_idempotent`, { key: `warmup-${s}-${Date.now()}` });
    await window.pool.call("mcp__everything__echo", { message: "warmup" });
  });
  const before = await memory();
  await proxies.setFaults(true);
  const runId = `soak-chromium-${opts.seed}-${Date.now()}`;
  const calls = plan({ calls: opts.calls, seed: opts.seed, runId, all });
  const started = Date.now();
  // A tenth of the calls at a time, with the page's memory after each (flat, or growing?).
  const outcomes = [];
  const samples = [];
  const tenth = Math.max(1, Math.ceil(calls.length / 10));
  for (let from = 0; from < calls.length; from += tenth) {
    const part = await page.evaluate(
      ({ calls, concurrency, hangAfterMs }) => window.soak.runCalls({ pool: window.pool, calls, concurrency, hangAfterMs }),
      { calls: calls.slice(from, from + tenth).map((c, i) => ({ ...c, i })), concurrency: opts.concurrency, hangAfterMs: HANG_AFTER_MS },
    );
    outcomes.push(...part);
    const m = await memory();
    samples.push({ done: outcomes.length, ...m });
    const mib = (n) => (n / (1 << 20)).toFixed(1);
    console.log(
      `   ${outcomes.length}/${calls.length} calls settled (${((Date.now() - started) / 1000).toFixed(0)} s); ` +
        `JS heap ${mib(m["JS heap"])} MiB, wasm ${mib(m["wasm linear memory"])} MiB`,
    );
  }
  const ms = Date.now() - started;
  await page.exposeFunction("soakOutage", (server, on) => proxies.setOutage(server, on));
  const flap = () =>
    page.evaluate(
      async ({ all, hangAfterMs, tag }) => {
        const from = window.poolEvents.length;
        const f = await window.soak.flap({ pool: window.pool, all, setOutage: window.soakOutage, hangAfterMs, tag });
        return { ...f, poolEvents: window.poolEvents.slice(from) };
      },
      { all, hangAfterMs: HANG_AFTER_MS, tag: `flap-chromium-${runId}` },
    );
  ok = await conclude({ name: "chromium", opts, runId, calls, outcomes, ms, before, memory, proxies, extra: { samples }, flap });
  await page.evaluate(() => window.pool.close());
} catch (e) {
  console.log(`check FAILED: soak (chromium) ran: ${e?.message ?? e}`);
} finally {
  await context.close();
  await rm(userDataDir, { recursive: true, force: true });
  await proxies.close();
  await new Promise((r) => pageServer.close(r));
}
process.exit(ok ? 0 : 1);
