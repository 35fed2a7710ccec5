// Drives the side-by-side benchmark (run it through run.sh, which builds what this needs):
//
//   node runner.mjs --pkg DIR --full-pkg DIR --sdk-bundle FILE --out DIR [--smoke] [--rounds N] [--stream-mb N] [--hog]
//
// --pkg is the package the page runs (the client build), --full-pkg the full build (pool,
// adapters, validator), measured for size only.
//
// Starts server.mjs on loopback, opens the benchmark page in Debian's Chromium (playwright-core,
// never a downloaded browser) and measures both clients in the same page against the same
// servers: for each round, era and measurement, the two clients run back to back and the one that
// goes first alternates; the echo measurements then run a third time with bare `fetch` and no
// client, their floor. Reports medians over the rounds as Markdown tables (with the machine's
// load average) in <out>/report.md, the raw samples in <out>/results.json, and prints the table.
// --smoke: tiny sizes, one round (the run-all.sh stage that keeps the benchmark from rotting).
// --hog: a busy-loop process keeps one core busy for the whole run (CPU shared as in an edge
// isolate); the report says so.
import { chromium } from "playwright-core";
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startServer } from "./server.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const CLIENTS = ["edge", "sdk"];
const NAMES = { edge: "mcp-edge", sdk: "SDK" };
const ERAS = ["2026-07-28", "2025-11-25"];
const KB = 1024;
const MB = 1e6;

function parseArgs(argv) {
  const opts = { smoke: false, rounds: null, streamMb: null, hog: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === "--smoke") opts.smoke = true;
    else if (a === "--hog") opts.hog = true;
    else if (a === "--rounds") opts.rounds = Number(value());
    else if (a === "--stream-mb") opts.streamMb = Number(value());
    else if (a === "--pkg") opts.pkg = path.resolve(value());
    else if (a === "--full-pkg") opts.fullPkg = path.resolve(value());
    else if (a === "--sdk-bundle") opts.sdkBundle = path.resolve(value());
    else if (a === "--out") opts.out = path.resolve(value());
    else throw new Error(`unknown argument ${a}`);
  }
  for (const k of ["pkg", "fullPkg", "sdkBundle", "out"]) if (!opts[k]) throw new Error(`--${k} is required (run run.sh)`);
  return opts;
}

const opts = parseArgs(process.argv.slice(2));
const PLAN = opts.smoke
  ? { rounds: 1, streamBytes: 256 * KB, echoCalls: 20, echoWarmup: 2, burstCalls: 64, memoryBytes: 2 * MB }
  : { rounds: 5, streamBytes: 64 * MB, echoCalls: 300, echoWarmup: 20, burstCalls: 1000, memoryBytes: 200 * MB };
if (opts.rounds) PLAN.rounds = opts.rounds;
if (opts.streamMb) PLAN.streamBytes = opts.streamMb * MB;
if (!(PLAN.rounds >= 1)) throw new Error("--rounds must be at least 1");

const loadavg = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const gzipSize = (file) => execFileSync("gzip", ["-9", "-c", file], { maxBuffer: 64 << 20 }).length;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const log = (...a) => console.error("[bench]", ...a);

const FLAGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic",
  "--enable-precise-memory-info", "--js-flags=--expose-gc",
];

/** A fresh browser context with the page loaded; `cdp` samples the JS heap from outside. */
async function openPage(browser, url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable");
  return { context, page, cdp, errors };
}

async function cdpHeap(cdp) {
  const { metrics } = await cdp.send("Performance.getMetrics");
  return metrics.find((m) => m.name === "JSHeapUsedSize")?.value ?? 0;
}

