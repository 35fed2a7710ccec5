// Checks the fixtures of the tool-search benchmark, then the loopback server that serves them.
//
//   node tests/bench/search/check-fixtures.mjs
//
// 1. catalog.mjs: deterministic; 20-25 servers with short lowercase names; at least 1,000 tools;
//    MCP-valid tool names, unique per server, in the server's documented naming convention
//    (NAMING / NAME_PATTERNS) with parameter names in the matching style; each convention
//    carrying roughly a quarter of the tools; well-formed input schemas (every property has a
//    type and a description, required names exist); tool names shared across servers (so
//    retrieval is not trivial); JSON under 1.5 MB.
// 2. queries.json: at least 60 queries, each expecting 1-3 tools that exist in the catalog, a
//    difficulty note (paraphrase, keyword or param), every server covered, and paraphrases that do
//    not spell out the tool name.
// 3. catalog-server.mjs as a child process: the one stdout line, initialize (session id, version
//    negotiation), notifications, ping, tools/list paginated for two servers (github and stripe,
//    both over one page) equal to catalog(), bad cursors, tools/call (known and unknown tool),
//    unknown methods, session errors (missing 400, unknown 404, another server's 404), malformed
//    JSON, GET 405, CORS preflight and response headers, DELETE of the session, and a clean exit
//    on SIGTERM.
// Prints the counts and exits non-zero on any failure.

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { catalog, NAMING, NAME_PATTERNS } from "./catalog.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const failures = [];
const check = (cond, message) => {
  if (!cond) failures.push(message);
  return !!cond;
};

// ---------------------------------------------------------------------------------------------
// 1. The catalog

const cat = catalog();
const catJson = JSON.stringify(cat);
check(catJson === JSON.stringify(catalog()), "catalog() is not deterministic (two calls differ)");
const servers = Object.keys(cat);
const allTools = Object.values(cat).flat();
check(servers.length >= 20 && servers.length <= 25, `expected 20-25 servers, got ${servers.length}`);
check(allTools.length >= 1000, `expected at least 1000 tools, got ${allTools.length}`);
check(catJson.length < 1.5e6, `catalog JSON is ${catJson.length} bytes, over 1.5 MB`);

const PARAM_PATTERN = {
  snake: NAME_PATTERNS.snake,
  hyphen: NAME_PATTERNS.snake,
  camel: NAME_PATTERNS.camel,
  dotted: NAME_PATTERNS.camel,
};
// A name that shows its convention (a single word fits snake, camel and hyphen alike).
const DISTINCT = { snake: /_/, camel: /[A-Z]/, hyphen: /-/, dotted: /\./ };
const perConvention = { snake: { servers: 0, tools: 0 }, camel: { servers: 0, tools: 0 }, dotted: { servers: 0, tools: 0 }, hyphen: { servers: 0, tools: 0 } };
const descriptions = new Map();

