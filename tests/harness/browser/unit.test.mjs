// Unit tests of the browser leg's pure parts, run by `node --test` (and by
// tests/harness/tests/parity_browser.rs): the event-stream decoder at every split, the line-paced
// fetch, the transcript recorder's reading of traffic, and the scenario checks.
import test from "node:test";
import assert from "node:assert/strict";
import { SseDecoder, SseLimitError } from "./sse.mjs";
import { linePacedFetch } from "./line-paced-fetch.mjs";
import { Recorder } from "./recorder.mjs";
import { check, checkProgress, checkStep, errorJson } from "./scenario.mjs";

const decodeAll = (chunks) => {
  const d = new SseDecoder();
  const out = [];
  for (const c of chunks) out.push(...d.feed(c));
  d.finish();
  return out;
};

const VECTORS = [
  ["LF", "data: a\n\n", [{ type: "message", data: "a", lastEventId: "" }]],
  ["CRLF", "data: a\r\n\r\n", [{ type: "message", data: "a", lastEventId: "" }]],
  ["CR", "data: a\r\r", [{ type: "message", data: "a", lastEventId: "" }]],
  ["mixed line ends", "data: a\r\ndata: b\rdata: c\n\r\n", [{ type: "message", data: "a\nb\nc", lastEventId: "" }]],
  ["BOM", "\ufeffdata: x\n\n", [{ type: "message", data: "x", lastEventId: "" }]],
  ["only the first BOM", "\ufeffdata: x\n\n\ufeffdata: y\n\n", [{ type: "message", data: "x", lastEventId: "" }]],
  ["comments and unknown fields", ": hi\nfoo: bar\ndata: 1\n\n", [{ type: "message", data: "1", lastEventId: "" }]],
  ["event type, id, retry", "event: e\nid: 7\nretry: 10\ndata: {}\n\n", [{ type: "e", data: "{}", lastEventId: "7" }]],
  ["id with NUL is ignored", "id: 1\ndata: a\n\nid: 2\u00003\ndata: b\n\n", [
    { type: "message", data: "a", lastEventId: "1" }, { type: "message", data: "b", lastEventId: "1" }]],
  ["no space after colon", "data:x\n\n", [{ type: "message", data: "x", lastEventId: "" }]],
  ["only one space removed", "data:  x\n\n", [{ type: "message", data: " x", lastEventId: "" }]],
  ["field without colon", "data\n\n", [{ type: "message", data: "", lastEventId: "" }]],
  ["priming event: id and empty data", "id: p\ndata:\n\n", [{ type: "message", data: "", lastEventId: "p" }]],
  ["no data: nothing dispatched", "event: x\nid: 3\n\n", []],
  ["unterminated event discarded", "data: a\n\ndata: b\n", [{ type: "message", data: "a", lastEventId: "" }]],
  ["non-ASCII", "data: zürich ✓\n\n", [{ type: "message", data: "zürich ✓", lastEventId: "" }]],
];

test("event-stream vectors decode the same at every split and char by char", () => {
  for (const [name, text, want] of VECTORS) {
    assert.deepEqual(decodeAll([text]), want, name);
    for (let i = 0; i <= text.length; i++) {
      assert.deepEqual(decodeAll([text.slice(0, i), text.slice(i)]), want, `${name} split at ${i}`);
    }
    assert.deepEqual(decodeAll([...text]), want, `${name} char by char`);
  }
});

test("event-stream limits are typed errors", () => {
  const d = new SseDecoder({ maxLineChars: 8, maxEventChars: 64 });
  assert.throws(() => d.feed("data: 0123456789"), SseLimitError);
  const e = new SseDecoder({ maxLineChars: 64, maxEventChars: 8 });
  assert.throws(() => e.feed("data: 1234\ndata: 5678\n"), SseLimitError);
});

/** A fetch whose body yields `chunks` (strings or byte arrays). */
function fakeFetch(chunks, { status = 200, fail = null } = {}) {
  return async () => {
    let i = 0;
    const body = new ReadableStream({
      pull(c) {
        if (i < chunks.length) {
          const x = chunks[i++];
          c.enqueue(typeof x === "string" ? new TextEncoder().encode(x) : x);
        } else if (fail) c.error(fail);
        else c.close();
      },
    });
    return new Response(body, { status, headers: { "content-type": "text/event-stream" } });
  };
}

async function readAll(res, onPiece = () => {}) {
  const reader = res.body.getReader();
  const pieces = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return pieces;
    pieces.push(new TextDecoder().decode(value));
    onPiece(pieces.length);
  }
}