async function main() {
  const startedAt = new Date().toISOString();
  const loadBefore = loadavg();
  mkdirSync(opts.out, { recursive: true });
  // What a page loads of a package: the module and every JS file (glue and snippets).
  const shippedOf = (dir) => {
    const shipped = readdirSync(dir, { recursive: true })
      .filter((f) => f === "mcp_edge_bg.wasm" || f.endsWith(".js"))
      .map((f) => path.join(dir, f));
    return {
      files: shipped.map((f) => path.relative(dir, f)),
      raw: shipped.reduce((n, f) => n + readFileSync(f).length, 0),
      gz: shipped.reduce((n, f) => n + gzipSize(f), 0),
    };
  };
  const sizes = {
    edge: shippedOf(opts.pkg),
    edgeFull: shippedOf(opts.fullPkg),
    sdk: { raw: readFileSync(opts.sdkBundle).length, gz: gzipSize(opts.sdkBundle) },
  };
  const sdkVersion = JSON.parse(readFileSync(path.join(here, "node_modules/@modelcontextprotocol/client/package.json"), "utf8")).version;

  // The CPU hog: one process spinning for the whole run, stopped with it.
  const hog = opts.hog ? spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }) : null;
  if (hog) {
    process.on("exit", () => hog.kill("SIGKILL"));
    log(`CPU hog running (pid ${hog.pid})`);
  }
  const server = await startServer({ pkgDir: opts.pkg, sdkBundle: opts.sdkBundle });
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: FLAGS });
  const samples = {};
  const record = (key, client, value) => ((samples[key] ??= { edge: [], sdk: [], fetch: [] })[client].push(value));
  let shared = null;
  try {
    shared = await openPage(browser, server.url);
    const info = await shared.page.evaluate(() => window.bench.info());
    if (!info.preciseMemory || !info.gc) throw new Error(`page lacks precise memory info or gc(): ${JSON.stringify(info)}`);
    if (!info.isolated) throw new Error("page is not cross-origin isolated (coarse timers)");
    log(`Chromium ${browser.version()}, SDK ${sdkVersion}, server ${server.url}, plan ${JSON.stringify(PLAN)}`);

    // Each measurement: [key, page function, argument builder]; both clients back to back.
    const measurements = [];
    for (const era of ERAS) {
      for (const inPage of [false, true]) {
        for (const size of [KB, 16 * KB]) {
          const where = inPage ? "in-page" : "network";
          measurements.push([`stream ${size / KB} KB ${where} ${era}`, "stream", { era, inPage, size, bytes: PLAN.streamBytes }]);
        }
      }
      for (const inPage of [false, true]) {
        const where = inPage ? " in-page" : "";
        measurements.push([`echo c1${where} ${era}`, "echo", { era, inPage, calls: PLAN.echoCalls, concurrency: 1, warmup: PLAN.echoWarmup }]);
        measurements.push([`echo c64${where} ${era}`, "echo", { era, inPage, calls: PLAN.burstCalls, concurrency: 64, warmup: PLAN.echoWarmup }]);
      }
      measurements.push([`memory ${era}`, "memory", { era, size: KB, bytes: PLAN.memoryBytes }]);
    }

    for (let round = 0; round < PLAN.rounds; round++) {
      for (const [index, [key, fn, arg]] of measurements.entries()) {
        const order = (round + index) % 2 === 0 ? [...CLIENTS] : [...CLIENTS].reverse();
        // The echo rows' floor, bare `fetch` with no client, measured after both clients.
        if (fn === "echo") order.push("fetch");
        for (const client of order) {
          let value;
          if (fn === "memory") {
            // A page of its own: wasm memory never shrinks, and the heap must hold only this run.
            const fresh = await openPage(browser, server.url);
            try {
              let cdpPeak = 0;
              let sampling = true;
              const sampler = (async () => {
                while (sampling) {
                  cdpPeak = Math.max(cdpPeak, await cdpHeap(fresh.cdp).catch(() => 0));
                  await new Promise((r) => setTimeout(r, 50));
                }
              })();
              try {
                value = await fresh.page.evaluate(([f, a]) => window.bench[f](a), [fn, { ...arg, client }]);
              } finally {
                sampling = false;
                await sampler;
              }
              value.cdpPeakHeap = cdpPeak;
              value.heapGrowth = Math.max(value.peakHeap, cdpPeak) - value.baseHeap;
              if (fresh.errors.length) throw new Error(`page errors: ${fresh.errors.join("; ")}`);
            } finally {
              await fresh.context.close();
            }
          } else {
            value = await shared.page.evaluate(([f, a]) => window.bench[f](a), [fn, { ...arg, client }]);
          }
          record(key, client, value);
          log(`round ${round + 1}/${PLAN.rounds} ${key} ${client}: ${JSON.stringify(value, (k, v) => (typeof v === "number" ? Math.round(v * 100) / 100 : v))}`);
        }
      }
    }
    if (shared.errors.length) throw new Error(`page errors: ${shared.errors.join("; ")}`);
  } finally {
    await shared?.context.close().catch(() => {});
    await browser.close();
    await server.close();
  }

  const loadAfter = loadavg();
  const report = renderReport({ startedAt, loadBefore, loadAfter, sizes, samples, sdkVersion, chromium: browser.version() });
  writeFileSync(path.join(opts.out, "results.json"), JSON.stringify({ startedAt, loadBefore, loadAfter, plan: PLAN, sizes, samples }, null, 1));
  writeFileSync(path.join(opts.out, "report.md"), report);
  console.log(report);
}

