// A loopback MCP 2026-07-28 server implementing the Tasks extension (`io.modelcontextprotocol/tasks`)
// as written in modelcontextprotocol/ext-tasks `specification/draft/tasks.md` at commit e434597
// (no published MCP server implements 2026 tasks). Test fixture only. Node built-ins only.
//
// Binds 127.0.0.1 on an ephemeral port, prints {"port":N} as its first stdout line, and exits when
// its stdin closes, so it cannot outlive the process that started it. Permissive CORS: the Origin
// is reflected, requested headers are allowed, mcp-session-id / retry-after / www-authenticate are
// exposed.
//
// Routes (see tests/servers/README.md, "Tasks extension fixture"):
//   POST /mcp              JSON-RPC 2.0, one message per POST, answered with application/json
//   POST /mcp-conformance  the same server, but four tools follow the fixture contract of the
//                          official conformance suite's tasks-* scenarios instead (see SUITE below)
//   POST /admin/fault      {"kind": "drop-after-create" | "drop-before-create" [, "count": n]}
//                          {"kind": "503-next-polls", "n": n}
//                          {"kind": "forget" | "expire", "taskId": id}
//   GET  /admin/log        every JSON-RPC message received, in order
//   GET  /admin/violations every request refused for its routing headers (-32020), in order
//   GET  /admin/tasks      {tasks: [{taskId, tool, status, executions, ...}], toolCalls: {name: n}}
//   GET  /admin/executions?prefix=P   {key: executions} of count_task, for keys starting with P
//   POST /admin/reset      clears the log, the violations, the tasks, the counters and the faults
import http from "node:http";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { corsHeaders } from "../lib/cors.mjs";

const VERSION = "2026-07-28";
const TASKS_EXT = "io.modelcontextprotocol/tasks";
const META_VERSION = "io.modelcontextprotocol/protocolVersion";
const META_CAPS = "io.modelcontextprotocol/clientCapabilities";
const META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";
const SERVER_INFO = { name: "mcp-edge-tasks2026-fixture", version: "1.0.0" };

const MAX_BODY = 1 << 20; // request bodies above 1 MiB: 413
const MAX_DISCARD = 16 << 20; // an oversized body is read (and dropped) up to here, then cut
const MAX_TASKS = 1000; // oldest purged first
const MAX_LOG = 10_000;
const MAX_VIOLATIONS = 1000;
const MAX_TOMBSTONES = 1000; // ids of expired tasks, so "expired" can be told from "not found"
const MAX_TIMER_MS = 2 ** 31 - 1;

// JSON-RPC / MCP error codes (JSON-RPC 2.0 § 5.1; MCP 2026-07-28 basic/index "Error Codes").
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;
const HEADER_MISMATCH = -32020;
const MISSING_CAPABILITY = -32021;
const UNSUPPORTED_VERSION = -32022;

// HTTP status per error code: 400 for the three MCP codes (streamable-http and schema.ts: "MUST be
// 400"), for malformed requests and for invalid params (as the Python SDK's table), 404 for an
// unknown method (streamable-http "Protocol Version Header"), 200 otherwise.
const STATUS_FOR_CODE = new Map([
  [PARSE_ERROR, 400],
  [INVALID_REQUEST, 400],
  [INVALID_PARAMS, 400],
  [HEADER_MISMATCH, 400],
  [MISSING_CAPABILITY, 400],
  [UNSUPPORTED_VERSION, 400],
  [METHOD_NOT_FOUND, 404],
]);

