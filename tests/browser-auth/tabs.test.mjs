// Two tabs of one origin sharing a sign-in (acceptance item 5) against an authorization server
// that rotates refresh tokens and revokes the whole grant when a used one comes back
// (oidc-provider): tokens and the DPoP key in IndexedDB (browserStorage), access tokens living
// 8 s. When both tabs find the token expired at once, one refresh reaches the
// server (the Web Lock on issuer + client, and the stored tokens read again under it); both
// tabs keep working, and the next refresh (by either tab) uses the rotated token the other one
// stored.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { authServers, issued, launch, openApp, popupSignIn, serveStatic, setAccessTokenTtl } from "./lib.mjs";

const servers = authServers();
const TTL_S = 8;
let site;
before(async () => {
  site = await serveStatic();
  await setAccessTokenTtl(servers.admin, TTL_S);
});
after(async () => {
  await setAccessTokenTtl(servers.admin, 600);
  await site?.close();
});

const grants = async () => (await issued(servers.admin)).events.filter((e) => e.type === "token" || e.type === "token_error");
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

for (const [era, server] of [["2026-07-28", servers.py], ["2025-11-25", servers.node]]) {
  test(`${era} server: one refresh for two tabs, both keep working`, { timeout: 120_000 }, async () => {
    const browser = await launch();
    try {
      const a = await popupSignIn(browser.context, site.origin, server);
      assert.ok(a.outcome.ok, JSON.stringify(a.outcome));
      const signedInAt = Date.now();
      const b = await openApp(browser.context, site.origin);
      const second = await b.page.evaluate((s) => window.app.connectAndUse(s), server);
      assert.ok(second.ok, `the second tab uses the stored sign-in: ${JSON.stringify(second)}`);
      assert.equal(second.ok.whoami.client_id, a.outcome.ok.whoami.client_id);

      for (let round = 1; round <= 2; round++) {
        // Past the token's life: both tabs must refresh for their next request.
        await sleep(Math.max(0, signedInAt + round * (TTL_S + 1) * 1000 - Date.now()));
        const before = (await grants()).length;
        const [ra, rb] = await Promise.all([a.page.evaluate((s) => window.app.call(s), server), b.page.evaluate((s) => window.app.call(s), server)]);
        const seen = (await grants()).slice(before);
        if (!(ra.ok && rb.ok)) {
          const wire = await Promise.all([a.page, b.page].map((p) => p.evaluate(() => window.app.traffic)));
          assert.fail(`round ${round}: ${JSON.stringify([ra, rb, seen])}\n${wire.map((w, i) => `tab ${"ab"[i]}:\n${w.join("\n")}`).join("\n")}`);
        }
        assert.deepEqual(seen.map((g) => `${g.type} ${g.grant_type}`), ["token refresh_token"], `round ${round}: exactly one refresh, no error`);
      }
    } finally {
      await browser.close();
    }
  });
}
