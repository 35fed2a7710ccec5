// What the Node and Chromium soak runners share: arguments, the client options, the proxies in
// front of the servers (with their fault and outage switches), the servers' execution counts, and
// the report (the call phase's checks, then the flap phase's: see soak.mjs `flap`).
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { invariants, summarize } from "./soak.mjs";

/** `--name value` pairs of argv, with defaults. */
export function args(defaults) {
  const out = { ...defaults };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, "");
    if (!(key in defaults)) throw new Error(`unknown option --${key} (known: ${Object.keys(defaults).join(", ")})`);
    out[key] = typeof defaults[key] === "number" ? Number(argv[i + 1]) : argv[i + 1];
  }
  return out;
}

/**
 * The client options of every soak: the deadline each call must settle by, the SSE limit, the
 * connect timeout (no longer than `maxTotalTimeoutMs`: a connect's requests over that cap are
 * refused with CONFIG), and reconnect timing short enough for the flap phase (fast retries spent
 * within a few seconds, then one every 2 s).
 */
export const CLIENT = {
  timeoutMs: 2500,
  maxTotalTimeoutMs: 8000,
  connectTimeoutMs: 8000,
  maxTaskWaitMs: 8000,
  maxEventBytes: 65536,
  reconnect: { initialMs: 100, maxMs: 400, maxRetries: 3, slowMs: 2000, jitterPercent: 20 },
};
/** A call not settled this long after it started hung (its total deadline plus a grace period). */
export const HANG_AFTER_MS = CLIENT.maxTotalTimeoutMs + 3000;

/**
 * Starts tests/soak/proxies.mjs (a child process, stopped by `close()`): one proxy per server,
 * each with its own fault schedule derived from `seed`. Returns their URLs and the controls.
 */
