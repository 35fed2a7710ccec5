// OAuth end to end in Node, outside the conformance suite: the `mcp-edge` package (pkg/nodejs)
// against a real authorization server (oidc-provider, tests/servers/auth/as.mjs) and MCP servers of
// both eras protected by it (Python mcp 2.3.0, 2026-07-28; @modelcontextprotocol/sdk 1.32.2,
// 2025-11-25), each answering `whoami` with the caller's token claims. The person of an
// authorization code flow is played over HTTP (tests/servers/auth/person.mjs).
//
// run.sh starts the servers and sets AUTH_* (tests/servers/auth/start.sh's auth.env). The last test
// searches everything the library showed (traffic records, error messages, console output) for every
// secret seen in the run: the client secret and key, and each code, access token, refresh token and
// registration token the provider issued, each PKCE verifier and state the client stored.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { authServers, issued, mapStorage, setAccessTokenTtl, whoami } from "../servers/auth/env.mjs";
import { signInAs } from "../servers/auth/person.mjs";

const require = createRequire(import.meta.url);
const { McpClient, McpPool, isMcpError } = require(process.env.MCP_EDGE_PKG ?? "../../pkg/nodejs/mcp_edge.js");

const S = authServers();
const REDIRECT = "http://127.0.0.1:9/oauth/callback";
const SERVERS = [
  ["2026-07-28 (Python mcp 2.3.0)", S.py, "modern"],
  ["2025-11-25 (TypeScript SDK 1.32.2)", S.node, "legacy"],
];

// ---- what the redaction check searches --------------------------------------------------------

const traffic = [];
const errors = [];
const consoleLines = [];
const storedValues = [];
const onTraffic = (r) => traffic.push(JSON.stringify(r));

/** Console output of the whole file (the library must not log secrets either). */
const original = {};
before(() => {
  for (const m of ["log", "info", "warn", "error", "debug"]) {
    original[m] = console[m];
    console[m] = (...args) => {
      consoleLines.push(args.map(String).join(" "));
      original[m](...args);
    };
  }
});
after(() => Object.assign(console, original));

/** A Map storage whose every written value is kept for the redaction check. */
function storage(map) {
  const s = mapStorage(map);
  const put = s.put;
  s.put = async (k, v) => {
    storedValues.push(v);
    return put(k, v);
  };
  return s;
}

/** Awaits `p`; it must reject with an McpError, which is returned (and its text kept). */
async function rejects(p) {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (e) {
    assert.ok(isMcpError(e), `not an McpError: ${e}`);
    // `url` (AUTH_INTERACTION_REQUIRED) is the authorization URL the host must open: its `state` is
    // meant to be there. Everything else of the error is searched.
    const { url: _url, ...fields } = e;
    errors.push(`${e.message} ${JSON.stringify(fields)}`);
    return e;
  }
  assert.fail("expected a rejection");
}

/** A sign-in handler that plays `login` and checks the request and the response it carries. */
function person(login, server, calls) {
  return async (url) => {
    calls.push(url);
    const u = new URL(url);
    assert.equal(u.origin + u.pathname, `${S.issuer}/auth`);
    const q = u.searchParams;
    assert.equal(q.get("response_type"), "code");
    assert.equal(q.get("code_challenge_method"), "S256");
    assert.match(q.get("code_challenge"), /^[A-Za-z0-9_-]{43}$/);
    assert.equal(q.get("resource"), server, "RFC 8707 resource = the server's PRM resource, exactly");
    assert.equal(q.get("redirect_uri"), REDIRECT);
    assert.ok(q.get("state"));
    const callback = await signInAs(url, login);
    const back = new URL(callback).searchParams;
    assert.equal(back.get("iss"), S.issuer, "RFC 9207 iss in the authorization response");
    assert.equal(back.get("state"), q.get("state"));
    return callback;
  };
}

/** The client's notifications until `signedIn` (bounded: the event is queued before connect resolves). */
async function signedInEvent(client) {
  const it = client.notifications();
  const timer = setTimeout(() => it.return(), 5000);
  try {
    for await (const n of it) if (n.type === "signedIn") return n;
  } finally {
    clearTimeout(timer);
  }
  return null;
}

/** Connects (traffic recorded), runs `fn(client)`, then always closes and frees the client. */
async function withClient(url, options, fn) {
  const client = await McpClient.connect(url, { onTraffic, ...options });
  try {
    return await fn(client);
  } finally {
    await client.close();
    client.free();
  }
}

const tokensKey = (url) => `mcp-edge:tokens:${url}`;
const stored = (map, url) => JSON.parse(map.get(tokensKey(url)) ?? "null");

