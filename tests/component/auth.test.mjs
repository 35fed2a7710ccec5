// OAuth in the WebAssembly component (jco + Node), through its WIT interface only, against a real
// authorization server (oidc-provider, tests/servers/auth/as.mjs) and MCP servers of both eras it
// protects (Python mcp 2.3.0, 2026-07-28; TypeScript SDK 1.32.2, 2025-11-25), whose `whoami` tool
// reports the caller's token claims:
//   client credentials with a secret and with an ES256 private_key_jwt key (signed by RustCrypto
//   p256 in the component), DPoP-bound tokens (a P-256 key the component generates from
//   wasi:random), the instance's memory store, typed `auth` errors, and the authorization code
//   grant failing with AUTH_INTERACTION_REQUIRED and the URL.
// run.sh starts the servers and sets AUTH_* (tests/servers/auth/start.sh's auth.env). The servers
// run in other processes: a component call blocks this thread while it waits for the network.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { witError } from "./lib.mjs";
import { authServers, issued } from "../servers/auth/env.mjs";
import { signInAs } from "../servers/auth/person.mjs";

const out = process.env.COMPONENT_JS ?? new URL("./out/mcp-edge.js", import.meta.url).href;
const { client } = await import(out);
const { Client } = client;
const S = authServers();


const whoami = (c) => JSON.parse(JSON.parse(c.callTool("whoami", "{}").contentJson).map((b) => b.text).join(""));
const grants = async (clientId) =>
  (await issued(S.admin)).events.filter((e) => e.type === "token" && e.client_id === clientId);

// First, while the instance's store holds no token yet (its clients share the store and the one
// DPoP key: a client configured as an earlier one was would use that one's stored token).
describe("errors before any token is stored", () => {
  test("a refused client is a typed auth error without the secret", () => {
    const e = witError(() =>
      Client.connect(S.py, { auth: { grant: "client-credentials", clientId: S.ccBasic.clientId, clientSecret: "not-the-secret" } }),
    );
    assert.equal(e.code, "AUTH_TOKEN");
    assert.equal(e.kind.tag, "auth");
    assert.equal(e.kind.val.oauthError, "invalid_client");
    assert.equal(e.kind.val.status, 401);
    assert.equal(e.kind.val.refused, false);
    assert.ok(!e.message.includes("not-the-secret"));
  });

  test("a key that is not PKCS#8 fails the call before any token is issued", async () => {
    const before = (await grants(S.ccJwt.clientId)).length;
    const e = witError(() =>
      Client.connect(S.py, {
        auth: { grant: "client-credentials", clientId: S.ccJwt.clientId, privateKeyPem: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n" },
      }),
    );
    assert.match(e.message, /PKCS#8/);
    assert.equal((await grants(S.ccJwt.clientId)).length, before);
  });

});

for (const [label, url] of [["2026-07-28 (Python)", S.py], ["2025-11-25 (TypeScript SDK)", S.node]]) {
  describe(`client credentials, ${label}`, () => {
    test("with a secret (client_secret_basic): the token reaches the tool, DPoP-bound by a p256 key", async () => {
      const c = Client.connect(url, {
        auth: { grant: "client-credentials", clientId: S.ccBasic.clientId, clientSecret: S.ccBasic.clientSecret },
      });
      try {
        const who = whoami(c);
        assert.equal(who.sub, S.ccBasic.clientId);
        assert.equal(who.aud, url);
        assert.equal(who.token_type, "DPoP", "the provider offers DPoP: the component's proofs are checked by the server");
        const notes = c.takeNotifications();
        assert.ok(
          notes.some((n) => n.tag === "diagnostic" && n.val.startsWith(`signed in at ${S.issuer} (DPoP token`)),
          JSON.stringify(notes),
        );
      } finally {
        c.close();
      }
      const seen = await grants(S.ccBasic.clientId);
      assert.ok(seen.some((g) => g.grant_type === "client_credentials" && g.token_type === "DPoP"));
    });

    test("with privateKeyPem (private_key_jwt, ES256 signed by p256)", async () => {
      const before = (await grants(S.ccJwt.clientId)).length;
      const c = Client.connect(url, {
        auth: { grant: "client-credentials", clientId: S.ccJwt.clientId, privateKeyPem: S.ccJwt.privateKeyPem },
      });
      try {
        const who = whoami(c);
        assert.equal(who.sub, S.ccJwt.clientId);
        assert.equal(who.token_type, "DPoP");
      } finally {
        c.close();
      }
      assert.equal((await grants(S.ccJwt.clientId)).length, before + 1, "one client_credentials grant, authenticated by the assertion");
    });
  });
}

describe("errors and the instance's memory store", () => {
  test("a second client of the instance uses the stored Bearer token: no new grant", async () => {
    const auth = { grant: "client-credentials", clientId: S.ccBasic.clientId, clientSecret: S.ccBasic.clientSecret, dpop: false };
    const first = Client.connect(S.node, { auth });
    assert.equal(whoami(first).token_type, "Bearer");
    first.close();
    const before = (await grants(S.ccBasic.clientId)).length;
    const second = Client.connect(S.node, { auth });
    try {
      assert.equal(whoami(second).sub, S.ccBasic.clientId);
    } finally {
      second.close();
    }
    assert.equal((await grants(S.ccBasic.clientId)).length, before);
  });

  test("the authorization code grant fails with AUTH_INTERACTION_REQUIRED and the URL", () => {
    const e = witError(() =>
      Client.connect(S.py, { auth: { grant: "authorization-code", redirectUri: "http://127.0.0.1:9/callback" } }),
    );
    assert.equal(e.code, "AUTH_INTERACTION_REQUIRED");
    assert.equal(e.kind.tag, "auth");
    const u = new URL(e.kind.val.url);
    assert.equal(`${u.origin}${u.pathname}`, `${S.issuer}/auth`);
    assert.equal(u.searchParams.get("resource"), S.py);
    assert.equal(u.searchParams.get("code_challenge_method"), "S256");
    assert.ok(!e.message.includes(u.searchParams.get("state")));
  });

  test("complete-authorization finishes the sign-in from the callback URL; connect then uses the token", async () => {
    const options = { auth: { grant: "authorization-code", redirectUri: "http://127.0.0.1:9/callback" } };
    const e = witError(() => Client.connect(S.py, options));
    assert.equal(e.code, "AUTH_INTERACTION_REQUIRED");
    // The person signs in at the provider; it redirects to the callback with code, state and iss.
    const callback = await signInAs(e.kind.val.url, "carol");
    const who = JSON.parse(Client.completeAuthorization(S.py, callback, options));
    assert.equal(who.issuer, S.issuer, JSON.stringify(who));
    assert.ok(!JSON.stringify(who).includes("eyJ"), "no token in what it returns");
    const c = Client.connect(S.py, options);
    try {
      assert.equal(whoami(c).sub, "carol");
    } finally {
      c.close();
    }
    // The pending request was used once: the same callback is refused, typed.
    const again = witError(() => Client.completeAuthorization(S.py, callback, options));
    assert.match(again.code, /^AUTH_/, again.code);
  });
});
