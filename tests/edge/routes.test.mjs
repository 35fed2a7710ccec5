// The template Worker in real workerd against real servers of both protocol eras:
// GET /tools, POST /call, POST /call?stream=1; a server reached only through a service binding;
// nothing (timer, response body) left alive in the isolate after each response.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { writeConfig, startWorkerd, freePort } from "./lib/workerd.mjs";
import { AUTH, env, eventually, getJson, postJson, parseSse, runDir } from "./lib/harness.mjs";

let base;
let workerd;
let scratch;

before(async () => {
  const py = env("PY2026_URL");
  const port = await freePort();
  scratch = runDir("routes");
  const file = writeConfig(scratch.dir, {
    storageDir: `${scratch.dir}/do`,
    workers: [
      {
        name: "agent",
        port,
        vars: { PY_TOKEN: "t-secret" },
        services: { PY_SERVICE: new URL(py).host },
        mcpConfig: {
          mcpServers: {
            everything: { url: env("EVERYTHING_URL") },
            py: { url: py, headers: { Authorization: "Bearer ${PY_TOKEN}" } },
            // A distinct URL: the pool drops a second server on the same endpoint.
            py2025: { url: `${py}?as=legacy`, protocol: "2025-11-25" },
            // No DNS name or address of this origin exists: only the binding reaches it.
            viaBinding: { url: "http://py-backend.internal/mcp", service: "PY_SERVICE" },
          },
        },
      },
    ],
  });
  workerd = await startWorkerd(file, [port]);
  base = `http://127.0.0.1:${port}`;
});

after(async () => {
  await workerd?.stop();
  scratch?.remove();
});

/** After a response, the isolate holds no timer and no open outbound response body. */
async function assertNothingLeft() {
  const { body } = await getJson(`${base}/_probe`);
  assert.equal(body.timers, 0, `timers left: ${JSON.stringify(body)}`);
  assert.equal(body.openFetches, 0, `open fetches left: ${JSON.stringify(body)}`);
  return body;
}

test("the web build loads in workerd, where eval is refused and there is no window", async () => {
  const { body } = await getJson(`${base}/_probe`);
  assert.equal(body.evalRefused, true, "workerd should refuse new Function");
  assert.equal(body.scope.window, "undefined");
  const tools = await getJson(`${base}/tools`);
  assert.equal(tools.status, 200, JSON.stringify(tools.body));
});

test("GET /tools: every server of both eras connects, tools come back in each export format", async () => {
  const { status, body } = await getJson(`${base}/tools`);
  assert.equal(status, 200, JSON.stringify(body));
  const byName = Object.fromEntries(body.servers.map((s) => [s.name, s]));
  for (const name of ["everything", "py", "py2025", "viaBinding"]) {
    assert.equal(byName[name]?.state, "connected", `${name}: ${JSON.stringify(byName[name])}`);
  }
  assert.equal(byName.everything.era, "legacy");
  assert.equal(byName.py2025.era, "legacy");
  assert.equal(byName.py2025.protocolVersion, "2025-11-25");
  assert.equal(byName.py.era, "modern");
  assert.equal(byName.py.protocolVersion, "2026-07-28");
  assert.equal(byName.viaBinding.era, "modern");
  const names = body.tools.map((t) => t.name);
  for (const n of ["mcp__everything__echo", "mcp__py__add", "mcp__py2025__slow_progress", "mcp__viaBinding__echo"]) {
    assert.ok(names.includes(n), `${n} missing from ${names.join(", ")}`);
  }
  // Deterministic order: by server, then by tool within a server.
  const servers = names.map((n) => n.split("__")[1]);
  const runs = servers.filter((s, i) => i === 0 || servers[i - 1] !== s);
  assert.deepEqual(runs, ["everything", "py", "py2025", "viaBinding"]);
  for (const s of runs) {
    const own = names.filter((n) => n.split("__")[1] === s);
    assert.deepEqual(own, [...own].sort(), `tools of ${s} in order`);
  }
  assert.ok(body.tools.every((t) => t.inputSchema?.type === "object"));

  const openai = await getJson(`${base}/tools?format=openai`);
  assert.equal(openai.status, 200);
  const add = openai.body.tools.find((t) => t.function?.name === "mcp__py__add");
  assert.equal(add.type, "function");
  assert.deepEqual(Object.keys(add.function.parameters.properties).sort(), ["a", "b"]);
  const anthropic = await getJson(`${base}/tools?format=anthropic`);
  assert.ok(anthropic.body.tools.some((t) => t.name === "mcp__everything__echo" && t.input_schema));

  const bad = await getJson(`${base}/tools?format=yaml`);
  assert.equal(bad.status, 400);
  await assertNothingLeft();
});

