// The playground driven in Debian's headless Chromium against real local MCP servers
// (server-everything: 2025 era; the Python server: 2026-07-28 era) and the CORS-less fixture.
// Run through run.sh, which starts the servers and sets the URLs.
import { test, before, after, describe } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { launch, openPlayground, screenshot, connect, card, openTool, env } from "./lib.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Calls the tool shown in `detail` and waits until the run ends; returns its final state. */
async function callAndWait(detail, timeout = 30_000) {
  await detail.getByRole("button", { name: "Call tool" }).click();
  await detail.locator(".run[data-state]:not([data-state=running])").waitFor({ timeout });
  return detail.locator(".run").getAttribute("data-state");
}

describe("playground against server-everything and the Python 2026 server", () => {
  let p;
  before(async () => { p = await openPlayground(browser.context, "?autoconnect=0"); });
  after(async () => {
    await screenshot(p.page, "99-final").catch(() => {});
    await p.page.close();
  });

  test("servers.json pre-fills both servers", async () => {
    assert.equal(await card(p.page, "everything").count(), 1);
    assert.equal(await card(p.page, "py2026").count(), 1);
    assert.equal(await card(p.page, "py2026").getAttribute("data-state"), "idle");
  });

  test("a project's server waits for approval, and connects once approved", async () => {
    const { page } = p;
    const proj = card(page, "proj");
    assert.equal(await proj.getAttribute("data-state"), "pending-approval");
    assert.match(await proj.innerText(), /not added by you/);
    assert.equal(await proj.getByRole("button", { name: "Connect proj" }).count(), 0, "no plain Connect before approval");
    await screenshot(page, "01b-project-server-pending");
    await proj.getByRole("button", { name: "Reject proj" }).click();
    await page.locator('.server-card[data-server="proj"][data-state="rejected"]').waitFor({ timeout: 5_000 });
    await proj.getByRole("button", { name: "Approve proj" }).click();
    await page.locator('.server-card[data-server="proj"][data-state="connected"]').waitFor({ timeout: 30_000 });
    await proj.getByRole("button", { name: "Remove proj" }).click();
  });

  test("connects to both; status shows era, server, tool count; the roots dialog is answered", async () => {
    const { page } = p;
    await connect(page, "everything");
    // server-everything asks for roots right after initialization: a dialog the user answers.
    const dialog = page.getByRole("dialog", { name: "The server asks for your roots" });
    await dialog.waitFor({ timeout: 15_000 });
    await screenshot(page, "02-roots-dialog");
    await dialog.getByLabel("Roots to share").fill("file:///tmp/mcp-playground\nfile:///tmp/other-root");
    await dialog.getByLabel("Share these without asking again").check();
    await dialog.getByRole("button", { name: "Share" }).click();
    await dialog.waitFor({ state: "detached" });
    await connect(page, "py2026");

    const ev = card(page, "everything");
    assert.match(await ev.locator(".era").innerText(), /2025 session · 2025-11-25/);
    assert.match(await ev.locator(".server-info").innerText(), /Everything/);
    assert.ok(Number(await ev.locator(".tool-count").innerText()) >= 12, "server-everything lists its tools");
    const py = card(page, "py2026");
    assert.match(await py.locator(".era").innerText(), /2026 stateless · 2026-07-28/);
    assert.match(await py.locator(".server-info").innerText(), /mcp-edge-py-test/);
    // 9 tools served; the two with invalid x-mcp-header declarations are dropped by the client.
    assert.equal(await py.locator(".tool-count").innerText(), "7");
    await py.locator("details.events summary").click();
    assert.match(await py.locator("details.events").innerText(), /bad_header_tool/);
    await screenshot(page, "01-connected");

    // The roots answer reached the server: its get-roots-list tool reports them.
    const detail = await openTool(page, "everything", "get-roots-list");
    assert.equal(await callAndWait(detail), "done");
    assert.match(await detail.locator(".result").innerText(), /file:\/\/\/tmp\/other-root/);
  });

  test("tool list shows title, badges and the mcp__server__tool name", async () => {
    const { page } = p;
    const detail = await openTool(page, "everything", "echo");
    assert.equal(await detail.locator("code.qualified").innerText(), "mcp__everything__echo");
    assert.match(await detail.locator("h3").innerText(), /Echo/);
    assert.match(await detail.locator(".badges").innerText(), /read-only/);
  });

  test("a generated form calls a tool; structured content is checked against the outputSchema", async () => {
    const { page } = p;
    const detail = await openTool(page, "py2026", "add");
    assert.equal(await detail.locator("code.qualified").innerText(), "mcp__py2026__add");
    await detail.locator('.field[data-path="a"] input').fill("2");
    await detail.locator('.field[data-path="b"] input').fill("40");
    assert.equal(await callAndWait(detail), "done");
    const result = detail.locator(".result");
    assert.match(await result.innerText(), /2 \+ 40 = 42/);
    assert.deepEqual(JSON.parse(await result.locator("pre.structured").innerText()), { sum: 42 });
    assert.match(await result.locator(".verdict.ok").innerText(), /matches the outputSchema/);
    assert.match(await detail.locator(".elapsed").innerText(), /took \d/);
    await screenshot(page, "03-tool-result");

    // Raw JSON mode carries the form's values and is what gets sent when on.
    await detail.getByLabel("Edit as raw JSON").check();
    assert.deepEqual(JSON.parse(await detail.getByLabel("Arguments as JSON").inputValue()), { a: 2, b: 40 });
    await detail.getByLabel("Arguments as JSON").fill('{"a": 5, "b": 6}');
    assert.equal(await callAndWait(detail), "done");
    assert.match(await detail.locator(".result").innerText(), /5 \+ 6 = 11/);
    await detail.getByLabel("Edit as raw JSON").uncheck();
    assert.equal(await detail.locator('.field[data-path="a"] input').inputValue(), "5");

    // isError results are styled as errors.
    const fail = await openTool(page, "py2026", "fail");
    assert.equal(await callAndWait(fail), "tool-error");
    assert.match(await fail.locator(".result.is-error").innerText(), /requested failure/);
    await screenshot(page, "04-tool-is-error");

    // Images are rendered from base64.
    const img = await openTool(page, "everything", "get-tiny-image");
    assert.equal(await callAndWait(img), "done");
    const natural = await img.locator(".result img").evaluate((el) => el.decode().then(() => el.naturalWidth));
    assert.ok(natural > 0, "the image decodes");
  });

  test("the progress bar moves with progress notifications and completes", async () => {
    const { page } = p;
    const detail = await openTool(page, "py2026", "slow_progress");
    await detail.locator('.field[data-path="steps"] input').fill("5");
    await detail.locator('.field[data-path="delay_ms"] input').fill("400");
    await detail.getByRole("button", { name: "Call tool" }).click();
    const bar = detail.locator("progress.call-progress");
    const seen = [];
    let midShot = false;
    for (let i = 0; i < 400; i++) {
      const [state, value, max] = await Promise.all([
        detail.locator(".run").getAttribute("data-state"),
        bar.evaluate((el) => (el.hasAttribute("value") ? el.value : null)),
        bar.evaluate((el) => el.max),
      ]);
      if (value !== null && max === 5 && seen.at(-1) !== value) seen.push(value);
      if (!midShot && value !== null && value >= 2 && value < 5 && state === "running") {
        await screenshot(page, "05-progress-running");
        midShot = true;
      }
      if (state !== "running") break;
      await page.waitForTimeout(50);
    }
    assert.equal(await detail.locator(".run").getAttribute("data-state"), "done");
    assert.ok(seen.length >= 2, `the bar moved through intermediate values: ${seen}`);
    assert.ok(seen.every((v, i) => i === 0 || v > seen[i - 1]), `monotonic: ${seen}`);
    assert.equal(await bar.evaluate((el) => el.value / el.max), 1, "complete at the end");
    assert.match(await detail.locator(".result").innerText(), /done 5 steps/);
    await screenshot(page, "06-progress-done");
  });

  test("Cancel aborts a long call (2025 and 2026 eras)", async () => {
    const { page } = p;
    for (const [server, tool, fill] of [
      ["everything", "trigger-long-running-operation", { duration: "60", steps: "60" }],
      ["py2026", "slow_progress", { steps: "100", delay_ms: "500" }],
    ]) {
      const detail = await openTool(page, server, tool);
      for (const [k, v] of Object.entries(fill)) await detail.locator(`.field[data-path="${k}"] input`).fill(v);
      await detail.getByRole("button", { name: "Call tool" }).click();
      // Wait for the first progress so the call is surely running on the server.
      await page.waitForFunction((sel) => document.querySelector(sel)?.hasAttribute("value"), `.tool-detail[data-server="${server}"] progress.call-progress`, { timeout: 20_000 });
      await detail.getByRole("button", { name: "Cancel" }).click();
      await detail.locator('.run[data-state="cancelled"]').waitFor({ timeout: 10_000 });
      assert.match(await detail.locator(".error-box").getAttribute("data-code"), /ABORTED/);
      assert.match(await detail.locator(".elapsed").innerText(), /cancelled after/);
      assert.ok(await detail.getByRole("button", { name: "Call tool" }).isEnabled());
      if (server === "everything") await screenshot(page, "07-cancelled");
    }
  });

  test("elicitation dialogs: server-everything's form and the Python server's two MRTR rounds", async () => {
    const { page } = p;
    const detail = await openTool(page, "everything", "trigger-elicitation-request");
    await detail.getByRole("button", { name: "Call tool" }).click();
    const dialog = page.getByRole("dialog", { name: "The server asks for input" });
    await dialog.waitFor({ timeout: 15_000 });
    assert.equal(await dialog.locator('.field[data-path="integer"] input').inputValue(), "42", "defaults pre-fill the form");
    await dialog.locator('.field[data-path="name"] input').fill("Ada Lovelace");
    await dialog.locator('.field[data-path="check"] select').selectOption("true");
    await screenshot(page, "08-elicitation-dialog");
    await dialog.getByRole("button", { name: "Accept" }).click();
    await detail.locator(".run[data-state=done]").waitFor({ timeout: 15_000 });
    const text = await detail.locator(".result").innerText();
    assert.match(text, /Name: Ada Lovelace/);
    assert.match(text, /Agreed to terms: true/);
    assert.match(text, /Favorite Integer: 42/);

    const mrtr = await openTool(page, "py2026", "mrtr_twice");
    await mrtr.getByRole("button", { name: "Call tool" }).click();
    for (const [round, answer] of [["first", "apple"], ["second", "banana"]]) {
      const d = page.getByRole("dialog", { name: "The server asks for input" }).filter({ hasText: `${round} question` });
      await d.waitFor({ timeout: 15_000 });
      await d.locator('.field[data-path="answer"] input').fill(answer);
      await d.getByRole("button", { name: "Accept" }).click();
      await d.waitFor({ state: "detached" });
    }
    await mrtr.locator(".run[data-state=done]").waitFor({ timeout: 15_000 });
    assert.match(await mrtr.locator(".result").innerText(), /first=apple second=banana/);

    // URL mode: the dialog shows the host and the full URL before consent; the link is never opened here.
    const urlTool = await openTool(page, "everything", "trigger-url-elicitation");
    const target = "http://127.0.0.1:9/consent?step=1";
    await urlTool.locator('.field[data-path="url"] input').fill(target);
    await urlTool.getByRole("button", { name: "Call tool" }).click();
    const urlDialog = page.getByRole("dialog", { name: "The server asks you to open a link" });
    await urlDialog.waitFor({ timeout: 15_000 });
    assert.equal(await urlDialog.locator("a.elicit-url").getAttribute("href"), target);
    assert.equal(await urlDialog.locator(".host").innerText(), "127.0.0.1:9");
    await screenshot(page, "08b-url-elicitation-dialog");
    await urlDialog.getByRole("button", { name: "Accept" }).click();
    await urlTool.locator(".run[data-state=done]").waitFor({ timeout: 15_000 });
    assert.match(await urlTool.locator(".result").innerText(), /completed the URL elicitation flow/);
    // The error path (-32042) lists the URL to open in the error box.
    await urlTool.locator('.field[data-path="errorPath"] input').check();
    assert.equal(await callAndWait(urlTool), "failed");
    assert.equal(await urlTool.locator(".url-elicitations a.elicit-url").count(), 1);
    assert.match(await urlTool.locator(".error-box").innerText(), /-32042/);

    // Declining reaches the server too.
    await openTool(page, "py2026", "mrtr_twice");
    await mrtr.getByRole("button", { name: "Call tool" }).click();
    const d = page.getByRole("dialog", { name: "The server asks for input" });
    await d.waitFor({ timeout: 15_000 });
    await d.getByRole("button", { name: "Decline" }).click();
    await mrtr.locator(".run[data-state=tool-error]").waitFor({ timeout: 15_000 });
    assert.match(await mrtr.locator(".result").innerText(), /not accepted: decline/);

    // Keyboard: Escape dismisses the dialog as "cancel".
    await mrtr.getByRole("button", { name: "Call tool" }).click();
    await d.waitFor({ timeout: 15_000 });
    await page.keyboard.press("Escape");
    await mrtr.locator(".run[data-state=tool-error]").waitFor({ timeout: 15_000 });
    assert.match(await mrtr.locator(".result").innerText(), /not accepted: cancel/);
  });

  test("sampling dialog: the user writes the model's reply", async () => {
    const { page } = p;
    const detail = await openTool(page, "everything", "trigger-sampling-request");
    await detail.locator('.field[data-path="prompt"] input').fill("Say hi");
    await detail.getByRole("button", { name: "Call tool" }).click();
    const dialog = page.getByRole("dialog", { name: "The server asks for a model completion" });
    await dialog.waitFor({ timeout: 15_000 });
    assert.match(await dialog.innerText(), /Say hi/);
    await dialog.getByLabel("Assistant reply").fill("Hi from the human loop");
    await screenshot(page, "09-sampling-dialog");
    await dialog.getByRole("button", { name: "Send reply" }).click();
    await detail.locator(".run[data-state=done]").waitFor({ timeout: 15_000 });
    assert.match(await detail.locator(".result").innerText(), /Hi from the human loop/);
  });

  test("resources and prompts tabs", async () => {
    const { page } = p;
    await card(page, "everything").locator("button.select").click();
    // Tabs follow the WAI-ARIA pattern: arrow keys move between them.
    await page.getByRole("tab", { name: "Tools" }).focus();
    await page.keyboard.press("ArrowRight");
    assert.equal(await page.getByRole("tab", { name: "Resources" }).getAttribute("aria-selected"), "true");
    assert.equal(await page.evaluate(() => document.activeElement.id), "tab-resources");
    assert.ok(await page.locator("#panel-resources").isVisible());
    assert.ok(!(await page.locator("#panel-tools").isVisible()));
    const panel = page.locator("#panel-resources");
    const firstRead = panel.locator(".resource-list button").first();
    await firstRead.waitFor({ timeout: 15_000 });
    await firstRead.click();
    await panel.locator(".read-output .resource").first().waitFor({ timeout: 15_000 });
    const tpl = panel.locator("form.template").first();
    await tpl.locator("input").first().fill("7");
    assert.match(await tpl.locator("code.preview").innerText(), /\/7$/);
    await tpl.getByRole("button", { name: "Read" }).click();
    await panel.locator(".read-output").getByText(/7/).first().waitFor({ timeout: 15_000 });
    await screenshot(page, "10-resources");

    await page.getByRole("tab", { name: "Prompts" }).click();
    const prompts = page.locator("#panel-prompts");
    const form = prompts.locator('form[aria-label="Prompt args-prompt"]');
    await form.waitFor({ timeout: 15_000 });
    await form.getByLabel("city").fill("Lisbon");
    await form.getByRole("button", { name: "Get prompt" }).click();
    await prompts.locator(".prompt-output").getByText("What's weather in Lisbon?").waitFor({ timeout: 15_000 });
    // Completions narrow the second argument by the first (completion/complete with context).
    const team = prompts.locator('form[aria-label="Prompt completable-prompt"]');
    await team.getByLabel("department").pressSequentially("Eng");
    await page.waitForFunction(() => [...document.querySelectorAll("#panel-prompts datalist option")].some((o) => o.value === "Engineering"), null, { timeout: 10_000 });
    await team.getByLabel("department").fill("Engineering");
    await team.getByLabel("name").pressSequentially("A");
    await page.waitForFunction(() => [...document.querySelectorAll("#panel-prompts datalist option")].some((o) => o.value === "Alice"), null, { timeout: 10_000 });
    const nameOptions = await team.locator("datalist").nth(1).locator("option").evaluateAll((os) => os.map((o) => o.value));
    assert.deepEqual(nameOptions, ["Alice"]);
    await screenshot(page, "11-prompts");
    await page.getByRole("tab", { name: "Tools" }).click();
  });

  test("the traffic panel finds the tools/call request, with Mcp-* headers, SSE frames and export", async () => {
    const { page } = p;
    await page.getByRole("tab", { name: "Traffic" }).click();
    const panel = page.locator("#panel-traffic");
    await panel.getByRole("searchbox", { name: "Filter" }).fill("tools/call");
    const calls = panel.locator('ol.traffic > li[data-type="request"][data-dir="out"]', { hasText: "tools/call" });
    assert.ok((await calls.count()) >= 5, "every tools/call request is listed");
    // The 2026-era request carries Mcp-Method / Mcp-Name headers (SEP routing headers).
    const py = calls.filter({ hasText: "py2026" }).first();
    assert.match(await py.locator("summary").innerText(), /mcp-method: tools\/call/i);
    await py.locator("summary").click();
    assert.match(await py.locator("pre.raw").innerText(), /"method":\s*"tools\/call"/);
    // Raw SSE frames of the progress call are there, direction "in", with the HTTP status head.
    await panel.getByRole("searchbox", { name: "Filter" }).fill("notifications/progress");
    const frames = panel.locator('ol.traffic > li[data-type="body"][data-dir="in"]');
    assert.ok((await frames.count()) >= 1);
    await frames.first().locator("summary").click();
    assert.match(await frames.first().locator("pre.raw").innerText(), /data: .*notifications\/progress/);
    await panel.getByRole("searchbox", { name: "Filter" }).fill("HTTP 200");
    assert.ok((await panel.locator('ol.traffic > li[data-type="head"]').count()) >= 1);
    // The cancelled 2025 call sent notifications/cancelled.
    await panel.getByRole("searchbox", { name: "Filter" }).fill("notifications/cancelled");
    assert.ok((await panel.locator('ol.traffic > li[data-type="request"]').count()) >= 1, "cancel is sent to the 2025 server");
    await panel.getByRole("searchbox", { name: "Filter" }).fill("tools/call");
    await calls.first().locator("summary").click();
    await screenshot(page, "12-traffic");

    const [download] = await Promise.all([page.waitForEvent("download"), panel.getByRole("button", { name: "Export JSON" }).click()]);
    const exported = JSON.parse(await readFile(await download.path(), "utf8"));
    assert.ok(Array.isArray(exported) && exported.length > 10);
    assert.ok(exported.some((r) => r.type === "request" && /"tools\/call"/.test(r.body ?? "")), "export holds the tools/call request");
    assert.ok(exported.some((r) => r.type === "head" && r.status === 200 && r.headers.length > 0));
  });

  test("no console errors on the page", () => {
    assert.deepEqual(p.unexpected(), []);
  });
});

