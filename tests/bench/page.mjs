// The benchmark page: loads the mcp-edge `web` package and the SDK bundle side by side, plus the
// in-page server (mcp-server.mjs behind a `fetch` that never touches the network), and exposes
// `window.bench` for runner.mjs. Every measurement connects its own client, checks what the client
// delivered (each progress event, each echo) and closes it; no timing leaves the page unchecked.
import init, { McpClient } from "/pkg/mcp_edge.js";
import { Client, StreamableHTTPClientTransport } from "/sdk.js";
import { createMcpHandler } from "/mcp-server.mjs";

const wasm = await init();
const LONG_MS = 600_000;

/** An in-page server per era: a fetch answering from JS. */
const inPageFetch = {};
for (const era of ["2026-07-28", "2025-11-25"]) {
  const handle = createMcpHandler(era);
  inPageFetch[era] = (input, init) => handle(new Request(input, init));
}

/** Each client behind the same three operations. */
const CLIENTS = {
  // No client: the same `tools/call` as one bare `fetch` + `text()` and a `JSON.parse` of its one
  // SSE event. The echo rows' floor: what any client pays for the round trip in this browser.
  async fetch(url, era, fetchImpl) {
    const send = fetchImpl ?? fetch;
    let headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": era };
    let id = 0;
    const post = async (message) => {
      const response = await send(url, { method: "POST", headers, body: JSON.stringify(message) });
      const text = await response.text();
      if (!response.ok) throw new Error(`bare fetch: HTTP ${response.status} ${text}`);
      return { response, text };
    };
    if (era !== "2026-07-28") {
      const clientInfo = { name: "bench-fetch", version: "1.0.0" };
      const { response } = await post({ jsonrpc: "2.0", id: ++id, method: "initialize", params: { protocolVersion: era, capabilities: {}, clientInfo } });
      headers = { ...headers, "mcp-session-id": response.headers.get("mcp-session-id") };
      await post({ jsonrpc: "2.0", method: "notifications/initialized" });
    }
    return {
      call: async (name, args) => {
        const { text } = await post({ jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name, arguments: args } });
        return JSON.parse(text.slice(text.indexOf("data: ") + 6)).result;
      },
      close: async () => {
        if (headers["mcp-session-id"]) await send(url, { method: "DELETE", headers });
      },
    };
  },
  async edge(url, era, fetchImpl) {
    const c = await McpClient.connect(url, {
      protocol: era,
      timeoutMs: LONG_MS,
      maxTotalTimeoutMs: LONG_MS,
      ...(fetchImpl ? { fetch: fetchImpl } : {}),
    });
    if (c.protocolVersion !== era) throw new Error(`mcp-edge negotiated ${c.protocolVersion}, not ${era}`);
    await c.listTools();
    return {
      call: (name, args, onProgress) => c.callTool(name, args, onProgress ? { onProgress } : {}),
      close: () => c.close(),
    };
  },
  async sdk(url, era, fetchImpl) {
    const options = era === "2026-07-28" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {};
    const client = new Client({ name: "bench", version: "1.0.0" }, options);
    const transport = new StreamableHTTPClientTransport(new URL(url), fetchImpl ? { fetch: fetchImpl } : {});
    await client.connect(transport, { timeout: LONG_MS });
    if (client.getNegotiatedProtocolVersion() !== era) {
      throw new Error(`SDK negotiated ${client.getNegotiatedProtocolVersion()}, not ${era}`);
    }
    await client.listTools();
    return {
      call: (name, args, onProgress) =>
        client.callTool(
          { name, arguments: args },
          { timeout: LONG_MS, ...(onProgress ? { onprogress: onProgress, resetTimeoutOnProgress: true } : {}) },
        ),
      close: () => client.close(),
    };
  },
};

const endpoint = (era, inPage) => `${location.origin}${inPage ? "/in-page" : ""}/${era.slice(0, 4)}/mcp`;
const connect = (client, era, inPage) =>
  CLIENTS[client](endpoint(era, inPage), era, inPage ? inPageFetch[era] : undefined);

