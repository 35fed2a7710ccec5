// McpClient.snapshot() / McpClient.restore() across isolate eviction: a first workerd process
// connects (Durable Object McpSessions stores the snapshot on disk), is stopped, and a second
// workerd process (a fresh isolate, nothing in memory) restores the client from storage and calls
// a tool without any handshake: same 2025 session id (server-everything refuses unknown ids, so a
// successful call on it proves the session survived), no initialize / server/discover, and the
// cached tool list (ttlMs 600000) serves the call without a tools/list.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, openSync, readFileSync } from "node:fs";
import path from "node:path";
import { writeConfig, startWorkerd, freePort } from "./lib/workerd.mjs";
import { AUTH, edgeDir, env, getJson, postJson, runDir } from "./lib/harness.mjs";

let scratch;
let ttlServer;
let shortServer;
let ttlUrl;
const SHORT_TTL_MS = 2000;
let port;
let configFile;
let workerd;

/** The Python server again, with tools/list results cached for `ttlMs`. */
async function startTtlServer(dir, ttlMs) {
  const servers = path.join(edgeDir, "../servers/python");
  const portFile = path.join(dir, `py-ttl-${ttlMs}.port`);
  const log = openSync(path.join(dir, `py-ttl-${ttlMs}.log`), "w");
  const child = spawn(
    path.join(servers, ".venv/bin/python"),
    [path.join(servers, "server_2026.py"), "--port", "0", "--port-file", portFile, "--tools-ttl-ms", String(ttlMs)],
    { stdio: ["ignore", log, log] },
  );
  const exited = new Promise((r) => child.once("exit", r));
  for (let i = 0; i < 150 && !existsSync(portFile); i++) await new Promise((r) => setTimeout(r, 100));
  const p = readFileSync(portFile, "utf8").trim();
  return {
    url: `http://127.0.0.1:${p}/mcp`,
    async stop() {
      child.kill("SIGTERM");
      const t = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(t);
    },
  };
}

before(async () => {
  scratch = runDir("snapshot");
  [ttlServer, shortServer] = await Promise.all([
    startTtlServer(scratch.dir, 600_000),
    startTtlServer(scratch.dir, SHORT_TTL_MS),
  ]);
  ttlUrl = ttlServer.url;
  port = await freePort();
  configFile = writeConfig(scratch.dir, {
    storageDir: path.join(scratch.dir, "do"),
    workers: [
      {
        name: "agent",
        port,
        sessions: true,
        mcpConfig: {
          mcpServers: {
            everything: { url: env("EVERYTHING_URL") },
            py: { url: ttlUrl },
            py2025: { url: `${ttlUrl}?as=legacy`, protocol: "2025-11-25" },
            pyShort: { url: shortServer.url },
          },
        },
      },
    ],
  });
});

after(async () => {
  await workerd?.stop();
  await ttlServer?.stop();
  await shortServer?.stop();
  scratch?.remove();
});

const base = () => `http://127.0.0.1:${port}`;
const opened = {};

test("isolate 1: open sessions on both eras; the snapshots go to Durable Object storage", async () => {
  workerd = await startWorkerd(configFile, [port]);
  for (const server of ["everything", "py", "py2025", "pyShort"]) {
    const { status, body } = await postJson(`${base()}/sessions/${server}/open`, {});
    assert.equal(status, 200, `${server}: ${JSON.stringify(body)}`);
    opened[server] = { ...body, at: Date.now() };
  }
  assert.equal(opened.everything.era, "legacy");
  assert.match(opened.everything.sessionId, /^[0-9a-f-]{36}$/);
  assert.ok(opened.everything.requests.some((r) => r.method === "initialize"));
  assert.equal(opened.py.era, "modern");
  assert.equal(opened.py.sessionId, null);
  assert.ok(opened.py.tools.includes("add"));
  assert.equal(opened.py2025.era, "legacy");
  assert.ok(opened.py2025.sessionId, "the Python server gives 2025 clients a session id");
  const probe = (await getJson(`${base()}/_probe`)).body;
  assert.equal(probe.timers, 0, JSON.stringify(probe));
  assert.equal(probe.openFetches, 0, JSON.stringify(probe));
  await workerd.stop();
  workerd = null;
});

