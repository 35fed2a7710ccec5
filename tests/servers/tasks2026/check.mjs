// Drives tests/servers/tasks2026/server.mjs over raw HTTP the way ext-tasks
// `specification/draft/tasks.md` (commit e434597) "Example Message Flow" does, and checks every
// answer against that text and, where the mirror is present, against the extension's
// `schema/draft/schema.json` at the same commit. Node built-ins + global fetch only.
//
//   node tests/servers/tasks2026/check.mjs [-v]
//
// Prints "N passed, M failed" last; exits 1 on any failure. EXT_TASKS_REPO names the ext-tasks git
// directory (default: the local mirror); without it the schema checks are skipped (said so).
import { spawn, execFileSync } from "node:child_process";
import http from "node:http";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const VERBOSE = process.argv.includes("-v");
const V = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";
const PV = "io.modelcontextprotocol/protocolVersion";
const CC = "io.modelcontextprotocol/clientCapabilities";
const CI = "io.modelcontextprotocol/clientInfo";
const SPEC_COMMIT = "e434597";
const CLIENT_INFO = { name: "tasks2026-check", version: "1.0.0" };
const TASKS = { extensions: { [EXT]: {} } };
const TASKS_ELICIT = { elicitation: {}, extensions: { [EXT]: {} } };
const NONE = {};

// ---- results ----------------------------------------------------------------------------------

let passed = 0;
let failed = 0;
let section = "";
let quiet = 0; // > 0: passes are not counted (checks repeated once per poll), failures are
function ok(cond, label, detail) {
  if (cond) {
    if (quiet > 0) return cond;
    passed += 1;
    if (VERBOSE) console.log(`  ok   ${section}: ${label}`);
  } else {
    failed += 1;
    console.log(`  FAIL ${section}: ${label}${detail === undefined ? "" : ` -- ${typeof detail === "string" ? detail : JSON.stringify(detail)}`}`);
  }
  return cond;
}
const eq = (a, b, label) => ok(deepEqual(a, b), label, { got: a, want: b });
// Envelope problems count only when they happen (a failure, never a pass).
function mustHold(cond, label, detail) {
  if (!cond) ok(false, label, detail);
}

function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
}

async function test(name, fn) {
  section = name;
  try {
    await fn();
  } catch (e) {
    ok(false, "threw", e?.stack ?? String(e));
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

// ---- ext-tasks schema.json and a small JSON Schema (2020-12 subset) validator -------------------

let schema = null;
let schemaNote = "";
try {
  const repo = process.env.EXT_TASKS_REPO ?? "/work/.mirror/modelcontextprotocol+ext-tasks/repo";
  schema = JSON.parse(execFileSync("git", ["-C", repo, "show", `${SPEC_COMMIT}:schema/draft/schema.json`], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }));
  schemaNote = `schema checks: ext-tasks ${SPEC_COMMIT} schema/draft/schema.json`;
} catch {
  schemaNote = `schema checks SKIPPED: ext-tasks ${SPEC_COMMIT} schema/draft/schema.json not found (set EXT_TASKS_REPO)`;
}

// Keywords used by that file: $ref allOf anyOf not type const enum properties required
// additionalProperties propertyNames items minimum maximum (format/description/title ignored).
function schemaErrors(s, v, path = "$") {
  if (s === true || s === undefined) return [];
  if (s === false) return [`${path}: not allowed`];
  const errs = [];
  if (s.$ref) {
    const name = s.$ref.replace(/^#\/\$defs\//, "");
    errs.push(...schemaErrors(schema.$defs[name], v, path));
  }
  for (const sub of s.allOf ?? []) errs.push(...schemaErrors(sub, v, path));
  if (s.anyOf && !s.anyOf.some((sub) => schemaErrors(sub, v, path).length === 0)) {
    errs.push(`${path}: matches no anyOf branch`);
  }
  if (s.not && schemaErrors(s.not, v, path).length === 0) errs.push(`${path}: matches a "not" schema`);
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    const is = (t) =>
      t === "null" ? v === null
      : t === "object" ? isObject(v)
      : t === "array" ? Array.isArray(v)
      : t === "integer" ? Number.isInteger(v)
      : t === "number" ? typeof v === "number" && Number.isFinite(v)
      : typeof v === t;
    if (!types.some(is)) return [...errs, `${path}: not of type ${types.join("|")}`];
  }
  if ("const" in s && !deepEqual(s.const, v)) errs.push(`${path}: must be ${JSON.stringify(s.const)}`);
  if (s.enum && !s.enum.some((e) => deepEqual(e, v))) errs.push(`${path}: not one of ${JSON.stringify(s.enum)}`);
  if (typeof v === "number") {
    if (s.minimum !== undefined && v < s.minimum) errs.push(`${path}: below ${s.minimum}`);
    if (s.maximum !== undefined && v > s.maximum) errs.push(`${path}: above ${s.maximum}`);
  }
  if (isObject(v)) {
    for (const r of s.required ?? []) if (!Object.hasOwn(v, r)) errs.push(`${path}: missing required "${r}"`);
    for (const [k, val] of Object.entries(v)) {
      if (s.properties && Object.hasOwn(s.properties, k)) errs.push(...schemaErrors(s.properties[k], val, `${path}.${k}`));
      else if (s.additionalProperties !== undefined) errs.push(...schemaErrors(s.additionalProperties, val, `${path}.${k}`));
      if (s.propertyNames) errs.push(...schemaErrors(s.propertyNames, k, `${path}{key ${k}}`));
    }
  }
  if (Array.isArray(v) && s.items) v.forEach((item, i) => errs.push(...schemaErrors(s.items, item, `${path}[${i}]`)));
  return errs;
}

let schemaChecks = 0;
function validates(def, value, label) {
  if (!schema) return;
  schemaChecks += 1;
  const errs = schemaErrors({ $ref: `#/$defs/${def}` }, value);
  ok(errs.length === 0, `${label ?? def} is a valid ${def}`, errs.slice(0, 5).join("; "));
}

// ---- the server -------------------------------------------------------------------------------

const serverPath = fileURLToPath(new URL("server.mjs", import.meta.url));
const child = spawn(process.execPath, [serverPath], { stdio: ["pipe", "pipe", "inherit"] });
const port = await new Promise((resolve, reject) => {
  const lines = createInterface({ input: child.stdout });
  lines.once("line", (l) => resolve(JSON.parse(l).port));
  child.once("exit", (c) => reject(new Error(`server exited (${c}) before printing its port`)));
});
const base = `http://127.0.0.1:${port}`;

// ---- HTTP helpers -----------------------------------------------------------------------------

let nextId = 1;
const nameKey = (method) =>
  method === "tools/call" || method === "prompts/get" ? "name"
  : method === "resources/read" ? "uri"
  : ["tasks/get", "tasks/update", "tasks/cancel"].includes(method) ? "taskId"
  : null;

// A 2026-07-28 request as a conforming client sends it: _meta (version, clientInfo, per-request
// capabilities) and the standard headers. opts: caps, path, headers (overrides; null deletes),
// noMeta, version, id.
function build(method, params = {}, opts = {}) {
  const id = opts.id ?? nextId++;
  const version = opts.version ?? V;
  const p = { ...params };
  if (!opts.noMeta) p._meta = { [PV]: version, [CI]: CLIENT_INFO, [CC]: opts.caps ?? NONE, ...(params._meta ?? {}) };
  const msg = { jsonrpc: "2.0", id, method, params: p };
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": version,
    "mcp-method": method,
  };
  const key = nameKey(method);
  if (key && typeof params[key] === "string") headers["mcp-name"] = params[key];
  for (const [k, v] of Object.entries(opts.headers ?? {})) {
    if (v === null) delete headers[k.toLowerCase()];
    else headers[k.toLowerCase()] = v;
  }
  return { msg, headers };
}

