// Who may use the Worker template, in real workerd: every route needs the Worker's own inbound
// credential (MCP_AGENT_TOKEN as a bearer token, or a Cloudflare Access assertion); a Worker with
// none configured refuses everything; the pool policy refuses a denied server's tool before any
// outbound request; oversized bodies are refused. "No outbound request" is counted twice: at the
// counting reverse proxy every MCP server sits behind, and inside the isolate (lib/probe.mjs
// counts every global fetch, including the one for Access keys).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { generateKeyPairSync, sign } from "node:crypto";
import { writeConfig, startWorkerd, freePort } from "./lib/workerd.mjs";
import { AGENT_TOKEN, AUTH, edgeDir, env, getJson, postJson, runDir, startBannerProcess } from "./lib/harness.mjs";

const AUDIENCE = "mcp-agent-test-audience";
let proxy;
let proxyBase;
let jwks;
let jwksBase;
let jwksRequests = 0;
let workerd;
let scratch;
const base = {};

// Cloudflare Access stand-in: an RSA key pair whose public half is served as the team's JWKS.
const accessKey = generateKeyPairSync("rsa", { modulusLength: 2048 });
const otherKey = generateKeyPairSync("rsa", { modulusLength: 2048 });

function assertion(claims, { key = accessKey.privateKey, header = { alg: "RS256", kid: "k1", typ: "JWT" } } = {}) {
  const enc = (o) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const input = `${enc(header)}.${enc(claims)}`;
  return `${input}.${sign("RSA-SHA256", Buffer.from(input), key).toString("base64url")}`;
}
const now = () => Math.floor(Date.now() / 1000);
const goodClaims = () => ({ iss: jwksBase, aud: [AUDIENCE], sub: "user-1", email: "a@example.com", iat: now(), exp: now() + 300 });