for (const server of servers) {
  check(/^[a-z][a-z0-9-]{0,11}$/.test(server), `server name ${JSON.stringify(server)} is not short lowercase letters/digits/hyphens`);
  const conv = NAMING[server];
  if (!check(conv in perConvention, `server ${server} has no naming convention in NAMING`)) continue;
  const tools = cat[server];
  check(Array.isArray(tools) && tools.length > 0, `server ${server} has no tools`);
  perConvention[conv].servers++;
  perConvention[conv].tools += tools.length;
  const names = new Set();
  let distinct = 0;
  for (const tool of tools) {
    const where = `${server}/${tool?.name}`;
    check(typeof tool.name === "string" && /^[A-Za-z0-9_.-]{1,128}$/.test(tool.name), `${where}: invalid MCP tool name`);
    check(!names.has(tool.name), `${where}: duplicate tool name`);
    names.add(tool.name);
    check(NAME_PATTERNS[conv].test(tool.name), `${where}: name is not ${conv}`);
    if (DISTINCT[conv].test(tool.name)) distinct++;
    check(tool.title === undefined || (typeof tool.title === "string" && tool.title.length > 0), `${where}: bad title`);
    check(typeof tool.description === "string" && tool.description.length >= 20 && tool.description.length <= 400, `${where}: description missing, too short or too long`);
    descriptions.set(tool.description, (descriptions.get(tool.description) ?? 0) + 1);
    const s = tool.inputSchema;
    if (!check(s && s.type === "object" && s.properties && typeof s.properties === "object" && Array.isArray(s.required), `${where}: inputSchema is not {type: "object", properties, required}`)) continue;
    for (const [key, prop] of Object.entries(s.properties)) {
      check(PARAM_PATTERN[conv].test(key), `${where}: parameter ${key} does not follow the server's ${PARAM_PATTERN[conv] === NAME_PATTERNS.snake ? "snake" : "camel"} style`);
      check(typeof prop.type === "string" && typeof prop.description === "string" && prop.description.length > 0, `${where}: parameter ${key} lacks a type or description`);
      if (prop.type === "array") check(prop.items && typeof prop.items.type === "string", `${where}: array parameter ${key} lacks items.type`);
    }
    for (const r of s.required) check(r in s.properties, `${where}: required ${r} is not a property`);
  }
  check(distinct / tools.length >= 0.9, `${server}: only ${distinct}/${tools.length} names visibly ${conv}`);
}
for (const [conv, { servers: n, tools }] of Object.entries(perConvention)) {
  const share = tools / allTools.length;
  check(n >= 5 && n <= 7, `${conv}: ${n} servers, expected about a quarter (5-7)`);
  check(share >= 0.18 && share <= 0.32, `${conv}: ${(share * 100).toFixed(1)}% of the tools, expected roughly a quarter (18-32%)`);
}
const dupDescriptions = [...descriptions.values()].filter((c) => c > 1).reduce((a, c) => a + c, 0);
check(dupDescriptions <= allTools.length * 0.02, `${dupDescriptions} tools share their description with another tool`);

// Near-duplicates across servers: the same name once the convention is ignored.
const normalize = (name) => name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
const crossNames = new Map();
for (const server of servers) {
  for (const t of cat[server]) {
    const conv = NAMING[server];
    let w = normalize(t.name);
    if (conv === "dotted") {
      const [noun, verb] = t.name.split(".");
      w = [...normalize(verb), ...normalize(noun)];
    }
    const key = w.join(" ");
    if (!crossNames.has(key)) crossNames.set(key, new Set());
    crossNames.get(key).add(server);
  }
}
const shared = [...crossNames.values()].filter((s) => s.size > 1).length;
check(shared >= 25, `only ${shared} tool names (convention aside) occur on more than one server`);
const verbsOnMany = ["search", "list", "get"].map((v) => [v, servers.filter((s) => cat[s].some((t) => normalize(t.name).includes(v))).length]);
for (const [v, n] of verbsOnMany) check(n >= 5, `only ${n} servers have a '${v}' tool`);

// ---------------------------------------------------------------------------------------------
// 2. The queries

const queriesText = readFileSync(join(here, "queries.json"), "utf8");
let queries = [];
try {
  queries = JSON.parse(queriesText);
} catch (err) {
  check(false, `queries.json is not JSON: ${err.message}`);
}
check(Array.isArray(queries) && queries.length >= 60, `expected at least 60 queries, got ${queries.length}`);
const covered = new Set();
const notes = {};
const seenQueries = new Set();
for (const [i, q] of queries.entries()) {
  const where = `query ${i} (${JSON.stringify(q?.query)})`;
  if (!check(q && typeof q.query === "string" && q.query.trim().length > 0, `${where}: no query text`)) continue;
  check(!seenQueries.has(q.query), `${where}: duplicate query`);
  seenQueries.add(q.query);
  check(Array.isArray(q.expected) && q.expected.length >= 1 && q.expected.length <= 3, `${where}: expected must list 1-3 tools`);
  check(["paraphrase", "keyword", "param"].includes(q.note), `${where}: note must be paraphrase, keyword or param`);
  notes[q.note] = (notes[q.note] ?? 0) + 1;
  for (const e of q.expected ?? []) {
    const exists = cat[e?.server]?.some((t) => t.name === e.tool);
    check(exists, `${where}: expected tool ${e?.server}/${e?.tool} is not in the catalog`);
    if (exists) covered.add(e.server);
    if (exists && q.note === "paraphrase") {
      const words = normalize(e.tool).join(" ");
      check(words.includes(" ") === false || !normalize(q.query).join(" ").includes(words), `${where}: paraphrase spells out the tool name ${e.tool}`);
    }
  }
}
for (const server of servers) check(covered.has(server), `no query expects a tool of ${server}`);
check((notes.paraphrase ?? 0) > queries.length / 2, "paraphrases should be the majority of the queries");