class RpcError extends Error {
  constructor(code, message, data) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

class Cancelled extends Error {}

// ---- state ------------------------------------------------------------------------------------

const state = {
  log: [],
  violations: [],
  tasks: new Map(), // taskId -> task, in creation order
  tombstones: new Map(), // taskId -> "expired"
  toolCalls: new Map(), // tool name -> tools/call requests answered with a result
  faults: { dropAfterCreate: 0, dropBeforeCreate: 0, polls503: 0 },
  counted: new Map(), // count_task key -> executions (at most MAX_COUNTED keys, oldest dropped)
};
const MAX_COUNTED = 100_000;
let keySeq = 0; // for confirm-<n> input request keys
const stateKey = randomBytes(32); // HMAC key for MRTR requestState

const bounded = (list, max, item) => {
  if (list.length >= max) list.splice(0, list.length - max + 1);
  list.push(item);
};

const iso = (ms) => new Date(ms).toISOString();
const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (t, isError = false) => ({ content: [{ type: "text", text: t }], isError });
const TERMINAL = new Set(["completed", "failed", "cancelled"]);

// ---- tasks ------------------------------------------------------------------------------------

function touch(t) {
  t.lastUpdatedAt = Math.max(Date.now(), t.lastUpdatedAt);
}

function purge(taskId, reason) {
  const t = state.tasks.get(taskId);
  if (!t) return;
  clearTimeout(t.ttlTimer);
  t.abort.abort();
  state.tasks.delete(taskId);
  if (reason === "expired") {
    if (state.tombstones.size >= MAX_TOMBSTONES) state.tombstones.delete(state.tombstones.keys().next().value);
    state.tombstones.set(taskId, "expired");
  }
}

function createTask(tool, profile, ttlMs, pollIntervalMs, statusMessage) {
  while (state.tasks.size >= MAX_TASKS) purge(state.tasks.keys().next().value, "evicted");
  const now = Date.now();
  const t = {
    // 128 random bits (ext-tasks "Security Considerations": unguessable task IDs).
    taskId: randomBytes(16).toString("hex"),
    tool,
    profile,
    status: "working",
    statusMessage,
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs,
    pollIntervalMs,
    result: undefined,
    error: undefined,
    inputRequests: new Map(), // outstanding key -> request
    issuedKeys: new Set(), // every key ever issued (unique over the task's lifetime)
    waiter: null, // {resolve, answers} of the pending ask
    executions: 0,
    abort: new AbortController(),
    ttlTimer: undefined,
    ignoredInputResponses: 0,
    responseDropped: null,
  };
  if (ttlMs !== null) {
    t.ttlTimer = setTimeout(() => purge(t.taskId, "expired"), Math.min(ttlMs, MAX_TIMER_MS));
    t.ttlTimer.unref();
  }
  state.tasks.set(t.taskId, t);
  return t;
}

// The Task members shared by CreateTaskResult and every DetailedTask (ext-tasks "Tasks").
function taskFields(t) {
  const out = { taskId: t.taskId, status: t.status };
  if (t.statusMessage !== undefined) out.statusMessage = t.statusMessage;
  out.createdAt = iso(t.createdAt);
  out.lastUpdatedAt = iso(t.lastUpdatedAt);
  out.ttlMs = t.ttlMs;
  out.pollIntervalMs = t.pollIntervalMs;
  return out;
}

// DetailedTask (ext-tasks "Task Status"): inputRequests / result / error by status.
function detailedTask(t) {
  const out = taskFields(t);
  if (t.status === "input_required") out.inputRequests = Object.fromEntries(t.inputRequests);
  if (t.status === "completed") out.result = t.result;
  if (t.status === "failed") out.error = t.error;
  return out;
}

// Looks a task up for tasks/get|update|cancel; expired tasks are purged on access too.
function findTask(taskId, verb) {
  const t = state.tasks.get(taskId);
  if (t && t.ttlMs !== null && Date.now() >= t.createdAt + t.ttlMs) purge(taskId, "expired");
  const live = state.tasks.get(taskId);
  if (live) return live;
  const why = state.tombstones.get(taskId) === "expired" ? "Task has expired" : "Task not found";
  throw new RpcError(INVALID_PARAMS, `Failed to ${verb} task: ${why}`);
}

// What a tool body uses to move its task along. Every step is a no-op once the task is terminal
// (cancelled, or purged).
function runtime(t) {
  const signal = t.abort.signal;
  const live = () => !TERMINAL.has(t.status) && !signal.aborted;
  return {
    sleep(ms) {
      return new Promise((resolve, reject) => {
        if (!live()) return reject(new Cancelled());
        const h = setTimeout(() => {
          signal.removeEventListener("abort", onAbort);
          resolve();
        }, Math.min(ms, MAX_TIMER_MS));
        const onAbort = () => {
          clearTimeout(h);
          reject(new Cancelled());
        };
        signal.addEventListener("abort", onAbort, { once: true });
      });
    },
    forever() {
      return new Promise((_, reject) => {
        if (!live()) return reject(new Cancelled());
        signal.addEventListener("abort", () => reject(new Cancelled()), { once: true });
      });
    },
    working(message) {
      if (!live()) return;
      t.status = "working";
      t.statusMessage = message;
      touch(t);
    },
    // Parks the task in input_required with `requests` (key -> InputRequest) until every one of
    // them is answered by tasks/update; resolves with {key: response}.
    ask(requests, message) {
      if (!live()) return Promise.reject(new Cancelled());
      for (const [key, req] of Object.entries(requests)) {
        if (t.issuedKeys.has(key)) throw new Error(`input request key reused: ${key}`);
        t.issuedKeys.add(key);
        t.inputRequests.set(key, req);
      }
      t.status = "input_required";
      t.statusMessage = message;
      touch(t);
      return new Promise((resolve, reject) => {
        t.waiter = { resolve, answers: {} };
        signal.addEventListener("abort", () => reject(new Cancelled()), { once: true });
      });
    },
    complete(result, message) {
      if (!live()) return;
      t.status = "completed";
      t.statusMessage = message;
      t.result = result;
      touch(t);
    },
    fail(error, message) {
      if (!live()) return;
      t.status = "failed";
      t.statusMessage = message;
      t.error = error;
      touch(t);
    },
  };
}

function startBody(t, body) {
  t.executions += 1;
  const rt = runtime(t);
  Promise.resolve()
    .then(() => body(rt))
    .catch((e) => {
      if (e instanceof Cancelled) return;
      rt.fail({ code: INTERNAL_ERROR, message: String(e?.message ?? e) }, "Tool execution failed");
    });
}

// ---- tools ------------------------------------------------------------------------------------

const clamp = (v, def, min, max) =>
  typeof v === "number" && Number.isFinite(v) ? Math.min(max, Math.max(min, Math.round(v))) : def;

// ttlMs / pollMs on every task tool: defaults 60000 / 100; ttlMs null means unlimited.
function taskTiming(args) {
  const ttlMs = args.ttlMs === null ? null : clamp(args.ttlMs, 60_000, 1, 86_400_000);
  return { ttlMs, pollIntervalMs: clamp(args.pollMs, 100, 1, 60_000) };
}

// `ms` wins; the conformance suite passes `seconds` instead.
const duration = (args, def) =>
  typeof args.ms === "number" ? clamp(args.ms, def, 0, 600_000)
  : typeof args.seconds === "number" ? clamp(args.seconds * 1000, def, 0, 600_000)
  : def;

const timingProps = {
  pollMs: { type: "integer", minimum: 1, description: "pollIntervalMs of the task (default 100)" },
  ttlMs: { type: ["integer", "null"], minimum: 1, description: "ttlMs of the task, null for unlimited (default 60000)" },
};

function missingCaps(call, { tasks = false, elicitation = false }) {
  const required = {};
  if (elicitation && !call.hasElicitation) required.elicitation = { form: {} };
  if (tasks && !call.hasTasks) required.extensions = { [TASKS_EXT]: {} };
  if (Object.keys(required).length === 0) return;
  throw new RpcError(MISSING_CAPABILITY, "Missing required client capability", { requiredCapabilities: required });
}

const confirmSchema = {
  type: "object",
  properties: { confirm: { type: "boolean", description: "Delete it?" } },
  required: ["confirm"],
};

function elicit(message, requestedSchema) {
  return { method: "elicitation/create", params: { mode: "form", message, requestedSchema } };
}

const valueSchema = (title) => ({
  type: "object",
  properties: { value: { type: "string", description: title } },
  required: ["value"],
});

// Each tool: {def (as listed), call(call) -> {result} | {inputRequired} | {task: {body, ...}}}.
// `call` = {args, hasTasks, hasElicitation, profile, params}.
/** A task tool (needs the extension) that completes after `ms` (default `defaultMs`) with a tool
 * error: status completed, `isError: true`. */
function toolErrorTask(defaultMs) {
  return (call) => {
    missingCaps(call, { tasks: true });
    const ms = duration(call.args, defaultMs);
    return {
      task: {
        statusMessage: "running",
        async body(rt) {
          await rt.sleep(ms);
          rt.complete(text("job failed: the tool reported an error (fixture)", true), "completed with a tool error");
        },
      },
    };
  };
}

/** A task tool (needs the extension) that fails after `ms` with a -32603 JSON-RPC error. */
function failingTask(message, statusMessage) {
  return (call) => {
    missingCaps(call, { tasks: true });
    const ms = duration(call.args, 200);
    return {
      task: {
        statusMessage: "running",
        async body(rt) {
          await rt.sleep(ms);
          rt.fail({ code: INTERNAL_ERROR, message }, statusMessage);
        },
      },
    };
  };
}

const TOOLS = {
  greet: {
    def: {
      description: "Says hello. Always synchronous (never a task).",
      inputSchema: { type: "object", properties: { name: { type: "string" } } },
      annotations: { readOnlyHint: true, idempotentHint: true },
    },
    call: ({ args }) => ({ result: text(`Hello, ${typeof args.name === "string" ? args.name : "World"}!`) }),
  },

  slow_compute: {
    def: {
      description:
        "Always a task (needs io.modelcontextprotocol/tasks, else -32021): working with statusMessage " +
        "'step i/steps' every ms/steps, then completed with 'computed <steps> steps'.",
      inputSchema: {
        type: "object",
        properties: {
          ms: { type: "integer", minimum: 0, description: "total duration (default 600)" },
          steps: { type: "integer", minimum: 1, description: "status updates (default 3)" },
          seconds: { type: "number", minimum: 0, description: "alternative to ms (conformance suite)" },
          label: { type: "string", description: "ignored (conformance suite)" },
          ...timingProps,
        },
      },
    },
    call: (call) => {
      const ms = duration(call.args, 600);
      const steps = clamp(call.args.steps, 3, 1, 1000);
      const done = `computed ${steps} steps`;
      if (call.profile === "suite" && !call.hasTasks) {
        // The suite's contract: a task-supporting tool falls through to a synchronous run.
        return { result: (async () => { await new Promise((r) => setTimeout(r, Math.min(ms, 10_000))); return text(done); })() };
      }
      missingCaps(call, { tasks: true });
      return {
        task: {
          statusMessage: `step 0/${steps}`,
          async body(rt) {
            for (let i = 1; i <= steps; i++) {
              await rt.sleep(ms / steps);
              if (i < steps) rt.working(`step ${i}/${steps}`);
            }
            rt.complete(text(done), done);
          },
        },
      };
    },
  },

  failing_job: {
    def: {
      description:
        "A task (needs the extension) whose request fails with a JSON-RPC error: status failed, " +
        "error {code: -32603, message: 'job exploded'}.",
      inputSchema: { type: "object", properties: { ms: { type: "integer", minimum: 0, description: "time before failing (default 200)" }, ...timingProps } },
    },
    call: failingTask("job exploded", "Tool execution failed: job exploded"),
  },

  protocol_error_job: {
    def: {
      description: "Like failing_job: a task that ends failed with a JSON-RPC error (-32603).",
      inputSchema: { type: "object", properties: { ms: { type: "integer", minimum: 0 }, ...timingProps } },
    },
    call: failingTask("internal failure (fixture)", "Tool execution failed: internal failure"),
  },

  tool_error_job: {
    def: {
      description: "A task (needs the extension) that completes with a tool error: status completed, result.isError true.",
      inputSchema: { type: "object", properties: { ms: { type: "integer", minimum: 0 }, ...timingProps } },
    },
    call: toolErrorTask(200),
  },

  confirm_delete: {
    def: {
      description:
        "A task (needs the extension and elicitation) that asks for confirmation through inputRequests " +
        "(key confirm-<n>), then completes with 'deleted <path>' (accept + confirm: true) or 'kept <path>'.",
      inputSchema: {
        type: "object",
        properties: {
          path: { type: "string", description: "default /tmp/x" },
          filename: { type: "string", description: "alternative to path (conformance suite)" },
          ...timingProps,
        },
      },
      annotations: { destructiveHint: true },
    },
    call: (call) => {
      missingCaps(call, { tasks: true, elicitation: true });
      const path = typeof call.args.path === "string" ? call.args.path
        : typeof call.args.filename === "string" ? call.args.filename : "/tmp/x";
      return {
        task: {
          statusMessage: "preparing",
          async body(rt) {
            await rt.sleep(50);
            const key = `confirm-${++keySeq}`;
            const answers = await rt.ask({ [key]: elicit(`Delete ${path}?`, confirmSchema) }, `waiting for confirmation to delete ${path}`);
            rt.working("processing the confirmation");
            await rt.sleep(50);
            const a = answers[key];
            const yes = a?.action === "accept" && a?.content?.confirm === true;
            const out = `${yes ? "deleted" : "kept"} ${path}`;
            rt.complete(text(out), out);
          },
        },
      };
    },
  },

  multi_input: {
    def: {
      description:
        "A task (needs the extension and elicitation) that asks for input twice in sequence (key first, " +
        "then second), then completes with 'got <first content> and <second content>' (JSON).",
      inputSchema: { type: "object", properties: { ...timingProps } },
    },
    call: (call) => {
      missingCaps(call, { tasks: true, elicitation: true });
      const show = (r) => JSON.stringify(r?.content ?? null);
      return {
        task: {
          statusMessage: "starting",
          async body(rt) {
            await rt.sleep(50);
            const a = await rt.ask({ first: elicit("First value?", valueSchema("first")) }, "waiting for the first value");
            rt.working("processing the first value");
            await rt.sleep(100);
            const b = await rt.ask({ second: elicit("Second value?", valueSchema("second")) }, "waiting for the second value");
            rt.working("processing the second value");
            await rt.sleep(50);
            const out = `got ${show(a.first)} and ${show(b.second)}`;
            rt.complete(text(out), "both values received");
          },
        },
      };
    },
  },

  count_task: {
    def: {
      description:
        "A task (needs the extension) that counts its executions per key (GET /admin/executions) and " +
        "completes after ms (default 50) with 'key=<key> n=<executions of that key>'.",
      inputSchema: {
        type: "object",
        properties: { key: { type: "string" }, ms: { type: "integer", minimum: 0 }, ...timingProps },
        required: ["key"],
      },
    },
    call: (call) => {
      missingCaps(call, { tasks: true });
      const key = String(call.args.key ?? "");
      const ms = duration(call.args, 50);
      return {
        task: {
          statusMessage: "counting",
          async body(rt) {
            if (!state.counted.has(key) && state.counted.size >= MAX_COUNTED) {
              state.counted.delete(state.counted.keys().next().value);
            }
            const n = (state.counted.get(key) ?? 0) + 1;
            state.counted.set(key, n);
            await rt.sleep(ms);
            rt.complete(text(`key=${key} n=${n}`), "counted");
          },
        },
      };
    },
  },

  maybe_task: {
    def: {
      description: "A task when the request declares io.modelcontextprotocol/tasks, otherwise a synchronous result; the text says which.",
      inputSchema: { type: "object", properties: { ms: { type: "integer", minimum: 0, description: "task duration (default 200)" }, ...timingProps } },
    },
    call: (call) => {
      if (!call.hasTasks) return { result: text("ran synchronously (the request did not declare io.modelcontextprotocol/tasks)") };
      const ms = duration(call.args, 200);
      return {
        task: {
          statusMessage: "running as a task",
          async body(rt) {
            await rt.sleep(ms);
            rt.complete(text("ran as a task"), "done");
          },
        },
      };
    },
  },

  forever: {
    def: {
      description: "A task (needs the extension) that stays working until tasks/cancel.",
      inputSchema: { type: "object", properties: { ...timingProps } },
    },
    call: (call) => {
      missingCaps(call, { tasks: true });
      return {
        task: {
          statusMessage: "waiting for tasks/cancel",
          async body(rt) {
            await rt.forever();
          },
        },
      };
    },
  },

  test_tool_with_task: {
    def: {
      description:
        "MRTR, then a task (needs the extension and elicitation): round 1 answers input_required asking for " +
        "user_name (with a signed requestState); the retry with the answer creates a task whose result greets that name.",
      inputSchema: { type: "object", properties: { ms: { type: "integer", minimum: 0 }, ...timingProps } },
    },
    call: (call) => {
      missingCaps(call, { tasks: true, elicitation: true });
      const responses = call.params.inputResponses;
      const answer = isObject(responses) ? responses.user_name : undefined;
      if (answer === undefined) {
        return {
          inputRequired: {
            inputRequests: {
              user_name: elicit("What is your name?", { type: "object", properties: { name: { type: "string" } }, required: ["name"] }),
            },
            requestState: sealState({ tool: "test_tool_with_task", exp: Date.now() + 600_000 }),
          },
        };
      }
      const st = openState(call.params.requestState);
      if (!st || st.tool !== "test_tool_with_task" || st.exp < Date.now()) {
        throw new RpcError(INVALID_PARAMS, "Invalid or expired requestState");
      }
      if (answer?.action !== "accept" || typeof answer?.content?.name !== "string") {
        return { result: text(`input 'user_name' was not accepted: ${answer?.action ?? "malformed"}`, true) };
      }
      const name = answer.content.name;
      const ms = duration(call.args, 200);
      return {
        task: {
          statusMessage: `greeting ${name}`,
          async body(rt) {
            await rt.sleep(ms);
            const out = `Hello, ${name}! (name gathered by MRTR before the task was created)`;
            rt.complete(text(out), "done");
          },
        },
      };
    },
  },
};

// The conformance suite's tasks-* scenarios (0.2.0-alpha.11) ask for other behaviour under four of
// the same names; /mcp-conformance serves these instead.
const SUITE = {
  // failing_job: task support "required"; the tool itself reports an error after ~1 s
  // (completed + isError), per tasks-lifecycle and tasks-required-task-error.
  failing_job: {
    def: {
      description: "Conformance-suite contract: a task (needs the extension) that completes after ~1 s with isError: true.",
      inputSchema: { type: "object", properties: { ms: { type: "integer", minimum: 0 }, ...timingProps } },
    },
    call: toolErrorTask(1000),
  },
  // multi_input: two elicitations pending at once (tasks-mrtr-input partial fulfilment).
  multi_input: {
    def: {
      description: "Conformance-suite contract: a task asking for two inputs at once (keys first and second).",
      inputSchema: { type: "object", properties: { ...timingProps } },
    },
    call: (call) => {
      missingCaps(call, { tasks: true, elicitation: true });
      const show = (r) => JSON.stringify(r?.content ?? null);
      return {
        task: {
          statusMessage: "starting",
          async body(rt) {
            await rt.sleep(50);
            const a = await rt.ask(
              { first: elicit("First value?", valueSchema("first")), second: elicit("Second value?", valueSchema("second")) },
              "waiting for two values",
            );
            rt.working("processing the values");
            await rt.sleep(50);
            rt.complete(text(`got ${show(a.first)} and ${show(a.second)}`), "both values received");
          },
        },
      };
    },
  },
};
// slow_compute differs in the suite profile only in its fallback without the extension (handled
// inside the tool); its description says so there.
const suiteSlow = {
  ...TOOLS.slow_compute,
  def: {
    ...TOOLS.slow_compute.def,
    description: "Conformance-suite contract: a task with the extension; without it, a synchronous run (seconds: 0 for instant).",
  },
};

const PROFILES = {
  ext: new Map(Object.entries(TOOLS)),
  suite: new Map(Object.entries({ ...TOOLS, slow_compute: suiteSlow, ...SUITE })),
};

function toolList(profile) {
  return [...PROFILES[profile]].map(([name, t]) => ({ name, ...t.def }));
}

// MRTR requestState: base64url(JSON) "." base64url(HMAC-SHA256) under a per-process key.
function sealState(payload) {
  const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return `${body}.${createHmac("sha256", stateKey).update(body).digest("base64url")}`;
}

function openState(token) {
  if (typeof token !== "string") return null;
  const [body, mac, extra] = token.split(".");
  if (!body || !mac || extra !== undefined) return null;
  const want = createHmac("sha256", stateKey).update(body).digest();
  const got = Buffer.from(mac, "base64url");
  if (got.length !== want.length || !timingSafeEqual(got, want)) return null;
  try {
    return JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    return null;
  }
}

// ---- HTTP plumbing ----------------------------------------------------------------------------

// The body as text, or null when it exceeds MAX_BODY (then it is read and dropped up to
// MAX_DISCARD, so the client sees the 413 rather than a reset; beyond that the socket is cut).
function readBody(req) {
  return new Promise((resolve) => {
    const declared = Number(req.headers["content-length"]);
    let size = 0;
    let over = Number.isFinite(declared) && declared > MAX_BODY;
    const parts = [];
    req.on("data", (c) => {
      size += c.length;
      if (size > MAX_BODY) over = true;
      if (size > MAX_DISCARD) {
        req.socket.destroy();
        return;
      }
      if (!over) parts.push(c);
    });
    req.on("end", () => resolve(over ? null : Buffer.concat(parts).toString("utf8")));
    req.on("error", () => resolve(null));
  });
}

function sendJson(res, status, obj, headers = {}) {
  const body = JSON.stringify(obj);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    "cache-control": "no-store",
    ...headers,
  });
  res.end(body);
}

