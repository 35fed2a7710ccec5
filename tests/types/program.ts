// A typed program over the whole public surface of the `mcp-edge` package, as a TypeScript user
// writes it. Two checks come out of it (tests/types/run.sh runs both):
//
// 1. `tsc --strict --noEmit` of this file against the package's declarations: every member,
//    option and event it uses must be declared with the type it is used at. The tables below
//    (`Record<keyof McpClient, true>`, `Required<ConnectOptions>`, `Record<PoolEvent["type"],
//    true>`, ...) do not compile unless they list *every* declared member, option and event, so
//    a declaration added without being exercised here fails the check.
// 2. Run in Node against the real test servers: each value the package hands back (results,
//    getters, events, traffic records, handler arguments, errors) is recorded with the declared
//    type it must have; run.sh writes them as `const x: <type> = <value>;` and compiles that with
//    tsc, so a runtime shape the declarations do not describe (a missing field, an undeclared
//    one, a null where a string is declared) fails. At the end, every declared member must have
//    been touched, every declared event and handler must have fired.
//
// Environment (run.sh sets it): EVERYTHING_URL, PY2026_URL, PY2026_ADMIN_URL, FIXTURE_URL,
// FIXTURE_DEAD_URL, OBSERVED_OUT (where the observations go); for OAuth, the servers of
// tests/servers/auth (AUTH_ISSUER, AUTH_PY_URL, AUTH_NODE_URL, AUTH_CC_*) and AUTH_PERSON_MODULE,
// the module that plays the person of a sign-in (tests/servers/auth/person.mjs).

import * as pkg from "mcp-edge";
import type * as M from "mcp-edge";
import { writeFileSync } from "node:fs";

// ---- what must be covered (each table fails to compile when the declarations change) ----------

/** Every value export of the package (`default` is Node's CommonJS interop object). */
const EXPORTS: Record<Exclude<keyof typeof pkg, "default">, true> = {
  McpClient: true, McpPool: true, McpApp: true, toolUi: true, isMcpError: true, toolNames: true, openAuthorizationPopup: true, browserStorage: true,
};
/** Every static member of McpClient. */
const CLIENT_STATICS: Record<Exclude<keyof typeof pkg.McpClient, "prototype">, true> = {
  connect: true, restore: true, signIn: true, completeAuthorization: true,
};
/** Every instance member of McpClient. */
const CLIENT_MEMBERS: Record<keyof M.McpClient, true> = {
  free: true, snapshot: true, serverInfo: true, protocolVersion: true, era: true, instructions: true,
  capabilities: true, sessionId: true, listTools: true, getTool: true, callTool: true, listResources: true,
  listResourceTemplates: true, readResource: true, listPrompts: true, getPrompt: true, complete: true,
  request: true, subscribe: true, notifications: true, droppedNotifications: true, close: true,
  auth: true, signOut: true, extensions: true, tasks: true, resumeTask: true, listTasks: true,
};
/** Every instance member of McpPool. */
const POOL_MEMBERS: Record<keyof M.McpPool, true> = {
  free: true, connectAll: true, status: true, tools: true, instructions: true, tokenEstimates: true,
  call: true, reconnect: true, acceptTool: true, close: true, prompts: true, resources: true, toolInfo: true, heldTools: true, pins: true,
  deferral: true, searchTools: true, searchAnswer: true, approveServer: true, rejectServer: true,
};
/** Every event the declarations promise; each must be emitted during the run. */
const NOTIFICATION_TYPES: Record<M.Notification["type"], true> = {
  notification: true, progress: true, diagnostic: true, toolRejected: true, connected: true, inputCancelled: true, closed: true,
  gap: true,
  signedIn: true,
};
const POOL_EVENT_TYPES: Record<M.PoolEvent["type"], true> = {
  state: true, attemptAborted: true, projectEntryIgnored: true, listChanged: true, toolCount: true, toolChanged: true, toolRejected: true, toolsChanged: true,
  approvalRequired: true, configRejected: true, gap: true,
};
const TRAFFIC_TYPES: Record<M.TrafficRecord["type"], true> = { request: true, head: true, body: true, end: true };
/** Every callback option; each must be called during the run. */
type Callback =
  | "fetch" | "onElicitation" | "onSampling" | "onRoots" | "onTraffic" | "onEvent" | "onProgress"
  | `auth.${"onAuthorizationUrl" | "fetch"}` | `pool.auth.${"onAuthorizationUrl" | "fetch"}` | `storage.${keyof M.AuthStorage}`;
const CALLBACKS: Record<Callback, true> = {
  fetch: true, onElicitation: true, onSampling: true, onRoots: true, onTraffic: true, onEvent: true, onProgress: true,
  "auth.onAuthorizationUrl": true, "auth.fetch": true, "pool.auth.onAuthorizationUrl": true, "pool.auth.fetch": true,
  "storage.get": true, "storage.put": true, "storage.delete": true, "storage.dpopKey": true,
};
/** Every export format of `McpPool.tools`. */
const FORMATS: Record<M.ToolFormat, true> = { openai: true, "openai-responses": true, anthropic: true, mcp: true };

// ---- recording --------------------------------------------------------------------------------

/** One runtime value and the declared type (a TypeScript type expression over `M`) it must have. */
interface Observation { type: string; where: string; value: unknown }
const observations: Observation[] = [];
const perKey = new Map<string, number>();
/** At most this many values per (type, where, discriminant): traffic and progress repeat a lot. */
const MAX_PER_KEY = 20;

function observe(type: string, where: string, value: unknown): void {
  const tag = value !== null && typeof value === "object" && "type" in value ? String((value as { type: unknown }).type) : "";
  const key = `${type}|${where}|${tag}`;
  const n = perKey.get(key) ?? 0;
  if (n >= MAX_PER_KEY) return;
  perKey.set(key, n + 1);
  observations.push({ type, where, value });
}

/** An error as plain data: its own enumerable fields plus `name` and `message`. */
function errorData(e: unknown): unknown {
  if (!(e instanceof Error)) return { notAnError: String(e) };
  return { ...Object.fromEntries(Object.entries(e)), name: e.name, message: e.message };
}

const emitted = new Set<string>();
const touched = new Set<string>();

/**
 * A view of `target` that records which of its members the program reads. Methods of an instance
 * are bound to the instance itself; classes and module members are handed out as they are.
 */
function tracked<T extends object>(label: string, target: T, instance = false): T {
  return new Proxy(target, {
    get(t, key) {
      if (typeof key === "string") touched.add(`${label}.${key}`);
      const v: unknown = Reflect.get(t, key, t);
      return instance && typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(t) : v;
    },
  });
}

const failures: string[] = [];
function check(ok: boolean, what: string): void {
  if (!ok) failures.push(what);
}

/** Awaits `p`, which must reject with an McpError; records the error's shape; returns its code. */
async function rejection(where: string, p: Promise<unknown> | (() => unknown)): Promise<string> {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (e) {
    check(api.isMcpError(e), `${where}: rejected with a non-McpError: ${String(e)}`);
    observe("M.McpError", where, errorData(e));
    return api.isMcpError(e) ? e.code : "";
  }
  failures.push(`${where}: did not reject`);
  return "";
}

