// MCP Apps in Debian's headless Chromium: the playground hosts the views of the official example
// servers (@modelcontextprotocol/server-basic-vanillajs and server-basic-react, from npm) through
// the library's McpApp and its sandbox proxy on a second loopback origin; a hostile view (the
// tests/servers/apps/hostile.mjs fixture) cannot reach the host page, an undeclared origin, a tool
// it may not call or another server's tool, and its flood of malformed messages leaves the host
// answering; the exports list exactly the model-visible tools.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, openPlayground, openTool, screenshot, env, card } from "./lib.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** The playground's name for a server added by URL (`host_port`). */
const nameOf = (url) => { const u = new URL(url); return `${u.hostname.replace(/\./g, "_")}_${u.port}`; };

async function connected(p, url) {
  const name = nameOf(url);
  await p.page.waitForSelector(`.server-card[data-server="${name}"][data-state="connected"]`, { timeout: 30_000 });
  return name;
}

for (const [variant, urlVar] of [["vanillajs", "APPS_VANILLA_URL"], ["react", "APPS_REACT_URL"]]) {
  test(`the ${variant} example's view renders beside its result, shows the result, calls a server tool from inside, resizes and is torn down`, async () => {
    const url = env(urlVar);
    const p = await openPlayground(browser.context, `?server=${encodeURIComponent(url)}`);
    // Era detection: the example servers answer the 2026-07-28 probe with HTTP 400, then the
    // client speaks 2025-11-25 (Chromium logs the 400).
    p.expect(/status of 400/);
    try {
      const name = await connected(p, url);
      const detail = await openTool(p.page, name, "get-time");
      await detail.getByRole("button", { name: "Call tool" }).click();
      const slot = detail.locator(".app-slot");
      await slot.locator(".app-status", { hasText: "ready" }).waitFor({ timeout: 20_000 });
      const proxy = detail.locator("iframe.mcp-app-frame");
      // The proxy frame is on the sandbox origin, not the page's.
      const sandboxOrigin = new URL(await proxy.getAttribute("src")).origin;
      assert.notEqual(sandboxOrigin, new URL(env("PLAYGROUND_URL")).origin);
      const view = detail.frameLocator("iframe.mcp-app-frame").frameLocator("iframe");
      // The tool result reached the view: it shows the time the call returned.
      const resultText = await detail.locator(".result-slot").innerText();
      const iso = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/;
      const resultTime = iso.exec(resultText)?.[0];
      assert.ok(resultTime, `the result panel shows a time: ${resultText}`);
      await view.getByText(resultTime).first().waitFor({ timeout: 15_000 });
      // The view's own button calls get-time through the bridge: a new time appears, and the
      // call went through the page's client (its traffic panel shows a second tools/call).
      const calls = p.page.locator('#panel-traffic ol.traffic > li[data-type="request"][data-dir="out"]', { hasText: "tools/call" });
      const before = await calls.count();
      await p.page.waitForTimeout(20);
      await view.getByRole("button", { name: /get server time/i }).click();
      const shown = async () => iso.exec(await view.locator("body").innerText())?.[0];
      for (let i = 0; i < 100 && (await shown()) === resultTime; i++) await p.page.waitForTimeout(100);
      const newTime = await shown();
      assert.ok(newTime && newTime !== resultTime, `the view shows a new time after its own call (${resultTime} -> ${newTime})`);
      assert.equal(await calls.count(), before + 1, "the view's call is in the traffic panel");
      // Re-selecting the server re-renders the panel, which moves (and so reloads) the frame:
      // the view starts again and gets the call's input and result replayed.
      await card(p.page, name).locator("button.select").click();
      await detail.frameLocator("iframe.mcp-app-frame").frameLocator("iframe").getByText(resultTime).first().waitFor({ timeout: 15_000 });
      // Resized to the view's content (size-changed), within the host's maximum.
      const height = await proxy.evaluate((f) => f.getBoundingClientRect().height);
      assert.ok(height > 40 && height <= 800, `frame height follows the view: ${height}`);
      await screenshot(p.page, `apps-${variant}`);
      // The host context reached the view: the vanilla example applies the host's style
      // variables (its README: applyHostStyleVariables); the React one keeps its own.
      if (variant === "vanillajs") {
        const applied = await view.locator("html").evaluate((el) => getComputedStyle(el).getPropertyValue("--color-text-primary").trim());
        const pageText = await p.page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--text").trim());
        assert.equal(applied, pageText, "the page's text colour is the view's --color-text-primary");
      }
      // Calling again replaces the view: the old frame is torn down and a new one comes up.
      const firstFrame = await proxy.elementHandle();
      await detail.getByRole("button", { name: "Call tool" }).click();
      await p.page.waitForFunction((el) => !el.isConnected, firstFrame, { timeout: 10_000 });
      await slot.locator(".app-status", { hasText: "ready" }).waitFor({ timeout: 20_000 });
      assert.equal(await detail.locator("iframe.mcp-app-frame").count(), 1, "one view at a time");
      // Torn down: the frame goes, the slot hides.
      await detail.getByRole("button", { name: "Close view" }).click();
      await proxy.waitFor({ state: "detached", timeout: 10_000 });
      assert.equal(await slot.isHidden(), true);
      assert.deepEqual(p.unexpected(), []);
    } finally {
      await p.page.close();
    }
  });
}

