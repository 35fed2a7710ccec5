// The soak's calls and their accounting. Runs unchanged in Node and in a browser page (no Node
// imports): `plan` decides the calls from a seed, `runCalls` makes them through an `McpPool` and
// records how each one ended, `summarize` checks the outcomes against the executions the servers
// counted. `flap` is the phase after those calls: each server goes away and comes back, and the
// pool must answer SERVER_UNAVAILABLE meanwhile and reconnect it on its own.

/** Codes a failed call may carry (McpError codes and the pool's own). */
export const TYPED_CODES = new Set([
  "RPC", "HTTP_STATUS", "UNAUTHORIZED", "TIMEOUT", "ABORTED", "NETWORK", "CORS", "STREAM_DROPPED",
  "LEGACY_TRANSPORT", "UNSUPPORTED_VERSION", "NOT_CONNECTED", "CLOSED", "TOOL_REJECTED",
  "OUTPUT_SCHEMA", "CONFIG", "INVALID_ARGUMENT", "EVENT_TOO_LARGE", "BODY_TOO_LARGE", "PROTOCOL",
  "CIRCUIT_OPEN", "UNKNOWN_TOOL", "TOOL_CHANGED", "INVALID_META", "TASK_FAILED", "TASK_CANCELLED",
  "TASK_EXPIRED", "TASK_TIMEOUT", "SERVER_UNAVAILABLE",
]);

/** Failures that say the request never ran: a counted execution behind one is a lie. */
const NEVER_RAN = new Set(["HTTP_STATUS", "NOT_CONNECTED", "CIRCUIT_OPEN", "UNKNOWN_TOOL", "TOOL_CHANGED", "CLOSED", "SERVER_UNAVAILABLE"]);

/**
 * The servers of a soak (`urls`: {py26, py25, everything, tasks26}, each through its own proxy),
 * their tools, and the pool config. The Python server counts executions per key for its two
 * tools; `count_idempotent` is annotated idempotentHint, so the client may send it twice. The
 * Tasks extension fixture's `count_task` always runs as a task (polled through the proxy's faults)
 * and counts its executions too: a task is never run twice, a result never lost.
 */
export function servers(urls) {
  const counted = [
    { tool: "count_effect", idempotent: false, counted: true },
    { tool: "count_idempotent", idempotent: true, counted: true },
  ];
  return {
    py26: { url: urls.py26, protocol: "auto", tools: counted },
    py25: { url: urls.py25, protocol: "2025-11-25", tools: counted },
    everything: {
      url: urls.everything,
      protocol: "2025-11-25",
      tools: [{ tool: "echo", idempotent: false, counted: false }],
    },
    tasks26: {
      url: urls.tasks26,
      protocol: "auto",
      tools: [{ tool: "count_task", idempotent: false, counted: true }],
    },
  };
}

/** The pool's `mcpServers` document for `servers(...)`. */
export function poolConfig(all) {
  const mcpServers = {};
  for (const [name, s] of Object.entries(all)) mcpServers[name] = { url: s.url, protocol: s.protocol };
  return { mcpServers };
}

