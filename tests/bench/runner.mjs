// Drives the side-by-side benchmark (run it through run.sh, which builds what this needs):
//
//   node runner.mjs --pkg DIR --full-pkg DIR --sdk-bundle FILE --out DIR [--smoke] [--rounds N] [--stream-mb N] [--hog]
//                   [--only TEXT] [--profile]
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
// --only TEXT: only the measurements whose key contains TEXT (e.g. "echo c64 2026"); the report
// then holds only their rows.
// --profile: a V8 CPU profile of the page (CDP `Profiler`, 100 µs sampling) around every echo
// measurement, written as <out>/profiles/<key> <client> r<round>.cpuprofile (open it in Chrome's
// DevTools), and the functions with the most self time summed over the rounds in
// <out>/profiles/summary.md.
// Every echo measurement also records the CPU time each process spent on it (the page's renderer,
// Chromium's network service and browser process, the loopback server), from /proc, so the report
// says where a call's time goes.
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
  const opts = { smoke: false, rounds: null, streamMb: null, hog: false, only: null, profile: false };
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
    else if (a === "--only") opts.only = value();
    else if (a === "--profile") opts.profile = true;
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

/**
 * CPU time (ms) used so far by each kind of process this runner started: Chromium's renderer,
 * network service, browser and other processes (from /proc/<pid>/stat, every descendant of this
 * process but the hog), and this process itself, which runs the loopback server.
 */
function cpuByProcess(exclude) {
  const tick = 10; // USER_HZ is 100 on Linux
  const parent = new Map();
  const times = new Map();
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parent.set(Number(pid), Number(fields[1]));
      times.set(Number(pid), (Number(fields[11]) + Number(fields[12])) * tick);
    } catch {
      // gone meanwhile
    }
  }
  const mine = (pid) => {
    for (let p = pid, hops = 0; p > 1 && hops < 16; p = parent.get(p) ?? 0, hops++) if (p === process.pid) return true;
    return false;
  };
  const out = { renderer: 0, network: 0, browser: 0, other: 0, server: 0 };
  for (const [pid, ms] of times) {
    if (pid === process.pid || pid === exclude || !mine(pid)) continue;
    let cmd = "";
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    } catch {
      continue;
    }
    if (!cmd.includes("chromium")) out.other += ms;
    else if (cmd.includes("--type=renderer")) out.renderer += ms;
    else if (cmd.includes("NetworkService")) out.network += ms;
    else if (!cmd.includes("--type=")) out.browser += ms;
    else out.other += ms;
  }
  const own = process.cpuUsage();
  out.server = (own.user + own.system) / 1000;
  return out;
}

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

    if (opts.only) {
      const kept = measurements.filter(([key]) => key.includes(opts.only));
      if (!kept.length) throw new Error(`--only ${opts.only}: no measurement key contains it`);
      measurements.splice(0, measurements.length, ...kept);
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
            const before = fn === "echo" ? cpuByProcess(hog?.pid) : null;
            const profiling = opts.profile && fn === "echo";
            if (profiling) {
              await shared.cdp.send("Profiler.enable");
              await shared.cdp.send("Profiler.setSamplingInterval", { interval: 100 });
              await shared.cdp.send("Profiler.start");
            }
            value = await shared.page.evaluate(([f, a]) => window.bench[f](a), [fn, { ...arg, client }]);
            if (profiling) {
              const { profile } = await shared.cdp.send("Profiler.stop");
              const dir = path.join(opts.out, "profiles");
              mkdirSync(dir, { recursive: true });
              writeFileSync(path.join(dir, `${key} ${client} r${round + 1}.cpuprofile`), JSON.stringify(profile));
              addProfile(`${key} ${client}`, profile);
            }
            if (before) {
              // CPU ms per call, warm-up and connect included (a small share of 300 or 1,000 calls).
              const after = cpuByProcess(hog?.pid);
              const calls = arg.calls + arg.warmup;
              value.cpuPerCall = Object.fromEntries(Object.keys(after).map((k) => [k, (after[k] - before[k]) / calls]));
            }
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

  if (opts.profile) writeFileSync(path.join(opts.out, "profiles", "summary.md"), profileSummary());
  const loadAfter = loadavg();
  const report = renderReport({ startedAt, loadBefore, loadAfter, sizes, samples, sdkVersion, chromium: browser.version() });
  writeFileSync(path.join(opts.out, "results.json"), JSON.stringify({ startedAt, loadBefore, loadAfter, plan: PLAN, sizes, samples }, null, 1));
  writeFileSync(path.join(opts.out, "report.md"), report);
  console.log(report);
}

