// The component's `mcp-edge:client/pool` (transpiled by jco) next to the JavaScript `McpPool` of
// the wasm-pack nodejs package, in one Node process, against the same real servers:
//   PY2026_URL      Python mcp 2.3.0 server (2026-07-28)
//   EVERYTHING_URL  @modelcontextprotocol/server-everything (2025 era)
//   MCP_EDGE_NODEJS_PKG  the nodejs package directory (scripts/build-nodejs-pkg.sh)
//   WASMTIME_EXPORTS_DIR where the wasmtime host (wasmtime-host/, run first) wrote its pool's tools
// and the misbehaving fixture (tests/servers/fixture/server.mjs), which the last suite starts.
// Both run the same pool driver; their exports must be the same bytes.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { refusedPort, startServerProcess } from "./lib.mjs";

const out = process.env.COMPONENT_JS ?? new URL("./out/mcp-edge.js", import.meta.url).href;
const { pool, client } = await import(out);
const { Pool } = pool;
const { Client } = client;

const PY2026_URL = process.env.PY2026_URL;
const EVERYTHING_URL = process.env.EVERYTHING_URL;
const PKG = process.env.MCP_EDGE_NODEJS_PKG;
assert.ok(PY2026_URL && EVERYTHING_URL && PKG, "run tests/component/run.sh (variables missing)");
const { McpPool } = createRequire(import.meta.url)(`${PKG}/mcp_edge.js`);

const FORMATS = ["openai", "openai-responses", "anthropic", "mcp"];

/** Two servers of both eras, one with a category and instructions from the server. */
const twoServers = {
  mcpServers: {
    py: { url: "${PY_URL}", category: "read" },
    everything: { url: EVERYTHING_URL },
  },
};
const vars = { PY_URL: PY2026_URL };


const byName = (status) => Object.fromEntries(JSON.parse(status).servers.map((s) => [s.name, s]));

describe("pool: the component and the JS McpPool over the same two servers", () => {
  let c;
  let js;
  before(async () => {
    c = Pool.create(JSON.stringify(twoServers), { vars: Object.entries(vars) });
    js = new McpPool(twoServers, { vars });
    const status = byName(c.connectAll());
    await js.connectAll();
    assert.equal(status.py.state, "connected", JSON.stringify(status.py));
    assert.equal(status.everything.state, "connected", JSON.stringify(status.everything));
    assert.equal(status.py.era, "modern");
    assert.equal(status.everything.era, "legacy");
  });
  after(async () => {
    c?.close();
    await js?.close();
  });

  test("tools are byte-identical in every format", () => {
    for (const format of FORMATS) {
      const mine = c.tools(format);
      const theirs = JSON.stringify(js.tools({ format }));
      assert.ok(JSON.parse(mine).length > 10, `${format}: too few tools`);
      assert.equal(mine, theirs, `${format} differs`);
    }
    assert.ok(JSON.parse(c.tools("mcp")).some((t) => t.name === "mcp__py__add"));
  });

  test("the same component in wasmtime exported the same bytes", () => {
    const dir = process.env.WASMTIME_EXPORTS_DIR;
    assert.ok(dir, "run.sh runs the wasmtime host before this file (WASMTIME_EXPORTS_DIR)");
    for (const format of FORMATS) {
      const theirs = JSON.stringify(js.tools({ format }));
      assert.equal(readFileSync(`${dir}/wasmtime-tools-${format}.json`, "utf8"), theirs, `${format} differs`);
    }
  });

  test("status, token estimates and instructions match", () => {
    const strip = (s) => s.servers.map(({ name, state, transport, toolCount, era, protocolVersion }) =>
      ({ name, state, transport, toolCount, era, protocolVersion }));
    assert.deepEqual(strip(JSON.parse(c.status())), strip(js.status()));
    for (const format of FORMATS) {
      assert.deepEqual(Object.fromEntries(c.tokenEstimates(format).map(([k, v]) => [k, Number(v)])),
        js.tokenEstimates(format));
    }
    const mine = c.instructions();
    const theirs = js.instructions();
    assert.equal(mine.text, theirs.text);
    assert.deepEqual(mine.joined, theirs.joined);
    assert.deepEqual(mine.left, theirs.left);
  });

  test("calls give the same results; failures are results, never throws", async () => {
    const calls = [
      ["mcp__py__add", { a: 2, b: 40 }],
      ["mcp__everything__echo", { message: "pooled" }],
      ["mcp__py__fail", {}],
      ["mcp__nowhere__tool", {}],
    ];
    for (const [name, args] of calls) {
      const mine = JSON.parse(c.call(name, JSON.stringify(args), undefined));
      const theirs = await js.call(name, args);
      assert.deepEqual(mine.content, theirs.content, name);
      assert.equal(mine.isError, theirs.isError, name);
      assert.equal(mine.error?.code, theirs.error?.code, name);
    }
    const bad = JSON.parse(c.call("mcp__py__add", "not json", undefined));
    assert.equal(bad.isError, true);
    assert.equal(bad.error.code, "CONFIG");
  });

  test("events are the JS pool's onEvent payloads", () => {
    const events = c.takeEvents().map((e) => JSON.parse(e));
    const states = events.filter((e) => e.type === "state" && e.to === "connected").map((e) => e.server).sort();
    assert.deepEqual(states, ["everything", "py"]);
    // The PoolEvent types of the .d.ts (the JS pool's onEvent gets the same JSON).
    const declared = ["state", "toolCount", "attemptAborted", "projectEntryIgnored", "approvalRequired", "configRejected", "gap",
      "listChanged", "toolChanged", "toolRejected", "toolsChanged"];
    for (const e of events) assert.ok(declared.includes(e.type), JSON.stringify(e));
    assert.ok(events.some((e) => e.type === "state" && e.server === "py" && e.from === "connecting"), JSON.stringify(events));
  });
});