function withMeta(result) {
  return { ...result, _meta: { ...(result._meta ?? {}), [META_SERVER_INFO]: SERVER_INFO } };
}

function rpcErrorBody(id, e) {
  const error = { code: e.code, message: e.message };
  if (e.data !== undefined) error.data = e.data;
  return { jsonrpc: "2.0", id: id ?? null, error };
}

// Mcp-Name values may use the Base64 sentinel (streamable-http "Value Encoding").
function decodeHeaderValue(v) {
  if (typeof v !== "string") return undefined;
  const m = /^=\?base64\?(.*)\?=$/.exec(v);
  if (!m) return v;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(m[1]) || m[1].length % 4 !== 0) return null;
  return Buffer.from(m[1], "base64").toString("utf8");
}

// The body member Mcp-Name mirrors: params.name (tools/call, prompts/get), params.uri
// (resources/read), params.taskId (tasks/get|update|cancel: ext-tasks "Streamable HTTP: Routing
// Headers").
function nameSource(method) {
  if (method === "tools/call" || method === "prompts/get") return "name";
  if (method === "resources/read") return "uri";
  if (method === "tasks/get" || method === "tasks/update" || method === "tasks/cancel") return "taskId";
  return null;
}

// streamable-http "Server Validation": MCP-Protocol-Version, Mcp-Method and Mcp-Name must be present
// and equal to the body's values; otherwise 400 + -32020, and the violation is recorded.
function checkHeaders(req, msg, version, path) {
  const h = req.headers;
  const fail = (header, expected, got) => {
    bounded(state.violations, MAX_VIOLATIONS, { path, method: msg.method, id: msg.id, header, expected, got: got ?? null });
    const what = got === undefined ? "is missing" : `value ${JSON.stringify(got)} does not match body value ${JSON.stringify(expected)}`;
    throw new RpcError(HEADER_MISMATCH, `Header mismatch: ${header} header ${what}`);
  };
  if (h["mcp-protocol-version"] !== version) fail("MCP-Protocol-Version", version, h["mcp-protocol-version"]);
  if (h["mcp-method"] !== msg.method) fail("Mcp-Method", msg.method, h["mcp-method"]);
  const key = nameSource(msg.method);
  const expected = key ? msg.params?.[key] : undefined;
  if (typeof expected === "string") {
    const raw = h["mcp-name"];
    if (raw === undefined) fail("Mcp-Name", expected, undefined);
    if (decodeHeaderValue(raw) !== expected) fail("Mcp-Name", expected, raw);
  }
}

