// The playground's defences, in Debian's headless Chromium: its Content-Security-Policy is in force
// (an injected inline script does not run, eval is refused, the violations are reported) while the
// normal flows log no error; and tool names come from the library's own naming function.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, openPlayground, connect, openTool, env } from "./lib.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test("the page is served with its Content-Security-Policy, as a header and in the page", async () => {
  const r = await fetch(env("PLAYGROUND_URL"));
  const header = r.headers.get("content-security-policy") ?? "";
  const html = await r.text();
  for (const directive of ["default-src 'none'", "script-src 'self' 'wasm-unsafe-eval'", "connect-src 'self' http: https:", "object-src 'none'", "base-uri 'none'"]) {
    assert.ok(header.includes(directive), `header lacks ${directive}: ${header}`);
  }
  assert.ok(header.includes("frame-ancestors 'none'"), header);
  assert.ok(!/unsafe-inline|unsafe-eval'/.test(header.replace("'wasm-unsafe-eval'", "")), `no unsafe-inline / unsafe-eval: ${header}`);
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
  assert.ok(meta, "index.html carries the policy itself (for hosts that cannot set headers)");
  assert.equal(`${meta}; frame-ancestors 'none'`, header, "the header is the page's policy");
});

test("the CSP is in force: an injected inline script and eval do not run, and are reported", async () => {
  const p = await openPlayground(browser.context, "?autoconnect=0");
  try {
    // The browser logs each refusal: these messages are provoked on purpose.
    p.expect(/Content Security Policy/);
    const outcome = await p.page.evaluate(async () => {
      const violations = [];
      document.addEventListener("securitypolicyviolation", (e) => violations.push({ directive: e.effectiveDirective, blocked: e.blockedURI }));
      // What a server's text would try, were it ever inserted as markup: an inline script, an
      // inline event handler, a string compiled as code.
      const script = document.createElement("script");
      script.textContent = "window.__inlineRan = true;";
      document.body.append(script);
      const img = document.createElement("img");
      img.setAttribute("onerror", "window.__handlerRan = true");
      img.src = "data:,not-an-image";
      document.body.append(img);
      // Strings compiled as code, from a task of the page's own (the devtools protocol that runs
      // this function is itself exempt from the page's CSP; a timer callback is not).
      const compiled = await new Promise((resolve) =>
        setTimeout(() => {
          const attempt = (f) => {
            try {
              return f() === 2 ? "ran" : "?";
            } catch (e) {
              return e.name;
            }
          };
          resolve({ evalOutcome: attempt(() => (0, eval)("1 + 1")), functionOutcome: attempt(() => new Function("return 2")()) });
        }, 0),
      );
      const { evalOutcome, functionOutcome } = compiled;
      await new Promise((r) => setTimeout(r, 300));
      return { inline: window.__inlineRan === true, handler: window.__handlerRan === true, evalOutcome, functionOutcome, violations };
    });
    assert.equal(outcome.inline, false, "the inline script ran");
    assert.equal(outcome.handler, false, "the inline event handler ran");
    assert.equal(outcome.evalOutcome, "EvalError");
    assert.equal(outcome.functionOutcome, "EvalError");
    const directives = outcome.violations.map((v) => v.directive);
    assert.ok(directives.includes("script-src-elem"), JSON.stringify(outcome.violations));
    assert.ok(directives.includes("script-src-attr"), JSON.stringify(outcome.violations));
    assert.ok(directives.includes("script-src"), JSON.stringify(outcome.violations));
    assert.ok(p.errors.length >= 1, "the refusals were logged");
  } finally {
    await p.page.close();
  }
});

test("under the CSP the normal flows run with no console error: wasm loads, both eras connect, a tool is called", async () => {
  const p = await openPlayground(browser.context, "?autoconnect=0");
  try {
    await p.page.evaluate(() => {
      window.__violations = [];
      document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(`${e.effectiveDirective} ${e.blockedURI}`));
    });
    await connect(p.page, "py2026");
    const detail = await openTool(p.page, "py2026", "add");
    await detail.locator('.field[data-path="a"] input').fill("2");
    await detail.locator('.field[data-path="b"] input').fill("3");
    await detail.getByRole("button", { name: "Call tool" }).click();
    await detail.locator(".run[data-state=done]").waitFor({ timeout: 30_000 });
    for (const tab of ["Resources", "Prompts", "Traffic", "Tools"]) await p.page.getByRole("tab", { name: tab }).click();
    assert.deepEqual(await p.page.evaluate(() => window.__violations), []);
    assert.deepEqual(p.unexpected(), []);
  } finally {
    await p.page.close();
  }
});

test("tool names come from the library: a long server and tool name is shortened with its hash, as the pool does", async () => {
  const p = await openPlayground(browser.context, "?autoconnect=0");
  try {
    const server = "a_rather_long_server_name_of_32c";
    assert.equal(server.length, 32);
    p.expect(/^Failed to load resource: the server responded with a status of 400/); // the 2026 probe
    await p.page.locator("#add-server summary").click();
    await p.page.getByLabel("URL").fill(env("EVERYTHING_URL"));
    await p.page.getByLabel("Name").fill(server);
    await p.page.getByLabel("Protocol").selectOption("2025-11-25");
    await p.page.getByRole("button", { name: "Add and connect" }).click();
    await p.page.locator(`.server-card[data-server="${server}"][data-state="connected"]`).waitFor({ timeout: 30_000 });
    const roots = p.page.getByRole("dialog", { name: "The server asks for your roots" });
    await roots.waitFor({ timeout: 15_000 });
    await roots.getByRole("button", { name: "Refuse" }).click();
    const tool = "trigger-long-running-operation";
    const detail = await openTool(p.page, server, tool);
    const shown = await detail.locator("code.qualified").innerText();
    // What the library's naming gives for this server's tools (the wasm module the page loaded).
    const expected = await p.page.evaluate(async ([s, t]) => {
      const { toolNames } = await import("/pkg/mcp_edge.js");
      const cards = [...document.querySelectorAll(".tool-item")].map((b) => b.dataset.tool);
      const names = toolNames(cards.map((c) => [s, c]));
      return names[cards.indexOf(t)];
    }, [server, tool]);
    assert.equal(shown, expected);
    // mcp__ + 20 characters of the server + __ + as much of the tool as fits + _ + 8 hex digits.
    assert.match(shown, /^mcp__a_rather_long_server__trigger-long-running-op[a-z-]*_[0-9a-f]{8}$/);
    assert.ok(shown.length <= 64, shown);
    assert.deepEqual(p.unexpected(), []);
  } finally {
    await p.page.close();
  }
});