describe("pool: tool search and deferred loading through the WIT interface", () => {
  let c;
  let js;
  const toolSearch = { mode: "always", alwaysLoaded: ["mcp__py__add"] };
  before(async () => {
    c = Pool.create(JSON.stringify(twoServers), { vars: Object.entries(vars), toolSearchJson: JSON.stringify(toolSearch) });
    js = new McpPool(twoServers, { vars, toolSearch });
    c.connectAll();
    await js.connectAll();
  });
  after(async () => {
    c?.close();
    await js?.close();
  });

  test("search results, deferred exports and answers are the JS pool's bytes", async () => {
    const queries = [["echo back a message", undefined], ["add two numbers", { limit: 2, format: "anthropic" }],
      ["sum", { servers: ["everything"] }]];
    for (const [q, o] of queries) {
      const mine = c.searchTools(q, o ? JSON.stringify(o) : undefined);
      assert.equal(mine, JSON.stringify(js.searchTools(q, o)), q);
    }
    const hits = JSON.parse(c.searchTools("echo back a message", undefined));
    assert.equal(hits[0].tool, "echo", JSON.stringify(hits.map((h) => h.name)));
    for (const format of FORMATS) {
      assert.equal(c.tools(format), JSON.stringify(js.tools({ format })), format);
      assert.equal(c.deferral(format), JSON.stringify(js.deferral({ format })), format);
    }
    const anthropic = JSON.parse(c.tools("anthropic"));
    assert.equal(anthropic[0].name, "search_tools");
    assert.ok(anthropic.filter((t) => t.defer_loading).length > 10);
    assert.ok(!anthropic.find((t) => t.name === "mcp__py__add").defer_loading, "always loaded");
    const refs = JSON.parse(c.searchAnswer(JSON.stringify({ query: "echo" }), "anthropic", undefined));
    assert.deepEqual(refs, js.searchAnswer({ query: "echo" }, { format: "anthropic" }));
    assert.equal(refs[0].type, "tool_reference");
    const out = JSON.parse(c.searchAnswer(JSON.stringify({ query: "echo" }), "openai-responses", "call_7"));
    assert.equal(out.type, "tool_search_output");
    assert.equal(out.call_id, "call_7");
    // The meta pair runs through call, as in JS.
    const found = JSON.parse(c.call("search_tools", JSON.stringify({ query: "add numbers" }), undefined));
    assert.match(found.content[0].text, /mcp__py__add/);
    const ran = JSON.parse(c.call("call_tool", JSON.stringify({ name: "mcp__py__add", arguments: { a: 2, b: 3 } }), undefined));
    const theirs = await js.call("call_tool", { name: "mcp__py__add", arguments: { a: 2, b: 3 } });
    assert.deepEqual(ran.content, theirs.content);
    assert.equal(ran.isError, false);
    assert.throws(() => c.searchTools("x", JSON.stringify({ limit: 0 })), (e) => e.payload?.code === "INVALID_ARGUMENT" || /INVALID_ARGUMENT|limit/.test(String(e.payload?.message ?? e)));
    assert.throws(() => Pool.create(JSON.stringify(twoServers), { toolSearchJson: JSON.stringify({ mode: "sometimes" }) }));
  });
});

