// The same McpPool inside a dedicated Web Worker in headless Chromium (Debian's /usr/bin/chromium
// through playwright-core; no browser download), driven from the page's main thread by messages,
// against the test servers of both eras (cross-origin: they send CORS headers).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { edgeDir, env, startBannerProcess } from "./lib/harness.mjs";

const FLAGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic",
];

let staticServer;
let context;
let userDataDir;
let page;
const consoleErrors = [];

before(async () => {
  staticServer = await startBannerProcess(`${edgeDir}/lib/static-server.mjs`);
  userDataDir = await mkdtemp(path.join(tmpdir(), "mcp-edge-chromium-"));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: FLAGS,
  });
  page = await context.newPage();
  page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
  page.on("pageerror", (e) => consoleErrors.push(`pageerror: ${e.message}`));
  await page.goto(`http://127.0.0.1:${staticServer.banner.port}/`);
  await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
});

after(async () => {
  await context?.close();
  if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
  await staticServer?.stop();
});

const rpc = (op, args) => page.evaluate(([op, args]) => window.rpc(op, args), [op, args]);

test("the worker is a dedicated worker scope with no window or document", async () => {
  const { value } = await rpc("scope");
  assert.deepEqual(value, { window: "undefined", document: "undefined", dedicatedWorker: true });
});

test("the pool connects servers of both eras from the worker (edge mode)", async () => {
  const config = {
    mcpServers: {
      everything: { url: env("EVERYTHING_URL") },
      py: { url: env("PY2026_URL") },
    },
  };
  const { value: status } = await rpc("connect", { config, options: { edge: true } });
  const byName = Object.fromEntries(status.servers.map((s) => [s.name, s]));
  assert.equal(byName.everything.state, "connected", JSON.stringify(byName.everything));
  assert.equal(byName.everything.era, "legacy");
  assert.equal(byName.py.state, "connected", JSON.stringify(byName.py));
  assert.equal(byName.py.era, "modern");
  const { value: tools } = await rpc("tools", { format: "openai" });
  const names = tools.map((t) => t.function.name);
  assert.ok(names.includes("mcp__everything__echo") && names.includes("mcp__py__slow_progress"), names.join(", "));
});

test("calls from the page reach both eras through the worker", async () => {
  const { value: e } = await rpc("call", { name: "mcp__everything__echo", arguments: { message: "from a worker" } });
  assert.deepEqual(e.content, [{ type: "text", text: "Echo: from a worker" }]);
  const { value: p } = await rpc("call", { name: "mcp__py__add", arguments: { a: 2, b: 40 } });
  assert.equal(p.isError, false);
  assert.deepEqual(p.raw.structuredContent, { sum: 42 });
});

test("progress is posted to the page before the result", async () => {
  const { value, at } = await rpc("call", { name: "mcp__py__slow_progress", arguments: { steps: 3, delay_ms: 150 } });
  assert.equal(value.content[0].text, "done 3 steps");
  const progress = await page.evaluate(() => window.progress);
  assert.deepEqual(progress.map((p) => p.progress), [1, 2, 3]);
  assert.ok(progress.every((p) => p.at <= at), "every progress message arrived before the result");
});

test("close ends the pool; nothing went wrong on the page", async () => {
  const { value } = await rpc("close");
  assert.equal(value, true);
  const workerErrors = await page.evaluate(() => window.workerErrors);
  assert.deepEqual(workerErrors, []);
  assert.deepEqual(consoleErrors, []);
});