function env(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set (run tests/types/run.sh)`);
  return v;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Waits until `done()` holds, at most `ms` (a bound on an asynchronous event, not a timing test). */
async function until(done: () => boolean, ms: number): Promise<boolean> {
  for (let waited = 0; !done() && waited < ms; waited += 50) await sleep(50);
  return done();
}

// ---- the program ------------------------------------------------------------------------------

const api = tracked("module", pkg);
const EVERYTHING = env("EVERYTHING_URL");
const PY = env("PY2026_URL");
const PY_ADMIN = env("PY2026_ADMIN_URL");
const FIXTURE = env("FIXTURE_URL");
const DEAD = env("FIXTURE_DEAD_URL");
const AUTH_ISSUER = env("AUTH_ISSUER");
const AUTH_PY = env("AUTH_PY_URL");
const AUTH_NODE = env("AUTH_NODE_URL");
const REDIRECT = "http://127.0.0.1:9/oauth/callback";

/** An AuthStorage over a Map: every method records that it was called (`storage.<method>`). */
function storage(map = new Map<string, string>()): M.AuthStorage {
  return {
    get: (key: string): Promise<string | null> => {
      emitted.add("callback:storage.get");
      return Promise.resolve(map.get(key) ?? null);
    },
    put: (key: string, value: string): void => {
      emitted.add("callback:storage.put");
      map.set(key, value);
    },
    delete: (key: string): Promise<void> => {
      emitted.add("callback:storage.delete");
      map.delete(key);
      return Promise.resolve();
    },
    dpopKey: async (generate: () => Promise<M.DpopKeyPair>): Promise<M.DpopKeyPair> => {
      emitted.add("callback:storage.dpopKey");
      const pair = keys.get(map) ?? (await generate());
      keys.set(map, pair);
      return pair;
    },
  };
}
/** The DPoP key pair kept for each storage map (as browserStorage keeps one in IndexedDB). */
const keys = new WeakMap<Map<string, string>, M.DpopKeyPair>();

/** Plays the person of a sign-in at the test provider (tests/servers/auth/person.mjs). */
async function signInAs(url: string, login: string): Promise<string> {
  const person = (await import(env("AUTH_PERSON_MODULE"))) as { signInAs: (url: string, login: string) => Promise<string> };
  return person.signInAs(url, login);
}

/** The options every client of the program gets: every ConnectOptions member, typed as declared. */
function connectOptions(where: string, protocol: M.ProtocolChoice, elicit?: M.ConnectOptions["onElicitation"]): Required<M.ConnectOptions> {
  return {
    headers: { "X-Typed-Program": "1" },
    protocol,
    timeoutMs: 30_000,
    maxTotalTimeoutMs: 120_000,
    fetch: (input: string, init: RequestInit): Promise<Response> => {
      emitted.add("callback:fetch");
      check(typeof input === "string", `${where}: fetch got a ${typeof input} URL`);
      check(typeof init === "object" && typeof init.method === "string", `${where}: fetch init without a method`);
      return fetch(input, init);
    },
    clientInfo: { name: "mcp-edge-typed-program", version: "1.0.0", title: "typed program" },
    capabilities: { experimental: { typedProgram: {} } },
    openGetStream: true,
    maxEventBytes: 8 << 20,
    maxBodyBytes: 16 << 20,
    onElicitation:
      elicit ??
      ((params: M.ElicitRequestParams, extra: { defaults: M.JsonObject }): M.ElicitResult => {
        emitted.add("callback:onElicitation");
        observe("M.ElicitRequestParams", `${where} onElicitation`, params);
        observe("{ defaults: M.JsonObject }", `${where} onElicitation extra`, extra);
        const content: M.JsonObject = { ...extra.defaults };
        const props = params.requestedSchema?.properties;
        if (props && typeof props === "object" && !Array.isArray(props)) {
          for (const [k, s] of Object.entries(props)) {
            if (k in content || !s || typeof s !== "object" || Array.isArray(s)) continue;
            const t = s.type;
            content[k] = t === "boolean" ? true : t === "number" || t === "integer" ? 1 : Array.isArray(s.enum) && s.enum.length ? s.enum[0] : "typed";
          }
        }
        return { action: "accept", content };
      }),
    onSampling: async (params: M.CreateMessageParams): Promise<M.CreateMessageResult> => {
      emitted.add("callback:onSampling");
      observe("M.CreateMessageParams", `${where} onSampling`, params);
      return { role: "assistant", content: { type: "text", text: "sampled by the typed program" }, model: "typed-program", stopReason: "endTurn" };
    },
    onRoots: (params: M.JsonObject): M.ListRootsResult => {
      emitted.add("callback:onRoots");
      observe("M.JsonObject", `${where} onRoots`, params);
      return { roots: [{ uri: "file:///tmp/typed-program", name: "typed" }] };
    },
    onTraffic: (record: M.TrafficRecord): void => {
      emitted.add("callback:onTraffic");
      emitted.add(`traffic:${record.type}`);
      observe("M.TrafficRecord", `${where} onTraffic`, record);
    },
    // Inert against a server that asks for no token (no 401): the stored tokens are looked up.
    auth: { redirectUri: REDIRECT, storage: storage() },
    extensions: { "com.example/typed-program": { version: 1 } },
    tasks: true,
    maxTaskWaitMs: 600_000,
  };
}

/** Reads a client's notifications in the background until `closed`; returns what it saw. */
function follow(where: string, client: M.McpClient): { seen: M.Notification[]; done: Promise<void> } {
  const seen: M.Notification[] = [];
  const it: AsyncIterableIterator<M.Notification> = client.notifications();
  const done = (async () => {
    for await (const n of it) {
      emitted.add(`notification:${n.type}`);
      observe("M.Notification", `${where} notifications()`, n);
      seen.push(n);
      if (n.type === "closed") break;
    }
  })();
  return { seen, done };
}

function callOptions(where: string, signal: AbortSignal): Required<M.CallOptions> {
  return {
    signal,
    onProgress: (p: M.Progress): void => {
      emitted.add("callback:onProgress");
      observe("M.Progress", `${where} onProgress`, p);
    },
    timeoutMs: 60_000,
    idempotent: false,
    traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    tracestate: "typed=1",
    baggage: "program=typed",
    logLevel: "warning",
    task: "auto",
  };
}

async function everythingClient(): Promise<void> {
  const where = "McpClient (server-everything, 2025-11-25)";
  const Client = tracked("McpClient", api.McpClient);
  const options = connectOptions(where, "2025-11-25");
  const client = tracked("client", await Client.connect(EVERYTHING, options), true);
  const notes = follow(where, client);

  observe("M.Implementation | null", `${where} serverInfo`, client.serverInfo);
  observe("string", `${where} protocolVersion`, client.protocolVersion);
  observe('"modern" | "legacy"', `${where} era`, client.era);
  observe("string | undefined", `${where} instructions`, client.instructions);
  observe("M.JsonObject | null", `${where} capabilities`, client.capabilities);
  observe("string | undefined", `${where} sessionId`, client.sessionId);
  check(client.era === "legacy" && typeof client.sessionId === "string", `${where}: a 2025 session with an id`);

  const tools: M.Tool[] = await client.listTools({ timeoutMs: 30_000 });
  observe("M.Tool[]", `${where} listTools`, tools);
  const names = new Set(tools.map((t) => t.name));
  for (const n of ["echo", "trigger-long-running-operation", "trigger-elicitation-request", "trigger-sampling-request", "get-roots-list"]) {
    check(names.has(n), `${where}: server-everything lists ${n}`);
  }
  // MCP Apps: a tool without a ui:// view is refused with its code, before any DOM is touched
  // (the views themselves are tested in Chromium, tests/browser/apps.test.mjs).
  const ui: M.ToolUi = api.toolUi(tools.find((t) => t.name === "echo")!);
  check(ui.resourceUri === null && ui.visibility.join() === "model,app", `${where}: toolUi of a tool without a view: ${JSON.stringify(ui)}`);
  const App = tracked("McpApp", api.McpApp);
  const notAnApp = await App.open(client, "echo", { container: { appendChild: () => undefined }, sandboxUrl: "http://127.0.0.1:9/mcp-app-sandbox.html" })
    .then(() => "opened", (e: unknown) => (api.isMcpError(e) ? e.code : String(e)));
  check(notAnApp === "NOT_AN_APP", `${where}: McpApp.open of a tool without a view: ${notAnApp}`);
  observe("M.Tool | undefined", `${where} getTool`, client.getTool("echo"));
  observe("M.Tool | undefined", `${where} getTool (unknown)`, client.getTool("no-such-tool"));

  const ac = new AbortController();
  const echo: M.CallToolResult = await client.callTool("echo", { message: "typed" }, callOptions(where, ac.signal));
  observe("M.CallToolResult", `${where} callTool echo`, echo);
  const long = await client.callTool("trigger-long-running-operation", { duration: 1, steps: 2 }, callOptions(where, ac.signal));
  observe("M.CallToolResult", `${where} callTool long-running`, long);
  // A tool that runs as a task (2025-11-25): status reports arrive as Progress with `task`.
  const reports: M.TaskInfo[] = [];
  const research = await client.callTool("simulate-research-query", { topic: "types" }, {
    ...callOptions(where, ac.signal),
    onProgress: (p: M.Progress): void => {
      emitted.add("callback:onProgress");
      observe("M.Progress", `${where} onProgress (task)`, p);
      if (p.task) reports.push(p.task);
    },
  });
  observe("M.CallToolResult", `${where} callTool simulate-research-query`, research);
  check(reports.length > 0 && reports.every((t) => t.shape === "2025-11-25"), `${where}: task status reports`);
  observe("M.TaskInfo[]", `${where} tasks`, client.tasks());
  const kept: M.JsonObject[] = await client.listTasks();
  observe("M.JsonObject[]", `${where} listTasks`, kept);
  check(kept.some((t) => t.taskId === reports[0]?.taskId), `${where}: tasks/list names the task`);
  observe("{ client: Record<string, M.JsonObject>; server: Record<string, M.JsonObject> }", `${where} extensions`, client.extensions);
  check("com.example/typed-program" in client.extensions.client, `${where}: declared extensions`);
  const last = reports.at(-1);
  if (last) {
    const again = await client.resumeTask(last).catch((e: unknown) => e);
    if (api.isMcpError(again)) emitted.add(`error:${again.code}`);
    else observe("M.CallToolResult", `${where} resumeTask`, again as M.CallToolResult);
  }
  for (const tool of ["trigger-elicitation-request", "trigger-sampling-request", "get-roots-list", "get-tiny-image", "get-resource-links", "get-resource-reference", "get-structured-content", "get-annotated-message"]) {
    if (!names.has(tool)) continue;
    const schema = client.getTool(tool)?.inputSchema;
    const args: M.JsonObject = {};
    const props = schema?.properties;
    if (props && typeof props === "object" && !Array.isArray(props)) {
      for (const [k, s] of Object.entries(props)) {
        if (!s || typeof s !== "object" || Array.isArray(s)) continue;
        if (Array.isArray(s.enum) && s.enum.length) args[k] = s.enum[0];
        else if (s.type === "number" || s.type === "integer") args[k] = 1;
        else if (s.type === "string") args[k] = "typed";
        else if (s.type === "boolean") args[k] = false;
      }
    }
    observe("M.CallToolResult", `${where} callTool ${tool}`, await client.callTool(tool, args));
  }

  const resources: M.Resource[] = await client.listResources();
  observe("M.Resource[]", `${where} listResources`, resources);
  observe("M.ResourceTemplate[]", `${where} listResourceTemplates`, await client.listResourceTemplates());
  const doc = resources.find((r) => r.uri.endsWith("features.md")) ?? resources[0];
  check(doc !== undefined, `${where}: a resource to read`);
  if (doc) {
    const read = await client.readResource(doc.uri, { signal: ac.signal, timeoutMs: 30_000 });
    observe("Awaited<ReturnType<M.McpClient['readResource']>>", `${where} readResource`, read);
  }
  const prompts: M.Prompt[] = await client.listPrompts();
  observe("M.Prompt[]", `${where} listPrompts`, prompts);
  const prompt = await client.getPrompt("args-prompt", { city: "Paris", state: "TX" }, { timeoutMs: 30_000 });
  observe("Awaited<ReturnType<M.McpClient['getPrompt']>>", `${where} getPrompt`, prompt);
  const completed = await client.complete({ type: "ref/prompt", name: "completable-prompt" }, { name: "department", value: "E" }, { arguments: {} }).catch((e: unknown) => {
    // Not every server-everything prompt is completable: a JSON-RPC error is a typed McpError too.
    observe("M.McpError", `${where} complete (rejected)`, errorData(e));
    return null;
  });
  if (completed) observe("Awaited<ReturnType<M.McpClient['complete']>>", `${where} complete`, completed);
  observe("M.JsonObject", `${where} request ping`, await client.request("ping", {}, { timeoutMs: 10_000 }));
  if (doc) {
    const sub = await client.subscribe({ resourceSubscriptions: [doc.uri] }, { signal: ac.signal });
    observe("M.JsonObject | null", `${where} subscribe`, sub);
  }

  const rpc = await rejection(`${where} request (unknown method)`, client.request("no/such/method", {}));
  check(rpc === "RPC", `${where}: an unknown method is an RPC error (got ${rpc})`);
  const timedOut = await rejection(
    `${where} callTool (timeout)`,
    client.callTool("trigger-long-running-operation", { duration: 5, steps: 5 }, { timeoutMs: 300 }),
  );
  check(timedOut === "TIMEOUT", `${where}: a call past timeoutMs is TIMEOUT (got ${timedOut})`);
  const abort = new AbortController();
  const aborted = client.callTool("trigger-long-running-operation", { duration: 5, steps: 5 }, { signal: abort.signal });
  setTimeout(() => abort.abort(), 200);
  const abortedCode = await rejection(`${where} callTool (aborted)`, aborted);
  check(abortedCode === "ABORTED", `${where}: an aborted call is ABORTED (got ${abortedCode})`);
  await rejection(`${where} callTool (bad arguments)`, () => client.callTool("echo", [1, 2] as unknown as M.JsonObject));

  const snapshot: M.ClientSnapshot = client.snapshot();
  observe("M.ClientSnapshot", `${where} snapshot`, snapshot);
  const restored = tracked("client", Client.restore(EVERYTHING, snapshot, { protocol: "2025-11-25", openGetStream: false }), true);
  check(restored.sessionId === client.sessionId, `${where}: restore keeps the session id`);
  observe("M.CallToolResult", `${where} restored callTool`, await restored.callTool("echo", { message: "restored" }));
  restored.free();

  await client.close();
  await notes.done;
  const closedCode = await rejection(`${where} callTool (closed)`, client.callTool("echo", { message: "late" }));
  check(closedCode === "CLOSED", `${where}: a call after close is CLOSED (got ${closedCode})`);
  client.free();
}

/** The 2026-07-28 Python server: tool rejection events, MRTR input withdrawn by an abort. */
async function pythonModernClient(): Promise<void> {
  const where = "McpClient (Python, 2026-07-28)";
  let asked: () => void = () => {};
  const askedOnce = new Promise<void>((r) => (asked = r));
  // An elicitation the "user" never answers: the call is aborted while it is open.
  const pending = (params: M.ElicitRequestParams, extra: { defaults: M.JsonObject }): Promise<M.ElicitResult> => {
    emitted.add("callback:onElicitation");
    observe("M.ElicitRequestParams", `${where} onElicitation`, params);
    observe("{ defaults: M.JsonObject }", `${where} onElicitation extra`, extra);
    asked();
    return new Promise<M.ElicitResult>(() => {});
  };
  const client = tracked("client", await api.McpClient.connect(PY, connectOptions(where, "auto", pending)), true);
  const notes = follow(where, client);
  check(client.era === "modern" && client.protocolVersion === "2026-07-28", `${where}: modern era`);
  observe("string | undefined", `${where} instructions`, client.instructions);
  observe("M.Tool[]", `${where} listTools`, await client.listTools());
  const add = await client.callTool("add", { a: 2, b: 40 });
  observe("M.CallToolResult", `${where} callTool add`, add);
  check(add.structuredContent?.sum === 42, `${where}: structuredContent.sum`);
  observe("M.CallToolResult", `${where} callTool fail`, await client.callTool("fail", {}));
  observe("M.CallToolResult", `${where} callTool slow_progress`, await client.callTool("slow_progress", { steps: 2, delay_ms: 50 }, callOptions(where, new AbortController().signal)));

  const abort = new AbortController();
  const mrtr = client.callTool("mrtr_twice", {}, { signal: abort.signal });
  await askedOnce;
  abort.abort();
  const code = await rejection(`${where} callTool mrtr_twice (aborted while the input is open)`, mrtr);
  check(code === "ABORTED", `${where}: aborted MRTR call (got ${code})`);

  // subscriptions/listen: resolves when aborted (with an ABORTED rejection).
  const listen = new AbortController();
  const sub = client.subscribe({ toolsListChanged: true, promptsListChanged: false, resourcesListChanged: false }, { signal: listen.signal });
  await until(() => notes.seen.some((n) => n.type === "notification" && n.method === "notifications/subscriptions/acknowledged"), 10_000);
  listen.abort();
  await rejection(`${where} subscribe (aborted)`, sub);
  await client.close();
  await notes.done;
  client.free();
}

/** A 2025 session the server ends: the client re-initializes and says so (a diagnostic). */
async function pythonLegacyClient(): Promise<void> {
  const where = "McpClient (Python, 2025-11-25)";
  const client = tracked("client", await api.McpClient.connect(`${PY}?typed=legacy`, connectOptions(where, "2025-11-25")), true);
  const notes = follow(where, client);
  observe("M.CallToolResult", `${where} callTool echo`, await client.callTool("echo", { message: "before" }));
  const r = await fetch(PY_ADMIN, { method: "POST" });
  check(r.ok, `${where}: the admin route ended the sessions`);
  await r.arrayBuffer();
  observe("M.CallToolResult", `${where} callTool echo after 404`, await client.callTool("echo", { message: "after" }));
  await client.close();
  await notes.done;
  client.free();
}

/**
 * The fixture's misbehaving 2026 endpoint: the typed errors of faults (an oversized event, a
 * stream that breaks after the server took a tool call, 429 with Retry-After until the retries
 * are used up), and a `gap` item where a request's own stream overflowed the notification queue.
 */
async function faultyServer(): Promise<void> {
  const where = "McpClient (fixture, faults)";
  const client = tracked("client", await api.McpClient.connect(`${FIXTURE}/mcp-faulty`, { maxEventBytes: 4096, maxBodyBytes: 1 << 20 }), true);
  const big = await rejection(`${where} callTool oversized`, client.callTool("oversized", { tag: `typed-${Date.now()}` }));
  check(big === "EVENT_TOO_LARGE", `${where}: an event over maxEventBytes is EVENT_TOO_LARGE (got ${big})`);
  const dropped = await rejection(`${where} callTool drop_me`, client.callTool("drop_me", {}, { idempotent: false }));
  check(dropped === "STREAM_DROPPED", `${where}: a broken stream is STREAM_DROPPED (got ${dropped})`);
  const throttled = await rejection(`${where} callTool throttled`, client.callTool("throttled", { key: `typed-${Date.now()}`, times: 100 }));
  check(throttled === "HTTP_STATUS", `${where}: 429 after the retries is HTTP_STATUS (got ${throttled})`);
  // The same failure through a pool is a flat result whose error has the McpError's shape: a 500
  // without Retry-After carries no `retryAfterMs` (not even null).
  const faultyPool = new api.McpPool({ mcpServers: { faulty: { url: `${FIXTURE}/mcp-faulty` } } });
  await faultyPool.connectAll();
  const failed: M.FlatToolResult = await faultyPool.call("mcp__faulty__throttled", { bare: true });
  observe("M.FlatToolResult", `${where} pool call (500)`, failed);
  check(failed.isError && failed.error?.code === "HTTP_STATUS" && failed.error.status === 500 && !("retryAfterMs" in failed.error), `${where}: a pool call's 500 is HTTP_STATUS without retryAfterMs (got ${JSON.stringify(failed.error)})`);
  await faultyPool.close();
  faultyPool.free();

  const it: AsyncIterableIterator<M.Notification> = client.notifications();
  for (;;) {
    // Empty the queue of what the listing reported (the broken_schema diagnostic).
    const next = await Promise.race([it.next(), sleep(300).then(() => null)]);
    if (next === null) break;
  }
  // 2000 progress notifications in one write, while nobody reads the iterator: it overflows.
  const burst = await client.callTool("progress_burst", { count: 2000 }, { onProgress: () => {} });
  observe("M.CallToolResult", `${where} callTool progress_burst`, burst);
  const first = await it.next();
  observe("M.Notification", `${where} notifications() after the burst`, first.value);
  if (!first.done && first.value.type === "gap") emitted.add("notification:gap");
  check(!first.done && first.value.type === "gap" && first.value.dropped > 0, `${where}: the overflow is a gap item first`);
  const lost: number = client.droppedNotifications;
  observe("number", `${where} droppedNotifications`, lost);
  check(lost > 0, `${where}: droppedNotifications counts the loss`);
  await it.return?.();
  await client.close();
  client.free();
}

