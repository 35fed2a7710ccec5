// The fault-injection soak in Node: N tool calls through McpPool (the `nodejs` package) to a
// Python server (2026-07-28 and 2025 era) and server-everything (2025 era), each behind a
// fault-injection proxy. Prints the figures and one `check passed` / `check FAILED` line per
// invariant; exits 1 when one fails. Start the servers first (tests/soak/run.sh does it all):
//
//   node --expose-gc tests/soak/run-node.mjs --py http://127.0.0.1:P/mcp --everything http://127.0.0.1:Q/mcp --tasks http://127.0.0.1:R/mcp \
//        [--calls 1000] [--seed 1] [--concurrency 8] [--out report.json]
//
// The Python server must run with --fault-tools. `--handshake-faults 1` also breaks connects
// (initialize, discover): a server whose re-initialization fails stays down until the pool
// reconnects it, which shows up as NOT_CONNECTED failures.
//
// After the calls and their accounting, the flap phase (soak.mjs `flap`, faults off): each server
// in turn goes away at its proxy and comes back, and the pool must answer SERVER_UNAVAILABLE
// meanwhile and reconnect it on its own (no `reconnect()`); its recovery times are reported.
import { createRequire } from "node:module";
import { args, CLIENT, HANG_AFTER_MS, startProxies, conclude } from "./harness.mjs";
import { servers, poolConfig, plan, runCalls, flap } from "./soak.mjs";

const opts = args({ py: "", everything: "", tasks: "", calls: 1000, seed: 1, concurrency: 8, out: "", "handshake-faults": 0 });
if (!opts.py || !opts.everything || !opts.tasks) {
  console.error("--py, --everything and --tasks are required (see the header of this file)");
  process.exit(2);
}
const require = createRequire(import.meta.url);
// The nodejs glue keeps its instance to itself: catch it on the way in to read its memory size.
const Instance = WebAssembly.Instance;
let instance = null;
WebAssembly.Instance = function (...a) {
  instance = new Instance(...a);
  return instance;
};
const pkg = require("../../pkg/nodejs/mcp_edge.js");
WebAssembly.Instance = Instance;

const memory = () => {
  globalThis.gc?.();
  const m = process.memoryUsage();
  return { "JS heap": m.heapUsed, "wasm linear memory": instance?.exports.memory.buffer.byteLength ?? 0, rss: m.rss };
};

const proxies = await startProxies({ py: opts.py, everything: opts.everything, tasks: opts.tasks, seed: opts.seed, handshakeFaults: Boolean(opts["handshake-faults"]) });
const all = servers(proxies.urls);
const events = [];
const pool = new pkg.McpPool(poolConfig(all), { ...CLIENT, onEvent: (e) => events.push({ ...e, at: Date.now() }) });
const status = await pool.connectAll();
const down = status.servers.filter((s) => s.state !== "connected");
if (down.length) {
  console.log(`check FAILED: soak (node): every server connects before faults start: ${JSON.stringify(down)}`);
  await proxies.close();
  process.exit(1);
}
// Warm up (first calls list tools, compile schemas), then measure from here.
for (const name of ["mcp__py26__count_idempotent", "mcp__py25__count_idempotent"]) {
  await pool.call(name, { key: `warmup-${opts.seed}-${name}` });
}
await pool.call("mcp__everything__echo", { message: "warmup" });
const runId = `soak-node-${opts.seed}-${Date.now()}`;
const calls = plan({ calls: opts.calls, seed: opts.seed, runId, all });
const before = memory();
await proxies.setFaults(true);
const started = Date.now();
let lastShown = 0;
// Memory every tenth of the run: flat after the warm-up, or growing with the calls?
const samples = [];
const outcomes = await runCalls({
  pool,
  calls,
  concurrency: opts.concurrency,
  hangAfterMs: HANG_AFTER_MS,
  onProgress: (done, total) => {
    if (done - lastShown >= Math.max(1, Math.floor(total / 10))) {
      lastShown = done;
      const m = memory();
      samples.push({ done, ...m });
      const mib = (n) => (n / (1 << 20)).toFixed(1);
      console.log(
        `   ${done}/${total} calls settled (${((Date.now() - started) / 1000).toFixed(0)} s); ` +
          `JS heap ${mib(m["JS heap"])} MiB, wasm ${mib(m["wasm linear memory"])} MiB, rss ${mib(m.rss)} MiB`,
      );
    }
  },
});
const ms = Date.now() - started;
const ok = await conclude({
  name: "node",
  opts,
  runId,
  calls,
  outcomes,
  ms,
  before,
  memory,
  proxies,
  // Server state changes during the calls (the flap phase's are in its own figures).
  extra: { samples, poolEvents: events.filter((e) => e.type === "state"), status: pool.status() },
  flap: async () => {
    const from = events.length;
    const f = await flap({ pool, all, setOutage: proxies.setOutage, hangAfterMs: HANG_AFTER_MS, tag: `flap-node-${runId}` });
    return { ...f, poolEvents: events.slice(from).filter((e) => e.type === "state") };
  },
});
await pool.close();
await proxies.close();
process.exit(ok ? 0 : 1);