test("the paced fetch delivers one line per piece and keeps status, headers and bytes", async () => {
  const f = linePacedFetch(fakeFetch(["a\nb", "c\n\nd"], { status: 201 }));
  const res = await f("http://127.0.0.1/", {});
  assert.equal(res.status, 201);
  assert.equal(res.headers.get("content-type"), "text/event-stream");
  assert.deepEqual(await readAll(res), ["a\n", "bc\n", "\n", "d"]);
});

test("the paced fetch lets every microtask settle between two pieces", async () => {
  const f = linePacedFetch(fakeFetch(["1\n2\n3\n"]));
  const log = [];
  await readAll(await f("http://127.0.0.1/", {}), (n) => {
    log.push(`piece ${n}`);
    // A long promise chain started by this piece must end before the next piece arrives.
    let p = Promise.resolve();
    for (let k = 0; k < 200; k++) p = p.then(() => undefined);
    p.then(() => log.push(`settled ${n}`));
  });
  assert.deepEqual(log, ["piece 1", "settled 1", "piece 2", "settled 2", "piece 3", "settled 3"]);
});

test("the paced fetch never splits a UTF-8 character when it passes a long partial line on", async () => {
  const text = "ü✓".repeat(50); // no line end at all
  const f = linePacedFetch(fakeFetch([new TextEncoder().encode(text)]), { maxHoldBytes: 7 });
  const pieces = await readAll(await f("http://127.0.0.1/", {}));
  assert.ok(pieces.length > 10);
  assert.ok(pieces.every((p) => !p.includes("\ufffd")), JSON.stringify(pieces.slice(0, 3)));
  assert.equal(pieces.join(""), text);
});

test("the paced fetch passes an upstream error on", async () => {
  const f = linePacedFetch(fakeFetch(["x\n"], { fail: new DOMException("stop", "AbortError") }));
  const reader = (await f("http://127.0.0.1/", {})).body.getReader();
  assert.equal(new TextDecoder().decode((await reader.read()).value), "x\n");
  await assert.rejects(reader.read(), { name: "AbortError" });
});

const strip = (entries) => entries.map(({ t_ms, ...rest }) => rest);

test("the recorder reads requests, SSE events split across chunks, JSON bodies and aborts", () => {
  const r = new Recorder();
  r.currentStep = 1;
  r.traffic({ type: "request", exchange: 1, method: "POST", url: "u", headers: [], body: '{"jsonrpc":"2.0","id":1,"method":"m"}' });
  r.traffic({ type: "head", exchange: 1, status: 200, headers: [["content-type", "text/event-stream; charset=utf-8"]] });
  r.traffic({ type: "body", exchange: 1, text: "id: 0\ndata:\n\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"n\"" });
  r.traffic({ type: "body", exchange: 1, text: "}\n\ndata: not json\n\n" });
  r.traffic({ type: "end", exchange: 1, error: null });
  r.currentStep = null;
  r.traffic({ type: "request", exchange: 2, method: "POST", url: "u", headers: [], body: '{"jsonrpc":"2.0","method":"x"}' });
  r.traffic({ type: "head", exchange: 2, status: 400, headers: [["content-type", "application/json"]] });
  r.traffic({ type: "body", exchange: 2, text: '{"jsonrpc":"2.0","id":null,' });
  r.traffic({ type: "body", exchange: 2, text: '"error":{"code":-1,"message":"no"}}' });
  r.traffic({ type: "end", exchange: 2, error: null });
  assert.equal(r.lastInStep(), null, "exchange 2 began outside a step");
  r.traffic({ type: "request", exchange: 3, method: "POST", url: "u", headers: [], body: "{}" });
  r.traffic({ type: "head", exchange: 3, status: 200, headers: [["content-type", "application/json"]] });
  r.traffic({ type: "body", exchange: 3, text: '{"jsonrpc":"2.0","id":3,"result":{}}' });
  r.traffic({ type: "end", exchange: 3, error: "aborted" });
  r.traffic({ type: "request", exchange: 4, method: "POST", url: "u", headers: [], body: "{}" });
  r.traffic({ type: "head", exchange: 4, status: 202, headers: [["content-type", "application/json"]] });
  r.traffic({ type: "end", exchange: 4, error: null });
  const messages = strip(r.entries).filter((e) => e.dir);
  assert.deepEqual(messages, [
    { dir: "out", msg: { jsonrpc: "2.0", id: 1, method: "m" }, exchange: 1 },
    { dir: "in", msg: { jsonrpc: "2.0", method: "n" }, exchange: 1 },
    { dir: "out", msg: { jsonrpc: "2.0", method: "x" }, exchange: 2 },
    { dir: "in", msg: { jsonrpc: "2.0", id: null, error: { code: -1, message: "no" } }, exchange: 2 },
    { dir: "out", msg: {}, exchange: 3 },
    { dir: "out", msg: {}, exchange: 4 },
  ]);
  assert.ok(r.entries.some((e) => e.transport?.sse_data_not_json === "not json"));
  assert.ok(r.entries.some((e) => e.transport?.http?.body === ""), "the empty 202 body is a transport fact");
  const doc = r.toJSON("s");
  assert.equal(doc.format, "mcp-edge-transcript/1");
  assert.equal(doc.transport, "browser");
});

