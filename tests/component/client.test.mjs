// The mcp-edge WebAssembly component, transpiled by jco, driven from Node through its WIT
// interface only (`mcp-edge:client/client`), against real MCP servers of both protocol eras:
//   PY2026_URL      Python mcp 2.3.0 server (2026-07-28 stateless, and 2025 on the same URL)
//   EVERYTHING_URL  @modelcontextprotocol/server-everything (2025 era)
// run.sh builds, transpiles, starts the servers and sets these variables.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { refusedPort, startServerProcess, witError } from "./lib.mjs";

const out = process.env.COMPONENT_JS ?? new URL("./out/mcp-edge.js", import.meta.url).href;
const { client } = await import(out);
const { Client } = client;

const PY2026_URL = process.env.PY2026_URL;
const EVERYTHING_URL = process.env.EVERYTHING_URL;
assert.ok(PY2026_URL && EVERYTHING_URL, "run tests/component/run.sh (server URLs missing)");



/** Asserts progress arrived incrementally: numbered 1..steps, in order, the first one before
 * the result (a buffered body would deliver every event together with the result). */
function assertStreamedProgress(result, steps) {
  assert.equal(result.isError, false, result.json);
  assert.deepEqual(
    result.progress.map((p) => p.progress),
    Array.from({ length: steps }, (_, i) => i + 1),
  );
  for (const p of result.progress) assert.equal(p.total, steps);
  for (let i = 1; i < result.progress.length; i++) {
    assert.ok(result.progress[i].elapsedMs >= result.progress[i - 1].elapsedMs);
  }
  assert.ok(
    result.progress[0].elapsedMs < result.elapsedMs,
    `first progress at ${result.progress[0].elapsedMs} ms, result at ${result.elapsedMs} ms`,
  );
}

const text = (result) => JSON.parse(result.contentJson).map((c) => c.text).join("");