// ---- JSON-RPC dispatch ------------------------------------------------------------------------

// Returns {status, body} or {raw: (res, headers) => void} for fault responses.
async function dispatch(req, msg, profile, path) {
  const params = isObject(msg.params) ? msg.params : {};
  const meta = isObject(params._meta) ? params._meta : {};
  const version = meta[META_VERSION];
  // A request without the 2026 per-request version (a legacy client's `initialize`, or any request
  // of an initialize-era client): a modern-only server names the versions it supports (versioning
  // "Backward Compatibility": -32022 is a recognised modern error, so a dual-era client stays modern).
  if (typeof version !== "string") {
    const requested = typeof params.protocolVersion === "string" ? params.protocolVersion
      : req.headers["mcp-protocol-version"] ?? "";
    throw new RpcError(UNSUPPORTED_VERSION, "Unsupported protocol version", { supported: [VERSION], requested });
  }
  checkHeaders(req, msg, version, path);
  if (version !== VERSION) {
    throw new RpcError(UNSUPPORTED_VERSION, "Unsupported protocol version", { supported: [VERSION], requested: version });
  }
  const caps = meta[META_CAPS];
  if (!isObject(caps)) {
    throw new RpcError(INVALID_PARAMS, `params._meta is missing the required ${META_CAPS}`);
  }
  const hasTasks = isObject(caps.extensions) && caps.extensions[TASKS_EXT] !== undefined;
  const hasElicitation = caps.elicitation !== undefined && caps.elicitation !== null;

  switch (msg.method) {
    case "server/discover":
      return ok({
        resultType: "complete",
        supportedVersions: [VERSION],
        capabilities: { tools: {}, extensions: { [TASKS_EXT]: {} } },
        instructions: "Test fixture for the io.modelcontextprotocol/tasks extension (ext-tasks draft at e434597).",
        ttlMs: 0,
        cacheScope: "public",
      });
    case "ping":
      return ok({ resultType: "complete" });
    case "tools/list":
      return ok({ resultType: "complete", tools: toolList(profile), ttlMs: 0, cacheScope: "public" });
    case "tools/call":
      return toolsCall(params, profile, hasTasks, hasElicitation);
    case "tasks/get":
    case "tasks/update":
    case "tasks/cancel":
      return tasksMethod(msg.method, params, hasTasks);
    default:
      throw new RpcError(METHOD_NOT_FOUND, `Method not found: ${msg.method}`);
  }
}

