// The outbound cap of an edge pool, measured on the server side: 7 MCP servers (4 on the
// 2026-07-28 Python server, 3 on server-everything, 2025 era) all reached through a counting
// reverse proxy, so every subrequest the Worker has open is one request the proxy has open.
// With `edge: true` the proxy never sees more than 6 at once, through connectAll, 7 concurrent
// slow calls and the closes; the same Worker with MCP_EDGE=false goes past 6 (so the measure can
// fail).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { writeConfig, startWorkerd, freePort } from "./lib/workerd.mjs";
import { edgeDir, env, eventually, getJson, postJson, runDir, startBannerProcess } from "./lib/harness.mjs";

const CAP = 6;
let proxy;
let proxyBase;
let workerd;
let edgeBase;
let openBase;
let scratch;
const servers = {};
const calls = [];

before(async () => {
  const py = env("PY2026_URL");
  const everything = env("EVERYTHING_URL");
  const upstreams = [py, py, py, py, everything, everything, everything];
  proxy = await startBannerProcess(`${edgeDir}/lib/counting-proxy.mjs`, [JSON.stringify(upstreams)]);
  proxyBase = `http://127.0.0.1:${proxy.banner.port}`;
  upstreams.forEach((u, i) => {
    const name = `s${i}`;
    servers[name] = { url: `${proxyBase}/u/${i}` };
    // Slow calls (about 1 s each), so that all of them would overlap without the cap.
    calls.push(
      u === py
        ? { name: `mcp__${name}__slow_progress`, arguments: { steps: 4, delay_ms: 250 } }
        : { name: `mcp__${name}__trigger-long-running-operation`, arguments: { duration: 1, steps: 2 } },
    );
  });
  const [edgePort, openPort] = [await freePort(), await freePort()];
  scratch = runDir("cap");
  const mcpConfig = { mcpServers: servers };
  const file = writeConfig(scratch.dir, {
    storageDir: `${scratch.dir}/do`,
    workers: [
      { name: "edge", port: edgePort, mcpConfig },
      { name: "open", port: openPort, mcpConfig, edge: false },
    ],
  });
  workerd = await startWorkerd(file, [edgePort, openPort]);
  edgeBase = `http://127.0.0.1:${edgePort}`;
  openBase = `http://127.0.0.1:${openPort}`;
});

after(async () => {
  await workerd?.stop();
  await proxy?.stop();
  scratch?.remove();
});

const stats = async () => (await getJson(`${proxyBase}/_stats`)).body;
const reset = () => fetch(`${proxyBase}/_reset`, { method: "POST" });
/** Waits (bounded) until the proxy has no request open: the pool closed everything it opened. */
const drained = () => eventually(async () => {
  const s = await stats();
  return { ok: s.inFlight === 0, value: s };
});

test("edge pool: 7 servers, connectAll + 7 concurrent slow calls, never more than 6 requests in flight", async () => {
  assert.equal((await drained()).inFlight, 0);
  await reset();
  const { status, body } = await postJson(`${edgeBase}/call`, calls);
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(body.length, 7);
  body.forEach((r, i) => assert.equal(r.isError, false, `${calls[i].name}: ${JSON.stringify(r)}`));
  const after = await drained();
  console.log(`edge: max concurrent requests at the proxy = ${after.max} (total ${after.total}, per upstream ${after.perUpstreamMax})`);
  assert.ok(after.max <= CAP, `the proxy saw ${after.max} requests at once`);
  // The bound is reached (the measure is not vacuous): 7 slow calls fill all 6 slots.
  assert.equal(after.max, CAP);
  assert.equal(after.inFlight, 0, "everything was closed before the response");
  const probe = (await getJson(`${edgeBase}/_probe`)).body;
  assert.ok(probe.maxOpenFetches <= CAP, `inside the isolate: ${JSON.stringify(probe)}`);
  assert.equal(probe.openFetches, 0);
  assert.equal(probe.timers, 0);
});

test("edge pool: GET /tools over 7 servers stays within 6 too", async () => {
  await drained();
  await reset();
  const { status, body } = await getJson(`${edgeBase}/tools`);
  assert.equal(status, 200);
  assert.equal(body.servers.filter((s) => s.state === "connected").length, 7, JSON.stringify(body.servers));
  assert.deepEqual(
    body.servers.map((s) => s.era),
    ["modern", "modern", "modern", "modern", "legacy", "legacy", "legacy"],
  );
  const after = await drained();
  console.log(`edge /tools: max concurrent requests at the proxy = ${after.max} (total ${after.total})`);
  assert.ok(after.max <= CAP, `the proxy saw ${after.max} requests at once`);
});

test("control: the same Worker with MCP_EDGE=false goes past 6 (the measure can fail)", async () => {
  await drained();
  await reset();
  const { status, body } = await postJson(`${openBase}/call`, calls);
  assert.equal(status, 200);
  body.forEach((r, i) => assert.equal(r.isError, false, `${calls[i].name}: ${JSON.stringify(r)}`));
  const after = await drained();
  console.log(`no edge: max concurrent requests at the proxy = ${after.max} (total ${after.total})`);
  assert.ok(after.max > CAP, `without the edge bound the proxy saw only ${after.max}`);
});