async function clientErrors(): Promise<void> {
  const where = "McpClient.connect errors";
  const bad = await rejection(`${where} (ftp URL)`, () => api.McpClient.connect("ftp://example/mcp"));
  check(bad === "INVALID_ARGUMENT", `${where}: a non-HTTP URL is INVALID_ARGUMENT (got ${bad})`);
  const net = await rejection(`${where} (refused)`, api.McpClient.connect(`${DEAD}/mcp`, { timeoutMs: 5000 }));
  check(net === "NETWORK", `${where}: a refused connection is NETWORK (got ${net})`);
  const status = await rejection(`${where} (500)`, api.McpClient.connect(`${FIXTURE}/status/500`, { protocol: "2025-11-25" }));
  check(status !== "", `${where}: an HTTP 500 rejects`);
  await rejection(`${where} (timeoutMs > maxTotalTimeoutMs)`, () => api.McpClient.connect(EVERYTHING, { timeoutMs: 5000, maxTotalTimeoutMs: 10 }));
  await rejection(`${where} (restore of a non-snapshot)`, () => api.McpClient.restore(EVERYTHING, { version: 1 } as M.ClientSnapshot));
  const faulty = await api.McpClient.connect(`${FIXTURE}/mcp-faulty`);
  const rpc = await rejection(`${where} (unknown tool on a spec-following server)`, faulty.callTool("no-such-tool"));
  check(rpc === "RPC", `${where}: -32602 is RPC (got ${rpc})`);
  await faulty.close();
  faulty.free();
  check(!api.isMcpError(new Error("plain")), "isMcpError: a plain Error is not an McpError");
}