before(async () => {
  const py = env("PY2026_URL");
  const everything = env("EVERYTHING_URL");
  // 0: py, 1: everything, 2: py again for the server the policy denies.
  proxy = await startBannerProcess(`${edgeDir}/lib/counting-proxy.mjs`, [JSON.stringify([py, everything, py])]);
  proxyBase = `http://127.0.0.1:${proxy.banner.port}`;
  jwks = http.createServer((req, res) => {
    jwksRequests += 1;
    if (req.url !== "/cdn-cgi/access/certs") {
      res.writeHead(404).end();
      return;
    }
    const jwk = { ...accessKey.publicKey.export({ format: "jwk" }), kid: "k1", alg: "RS256", use: "sig" };
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise((r) => jwks.listen(0, "127.0.0.1", r));
  jwksBase = `http://127.0.0.1:${jwks.address().port}`;

  const mcpConfig = {
    mcpServers: {
      py: { url: `${proxyBase}/u/0` },
      everything: { url: `${proxyBase}/u/1` },
      secret: { url: `${proxyBase}/u/2` },
    },
  };
  const ports = { agent: await freePort(), open: await freePort(), weak: await freePort() };
  scratch = runDir("auth");
  const file = writeConfig(scratch.dir, {
    storageDir: `${scratch.dir}/do`,
    workers: [
      {
        name: "agent",
        port: ports.agent,
        mcpConfig,
        sessions: true,
        policy: { denied: ["secret"] },
        vars: { ACCESS_TEAM_DOMAIN: jwksBase, ACCESS_AUD: AUDIENCE },
      },
      { name: "open", port: ports.open, mcpConfig, agentToken: null },
      { name: "weak", port: ports.weak, mcpConfig, agentToken: "too-short" },
    ],
  });
  workerd = await startWorkerd(file, Object.values(ports));
  for (const [name, port] of Object.entries(ports)) base[name] = `http://127.0.0.1:${port}`;
});

after(async () => {
  await workerd?.stop();
  await proxy?.stop();
  await new Promise((r) => (jwks ? jwks.close(r) : r()));
  scratch?.remove();
});

const proxyStats = async () => (await getJson(`${proxyBase}/_stats`)).body;
const isolateFetches = async (worker) => (await getJson(`${base[worker]}/_probe`)).body.fetches;

/** Every route of the template, as [label, url path, init]. */
const ROUTES = [
  ["GET /tools", "/tools", { method: "GET" }],
  ["POST /call", "/call", { method: "POST", body: JSON.stringify({ name: "mcp__py__echo", arguments: { message: "x" } }) }],
  ["POST /call?stream=1", "/call?stream=1", { method: "POST", body: JSON.stringify({ name: "mcp__py__echo", arguments: { message: "x" } }) }],
  ["POST /sessions/py/open", "/sessions/py/open", { method: "POST", body: "{}" }],
  ["POST /sessions/py/call", "/sessions/py/call", { method: "POST", body: JSON.stringify({ name: "echo" }) }],
  ["DELETE /sessions/py", "/sessions/py", { method: "DELETE" }],
  ["GET /unknown", "/unknown", { method: "GET" }],
];

async function send(worker, path, init, headers) {
  const r = await fetch(`${base[worker]}${path}`, { ...init, headers: { "content-type": "application/json", ...headers } });
  const text = await r.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: r.status, body, headers: r.headers };
}

test("no token, a wrong token, a malformed header: 401 on every route, and nothing goes out", async () => {
  const wrongSameLength = AGENT_TOKEN.slice(0, -1) + (AGENT_TOKEN.endsWith("0") ? "1" : "0");
  const callers = [
    ["no credential", {}],
    ["a wrong token", { authorization: "Bearer not-the-token-at-all-but-long-enough-000" }],
    ["a wrong token of the same length", { authorization: `Bearer ${wrongSameLength}` }],
    ["the token without the Bearer scheme", { authorization: AGENT_TOKEN }],
    ["the token as Basic credentials", { authorization: `Basic ${Buffer.from(`x:${AGENT_TOKEN}`).toString("base64")}` }],
    ["the token in another header", { "x-api-key": AGENT_TOKEN }],
  ];
  const before = await isolateFetches("agent");
  for (const [who, headers] of callers) {
    for (const [route, path, init] of ROUTES) {
      const r = await send("agent", path, init, headers);
      assert.equal(r.status, 401, `${who}, ${route}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.error.code, "UNAUTHORIZED");
      assert.match(r.headers.get("www-authenticate") ?? "", /^Bearer /);
    }
  }
  assert.equal((await proxyStats()).total, 0, "no request reached an MCP server");
  assert.equal(await isolateFetches("agent"), before, "the isolate fetched nothing");
  assert.equal(jwksRequests, 0, "no Access keys were fetched for callers without an assertion");
});

test("a Worker with no inbound credential configured refuses every route (fails closed), nothing goes out", async () => {
  for (const worker of ["open", "weak"]) {
    const before = await isolateFetches(worker);
    for (const headers of [{}, AUTH, { authorization: "Bearer too-short" }]) {
      for (const [route, path, init] of ROUTES) {
        const r = await send(worker, path, init, headers);
        assert.equal(r.status, 500, `${worker}, ${route}: ${JSON.stringify(r.body)}`);
        assert.equal(r.body.error.code, "AUTH_NOT_CONFIGURED");
        assert.match(r.body.error.message, /MCP_AGENT_TOKEN/, "the error says what to set");
      }
    }
    assert.equal(await isolateFetches(worker), before, `${worker}: the isolate fetched nothing`);
  }
  assert.equal((await proxyStats()).total, 0, "no request reached an MCP server");
});

test("the right token is let in (and the counters do see outbound requests)", async () => {
  const r = await getJson(`${base.agent}/tools`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const byName = Object.fromEntries(r.body.servers.map((s) => [s.name, s]));
  assert.equal(byName.py.state, "connected");
  assert.equal(byName.everything.state, "connected");
  assert.equal(byName.secret.state, "disabled", "the denied server is never connected");
  assert.equal(byName.secret.lastError.code, "DENIED");
  const stats = await proxyStats();
  assert.ok(stats.total > 0, JSON.stringify(stats));
  assert.equal(stats.perUpstreamMax[2], 0, `the denied server saw no request: ${JSON.stringify(stats)}`);
});

test("a tool of a server the policy denies is refused 403 before any outbound request", async () => {
  await fetch(`${proxyBase}/_reset`, { method: "POST" });
  const before = await isolateFetches("agent");
  const denied = { name: "mcp__secret__echo", arguments: { message: "x" } };
  const allowed = { name: "mcp__py__echo", arguments: { message: "x" } };
  for (const [what, path, body] of [
    ["one call", "/call", denied],
    ["a batch with one denied call (deny wins)", "/call", [allowed, denied]],
    ["a streamed call", "/call?stream=1", denied],
    ["a session on the denied server", "/sessions/secret/open", {}],
  ]) {
    const r = await postJson(`${base.agent}${path}`, body);
    assert.equal(r.status, 403, `${what}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.error.code, "DENIED", what);
    assert.match(r.body.error.message, /secret/);
  }
  assert.equal((await proxyStats()).total, 0, "no request reached any MCP server");
  assert.equal(await isolateFetches("agent"), before, "the isolate fetched nothing");

  // An allowed call connects only the server it needs.
  const ok = await postJson(`${base.agent}/call`, allowed);
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  assert.equal(ok.body.content[0].text, "x");
  const stats = await proxyStats();
  assert.ok(stats.perUpstreamMax[0] > 0 && stats.perUpstreamMax[1] === 0 && stats.perUpstreamMax[2] === 0, JSON.stringify(stats));
  // A name that matches no configured server goes nowhere either.
  await fetch(`${proxyBase}/_reset`, { method: "POST" });
  const unknown = await postJson(`${base.agent}/call`, { name: "mcp__nowhere__tool" });
  assert.equal(unknown.status, 200);
  assert.equal(unknown.body.isError, true);
  assert.equal((await proxyStats()).total, 0);
});

/**
 * POSTs with node:http (`headers` over the token and the JSON type) and resolves with the JSON
 * answer; `send(req, answered)` writes the body, if any, and stops once `answered()`. After the
 * answer a write error is expected (a Worker that refuses a body part-way may close the connection
 * while chunks are in flight) and ignored; one before it fails the test, and so does no answer
 * within 10 s (a Worker that waits for a body that never comes).
 */
function postRaw(url, headers, send) {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(url, { method: "POST", headers: { ...AUTH, "content-type": "application/json", ...headers } });
    req.on("error", (e) => {
      if (!answered) reject(e);
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`${url}: no answer within 10 s`)));
    req.on("response", (res) => {
      answered = true;
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (text += c));
      res.on("end", () => {
        req.destroy();
        try {
          resolve({ status: res.statusCode, body: JSON.parse(text) });
        } catch {
          reject(new Error(`${url}: HTTP ${res.statusCode}, not JSON: ${text.slice(0, 300)}`));
        }
      });
    });
    send(req, () => answered);
  });
}