for (const [label, url, era] of SERVERS) {
  describe(`authorization code + PKCE, ${label}`, () => {
    test("the person signs in; the token reaches the tool; status and signedIn say who", async () => {
      const map = new Map();
      const calls = [];
      const client = await McpClient.connect(url, {
        auth: { redirectUri: REDIRECT, storage: storage(map), onAuthorizationUrl: person("alice", url, calls) },
        onTraffic,
      });
      try {
        assert.equal(client.era, era);
        assert.equal(calls.length, 1, "one authorization request");
        const who = whoami(await client.callTool("whoami", {}));
        assert.equal(who.sub, "alice");
        assert.equal(who.aud, url);
        assert.ok(who.scope.split(" ").includes("mcp:read"), who.scope);
        assert.equal(who.token_type, "DPoP", "the provider offers DPoP: the token is bound to the client's WebCrypto key");
        const status = client.auth;
        assert.equal(status.issuer, S.issuer);
        assert.equal(status.tokenType, "DPoP");
        assert.ok(status.scope.split(" ").includes("mcp:read"));
        assert.ok(status.expiresAt > Date.now());
        const note = await signedInEvent(client);
        assert.deepEqual(note, { type: "signedIn", ...status });
        const rec = stored(map, url);
        assert.equal(rec.issuer, S.issuer);
        assert.ok(rec.refresh_token, "offline_access was granted: a refresh token is stored");
        assert.ok([...map.keys()].includes(`mcp-edge:client:${S.issuer}`), "the registration is kept by issuer");
        assert.ok(![...map.keys()].some((k) => k.startsWith("mcp-edge:pending:")), "the pending request is gone");
      } finally {
        await client.close();
        client.free();
      }
    });

    test("client credentials with a secret (client_secret_basic)", async () => {
      await withClient(url, { auth: { grant: "client_credentials", ...S.ccBasic, storage: storage(new Map()) } }, async (client) => {
        const who = whoami(await client.callTool("whoami", {}));
        assert.equal(who.sub, S.ccBasic.clientId);
        assert.equal(who.client_id, S.ccBasic.clientId);
        assert.equal(client.auth.tokenType, "DPoP");
      });
      const wrong = await rejects(
        McpClient.connect(url, { auth: { grant: "client_credentials", clientId: S.ccBasic.clientId, clientSecret: "wrong-secret" }, onTraffic }),
      );
      assert.equal(wrong.code, "AUTH_TOKEN");
      assert.equal(wrong.error, "invalid_client");
    });

    test("client credentials with privateKeyPem (private_key_jwt, ES256 by WebCrypto)", async () => {
      await withClient(url, { auth: { grant: "client_credentials", ...S.ccJwt, storage: storage(new Map()) } }, async (client) => {
        const who = whoami(await client.callTool("whoami", {}));
        assert.equal(who.sub, S.ccJwt.clientId);
        assert.equal(who.token_type, "DPoP");
      });
      const grants = (await issued(S.admin)).events.filter((e) => e.type === "token" && e.client_id === S.ccJwt.clientId);
      assert.ok(grants.some((g) => g.grant_type === "client_credentials" && g.token_type === "DPoP"), JSON.stringify(grants));
    });
  });
}

