// An authorization server without CORS on its token endpoint (acceptance item 4): the popup
// sign-in's code exchange is blocked by the browser and fails with AUTH_CORS naming /token and
// the header the server must send; the same flow passes with `auth.fetch` sending OAuth traffic
// through a relay (a tiny loopback one here, as an app proxy or an edge Worker would be).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { authServers, launch, popupSignIn, serveStatic, setBrowserOptions, screenshot } from "./lib.mjs";

const servers = authServers();
let site;
let relay;
const relayed = [];
before(async () => {
  site = await serveStatic();
  relay = await startRelay();
  await setBrowserOptions(servers.admin, { tokenCors: false });
});
after(async () => {
  await setBrowserOptions(servers.admin, { tokenCors: true });
  await site?.close();
  await new Promise((ok) => { relay?.server.closeAllConnections(); relay?.server.close(ok); });
});

/** Forwards `?url=<URL>` (loopback only: the authorization server and the protected servers'
 * metadata) and answers with CORS. */
async function startRelay() {
  const server = http.createServer(async (req, res) => {
    const cors = { "access-control-allow-origin": req.headers.origin ?? "*", vary: "origin", "access-control-expose-headers": "dpop-nonce" };
    if (req.method === "OPTIONS") {
      res.writeHead(204, { ...cors, "access-control-allow-methods": "GET, POST", "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "" });
      res.end();
      return;
    }
    const target = new URL(req.url, "http://relay").searchParams.get("url") ?? "";
    if (!target.startsWith("http://127.0.0.1:")) {
      res.writeHead(403, cors).end("loopback only\n");
      return;
    }
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const headers = {};
    for (const h of ["content-type", "accept", "authorization", "dpop"]) if (req.headers[h]) headers[h] = req.headers[h];
    const r = await fetch(target, { method: req.method, headers, body: req.method === "POST" ? Buffer.concat(chunks) : undefined, redirect: "manual" });
    relayed.push(`${req.method} ${new URL(target).pathname}`);
    const out = { ...cors, "content-type": r.headers.get("content-type") ?? "application/octet-stream" };
    if (r.headers.get("dpop-nonce")) out["dpop-nonce"] = r.headers.get("dpop-nonce");
    res.writeHead(r.status, out).end(Buffer.from(await r.arrayBuffer()));
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { server, url: `http://127.0.0.1:${server.address().port}/relay` };
}

test("a 401 whose WWW-Authenticate the browser hides: the well-known metadata is found and the person signs in", { timeout: 90_000 }, async () => {
  const toggle = (on) => fetch(new URL(`/_test/expose-challenge?on=${on}`, servers.node), { method: "POST" });
  assert.equal((await toggle(0)).status, 204);
  // This file turns CORS off on /token for the tests below; this one needs it.
  await setBrowserOptions(servers.admin, { tokenCors: true });
  const browser = await launch();
  try {
    // First, that the page really cannot read the challenge.
    const page = await browser.context.newPage();
    await page.goto(`${site.origin}/`);
    const seen = await page.evaluate(async (url) => {
      const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
      return { status: r.status, challenge: r.headers.get("www-authenticate") };
    }, servers.node);
    assert.deepEqual(seen, { status: 401, challenge: null });
    await page.close();
    const { outcome } = await popupSignIn(browser.context, site.origin, servers.node);
    assert.ok(outcome.ok, JSON.stringify(outcome));
    assert.equal(outcome.ok.whoami.sub, "alice");
  } finally {
    await browser.close();
    await toggle(1);
    await setBrowserOptions(servers.admin, { tokenCors: false });
  }
});

test("no CORS on /token: AUTH_CORS names the endpoint and the header", { timeout: 90_000 }, async () => {
  const browser = await launch();
  try {
    const { page, outcome } = await popupSignIn(browser.context, site.origin, servers.py);
    assert.equal(outcome.error?.code, "AUTH_CORS", JSON.stringify(outcome));
    assert.equal(outcome.error.endpoint, `${servers.issuer}/token`);
    assert.match(outcome.error.diagnosis, new RegExp(`Access-Control-Allow-Origin: ${site.origin}`));
    assert.match(outcome.error.diagnosis, /authorization server/);
    assert.match(outcome.error.diagnosis, /auth\.fetch/);
    await screenshot(page, "auth-cors-token-blocked");
  } finally {
    await browser.close();
  }
});

for (const [era, server] of [["2026-07-28", servers.py], ["2025-11-25", servers.node]]) {
  test(`${era} server: the same flow through a relay (auth.fetch) signs in`, { timeout: 90_000 }, async () => {
    const browser = await launch();
    relayed.length = 0;
    try {
      const { outcome } = await popupSignIn(browser.context, site.origin, server, { relay: relay.url });
      assert.ok(outcome.ok, JSON.stringify(outcome));
      assert.equal(outcome.ok.whoami.sub, "alice");
      assert.ok(relayed.includes("POST /token"), `the code exchange went through the relay: ${relayed}`);
    } finally {
      await browser.close();
    }
  });
}