/** Headers that declare `length` body bytes, and no body. */
const declaredOnly = (url, length) => postRaw(url, { "content-length": String(length) }, (req) => req.flushHeaders());

/** `chunk` up to `max` times as a chunked body (no declared length), writing stopped at the answer. */
const chunkedUntilAnswered = (url, chunk, max) =>
  postRaw(url, { "transfer-encoding": "chunked" }, (req, answered) => {
    let sent = 0;
    const write = () => {
      while (!answered() && sent < max) {
        sent += 1;
        if (!req.write(chunk)) return void req.once("drain", write);
      }
      if (!answered()) req.end();
    };
    write();
  });

test("an oversized body is refused 413, declared or streamed, before any outbound request", async () => {
  await fetch(`${proxyBase}/_reset`, { method: "POST" });
  const before = await isolateFetches("agent");
  const big = JSON.stringify({ name: "mcp__py__echo", arguments: { message: "x".repeat(1 << 20) } });
  // Declared: only the headers go out, so the answer cannot race the upload (with the 1 MB body
  // sent as well, the Worker's early 413 and its closing the connection while the client was still
  // writing made the request fail now and then). Both routes that take a body are checked.
  for (const path of ["/call", "/call?stream=1"]) {
    const declared = await declaredOnly(`${base.agent}${path}`, big.length);
    assert.equal(declared.status, 413, `${path}: ${JSON.stringify(declared.body).slice(0, 300)}`);
    assert.equal(declared.body.error.code, "TOO_LARGE", path);
  }
  // No declared length: a chunked body that only grows past the limit as it is read (up to 40
  // chunks of 64 KiB; writing stops at the answer, and a connection the Worker closes after
  // answering is not a failure).
  const chunk = Buffer.from("x".repeat(64 * 1024));
  const streamed = await chunkedUntilAnswered(`${base.agent}/call`, chunk, 40);
  assert.equal(streamed.status, 413, JSON.stringify(streamed.body));
  assert.equal(streamed.body.error.code, "TOO_LARGE");
  assert.equal((await proxyStats()).total, 0, "no request reached an MCP server");
  assert.equal(await isolateFetches("agent"), before, "the isolate fetched nothing");
});

test("Cloudflare Access: a valid assertion is let in; a wrong audience, issuer, key, algorithm or an expired one is not", async () => {
  await fetch(`${proxyBase}/_reset`, { method: "POST" });
  const noToken = (jwt) => ({ "cf-access-jwt-assertion": jwt });
  const ok = await send("agent", "/unknown", { method: "GET" }, noToken(assertion(goodClaims())));
  assert.equal(ok.status, 404, `a valid assertion passes the credential check: ${JSON.stringify(ok.body)}`);
  assert.ok(jwksRequests >= 1, "the team's keys were fetched");
  const refused = [
    ["another audience", assertion({ ...goodClaims(), aud: ["someone-else"] })],
    ["another issuer", assertion({ ...goodClaims(), iss: "https://evil.cloudflareaccess.com" })],
    ["expired", assertion({ ...goodClaims(), exp: now() - 600 })],
    ["not yet valid", assertion({ ...goodClaims(), nbf: now() + 600 })],
    ["signed by another key", assertion(goodClaims(), { key: otherKey.privateKey })],
    ["alg none", `${Buffer.from(JSON.stringify({ alg: "none", kid: "k1" })).toString("base64url")}.${Buffer.from(JSON.stringify(goodClaims())).toString("base64url")}.`],
    ["an unknown key id", assertion(goodClaims(), { header: { alg: "RS256", kid: "k2" } })],
    ["garbage", "a.b.c"],
  ];
  for (const [what, jwt] of refused) {
    const r = await send("agent", "/unknown", { method: "GET" }, noToken(jwt));
    assert.equal(r.status, 401, `${what}: ${JSON.stringify(r.body)}`);
  }
  assert.equal((await proxyStats()).total, 0, "no request reached an MCP server");
});