describe("refresh tokens (Python server, 2026-07-28)", () => {
  after(() => setAccessTokenTtl(S.admin, 600));

  test("an expiring access token is refreshed before use; the refresh token rotates", async () => {
    await setAccessTokenTtl(S.admin, 2);
    const map = new Map();
    const calls = [];
    const client = await McpClient.connect(S.py, {
      auth: { redirectUri: REDIRECT, storage: storage(map), onAuthorizationUrl: person("dora", S.py, calls) },
      onTraffic,
    });
    try {
      const first = stored(map, S.py);
      assert.ok(first.refresh_token);
      // Fresh, the token is used as it is.
      assert.equal(whoami(await client.callTool("whoami", {})).sub, "dora");
      assert.equal(stored(map, S.py).access_token, first.access_token);
      // Past half its 2 s lifetime (the 60 s refresh margin is longer than the token lives), the
      // next call refreshes first.
      await new Promise((r) => setTimeout(r, 1200));
      const who = whoami(await client.callTool("whoami", {}));
      assert.equal(who.sub, "dora");
      const second = stored(map, S.py);
      assert.notEqual(second.access_token, first.access_token);
      assert.notEqual(second.refresh_token, first.refresh_token, "rotation: a new refresh token replaced the old one");
      assert.equal(calls.length, 1, "no second authorization");
      const refreshes = (await issued(S.admin)).events.filter((e) => e.type === "token" && e.grant_type === "refresh_token");
      assert.ok(refreshes.length >= 1);
      // The rotated-out token is refused by the provider (and, by its rules, revokes the grant:
      // nothing uses this client afterwards).
      const r = await fetch(`${S.issuer}/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: first.refresh_token, client_id: JSON.parse(map.get(`mcp-edge:client:${S.issuer}`)).client_id }),
      });
      assert.equal(r.status, 400);
      assert.equal((await r.json()).error, "invalid_grant");
    } finally {
      await client.close();
      client.free();
    }
  });

  test("a fresh client with stored, expired tokens refreshes on the server's 401 (Bearer tokens)", async () => {
    await setAccessTokenTtl(S.admin, 2);
    const map = new Map();
    const calls = [];
    const first = await McpClient.connect(S.py, {
      auth: { redirectUri: REDIRECT, dpop: false, storage: storage(map), onAuthorizationUrl: person("erin", S.py, calls) },
      onTraffic,
    });
    await first.close();
    first.free();
    const before = stored(map, S.py);
    assert.equal(before.token_type, "Bearer");
    await new Promise((r) => setTimeout(r, 3000)); // past the 2 s lifetime
    const refreshesBefore = (await issued(S.admin)).events.filter((e) => e.grant_type === "refresh_token").length;
    const client = await McpClient.connect(S.py, {
      auth: { redirectUri: REDIRECT, dpop: false, storage: storage(map), onAuthorizationUrl: () => assert.fail("no person needed") },
      onTraffic,
    });
    try {
      assert.equal(whoami(await client.callTool("whoami", {})).sub, "erin");
      const after = stored(map, S.py);
      assert.notEqual(after.refresh_token, before.refresh_token);
      const refreshesAfter = (await issued(S.admin)).events.filter((e) => e.grant_type === "refresh_token").length;
      assert.ok(refreshesAfter > refreshesBefore, "the 401 was answered by a refresh");
      assert.equal(calls.length, 1);
    } finally {
      await client.close();
      client.free();
    }
  });
});

describe("signOut, signIn, completeAuthorization (Python server)", () => {
  test("signOut forgets the tokens; the next call signs in again", async () => {
    const map = new Map();
    const calls = [];
    const client = await McpClient.connect(S.py, {
      auth: { redirectUri: REDIRECT, storage: storage(map), onAuthorizationUrl: person("frank", S.py, calls) },
      onTraffic,
    });
    try {
      assert.ok(client.auth);
      client.signOut();
      assert.equal(client.auth, null);
      await new Promise((r) => setTimeout(r, 50)); // the storage queue runs in order, asynchronously
      assert.equal(map.get(tokensKey(S.py)), undefined, "the stored tokens are deleted");
      assert.equal(whoami(await client.callTool("whoami", {})).sub, "frank");
      assert.equal(calls.length, 2, "signed in again");
    } finally {
      await client.close();
      client.free();
    }
  });

  test("signIn in one client, completeAuthorization in a fresh one sharing the storage", async () => {
    const map = new Map();
    const auth = () => ({ redirectUri: REDIRECT, dpop: false, storage: storage(map) });
    const e = await rejects(McpClient.signIn(S.py, { auth: auth(), onTraffic }));
    assert.equal(e.code, "AUTH_INTERACTION_REQUIRED");
    assert.ok(e.url.startsWith(`${S.issuer}/auth?`), e.url);
    assert.ok(!e.message.includes(new URL(e.url).searchParams.get("state")), "the state is in `url`, not in the message");
    assert.ok([...map.keys()].some((k) => k.startsWith("mcp-edge:pending:")), "the pending request is stored before signIn rejects");
    const callback = await signInAs(e.url, "grace");

    const forged = new URL(callback);
    forged.searchParams.set("state", "not-the-state");
    const refused = await rejects(McpClient.completeAuthorization(S.py, forged.href, { auth: auth(), onTraffic }));
    assert.equal(refused.code, "AUTH_STATE_MISMATCH");
    assert.equal(refused.refused, true);

    const status = await McpClient.completeAuthorization(S.py, callback, { auth: auth(), onTraffic });
    assert.equal(status.issuer, S.issuer);
    assert.equal(status.tokenType, "Bearer");
    assert.ok(stored(map, S.py), "the tokens are stored when completeAuthorization resolves");
    assert.ok(![...map.keys()].some((k) => k.startsWith("mcp-edge:pending:")), "the pending request is used up");
    const replay = await rejects(McpClient.completeAuthorization(S.py, callback, { auth: auth(), onTraffic }));
    assert.equal(replay.code, "AUTH_STATE_MISMATCH", "a callback is used once");

    await withClient(S.py, { auth: { ...auth(), onAuthorizationUrl: () => assert.fail("already signed in") } }, async (client) => {
      assert.equal(whoami(await client.callTool("whoami", {})).sub, "grace");
    });
  });

  test("the host's failures: a sign-in handler that throws or rejects, a store that fails every read and write", async () => {
    const threw = () => {
      throw new Error("handler-threw");
    };
    const rejected = async () => {
      throw new Error("handler-rejected");
    };
    for (const [handler, said] of [[threw, "handler-threw"], [rejected, "handler-rejected"]]) {
      const auth = { redirectUri: REDIRECT, dpop: false, storage: storage(new Map()), onAuthorizationUrl: handler };
      const e = await rejects(McpClient.signIn(S.py, { auth, onTraffic }));
      assert.equal(e.code, "AUTH_DENIED");
      assert.ok(e.message.includes("the sign-in handler failed") && e.message.includes(said), e.message);
    }
    // Reads count as empty and writes are lost, each said in a diagnostic; the sign-in still works.
    const broken = {
      get: async () => {
        throw new Error("read-broke");
      },
      put: async () => {
        throw new Error("write-broke");
      },
      delete: async () => {},
    };
    const calls = [];
    const auth = { redirectUri: REDIRECT, storage: broken, onAuthorizationUrl: person("heidi", S.py, calls) };
    await withClient(S.py, { auth }, async (client) => {
      assert.equal(whoami(await client.callTool("whoami", {})).sub, "heidi");
      // Diagnostics until both were said, for at most 5 s (a missing one fails below, not by a hang).
      const said = [];
      const it = client.notifications();
      const both = () => said.some((m) => m.includes("read-broke")) && said.some((m) => m.includes("write-broke"));
      const deadline = Date.now() + 5000;
      while (!both() && Date.now() < deadline) {
        let timer;
        const late = new Promise((r) => (timer = setTimeout(() => r({ done: true }), deadline - Date.now())));
        const next = await Promise.race([it.next(), late]);
        clearTimeout(timer);
        if (next.done) break;
        if (next.value.type === "diagnostic") said.push(next.value.message);
      }
      assert.ok(said.some((m) => m.startsWith("token storage read failed: ") && m.includes("read-broke")), said.join("; "));
      assert.ok(said.some((m) => m.startsWith("token storage write failed: ") && m.includes("write-broke")), said.join("; "));
    });
  });
});

describe("McpPool with servers' auth entries", () => {
  test("client credentials on one server, a person's sign-in on the other", async () => {
    const calls = [];
    const pool = new McpPool(
      {
        mcpServers: {
          machine: { url: S.py, auth: { grant: "client_credentials", clientId: "${CC_ID}", clientSecret: "${CC_SECRET}" } },
          person: { url: S.node, auth: { redirectUri: REDIRECT } },
        },
      },
      {
        vars: { CC_ID: S.ccBasic.clientId, CC_SECRET: S.ccBasic.clientSecret },
        auth: {
          storage: storage(new Map()),
          onAuthorizationUrl: async (url, server) => {
            calls.push(server);
            return person("heidi", S.node, [])(url);
          },
        },
        onTraffic,
      },
    );
    try {
      const status = await pool.connectAll();
      for (const s of status.servers) assert.equal(s.state, "connected", JSON.stringify(s));
      assert.deepEqual(calls, ["person"]);
      const machine = await pool.call("mcp__machine__whoami", {});
      assert.equal(machine.isError, false);
      assert.equal(JSON.parse(machine.content[0].text).sub, S.ccBasic.clientId);
      const human = await pool.call("mcp__person__whoami", {});
      assert.equal(JSON.parse(human.content[0].text).sub, "heidi");
    } finally {
      await pool.close();
      pool.free();
    }
  });
});

describe("redaction", () => {
  test("no secret of the run appears in traffic records, error messages or console output", async () => {
    const { secrets } = await issued(S.admin);
    const planted = new Set([...secrets, S.ccBasic.clientSecret]);
    // The private key's body, line by line (a PEM line is 64 base64 characters of it).
    for (const line of S.ccJwt.privateKeyPem.split("\n")) if (line && !line.startsWith("-----")) planted.add(line);
    for (const v of storedValues) {
      let rec;
      try {
        rec = JSON.parse(v);
      } catch {
        continue;
      }
      for (const k of ["access_token", "refresh_token", "verifier", "state", "client_secret"]) {
        if (typeof rec[k] === "string") planted.add(rec[k]);
      }
    }
    assert.ok(planted.size > 20, `a run plants many secrets (${planted.size})`);
    assert.ok(traffic.length > 100 && errors.length >= 4, `${traffic.length} traffic records, ${errors.length} errors`);
    const haystacks = [["traffic", traffic], ["errors", errors], ["console", consoleLines]];
    for (const secret of planted) {
      for (const [where, list] of haystacks) {
        const hit = list.find((text) => text.includes(secret));
        assert.equal(hit, undefined, `a secret (${secret.slice(0, 6)}…) appears in ${where}`);
      }
    }
  });
});
