// A long tool that outlives its request and its isolate: the template Worker's Durable Object
// keeps a call the server turned into a task (the 2026-07-28 Tasks extension, served by the
// loopback fixture tests/servers/tasks2026: no published server implements it). A first workerd
// process starts the call and answers 202 with the task's handle; it is stopped; a second one (a
// fresh isolate, nothing in memory) answers GET /tasks/<id> from storage by polling the task, and
// the tool body ran exactly once.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { writeConfig, startWorkerd, freePort } from "./lib/workerd.mjs";
import { AUTH, edgeDir, env, getJson, postJson, runDir, startBannerProcess } from "./lib/harness.mjs";

let scratch;
let fixture;
let fixtureOrigin;
let port;
let configFile;
let workerd;

before(async () => {
  scratch = runDir("tasks");
  fixture = await startBannerProcess(path.join(edgeDir, "../servers/tasks2026/server.mjs"));
  fixtureOrigin = `http://127.0.0.1:${fixture.banner.port}`;
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
            jobs: { url: `${fixtureOrigin}/mcp` },
            // 2025-11-25 tasks: simulate-research-query runs as a task (about 5 s).
            everything: { url: env("EVERYTHING_URL") },
          },
        },
      },
    ],
  });
});

after(async () => {
  await workerd?.stop();
  await fixture?.stop();
  scratch?.remove();
});

const base = () => `http://127.0.0.1:${port}`;
let started;

test("isolate 1: a long call answers 202 with the task's handle; the task is kept in storage", async () => {
  workerd = await startWorkerd(configFile, [port]);
  const open = await postJson(`${base()}/sessions/jobs/open`, {});
  assert.equal(open.status, 200, JSON.stringify(open.body));
  assert.equal(open.body.era, "modern");
  const r = await postJson(`${base()}/sessions/jobs/call?waitMs=300`, {
    name: "slow_compute",
    arguments: { ms: 2500, steps: 3, pollMs: 100 },
  });
  assert.equal(r.status, 202, JSON.stringify(r.body));
  assert.equal(r.body.task.shape, "extension");
  assert.match(r.body.task.taskId, /^[0-9a-f]{32}$/);
  assert.equal(r.body.poll, `/tasks/${r.body.task.id}`);
  started = r.body;
  // The isolate goes away mid-task.
  await workerd.stop();
  workerd = null;
});

test("isolate 2: GET /tasks/<id> polls the task from storage to its result, never calling the tool again", async () => {
  assert.ok(started, "needs the first test");
  workerd = await startWorkerd(configFile, [port]);
  let last;
  for (let i = 0; i < 60; i++) {
    last = await getJson(`${base()}${started.poll}?waitMs=300`);
    if (last.status !== 202) break;
    assert.equal(last.body.task.taskId, started.task.taskId);
    assert.ok(["working", "input_required"].includes(last.body.status), JSON.stringify(last.body));
  }
  assert.equal(last.status, 200, JSON.stringify(last.body));
  assert.equal(last.body.status, "completed");
  assert.equal(last.body.result.content[0].text, "computed 3 steps");
  // Forgotten once delivered.
  const again = await getJson(`${base()}${started.poll}`);
  assert.equal(again.status, 404);
  assert.equal(again.body.error.code, "UNKNOWN_TASK");
  // One tools/call, one execution: the restart re-ran nothing.
  const tasks = await (await fetch(`${fixtureOrigin}/admin/tasks`)).json();
  const row = tasks.tasks.find((t) => t.taskId === started.task.taskId);
  assert.equal(row.executions, 1, JSON.stringify(row));
  assert.equal(tasks.toolCalls.slow_compute, 1, JSON.stringify(tasks.toolCalls));
  const log = await (await fetch(`${fixtureOrigin}/admin/log`)).json();
  assert.equal(log.filter((e) => e.method === "tools/call").length, 1);
  assert.ok(log.some((e) => e.method === "tasks/get" && e.headers["mcp-name"] === started.task.taskId));
});

test("2025-11-25 tasks (server-everything): a call that fits in waitMs returns its result; a longer one is kept and read from a new isolate", async () => {
  const open = await postJson(`${base()}/sessions/everything/open`, {});
  assert.equal(open.status, 200, JSON.stringify(open.body));
  assert.equal(open.body.era, "legacy");
  const quick = await postJson(`${base()}/sessions/everything/call?waitMs=20000`, {
    name: "simulate-research-query",
    arguments: { topic: "edge" },
  });
  assert.equal(quick.status, 200, JSON.stringify(quick.body));
  assert.match(quick.body.result.content[0].text, /Research Report: edge/);
  const slow = await postJson(`${base()}/sessions/everything/call?waitMs=500`, {
    name: "simulate-research-query",
    arguments: { topic: "kept" },
  });
  assert.equal(slow.status, 202, JSON.stringify(slow.body));
  assert.equal(slow.body.task.shape, "2025-11-25");
  await workerd.stop();
  workerd = await startWorkerd(configFile, [port]);
  let last;
  for (let i = 0; i < 60; i++) {
    last = await getJson(`${base()}${slow.body.poll}?waitMs=500`);
    if (last.status !== 202) break;
  }
  assert.equal(last.status, 200, JSON.stringify(last.body));
  assert.match(last.body.result.content[0].text, /Research Report: kept/);
});

test("a task handle the Worker does not keep, or of a server it refuses, is an error", async () => {
  const unknown = await getJson(`${base()}/tasks/${encodeURIComponent("jobs:nope")}`);
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.error.code, "UNKNOWN_TASK");
  const noCredential = await getJson(`${base()}${started.poll}`, {});
  assert.equal(noCredential.status, 401);
});
