// The tool-search measurements, run unchanged in Node and in a Chromium page (no Node imports):
// connect a pool to every server of the catalog (plus the real test servers), then time
// `searchTools` over the query set, score its top 5 against the expected tools, and read what the
// exports cost with and without deferral.
//
//   const figures = await measure({ McpPool, config, queries, repeats, memory });
//
// `memory()` returns the wasm linear memory in bytes (the caller knows how to reach it).

const FORMATS = ["openai", "openai-responses", "anthropic", "mcp"];

function percentile(values, p) {
  const v = [...values].sort((a, b) => a - b);
  return v[Math.round((v.length - 1) * p)];
}

export async function measure({ McpPool, config, queries, repeats, memory }) {
  const before = memory();
  const t0 = performance.now();
  const pool = new McpPool(config, { maxConcurrentConnects: 8, connectTimeoutMs: 60_000 });
  try {
    const status = await pool.connectAll();
    const connectMs = performance.now() - t0;
    const down = status.servers.filter((s) => s.state !== "connected").map((s) => `${s.name}: ${s.state}`);
    const tools = pool.toolInfo().length;
    const after = memory();
    // Warm once, then time every query `repeats` times.
    for (const q of queries) pool.searchTools(q.query, { limit: 5 });
    const latencies = [];
    for (let r = 0; r < repeats; r++) {
      for (const q of queries) {
        const t = performance.now();
        pool.searchTools(q.query, { limit: 5 });
        latencies.push((performance.now() - t) * 1000);
      }
    }
    let found = 0;
    let wanted = 0;
    let hit1 = 0;
    for (const q of queries) {
      const hits = pool.searchTools(q.query, { limit: 5 });
      const got = hits.map((h) => `${h.server}/${h.tool}`);
      const want = q.expected.map((e) => `${e.server}/${e.tool}`);
      wanted += want.length;
      found += want.filter((w) => got.includes(w)).length;
      if (want.includes(got[0])) hit1 += 1;
    }
    const tokens = {};
    for (const format of FORMATS) {
      const d = pool.deferral({ format });
      tokens[format] = { all: d.totalTokens, upfront: d.upfrontTokens, deferred: d.deferred };
    }
    return {
      servers: status.servers.length,
      down,
      tools,
      connectMs,
      queryUs: { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) },
      recallAt5: found / wanted,
      hitAt1: hit1 / queries.length,
      wasmBytes: { before, after },
      tokens,
    };
  } finally {
    await pool.close();
    pool.free();
  }
}