const ok = (result) => ({ status: 200, result: withMeta(result) });

async function toolsCall(params, profile, hasTasks, hasElicitation) {
  if (typeof params.name !== "string") throw new RpcError(INVALID_PARAMS, "params.name must be a string");
  const tool = PROFILES[profile].get(params.name);
  if (!tool) throw new RpcError(INVALID_PARAMS, `Unknown tool: ${params.name}`);
  if (params.arguments !== undefined && !isObject(params.arguments)) {
    throw new RpcError(INVALID_PARAMS, "params.arguments must be an object");
  }
  const args = params.arguments ?? {};
  const outcome = tool.call({ args, hasTasks, hasElicitation, profile, params });
  state.toolCalls.set(params.name, (state.toolCalls.get(params.name) ?? 0) + 1);
  if (outcome.result) return ok({ resultType: "complete", ...(await outcome.result) });
  if (outcome.inputRequired) return ok({ resultType: "input_required", ...outcome.inputRequired });
  // Task creation (ext-tasks "Task Creation"): only reached when THIS request declared the
  // extension. The task is in the map before the response is written ("durably created").
  if (!hasTasks) throw new Error(`${params.name}: task without the extension`);
  const { ttlMs, pollIntervalMs } = taskTiming(args);
  const t = createTask(params.name, profile, ttlMs, pollIntervalMs, outcome.task.statusMessage);
  const created = { resultType: "task", ...taskFields(t) };
  startBody(t, outcome.task.body);
  if (state.faults.dropBeforeCreate > 0) {
    state.faults.dropBeforeCreate -= 1;
    t.responseDropped = "before-create";
    return { raw: (res) => res.socket.destroy() };
  }
  if (state.faults.dropAfterCreate > 0) {
    state.faults.dropAfterCreate -= 1;
    t.responseDropped = "after-create";
    return { raw: (res, headers) => dropAfter(res, headers, created) };
  }
  return ok(created);
}

