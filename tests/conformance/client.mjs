// The client under test for the official MCP conformance suite.
//
// The suite runs `node client.mjs <serverUrl>` with MCP_CONFORMANCE_SCENARIO,
// MCP_CONFORMANCE_PROTOCOL_VERSION and (for some scenarios) MCP_CONFORMANCE_CONTEXT set.
// This file is an ordinary user of mcp-edge's public JS API (the `nodejs` build of the
// package): it connects, looks at the server's catalogue, calls tools, answers elicitation
// forms. It holds no protocol logic: headers, `_meta`, version negotiation, MRTR rounds,
// resumption and elicitation defaults are all the library's job. Scenarios only choose which
// user flow runs (which tools to call, with which arguments).
//
// Exit status: 0 when the flow succeeded; 1 with a message on stderr otherwise. A deliberate
// refusal by the library (an McpError with `refused: true`: an issuer, resource or state check
// failed, step-up gave up) is what a careful user sees and accepts: the launcher prints
// `refused: <code>`, records it in $MCP_EDGE_CONFORMANCE_REFUSALS and exits 0; summarize.mjs
// fails the run when a scenario that should succeed refused.
// Set MCP_EDGE_TRACE=1 to log every HTTP request/response the library makes (stderr).

import { appendFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
const { McpClient, isMcpError } = require("../../pkg/nodejs/mcp_edge.js");

const serverUrl = process.argv[process.argv.length - 1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const protocol = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION || "auto";
const context = parseContext(process.env.MCP_CONFORMANCE_CONTEXT);
const started = performance.now();

function parseContext(raw) {
  if (!raw) return {};
  try {
    const value = JSON.parse(raw);
    return value !== null && typeof value === "object" ? value : {};
  } catch (e) {
    throw new Error(`MCP_CONFORMANCE_CONTEXT is not JSON: ${e.message}`);
  }
}

function log(message) {
  process.stdout.write(`[${(performance.now() - started).toFixed(0).padStart(5)} ms] ${message}\n`);
}

/** A value a person filling in a form would type for a field of this JSON Schema. */
function sampleValue(schema, index) {
  if (schema === null || typeof schema !== "object") return "example";
  if ("default" in schema) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ("const" in schema) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "integer":
    case "number":
      return index + 2;
    case "boolean":
      return true;
    case "object":
      return {};
    case "array":
      return [];
    default:
      return "example";
  }
}

/** Arguments for the required fields of a tool's input form (or an elicitation form). */
function sampleArguments(schema, { skipDefaulted = false } = {}) {
  const props = schema?.properties ?? {};
  const required = Array.isArray(schema?.required) ? schema.required : [];
  const out = {};
  required.forEach((name, i) => {
    const prop = props[name];
    if (skipDefaulted && prop && typeof prop === "object" && "default" in prop) return;
    out[name] = sampleValue(prop, i);
  });
  return out;
}

const connectOptions = {
  protocol,
  clientInfo: { name: "mcp-edge-conformance", version: "0.1.0" },
  timeoutMs: 20000,
  // A user who accepts every form: fills in the required fields that have no default and
  // leaves the pre-populated (defaulted) ones as they are. The library completes the result.
  onElicitation(params, extra) {
    const content = sampleArguments(params.requestedSchema, { skipDefaulted: true });
    log(`elicitation: "${params.message}" -> accept ${JSON.stringify(content)} (form defaults: ${JSON.stringify(extra.defaults)})`);
    return { action: "accept", content };
  },
  // The one root this process works in.
  onRoots() {
    return { roots: [{ uri: pathToFileURL(process.cwd()).href, name: "working directory" }] };
  },
};
// OAuth, as a headless command-line user configures it: the redirect is followed without a
// browser, the client identifies itself with a metadata document URL where the authorization
// server supports one (else it registers), and the credentials the suite hands out in
// MCP_CONFORMANCE_CONTEXT choose the grant.
if (scenario.startsWith("auth/")) {
  const auth = {
    headless: true,
    redirectUri: "http://localhost:3000/callback",
    clientMetadataUrl: "https://conformance-test.local/client-metadata.json",
    clientName: "mcp-edge conformance client",
  };
  if (context.client_id) auth.clientId = context.client_id;
  if (context.client_secret) auth.clientSecret = context.client_secret;
  if (context.idp_id_token) {
    auth.grant = "token_exchange";
    auth.tokenExchange = {
      tokenEndpoint: context.idp_token_endpoint,
      clientId: context.idp_client_id,
      idToken: context.idp_id_token,
    };
  } else if (context.valid_jwt) {
    auth.grant = "jwt_bearer";
    auth.assertion = context.valid_jwt;
  } else if (context.private_key_pem) {
    auth.grant = "client_credentials";
    auth.privateKeyPem = context.private_key_pem;
  } else if (scenario.startsWith("auth/client-credentials")) {
    auth.grant = "client_credentials";
  }
  connectOptions.auth = auth;
}

// A timestamped one-line record of every HTTP exchange goes to stderr (the suite keeps it as
// stderr.txt next to checks.json); MCP_EDGE_TRACE=1 logs headers and bodies too.
connectOptions.onTraffic = (r) => {
  const t = (performance.now() - started).toFixed(0).padStart(5);
  if (process.env.MCP_EDGE_TRACE) {
    process.stderr.write(`[${t} ms] traffic ${JSON.stringify(r)}\n`);
    return;
  }
  const what =
    r.type === "request" ? `${r.method}${r.headers.some(([k]) => k === "last-event-id") ? " (Last-Event-ID)" : ""}`
    : r.type === "head" ? `HTTP ${r.status}`
    : r.type === "body" ? `${r.text.length} chars`
    : r.error ? `end: ${r.error}` : "end";
  process.stderr.write(`[${t} ms] #${r.exchange} ${r.type} ${what}\n`);
};

function describe(result) {
  const text = (result.content ?? [])
    .filter((c) => c.type === "text")
    .map((c) => c.text)
    .join(" ");
  return `${result.isError ? "isError " : ""}${JSON.stringify(text.slice(0, 160))}`;
}

async function callTool(client, name, args) {
  log(`callTool ${name} ${JSON.stringify(args)}`);
  const result = await client.callTool(name, args);
  log(`  -> ${describe(result)}`);
  if (result.isError) throw new Error(`tool ${name} reported an error: ${describe(result)}`);
  return result;
}

/** Look at the catalogue, call the tools (with the context's arguments when given), and read
 * what else the server offers. */
async function useServer(client) {
  const tools = await client.listTools();
  log(`listTools: ${tools.map((t) => t.name).join(", ") || "(none)"}`);
  const planned = Array.isArray(context.toolCalls) ? context.toolCalls : null;
  if (planned) {
    for (const call of planned) await callTool(client, call.name, call.arguments ?? {});
  } else {
    for (const tool of tools) await callTool(client, tool.name, sampleArguments(tool.inputSchema));
  }
  const caps = client.capabilities ?? {};
  if (caps.resources) {
    const resources = await client.listResources();
    log(`listResources: ${resources.map((r) => r.uri).join(", ") || "(none)"}`);
    for (const r of resources) {
      const read = await client.readResource(r.uri);
      log(`  readResource ${r.uri} -> ${read.contents.length} content item(s)`);
    }
  }
  if (caps.prompts) {
    const prompts = await client.listPrompts();
    log(`listPrompts: ${prompts.map((p) => p.name).join(", ") || "(none)"}`);
    for (const p of prompts) {
      const args = {};
      for (const a of p.arguments ?? []) if (a.required) args[a.name] = "example";
      const got = await client.getPrompt(p.name, args);
      log(`  getPrompt ${p.name} -> ${got.messages.length} message(s)`);
    }
  }
}

/** Only look at the catalogue (a tool picker that shows names and forms). */
async function browseTools(client) {
  const tools = await client.listTools();
  log(`listTools: ${tools.map((t) => t.name).join(", ") || "(none)"}`);
  for (const t of tools) log(`  ${t.name}: ${JSON.stringify(t.inputSchema)}`);
}

/** Hand one tool's schema, as the client holds it, to an echo tool. */
async function echoSchema(client) {
  const tools = await client.listTools();
  log(`listTools: ${tools.map((t) => t.name).join(", ")}`);
  const focal = client.getTool("json_schema_2020_12_tool");
  if (!focal) throw new Error("the server did not offer json_schema_2020_12_tool");
  await callTool(client, "json_schema_echo", { schema: focal.inputSchema });
}

const flows = {
  "json-schema-ref-no-deref": browseTools,
  "json-schema-2020-12-preservation": echoSchema,
};

async function main() {
  if (!/^https?:\/\//.test(serverUrl ?? "")) throw new Error(`usage: client.mjs <serverUrl> (got ${serverUrl})`);
  const t0 = new Date(performance.timeOrigin + started).toISOString();
  log(`scenario ${scenario || "(none)"}, protocol ${protocol}, server ${serverUrl} (t=0 is ${t0})`);
  const client = await McpClient.connect(serverUrl, connectOptions);
  log(`connected: era ${client.era}, version ${client.protocolVersion}, server ${JSON.stringify(client.serverInfo)}`);
  try {
    await (flows[scenario] ?? useServer)(client);
  } finally {
    await client.close();
    log("closed");
  }
}

main().then(
  () => {
    log("OK");
    process.exit(0);
  },
  (e) => {
    if (isMcpError(e) && e.refused === true) {
      log(`refused: ${e.code} (${e.message})`);
      process.stdout.write(`refused: ${e.code}\n`);
      if (process.env.MCP_EDGE_CONFORMANCE_REFUSALS) {
        appendFileSync(process.env.MCP_EDGE_CONFORMANCE_REFUSALS, `${scenario} ${e.code}\n`);
      }
      process.exit(0);
    }
    const detail = isMcpError(e)
      ? `McpError ${e.code}${e.rpcCode !== undefined ? ` (JSON-RPC ${e.rpcCode})` : ""}${e.status !== undefined ? ` (HTTP ${e.status})` : ""}: ${e.message}`
      : String(e?.stack ?? e);
    process.stderr.write(`mcp-edge conformance client failed in scenario ${scenario || "(none)"}: ${detail}\n`);
    process.exit(1);
  },
);