test("POST /call: a flattened result from each era and through the service binding", async () => {
  const e = await postJson(`${base}/call`, { name: "mcp__everything__echo", arguments: { message: "from 2025" } });
  assert.equal(e.status, 200, JSON.stringify(e.body));
  assert.deepEqual(e.body.content, [{ type: "text", text: "Echo: from 2025" }]);
  assert.equal(e.body.isError, false);

  const p = await postJson(`${base}/call`, { name: "mcp__py__add", arguments: { a: 20, b: 22 } });
  assert.equal(p.status, 200, JSON.stringify(p.body));
  assert.equal(p.body.isError, false);
  assert.match(p.body.content[0].text, /20 \+ 22 = 42/);
  assert.deepEqual(p.body.raw.structuredContent, { sum: 42 });

  const l = await postJson(`${base}/call`, { name: "mcp__py2025__echo", arguments: { message: "legacy py" } });
  assert.equal(l.body.content[0].text, "legacy py");

  const b = await postJson(`${base}/call`, { name: "mcp__viaBinding__echo", arguments: { message: "bound" } });
  assert.equal(b.body.isError, false, JSON.stringify(b.body));
  assert.equal(b.body.content[0].text, "bound");
  await assertNothingLeft();
});

test("POST /call: failures are results for the model, bad requests are 400", async () => {
  const fail = await postJson(`${base}/call`, { name: "mcp__py__fail", arguments: {} });
  assert.equal(fail.status, 200);
  assert.equal(fail.body.isError, true);
  assert.match(fail.body.content[0].text, /requested failure/);

  const unknown = await postJson(`${base}/call`, { name: "mcp__nope__tool" });
  assert.equal(unknown.status, 200);
  assert.equal(unknown.body.isError, true);

  assert.equal((await postJson(`${base}/call`, "{not json")).status, 400);
  assert.equal((await postJson(`${base}/call`, { arguments: {} })).status, 400);
  assert.equal((await postJson(`${base}/call`, { name: "x", arguments: [1] })).status, 400);
  await assertNothingLeft();
});

test("POST /call with an array runs the calls concurrently, results in order", async () => {
  const { status, body } = await postJson(`${base}/call`, [
    { name: "mcp__py__echo", arguments: { message: "one" } },
    { name: "mcp__everything__get-sum", arguments: { a: 2, b: 3 } },
    { name: "mcp__py2025__add", arguments: { a: 1, b: 1 } },
  ]);
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(body.length, 3);
  assert.equal(body[0].content[0].text, "one");
  assert.match(body[1].content[0].text, /5/);
  assert.match(body[2].content[0].text, /1 \+ 1 = 2/);
  await assertNothingLeft();
});

for (const [era, name, args, steps] of [
  ["2026-07-28", "mcp__py__slow_progress", { steps: 3, delay_ms: 150 }, 3],
  ["2025-11-25 (Python)", "mcp__py2025__slow_progress", { steps: 3, delay_ms: 150 }, 3],
  ["2025-11-25 (server-everything)", "mcp__everything__trigger-long-running-operation", { duration: 1, steps: 2 }, 2],
]) {
  test(`POST /call?stream=1 streams progress, then the result (${era})`, async () => {
    const r = await fetch(`${base}/call?stream=1`, {
      method: "POST",
      headers: { "content-type": "application/json", ...AUTH },
      body: JSON.stringify({ name, arguments: args }),
    });
    assert.equal(r.status, 200);
    assert.match(r.headers.get("content-type"), /^text\/event-stream/);
    const events = parseSse(await r.text());
    const progress = events.filter((e) => e.event === "progress");
    const last = events.at(-1);
    assert.equal(last.event, "result", JSON.stringify(events));
    assert.equal(last.data.isError, false, JSON.stringify(last.data));
    assert.equal(progress.length, steps, JSON.stringify(events));
    assert.deepEqual(progress.map((e) => e.data.progress), [...Array(steps)].map((_, i) => i + 1));
    assert.ok(progress.every((e) => e.data.total === steps));
    assert.equal(events.indexOf(last), events.length - 1, "the result comes last");
    await assertNothingLeft();
  });
}

test("POST /call?stream=1 with a bad body is refused before the stream starts", async () => {
  const r = await postJson(`${base}/call?stream=1`, "[]");
  assert.equal(r.status, 400);
  assert.equal(r.body.error.code, "BAD_REQUEST");
  assert.match(r.body.error.message, /one call at a time/);
  await assertNothingLeft();
});

test("unknown routes answer 404 with the list of routes", async () => {
  const r = await getJson(`${base}/nope`);
  assert.equal(r.status, 404);
  assert.match(r.body.error.message, /GET \/tools/);
});

test("POST /call?stream=1: a caller that goes away cancels the call; nothing is left open", async () => {
  const controller = new AbortController();
  const r = await fetch(`${base}/call?stream=1`, {
    method: "POST",
    headers: AUTH,
    body: JSON.stringify({ name: "mcp__py__slow_progress", arguments: { steps: 100, delay_ms: 1000 } }),
    signal: controller.signal,
  });
  const reader = r.body.getReader();
  let seen = "";
  while (!seen.includes("event: progress")) {
    const { value, done } = await reader.read();
    assert.ok(!done, "the stream ended before any progress");
    seen += new TextDecoder().decode(value);
  }
  controller.abort();
  await reader.cancel().catch(() => {});
  // The call would run for 100 s: an outbound body closed within the bounded wait (5 s) was
  // closed by the cancellation.
  const probe = await eventually(async () => {
    const { body } = await getJson(`${base}/_probe`);
    return { ok: body.openFetches === 0 && body.timers === 0, value: body };
  });
  assert.equal(probe.openFetches, 0, JSON.stringify(probe));
  assert.equal(probe.timers, 0, JSON.stringify(probe));
});