export async function startProxies({ py, everything, tasks, seed, handshakeFaults }) {
  const child = spawn(
    process.execPath,
    [
      fileURLToPath(new URL("./proxies.mjs", import.meta.url)),
      "--py", py, "--everything", everything, "--tasks", tasks, "--seed", String(seed),
      "--max-event-bytes", String(CLIENT.maxEventBytes), "--stall-ms", String(CLIENT.timeoutMs + 1500),
      "--handshake-faults", handshakeFaults ? "1" : "0",
    ],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  const first = await new Promise((resolve, reject) => {
    let text = "";
    child.stdout.on("data", (c) => {
      text += c;
      if (text.includes("\n")) resolve(text.slice(0, text.indexOf("\n")));
    });
    child.on("exit", (code) => reject(new Error(`proxies exited (${code}) before starting`)));
  });
  const { urls, control } = JSON.parse(first);
  const stats = async () => (await fetch(`${control}/stats`)).json();
  return {
    urls,
    setFaults: async (on) => {
      await fetch(`${control}/faults?on=${on ? 1 : 0}`, { method: "POST" });
    },
    setOutage: async (server, on) => {
      const r = await fetch(`${control}/outage?server=${encodeURIComponent(server)}&on=${on ? 1 : 0}`, { method: "POST" });
      if (!r.ok) throw new Error(`outage ${server}: HTTP ${r.status}`);
    },
    stats,
    close: () =>
      new Promise((resolve) => {
        child.once("exit", resolve);
        child.stdin.end();
      }),
  };
}

/** Executions per key the counting servers (the Python server, the tasks fixture) counted, for
 * keys starting with `prefix`. */
async function executions(urls, prefix) {
  const out = {};
  for (const url of urls) {
    const admin = url.replace(/\/mcp$/, "/admin/executions");
    const r = await fetch(`${admin}?prefix=${encodeURIComponent(prefix)}`);
    if (!r.ok) throw new Error(`${admin}: HTTP ${r.status}`);
    Object.assign(out, await r.json());
  }
  return out;
}

const mib = (n) => (n / (1 << 20)).toFixed(1);

/** Prints the figures and one check line per invariant; returns whether all hold. */
function report(name, summary, meta) {
  console.log(`\n== soak (${name}): ${summary.calls} calls, seed ${meta.seed}, ${(meta.ms / 1000).toFixed(1)} s`);
  console.log(`   ok ${summary.ok}, failed ${summary.failed} (${JSON.stringify(summary.failuresByCode)})`);
  console.log(`   idempotent calls the server ran twice (allowed): ${summary.reissuedIdempotent}`);
  console.log(
    `   non-idempotent calls run twice after the HTTP stack re-sent a request (one JSON-RPC id received twice): ${summary.resentByTransport}`,
  );
  for (const [k, v] of Object.entries(meta.memory)) {
    console.log(`   memory ${k}: before ${mib(v.before)} MiB, after ${mib(v.after)} MiB`);
  }
  console.log(`   faults injected: ${JSON.stringify(meta.faults)}`);
  let ok = true;
  // The zero counts below prove something only if faults were injected: at least a tenth of the
  // requests (about a third are, by the proxy's weights), of at least four kinds.
  const requests = Object.values(meta.faults).reduce((a, n) => a + n, 0);
  const kinds = Object.entries(meta.faults).filter(([k, n]) => k !== "none" && n > 0);
  const injected = kinds.reduce((a, [, n]) => a + n, 0);
  const enough = injected * 10 >= requests && kinds.length >= 4;
  ok = enough;
  console.log(`check ${enough ? "passed" : "FAILED"}: soak (${name}): faults injected into ${injected} of ${requests} requests, ${kinds.length} kinds`);
  for (const [what, n] of invariants(summary)) {
    if (n === 0) {
      console.log(`check passed: soak (${name}): ${what}: 0`);
    } else {
      ok = false;
      console.log(`check FAILED: soak (${name}): ${what}: ${n}`);
    }
  }
  // Examples of anything that broke an invariant (all examples are in the --out file).
  const broken = Object.entries(summary.examples).filter(([k]) => !k.startsWith("failed "));
  if (broken.length) console.log(`   examples: ${JSON.stringify(Object.fromEntries(broken), null, 1)}`);
  return ok;
}

/**
 * Ends a soak: faults off, a moment for executions still under way on the server, memory again
 * (`memory()` gives {name: bytes}; `before` is its earlier reading), the server's counts, the
 * figures and the checks. Then, faults still off, the flap phase when `flap` is given (it runs
 * soak.mjs `flap` in the runtime and returns its result; see `reportFlap`). Writes {summary, meta}
 * to `opts.out` when given (the flap's figures under `meta.flap`); returns whether every invariant
 * held.
 */
export async function conclude({ name, opts, runId, calls, outcomes, ms, before, memory, proxies, extra = {}, flap }) {
  await proxies.setFaults(false);
  await new Promise((r) => setTimeout(r, 1500));
  const { summary, faults } = await sumUp(opts, runId, calls, outcomes.splice(0), proxies);
  // Measured once the outcomes and the servers' counts are summed up and released: what is left
  // is the client's (and the plan, which was there before too).
  const after = await memory();
  const meta = {
    seed: opts.seed,
    ms,
    memory: Object.fromEntries(Object.keys(before).map((k) => [k, { before: before[k], after: after[k] }])),
    faults,
    ...extra,
  };
  let ok = report(name, summary, meta);
  if (flap) {
    meta.flap = await flap().catch((e) => ({ problems: [`the phase failed: ${e?.stack ?? e}`] }));
    ok = reportFlap(name, meta.flap) && ok;
  }
  if (opts.out) await writeFile(opts.out, JSON.stringify({ summary, meta }, null, 1));
  return ok;
}

/** Prints the flap phase's figures (soak.mjs `flap`) and its two checks; returns whether both hold. */
function reportFlap(name, f) {
  const { servers = {}, problems } = f;
  const recovery = Object.fromEntries(Object.entries(servers).map(([s, r]) => [s, r.recoveryMs]));
  console.log(`\n== soak (${name}): flap, ${((f.ms ?? 0) / 1000).toFixed(1)} s`);
  console.log(`   recovery ms after the outage ended: ${JSON.stringify(recovery)}; median ${f.recoveryMs?.median}, max ${f.recoveryMs?.max}`);
  for (const [s, r] of Object.entries(servers)) {
    console.log(`   ${s}: noticed down after ${r.noticedMs} ms, slow retries after ${r.slowRetryMs} ms more; calls ${JSON.stringify(r.codes)}`);
  }
  const down = problems.filter((p) => p.includes("SERVER_UNAVAILABLE") || p.includes("did not settle"));
  const check = (good, what, list) => {
    console.log(`check ${good ? "passed" : "FAILED"}: soak (${name}): ${what}`);
    for (const p of list) console.log(`   ${p}`);
  };
  check(
    down.length === 0 && f.unavailable > 0,
    `calls to a server that is down settle at once with SERVER_UNAVAILABLE (${f.unavailable ?? 0} such answers, slowest ${f.unavailableMaxMs} ms)`,
    down,
  );
  const rest = problems.filter((p) => !down.includes(p));
  check(
    rest.length === 0,
    `every server recovers without reconnect() (${Object.keys(servers).length} servers, recovery median ${f.recoveryMs?.median} ms, max ${f.recoveryMs?.max} ms)`,
    rest,
  );
  const examples = Object.entries(servers).filter(([, r]) => r.problems.length);
  for (const [s, r] of examples) console.log(`   ${s}: status changes ${JSON.stringify(r.timeline)}; examples ${JSON.stringify(r.examples)}`);
  return problems.length === 0 && f.unavailable > 0;
}

/** The summary of a soak and the faults injected (the large inputs stay in this frame). */
async function sumUp(opts, runId, calls, outcomes, proxies) {
  const stats = await proxies.stats();
  const ids = {
    forwarded: Object.assign({}, ...Object.values(stats).map((s) => s.calls)),
    received: Object.assign({}, ...Object.values(stats).map((s) => s.received)),
  };
  const summary = summarize(calls, outcomes, await executions([opts.py, opts.tasks], runId), ids);
  return { summary, faults: faultTotals(stats) };
}

/** Adds up the proxies' fault counts. */
function faultTotals(stats) {
  const total = {};
  for (const s of Object.values(stats)) {
    for (const [k, v] of Object.entries(s.faults)) total[k] = (total[k] ?? 0) + v;
  }
  return total;
}
