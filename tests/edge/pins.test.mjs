// Tool pins persisted by the Worker template (Durable Object McpPins): a tool whose description
// changes after it was first seen is held back in every later request, also in a new workerd
// process (a fresh isolate), until POST /pins/accept; the fixture's /mcp-flaky endpoint changes
// its `echo` description on request.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { writeConfig, startWorkerd, freePort } from "./lib/workerd.mjs";
import { edgeDir, getJson, postJson, runDir, startBannerProcess } from "./lib/harness.mjs";

let scratch;
let fixture;
let admin;
let port;
let configFile;
let workerd;

before(async () => {
  scratch = runDir("pins");
  fixture = await startBannerProcess(path.join(edgeDir, "../servers/fixture/server.mjs"));
  const origin = `http://127.0.0.1:${fixture.banner.port}`;
  const key = `pins-${Date.now()}`;
  admin = `${origin}/mcp-flaky/admin?key=${key}`;
  port = await freePort();
  configFile = writeConfig(scratch.dir, {
    storageDir: path.join(scratch.dir, "do"),
    workers: [{ name: "agent", port, pins: true, mcpConfig: { mcpServers: { flaky: { url: `${origin}/mcp-flaky?key=${key}` } } } }],
  });
});

after(async () => {
  await workerd?.stop();
  await fixture?.stop();
  scratch?.remove();
});

const base = () => `http://127.0.0.1:${port}`;
const names = (body) => body.tools.map((t) => t.name);

test("a changed tool stays held across requests and isolates until it is accepted", async () => {
  workerd = await startWorkerd(configFile, [port]);
  const first = await getJson(`${base()}/tools`);
  assert.equal(first.status, 200, `${JSON.stringify(first.body)}\n${workerd.log()}`);
  assert.deepEqual(names(first.body), ["mcp__flaky__echo"]);
  assert.deepEqual(first.body.held, []);

  // The server rewrites echo's description. A later request (a new pool) sees the change.
  await fetch(`${admin}&op=rug`, { method: "POST" });
  const second = await getJson(`${base()}/tools`);
  assert.deepEqual(names(second.body), [], "the changed tool is held back");
  assert.equal(second.body.held.length, 1);
  assert.equal(second.body.held[0].name, "mcp__flaky__echo");
  const call = await postJson(`${base()}/call`, { name: "mcp__flaky__echo", arguments: { text: "x" } });
  assert.equal(call.body.error?.code, "TOOL_CHANGED", JSON.stringify(call.body));

  // A new workerd process: the pins come from Durable Object storage on disk.
  await workerd.stop();
  workerd = await startWorkerd(configFile, [port]);
  const third = await getJson(`${base()}/tools`);
  assert.deepEqual(names(third.body), [], "still held in a fresh isolate");
  assert.equal(third.body.held[0].pinned, second.body.held[0].pinned);

  const accepted = await postJson(`${base()}/pins/accept`, { name: "mcp__flaky__echo" });
  assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
  assert.deepEqual(accepted.body.held, []);
  const fourth = await getJson(`${base()}/tools`);
  assert.deepEqual(names(fourth.body), ["mcp__flaky__echo"]);
  assert.deepEqual(fourth.body.held, []);
  assert.match(fourth.body.tools[0].description, /id_rsa/, "the accepted definition is the one exported");
});
