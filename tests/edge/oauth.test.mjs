// The Worker template signs in to OAuth-protected MCP servers, in real workerd, against a real
// authorization server (oidc-provider, tests/servers/auth/as.mjs) and protected servers of both eras
// (Python mcp 2.3.0, 2026-07-28; TypeScript SDK 1.32.2, 2025-11-25):
//   POST /auth/start/<server> -> {url}; the test plays the person at the provider's pages; the
//   provider redirects to GET /auth/callback/<server>, which finishes the sign-in (no Worker
//   credential: the library's `state` check guards it); POST /call then carries the token.
// The pending request and the tokens live in the McpAuthStore Durable Object, so the same works with
// workerd restarted between start and callback (a fresh isolate; the pending request comes from
// durable storage).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { writeConfig, startWorkerd, freePort } from "./lib/workerd.mjs";
import { AUTH, getJson, postJson, runDir } from "./lib/harness.mjs";
import { authServers, issued } from "../servers/auth/env.mjs";
import { signInAs } from "../servers/auth/person.mjs";

const S = authServers();
let scratch;
let port;
let base;
let configFile;
let workerd;

before(async () => {
  scratch = runDir("oauth");
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  configFile = writeConfig(scratch.dir, {
    storageDir: path.join(scratch.dir, "do"),
    workers: [
      {
        name: "agent",
        port,
        authStore: true,
        mcpConfig: {
          mcpServers: {
            // Dynamic registration; the scope comes from the servers' metadata.
            py: { url: S.py, auth: {} },
            node: { url: S.node, auth: { scope: "${SCOPE}" } },
            plain: { url: S.py },
          },
        },
        vars: { SCOPE: "mcp:read" },
      },
    ],
  });
  workerd = await startWorkerd(configFile, [port]);
});

after(async () => {
  await workerd?.stop();
  scratch?.remove();
});

/** POST /auth/start/<server>: the authorization URL, checked for what the Worker must send. */
async function start(server, resource) {
  const r = await postJson(`${base}/auth/start/${server}`, "");
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const url = new URL(r.body.url);
  assert.equal(`${url.origin}${url.pathname}`, `${S.issuer}/auth`);
  assert.equal(url.searchParams.get("redirect_uri"), `${base}/auth/callback/${server}`);
  assert.equal(url.searchParams.get("resource"), resource);
  assert.equal(url.searchParams.get("dpop_jkt"), null, "DPoP is off in the template: its key would not outlive the isolate");
  return r.body.url;
}

/** The person's browser arriving at the callback: no Worker credential. */
async function arrive(callback) {
  assert.ok(callback.startsWith(`${base}/auth/callback/`), callback);
  return getJson(callback, {});
}

async function whoamiVia(server) {
  const r = await postJson(`${base}/call`, { name: `mcp__${server}__whoami`, arguments: {} });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.isError, false, JSON.stringify(r.body));
  return JSON.parse(r.body.content[0].text);
}

test("start, the person signs in, callback, then calls carry the token (2026-07-28 server)", async () => {
  const before = await postJson(`${base}/call`, { name: "mcp__py__whoami", arguments: {} });
  assert.equal(before.body.isError, true, "not signed in yet: the call fails as a result");
  const url = await start("py", S.py);
  const callback = await signInAs(url, "wendy", { redirectOrigin: base });
  const done = await arrive(callback);
  assert.equal(done.status, 200, JSON.stringify(done.body));
  assert.equal(done.body.signedIn.issuer, S.issuer);
  assert.equal(done.body.signedIn.tokenType, "Bearer");
  const who = await whoamiVia("py");
  assert.equal(who.sub, "wendy");
  assert.equal(who.aud, S.py);
  // A second call (a new pool, a new request) reads the stored token: no new grant.
  const grants = (await issued(S.admin)).events.filter((e) => e.type === "token").length;
  assert.equal((await whoamiVia("py")).sub, "wendy");
  assert.equal((await issued(S.admin)).events.filter((e) => e.type === "token").length, grants);
  // An entry without `auth` never sends the token, even to the same server.
  const plain = await postJson(`${base}/call`, { name: "mcp__plain__echo", arguments: { message: "x" } });
  assert.equal(plain.body.isError, true, "no auth entry, no token: the protected server refuses");
});

test("workerd restarted between start and callback: the pending request comes from durable storage", async () => {
  const url = await start("node", S.node);
  await workerd.stop();
  workerd = await startWorkerd(configFile, [port]);
  const callback = await signInAs(url, "xavier", { redirectOrigin: base });
  const done = await arrive(callback);
  assert.equal(done.status, 200, JSON.stringify(done.body));
  const who = await whoamiVia("node");
  assert.equal(who.sub, "xavier");
  assert.equal(who.scope, "mcp:read");
});

test("the callback is guarded by state; every other route still needs the Worker's credential", async () => {
  const url = await start("py", S.py);
  const callback = new URL(await signInAs(url, "mallory", { redirectOrigin: base }));
  const forged = new URL(callback);
  forged.searchParams.set("state", "a-state-this-worker-never-issued");
  const refused = await arrive(forged.href);
  assert.equal(refused.status, 400);
  assert.equal(refused.body.error.code, "AUTH_STATE_MISMATCH");
  const wrongIssuer = new URL(callback);
  wrongIssuer.searchParams.set("iss", `${S.issuer}/`);
  const mixUp = await arrive(wrongIssuer.href);
  assert.equal(mixUp.status, 400);
  assert.equal(mixUp.body.error.code, "AUTH_ISS_MISMATCH", "RFC 9207: no normalisation, the trailing slash is another issuer");
  // The mismatching `iss` used the pending request up: the genuine callback is refused now too.
  const late = await arrive(callback.href);
  assert.equal(late.body.error.code, "AUTH_STATE_MISMATCH");
  for (const [method, route] of [["POST", "/auth/start/py"], ["POST", "/call"], ["GET", "/tools"]]) {
    const r = await fetch(`${base}${route}`, { method, body: method === "POST" ? "{}" : undefined });
    assert.equal(r.status, 401, `${method} ${route} without the credential`);
    await r.arrayBuffer();
  }
  const unknown = await postJson(`${base}/auth/start/plain`, "");
  assert.equal(unknown.status, 404, "a server without an auth entry has no sign-in");
});