console.log(`servers: ${servers.length}`);
console.log(`tools: ${allTools.length} (${Object.entries(perConvention).map(([c, v]) => `${c} ${v.tools} in ${v.servers} servers`).join(", ")})`);
console.log(`tools per server: ${servers.map((s) => `${s} ${cat[s].length}`).join(", ")}`);
console.log(`names shared across servers (convention aside): ${shared}`);
console.log(`queries: ${queries.length} (${Object.entries(notes).map(([k, v]) => `${k} ${v}`).join(", ")}), covering ${covered.size} servers`);
console.log(`JSON bytes: catalog ${catJson.length}, queries.json ${Buffer.byteLength(queriesText)}, total ${catJson.length + Buffer.byteLength(queriesText)}`);

// ---------------------------------------------------------------------------------------------
// 3. The server

const PROTOCOL = "2025-11-25";

function startServer() {
  const child = spawn(process.execPath, [join(here, "catalog-server.mjs"), "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server printed no URL within 10 s (stderr: ${stderr})`)), 10_000);
    const onData = () => {
      const nl = stdout.indexOf("\n");
      if (nl >= 0) {
        clearTimeout(timer);
        child.stdout.off("data", onData);
        resolve(stdout.slice(0, nl));
      }
    };
    child.stdout.on("data", onData);
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`server exited early (code ${code}, signal ${signal}): ${stderr}`));
    });
  });
  return { child, url, exited, output: () => ({ stdout, stderr }) };
}

async function post(url, body, headers = {}) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

let nextId = 1;
async function rpc(url, sid, method, params) {
  const id = nextId++;
  const r = await post(url, { jsonrpc: "2.0", id, method, ...(params ? { params } : {}) }, { "mcp-session-id": sid, "mcp-protocol-version": PROTOCOL });
  check(r.status === 200, `${method}: HTTP ${r.status}`);
  check(r.json?.id === id, `${method}: response id ${r.json?.id}, expected ${id}`);
  return r.json;
}

async function initialize(url, version = PROTOCOL, headers = {}) {
  return post(url, { jsonrpc: "2.0", id: nextId++, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "check-fixtures", version: "1.0.0" } } }, headers);
}