describe("adding servers by hand", () => {
  test("without ?autoconnect=0 the pre-filled servers connect on load (the demo mode)", async () => {
    const p = await openPlayground(browser.context, "");
    try {
      for (const name of ["everything", "py2026"]) {
        await p.page.locator(`.server-card[data-server="${name}"][data-state="connected"]`).waitFor({ timeout: 30_000 });
      }
      // A ?server= query parameter replaces the defaults.
      await p.page.goto(`${env("PLAYGROUND_URL")}?autoconnect=0&server=${encodeURIComponent(env("PY2026_URL"))}`);
      await p.page.waitForSelector("body[data-ready=true]");
      assert.equal(await p.page.locator(".server-card").count(), 1);
      assert.ok((await p.page.locator(".server-card .url").innerText()).includes(env("PY2026_URL")));
      assert.deepEqual(p.unexpected(), []);
    } finally {
      await p.page.close();
    }
  });

  test("a server without CORS gets the library's diagnosis", async () => {
    const p = await openPlayground(browser.context, "?autoconnect=0");
    try {
      const url = `${env("FIXTURE_NOCORS_URL")}/mcp-faulty`;
      const port = new URL(url).port;
      // The browser itself logs the blocked request: these two messages are provoked on purpose.
      p.expect(new RegExp(`Access to fetch at 'http://127\\.0\\.0\\.1:${port}/mcp-faulty' from origin .* blocked by CORS policy`));
      p.expect(/^Failed to load resource: net::ERR_FAILED$/);
      await p.page.locator("#add-server summary").click();
      await p.page.getByLabel("URL").fill(url);
      await p.page.getByLabel("Name").fill("nocors");
      await p.page.getByRole("button", { name: "Add and connect" }).click();
      const c = card(p.page, "nocors");
      await p.page.locator('.server-card[data-server="nocors"][data-state="error"]').waitFor({ timeout: 20_000 });
      assert.equal(await c.locator(".last-error").getAttribute("data-code"), "CORS");
      // The selected server's panel shows the library's diagnosis: which headers the server must send.
      const box = p.page.locator("#panel-tools .error-box");
      assert.equal(await box.getAttribute("data-code"), "CORS");
      const diagnosis = await box.locator(".diagnosis").innerText();
      assert.match(diagnosis, /Access-Control-Allow-Origin: http:\/\/127\.0\.0\.1:\d+/);
      assert.match(diagnosis, /Access-Control-Allow-Headers: .*mcp-protocol-version/);
      assert.match(diagnosis, /Access-Control-Expose-Headers: .*mcp-session-id/);
      await screenshot(p.page, "13-cors-diagnosis");
      const stray = p.unexpected();
      assert.deepEqual(stray, []);
      assert.ok(p.errors.length >= 1, "the CORS block was really provoked");
    } finally {
      await p.page.close();
    }
  });

  test("auto protocol falls back to 2025 for server-everything; the bearer token is sent but never shown or exported", async () => {
    const p = await openPlayground(browser.context, "?autoconnect=0");
    // Sentinels: a bearer token, a configured header value, and a credential field of a call's body.
    const TOKEN = `sentinel-bearer-${Date.now().toString(36)}-7f3a9c`;
    const HEADER = `sentinel-header-${Date.now().toString(36)}-b41e`;
    const FIELD = `sentinel-field-${Date.now().toString(36)}-c0de`;
    try {
      const url = env("EVERYTHING_URL");
      // server-everything answers the 2026-07-28 probe with HTTP 400 (it only speaks 2025): the
      // browser logs that failed request; that single message is expected.
      p.expect(new RegExp(`^Failed to load resource: the server responded with a status of 400`));
      await p.page.locator("#add-server summary").click();
      await p.page.getByLabel("URL").fill(url);
      await p.page.getByLabel("Name").fill("ev_auto");
      await p.page.getByLabel("Bearer token").fill(TOKEN);
      await p.page.getByLabel("Extra headers").fill(`X-Playground: ${HEADER}`);
      await p.page.getByRole("button", { name: "Add and connect" }).click();
      await p.page.locator('.server-card[data-server="ev_auto"][data-state="connected"]').waitFor({ timeout: 30_000 });
      assert.match(await card(p.page, "ev_auto").locator(".era").innerText(), /2025-11-25/);
      const roots = p.page.getByRole("dialog", { name: "The server asks for your roots" });
      await roots.waitFor({ timeout: 15_000 });
      await roots.getByRole("button", { name: "Refuse" }).click();
      // A call whose arguments carry a credential field (raw JSON mode).
      const detail = await openTool(p.page, "ev_auto", "get-sum");
      await detail.getByLabel("Edit as raw JSON").check();
      await detail.getByLabel("Arguments as JSON").fill(JSON.stringify({ a: 1, b: 2, client_secret: FIELD }));
      await detail.getByRole("button", { name: "Call tool" }).click();
      await detail.locator(".run[data-state]:not([data-state=running])").waitFor({ timeout: 30_000 });

      await p.page.getByRole("tab", { name: "Traffic" }).click();
      const panel = p.page.locator("#panel-traffic");
      await panel.getByRole("searchbox", { name: "Filter" }).fill("initialize");
      const init = panel.locator('ol.traffic > li[data-type="request"]').first();
      await init.locator("summary").click();
      const headers = await init.locator("table.headers").innerText();
      // The headers were sent (they are listed), their values are not shown.
      assert.match(headers, /authorization\s+\[redacted\]/i);
      assert.match(headers, /x-playground\s+\[redacted\]/i);
      await panel.getByRole("searchbox", { name: "Filter" }).fill("tools/call");
      const call = panel.locator('ol.traffic > li[data-type="request"]', { hasText: "ev_auto" }).first();
      await call.locator("summary").click();
      assert.match(await call.locator("pre.raw").innerText(), /"client_secret":\s*"\[redacted\]"/);
      await panel.getByRole("searchbox", { name: "Filter" }).fill("HTTP 400");
      assert.ok((await panel.locator('ol.traffic > li[data-type="head"]').count()) >= 1, "the 2026 probe got 400");
      // Nowhere in the page (every record is in the DOM, folded or not) ...
      await panel.getByRole("searchbox", { name: "Filter" }).fill("");
      const html = await p.page.content();
      for (const secret of [TOKEN, HEADER, FIELD]) assert.ok(!html.includes(secret), `${secret} is in the page`);
      assert.ok((await panel.locator("ol.traffic > li").count()) > 5, "the records are rendered");
      // ... nor in the export, nor found by the filter.
      const [download] = await Promise.all([p.page.waitForEvent("download"), panel.getByRole("button", { name: "Export JSON" }).click()]);
      const exported = await readFile(await download.path(), "utf8");
      assert.ok(exported.includes('"authorization"') && exported.includes("[redacted]"), "the export lists the redacted header");
      for (const secret of [TOKEN, HEADER, FIELD]) assert.ok(!exported.includes(secret), `${secret} is in the export`);
      await panel.getByRole("searchbox", { name: "Filter" }).fill(TOKEN);
      assert.equal(await panel.locator("ol.traffic > li").count(), 0, "the filter cannot find the token");
      assert.deepEqual(p.unexpected(), []);
      // Remove works.
      await p.page.getByRole("button", { name: "Remove ev_auto" }).click();
      assert.equal(await card(p.page, "ev_auto").count(), 0);
    } finally {
      await p.page.close();
    }
  });
});