describe("2026-07-28 server (Python mcp 2.3.0)", () => {
  let c;
  before(() => {
    c = Client.connect(PY2026_URL);
  });
  after(() => c?.close());

  test("connect detects the modern era", () => {
    const info = c.serverInfo();
    assert.equal(info.era, "modern");
    assert.equal(info.protocolVersion, "2026-07-28");
    assert.equal(info.name, "mcp-edge-py-test");
    assert.equal(info.sessionId, undefined);
    assert.ok(JSON.parse(info.capabilitiesJson).tools, info.capabilitiesJson);
  });

  test("list-tools follows every page and drops tools with invalid x-mcp-header", () => {
    const tools = c.listTools();
    const names = tools.map((t) => t.name);
    for (const n of ["add", "echo", "slow_progress", "mrtr_twice", "region_query", "fail"]) {
      assert.ok(names.includes(n), `${n} missing from ${names}`);
    }
    assert.ok(!names.includes("bad_header_tool") && !names.includes("bad_header_space"));
    const add = tools.find((t) => t.name === "add");
    assert.equal(JSON.parse(add.inputSchemaJson).type, "object");
    assert.ok(add.outputSchemaJson, "add declares an outputSchema");
    const rejected = c
      .takeNotifications()
      .filter((n) => n.tag === "tool-rejected")
      .map((n) => n.val.name)
      .sort();
    assert.deepEqual(rejected, ["bad_header_space", "bad_header_tool"]);
  });

  test("call-tool returns typed and structured content", () => {
    const r = c.callTool("add", JSON.stringify({ a: 2, b: 40 }));
    assert.equal(r.isError, false);
    assert.deepEqual(JSON.parse(r.structuredContentJson), { sum: 42 });
    assert.match(text(r), /2 \+ 40 = 42/);
    assert.deepEqual(r.progress, []);
  });

  test("call-tool sees SSE progress before the result", () => {
    const r = c.callTool("slow_progress", JSON.stringify({ steps: 3, delay_ms: 150 }));
    assertStreamedProgress(r, 3);
    assert.deepEqual(
      r.progress.map((p) => p.message),
      ["step 1/3", "step 2/3", "step 3/3"],
    );
    assert.equal(text(r), "done 3 steps");
  });

  test("call-tools runs calls concurrently: every first progress precedes every result", () => {
    const args = JSON.stringify({ steps: 3, delay_ms: 200 });
    const results = c.callTools([
      { name: "slow_progress", argumentsJson: args },
      { name: "slow_progress", argumentsJson: args },
      { name: "echo", argumentsJson: JSON.stringify({ message: "hi" }) },
      { name: "add", argumentsJson: "not json" },
    ]);
    assert.equal(results.length, 4);
    const [a, b, e, bad] = results;
    assert.equal(a.tag, "ok");
    assert.equal(b.tag, "ok");
    assertStreamedProgress(a.val, 3);
    assertStreamedProgress(b.val, 3);
    const lastFirst = [a.val.progress[0].elapsedMs, b.val.progress[0].elapsedMs].reduce((x, y) => (x > y ? x : y));
    const firstResult = a.val.elapsedMs < b.val.elapsedMs ? a.val.elapsedMs : b.val.elapsedMs;
    assert.ok(lastFirst < firstResult, `sequential, not concurrent: ${lastFirst} >= ${firstResult}`);
    assert.equal(e.tag, "ok");
    assert.equal(text(e.val), "hi");
    assert.equal(bad.tag, "err");
    assert.equal(bad.val.code, "CONFIG");
  });

  test("bodies larger than one 4096-byte write and one read go through whole", () => {
    const message = "0123456789abcdef".repeat(10_000); // 160 000 bytes each way
    const r = c.callTool("echo", JSON.stringify({ message }));
    assert.equal(r.isError, false);
    assert.equal(text(r), message);
  });

  test("unknown tool: this server answers isError (the spec says -32602)", () => {
    const r = c.callTool("no_such_tool", "{}");
    assert.equal(r.isError, true);
    assert.match(text(r), /Unknown tool: no_such_tool/);
  });

  test("a tool's own failure is a result with is-error", () => {
    const r = c.callTool("fail", "{}");
    assert.equal(r.isError, true);
    assert.match(text(r), /requested failure/);
  });

  test("unknown method: typed rpc error -32601", () => {
    const err = witError(() => c.request("no/such", "{}"));
    assert.equal(err.code, "RPC");
    assert.equal(err.kind.tag, "rpc");
    assert.equal(err.kind.val.code, -32601n);
  });

  test("elicitation without the capability: typed rpc error -32021", () => {
    const err = witError(() => c.callTool("mrtr_twice", "{}"));
    assert.equal(err.kind.tag, "rpc");
    assert.equal(err.kind.val.code, -32021n);
    assert.ok(JSON.parse(err.kind.val.dataJson).requiredCapabilities.elicitation);
  });

  test("arguments that are not a JSON object: config error, nothing sent", () => {
    const err = witError(() => c.callTool("add", "[1, 2]"));
    assert.equal(err.kind.tag, "config");
    assert.match(err.message, /arguments-json must be a JSON object/);
  });

  test("inactivity timeout from the monotonic clock: typed timeout error", () => {
    const t = Client.connect(PY2026_URL, { requestTimeoutMs: 300n });
    try {
      const err = witError(() => t.callTool("slow_progress", JSON.stringify({ steps: 2, delay_ms: 1500 })));
      assert.equal(err.code, "TIMEOUT");
      assert.deepEqual(err.kind, { tag: "timeout", val: { afterMs: 300n, total: false } });
    } finally {
      t.close();
    }
  });

  test("max-event-bytes and max-body-bytes bound what an answer may carry", () => {
    // The answer comes as one SSE event or as a JSON body, as the server chooses: each limit
    // covers one of the two.
    const t = Client.connect(PY2026_URL, { maxEventBytes: 4096n, maxBodyBytes: 4096n });
    try {
      assert.equal(text(t.callTool("echo", JSON.stringify({ message: "small" }))), "small");
      const err = witError(() => t.callTool("echo", JSON.stringify({ message: "x".repeat(10_000) })));
      assert.ok(["EVENT_TOO_LARGE", "BODY_TOO_LARGE"].includes(err.code), `${err.code}: ${err.message}`);
      assert.match(err.message, /4096/);
    } finally {
      t.close();
    }
  });

  test("the same server in the 2025 era when asked for 2025-11-25", () => {
    const l = Client.connect(PY2026_URL, { protocolVersion: "2025-11-25" });
    try {
      const info = l.serverInfo();
      assert.equal(info.era, "legacy");
      assert.equal(info.protocolVersion, "2025-11-25");
      assert.ok(info.sessionId, "2025 era assigns an Mcp-Session-Id");
      assertStreamedProgress(l.callTool("slow_progress", JSON.stringify({ steps: 2, delay_ms: 150 })), 2);
    } finally {
      l.close();
    }
  });
});

