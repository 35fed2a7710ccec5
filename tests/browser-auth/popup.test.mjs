// Popup sign-in (acceptance items 1 and 3): Connect -> 401 -> AUTH_INTERACTION_REQUIRED with the
// prepared URL -> the "Sign in" click opens it in a popup synchronously -> the person signs in and
// consents on oidc-provider's pages -> www/oauth-callback.html hands the callback URL back ->
// completeAuthorization -> tools listed and a tool called; for servers of both eras, and again with
// the authorization server's pages sending `Cross-Origin-Opener-Policy: same-origin` (the popup
// loses `window.opener`: only the BroadcastChannel reaches the app). A popup opened outside a user
// gesture is blocked and is AUTH_POPUP_BLOCKED carrying the URL.
import { test, before, after, describe } from "node:test";
import assert from "node:assert/strict";
import { authServers, launch, openApp, serveStatic, setBrowserOptions, signInAsPerson, screenshot } from "./lib.mjs";

const servers = authServers();
let site;
before(async () => { site = await serveStatic(); });
after(async () => {
  await setBrowserOptions(servers.admin, { coop: false });
  await site?.close();
});

/** Connect, Sign in (popup), consent, callback; returns what the app got and the popup's opener. */
async function popupSignIn(server, { shots } = {}) {
  const browser = await launch();
  try {
    const { page } = await openApp(browser.context, site.origin);
    const prepared = await page.evaluate((s) => window.app.prepare(s), server);
    assert.equal(prepared.error?.code, "AUTH_INTERACTION_REQUIRED", JSON.stringify(prepared));
    assert.ok(prepared.error.url.startsWith(`${servers.issuer}/auth?`), prepared.error.url);
    const popupOpened = browser.context.waitForEvent("page");
    await page.click("#sign-in");
    const popup = await popupOpened;
    await popup.waitForURL((u) => u.href.startsWith(servers.issuer));
    await popup.waitForLoadState("domcontentloaded");
    // What the sign-in page sees of its opener: nothing under COOP.
    const openerSeen = await popup.evaluate(() => window.opener !== null);
    if (shots) await screenshot(popup, `${shots}-login`);
    await signInAsPerson(popup, site.origin);
    const outcome = await page.waitForFunction(() => window.app.outcome, null, { timeout: 30_000 }).then(() => page.evaluate(() => window.app.outcome));
    if (shots) await screenshot(page, `${shots}-signed-in`);
    if (!popup.isClosed()) await popup.waitForEvent("close", { timeout: 10_000 }).catch(() => {});
    return { outcome, popupClosed: popup.isClosed(), openerSeen };
  } finally {
    await browser.close();
  }
}

for (const coop of [false, true]) {
  describe(`popup sign-in${coop ? " with Cross-Origin-Opener-Policy: same-origin on the sign-in pages" : ""}`, () => {
    before(async () => { await setBrowserOptions(servers.admin, { coop }); });
    for (const [era, server] of [["2026-07-28", servers.py], ["2025-11-25", servers.node]]) {
      test(`${era} server: tools listed and a tool called after the popup`, { timeout: 90_000 }, async () => {
        const { outcome, popupClosed, openerSeen } = await popupSignIn(server, { shots: coop ? undefined : `auth-popup-${era}` });
        assert.ok(outcome.ok, JSON.stringify(outcome));
        assert.deepEqual(outcome.ok.tools.sort(), ["echo", "whoami"]);
        assert.equal(outcome.ok.whoami.sub, "alice");
        assert.match(outcome.ok.whoami.scope, /mcp:read/);
        assert.equal(outcome.ok.status.issuer, servers.issuer);
        assert.ok(popupClosed, "the callback page closes the popup once the app has the URL");
        assert.equal(openerSeen, !coop, coop ? "COOP severs window.opener" : "without COOP the popup has its opener");
      });
    }
  });
}

describe("a popup outside a user gesture", () => {
  test("is blocked: AUTH_POPUP_BLOCKED with the URL, from the helper and through onAuthorizationUrl", { timeout: 90_000 }, async () => {
    const browser = await launch();
    try {
      const { page } = await openApp(browser.context, site.origin);
      const prepared = await page.evaluate((s) => window.app.prepare(s), servers.py);
      const url = prepared.error.url;
      // Reloaded: the new document has no user activation when its script opens the popup.
      const reported = page.waitForEvent("console", { predicate: (m) => m.text().startsWith("popup-on-load "), timeout: 30_000 });
      await page.goto(`${site.origin}/test/app.html?popup-on-load=1`);
      const [direct, viaHandler] = JSON.parse((await reported).text().slice("popup-on-load ".length));
      assert.equal(direct.error?.code, "AUTH_POPUP_BLOCKED", JSON.stringify(direct));
      assert.equal(direct.error.url, url);
      assert.equal(viaHandler.error?.code, "AUTH_POPUP_BLOCKED", JSON.stringify(viaHandler));
      assert.ok(viaHandler.error.url.startsWith(`${servers.issuer}/auth?`));
      assert.notEqual(viaHandler.error.url, url, "a new sign-in, a new state");
      const pages = browser.context.pages().map((p) => p.url());
      assert.ok(!pages.some((u) => u.startsWith(servers.issuer)), `no sign-in window was opened: ${pages}`);
    } finally {
      await browser.close();
    }
  });
});