async function pool(): Promise<void> {
  const where = "McpPool";
  const events: M.PoolEvent[] = [];
  const base = connectOptions(where, "auto");
  const options: Required<M.PoolOptions> = {
    ...base,
    vars: { EVERYTHING, PY, HANG: `${FIXTURE}/hang` },
    // A setting at pool level is the default of every server whose entry has `auth`: everything's
    // `auth: {}` gets this redirect URI (without one it could not be configured, and would fail).
    auth: { redirectUri: REDIRECT, storage: storage() },
    // The project layer may add servers; its entry for the user's `py` is ignored (not approved);
    // its `null` for `retired`, approved, removes that server.
    // Servers only the project has wait for the host: `proj` is approved below, `proj2` rejected.
    projectConfig: { mcpServers: { py: { url: "http://127.0.0.1:9/elsewhere" }, retired: null, proj: { url: "${PY}?as=proj" }, proj2: { url: "http://127.0.0.1:9/proj2" } } },
    approvedProjectServers: ["retired"],
    policy: { denied: ["blocked", { serverUrl: "http://blocked.invalid/*" }], allowed: ["*", { serverName: "py" }, { serverCommand: ["node"] }, { serverCommand: "node" }] },
    edge: false,
    maxConcurrentConnects: 4,
    connectTimeoutMs: 20_000,
    // A pin from an earlier run that py's `echo` no longer matches: it is held back.
    pins: { py: { echo: "sha256:0000" } },
    toolSearch: { mode: "auto", contextTokens: 200_000, sharePercent: 5, alwaysLoaded: [], style: "native" },
    reconnect: { initialMs: 1000, maxMs: 30_000, multiplier: 2, jitterPercent: 20, maxRetries: 5, maxTotalRetries: 50, stableAfterMs: 60_000, slowMs: 300_000 },
    onEvent: (e: M.PoolEvent): void => {
      emitted.add("callback:onEvent");
      emitted.add(`poolEvent:${e.type}`);
      observe("M.PoolEvent", `${where} onEvent`, e);
      events.push(e);
    },
  };
  const http: Required<Omit<M.ServerEntry, "command" | "args" | "env">> = {
    type: "http",
    url: "${EVERYTHING}",
    headers: { "X-Server-Token": "${TOKEN:-none}" },
    auth: {},
    category: "read",
    autoApprove: ["echo"],
    timeoutMs: 20_000,
    callTimeoutMs: 30_000,
    enabled: true,
    disabled: false,
    protocol: "2025-11-25",
  };
  const stdio: Required<Pick<M.ServerEntry, "command" | "args" | "env">> = { command: "node", args: ["server.js"], env: { MODE: "typed" } };
  const config: M.PoolConfig = {
    mcpServers: {
      everything: http,
      // `type` as configs spell it (checked against `url` / `command`).
      py: { url: "${PY}", type: "streamable-http" },
      hang: { url: "${HANG}", timeoutMs: 1000 },
      local: { ...stdio, type: "stdio" },
      blocked: { url: "http://blocked.invalid/mcp" },
      off: { url: "http://127.0.0.1:9/mcp", enabled: false },
      // One unusable tool (its inputSchema is not an object): reported, left out. "edit" is read
      // as "write".
      flaky: { url: `${FIXTURE}/mcp-flaky?key=typed-${Date.now()}&invalid=1`, category: "edit" },
      retired: { url: "http://127.0.0.1:9/retired" },
    },
  };
  const Pool = tracked("McpPool", api.McpPool);
  const p = tracked("pool", new Pool(config, options), true);

  const status: M.PoolStatus = await p.connectAll();
  observe("M.PoolStatus", `${where} connectAll`, status);
  const state = (name: string) => status.servers.find((s) => s.name === name)?.state;
  check(state("everything") === "connected" && state("py") === "connected", `${where}: both real servers connect`);
  check(state("hang") === "failed", `${where}: the hanging server fails (got ${state("hang")})`);
  check(status.servers.find((s) => s.name === "py")?.projectEntry === "ignored" && events.some((e) => e.type === "projectEntryIgnored" && e.server === "py"), `${where}: the project's py entry is ignored and reported`);
  check(state("local") === "unsupported" && state("blocked") === "disabled" && state("off") === "disabled", `${where}: stdio unsupported, policy and enabled:false disabled`);
  check(state("retired") === undefined, `${where}: the approved project null removes the user's server (got ${state("retired")})`);
  check(state("proj") === "pending-approval" && events.some((e) => e.type === "approvalRequired" && e.server === "proj"), `${where}: a project-only server waits for approval (got ${state("proj")})`);
  const waiting: M.FlatToolResult = await p.call("mcp__proj__add", { a: 1, b: 2 });
  observe("M.FlatToolResult", `${where} call (unapproved server)`, waiting);
  check(waiting.error?.code === "SERVER_UNAVAILABLE" && waiting.error.state === "pending-approval" && waiting.error.server === "proj", `${where}: its tools are SERVER_UNAVAILABLE (got ${JSON.stringify(waiting.error)})`);
  check(p.rejectServer("proj2") === true && p.status().servers.find((s) => s.name === "proj2")?.lastError?.code === "NOT_APPROVED", `${where}: rejectServer keeps proj2 off with NOT_APPROVED`);
  check(p.approveServer("proj") === true && p.approveServer("py") === false, `${where}: approveServer approves proj, and py needed none`);
  check(await until(() => p.status().servers.find((s) => s.name === "proj")?.state === "connected", 20_000), `${where}: the approved server connects`);
  observe("M.PoolStatus", `${where} status`, p.status());

  observe("M.OpenAiTool[]", `${where} tools openai`, p.tools({ format: "openai" }));
  observe("M.OpenAiResponsesTool[]", `${where} tools openai-responses`, p.tools({ format: "openai-responses" }));
  observe("M.AnthropicTool[]", `${where} tools anthropic`, p.tools({ format: "anthropic" }));
  const mcpTools: M.Tool[] = p.tools({ format: "mcp" });
  observe("M.Tool[]", `${where} tools mcp`, mcpTools);
  observe("M.Tool[]", `${where} tools default`, p.tools());
  for (const f of Object.keys(FORMATS) as M.ToolFormat[]) {
    observe("Record<string, number>", `${where} tokenEstimates ${f}`, p.tokenEstimates(f));
  }
  await rejection(`${where} tools (unknown format)`, () => p.tools({ format: "yaml" } as unknown as { format: "mcp" }));

  // Tool search and deferred loading.
  const hits: M.ToolSearchHit[] = p.searchTools("echo a message back", { limit: 3, format: "anthropic" });
  observe("M.ToolSearchHit[]", `${where} searchTools`, hits);
  check(hits.length > 0 && hits[0].tool === "echo" && "input_schema" in hits[0].definition, `${where}: searchTools ranks an echo tool first (${hits.map((h) => h.name).join(", ")})`);
  observe("M.ToolSearchHit[]", `${where} searchTools (servers)`, p.searchTools("echo", { servers: ["py"] }));
  check(p.searchTools("echo", { servers: ["py"] }).every((h) => h.server === "py"), `${where}: searchTools keeps to the servers asked`);
  const badLimit = await rejection(`${where} searchTools (limit 0)`, () => p.searchTools("x", { limit: 0 }));
  check(badLimit === "INVALID_ARGUMENT", `${where}: a limit out of range is INVALID_ARGUMENT (got ${badLimit})`);
  const deferral: M.Deferral = p.deferral({ format: "anthropic" });
  observe("M.Deferral", `${where} deferral`, deferral);
  check(!deferral.deferred && deferral.thresholdTokens === 10_000 && deferral.totalTokens > 0, `${where}: a small catalog is not deferred (${JSON.stringify(deferral)})`);
  const refs = p.searchAnswer({ query: "echo" }, { format: "anthropic" });
  observe("M.ToolReference[]", `${where} searchAnswer anthropic`, refs);
  check(Array.isArray(refs) && refs.length > 0, `${where}: searchAnswer (anthropic) gives tool_reference blocks`);
  observe("M.ToolSearchOutput", `${where} searchAnswer openai-responses`, p.searchAnswer({ query: "echo" }, { format: "openai-responses", callId: "call_1" }));
  const searched: M.FlatToolResult = await p.call("search_tools", { query: "echo" });
  observe("M.FlatToolResult", `${where} call search_tools`, searched);
  check(/mcp__(everything|py)__echo/.test(searched.content[0].text), `${where}: call("search_tools") lists an echo tool`);
  const viaMeta: M.FlatToolResult = await p.call("call_tool", { name: "mcp__everything__echo", arguments: { message: "meta" } });
  check(!viaMeta.isError && viaMeta.content[0].text.includes("meta"), `${where}: call("call_tool") runs the named tool`);

  // Names: the package's own function names the pool's pairs the same way.
  const pairs: [string, string][] = [["everything", "echo"], ["py", "add"], ["a server with spaces", "x".repeat(80)]];
  const named: string[] = api.toolNames(pairs);
  observe("string[]", `${where} toolNames`, named);
  check(named[0] === "mcp__everything__echo" && mcpTools.some((t) => t.name === named[1]), `${where}: toolNames agrees with the pool (${named.join(", ")})`);
  check(named[2].length <= 64, `${where}: toolNames stays within 64 characters`);
  await rejection(`${where} toolNames (not pairs)`, () => api.toolNames([["only-one"]] as unknown as [string, string][]));
  await rejection(`${where} toolNames (not strings)`, () => api.toolNames([["s", 7]] as unknown as [string, string][]));

  const first = p.instructions();
  observe("ReturnType<M.McpPool['instructions']>", `${where} instructions`, first);
  check(first.joined.includes("py") && first.text.includes("<system-reminder>"), `${where}: the Python server's instructions join (joined: ${JSON.stringify(first.joined)})`);
  const again = p.instructions();
  observe("ReturnType<M.McpPool['instructions']>", `${where} instructions (again)`, again);
  check(again.text === "" && again.joined.length === 0, `${where}: instructions are delivered once`);

  const ac = new AbortController();
  const result: M.FlatToolResult = await p.call("mcp__everything__echo", { message: "from the pool" }, callOptions(where, ac.signal));
  observe("M.FlatToolResult", `${where} call`, result);
  check(!result.isError && result.content[0].text.includes("from the pool"), `${where}: call result`);
  observe("M.FlatToolResult", `${where} call (progress)`, await p.call("mcp__py__slow_progress", { steps: 2, delay_ms: 50 }, callOptions(where, ac.signal)));
  // A tool added at runtime: the server says its list changed, the pool fetches it again.
  const runtimeTool = `typed_${Date.now()}`;
  observe("M.FlatToolResult", `${where} call (add_tool)`, await p.call("mcp__py__add_tool", { name: runtimeTool }));
  check(await until(() => events.some((e) => e.type === "listChanged" && e.server === "py" && e.list === "tools"), 10_000), `${where}: a listChanged event after add_tool`);
  check(p.tools().some((t) => t.name === `mcp__py__${runtimeTool}`), `${where}: the new tool is exported`);
  const info: M.ToolInfo[] = p.toolInfo();
  observe("M.ToolInfo[]", `${where} toolInfo`, info.slice(0, 8));
  const echo = info.find((t) => t.name === "mcp__everything__echo");
  check(echo?.autoApprove === true && echo.category === "read" && info.some((t) => t.server === "py" && !t.autoApprove && t.category === "execute"), `${where}: toolInfo carries the user's category and autoApprove`);
  check(info.some((t) => t.server === "flaky") && info.filter((t) => t.server === "flaky").every((t) => t.category === "write"), `${where}: category "edit" is read as "write"`);
  const prompts = p.prompts();
  observe("ReturnType<M.McpPool['prompts']>", `${where} prompts`, prompts);
  const resources = p.resources();
  observe("ReturnType<M.McpPool['resources']>", `${where} resources`, resources.slice(0, 5));
  check(prompts.some((x) => x.server === "everything") && resources.some((x) => x.server === "everything"), `${where}: server-everything's prompts and resources are offered`);
  const badOptions = await rejection(`${where} call (bad options)`, p.call("mcp__everything__echo", { message: "x" }, { timeoutMs: -1 }));
  check(badOptions === "INVALID_ARGUMENT", `${where}: malformed call options reject with INVALID_ARGUMENT (got ${badOptions})`);
  const unknown = await p.call("mcp__nope__tool");
  observe("M.FlatToolResult", `${where} call (unknown tool)`, unknown);
  check(unknown.isError, `${where}: an unknown tool is an isError result`);

  p.reconnect("hang");
  check(await until(() => events.filter((e) => e.type === "attemptAborted").length >= 2, 10_000), `${where}: the reconnect attempt times out again`);
  await rejection(`${where} reconnect (unknown server)`, () => p.reconnect("nope"));
  p.acceptTool("mcp__py__add"); // nothing held: nothing to do
  const held: M.HeldTool[] = p.heldTools();
  observe("M.HeldTool[]", `${where} heldTools`, held);
  check(held.some((h) => h.name === "mcp__py__echo") && !p.tools().some((t) => t.name === "mcp__py__echo"), `${where}: the tool whose pin differs is held back`);
  check(events.some((e) => e.type === "toolChanged" && e.name === "mcp__py__echo"), `${where}: a toolChanged event`);
  check(events.some((e) => e.type === "toolRejected" && e.server === "flaky" && e.code === "INVALID_TOOL"), `${where}: a toolRejected event for the unusable tool`);
  const pinsBefore: M.Pins = p.pins();
  observe("M.Pins", `${where} pins`, pinsBefore);
  p.acceptTool("mcp__py__echo");
  check(p.heldTools().length === 0 && p.tools().some((t) => t.name === "mcp__py__echo") && p.pins().py.echo !== "sha256:0000", `${where}: acceptTool re-pins and exports it`);
  const unknownTool = await rejection(`${where} acceptTool (unknown tool)`, () => p.acceptTool("mcp__nope__tool"));
  check(unknownTool === "UNKNOWN_TOOL", `${where}: acceptTool of an unknown name is UNKNOWN_TOOL (got ${unknownTool})`);
  await rejection(`${where} constructor (bad policy)`, () => new api.McpPool(config, { policy: { denied: [{ serverPort: 1 }] } as unknown as M.PoolOptions["policy"] }));
  // A document that cannot be used fails open; a flood of rejected tools is reported with a gap.
  const floodEvents: M.PoolEvent[] = [];
  const failOpen = new api.McpPool({ mcpServers: { hostile: { url: `${FIXTURE}/mcp-flaky?key=gap-${Date.now()}&invalid=1100` } } }, {
    projectConfig: "{ not json",
    onEvent: (e: M.PoolEvent) => {
      emitted.add(`poolEvent:${e.type}`);
      observe("M.PoolEvent", `${where} onEvent (fail open)`, e);
      floodEvents.push(e);
    },
  });
  await failOpen.connectAll();
  const failStatus: M.PoolStatus = failOpen.status();
  observe("M.PoolStatus", `${where} status (fail open)`, failStatus);
  check(failStatus.diagnostics[0]?.code === "CONFIG" && failStatus.servers[0]?.state === "connected", `${where}: a project layer that is not JSON is left out and reported (${JSON.stringify(failStatus.diagnostics)})`);
  check(floodEvents.some((e) => e.type === "configRejected"), `${where}: a configRejected event`);
  const gap = floodEvents.find((e) => e.type === "gap");
  check(gap?.type === "gap" && gap.dropped > 0, `${where}: 1,100 rejected tools overflow the registry's events, and a gap says how many went (${JSON.stringify(gap)})`);
  await failOpen.close();
  failOpen.free();
  const broken = new api.McpPool({ mcpServers: [] } as unknown as M.PoolConfig);
  check(broken.status().servers.length === 0 && broken.status().diagnostics[0]?.code === "CONFIG", `${where}: mcpServers that is not an object gives an empty pool with a diagnostic`);
  broken.free();
  const none = new api.McpPool({});
  check(none.status().servers.length === 0, `${where}: a config without mcpServers is a pool without servers`);
  none.free();
  await rejection(`${where} constructor (a var not a string)`, () => new api.McpPool(config, { vars: { PY: 1 } } as unknown as M.PoolOptions));
  await rejection(`${where} constructor (a pin not a string)`, () => new api.McpPool(config, { pins: { py: { echo: 7 } } } as unknown as M.PoolOptions));
  await rejection(`${where} constructor (pins not by server)`, () => new api.McpPool(config, { pins: ["py"] } as unknown as M.PoolOptions));

  await p.close();
  p.free();
}