async function rpc(method, params = {}, opts = {}) {
  const { msg, headers } = build(method, params, opts);
  const r = await fetch(base + (opts.path ?? "/mcp"), { method: "POST", headers, body: JSON.stringify(msg) });
  const textBody = await r.text();
  let body;
  try {
    body = textBody ? JSON.parse(textBody) : undefined;
  } catch {
    body = undefined;
  }
  if (body) {
    mustHold(body.jsonrpc === "2.0", `${method}: jsonrpc "2.0"`, body);
    mustHold(body.id === msg.id, `${method}: response id equals request id`, { sent: msg.id, got: body.id });
    if (body.result) mustHold(typeof body.result.resultType === "string", `${method}: result has resultType`, body.result);
    if (body.error) {
      mustHold(Number.isInteger(body.error.code) && typeof body.error.message === "string", `${method}: error has code + message`, body.error);
      if (schema) mustHold(schemaErrors({ $ref: "#/$defs/Error" }, body.error).length === 0, `${method}: error is a valid Error`, body.error);
    }
  }
  return { status: r.status, headers: r.headers, body, text: textBody, msg };
}

// A result, or a failure if the call errored.
async function call(method, params, opts) {
  const r = await rpc(method, params, opts);
  if (!r.body?.result) throw new Error(`${method} failed: HTTP ${r.status} ${r.text.slice(0, 300)}`);
  return r.body.result;
}

// An error response: its HTTP status, code and message.
async function expectError(method, params, opts, { status, code, message }, label) {
  const r = await rpc(method, params, opts);
  ok(r.status === status, `${label}: HTTP ${status}`, { got: r.status, body: r.text.slice(0, 200) });
  ok(r.body?.error?.code === code, `${label}: error ${code}`, r.body);
  if (message) ok(message.test(r.body?.error?.message ?? ""), `${label}: message ${message}`, r.body?.error?.message);
  ok(r.body?.result === undefined, `${label}: no result`);
  return r.body?.error;
}