/** Self time (µs) per function, summed over the rounds, per `<key> <client>`. */
const profiles = new Map();
function addProfile(name, profile) {
  const self = profiles.get(name) ?? new Map();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const deltas = profile.timeDeltas ?? [];
  profile.samples.forEach((id, i) => {
    const f = byId.get(id).callFrame;
    const where = f.url ? `${f.url.split("/").pop()}:${f.lineNumber + 1}` : "";
    const fn = `${f.functionName || "(anonymous)"}${where ? ` ${where}` : ""}`;
    self.set(fn, (self.get(fn) ?? 0) + (deltas[i + 1] ?? 0));
  });
  profiles.set(name, self);
}
function profileSummary() {
  const out = [];
  for (const [name, self] of profiles) {
    const total = [...self.values()].reduce((a, b) => a + b, 0);
    out.push(`### ${name}: ${(total / 1e3).toFixed(0)} ms sampled`, "", "| self ms | share | function |", "|---|---|---|");
    for (const [fn, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
      out.push(`| ${(us / 1e3).toFixed(1)} | ${((100 * us) / total).toFixed(1)} % | \`${fn}\` |`);
    }
    out.push("");
  }
  return out.join("\n");
}

/** The Markdown table: each figure for both clients, the ratio mcp-edge / SDK, and which is better. */
function renderReport({ startedAt, loadBefore, loadAfter, sizes, samples, sdkVersion, chromium: version }) {
  const rows = [];
  const floor = [];
  const cpuRows = [];
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
        if (!samples[key]) continue;
        row(`streaming ${size} KB progress events, ${where}`, era, med(key, "edge", (v) => v.mbps), med(key, "sdk", (v) => v.mbps), "MB/s", true, 1);
      }
    }
    for (const where of ["", " in-page"]) {
      const label = where ? ", in-page" : "";
      const c1 = `echo c1${where} ${era}`;
      const c64 = `echo c64${where} ${era}`;
      for (const key of [c1, c64]) {
        if (!samples[key]) continue;
        for (const client of ["edge", "sdk", "fetch"]) {
          const cpu = (k) => med(key, client, (v) => v.cpuPerCall[k]);
          const total = cpu("renderer") + cpu("network") + cpu("browser") + cpu("other") + cpu("server");
          cpuRows.push(
            `| ${key.replace(` ${era}`, "")} | ${era} | ${client === "edge" ? "mcp-edge" : client === "sdk" ? "SDK" : "bare fetch"} | ` +
              `${["renderer", "network", "browser", "other", "server"].map((k) => cpu(k).toFixed(2)).join(" | ")} | ${total.toFixed(2)} |`,
          );
        }
      }
      const over = (key, client, pick) => {
        const d = med(key, client, pick) - med(key, "fetch", pick);
        return `${d >= 0 ? "+" : "−"}${Math.abs(d).toFixed(2)} ms`;
      };
      if (samples[c1]) {
        row(`\`tools/call\` echo p50, 1 in flight${label}`, era, med(c1, "edge", (v) => v.p50), med(c1, "sdk", (v) => v.p50), "ms", false);
        row(`\`tools/call\` echo p99, 1 in flight${label}`, era, med(c1, "edge", (v) => v.p99), med(c1, "sdk", (v) => v.p99), "ms", false);
        floor.push(`| echo p50, 1 in flight${label} | ${era} | ${fmt(med(c1, "fetch", (v) => v.p50), 2)} ms | ${over(c1, "edge", (v) => v.p50)} | ${over(c1, "sdk", (v) => v.p50)} |`);
        floor.push(`| echo p99, 1 in flight${label} | ${era} | ${fmt(med(c1, "fetch", (v) => v.p99), 2)} ms | ${over(c1, "edge", (v) => v.p99)} | ${over(c1, "sdk", (v) => v.p99)} |`);
      }
      if (samples[c64]) {
        row(`\`tools/call\` echo, 64 in flight${label}`, era, med(c64, "edge", (v) => v.callsPerSecond), med(c64, "sdk", (v) => v.callsPerSecond), "calls/s", true, 0);
        const share = (client) => `${((100 * med(c64, client, (v) => v.callsPerSecond)) / med(c64, "fetch", (v) => v.callsPerSecond)).toFixed(0)} %`;
        floor.push(`| echo, 64 in flight${label} | ${era} | ${fmt(med(c64, "fetch", (v) => v.callsPerSecond), 0)} calls/s | ${share("edge")} of it | ${share("sdk")} of it |`);
      }
    }
    if (!samples[`memory ${era}`]) continue;
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
    "CPU time per call (ms, medians; warm-up and connect included) of each process the run started: the page's " +
      "renderer, Chromium's network service, its browser process, any other, and the loopback server (Node).",
    "",
    "| measurement | era | client | renderer | network | browser | other | server | total |",
    "|---|---|---|---|---|---|---|---|---|",
    ...cpuRows,
    "",
  ].join("\n");
}

main().catch((e) => {
  console.error(e?.stack ?? e);
  process.exit(1);
});