describe("2025 server (server-everything)", () => {
  let c;
  before(() => {
    c = Client.connect(EVERYTHING_URL);
  });
  after(() => c?.close());

  test("connect falls back to the 2025 era", () => {
    const info = c.serverInfo();
    assert.equal(info.era, "legacy");
    assert.equal(info.protocolVersion, "2025-11-25");
    assert.equal(info.name, "mcp-servers/everything");
    assert.ok(info.sessionId);
    assert.deepEqual(info.supportedVersions, []);
  });

  test("list-tools", () => {
    const names = c.listTools().map((t) => t.name);
    for (const n of ["echo", "get-sum", "trigger-long-running-operation"]) {
      assert.ok(names.includes(n), `${n} missing from ${names}`);
    }
  });

  test("call-tool sees SSE progress before the result", () => {
    const r = c.callTool("trigger-long-running-operation", JSON.stringify({ duration: 1, steps: 3 }));
    assertStreamedProgress(r, 3);
    assert.match(text(r), /Long running operation completed/);
  });

  test("unknown tool: this server answers isError", () => {
    const r = c.callTool("no-such-tool", "{}");
    assert.equal(r.isError, true);
    assert.match(text(r), /no-such-tool not found/);
  });

  test("resources: list and read", () => {
    const resources = c.listResources();
    assert.ok(resources.length > 0);
    const first = resources[0];
    const contents = c.readResource(first.uri);
    assert.ok(contents.length > 0);
    assert.equal(contents[0].uri, first.uri);
    assert.ok(contents[0].text !== undefined || contents[0].blobBase64 !== undefined);
  });

  test("prompts: list and get", () => {
    const prompts = c.listPrompts();
    const simple = prompts.find((p) => p.arguments.length === 0);
    assert.ok(simple, `a prompt without arguments in ${prompts.map((p) => p.name)}`);
    const got = c.getPrompt(simple.name, []);
    assert.ok(got.messages.length > 0);
    assert.ok(["user", "assistant"].includes(got.messages[0].role));
    JSON.parse(got.messages[0].contentJson);
  });

  test("close ends the session; later calls fail with closed", () => {
    const d = Client.connect(EVERYTHING_URL);
    d.close();
    const err = witError(() => d.listTools());
    assert.equal(err.code, "CLOSED");
    assert.equal(err.kind.tag, "closed");
  });
});

describe("connection errors", () => {
  test("a refused port: typed network error", async () => {
    const port = await refusedPort();
    const err = witError(() => Client.connect(`http://127.0.0.1:${port}/mcp`));
    assert.equal(err.code, "NETWORK");
    assert.equal(err.kind.tag, "network");
    assert.match(err.message, /connection refused/);
  });

  test("an unsupported URL scheme: typed network error naming it", () => {
    const err = witError(() => Client.connect("ftp://127.0.0.1/mcp"));
    assert.equal(err.kind.tag, "network");
    assert.match(err.message, /only http and https/);
  });

  test("an unsupported protocol version: config error", () => {
    const err = witError(() => Client.connect(PY2026_URL, { protocolVersion: "1999-01-01" }));
    assert.equal(err.kind.tag, "config");
    assert.match(err.message, /unsupported protocol version/);
  });

  test("capabilities that are not JSON: config error", () => {
    const err = witError(() => Client.connect(PY2026_URL, { capabilitiesJson: "{" }));
    assert.equal(err.code, "CONFIG");
    assert.match(err.message, /capabilities-json is not valid JSON/);
  });
});

describe("a server that floods a response stream", () => {
  let flood;
  let url;
  before(async () => {
    const { child, line } = await startServerProcess("./flood-server.mjs");
    flood = child;
    url = `http://127.0.0.1:${Number(line)}/mcp`;
  });
  after(() => flood?.stdin.end());

  test("a call's progress list is bounded and says how many more arrived", () => {
    const c = Client.connect(url);
    try {
      const r = c.callTool("progress_flood", JSON.stringify({ count: 1500 }));
      assert.equal(r.isError, false, r.json);
      assert.equal(r.progress.length, 1024);
      assert.equal(r.progressDropped, 1500n - 1024n);
      assert.equal(r.progress[0].message, "step 1", "the first ones are kept, in order");
    } finally {
      c.close();
    }
  });

  test("cannot hold a call past its deadline", () => {
    // The server writes SSE comments for 10 s as fast as the socket takes them, and never a
    // result: the call still ends with the 1.5 s limit (`request-timeout-ms` and
    // `max-total-timeout-ms`), not when the flood does.
    const c = Client.connect(url, { requestTimeoutMs: 1500n, maxTotalTimeoutMs: 1500n });
    try {
      const started = Date.now();
      const err = witError(() => c.callTool("flood", "{}"));
      const elapsed = Date.now() - started;
      assert.equal(err.code, "TIMEOUT", err.message);
      assert.equal(err.kind.tag, "timeout");
      assert.equal(err.kind.val.afterMs, 1500n);
      assert.ok(elapsed < 5000, `the call ended after ${elapsed} ms`);
    } finally {
      c.close();
    }
  });
});