test("the recorder ties a received message to the step that opened its exchange", () => {
  const r = new Recorder();
  r.currentStep = 3;
  r.traffic({ type: "request", exchange: 5, method: "POST", url: "u", headers: [], body: "{}" });
  r.currentStep = null;
  r.traffic({ type: "request", exchange: 6, method: "GET", url: "u", headers: [], body: null });
  for (const ex of [5, 6]) r.traffic({ type: "head", exchange: ex, status: 200, headers: [["content-type", "text/event-stream"]] });
  r.traffic({ type: "body", exchange: 5, text: 'data: {"jsonrpc":"2.0","id":1,"method":"elicitation/create"}\n\n' });
  assert.equal(r.lastInStep(), 3);
  r.traffic({ type: "body", exchange: 6, text: 'data: {"jsonrpc":"2.0","id":2,"method":"elicitation/create"}\n\n' });
  assert.equal(r.lastInStep(), null);
});

test("scenario steps are validated as strictly as the Rust parser", () => {
  const ok = [
    { op: "connect" }, { op: "list_tools", expect: { names_include: ["add"] } },
    { op: "call", name: "echo", arguments: { message: "hi" }, progress: true, cancel_after_ms: 5, timeout_ms: 100, answers: [{}], expect: { error: "ABORTED" } },
    { op: "expect_progress", min: 2 }, { op: "read_resource", uri: "x:/y" },
    { op: "get_prompt", name: "p", arguments: { a: "1" } }, { op: "request", method: "ping" },
  ];
  ok.forEach((s, i) => checkStep(s, i));
  for (const bad of [
    { op: "cal" }, { op: "call", name: "a", argument: {} }, { op: "connect", expect: { txt: "a" } },
    { op: "call" }, { op: "call", name: "a", progress: "yes" }, { op: "call", name: "a", timeout_ms: -1 },
  ]) {
    assert.throws(() => checkStep(bad, 0), undefined, JSON.stringify(bad));
  }
});

test("expectations can fail", () => {
  const f = [];
  check({ text: "hi" }, { ok: true, result: { content: [{ type: "text", text: "ho" }] } }, f, 1);
  check({}, { ok: false, error: { code: "ABORTED", message: "request cancelled" } }, f, 2);
  check({ names_include: ["add"], count: 2 }, { ok: true, result: { tools: [{ name: "echo" }] } }, f, 3);
  check({ error: "RPC", rpc_code: -32602 }, { ok: false, error: { code: "RPC", message: "m", rpc: { code: -32601, message: "m" } } }, f, 4);
  check({ is_error: true, text_contains: "x" }, { ok: true, result: { content: [] } }, f, 5);
  assert.equal(f.length, 7, JSON.stringify(f));
  const g = [];
  check({ text_contains: "lo w", is_error: false, names_exclude: ["z"] }, { ok: true, result: { content: [{ type: "text", text: "hello world" }] } }, g, 1);
  assert.deepEqual(g, []);
  const p = [];
  checkProgress({ progress: [{ progress: 1 }, { progress: 1 }] }, 3, p, 2);
  checkProgress(null, 1, p, 3);
  assert.equal(p.length, 3, JSON.stringify(p));
});

test("errors take the core's transcript form", () => {
  const rpc = Object.assign(new Error("server error -32602: MCP error -32602: bad"), { name: "McpError", code: "RPC", rpcCode: -32602 });
  assert.deepEqual(errorJson(rpc), {
    code: "RPC", message: "server error -32602: MCP error -32602: bad", rpc: { code: -32602, message: "MCP error -32602: bad" },
  });
  const aborted = Object.assign(new Error("request cancelled"), { name: "McpError", code: "ABORTED" });
  assert.deepEqual(errorJson(aborted), { code: "ABORTED", message: "request cancelled" });
  assert.equal(errorJson(new TypeError("x")).code, "NOT_AN_MCP_ERROR");
});