// The CreateTaskResult is written whole as one chunk of a chunked response, then the socket is
// destroyed before the terminating chunk: the client has the JSON but the body never ends.
function dropAfter(res, headers, created) {
  res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store", ...headers });
  res.flushHeaders();
  const msg = JSON.stringify({ jsonrpc: "2.0", id: res.rpcId, result: withMeta(created) });
  res.write(msg, () => setTimeout(() => res.socket?.destroy(), 30));
}

function tasksMethod(method, params, hasTasks) {
  // ext-tasks "Protocol Errors": non-declaring clients get -32021 on tasks/get|update|cancel.
  if (!hasTasks) {
    throw new RpcError(MISSING_CAPABILITY, "Missing required client capability", {
      requiredCapabilities: { extensions: { [TASKS_EXT]: {} } },
    });
  }
  if (typeof params.taskId !== "string") throw new RpcError(INVALID_PARAMS, "params.taskId must be a string");
  if (method === "tasks/get") {
    const t = findTask(params.taskId, "retrieve");
    return ok({ resultType: "complete", ...detailedTask(t) });
  }
  if (method === "tasks/update") {
    if (!isObject(params.inputResponses)) throw new RpcError(INVALID_PARAMS, "params.inputResponses must be an object");
    const t = findTask(params.taskId, "update");
    applyInputResponses(t, params.inputResponses);
    return ok({ resultType: "complete" });
  }
  const t = findTask(params.taskId, "cancel");
  if (!TERMINAL.has(t.status)) {
    // Cooperative cancellation, honoured at once: the body's pending sleep/ask is aborted.
    t.status = "cancelled";
    t.statusMessage = "cancelled by tasks/cancel";
    t.inputRequests.clear();
    touch(t);
    t.abort.abort();
  }
  return ok({ resultType: "complete" });
}

