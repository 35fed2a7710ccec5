// The client build (`scripts/build-package.sh web|nodejs DIR --no-default-features`: McpClient without the pool, the
// tool adapters and the JSON Schema validator), typed and run against the real servers.
//
// Compile time: its declarations have McpClient and no pool (the @ts-expect-error lines fail the
// tsc run if McpPool or toolNames were declared). Run time: it exports no pool either; it connects
// to server-everything (2025 era) and the Python server (2026 and 2025 era), lists tools, calls
// one with progress, cancels one, and hands a result whose structuredContent breaks its
// outputSchema through unchecked (no validator in this build), where the full build says
// OUTPUT_SCHEMA (tests/client_e2e.rs).
import assert from "node:assert/strict";
import * as api from "mcp-edge-client";
import type * as M from "mcp-edge-client";

// @ts-expect-error the client build declares no McpPool
type NoPool = M.McpPool;
// @ts-expect-error the client build declares no toolNames
const noNames = api.toolNames;
void (undefined as unknown as NoPool);
void noNames;

function env(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set (tests/types/run.sh sets it)`);
  return v;
}

let checks = 0;
function passed(what: string): void {
  checks += 1;
  console.log(`check passed: client build: ${what}`);
}

const exported = Object.keys(api).sort();
assert.ok(!exported.includes("McpPool") && !exported.includes("toolNames"), exported.join(", "));
assert.ok(exported.includes("McpClient") && exported.includes("isMcpError"), exported.join(", "));
passed(`exports ${exported.join(", ")} (no pool)`);

async function session(where: string, url: string, protocol: M.ProtocolChoice, tool: string, args: M.JsonObject, expectEra: string): Promise<void> {
  const client = await api.McpClient.connect(url, { protocol, clientInfo: { name: "client-build", version: "1" } });
  try {
    assert.equal(client.era, expectEra, `${where}: era`);
    const tools: M.Tool[] = await client.listTools();
    assert.ok(tools.some((t) => t.name === tool), `${where}: ${tool} listed`);
    const steps: M.Progress[] = [];
    const result: M.CallToolResult = await client.callTool(tool, args, { onProgress: (p) => steps.push(p), timeoutMs: 30_000 });
    assert.notEqual(result.isError, true, `${where}: ${JSON.stringify(result)}`);
    assert.ok(steps.length >= 2, `${where}: progress ${JSON.stringify(steps)}`);
    assert.ok(steps.every((s, i) => i === 0 || s.progress > steps[i - 1].progress), `${where}: progress increases`);
    const abort = new AbortController();
    const cancelled = client.callTool(tool, { ...args, ...(tool === "slow_progress" ? { steps: 20, delay_ms: 200 } : { duration: 5, steps: 5 }) }, { signal: abort.signal });
    setTimeout(() => abort.abort(), 100);
    const code = await cancelled.then(() => "resolved", (e: unknown) => (api.isMcpError(e) ? e.code : String(e)));
    assert.equal(code, "ABORTED", `${where}: cancelled call`);
    const after = await client.callTool(tool, tool === "slow_progress" ? { steps: 0, delay_ms: 0 } : { duration: 0, steps: 1 });
    assert.notEqual(after.isError, true, `${where}: the session works after a cancel`);
    passed(`${where}: connect (${client.era}), list, call with ${steps.length} progress steps, cancel`);
  } finally {
    await client.close();
  }
}

await session("server-everything", env("EVERYTHING_URL"), "2025-11-25", "trigger-long-running-operation", { duration: 1, steps: 3 }, "legacy");
await session("python 2026", env("PY2026_URL"), "2026-07-28", "slow_progress", { steps: 3, delay_ms: 20 }, "modern");
await session("python 2025", env("PY2026_URL"), "2025-11-25", "slow_progress", { steps: 3, delay_ms: 20 }, "legacy");

// No validator, so no output schema to fetch: in the 2025 era a first call goes out without a
// `tools/list` before it (the full build lists first, for the schema). A 2026-07-28 session lists
// first in both builds: a tool's `Mcp-Param-*` headers come from its listed inputSchema.
async function firstCall(where: string, protocol: M.ProtocolChoice, expectList: boolean): Promise<void> {
  const methods: string[] = [];
  const onTraffic = (r: M.TrafficRecord): void => {
    if (r.type === "request" && r.body) methods.push(String(JSON.parse(r.body).method));
  };
  const client = await api.McpClient.connect(env("PY2026_URL"), { protocol, onTraffic });
  try {
    await client.callTool("slow_progress", { steps: 0, delay_ms: 0 });
    const before = methods.slice(0, methods.indexOf("tools/call"));
    assert.ok(methods.includes("tools/call"), `${where}: ${methods.join(", ")}`);
    assert.equal(before.includes("tools/list"), expectList, `${where}: requests before the first call: ${before.join(", ")}`);
    passed(`${where}: requests up to the first call: ${before.join(", ")}, tools/call`);
  } finally {
    await client.close();
  }
}
await firstCall("python 2025, first call", "2025-11-25", false);
await firstCall("python 2026, first call", "2026-07-28", true);

// No validator: a result that breaks its tool's outputSchema arrives as the server sent it.
const fixture = await api.McpClient.connect(`${env("FIXTURE_URL")}/mcp-faulty`, { protocol: "2026-07-28" });
try {
  const bad: M.CallToolResult = await fixture.callTool("bad_output", {});
  assert.deepEqual(bad.structuredContent, { sum: "seven" }, JSON.stringify(bad));
  passed(`a result that breaks its outputSchema passes unchecked: ${JSON.stringify(bad.structuredContent)}`);
} finally {
  await fixture.close();
}
console.log(`client build: ${checks} checks passed`);