async function checkServer(base) {
  check(/^http:\/\/127\.0\.0\.1:\d+$/.test(base), `server printed ${JSON.stringify(base)}, expected http://127.0.0.1:<port>`);
  const origin = "http://127.0.0.1:9"; // a page on another loopback origin
  const pages = {};

  for (const server of ["github", "stripe"]) {
    const url = `${base}/${server}/mcp`;
    const init = await initialize(url, PROTOCOL, { origin });
    const sid = init.headers.get("mcp-session-id");
    check(init.status === 200 && /application\/json/.test(init.headers.get("content-type") ?? ""), `${server} initialize: HTTP ${init.status} ${init.headers.get("content-type")}`);
    check(typeof sid === "string" && sid.length > 0, `${server} initialize: no Mcp-Session-Id header`);
    check(init.json?.result?.protocolVersion === PROTOCOL, `${server} initialize: protocolVersion ${init.json?.result?.protocolVersion}`);
    check(init.json?.result?.capabilities?.tools?.listChanged === false, `${server} initialize: capabilities.tools.listChanged is not false`);
    check(typeof init.json?.result?.serverInfo?.name === "string", `${server} initialize: no serverInfo`);
    check(init.headers.get("access-control-allow-origin") === origin, `${server} initialize: Access-Control-Allow-Origin ${init.headers.get("access-control-allow-origin")}`);
    check(/mcp-session-id/i.test(init.headers.get("access-control-expose-headers") ?? ""), `${server} initialize: mcp-session-id is not exposed`);

    const note = await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, { "mcp-session-id": sid, "mcp-protocol-version": PROTOCOL });
    check(note.status === 202 && note.text === "", `${server} notifications/initialized: HTTP ${note.status} ${JSON.stringify(note.text)}`);

    const listed = [];
    let cursor;
    let count = 0;
    do {
      const r = await rpc(url, sid, "tools/list", cursor === undefined ? undefined : { cursor });
      const page = r?.result?.tools;
      if (!check(Array.isArray(page), `${server} tools/list: no tools array`)) break;
      check(page.length <= 100, `${server} tools/list: page of ${page.length} tools`);
      listed.push(...page);
      cursor = r.result.nextCursor;
      check(cursor === undefined || (typeof cursor === "string" && cursor.length > 0), `${server} tools/list: bad nextCursor`);
      count++;
    } while (cursor !== undefined && count < 50);
    pages[server] = count;
    check(count >= 2, `${server}: tools/list fit in ${count} page(s); the check wants a paginated server`);
    check(JSON.stringify(listed) === JSON.stringify(cat[server]), `${server}: the paginated tools/list differs from catalog().${server}`);

    const bad = await rpc(url, sid, "tools/list", { cursor: "not-a-cursor" });
    check(bad?.error?.code === -32602, `${server} tools/list with an unknown cursor: ${JSON.stringify(bad)}`);
    if (server === "github") {
      // A cursor issued by one server is unknown to another.
      const first = await rpc(url, sid, "tools/list");
      const stripeInit = await initialize(`${base}/stripe/mcp`);
      const foreign = await rpc(`${base}/stripe/mcp`, stripeInit.headers.get("mcp-session-id"), "tools/list", { cursor: first.result.nextCursor });
      check(foreign?.error?.code === -32602, `stripe tools/list with github's cursor: ${JSON.stringify(foreign)}`);
    }

    const ping = await rpc(url, sid, "ping");
    check(ping?.result && Object.keys(ping.result).length === 0, `${server} ping: ${JSON.stringify(ping)}`);
    const unknown = await rpc(url, sid, "resources/list");
    check(unknown?.error?.code === -32601, `${server} unknown method: ${JSON.stringify(unknown)}`);

    if (server === "github") {
      const args = { owner: "octo", repo: "app", title: "Login page crashes", labels: ["bug"] };
      const call = await rpc(url, sid, "tools/call", { name: "create_issue", arguments: args });
      const text = call?.result?.content?.[0]?.text;
      check(call?.result?.content?.[0]?.type === "text" && text === `github/create_issue called with ${JSON.stringify(args)}`, `tools/call create_issue: ${JSON.stringify(call)}`);
      check(!call?.result?.isError, "tools/call create_issue: isError set");
      const missing = await rpc(url, sid, "tools/call", { name: "no_such_tool", arguments: {} });
      check(missing?.result?.isError === true, `tools/call of an unknown tool: ${JSON.stringify(missing)}`);

      // Session errors.
      const ping2 = { jsonrpc: "2.0", id: nextId++, method: "ping" };
      check((await post(url, ping2)).status === 400, "a request without Mcp-Session-Id is not 400");
      check((await post(url, ping2, { "mcp-session-id": "unknown-session" })).status === 404, "a request with an unknown Mcp-Session-Id is not 404");
      check((await post(`${base}/jira/mcp`, ping2, { "mcp-session-id": sid })).status === 404, "another server's session id is not 404");
      check((await post(url, ping2, { "mcp-session-id": sid, "mcp-protocol-version": "1999-01-01" })).status === 400, "an unsupported MCP-Protocol-Version is not 400");
      const garbled = await post(url, "{not json", { "mcp-session-id": sid });
      check(garbled.status === 400 && garbled.json?.error?.code === -32700, `malformed JSON: HTTP ${garbled.status} ${garbled.text}`);
      const get = await fetch(url, { headers: { "mcp-session-id": sid, accept: "text/event-stream" } });
      await get.arrayBuffer();
      check(get.status === 405, `GET: HTTP ${get.status}`);

      // Version negotiation.
      const old = await initialize(url, "2025-03-26");
      check(old.json?.result?.protocolVersion === "2025-03-26", `initialize 2025-03-26 answered ${old.json?.result?.protocolVersion}`);
      const ancient = await initialize(url, "2024-11-05");
      check(ancient.json?.result?.protocolVersion === PROTOCOL, `initialize 2024-11-05 answered ${ancient.json?.result?.protocolVersion}`);
      check(old.headers.get("mcp-session-id") !== ancient.headers.get("mcp-session-id"), "two initializes got the same session id");

      // CORS preflight.
      const pre = await fetch(url, {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type, mcp-session-id, mcp-protocol-version, authorization" },
      });
      await pre.arrayBuffer();
      const allowHeaders = (pre.headers.get("access-control-allow-headers") ?? "").toLowerCase().split(/\s*,\s*/);
      check(pre.status === 204 || pre.status === 200, `OPTIONS: HTTP ${pre.status}`);
      check(pre.headers.get("access-control-allow-origin") === origin, `OPTIONS: Access-Control-Allow-Origin ${pre.headers.get("access-control-allow-origin")}`);
      for (const m of ["POST", "GET", "DELETE", "OPTIONS"]) check((pre.headers.get("access-control-allow-methods") ?? "").includes(m), `OPTIONS: ${m} not allowed`);
      for (const h of ["*", "content-type", "mcp-session-id", "mcp-protocol-version", "authorization", "last-event-id"]) check(allowHeaders.includes(h), `OPTIONS: header ${h} not allowed`);
    }

    const del = await fetch(url, { method: "DELETE", headers: { "mcp-session-id": sid, origin } });
    await del.arrayBuffer();
    check(del.status === 200, `${server} DELETE: HTTP ${del.status}`);
    check(del.headers.get("access-control-allow-origin") === origin, `${server} DELETE: no Access-Control-Allow-Origin`);
    const after = await post(url, { jsonrpc: "2.0", id: nextId++, method: "ping" }, { "mcp-session-id": sid });
    check(after.status === 404, `${server}: the deleted session still answers (HTTP ${after.status})`);
  }
  return pages;
}