async function getJson(path) {
  const r = await fetch(base + path);
  return r.json();
}
async function postJson(path, body) {
  const r = await fetch(base + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const TASK_FIELDS = ["taskId", "status", "statusMessage", "createdAt", "lastUpdatedAt", "ttlMs", "pollIntervalMs"];
const seenTaskIds = new Set();

// Shape of a CreateTaskResult (ext-tasks "Task Creation").
function checkCreated(r, label) {
  ok(r.resultType === "task", `${label}: resultType "task"`, r.resultType);
  ok(/^[0-9a-f]{32}$/.test(r.taskId ?? ""), `${label}: taskId has 128 random bits (32 hex)`, r.taskId);
  ok(!seenTaskIds.has(r.taskId), `${label}: taskId is new`);
  seenTaskIds.add(r.taskId);
  ok(ISO.test(r.createdAt) && ISO.test(r.lastUpdatedAt), `${label}: createdAt/lastUpdatedAt ISO 8601`, [r.createdAt, r.lastUpdatedAt]);
  ok(r.ttlMs === null || Number.isInteger(r.ttlMs), `${label}: ttlMs integer or null`, r.ttlMs);
  ok(Number.isInteger(r.pollIntervalMs) && r.pollIntervalMs > 0, `${label}: pollIntervalMs integer`, r.pollIntervalMs);
  ok(!("task" in r) && !("result" in r) && !("error" in r) && !("inputRequests" in r) && !("content" in r), `${label}: flat, no nested task / result / error / inputRequests / content`, Object.keys(r));
  validates("CreateTaskResult", r, label);
}

// Shape of a tasks/get result for its status (ext-tasks "Task Polling" / "Task Status").
function checkDetailed(r, taskId, label) {
  ok(r.resultType === "complete", `${label}: resultType "complete"`, r.resultType);
  ok(r.taskId === taskId, `${label}: same taskId`);
  const allowed = new Set([...TASK_FIELDS, "resultType", "_meta", "inputRequests", "result", "error"]);
  ok(Object.keys(r).every((k) => allowed.has(k)), `${label}: only Task members`, Object.keys(r));
  ok(("inputRequests" in r) === (r.status === "input_required"), `${label}: inputRequests iff input_required`, r.status);
  ok(("result" in r) === (r.status === "completed"), `${label}: result iff completed`, r.status);
  ok(("error" in r) === (r.status === "failed"), `${label}: error iff failed`, r.status);
  ok(Date.parse(r.lastUpdatedAt) >= Date.parse(r.createdAt), `${label}: lastUpdatedAt >= createdAt`);
  validates("GetTaskResult", r, label);
}

function checkAck(r, label) {
  ok(r.resultType === "complete", `${label}: ack resultType "complete"`, r);
  ok(Object.keys(r).every((k) => k === "resultType" || k === "_meta"), `${label}: ack is empty (resultType, _meta only)`, Object.keys(r));
}

async function createTask(name, args = {}, opts = {}) {
  const r = await call("tools/call", { name, arguments: args }, { caps: TASKS_ELICIT, ...opts });
  checkCreated(r, `${name} CreateTaskResult`);
  return r;
}

async function getTask(taskId, opts = {}) {
  const { msg } = build("tasks/get", { taskId }, { caps: TASKS, ...opts });
  validates("GetTaskRequest", msg, "tasks/get request");
  return call("tasks/get", { taskId }, { caps: TASKS, ...opts });
}

// Polls tasks/get (at the task's pollIntervalMs) until `until(task)`; returns every snapshot.
async function pollUntil(taskId, until, { timeoutMs = 5000, label = "poll", opts = {} } = {}) {
  const seen = [];
  const start = Date.now();
  const failedBefore = failed;
  for (;;) {
    quiet += 1;
    let t;
    try {
      t = await getTask(taskId, opts);
      checkDetailed(t, taskId, `${label} tasks/get (${t.status})`);
    } finally {
      quiet -= 1;
    }
    seen.push(t);
    if (until(t)) {
      ok(failed === failedBefore, `${label}: every tasks/get answer well-formed (${seen.length} polls)`);
      return seen;
    }
    if (Date.now() - start > timeoutMs) throw new Error(`${label}: condition not reached in ${timeoutMs} ms; last ${JSON.stringify(t)}`);
    await sleep(t.pollIntervalMs ?? 100);
  }
}
const terminal = (t) => ["completed", "failed", "cancelled"].includes(t.status);

// A POST whose response may be cut: resolves with what arrived and whether the body ended.
function rawPost(path, msg, headers) {
  return new Promise((resolve) => {
    const body = JSON.stringify(msg);
    const req = http.request({ host: "127.0.0.1", port, path, method: "POST", headers: { ...headers, "content-length": Buffer.byteLength(body) } });
    let data = "";
    let done = false;
    const finish = (out) => {
      if (!done) {
        done = true;
        resolve(out);
      }
    };
    req.on("response", (res) => {
      res.setEncoding("utf8");
      res.on("data", (c) => (data += c));
      res.on("end", () => finish({ status: res.statusCode, headers: res.headers, data, ended: true }));
      res.on("error", (e) => finish({ status: res.statusCode, headers: res.headers, data, ended: false, error: e.code ?? e.message }));
      res.on("close", () => finish({ status: res.statusCode, headers: res.headers, data, ended: res.complete }));
    });
    req.on("error", (e) => finish({ status: undefined, data, ended: false, error: e.code ?? e.message }));
    req.end(body);
  });
}

const adminTasks = () => getJson("/admin/tasks");
const adminTask = async (id) => (await adminTasks()).tasks.find((t) => t.taskId === id);
const reset = () => postJson("/admin/reset", {});

// ---- tests ------------------------------------------------------------------------------------

console.log(`tasks2026 fixture on ${base}; ${schemaNote}`);

if (schema) {
  await test("validator self-test", async () => {
    const good = { resultType: "task", taskId: "t", status: "working", createdAt: "2025-11-25T10:30:00Z", lastUpdatedAt: "2025-11-25T10:30:00Z", ttlMs: 1000, pollIntervalMs: 5 };
    const bad = (def, v) => schemaErrors({ $ref: `#/$defs/${def}` }, v).length > 0;
    ok(!bad("CreateTaskResult", good), "accepts the spec's CreateTaskResult example shape");
    ok(bad("CreateTaskResult", { ...good, resultType: "complete" }), "rejects resultType complete");
    ok(bad("CreateTaskResult", { ...good, ttlMs: undefined }), "rejects a missing ttlMs");
    ok(bad("CreateTaskResult", { ...good, ttlMs: 1.5 }), "rejects a fractional ttlMs");
    ok(bad("CreateTaskResult", { ...good, status: "done" }), "rejects an unknown status");
    ok(bad("GetTaskResult", { ...good, resultType: "complete", status: "completed" }), "rejects completed without result");
    ok(bad("GetTaskResult", { ...good, resultType: "complete", status: "failed", error: { code: "x", message: "m" } }), "rejects a non-integer error code");
    ok(!bad("GetTaskResult", { ...good, resultType: "complete", status: "failed", error: { code: -32603, message: "m" } }), "accepts failed with error");
    ok(bad("GetTaskResult", { ...good, resultType: "task" }), "rejects tasks/get with resultType task");
    ok(bad("UpdateTaskResult", {}), "rejects an ack without resultType");
  });
}

await test("discover", async () => {
  const { msg } = build("server/discover", {}, { caps: TASKS });
  const r = await call("server/discover", {}, { caps: TASKS });
  eq(r.resultType, "complete", "resultType complete");
  ok(r.supportedVersions?.includes(V), "supportedVersions has 2026-07-28", r.supportedVersions);
  eq(r.capabilities?.tools, {}, "capabilities.tools");
  eq(r.capabilities?.extensions, { [EXT]: {} }, `capabilities.extensions["${EXT}"] is {}`);
  ok(!("tasks" in (r.capabilities ?? {})), "no 2025-style capabilities.tasks");
  ok(typeof r._meta?.["io.modelcontextprotocol/serverInfo"]?.name === "string", "_meta serverInfo");
  ok(msg.params._meta[PV] === V, "request carried _meta protocolVersion");
});

await test("versions and envelope", async () => {
  // A legacy client: initialize without _meta and without MCP headers.
  const r = await rawPost("/mcp", { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: CLIENT_INFO } }, { "content-type": "application/json" });
  ok(r.status === 400, "initialize: HTTP 400", r.status);
  const e = JSON.parse(r.data).error;
  ok(e?.code === -32022 && e.data?.supported?.includes(V), "initialize: -32022 naming the supported version", e);
  await expectError("tools/call", { name: "greet", arguments: {} }, { noMeta: true }, { status: 400, code: -32022 }, "tools/call without _meta");
  const u = await expectError("server/discover", {}, { version: "1900-01-01" }, { status: 400, code: -32022 }, "unsupported version");
  ok(u?.data?.requested === "1900-01-01" && u.data.supported?.includes(V), "unsupported version: data {supported, requested}", u?.data);
  await expectError("server/discover", {}, { headers: { "mcp-protocol-version": "2025-11-25" } }, { status: 400, code: -32020 }, "MCP-Protocol-Version header != _meta");
  await expectError("tools/list", {}, { headers: { "mcp-method": "tools/call" } }, { status: 400, code: -32020 }, "Mcp-Method header != method");
  await expectError("tools/call", { name: "greet", arguments: {} }, { headers: { "mcp-name": "other" } }, { status: 400, code: -32020 }, "Mcp-Name header != params.name");
  await expectError("tools/call", { name: "greet", arguments: {} }, { headers: { "mcp-name": null } }, { status: 400, code: -32020 }, "Mcp-Name header missing on tools/call");
  // _meta without clientCapabilities
  const { msg, headers } = build("tools/list", {});
  delete msg.params._meta[CC];
  const m = await fetch(`${base}/mcp`, { method: "POST", headers, body: JSON.stringify(msg) });
  const mb = await m.json();
  ok(m.status === 400 && mb.error?.code === -32602, "missing clientCapabilities: 400 -32602", mb);
  await expectError("nope/nothing", {}, {}, { status: 404, code: -32601 }, "unknown method");
  await expectError("tasks/result", { taskId: "x" }, { caps: TASKS }, { status: 404, code: -32601 }, "tasks/result (2025 method) is not defined");
  await expectError("tasks/list", {}, { caps: TASKS }, { status: 404, code: -32601 }, "tasks/list (2025 method) is not defined");
  const n = await fetch(`${base}/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: {} }) });
  ok(n.status === 202 && (await n.text()) === "", "notification: 202, no body", n.status);
  const p = await fetch(`${base}/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" });
  ok(p.status === 400 && (await p.json()).error?.code === -32700, "parse error: 400 -32700");
  const b = await fetch(`${base}/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: "[]" });
  ok(b.status === 400 && (await b.json()).error?.code === -32600, "batch: 400 -32600");
  const g = await fetch(`${base}/mcp`);
  ok(g.status === 405, "GET /mcp: 405", g.status);
  const big = await fetch(`${base}/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: "x".repeat((1 << 20) + 1) });
  ok(big.status === 413, "body over 1 MiB: 413", big.status);
  const fit = await fetch(`${base}/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: " ".repeat((1 << 20) - 2) + "{}" });
  ok(fit.status === 400, "body of exactly 1 MiB is read (400 invalid request, not 413)", fit.status);
});

await test("tools/list", async () => {
  const r = await call("tools/list", {}, { caps: TASKS });
  const names = r.tools.map((t) => t.name);
  for (const n of ["greet", "slow_compute", "failing_job", "tool_error_job", "confirm_delete", "multi_input", "maybe_task", "forever", "protocol_error_job", "test_tool_with_task"]) {
    ok(names.includes(n), `lists ${n}`);
  }
  ok(r.tools.every((t) => t.inputSchema?.type === "object"), "every inputSchema is an object schema");
  ok(Number.isInteger(r.ttlMs), "tools/list carries ttlMs");
});

await test("greet (never a task)", async () => {
  for (const caps of [NONE, TASKS]) {
    const r = await call("tools/call", { name: "greet", arguments: { name: "Luca" } }, { caps });
    eq(r.resultType, "complete", `caps ${JSON.stringify(caps)}: resultType complete`);
    eq(r.content, [{ type: "text", text: "Hello, Luca!" }], "text Hello, Luca!");
    ok(!("taskId" in r), "no taskId");
  }
});

await test("capability gating (-32021)", async () => {
  for (const tool of ["slow_compute", "failing_job", "tool_error_job", "forever", "confirm_delete", "multi_input"]) {
    const e = await expectError("tools/call", { name: tool, arguments: {} }, { caps: NONE }, { status: 400, code: -32021 }, `${tool} without the extension`);
    ok(e?.data?.requiredCapabilities?.extensions?.[EXT] !== undefined, `${tool}: data.requiredCapabilities.extensions["${EXT}"]`, e?.data);
    if (tool === "slow_compute") eq(e?.data, { requiredCapabilities: { extensions: { [EXT]: {} } } }, "slow_compute: data exactly as the spec example");
  }
  const e = await expectError("tools/call", { name: "confirm_delete", arguments: {} }, { caps: TASKS }, { status: 400, code: -32021 }, "confirm_delete without elicitation");
  ok(e?.data?.requiredCapabilities?.elicitation !== undefined, "confirm_delete: requiredCapabilities.elicitation", e?.data);
  // The extension declared on an earlier request does not count for this one.
  await createTask("forever", {}, { caps: TASKS });
  await expectError("tools/call", { name: "forever", arguments: {} }, { caps: NONE }, { status: 400, code: -32021 }, "per-request: earlier declaration does not carry over");
  const t = await createTask("slow_compute", { ms: 50 });
  for (const [method, params] of [["tasks/get", { taskId: t.taskId }], ["tasks/update", { taskId: t.taskId, inputResponses: {} }], ["tasks/cancel", { taskId: t.taskId }]]) {
    const e2 = await expectError(method, params, { caps: { elicitation: {} } }, { status: 400, code: -32021 }, `${method} without the extension`);
    ok(e2?.data?.requiredCapabilities?.extensions?.[EXT] !== undefined, `${method}: names the extension`, e2?.data);
  }
});

await test("slow_compute: working -> completed", async () => {
  const created = await createTask("slow_compute", { ms: 300, steps: 3, pollMs: 20 });
  eq(created.status, "working", "created working");
  eq(created.statusMessage, "step 0/3", "statusMessage step 0/3");
  eq(created.ttlMs, 60000, "default ttlMs 60000");
  eq(created.pollIntervalMs, 20, "pollIntervalMs from pollMs");
  // Durable before the answer: an immediate tasks/get resolves.
  const first = await getTask(created.taskId);
  eq(first.taskId, created.taskId, "immediate tasks/get resolves");
  const seen = await pollUntil(created.taskId, terminal, { label: "slow_compute" });
  const messages = [...new Set(seen.filter((t) => t.status === "working").map((t) => t.statusMessage))];
  ok(messages.includes("step 1/3") && messages.includes("step 2/3"), "statusMessage moves step 1/3, step 2/3", messages);
  ok(seen.every((t) => t.createdAt === created.createdAt), "createdAt constant");
  ok(seen.every((t, i) => i === 0 || Date.parse(t.lastUpdatedAt) >= Date.parse(seen[i - 1].lastUpdatedAt)), "lastUpdatedAt never goes back");
  const last = seen.at(-1);
  eq(last.status, "completed", "completed");
  eq(last.result, { content: [{ type: "text", text: "computed 3 steps" }], isError: false }, "result is the CallToolResult");
  const defaults = await createTask("slow_compute", {});
  eq(defaults.pollIntervalMs, 100, "default pollIntervalMs 100");
  const unlimited = await createTask("slow_compute", { ms: 10, ttlMs: null });
  eq(unlimited.ttlMs, null, "ttlMs null = unlimited");
});

await test("failing_job / protocol_error_job: failed + error", async () => {
  for (const tool of ["failing_job", "protocol_error_job"]) {
    const created = await createTask(tool, { pollMs: 20 });
    const last = (await pollUntil(created.taskId, terminal, { label: tool })).at(-1);
    eq(last.status, "failed", `${tool}: failed`);
    ok(last.error?.code === -32603 && typeof last.error.message === "string", `${tool}: error {code -32603, message}`, last.error);
    if (tool === "failing_job") eq(last.error, { code: -32603, message: "job exploded" }, "failing_job: error job exploded");
    ok(typeof last.statusMessage === "string", `${tool}: statusMessage (SHOULD)`);
    ok(!("result" in last), `${tool}: no result`);
  }
});

await test("tool_error_job: completed + isError", async () => {
  const created = await createTask("tool_error_job", { pollMs: 20 });
  const last = (await pollUntil(created.taskId, terminal, { label: "tool_error_job" })).at(-1);
  eq(last.status, "completed", "completed (not failed)");
  ok(last.result?.isError === true && Array.isArray(last.result.content), "result.isError true", last.result);
});

await test("maybe_task", async () => {
  const sync = await call("tools/call", { name: "maybe_task", arguments: {} }, { caps: NONE });
  ok(sync.resultType === "complete" && /synchronously/.test(sync.content?.[0]?.text), "without the extension: synchronous", sync);
  const created = await createTask("maybe_task", { ms: 30, pollMs: 20 });
  const last = (await pollUntil(created.taskId, terminal, { label: "maybe_task" })).at(-1);
  ok(last.status === "completed" && /as a task/.test(last.result?.content?.[0]?.text), "with it: a task", last);
});

// ext-tasks "Example Message Flow", with confirm_delete in the role of hello_world.
await test("Example Message Flow (confirm_delete)", async () => {
  const callMsg = build("tools/call", { name: "confirm_delete", arguments: {} }, { caps: TASKS_ELICIT }).msg;
  ok(callMsg.params._meta[CC].extensions[EXT] !== undefined, "tools/call carries the extension in per-request capabilities");
  const created = await createTask("confirm_delete", { pollMs: 20 });
  eq(created.status, "working", "CreateTaskResult working");
  const seen = await pollUntil(created.taskId, (t) => t.status !== "working", { label: "confirm_delete" });
  const parked = seen.at(-1);
  eq(parked.status, "input_required", "input_required");
  const keys = Object.keys(parked.inputRequests ?? {});
  ok(keys.length === 1 && /^confirm-\d+$/.test(keys[0]), "one key confirm-<n>", keys);
  const key = keys[0];
  eq(parked.inputRequests[key], {
    method: "elicitation/create",
    params: {
      mode: "form",
      message: parked.inputRequests[key]?.params?.message,
      requestedSchema: { type: "object", properties: { confirm: { type: "boolean", description: "Delete it?" } }, required: ["confirm"] },
    },
  }, "elicitation/create form request");
  ok(typeof parked.inputRequests[key]?.params?.message === "string", "elicitation message");
  // Polling again before answering: the same snapshot.
  const again = await getTask(created.taskId);
  eq(again.inputRequests, parked.inputRequests, "same inputRequests on the next poll");
  const upd = build("tasks/update", { taskId: created.taskId, inputResponses: { [key]: { action: "accept", content: { confirm: true } } } }, { caps: TASKS });
  validates("UpdateTaskRequest", upd.msg, "tasks/update request");
  const ack = await call("tasks/update", { taskId: created.taskId, inputResponses: { [key]: { action: "accept", content: { confirm: true } } } }, { caps: TASKS });
  checkAck(ack, "tasks/update");
  validates("UpdateTaskResult", ack);
  const after = await getTask(created.taskId);
  ok(after.status === "working" || after.status === "completed", "after the update: working (or already completed)", after.status);
  const last = (await pollUntil(created.taskId, terminal, { label: "confirm_delete" })).at(-1);
  eq(last.status, "completed", "completed");
  eq(last.result, { content: [{ type: "text", text: "deleted /tmp/x" }], isError: false }, "deleted /tmp/x");
  // decline -> kept
  const c2 = await createTask("confirm_delete", { path: "/tmp/y", pollMs: 20 });
  const p2 = (await pollUntil(c2.taskId, (t) => t.status !== "working", { label: "decline" })).at(-1);
  const k2 = Object.keys(p2.inputRequests ?? {})[0];
  ok(k2 !== key, "keys differ between tasks", [key, k2]);
  await expectError("tasks/update", { taskId: c2.taskId, inputResponses: { [k2]: { nonsense: true } } }, { caps: TASKS }, { status: 400, code: -32602 }, "malformed ElicitResult");
  eq((await getTask(c2.taskId)).status, "input_required", "malformed answer not applied");
  checkAck(await call("tasks/update", { taskId: c2.taskId, inputResponses: { [k2]: { action: "decline" } } }, { caps: TASKS }), "decline");
  const l2 = (await pollUntil(c2.taskId, terminal, { label: "decline" })).at(-1);
  eq(l2.result?.content?.[0]?.text, "kept /tmp/y", "declined: kept /tmp/y");
  // accept with confirm false -> kept
  const c3 = await createTask("confirm_delete", { path: "/tmp/z", pollMs: 20 });
  const p3 = (await pollUntil(c3.taskId, (t) => t.status !== "working", { label: "confirm false" })).at(-1);
  const k3 = Object.keys(p3.inputRequests)[0];
  await call("tasks/update", { taskId: c3.taskId, inputResponses: { [k3]: { action: "accept", content: { confirm: false } } } }, { caps: TASKS });
  const l3 = (await pollUntil(c3.taskId, terminal, { label: "confirm false" })).at(-1);
  eq(l3.result?.content?.[0]?.text, "kept /tmp/z", "confirm false: kept /tmp/z");
});

await test("multi_input: two rounds, ignored and partial responses", async () => {
  const created = await createTask("multi_input", { pollMs: 20 });
  const p1 = (await pollUntil(created.taskId, (t) => t.status === "input_required", { label: "round 1" })).at(-1);
  eq(Object.keys(p1.inputRequests), ["first"], "round 1 asks for first");
  checkAck(await call("tasks/update", { taskId: created.taskId, inputResponses: { never_issued: { action: "accept", content: {} } } }, { caps: TASKS }), "unknown key");
  const still = await getTask(created.taskId);
  ok(still.status === "input_required" && Object.keys(still.inputRequests).join() === "first", "unknown key ignored: still waiting for first", still);
  checkAck(await call("tasks/update", { taskId: created.taskId, inputResponses: { first: { action: "accept", content: { value: "a" } } } }, { caps: TASKS }), "first");
  const mid = await getTask(created.taskId);
  eq(mid.status, "working", "working between the rounds");
  const p2 = (await pollUntil(created.taskId, (t) => t.status === "input_required", { label: "round 2" })).at(-1);
  eq(Object.keys(p2.inputRequests), ["second"], "round 2 asks for second (first is gone)");
  checkAck(await call("tasks/update", { taskId: created.taskId, inputResponses: { first: { action: "accept", content: { value: "again" } }, second: { action: "accept", content: { value: "b" } } } }, { caps: TASKS }), "second (+ already-answered first)");
  const last = (await pollUntil(created.taskId, terminal, { label: "multi_input" })).at(-1);
  eq(last.result?.content?.[0]?.text, 'got {"value":"a"} and {"value":"b"}', "got both contents (the re-sent first ignored)");
  eq((await adminTask(created.taskId))?.ignoredInputResponses, 2, "admin: 2 responses ignored");
});

await test("cancellation", async () => {
  const f = await createTask("forever", { pollMs: 20 });
  await sleep(150);
  eq((await getTask(f.taskId)).status, "working", "forever still working");
  const cmsg = build("tasks/cancel", { taskId: f.taskId }, { caps: TASKS }).msg;
  validates("CancelTaskRequest", cmsg, "tasks/cancel request");
  const ack = await call("tasks/cancel", { taskId: f.taskId }, { caps: TASKS });
  checkAck(ack, "tasks/cancel");
  validates("CancelTaskResult", ack);
  const c = await getTask(f.taskId);
  checkDetailed(c, f.taskId, "cancelled task");
  eq(c.status, "cancelled", "cancelled");
  checkAck(await call("tasks/cancel", { taskId: f.taskId }, { caps: TASKS }), "second cancel (idempotent)");
  checkAck(await call("tasks/update", { taskId: f.taskId, inputResponses: { x: {} } }, { caps: TASKS }), "update on a cancelled task");
  eq((await adminTask(f.taskId))?.executions, 1, "admin: one execution");
  // input_required -> cancelled, inputRequests gone
  const d = await createTask("confirm_delete", { pollMs: 20 });
  await pollUntil(d.taskId, (t) => t.status === "input_required", { label: "cancel parked" });
  await call("tasks/cancel", { taskId: d.taskId }, { caps: TASKS });
  const dc = await getTask(d.taskId);
  ok(dc.status === "cancelled" && !("inputRequests" in dc), "parked task cancelled, no inputRequests", dc);
  // A finished task stays finished.
  const m = await createTask("maybe_task", { ms: 0, pollMs: 20 });
  await pollUntil(m.taskId, terminal, { label: "finished" });
  checkAck(await call("tasks/cancel", { taskId: m.taskId }, { caps: TASKS }), "cancel after completion");
  eq((await getTask(m.taskId)).status, "completed", "still completed");
});

await test("unknown, expired, forgotten tasks (-32602)", async () => {
  await expectError("tasks/get", { taskId: "no-such-task" }, { caps: TASKS }, { status: 400, code: -32602, message: /Task not found/ }, "tasks/get unknown");
  await expectError("tasks/update", { taskId: "no-such-task", inputResponses: {} }, { caps: TASKS }, { status: 400, code: -32602 }, "tasks/update unknown");
  await expectError("tasks/cancel", { taskId: "no-such-task" }, { caps: TASKS }, { status: 400, code: -32602 }, "tasks/cancel unknown");
  const t = await createTask("slow_compute", { ms: 5000, ttlMs: 250 });
  eq(t.ttlMs, 250, "ttlMs 250");
  eq((await getTask(t.taskId)).status, "working", "alive before its ttl");
  await sleep(400);
  await expectError("tasks/get", { taskId: t.taskId }, { caps: TASKS }, { status: 400, code: -32602, message: /Task has expired/ }, "after ttlMs: expired");
  await expectError("tasks/cancel", { taskId: t.taskId }, { caps: TASKS }, { status: 400, code: -32602, message: /expired/ }, "cancel after ttlMs");
  const g = await createTask("forever", {});
  ok((await postJson("/admin/fault", { kind: "forget", taskId: g.taskId })).body.ok, "fault forget");
  await expectError("tasks/get", { taskId: g.taskId }, { caps: TASKS }, { status: 400, code: -32602, message: /Task not found/ }, "forgotten");
  const x = await createTask("forever", {});
  ok((await postJson("/admin/fault", { kind: "expire", taskId: x.taskId })).body.ok, "fault expire");
  await expectError("tasks/get", { taskId: x.taskId }, { caps: TASKS }, { status: 400, code: -32602, message: /Task has expired/ }, "expired by fault");
  eq((await postJson("/admin/fault", { kind: "forget", taskId: "nope" })).status, 404, "fault on an unknown task: 404");
  eq((await postJson("/admin/fault", { kind: "nonsense" })).status, 400, "unknown fault kind: 400");
});

await test("Mcp-Name routing header on tasks/*", async () => {
  const before = (await getJson("/admin/violations")).length;
  const t = await createTask("forever", {});
  for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
    const params = method === "tasks/update" ? { taskId: t.taskId, inputResponses: {} } : { taskId: t.taskId };
    await expectError(method, params, { caps: TASKS, headers: { "mcp-name": null } }, { status: 400, code: -32020 }, `${method} without Mcp-Name`);
    await expectError(method, params, { caps: TASKS, headers: { "mcp-name": "someone-else" } }, { status: 400, code: -32020 }, `${method} with another Mcp-Name`);
  }
  const v = await getJson("/admin/violations");
  eq(v.length - before, 6, "six violations recorded");
  const lastV = v.at(-1);
  ok(lastV?.header === "Mcp-Name" && lastV.expected === t.taskId && lastV.got === "someone-else", "violation: header, expected, got", lastV);
  eq((await getTask(t.taskId)).status, "working", "the task was not touched (not cancelled)");
  const enc = `=?base64?${Buffer.from(t.taskId).toString("base64")}?=`;
  const r = await call("tasks/get", { taskId: t.taskId }, { caps: TASKS, headers: { "mcp-name": enc } });
  eq(r.taskId, t.taskId, "Base64-sentinel Mcp-Name accepted");
});

await test("faults: drop-after-create", async () => {
  await reset();
  ok((await postJson("/admin/fault", { kind: "drop-after-create" })).body.ok, "armed");
  const { msg, headers } = build("tools/call", { name: "slow_compute", arguments: { ms: 100 } }, { caps: TASKS });
  const r = await rawPost("/mcp", msg, headers);
  eq(r.status, 200, "status line arrived");
  ok(r.headers?.["transfer-encoding"] === "chunked", "chunked response", r.headers);
  ok(!r.ended, "the body never ended", r);
  let parsed;
  try {
    parsed = JSON.parse(r.data);
  } catch {
    parsed = undefined;
  }
  ok(parsed?.id === msg.id && parsed?.result?.resultType === "task", "the whole CreateTaskResult JSON was sent", r.data);
  if (parsed?.result) checkCreated(parsed.result, "dropped CreateTaskResult");
  const taskId = parsed?.result?.taskId;
  const last = (await pollUntil(taskId, terminal, { label: "after drop" })).at(-1);
  eq(last.status, "completed", "the task exists and runs to completion");
  const admin = await adminTasks();
  eq(admin.tasks.length, 1, "one task");
  eq(admin.tasks[0]?.executions, 1, "one execution");
  eq(admin.tasks[0]?.responseDropped, "after-create", "marked after-create");
  eq(admin.toolCalls, { slow_compute: 1 }, "toolCalls slow_compute 1");
  // What fetch (as a browser or Node client) sees: headers, then a body that fails.
  await postJson("/admin/fault", { kind: "drop-after-create" });
  const f = build("tools/call", { name: "slow_compute", arguments: { ms: 100 } }, { caps: TASKS });
  const res = await fetch(`${base}/mcp`, { method: "POST", headers: f.headers, body: JSON.stringify(f.msg) });
  let bodyError = null;
  try {
    await res.text();
  } catch (e) {
    bodyError = e;
  }
  ok(res.status === 200 && bodyError !== null, "fetch: 200, then reading the body fails", { status: res.status, error: String(bodyError) });
  eq((await adminTasks()).pendingFaults.dropAfterCreate, 0, "fault consumed");
});

await test("faults: drop-before-create", async () => {
  await reset();
  await postJson("/admin/fault", { kind: "drop-before-create" });
  const { msg, headers } = build("tools/call", { name: "slow_compute", arguments: { ms: 100 } }, { caps: TASKS });
  const r = await rawPost("/mcp", msg, headers);
  ok(r.status === undefined && r.data === "", "no byte of the response", r);
  const admin = await adminTasks();
  ok(admin.tasks.length === 1 && admin.tasks[0].executions === 1 && admin.tasks[0].responseDropped === "before-create", "the task was created and started", admin);
  eq(admin.toolCalls, { slow_compute: 1 }, "toolCalls slow_compute 1");
  // A normal call afterwards is answered.
  await createTask("slow_compute", { ms: 10 });
});

await test("faults: 503-next-polls", async () => {
  const t = await createTask("slow_compute", { ms: 50 });
  await postJson("/admin/fault", { kind: "503-next-polls", n: 2 });
  for (let i = 1; i <= 2; i++) {
    const r = await rpc("tasks/get", { taskId: t.taskId }, { caps: TASKS });
    ok(r.status === 503 && r.headers.get("retry-after") === "1" && r.text === "", `poll ${i}: 503, Retry-After: 1, no body`, { status: r.status, body: r.text });
  }
  const r3 = await rpc("tasks/get", { taskId: t.taskId }, { caps: TASKS });
  eq(r3.status, 200, "poll 3: answered");
  const other = await call("tools/call", { name: "greet", arguments: {} }, { caps: NONE });
  eq(other.resultType, "complete", "only tasks/get is affected");
});

await test("MRTR then task (test_tool_with_task)", async () => {
  await expectError("tools/call", { name: "test_tool_with_task", arguments: {} }, { caps: { elicitation: {} } }, { status: 400, code: -32021 }, "without the extension");
  const r1 = await call("tools/call", { name: "test_tool_with_task", arguments: {} }, { caps: TASKS_ELICIT });
  eq(r1.resultType, "input_required", "round 1: input_required");
  ok(!("taskId" in r1) && typeof r1.requestState === "string", "round 1: requestState, no taskId", r1);
  ok(r1.inputRequests?.user_name?.method === "elicitation/create", "round 1: asks for user_name", r1.inputRequests);
  const answer = { user_name: { action: "accept", content: { name: "Luca" } } };
  const tampered = r1.requestState.slice(0, -2) + (r1.requestState.endsWith("AA") ? "BB" : "AA");
  await expectError("tools/call", { name: "test_tool_with_task", arguments: {}, inputResponses: answer, requestState: tampered }, { caps: TASKS_ELICIT }, { status: 400, code: -32602 }, "tampered requestState");
  await expectError("tools/call", { name: "test_tool_with_task", arguments: {}, inputResponses: answer }, { caps: TASKS_ELICIT }, { status: 400, code: -32602 }, "missing requestState");
  const r2 = await call("tools/call", { name: "test_tool_with_task", arguments: { pollMs: 20 }, inputResponses: answer, requestState: r1.requestState }, { caps: TASKS_ELICIT });
  checkCreated(r2, "round 2");
  ok(!("requestState" in r2), "round 2: no requestState");
  const last = (await pollUntil(r2.taskId, terminal, { label: "mrtr task" })).at(-1);
  ok(last.status === "completed" && /Luca/.test(last.result?.content?.[0]?.text), "the task's result has the gathered name", last);
});

await test("conformance profile (/mcp-conformance)", async () => {
  const path = "/mcp-conformance";
  const sync = await call("tools/call", { name: "slow_compute", arguments: { seconds: 0 } }, { caps: NONE, path });
  ok(sync.resultType === "complete" && !("taskId" in sync) && Array.isArray(sync.content), "slow_compute without the extension: synchronous", sync);
  const fj = await createTask("failing_job", { ms: 50, pollMs: 20 }, { path });
  const last = (await pollUntil(fj.taskId, terminal, { label: "suite failing_job" })).at(-1);
  ok(last.status === "completed" && last.result?.isError === true, "failing_job: completed + isError", last);
  await expectError("tools/call", { name: "failing_job", arguments: {} }, { caps: NONE, path }, { status: 400, code: -32021 }, "failing_job without the extension");
  const mi = await createTask("multi_input", { pollMs: 20 }, { path });
  const p = (await pollUntil(mi.taskId, (t) => t.status === "input_required", { label: "suite multi_input" })).at(-1);
  eq(Object.keys(p.inputRequests).sort(), ["first", "second"], "two keys pending at once");
  await call("tasks/update", { taskId: mi.taskId, inputResponses: { first: { action: "accept", content: { value: "1" } } } }, { caps: TASKS, path });
  const partial = await getTask(mi.taskId, { path });
  ok(partial.status === "input_required" && Object.keys(partial.inputRequests).join() === "second", "partial set: still input_required, only second left", partial);
  await call("tasks/update", { taskId: mi.taskId, inputResponses: { second: { action: "accept", content: { value: "2" } } } }, { caps: TASKS, path });
  const done = (await pollUntil(mi.taskId, terminal, { label: "suite multi_input" })).at(-1);
  eq(done.result?.content?.[0]?.text, 'got {"value":"1"} and {"value":"2"}', "completes with both");
  // tasks/* see one task store, whichever path created the task.
  eq((await getTask(mi.taskId)).taskId, mi.taskId, "task visible on /mcp too");
});

await test("admin log", async () => {
  await reset();
  eq(await getJson("/admin/log"), [], "reset empties the log");
  await call("server/discover", {}, { caps: TASKS });
  const t = await createTask("forever", {}, { caps: TASKS });
  await getTask(t.taskId);
  const log = await getJson("/admin/log");
  eq(log.map((e) => e.method), ["server/discover", "tools/call", "tasks/get"], "every message, in order");
  ok(log.every((e, i) => i === 0 || e.id > log[i - 1].id), "ids in sending order");
  eq(log[2].headers, { "mcp-method": "tasks/get", "mcp-name": t.taskId, "mcp-protocol-version": V }, "headers recorded");
  eq(log[2].params?.taskId, t.taskId, "params recorded");
  eq(log[0].headers["mcp-name"], null, "absent header recorded as null");
  const admin = await adminTasks();
  eq(admin.tasks.map((x) => [x.tool, x.status, x.executions]), [["forever", "working", 1]], "admin tasks");
  eq(admin.toolCalls, { forever: 1 }, "toolCalls");
  await reset();
  const empty = await adminTasks();
  ok(empty.tasks.length === 0 && Object.keys(empty.toolCalls).length === 0, "reset clears tasks and counters");
  await expectError("tasks/get", { taskId: t.taskId }, { caps: TASKS }, { status: 400, code: -32602 }, "reset task is gone");
});

await test("bound: at most 1000 tasks, oldest purged", async () => {
  await reset();
  const ids = [];
  for (let batch = 0; batch < 21; batch++) {
    const n = batch === 20 ? 5 : 50;
    const rs = await Promise.all(Array.from({ length: n }, () => call("tools/call", { name: "forever", arguments: {} }, { caps: TASKS })));
    ids.push(...rs.map((r) => r.taskId));
  }
  eq(ids.length, 1005, "1005 tasks created");
  eq((await adminTasks()).tasks.length, 1000, "1000 kept");
  await expectError("tasks/get", { taskId: ids[0] }, { caps: TASKS }, { status: 400, code: -32602 }, "the oldest is gone");
  eq((await getTask(ids[5])).status, "working", "the sixth is kept");
  eq((await getTask(ids.at(-1))).status, "working", "the newest is kept");
  await reset();
});

await test("CORS", async () => {
  const origin = "http://127.0.0.1:9";
  const pre = await fetch(`${base}/mcp`, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type, mcp-method, mcp-name, mcp-protocol-version" },
  });
  eq(pre.status, 204, "preflight 204");
  eq(pre.headers.get("access-control-allow-origin"), origin, "preflight reflects Origin");
  eq(pre.headers.get("access-control-allow-headers"), "content-type, mcp-method, mcp-name, mcp-protocol-version", "preflight allows the requested headers");
  const r = await rpc("server/discover", {}, { caps: TASKS, headers: { origin } });
  eq(r.headers.get("access-control-allow-origin"), origin, "POST reflects Origin");
  const exposed = (r.headers.get("access-control-expose-headers") ?? "").split(/,\s*/);
  ok(["mcp-session-id", "retry-after", "www-authenticate"].every((h) => exposed.includes(h)), "exposes mcp-session-id, retry-after, www-authenticate", exposed);
  await postJson("/admin/fault", { kind: "503-next-polls", n: 1 });
  const t = await createTask("slow_compute", { ms: 10 });
  const r503 = await rpc("tasks/get", { taskId: t.taskId }, { caps: TASKS, headers: { origin } });
  ok(r503.status === 503 && r503.headers.get("access-control-allow-origin") === origin, "503 carries CORS too (Retry-After readable)");
});

// ---- done -------------------------------------------------------------------------------------

child.stdin.end();
console.log(`(${schemaChecks} schema validations; ${schemaNote})`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