const textOf = (result) => result?.content?.[0]?.text;
const gc = () => globalThis.gc?.();
const heap = () => performance.memory?.usedJSHeapSize ?? 0;

/** `flood` of `bytes` in events of `size`: body bytes, milliseconds, MB/s; checks every event arrived. */
async function stream({ client, era, inPage, size, bytes }) {
  const count = Math.max(1, Math.round(bytes / size));
  const c = await connect(client, era, inPage);
  try {
    gc();
    let seen = 0;
    let last = 0;
    const t0 = performance.now();
    const result = await c.call("flood", { count, size }, (p) => {
      seen++;
      last = p.progress;
    });
    const ms = performance.now() - t0;
    const [, n, body] = /^flood (\d+) (\d+)$/.exec(textOf(result) ?? "") ?? [];
    if (Number(n) !== count) throw new Error(`${client}: unexpected flood result ${JSON.stringify(result)}`);
    if (seen !== count || last !== count) throw new Error(`${client}: ${seen} of ${count} progress events (last ${last})`);
    return { ms, bytes: Number(body), mbps: Number(body) / 1e6 / (ms / 1e3) };
  } finally {
    await c.close();
  }
}

/** `calls` echo calls with `concurrency` in flight: per-call milliseconds and calls per second. */
async function echo({ client, era, inPage = false, calls, concurrency, warmup }) {
  const c = await connect(client, era, inPage);
  try {
    const one = async (i) => {
      const text = `echo ${i}`;
      const t0 = performance.now();
      const result = await c.call("echo", { text });
      const ms = performance.now() - t0;
      if (textOf(result) !== text) throw new Error(`${client}: echo ${i} came back as ${JSON.stringify(result)}`);
      return ms;
    };
    for (let i = 0; i < warmup; i++) await one(-1 - i);
    gc();
    const latencies = [];
    let next = 0;
    const t0 = performance.now();
    const worker = async () => {
      while (next < calls) latencies.push(await one(next++));
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    const ms = performance.now() - t0;
    latencies.sort((a, b) => a - b);
    const pct = (p) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)];
    return { p50: pct(50), p99: pct(99), callsPerSecond: calls / (ms / 1e3) };
  } finally {
    await c.close();
  }
}

/**
 * Peak growth of the JS heap and of the wasm memory while `bytes` of `size`-byte events stream
 * (run in a fresh page: wasm memory never shrinks). The heap is sampled every 20 ms and every 256
 * events; `peakHeap` lets the runner add its CDP samples.
 */
async function memory({ client, era, size, bytes }) {
  const count = Math.max(1, Math.round(bytes / size));
  const c = await connect(client, era, false);
  try {
    gc();
    gc();
    const baseHeap = heap();
    const baseWasm = wasm.memory.buffer.byteLength;
    let peak = baseHeap;
    const sample = () => {
      const h = heap();
      if (h > peak) peak = h;
    };
    const timer = setInterval(sample, 20);
    let seen = 0;
    try {
      const result = await c.call("flood", { count, size }, () => {
        if ((++seen & 255) === 0) sample();
      });
      if (!/^flood \d+ \d+$/.test(textOf(result) ?? "")) throw new Error(`${client}: unexpected flood result`);
    } finally {
      clearInterval(timer);
    }
    sample();
    if (seen !== count) throw new Error(`${client}: ${seen} of ${count} progress events`);
    return { baseHeap, peakHeap: peak, heapGrowth: peak - baseHeap, wasmGrowth: wasm.memory.buffer.byteLength - baseWasm };
  } finally {
    await c.close();
  }
}

window.bench = {
  stream,
  echo,
  memory,
  heap,
  info: () => ({ userAgent: navigator.userAgent, preciseMemory: typeof performance.memory?.usedJSHeapSize === "number", gc: typeof globalThis.gc === "function", isolated: crossOriginIsolated }),
};
document.body.dataset.ready = "true";