const srv = startServer();
try {
  const base = await srv.url;
  const pages = await checkServer(base);
  console.log(`server: ${base}, tools/list pages: ${Object.entries(pages).map(([s, n]) => `${s} ${n}`).join(", ")}`);
} catch (err) {
  check(false, `server check failed: ${err.stack ?? err}`);
} finally {
  if (srv.child.exitCode === null && srv.child.signalCode === null) srv.child.kill("SIGTERM");
  const timeout = new Promise((resolve) => setTimeout(() => resolve(null), 5000));
  const exit = await Promise.race([srv.exited, timeout]);
  if (exit === null) {
    srv.child.kill("SIGKILL");
    check(false, "server did not exit within 5 s of SIGTERM");
  } else {
    check(exit.code === 0, `server exited with code ${exit.code}, signal ${exit.signal}`);
  }
  const { stdout, stderr } = srv.output();
  check(/^http:\/\/127\.0\.0\.1:\d+\n$/.test(stdout), `server stdout is not exactly one URL line: ${JSON.stringify(stdout)}`);
  if (stderr.trim()) console.log(`server stderr: ${stderr.trim()}`);
}

if (failures.length) {
  console.error(`\n${failures.length} check(s) failed:`);
  for (const f of failures.slice(0, 50)) console.error(`  - ${f}`);
  if (failures.length > 50) console.error(`  ... and ${failures.length - 50} more`);
  process.exit(1);
}
console.log("all checks passed");