test("a hostile view cannot reach the host page, an undeclared origin or tools it may not call, and its flood leaves the host answering", async () => {
  const url = `${env("HOSTILE_URL")}/mcp`;
  const p = await openPlayground(browser.context, "?autoconnect=0");
  // The view's CSP refusals and the flood's dropped messages are provoked on purpose.
  p.expect(/Content Security Policy|Refused to connect|Refused to frame|Failed to fetch|ERR_BLOCKED/);
  try {
    const out = await p.page.evaluate(async (url) => {
      document.cookie = "host_secret=1; path=/";
      localStorage.setItem("host_secret", "1");
      const { sandboxUrl } = await (await fetch("servers.json")).json();
      const m = await import("./pkg/mcp_edge.js");
      const client = await m.McpClient.connect(url, { extensions: { "io.modelcontextprotocol/ui": true } });
      const holder = document.createElement("div");
      document.body.append(holder);
      const diagnostics = [];
      const requests = [];
      let resolveReport;
      const report = new Promise((r) => { resolveReport = r; });
      const modes = [];
      const app = await m.McpApp.open(client, "hostile", {
        container: holder,
        sandboxUrl,
        hostContext: { availableDisplayModes: ["inline", "fullscreen"] },
        onDisplayMode: (mode) => { modes.push(mode); return mode; },
        onLog: (params) => resolveReport(params.data),
        onDiagnostic: (text) => diagnostics.push(text),
        onRequest: (req) => { requests.push(req.method + (req.name ? ` ${req.name}` : "")); },
      });
      const result = await app.run({ x: 1 });
      const data = await Promise.race([report, new Promise((r) => setTimeout(() => r(null), 20_000))]);
      // The view then tries to navigate its frame to the undeclared origin.
      await new Promise((r) => setTimeout(r, 1500));
      // The host's own event loop still turns promptly after the flood.
      const t0 = performance.now();
      await new Promise((r) => setTimeout(r, 0));
      const lagMs = performance.now() - t0;
      const csp = app.contentSecurityPolicy;
      await app.teardown("done", { timeoutMs: 2000 });
      const extensions = client.extensions.client;
      await client.close();
      return { data, diagnostics, requests, result, lagMs, csp, state: app.state, framesLeft: holder.childElementCount, extensions, modes };
    }, url);
    assert.ok(out.data, "the view reported");
    const d = out.data;
    assert.equal(d.initialized, true);
    assert.match(d.topDocument, /^blocked: SecurityError/, "the host document is out of reach");
    assert.match(d.topStorage, /^blocked: SecurityError/, "the host storage is out of reach");
    assert.match(d.cookie, /^blocked/, "no cookies in the view's opaque origin");
    assert.match(d.storage, /^blocked/, "no storage in the view's opaque origin");
    assert.equal(d.modelOnly, -32602, "a tool without app visibility is refused");
    assert.equal(d.otherServer, -32602, "another server's tool is refused");
    assert.equal(d.appOnly, "app_only ran", "an app-visible tool runs");
    assert.equal(d.pingAfterFlood, "answered");
    assert.deepEqual(d.input, { arguments: { x: 1 } }, "the view got the call's input");
    assert.equal(d.result, "hostile ran", "and its result");
    assert.equal(d.fullscreen, "fullscreen", "a mode both sides declared goes to the host");
    assert.equal(d.pip, "fullscreen", "one the host does not offer answers the mode now in use");
    assert.deepEqual(out.modes, ["fullscreen"], "the host saw only the offered mode");
    assert.deepEqual(out.requests, ["tools/call app_only", "ui/request-display-mode"], "only the allowed requests reached the host");
    assert.ok(out.diagnostics.length > 0 && out.diagnostics.length <= 64, `diagnostics reported, bounded: ${out.diagnostics.length}`);
    assert.ok(out.lagMs < 1000, `host responsive: ${out.lagMs} ms`);
    assert.match(out.csp, /connect-src http:\/\/127\.0\.0\.1:\d+;/);
    assert.equal(out.state, "closed");
    assert.equal(out.framesLeft, 0, "teardown removed the frame");
    assert.deepEqual(out.extensions["io.modelcontextprotocol/ui"], { mimeTypes: ["text/html;profile=mcp-app"] });
    // The undeclared origin saw nothing; the declared one got the view's request.
    const counts = await (await fetch(`${env("HOSTILE_URL")}/counts`)).json();
    assert.equal(counts.undeclared, 0, "no request reached the undeclared origin, by fetch or by navigating the view's frame");
    assert.equal(d.undeclared.startsWith("blocked"), true, d.undeclared);
    assert.ok(counts.declared >= 1, `the declared origin was reachable: ${JSON.stringify(counts)} ${d.declared}`);
  } finally {
    await p.page.close();
  }
});