/** OAuth against tests/servers/auth: the provider (oidc-provider) and its two protected servers. */
async function oauth(): Promise<void> {
  const where = "OAuth";
  const Client = tracked("McpClient", api.McpClient);
  const ccJwt = env("AUTH_CC_JWT_KEY_FILE");
  const { readFileSync } = await import("node:fs");

  // A sign-in started in one place (no handler: the URL comes back in the error) and finished in
  // another from the callback, with the same storage.
  const map = new Map<string, string>();
  const pending: M.AuthOptions = { redirectUri: REDIRECT, storage: storage(map), dpop: false };
  let url = "";
  try {
    await Client.signIn(AUTH_PY, { auth: pending });
    failures.push(`${where}: signIn without onAuthorizationUrl did not reject`);
  } catch (e) {
    observe("M.McpError", `${where} signIn (interaction required)`, errorData(e));
    check(api.isMcpError(e) && e.code === "AUTH_INTERACTION_REQUIRED" && typeof e.url === "string", `${where}: signIn without a handler is AUTH_INTERACTION_REQUIRED with url`);
    if (api.isMcpError(e)) url = e.url ?? "";
  }
  const callback = await signInAs(url, "types-alice");
  const status: M.AuthStatus = await Client.completeAuthorization(AUTH_PY, callback, { auth: pending });
  observe("M.AuthStatus", `${where} completeAuthorization`, status);
  check(status.issuer === AUTH_ISSUER && status.tokenType === "Bearer", `${where}: completeAuthorization signs in (${JSON.stringify(status)})`);
  const again = await rejection(`${where} completeAuthorization (used callback)`, Client.completeAuthorization(AUTH_PY, callback, { auth: pending }));
  check(again === "AUTH_STATE_MISMATCH", `${where}: a used callback is AUTH_STATE_MISMATCH (got ${again})`);

  // The page helpers, in Node: no window to open (the URL comes back in the error), no
  // sessionStorage; memory areas work anywhere.
  const popupOptions: Required<M.AuthorizationPopupOptions> = { timeoutMs: 1000, signal: new AbortController().signal, name: "sign-in", features: "popup" };
  const blocked = await rejection(`${where} openAuthorizationPopup (no window)`, api.openAuthorizationPopup(url, popupOptions));
  check(blocked === "AUTH_POPUP_BLOCKED", `${where}: no window is AUTH_POPUP_BLOCKED (got ${blocked})`);
  const noSession = await rejection(`${where} browserStorage (no sessionStorage)`, () => api.browserStorage());
  check(noSession === "AUTH_CONFIG", `${where}: browserStorage without sessionStorage is AUTH_CONFIG (got ${noSession})`);
  const badArea = await rejection(`${where} browserStorage (unknown area)`, () => api.browserStorage({ tokens: "disk" as M.BrowserStorageArea }));
  check(badArea === "INVALID_ARGUMENT", `${where}: an unknown area is INVALID_ARGUMENT (got ${badArea})`);
  const memOptions: Required<M.BrowserStorageOptions> = { tokens: "memory", pending: "memory", databaseName: "unused" };
  const mem: M.AuthStorage = api.browserStorage(memOptions);
  await mem.put("mcp-edge:pending:x", "p");
  await mem.put("mcp-edge:tokens:y", "t");
  check((await mem.get("mcp-edge:pending:x")) === "p" && (await mem.get("mcp-edge:tokens:y")) === "t", `${where}: browserStorage memory areas keep what they are given`);
  await mem.delete("mcp-edge:tokens:y");
  check((await mem.get("mcp-edge:tokens:y")) == null && mem.dpopKey === undefined, `${where}: memory tokens need no kept key`);

  // A person's sign-in from a handler, against the 2025-era server: status, event, sign-out.
  const signedIn = tracked("client", await Client.connect(AUTH_NODE, {
    auth: {
      redirectUri: REDIRECT,
      storage: storage(),
      onAuthorizationUrl: (u: string): Promise<string> => {
        emitted.add("callback:auth.onAuthorizationUrl");
        observe("string", `${where} onAuthorizationUrl`, u);
        return signInAs(u, "types-bob");
      },
    },
  }), true);
  const notes = follow(where, signedIn);
  observe("M.AuthStatus | null", `${where} auth`, signedIn.auth);
  check(signedIn.auth?.tokenType === "DPoP", `${where}: a DPoP-bound token from the provider`);
  observe("M.CallToolResult", `${where} callTool whoami`, await signedIn.callTool("whoami", {}));
  signedIn.signOut();
  observe("M.AuthStatus | null", `${where} auth after signOut`, signedIn.auth);
  check(signedIn.auth === null, `${where}: signOut forgets the tokens`);
  await signedIn.close();
  await notes.done;
  check(notes.seen.some((n) => n.type === "signedIn"), `${where}: the signedIn event`);
  signedIn.free();

  // Client credentials with every AuthOptions member set (those of other grants are inert here).
  const everything: Required<M.AuthOptions> = {
    grant: "client_credentials",
    redirectUri: REDIRECT,
    headless: false,
    onAuthorizationUrl: (u: string): string => u,
    clientId: env("AUTH_CC_JWT_ID"),
    clientSecret: "unused-with-private_key_jwt",
    clientIssuer: AUTH_ISSUER,
    privateKeyPem: readFileSync(ccJwt, "utf8"),
    tokenEndpointAuthMethod: "private_key_jwt",
    clientMetadataUrl: "https://client.example/metadata.json",
    clientName: "mcp-edge typed program",
    applicationType: "native",
    scope: "mcp:read",
    offlineAccess: false,
    dpop: true,
    assertion: "unused-outside-jwt_bearer",
    tokenExchange: { tokenEndpoint: `${AUTH_ISSUER}/token`, clientId: "unused", clientSecret: "unused", idToken: "unused" },
    storage: storage(),
    fetch: (input: string, init: RequestInit): Promise<Response> => {
      emitted.add("callback:auth.fetch");
      return fetch(input, init);
    },
  };
  const machine = tracked("client", await Client.connect(AUTH_PY, { auth: everything }), true);
  observe("M.CallToolResult", `${where} client credentials whoami`, await machine.callTool("whoami", {}));
  observe("M.AuthStatus | null", `${where} client credentials auth`, machine.auth);
  await machine.close();
  machine.free();
  const refused = await rejection(
    `${where} client credentials (wrong secret)`,
    Client.connect(AUTH_PY, { auth: { grant: "client_credentials", clientId: env("AUTH_CC_BASIC_ID"), clientSecret: "wrong" } }),
  );
  check(refused === "AUTH_TOKEN", `${where}: a refused client is AUTH_TOKEN (got ${refused})`);

  // A pool whose servers carry their own auth settings; the hooks are the pool's.
  const poolAuth: Required<Pick<M.PoolAuthOptions, "storage" | "onAuthorizationUrl" | "fetch">> = {
    storage: storage(),
    onAuthorizationUrl: (u: string, server: string): Promise<string> => {
      emitted.add("callback:pool.auth.onAuthorizationUrl");
      check(server === "person", `${where}: the pool names the server signing in (${server})`);
      return signInAs(u, "types-carol");
    },
    fetch: (input: string, init: RequestInit): Promise<Response> => {
      emitted.add("callback:pool.auth.fetch");
      return fetch(input, init);
    },
  };
  const entryAuth: M.ServerEntry["auth"] = { grant: "client_credentials", clientId: "${CC_ID}", clientSecret: "${CC_SECRET}" };
  const p = tracked("pool", new api.McpPool(
    { mcpServers: { machine: { url: AUTH_PY, auth: entryAuth }, person: { url: AUTH_NODE, auth: { redirectUri: REDIRECT } } } },
    { vars: { CC_ID: env("AUTH_CC_BASIC_ID"), CC_SECRET: env("AUTH_CC_BASIC_SECRET") }, auth: poolAuth },
  ), true);
  const st = await p.connectAll();
  observe("M.PoolStatus", `${where} pool connectAll`, st);
  check(st.servers.every((s) => s.state === "connected"), `${where}: both protected servers connect in the pool`);
  observe("M.FlatToolResult", `${where} pool call`, await p.call("mcp__person__whoami", {}));
  await p.close();
  p.free();
}

