// The playground with protected servers of both eras (acceptance items 7 to 9): a server that
// answers 401 shows "Sign in"; the popup flow runs; the card shows who is signed in (issuer,
// scopes, token type, expiry) and offers sign-out; a tool is called. Then the sentinels: no code,
// PKCE verifier, token, refresh token, client secret or registration token the authorization
// server handed out or received, and no private DPoP key member in any proof,
// appears in the page's console, in any URL the browser requested (except the code in the redirect
// to the callback page, which is how OAuth delivers it), in the traffic panel's DOM or in its
// JSON export. Screenshots of each state go to target/browser-screenshots/.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { authServers, issued, launch, leaked, serveStatic, signInAsPerson, screenshot } from "./lib.mjs";

const servers = authServers();
let site;
let browser;
let page;
const consoleLines = [];
const requested = [];
before(async () => {
  site = await serveStatic({ servers: [{ name: "auth2026", url: servers.py }, { name: "auth2025", url: servers.node }] });
  browser = await launch();
  browser.context.on("request", (r) => requested.push(r.url()));
  browser.context.on("console", (m) => consoleLines.push(m.text()));
  page = await browser.context.newPage();
  page.on("pageerror", (e) => consoleLines.push(`pageerror: ${e.message}`));
  await page.goto(`${site.origin}/`);
  await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
});
after(async () => {
  await browser?.close();
  await site?.close();
});

const card = (name) => page.locator(`.server-card[data-server="${name}"]`);
const waitState = (name, state) => page.waitForSelector(`.server-card[data-server="${name}"][data-state="${state}"]`, { timeout: 30_000 });

for (const [era, name] of [["2026-07-28", "auth2026"], ["2025-11-25", "auth2025"]]) {
  test(`${era} server: 401 -> Sign in -> popup -> signed in (issuer, scopes, expiry) -> a tool call`, { timeout: 90_000 }, async () => {
    await card(name).getByRole("button", { name: `Connect ${name}` }).click();
    await waitState(name, "needs-auth");
    assert.equal(await card(name).getByRole("button", { name: `Sign in to ${name}` }).count(), 1);
    if (era === "2026-07-28") await screenshot(page, "auth-playground-1-sign-in-required");
    const opened = browser.context.waitForEvent("page");
    await card(name).getByRole("button", { name: `Sign in to ${name}` }).click();
    const popup = await opened;
    await popup.waitForURL((u) => u.href.startsWith(servers.issuer));
    await popup.waitForLoadState("domcontentloaded");
    if (era === "2026-07-28") await screenshot(popup, "auth-playground-2-provider-login");
    await signInAsPerson(popup, site.origin, "playground-alice");
    await waitState(name, "connected");
    const info = card(name).locator(".auth-info");
    assert.equal(await info.locator(".auth-issuer").innerText(), servers.issuer);
    assert.match(await info.locator(".auth-scope").innerText(), /mcp:read/);
    assert.match(await info.locator(".auth-expiry").innerText(), /^expires \d/);
    assert.equal(await info.locator(".auth-type").innerText(), "DPoP");
    if (era === "2026-07-28") await screenshot(page, "auth-playground-3-signed-in");

    await card(name).locator("button.select").click();
    await page.getByRole("tab", { name: "Tools" }).click();
    await page.locator('.tool-item[data-tool="whoami"]').click();
    const detail = page.locator(`.tool-detail[data-server="${name}"][data-tool="whoami"]`);
    await detail.getByRole("button", { name: "Call tool" }).click();
    await detail.locator(".run[data-state]:not([data-state=running])").waitFor({ timeout: 30_000 });
    assert.match(await detail.locator(".result").innerText(), /playground-alice/);
  });
}

test("sign-out forgets the tokens: the next connect asks to sign in again", { timeout: 60_000 }, async () => {
  await card("auth2026").getByRole("button", { name: "Sign out of auth2026" }).click();
  await waitState("auth2026", "idle");
  await card("auth2026").getByRole("button", { name: "Connect auth2026" }).click();
  await waitState("auth2026", "needs-auth");
  await screenshot(page, "auth-playground-4-signed-out");
});

test("no OAuth secret in the console, request URLs, the traffic panel or its export", { timeout: 60_000 }, async () => {
  const { secrets, events } = await issued(servers.admin);
  assert.ok(secrets.length >= 6, `the issuer handed out codes and tokens: ${secrets.length}`);
  // The set includes each code exchange's PKCE verifier; DPoP proofs carried public keys only.
  const exchanges = events.filter((e) => e.type === "token" && e.pkce);
  assert.ok(exchanges.length >= 2, `code exchanges with a PKCE verifier: ${JSON.stringify(events)}`);
  const proofs = events.filter((e) => e.type === "token" && e.dpop_jwk_members);
  assert.ok(proofs.length >= 1, "DPoP proofs reached the token endpoint");
  for (const p of proofs) assert.deepEqual(p.dpop_jwk_members, ["crv", "kty", "x", "y"], "no private key member in a proof");
  await page.getByRole("tab", { name: "Traffic" }).click();
  const panel = page.locator("#panel-traffic");
  assert.ok((await panel.locator('ol.traffic > li[data-type="request"]').count()) > 5, "the panel shows the OAuth and MCP traffic");
  const dom = await panel.innerHTML();
  assert.match(dom, /\/token/, "the token requests are in the panel");
  const [download] = await Promise.all([page.waitForEvent("download"), panel.getByRole("button", { name: "Export JSON" }).click()]);
  const exported = await readFile(await download.path(), "utf8");
  assert.match(exported, /\[redacted\]/);
  // The code's only legitimate trip: the redirect to the callback page.
  const callback = `${site.origin}/oauth-callback.html?`;
  const urls = requested.filter((u) => !u.startsWith(callback));
  assert.ok(requested.some((u) => u.startsWith(callback)), "the callback page was loaded");
  for (const [where, texts] of [["console", consoleLines], ["request URLs", urls], ["static server URLs", site.urls.filter((u) => !u.startsWith("/oauth-callback.html?"))], ["traffic panel DOM", [dom]], ["export", [exported]]]) {
    assert.deepEqual(leaked(secrets, texts), [], `a secret in the ${where}`);
  }
  await screenshot(page, "auth-playground-5-traffic-redacted");
});