describe("pool: bounded events, fail-open configuration, approval, typed unavailability", () => {
  test("take-events keeps at most 256 and says how many went", async () => {
    const port = await refusedPort();
    const mcpServers = {};
    for (let i = 0; i < 150; i++) mcpServers[`s${String(i).padStart(3, "0")}`] = { url: `http://127.0.0.1:${port}/mcp?i=${i}` };
    const c = Pool.create(JSON.stringify({ mcpServers }), { maxConcurrentConnects: 150, reconnectJson: JSON.stringify({ slowMs: null, maxRetries: 0 }) });
    try {
      c.connectAll();
      const events = c.takeEvents().map((e) => JSON.parse(e));
      // 150 servers x (pending -> connecting -> failed) = 300 state changes, 256 kept.
      assert.deepEqual(events[0], { type: "gap", dropped: 300 - 256 });
      assert.equal(events.length, 257);
      assert.ok(events.slice(1).every((e) => e.type === "state"));
      assert.deepEqual(c.takeEvents(), []);
    } finally {
      c.close();
    }
  });

  test("a document that is not JSON gives an empty pool whose status says why", () => {
    const c = Pool.create('{"mcpServers": {', undefined);
    try {
      const status = JSON.parse(c.status());
      assert.deepEqual(status.servers, []);
      assert.equal(status.diagnostics[0].code, "CONFIG");
      assert.match(status.diagnostics[0].message, /user layer ignored: not JSON/);
      c.connectAll();
      assert.equal(JSON.parse(c.takeEvents()[0]).type, "configRejected");
    } finally {
      c.close();
    }
  });

  test("a project-only server waits for approve-server; its tools are unavailable, not unknown", () => {
    const c = Pool.create(JSON.stringify({ mcpServers: {} }), {
      vars: Object.entries(vars),
      projectConfigJson: JSON.stringify({ mcpServers: { proj: { url: "${PY_URL}" } } }),
    });
    try {
      let status = byName(c.connectAll());
      assert.equal(status.proj.state, "pending-approval");
      const refused = JSON.parse(c.call("mcp__proj__add", JSON.stringify({ a: 1, b: 2 }), undefined));
      assert.equal(refused.error.code, "SERVER_UNAVAILABLE");
      assert.equal(refused.error.state, "pending-approval");
      assert.equal(c.approveServer("proj"), true);
      status = byName(c.connectAll());
      assert.equal(status.proj.state, "connected", JSON.stringify(status.proj));
      const ran = JSON.parse(c.call("mcp__proj__add", JSON.stringify({ a: 1, b: 2 }), undefined));
      assert.equal(ran.isError, false, JSON.stringify(ran));
      assert.equal(c.rejectServer("proj"), false, "a connected server needs no decision");
    } finally {
      c.close();
    }
  });
});

describe("pool: hanging and failing servers stay isolated", () => {
  let hang;
  let hangPort;
  before(async () => {
    // Accepts connections and never answers (the kernel completes the handshake even while the
    // component's synchronous call holds this thread).
    hang = createServer((socket) => socket.on("error", () => {}));
    await new Promise((resolve) => hang.listen(0, "127.0.0.1", resolve));
    hangPort = hang.address().port;
  });
  after(() => hang?.close());

  test("connect-all settles; the good servers connect, the others fail alone", async () => {
    const down = await refusedPort();
    const config = {
      mcpServers: {
        py: { url: PY2026_URL },
        everything: { url: EVERYTHING_URL },
        hanging: { url: `http://127.0.0.1:${hangPort}/mcp`, timeoutMs: 1500 },
        down: { url: `http://127.0.0.1:${down}/mcp`, timeoutMs: 1500 },
        denied: { url: PY2026_URL + "?denied" },
      },
    };
    const c = Pool.create(JSON.stringify(config), {
      policyJson: JSON.stringify({ denied: ["denied"] }),
      maxConcurrentConnects: 4,
    });
    try {
      const status = byName(c.connectAll());
      assert.equal(status.py.state, "connected");
      assert.equal(status.everything.state, "connected");
      assert.equal(status.hanging.state, "failed", JSON.stringify(status.hanging));
      assert.equal(status.hanging.lastError.code, "TIMEOUT", JSON.stringify(status.hanging));
      assert.equal(status.down.state, "failed", JSON.stringify(status.down));
      assert.equal(status.down.lastError.code, "NETWORK", JSON.stringify(status.down));
      assert.equal(status.denied.state, "disabled");
      // The good servers' tools are exported and callable; the others' are not.
      const names = JSON.parse(c.tools("mcp")).map((t) => t.name);
      assert.ok(names.includes("mcp__py__add") && names.includes("mcp__everything__echo"));
      assert.ok(!names.some((n) => n.startsWith("mcp__hanging__") || n.startsWith("mcp__down__")));
      const r = JSON.parse(c.call("mcp__py__add", JSON.stringify({ a: 1, b: 1 }), undefined));
      assert.equal(r.isError, false, JSON.stringify(r));
      assert.match(r.content[0].text, /1 \+ 1 = 2/);
    } finally {
      c.close();
    }
  });
});