// ext-tasks "Task Update Requests": responses to keys not currently outstanding are ignored;
// a partial set leaves the task input_required with the remaining keys.
function applyInputResponses(t, responses) {
  const accepted = [];
  for (const [key, value] of Object.entries(responses)) {
    if (!t.inputRequests.has(key)) {
      t.ignoredInputResponses += 1;
      continue;
    }
    const req = t.inputRequests.get(key);
    if (req.method === "elicitation/create" && !(isObject(value) && ["accept", "decline", "cancel"].includes(value.action))) {
      throw new RpcError(INVALID_PARAMS, `inputResponses.${key} is not an ElicitResult (action accept | decline | cancel)`);
    }
    accepted.push([key, value]);
  }
  if (accepted.length === 0) return;
  for (const [key, value] of accepted) {
    t.inputRequests.delete(key);
    if (t.waiter) t.waiter.answers[key] = value;
  }
  touch(t);
  if (t.inputRequests.size === 0 && t.waiter) {
    const { resolve, answers } = t.waiter;
    t.waiter = null;
    t.status = "working";
    t.statusMessage = "processing input";
    resolve(answers);
  }
}

// ---- admin ------------------------------------------------------------------------------------

function adminTasks() {
  return {
    tasks: [...state.tasks.values()].map((t) => ({
      taskId: t.taskId,
      tool: t.tool,
      status: t.status,
      executions: t.executions,
      profile: t.profile,
      ignoredInputResponses: t.ignoredInputResponses,
      responseDropped: t.responseDropped,
    })),
    toolCalls: Object.fromEntries(state.toolCalls),
    pendingFaults: { ...state.faults },
  };
}

function adminFault(body) {
  const f = isObject(body) ? body : {};
  const count = clamp(f.count ?? f.n, 1, 0, 1_000_000);
  switch (f.kind) {
    case "drop-after-create":
      state.faults.dropAfterCreate = count;
      return { ok: true, pendingFaults: { ...state.faults } };
    case "drop-before-create":
      state.faults.dropBeforeCreate = count;
      return { ok: true, pendingFaults: { ...state.faults } };
    case "503-next-polls":
      state.faults.polls503 = count;
      return { ok: true, pendingFaults: { ...state.faults } };
    case "forget":
    case "expire": {
      if (!state.tasks.has(f.taskId)) return { status: 404, body: { error: `no such task: ${f.taskId}` } };
      purge(f.taskId, f.kind === "expire" ? "expired" : "forgotten");
      return { ok: true };
    }
    default:
      return { status: 400, body: { error: `unknown fault kind: ${JSON.stringify(f.kind)}` } };
  }
}