async function main(): Promise<void> {
  await oauth();
  await clientErrors();
  await faultyServer();
  await everythingClient();
  await pythonModernClient();
  await pythonLegacyClient();
  await pool();

  // Coverage: every declared member touched, every declared event and callback seen.
  const need = (label: string, keys: string[]) => {
    for (const k of keys) check(touched.has(`${label}.${k}`), `${label}.${k} is declared but the program never used it`);
  };
  need("module", Object.keys(EXPORTS));
  need("McpClient", Object.keys(CLIENT_STATICS));
  need("client", Object.keys(CLIENT_MEMBERS));
  need("pool", Object.keys(POOL_MEMBERS));
  for (const t of Object.keys(NOTIFICATION_TYPES)) check(emitted.has(`notification:${t}`), `notification type "${t}" is declared but was never emitted`);
  for (const t of Object.keys(POOL_EVENT_TYPES)) check(emitted.has(`poolEvent:${t}`), `pool event "${t}" is declared but was never emitted`);
  for (const t of Object.keys(TRAFFIC_TYPES)) check(emitted.has(`traffic:${t}`), `traffic record "${t}" is declared but was never emitted`);
  for (const c of Object.keys(CALLBACKS)) check(emitted.has(`callback:${c}`), `callback ${c} was never called`);

  writeFileSync(env("OBSERVED_OUT"), JSON.stringify(observations));
  console.log(`typed program: ${observations.length} values recorded; ${touched.size} members used; ${emitted.size} events and callbacks seen`);
  if (failures.length) {
    for (const f of failures) console.log(`check FAILED: ${f}`);
    process.exitCode = 1;
  } else {
    console.log("check passed: the typed program ran against real servers; every declared member, event and callback was exercised");
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
