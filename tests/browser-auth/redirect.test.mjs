// Full-page redirect sign-in (acceptance item 2): the page itself is the redirect URI. Connect ->
// AUTH_INTERACTION_REQUIRED -> the page goes to the authorization URL (the pending sign-in —
// verifier, state, issuer, metadata, resource, scope, client, redirect URI, time — is in
// sessionStorage by browserStorage) -> the person signs in -> the reloaded page finishes with
// completeAuthorization(location.href) and connects. Reloaded once more, it connects with the
// stored tokens alone (localStorage) and the same DPoP key (IndexedDB): no second sign-in.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { authServers, issued, launch, openApp, serveStatic, signInAsPerson, screenshot } from "./lib.mjs";

const servers = authServers();
let site;
before(async () => { site = await serveStatic(); });
after(async () => { await site?.close(); });

for (const [era, server] of [["2026-07-28", servers.py], ["2025-11-25", servers.node]]) {
  test(`${era} server: the sign-in resumes after the reload and connects`, { timeout: 90_000 }, async () => {
    const browser = await launch();
    try {
      const { page } = await openApp(browser.context, site.origin);
      page.evaluate((s) => window.app.leaveToSignIn(s), server).catch(() => {}); // the page navigates away
      await page.waitForURL((u) => u.href.startsWith(servers.issuer), { timeout: 30_000 });
      await signInAsPerson(page, site.origin);
      await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
      await page.waitForFunction(() => window.app.outcome, null, { timeout: 30_000 });
      const outcome = await page.evaluate(() => window.app.outcome);
      assert.ok(outcome.ok, JSON.stringify(outcome));
      assert.deepEqual(outcome.ok.tools.sort(), ["echo", "whoami"]);
      assert.equal(outcome.ok.whoami.sub, "alice");
      assert.equal(outcome.ok.whoami.token_type, "DPoP", "a DPoP-bound token: its key must outlive the page");
      assert.equal(page.url(), `${site.origin}/test/app.html`, "the code left the address bar");
      if (era === "2026-07-28") await screenshot(page, "auth-redirect-resumed");

      // Reloaded again: the stored tokens and DPoP key do; the issuer sees no new authorization.
      const before = (await issued(servers.admin)).events.filter((e) => e.type === "authorization").length;
      await page.reload();
      await page.waitForSelector("body[data-ready=true]");
      const again = await page.evaluate((s) => window.app.connectAndUse(s, { redirect: true }), server);
      assert.ok(again.ok, JSON.stringify(again));
      assert.equal(again.ok.whoami.sub, "alice");
      assert.equal(again.ok.whoami.token_type, outcome.ok.whoami.token_type);
      const afterReload = (await issued(servers.admin)).events.filter((e) => e.type === "authorization").length;
      assert.equal(afterReload, before, "no second sign-in after the reload");
    } finally {
      await browser.close();
    }
  });
}