function reset() {
  for (const id of [...state.tasks.keys()]) purge(id, "reset");
  state.log.length = 0;
  state.violations.length = 0;
  state.tombstones.clear();
  state.toolCalls.clear();
  state.counted.clear();
  state.faults = { dropAfterCreate: 0, dropBeforeCreate: 0, polls503: 0 };
}

// ---- server -----------------------------------------------------------------------------------

async function handle(req, res) {
  const cors = corsHeaders(req);
  const url = new URL(req.url, "http://127.0.0.1");
  if (req.method === "OPTIONS") {
    res.writeHead(204, cors);
    res.end();
    return;
  }
  const profile = url.pathname === "/mcp" ? "ext" : url.pathname === "/mcp-conformance" ? "suite" : null;
  const isAdmin = url.pathname.startsWith("/admin/");
  if (!profile && !isAdmin) {
    sendJson(res, 404, { error: "no such route" }, cors);
    return;
  }
  if (req.method === "GET" && isAdmin) {
    if (url.pathname === "/admin/log") return sendJson(res, 200, state.log, cors);
    if (url.pathname === "/admin/violations") return sendJson(res, 200, state.violations, cors);
    if (url.pathname === "/admin/tasks") return sendJson(res, 200, adminTasks(), cors);
    if (url.pathname === "/admin/executions") {
      const prefix = url.searchParams.get("prefix") ?? "";
      const out = {};
      for (const [k, n] of state.counted) if (k.startsWith(prefix)) out[k] = n;
      return sendJson(res, 200, out, cors);
    }
    return sendJson(res, 404, { error: "no such route" }, cors);
  }
  if (req.method !== "POST") {
    // A 2026-only server answers GET/DELETE on the MCP endpoint with 405 (streamable-http).
    res.writeHead(405, { allow: "POST, OPTIONS", ...cors });
    res.end();
    return;
  }
  const raw = await readBody(req);
  if (raw === null) {
    sendJson(res, 413, { jsonrpc: "2.0", id: null, error: { code: INVALID_REQUEST, message: `Request body larger than ${MAX_BODY} bytes` } }, { connection: "close", ...cors });
    return;
  }
  if (isAdmin) {
    let body = {};
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      return sendJson(res, 400, { error: "body is not JSON" }, cors);
    }
    if (url.pathname === "/admin/reset") {
      reset();
      return sendJson(res, 200, { ok: true }, cors);
    }
    if (url.pathname === "/admin/fault") {
      const out = adminFault(body);
      return sendJson(res, out.status ?? 200, out.body ?? out, cors);
    }
    return sendJson(res, 404, { error: "no such route" }, cors);
  }

  let msg;
  try {
    msg = JSON.parse(raw);
  } catch {
    return sendJson(res, 400, rpcErrorBody(null, new RpcError(PARSE_ERROR, "Parse error")), cors);
  }
  if (isObject(msg) && typeof msg.method === "string") {
    const h = req.headers;
    bounded(state.log, MAX_LOG, {
      method: msg.method,
      id: msg.id,
      params: msg.params,
      headers: {
        "mcp-method": h["mcp-method"] ?? null,
        "mcp-name": h["mcp-name"] ?? null,
        "mcp-protocol-version": h["mcp-protocol-version"] ?? null,
      },
      path: url.pathname,
    });
  }
  const validId = (id) => typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
  if (!isObject(msg) || msg.jsonrpc !== "2.0" || typeof msg.method !== "string" || ("id" in msg && !validId(msg.id))) {
    const id = isObject(msg) && validId(msg.id) ? msg.id : null;
    return sendJson(res, 400, rpcErrorBody(id, new RpcError(INVALID_REQUEST, "Invalid Request: one JSON-RPC 2.0 request or notification per POST")), cors);
  }
  if (!("id" in msg)) {
    // Notifications: accepted (streamable-http "Sending Messages": 202, no body).
    res.writeHead(202, cors);
    res.end();
    return;
  }
  if (msg.method === "tasks/get" && state.faults.polls503 > 0) {
    state.faults.polls503 -= 1;
    res.writeHead(503, { "retry-after": "1", "content-length": "0", ...cors });
    res.end();
    return;
  }
  let out;
  try {
    out = await dispatch(req, msg, profile, url.pathname);
  } catch (e) {
    if (!(e instanceof RpcError)) {
      process.stderr.write(`tasks2026: ${e.stack ?? e}\n`);
      e = new RpcError(INTERNAL_ERROR, "Internal error");
    }
    return sendJson(res, STATUS_FOR_CODE.get(e.code) ?? 200, rpcErrorBody(msg.id, e), cors);
  }
  if (out.raw) {
    res.rpcId = msg.id;
    return out.raw(res, cors);
  }
  sendJson(res, out.status, { jsonrpc: "2.0", id: msg.id, result: out.result }, cors);
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((e) => {
    process.stderr.write(`tasks2026: ${e.stack ?? e}\n`);
    res.destroy();
  });
});
server.keepAliveTimeout = 1000;
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(JSON.stringify({ port: server.address().port }) + "\n");
});
process.stdin.on("end", () => process.exit(0));
process.stdin.on("close", () => process.exit(0));
process.stdin.on("error", () => process.exit(0));
process.stdin.resume();