describe("pool: a list change the server announces on a response stream", () => {
  let fixture;
  let base;
  before(async () => {
    // The misbehaving fixture: its first line names its ports.
    const { child, line } = await startServerProcess("../servers/fixture/server.mjs");
    fixture = child;
    base = `http://127.0.0.1:${JSON.parse(line).port}`;
  });
  after(() => fixture?.stdin.end());

  test("refreshes the server's tools and reports listChanged (no standing stream needed)", () => {
    const key = `component-${Date.now()}`;
    const c = Pool.create(JSON.stringify({ mcpServers: { flaky: { url: `${base}/mcp-flaky?key=${key}` } } }), {});
    try {
      assert.equal(byName(c.connectAll()).flaky.state, "connected");
      const names = () => JSON.parse(c.tools("mcp")).map((t) => t.name);
      assert.deepEqual(names(), ["mcp__flaky__echo"]);
      c.takeEvents();
      // The answer to this call carries notifications/tools/list_changed before its result; the
      // pool lists the tools again while later calls run (work moves only inside a call).
      const r = JSON.parse(c.call("mcp__flaky__echo", JSON.stringify({ text: "change" }), undefined));
      assert.equal(r.content[0].text, "change", JSON.stringify(r));
      for (let i = 0; i < 20 && !names().includes("mcp__flaky__extra_2"); i++) {
        c.call("mcp__flaky__echo", JSON.stringify({ text: "again" }), undefined);
      }
      assert.deepEqual(names(), ["mcp__flaky__echo", "mcp__flaky__extra_2"]);
      const events = c.takeEvents().map((e) => JSON.parse(e));
      assert.ok(events.some((e) => e.type === "listChanged" && e.server === "flaky" && e.list === "tools" && e.count === 2), JSON.stringify(events));
      assert.ok(events.some((e) => e.type === "toolsChanged"), JSON.stringify(events));
    } finally {
      c.close();
    }
  });

  test("a listen-json stream the server refuses is reported once, as a diagnostic", () => {
    // ?caps=no-tools answers subscriptions/listen with -32601.
    const c = Client.connect(`${base}/mcp-flaky?key=listen-${Date.now()}&caps=no-tools`, { listenJson: '{"toolsListChanged": true}' });
    try {
      const notes = [];
      for (let i = 0; i < 10 && !notes.some((n) => n.tag === "diagnostic"); i++) notes.push(...c.pollNotifications(200n));
      const said = notes.filter((n) => n.tag === "diagnostic").map((n) => n.val);
      assert.equal(said.length, 1, JSON.stringify(notes));
      assert.match(said[0], /listen-json stream ended: .*-32601.*\(RPC\)/);
      assert.deepEqual(c.pollNotifications(50n).filter((n) => n.tag === "diagnostic"), [], "said once");
    } finally {
      c.close();
    }
  });
});

describe("pool: MCP Apps visibility through the WIT interface", () => {
  let fixture;
  let url;
  before(async () => {
    // The hostile-view fixture: tools visible to both, to the model only, to the app only.
    const { child, line } = await startServerProcess("../servers/apps/hostile.mjs");
    fixture = child;
    url = `http://127.0.0.1:${JSON.parse(line).port}/mcp`;
  });
  after(() => fixture?.stdin.end());

  test("no export lists an app-only tool, the bytes equal the JS McpPool's, and call refuses it", async () => {
    const config = { mcpServers: { h: { url } } };
    const c = Pool.create(JSON.stringify(config), {});
    const js = new McpPool(config, {});
    try {
      assert.equal(byName(c.connectAll()).h.state, "connected");
      await js.connectAll();
      for (const format of FORMATS) {
        const mine = c.tools(format);
        const names = JSON.parse(mine).map((t) => t.name ?? t.function?.name);
        assert.deepEqual(names, ["mcp__h__hostile", "mcp__h__model_only"], format);
        assert.equal(mine, JSON.stringify(js.tools({ format })), `${format}: the same bytes as the JS pool`);
      }
      const r = JSON.parse(c.call("mcp__h__app_only", "{}", undefined));
      assert.equal(r.isError, true, JSON.stringify(r));
      assert.equal(r.error.code, "UNKNOWN_TOOL", JSON.stringify(r));
      const ok = JSON.parse(c.call("mcp__h__model_only", "{}", undefined));
      assert.equal(ok.content[0].text, "model_only ran", JSON.stringify(ok));
    } finally {
      c.close();
      await js.close();
    }
  });
});