/** A seeded PRNG (mulberry32): a float in [0, 1) per call. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `calls` calls spread over the servers and tools, from `seed`; keys start with `runId`. */
export function plan({ calls, seed, runId, all }) {
  const rand = prng(seed);
  const choices = [];
  for (const [server, s] of Object.entries(all)) for (const t of s.tools) choices.push({ server, ...t });
  const out = [];
  for (let i = 0; i < calls; i++) {
    const c = choices[Math.floor(rand() * choices.length)];
    const key = `${runId}-${i}`;
    const args = c.tool === "echo" ? { message: key } : { key };
    // Half of the calls ask for progress (the Python tools then answer on an event stream).
    const progress = rand() < 0.5;
    out.push({ i, key, args, progress, name: `mcp__${c.server}__${c.tool}`, ...c });
  }
  return out;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Makes every planned call through `pool`, `concurrency` at a time, and records how each ended
 * (compactly: the runner's own memory must not hide the client's): `ok` and whether the result
 * was this call's own (`own`), `error` with its code, or `hung` when it had not settled
 * `hangAfterMs` after it started (its deadline plus a grace period). A few messages per failure
 * code are kept for the report.
 */
export async function runCalls({ pool, calls, concurrency, hangAfterMs, onProgress }) {
  const outcomes = new Array(calls.length);
  const messages = {};
  let next = 0;
  let done = 0;
  const keep = (code, text) => {
    const kept = (messages[code] ??= 0) < 3 || !TYPED_CODES.has(code);
    if (kept) messages[code] += 1;
    return kept ? text.slice(0, 300) : undefined;
  };
  const worker = async () => {
    while (next < calls.length) {
      const c = calls[next++];
      const started = Date.now();
      let timer;
      const hang = new Promise((r) => {
        timer = setTimeout(() => r("__hung__"), hangAfterMs);
      });
      const options = c.progress ? { onProgress: () => {} } : {};
      const settled = await Promise.race([pool.call(c.name, c.args, options), hang]).catch((e) => ({ thrown: String(e) }));
      clearTimeout(timer);
      const ms = Date.now() - started;
      if (settled === "__hung__") {
        outcomes[c.i] = { state: "hung", ms };
      } else if (settled?.thrown !== undefined) {
        // McpPool.call never rejects: a rejection is itself a failure without a typed error.
        outcomes[c.i] = { state: "error", code: null, message: settled.thrown, ms };
      } else {
        const text = settled?.content?.[0]?.text ?? "";
        if (settled?.isError) {
          const code = settled.error?.code ?? null;
          outcomes[c.i] = { state: "error", code, mayHaveRun: settled.error?.mayHaveRun, message: keep(String(code), text), ms };
        } else {
          const own = text.includes(expectedText(c));
          outcomes[c.i] = own ? { state: "ok", own, ms } : { state: "ok", own, text: text.slice(0, 300), ms };
        }
      }
      done += 1;
      if (onProgress) onProgress(done, calls.length);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  // A hung call may still settle: give stragglers a moment so the server counts are final.
  await sleep(50);
  return outcomes;
}

/** What a successful result must contain for call `c`. */
function expectedText(c) {
  return c.tool === "echo" ? `Echo: ${c.key}` : `key=${c.key} n=`;
}

/**
 * The soak's figures, from the planned `calls` and their `outcomes`. `executions` maps each
 * counted key to the number of times the server ran it; `ids.received` / `ids.forwarded` to the
 * JSON-RPC ids the proxy received / passed on for it. A non-idempotent call the server ran twice
 * is a duplicate of the client's making when the client sent it under two ids with no id
 * arriving twice. When one id arrived twice, the HTTP stack below the client re-sent the same
 * request on its own (Chromium does that for a POST whose reused keep-alive connection closed
 * before a response head, after the server ran it): that is reported apart, as is anything the
 * client then did in good faith (a 429 that answered the resend proves nothing about the first
 * copy). Every invariant must be 0: hung, lost, duplicated, untyped, misreported.
 */
export function summarize(calls, outcomes, executions, ids) {
  const r = {
    calls: outcomes.length,
    ok: 0,
    failed: 0,
    hung: 0,
    lost: 0,
    duplicated: 0,
    untyped: 0,
    misreported: 0,
    reissuedIdempotent: 0,
    resentByTransport: 0,
    failuresByCode: {},
    examples: {},
  };
  const note = (what, o) => {
    if (!r.examples[what]) r.examples[what] = [];
    if (r.examples[what].length < 5) r.examples[what].push(o);
  };
  outcomes.forEach((outcome, i) => {
    const c = calls[i];
    const o = { server: c.server, tool: c.tool, key: c.key, ...outcome };
    const ran = c.counted ? (executions[c.key] ?? 0) : null;
    if (c.counted && !c.idempotent && ran > 1) {
      const received = (ids.received[c.key] ?? []).map(String);
      const forwarded = (ids.forwarded[c.key] ?? []).map(String);
      const seen = { ran, received, forwarded };
      if (received.length > new Set(received).size) {
        r.resentByTransport += 1;
        note("re-sent by the transport", { ...o, ...seen });
      } else {
        r.duplicated += 1;
        note("duplicated", { ...o, ...seen });
      }
    }
    if (c.counted && c.idempotent && ran > 1) r.reissuedIdempotent += 1;
    if (o.state === "hung") {
      r.hung += 1;
      note("hung", o);
    } else if (o.state === "ok") {
      r.ok += 1;
      // A result that is not this call's own, or one the server never produced, was lost.
      if (!o.own || ran === 0) {
        r.lost += 1;
        note("lost", { ...o, ran });
      }
    } else {
      r.failed += 1;
      const code = o.code ?? "(none)";
      r.failuresByCode[code] = (r.failuresByCode[code] ?? 0) + 1;
      if (o.message) note(`failed ${code}`, o);
      if (!o.code || !TYPED_CODES.has(o.code)) {
        r.untyped += 1;
        note("untyped", o);
      } else if (NEVER_RAN.has(o.code) && ran > 0) {
        r.misreported += 1;
        note("misreported", { ...o, ran });
      }
    }
  });
  return r;
}

/** The invariants of a summary that must be zero, as [name, value] pairs. */
export function invariants(r) {
  return [
    ["calls hung past their deadline", r.hung],
    ["results lost", r.lost],
    ["non-idempotent executions duplicated", r.duplicated],
    ["failures without a typed error", r.untyped],
    ["failures claiming the call never ran although it did", r.misreported],
  ];
}

/**
 * The flap phase: each server in turn goes away (`setOutage(server, true)`: its proxy destroys
 * every connection) and comes back, with faults off, and the pool must recover it on its own.
 * Per server: its tool is called every 200 ms until `status()` says it is not connected (15 s),
 * then until its fast retries are spent (`slowRetry`, 20 s). Every call must settle within
 * `hangAfterMs`; each one made while the server was not connected must answer at once (1 s) with
 * SERVER_UNAVAILABLE naming the server and a numeric `nextRetryAt` (null while `connecting`: an
 * attempt is under way, no retry scheduled); another server must answer a call meanwhile, and
 * the others stay connected. Then the outage ends and `status()` is polled every 50 ms until the
 * server is connected again (30 s): the recovery time. A call to its tool must then succeed.
 * `pool.reconnect` is never called (spied on to prove it). Returns the figures and `problems`
 * (empty when every server recovered as it should).
 */
export async function flap({ pool, all, setOutage, hangAfterMs, tag }) {
  const started = Date.now();
  const own = Object.getPrototypeOf(pool).reconnect;
  let reconnects = 0;
  pool.reconnect = (...a) => {
    reconnects += 1;
    return own.apply(pool, a);
  };
  const names = Object.keys(all);
  const out = { servers: {}, unavailable: 0, unavailableMaxMs: 0, codes: {}, problems: [] };
  try {
    for (const [i, server] of names.entries()) {
      const r = await flapOne({ pool, all, server, others: [...names.slice(i + 1), ...names.slice(0, i)], setOutage, hangAfterMs, tag });
      out.servers[server] = r;
      out.unavailable += r.unavailable;
      out.unavailableMaxMs = Math.max(out.unavailableMaxMs, r.unavailableMaxMs);
      for (const [code, n] of Object.entries(r.codes)) out.codes[code] = (out.codes[code] ?? 0) + n;
      out.problems.push(...r.problems.map((p) => `${server}: ${p}`));
    }
  } finally {
    delete pool.reconnect;
  }
  if (reconnects) out.problems.push(`pool.reconnect was called ${reconnects} times`);
  const times = Object.values(out.servers).map((r) => r.recoveryMs).filter((ms) => ms !== null).sort((a, b) => a - b);
  out.recoveryMs = {
    median: times.length ? times[Math.floor((times.length - 1) / 2)] : null,
    max: times.length ? times[times.length - 1] : null,
  };
  out.reconnects = reconnects;
  out.ms = Date.now() - started;
  return out;
}

/** A call to `server`'s first tool (its idempotent one if it has one), with a fresh key. */
function toolCall(all, server, key) {
  const t = all[server].tools.find((t) => t.idempotent) ?? all[server].tools[0];
  return { name: `mcp__${server}__${t.tool}`, args: t.tool === "echo" ? { message: key } : { key } };
}

/** A server's status for a report line (its error message cut short). */
function brief({ state, retries, nextRetryAt, slowRetry, gaveUp, lastError }) {
  const error = lastError && { code: lastError.code, message: lastError.message.slice(0, 120) };
  return JSON.stringify({ state, retries, nextRetryAt, slowRetry, gaveUp, lastError: error });
}

/** `pool.call`, settled or given up on after `ms`: {result, ms} or {hung: true, ms}. */
async function bounded(pool, { name, args }, ms) {
  const t0 = Date.now();
  let timer;
  const hang = new Promise((r) => {
    timer = setTimeout(() => r("__hung__"), ms);
  });
  const result = await Promise.race([pool.call(name, args), hang]).catch((e) => ({ isError: true, error: { code: null, message: String(e) } }));
  clearTimeout(timer);
  return result === "__hung__" ? { hung: true, ms: Date.now() - t0 } : { result, ms: Date.now() - t0 };
}

/** One server's outage and recovery (see `flap`). */
async function flapOne({ pool, all, server, others, setOutage, hangAfterMs, tag }) {
  const r = {
    codes: {}, unavailable: 0, unavailableMaxMs: 0, otherwise: 0, noticedMs: null, slowRetryMs: null, recoveryMs: null,
    timeline: [], examples: [], problems: [],
  };
  let n = 0;
  const next = () => toolCall(all, server, `${tag}-${server}-${n++}`);
  const status = (name = server) => pool.status().servers.find((s) => s.name === name);
  const t0 = Date.now();
  let last = "";
  // The server's status, with each change kept (compactly) for the report.
  const watch = () => {
    const s = status();
    const seen = `${s.state} ${s.slowRetry} ${s.retries} ${s.gaveUp} ${s.lastError?.code} ${s.nextRetryAt === null}`;
    if (seen !== last) {
      last = seen;
      // (`nextRetryAt` is on the pool's clock: ms since it was made.)
      const { state, slowRetry, retries, gaveUp, nextRetryAt } = s;
      r.timeline.push({ ms: Date.now() - t0, state, slowRetry, retries, gaveUp, nextRetryAt, error: s.lastError?.code });
    }
    return s;
  };
  const note = (what) => {
    if (r.examples.length < 5) r.examples.push(what);
  };
  // One call to the server's tool while it is going or gone.
  const call = async () => {
    const down = watch().state !== "connected";
    const { result, hung, ms } = await bounded(pool, next(), hangAfterMs);
    const code = hung ? "hung" : result.isError ? (result.error?.code ?? "(none)") : "ok";
    r.codes[code] = (r.codes[code] ?? 0) + 1;
    if (hung) r.problems.push(`a call did not settle within ${hangAfterMs} ms`);
    if (!down || hung) return;
    // A retry is always scheduled while it is `failed` (slow retries never stop); while an attempt
    // runs (`connecting`) none is, by design.
    const e = result.error ?? {};
    const retry = e.state === "connecting" ? e.nextRetryAt === null : typeof e.nextRetryAt === "number";
    if (code === "SERVER_UNAVAILABLE" && e.server === server && retry && ms <= 1000) {
      r.unavailable += 1;
      r.unavailableMaxMs = Math.max(r.unavailableMaxMs, ms);
    } else if (r.otherwise++ === 0) {
      r.firstOtherwise = { code, state: e.state, server: e.server, nextRetryAt: e.nextRetryAt, ms };
      note({ ms, error: e, text: result.content?.[0]?.text?.slice(0, 200) });
    }
  };
  // Poll `until` every `every` ms (calling when `calling`) for at most `bound` ms.
  const wait = async (until, bound, every, calling) => {
    const from = Date.now();
    while (!until(watch())) {
      if (Date.now() - from > bound) return null;
      if (calling) await call();
      await sleep(every);
    }
    return Date.now() - from;
  };

  // Connected first (the call phase's faults may have taken it down: it may still be reconnecting).
  if ((await wait((s) => s.state === "connected", 30_000, 50, false)) === null) {
    r.problems.push(`not connected before its outage: ${brief(status())}`);
    return r;
  }
  await setOutage(server, true);
  try {
    r.noticedMs = await wait((s) => s.state !== "connected", 15_000, 200, true);
    if (r.noticedMs === null) {
      r.problems.push("still connected 15 s into its outage");
      return r;
    }
    // Another server answers meanwhile (the next one that is connected: an earlier one may not have recovered).
    const up = others.filter((o) => status(o).state === "connected");
    const other = up[0] ?? others[0];
    const o = await bounded(pool, toolCall(all, other, `${tag}-${server}-other`), hangAfterMs);
    r.other = other;
    if (o.hung || o.result.isError) {
      r.problems.push(`${other} did not answer during the outage: ${o.hung ? "hung" : o.result.error?.code}`);
      note({ other, error: o.result?.error, text: o.result?.content?.[0]?.text?.slice(0, 200) });
    }
    r.slowRetryMs = await wait((s) => s.slowRetry, 20_000, 200, true);
    if (r.slowRetryMs === null) r.problems.push("fast retries not spent (slowRetry) 20 s after it went down");
    const dropped = up.filter((o) => status(o).state !== "connected");
    if (dropped.length) r.problems.push(`other servers went down during its outage: ${dropped.join(", ")}`);
    if (r.otherwise) {
      r.problems.push(
        `${r.otherwise} calls made while it was down did not answer SERVER_UNAVAILABLE at once with its retry time ` +
          `(the first: ${JSON.stringify(r.firstOtherwise)})`,
      );
    } else if (r.unavailable === 0) {
      r.problems.push("no call answered SERVER_UNAVAILABLE while it was down");
    }
  } finally {
    await setOutage(server, false);
  }
  r.recoveryMs = await wait((s) => s.state === "connected", 30_000, 50, false);
  if (r.recoveryMs === null) {
    r.problems.push(`not connected again 30 s after its outage ended: ${brief(status())}`);
    return r;
  }
  const after = await bounded(pool, next(), hangAfterMs);
  if (after.hung || after.result.isError) {
    r.problems.push(`a call after it came back failed: ${after.hung ? "hung" : after.result.error?.code}`);
    note({ after: true, ms: after.ms, error: after.result?.error, text: after.result?.content?.[0]?.text?.slice(0, 200) });
  }
  return r;
}