test("the pool's exports list exactly the model-visible tools; toolInfo says which are app-only", async () => {
  const url = `${env("HOSTILE_URL")}/mcp`;
  const p = await openPlayground(browser.context, "?autoconnect=0");
  try {
    const out = await p.page.evaluate(async (url) => {
      const m = await import("./pkg/mcp_edge.js");
      const pool = new m.McpPool({ mcpServers: { h: { url } } });
      await pool.connectAll();
      const names = {};
      for (const format of ["openai", "openai-responses", "anthropic", "mcp"]) {
        names[format] = pool.tools({ format }).map((t) => t.name ?? t.function?.name);
      }
      const info = pool.toolInfo().map((t) => [t.tool, t.ui.visibility]);
      // The pool's call always resolves: a refusal is an isError result with the typed error.
      const r = await pool.call("mcp__h__app_only", {});
      const refused = r.isError ? r.error?.code : null;
      await pool.close();
      return { names, info, refused };
    }, url);
    for (const [format, names] of Object.entries(out.names)) {
      assert.deepEqual(names, ["mcp__h__hostile", "mcp__h__model_only"], format);
    }
    assert.deepEqual(out.info, [["app_only", ["app"]], ["hostile", ["model", "app"]], ["model_only", ["model"]]]);
    assert.equal(out.refused, "UNKNOWN_TOOL", "the model's call path refuses an app-only tool");
  } finally {
    await p.page.close();
  }
});

test("the playground goes fullscreen when a view asks, and back on close", async () => {
  const url = `${env("HOSTILE_URL")}/mcp`;
  const p = await openPlayground(browser.context, `?server=${encodeURIComponent(url)}`);
  // The era probe's 400, the fixture's 405 to the optional GET stream, and the view's refused
  // fetch are provoked on purpose.
  p.expect(/status of 40[05]|Content Security Policy|Refused to connect|Refused to frame|Failed to fetch|ERR_BLOCKED/);
  try {
    const name = await connected(p, url);
    const detail = await openTool(p.page, name, "hostile");
    // The badges say which tools a view may call and which the model may not see.
    const badges = async (tool) => p.page.locator(`.tool-item[data-tool="${tool}"] .badge`).allInnerTexts();
    assert.ok((await badges("app_only")).includes("app only"));
    assert.ok((await badges("model_only")).includes("model only"));
    await detail.getByRole("button", { name: "Call tool" }).click();
    const slot = detail.locator(".app-slot");
    // The hostile view asks for fullscreen once initialised; the playground grants it.
    await p.page.waitForFunction(() => document.querySelector(".app-slot")?.classList.contains("fullscreen"), null, { timeout: 20_000 });
    const box = await slot.boundingBox();
    const viewport = p.page.viewportSize();
    assert.ok(box.width >= viewport.width - 1 && box.height >= viewport.height - 1, `fullscreen covers the window: ${JSON.stringify(box)}`);
    const frameBox = await detail.locator("iframe.mcp-app-frame").boundingBox();
    assert.ok(frameBox.height >= viewport.height * 0.8, `the view fills it: ${JSON.stringify(frameBox)}`);
    await screenshot(p.page, "apps-fullscreen");
    await detail.getByRole("button", { name: "Close view" }).click();
    await detail.locator("iframe.mcp-app-frame").waitFor({ state: "detached", timeout: 10_000 });
    assert.equal(await slot.evaluate((el) => el.classList.contains("fullscreen")), false);
    assert.deepEqual(p.unexpected(), []);
  } finally {
    await p.page.close();
  }
});
