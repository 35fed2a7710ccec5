// A dedicated Web Worker holding an McpPool, driven by the page's messages:
//   {id, op: "scope"}                          what global scope this is
//   {id, op: "connect", config, options}       new McpPool(config, options).connectAll()
//   {id, op: "tools", format}                  pool.tools({format})
//   {id, op: "call", name, arguments}          pool.call(...); {type: "progress"} messages first
//   {id, op: "close"}                          pool.close()
// Answers {id, type: "result", value} or {id, type: "error", code, message}.
import init, { McpPool } from "/pkg/mcp_edge.js";

const ready = init(); // fetches mcp_edge_bg.wasm next to mcp_edge.js
let pool = null;

async function handle(msg) {
  switch (msg.op) {
    case "scope":
      return {
        window: typeof window,
        document: typeof document,
        dedicatedWorker: typeof DedicatedWorkerGlobalScope !== "undefined" && self instanceof DedicatedWorkerGlobalScope,
      };
    case "connect":
      await ready;
      if (pool) await pool.close();
      pool = new McpPool(msg.config, msg.options ?? {});
      return pool.connectAll();
    case "tools":
      return pool.tools({ format: msg.format ?? "mcp" });
    case "call":
      return pool.call(msg.name, msg.arguments ?? {}, {
        onProgress: (progress) => self.postMessage({ id: msg.id, type: "progress", progress }),
      });
    case "close":
      await pool?.close();
      pool = null;
      return true;
    default:
      throw new Error(`unknown op ${msg.op}`);
  }
}

self.onmessage = async ({ data }) => {
  try {
    self.postMessage({ id: data.id, type: "result", value: await handle(data) });
  } catch (e) {
    self.postMessage({ id: data.id, type: "error", code: e?.code, message: String(e?.message ?? e) });
  }
};