// Tasks: a call the server turns into a task is polled to its result inside the one export call.
// TASKS2026_URL is the loopback fixture of the 2026 Tasks extension (tests/servers/tasks2026: no
// published server implements it); server-everything runs 2025-11-25 tasks.
const TASKS2026_URL = process.env.TASKS2026_URL;

describe("tasks (2025-11-25 on server-everything, the 2026 extension on the fixture)", () => {
  test("a 2025 tool that requires a task resolves like a plain call, with status reports", () => {
    const c = Client.connect(EVERYTHING_URL);
    try {
      const r = c.callTool("simulate-research-query", JSON.stringify({ topic: "wasi" }));
      assert.equal(r.isError, false, r.json);
      assert.match(text(r), /Research Report: wasi/);
      const reports = r.progress.filter((p) => typeof p.taskJson === "string");
      assert.ok(reports.length >= 2, r.progress.map((p) => `${p.progress} ${p.message} ${p.taskJson}`).join("; "));
      const task = JSON.parse(reports[0].taskJson);
      assert.equal(task.shape, "2025-11-25");
      assert.ok(task.taskId);
    } finally {
      c.close();
    }
  });

  test("a 2026 task resolves; one given up on is resumed by id without running again", async () => {
    const c = Client.connect(TASKS2026_URL, { maxTaskWaitMs: 300n });
    try {
      const ext = JSON.parse(c.extensionsJson());
      assert.deepEqual(ext.client["io.modelcontextprotocol/tasks"], {});
      assert.deepEqual(ext.server["io.modelcontextprotocol/tasks"], {});
      const r = c.callTool("slow_compute", JSON.stringify({ ms: 200, steps: 2, pollMs: 50 }));
      assert.equal(text(r), "computed 2 steps");
      assert.equal(JSON.parse(r.progress.find((p) => p.taskJson).taskJson).shape, "extension");
      const err = witError(() =>
        c.callTool("slow_compute", JSON.stringify({ ms: 1500, steps: 3, pollMs: 100 })),
      );
      assert.equal(err.code, "TASK_TIMEOUT");
      assert.equal(err.kind.tag, "task-timeout");
      const id = err.kind.val.taskId;
      // Another client (another process, after a restart) resumes it by id.
      const again = Client.connect(TASKS2026_URL);
      try {
        const resumed = again.resumeTask(JSON.stringify({ taskId: id, shape: "extension", status: "working" }));
        assert.equal(text(resumed), "computed 3 steps");
      } finally {
        again.close();
      }
      const origin = new URL(TASKS2026_URL).origin;
      const row = (await (await fetch(`${origin}/admin/tasks`)).json()).tasks.find((t) => t.taskId === id);
      assert.equal(row.executions, 1);
    } finally {
      c.close();
    }
  });

  test("a failed task, a bad traceparent and the extension turned off are typed errors", () => {
    const c = Client.connect(TASKS2026_URL);
    try {
      const failed = witError(() => c.callTool("failing_job", JSON.stringify({ pollMs: 50 })));
      assert.equal(failed.code, "TASK_FAILED");
      assert.equal(failed.kind.val.rpc.code, -32603n);
      const meta = witError(() => c.callTool("greet", JSON.stringify({ name: "x" }), { traceparent: "00-zz" }));
      assert.equal(meta.code, "INVALID_META");
      const ok = c.callTool("greet", JSON.stringify({ name: "y" }), {
        traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        logLevel: "error",
      });
      assert.equal(text(ok), "Hello, y!");
    } finally {
      c.close();
    }
    const off = Client.connect(TASKS2026_URL, { tasks: false });
    try {
      const err = witError(() => off.callTool("slow_compute", JSON.stringify({ ms: 50 })));
      assert.equal(err.code, "RPC");
      assert.equal(err.kind.val.code, -32021n);
    } finally {
      off.close();
    }
  });
});