/** The Markdown table: each figure for both clients, the ratio mcp-edge / SDK, and which is better. */
function renderReport({ startedAt, loadBefore, loadAfter, sizes, samples, sdkVersion, chromium: version }) {
  const rows = [];
  const floor = [];
  const fmt = (v, digits) => (v >= 100 ? v.toFixed(0) : v.toFixed(digits));
  const row = (what, era, edge, sdk, unit, higherIsBetter, digits = 2) => {
    const ratio = edge / sdk;
    const better = edge === sdk ? "=" : (edge > sdk) === higherIsBetter ? "mcp-edge" : "SDK";
    rows.push(`| ${what} | ${era} | ${fmt(edge, digits)} ${unit} | ${fmt(sdk, digits)} ${unit} | ${Number.isFinite(ratio) ? ratio.toFixed(2) : "—"} | ${better} |`);
  };
  const med = (key, client, pick) => median(samples[key][client].map(pick));
  row("bundle, client build, gzip -9 (wasm + minified JS glue and snippets vs minified ESM bundle)", "both", sizes.edge.gz / 1e3, sizes.sdk.gz / 1e3, "KB", false, 1);
  row("bundle, client build, uncompressed", "both", sizes.edge.raw / 1e3, sizes.sdk.raw / 1e3, "KB", false, 1);
  row("bundle, full build (+ pool, adapters, validator), gzip -9", "both", sizes.edgeFull.gz / 1e3, sizes.sdk.gz / 1e3, "KB", false, 1);
  for (const era of ERAS) {
    for (const where of ["network", "in-page"]) {
      for (const size of [1, 16]) {
        const key = `stream ${size} KB ${where} ${era}`;
        row(`streaming ${size} KB progress events, ${where}`, era, med(key, "edge", (v) => v.mbps), med(key, "sdk", (v) => v.mbps), "MB/s", true, 1);
      }
    }
    for (const where of ["", " in-page"]) {
      const label = where ? ", in-page" : "";
      const c1 = `echo c1${where} ${era}`;
      const c64 = `echo c64${where} ${era}`;
      row(`\`tools/call\` echo p50, 1 in flight${label}`, era, med(c1, "edge", (v) => v.p50), med(c1, "sdk", (v) => v.p50), "ms", false);
      row(`\`tools/call\` echo p99, 1 in flight${label}`, era, med(c1, "edge", (v) => v.p99), med(c1, "sdk", (v) => v.p99), "ms", false);
      row(`\`tools/call\` echo, 64 in flight${label}`, era, med(c64, "edge", (v) => v.callsPerSecond), med(c64, "sdk", (v) => v.callsPerSecond), "calls/s", true, 0);
      const over = (key, client, pick) => {
        const d = med(key, client, pick) - med(key, "fetch", pick);
        return `${d >= 0 ? "+" : "−"}${Math.abs(d).toFixed(2)} ms`;
      };
      const share = (client) => `${((100 * med(c64, client, (v) => v.callsPerSecond)) / med(c64, "fetch", (v) => v.callsPerSecond)).toFixed(0)} %`;
      floor.push(`| echo p50, 1 in flight${label} | ${era} | ${fmt(med(c1, "fetch", (v) => v.p50), 2)} ms | ${over(c1, "edge", (v) => v.p50)} | ${over(c1, "sdk", (v) => v.p50)} |`);
      floor.push(`| echo p99, 1 in flight${label} | ${era} | ${fmt(med(c1, "fetch", (v) => v.p99), 2)} ms | ${over(c1, "edge", (v) => v.p99)} | ${over(c1, "sdk", (v) => v.p99)} |`);
      floor.push(`| echo, 64 in flight${label} | ${era} | ${fmt(med(c64, "fetch", (v) => v.callsPerSecond), 0)} calls/s | ${share("edge")} of it | ${share("sdk")} of it |`);
    }
    const mem = (client, pick) => med(`memory ${era}`, client, pick) / MB;
    row(`peak JS heap growth, ${(PLAN.memoryBytes / MB).toFixed(0)} MB of 1 KB events`, era, mem("edge", (v) => v.heapGrowth), mem("sdk", (v) => v.heapGrowth), "MB", false, 1);
    row(`wasm memory growth, same run`, era, mem("edge", (v) => v.wasmGrowth), mem("sdk", (v) => v.wasmGrowth), "MB", false, 1);
    row(`JS heap + wasm memory growth, same run`, era, mem("edge", (v) => v.heapGrowth + v.wasmGrowth), mem("sdk", (v) => v.heapGrowth + v.wasmGrowth), "MB", false, 1);
  }
  return [
    `## mcp-edge vs @modelcontextprotocol/client ${sdkVersion}${opts.smoke ? " (SMOKE: tiny sizes, 1 round, not figures)" : ""}`,
    "",
    `Medians of ${PLAN.rounds} round${PLAN.rounds > 1 ? "s" : ""} (the two clients alternate within each round), headless Chromium ${version}, ` +
      `one page for both clients, the same loopback server (tests/bench/server.mjs). ` +
      `Streams: ${(PLAN.streamBytes / MB).toFixed(1)} MB per run; echo: ${PLAN.echoCalls} calls at 1 in flight, ${PLAN.burstCalls} at 64 ` +
      `(HTTP/1.1: Chromium keeps at most 6 connections per origin). ` +
      `Ratio = mcp-edge / SDK. Load average (1, 5, 15 min): ${loadBefore} before, ${loadAfter} after; ${startedAt}.`,
    ...(opts.hog ? ["", "**Under contention:** a busy-loop process kept one of the cores busy for the whole run (`--hog`)."] : []),
    `Command: \`bash tests/bench/run.sh${opts.smoke ? " --smoke" : ""}${opts.hog ? " --hog" : ""}\`.`,
    "",
    "| what | era | mcp-edge | SDK | ratio | better |",
    "|---|---|---|---|---|---|",
    ...rows,
    "",
    "The echo rows' floor: the same `tools/call` sent with bare `fetch` + `text()` and no client, in the same page and rounds " +
      "(after both clients), and each client's median above it.",
    "",
    "| what | era | bare fetch | mcp-edge | SDK |",
    "|---|---|---|---|---|",
    ...floor,
    "",
  ].join("\n");
}

main().catch((e) => {
  console.error(e?.stack ?? e);
  process.exit(1);
});
