// A runnable example of the JS API from Node: a pool over the two local test servers, their tools
// in OpenAI's format, and one call. Build the package and start the servers first:
//
//   bash scripts/build-package.sh nodejs pkg/nodejs
//   tests/servers/start-all.sh && . tests/servers/.ports.env
//   EVERYTHING_URL=$EVERYTHING_URL PY2026_URL=$PY2026_URL node tests/demo/pool-example.mjs
//   tests/servers/stop-all.sh
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const { McpPool, McpClient } = require("../../pkg/nodejs/mcp_edge.js");

const { EVERYTHING_URL, PY2026_URL } = process.env;
if (!EVERYTHING_URL || !PY2026_URL) {
  console.error("set EVERYTHING_URL and PY2026_URL (see tests/servers/start-all.sh)");
  process.exit(2);
}

// One server directly.
const client = await McpClient.connect(PY2026_URL, { protocol: "auto" });
console.log(`python server: ${client.serverInfo.name}, era ${client.era}, protocol ${client.protocolVersion}`);
const sum = await client.callTool("add", { a: 2, b: 40 }, { onProgress: (p) => console.log("progress", p) });
console.log(`add -> ${sum.content[0].text}, structured ${JSON.stringify(sum.structuredContent)}`);
await client.close();

// Many servers as one tool registry.
const pool = new McpPool(
  {
    mcpServers: {
      everything: { url: "${EVERYTHING}", protocol: "2025-11-25" },
      python: { url: "${PY}", category: "read" },
    },
  },
  { vars: { EVERYTHING: EVERYTHING_URL, PY: PY2026_URL }, onEvent: (e) => e.type === "state" && console.log(`${e.server}: ${e.from} -> ${e.to}`) },
);
const status = await pool.connectAll();
for (const s of status.servers) console.log(`${s.name}: ${s.state}, ${s.toolCount} tools (${s.era})`);
const tools = pool.tools({ format: "openai" });
console.log(`${tools.length} tools for the model, e.g. ${tools.slice(0, 3).map((t) => t.function.name).join(", ")}`);
const result = await pool.call("mcp__everything__echo", { message: "hello from the pool" });
console.log(`echo -> ${result.content[0].text} (isError: ${result.isError})`);
await pool.close();
if (result.isError || !status.servers.every((s) => s.state === "connected")) process.exit(1);
