#!/usr/bin/env node
// Runs one scenario in headless Chromium with the wasm client and writes its raw transcript.
//
//   node tests/harness/browser/run-browser-leg.mjs --scenario tests/scenarios/x.json \
//        --url http://127.0.0.1:PORT/mcp --out /tmp/x.browser.json [--pkg DIR] [--unpaced]
//
// Serves the page (this directory) and the wasm-pack `web` package (--pkg, default
// target/parity-web/pkg) from a static server on 127.0.0.1, launches /usr/bin/chromium through
// playwright-core with a fresh user-data dir, runs `runScenario` (runner.mjs) in a fresh page and
// writes `{format, scenario, transport: "browser", entries, failures, console}` to --out.
// Exit status: 0 when the transcript was written (failed expectations are in `failures`), 1 when
// the leg itself could not run, 2 on a usage error.
import { createServer } from "node:http";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");

const FLAGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic",
];
/** Longest one scenario may run in the page. */
const SCENARIO_TIMEOUT_MS = 180_000;

function usage(message) {
  process.stderr.write(`run-browser-leg: ${message}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const args = { pkg: path.join(root, "target/parity-web/pkg"), paced: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => argv[++i] ?? usage(`${a} needs a value`);
    if (a === "--scenario") args.scenario = value();
    else if (a === "--url") args.url = value();
    else if (a === "--out") args.out = value();
    else if (a === "--pkg") args.pkg = path.resolve(value());
    else if (a === "--unpaced") args.paced = false;
    else usage(`unknown argument ${a}`);
  }
  for (const k of ["scenario", "url", "out"]) if (!args[k]) usage(`--${k} is required`);
  if (!/^http:\/\/127\.0\.0\.1:\d+\//.test(args.url)) usage("--url must be an http://127.0.0.1:PORT/ URL");
  return args;
}

const TYPES = { ".html": "text/html; charset=utf-8", ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm" };

/** A static server on 127.0.0.1 for the page's own files and /pkg/ (nothing else). */
function serve(pkg) {
  const pageFiles = new Set(["index.html", "runner.mjs", "recorder.mjs", "sse.mjs", "line-paced-fetch.mjs", "scenario.mjs"]);
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    let file = null;
    if (url.pathname === "/") file = path.join(here, "index.html");
    else if (url.pathname.startsWith("/pkg/")) {
      const name = url.pathname.slice("/pkg/".length);
      // Plain path segments only (the package has a snippets/ subdirectory); no dot files, no "..".
      const segments = name.split("/");
      if (segments.every((seg) => /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/.test(seg))) file = path.join(pkg, ...segments);
    } else if (pageFiles.has(url.pathname.slice(1))) file = path.join(here, url.pathname.slice(1));
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream", "cache-control": "no-store" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const scenario = JSON.parse(await readFile(args.scenario, "utf8"));
  try {
    await readFile(path.join(args.pkg, "mcp_edge_bg.wasm"));
  } catch {
    throw new Error(`${args.pkg}/mcp_edge_bg.wasm is missing: run tests/harness/browser/build-web.sh`);
  }
  const server = await serve(args.pkg);
  const origin = `http://127.0.0.1:${server.address().port}`;
  const userDataDir = await mkdtemp(path.join(tmpdir(), "mcp-edge-parity-chromium-"));
  let context = null;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: "/usr/bin/chromium",
      headless: true,
      args: FLAGS,
    });
    const page = await context.newPage();
    const console_ = [];
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") console_.push(`${m.type()}: ${m.text()}`);
    });
    page.on("pageerror", (e) => console_.push(`pageerror: ${e.message}`));
    await page.goto(`${origin}/`);
    try {
      await page.waitForSelector("body[data-ready=true]", { state: "attached", timeout: 30_000 });
    } catch (e) {
      throw new Error(`the page did not load: ${e.message}\n${console_.join("\n")}`);
    }
    const result = await Promise.race([
      page.evaluate(([sc, url, paced]) => window.runScenario(sc, url, { paced }), [scenario, args.url, args.paced]),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`the scenario did not finish within ${SCENARIO_TIMEOUT_MS} ms`)), SCENARIO_TIMEOUT_MS)),
    ]);
    result.console = console_;
    await writeFile(args.out, JSON.stringify(result, null, 2));
  } finally {
    if (context) await context.close().catch(() => {});
    server.close();
    await rm(userDataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    process.stderr.write(`run-browser-leg: ${e?.stack ?? e}\n`);
    process.exit(1);
  },
);