test("isolate 2 (a new workerd process): restored clients call tools with no handshake", async () => {
  assert.ok(opened.everything, "needs the first test");
  workerd = await startWorkerd(configFile, [port]);
  const fresh = (await getJson(`${base()}/_probe`)).body;
  assert.equal(fresh.fetches, 0, "a fresh isolate: nothing fetched yet");

  const e = await postJson(`${base()}/sessions/everything/call`, { name: "echo", arguments: { message: "after eviction" } });
  assert.equal(e.status, 200, JSON.stringify(e.body));
  assert.deepEqual(e.body.result.content, [{ type: "text", text: "Echo: after eviction" }]);
  assert.equal(e.body.era, "legacy");
  assert.equal(e.body.restoredSessionId, opened.everything.sessionId);
  assert.equal(e.body.sessionId, opened.everything.sessionId, "the 2025 session survived");
  const eMethods = e.body.requests.map((r) => r.method);
  assert.ok(!eMethods.includes("initialize"), `no handshake: ${JSON.stringify(e.body.requests)}`);
  assert.equal(eMethods.at(-1), "tools/call");
  console.log(`server-everything after restore: ${JSON.stringify(e.body.requests)}`);

  const p = await postJson(`${base()}/sessions/py/call`, { name: "add", arguments: { a: 4, b: 5 } });
  assert.equal(p.status, 200, JSON.stringify(p.body));
  assert.deepEqual(p.body.result.structuredContent, { sum: 9 });
  assert.equal(p.body.protocolVersion, "2026-07-28");
  // The tool list (ttlMs 600000) came from the snapshot's cache: only the call went out.
  assert.deepEqual(p.body.requests, [{ http: "POST", method: "tools/call" }]);

  // The short-lived list (ttlMs 2000) expired while no isolate ran: the time spent evicted
  // counts, so the restored client lists the tools again before calling.
  while (Date.now() < opened.pyShort.at + SHORT_TTL_MS + 500) await new Promise((r) => setTimeout(r, 100));
  const s = await postJson(`${base()}/sessions/pyShort/call`, { name: "echo", arguments: { message: "short" } });
  assert.equal(s.status, 200, JSON.stringify(s.body));
  assert.equal(s.body.result.content[0].text, "short");
  assert.deepEqual(
    s.body.requests.map((r) => r.method),
    ["tools/list", "tools/list", "tools/list", "tools/call"],
    "an expired cache is not served after eviction (3 pages of 3 tools, then the call)",
  );

  const l = await postJson(`${base()}/sessions/py2025/call`, { name: "echo", arguments: { message: "legacy again" } });
  assert.equal(l.status, 200, JSON.stringify(l.body));
  assert.equal(l.body.result.content[0].text, "legacy again");
  assert.equal(l.body.sessionId, opened.py2025.sessionId);
  assert.ok(!l.body.requests.some((r) => r.method === "initialize"), JSON.stringify(l.body.requests));

  const probe = (await getJson(`${base()}/_probe`)).body;
  assert.equal(probe.timers, 0, JSON.stringify(probe));
  assert.equal(probe.openFetches, 0, JSON.stringify(probe));
});

test("isolate 2: DELETE ends the 2025 session on the server; its snapshot is gone", async () => {
  const r = await fetch(`${base()}/sessions/everything`, { method: "DELETE", headers: AUTH });
  const body = await r.json();
  assert.equal(r.status, 200, JSON.stringify(body));
  assert.deepEqual(body.requests.map((x) => x.http), ["DELETE"]);
  const again = await postJson(`${base()}/sessions/everything/call`, { name: "echo", arguments: { message: "x" } });
  assert.equal(again.status, 404);
  assert.equal(again.body.error.code, "NO_SNAPSHOT");
});
