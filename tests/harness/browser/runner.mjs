// The browser leg's scenario runner: runs a scenario file's steps (tests/scenarios/README.md)
// with the wasm client's public JS API, as `Scenario::run` in tests/harness/src/scenario.rs runs
// them natively, and records the raw transcript (recorder.mjs). Returns the raw entries and the
// failed expectations; the Rust test normalises and compares.
//
// How each step maps to the JS API:
//   connect                   McpClient.connect(url, {protocol, clientInfo, capabilities, timeoutMs,
//                             onTraffic, fetch, onElicitation / onSampling / onRoots})
//   list_tools, list_prompts, listTools(), listPrompts(), listResources(),
//   list_resources,           listResourceTemplates(); the result is recorded as the core's
//   list_resource_templates   list result `{tools: [...]}` (the JS API returns the array)
//   call                      callTool(name, args, opts) once the tools were listed in this
//                             session; before that request("tools/call", ...) (see below)
//   read_resource             readResource(uri, opts)
//   get_prompt                getPrompt(name, args, opts)
//   request                   request(method, params, opts)
//   opts                      {timeoutMs, onProgress (only with "progress": true), signal (an
//                             AbortController aborted `cancel_after_ms` after the call started)}
//
// `callTool` first lists the tools when no list was fetched yet (to learn output schemas): a
// `tools/list` exchange the native harness, which sends a bare `tools/call`, does not make. So a
// `call` before any `list_tools` step uses `request("tools/call")`, the API's equivalent of the
// harness's request; after a `list_tools` step it uses `callTool` (whose pre-listing is then a
// no-op, and whose output-schema check is exercised).

import init, { McpClient } from "/pkg/mcp_edge.js";
import { Recorder } from "./recorder.mjs";
import { linePacedFetch } from "./line-paced-fetch.mjs";
import { check, checkProgress, checkStep, errorJson, isObject } from "./scenario.mjs";

/** The client info every parity leg sends (tests/scenarios/README.md). */
export const CLIENT_INFO = { name: "mcp-edge-harness-tests", version: "0.1.0" };
/** The per-request timeout of the Rust parity legs (tests/harness/tests/support `config`). */
export const REQUEST_TIMEOUT_MS = 30_000;

const LIST_OPS = {
  list_tools: ["listTools", "tools"],
  list_prompts: ["listPrompts", "prompts"],
  list_resources: ["listResources", "resources"],
  list_resource_templates: ["listResourceTemplates", "resourceTemplates"],
};
/**
 * Lets every promise reaction already queued run (microtasks only: no network input, which the
 * paced fetch delivers in tasks, can come in between). The client reports one core event batch
 * through channels of different promise depth: a completion through the operation's promise, a
 * tool rejection or notification through the `notifications()` iterator, whose `next()` adds a
 * `.then` hop. Settling before recording a completion (or an input request) puts the events the
 * core emitted alongside it first, in the core's order.
 */
async function settle() {
  for (let i = 0; i < SETTLE_HOPS; i++) await Promise.resolve();
}
/** Microtask hops `settle` waits: several times the deepest chain seen (about four). */
const SETTLE_HOPS = 32;

let initialised = null;

/**
 * Runs `scenario` (the parsed scenario document) against the Streamable HTTP endpoint `url`.
 * Options: `paced` (default true: feed bodies line by line, see line-paced-fetch.mjs).
 * Resolves to `{entries, failures}`; never rejects for a failing step.
 */
export async function runScenario(scenario, url, { paced = true } = {}) {
  initialised ??= init();
  await initialised;
  const rec = new Recorder();
  const failures = [];
  const steps = scenario.steps;
  if (!Array.isArray(steps) || steps.length === 0) throw new Error("missing \"steps\" array");
  steps.forEach(checkStep);
  if (steps[0].op !== "connect") throw new Error(`${scenario.name}: the first step must be connect`);

  let client = null;
  let current = null; // the running request step: {index, answers, progress}
  let inputs = 0;
  let listedTools = false;
  let last = null;
  let pump = null;

  // Answers to the server's input requests, in order, from the running step's `answers`; the
  // same handler answers elicitation, sampling and roots (as the Rust driver does).
  const answer = (method) => async (params) => {
    await settle();
    inputs += 1;
    // The JS handler is not told which operation an input belongs to; the core ties an input to
    // the request whose response carried it, so the step is the one that opened that exchange.
    rec.event("input_request", { input: inputs, step: rec.lastInStep(), method, params });
    const next = current?.answers.shift();
    if (next === undefined) throw new Error(`the harness has no answer for ${method}`);
    return next;
  };
  const caps = scenario.capabilities;
  const options = {
    protocol: scenario.protocol ?? "auto",
    clientInfo: CLIENT_INFO,
    timeoutMs: REQUEST_TIMEOUT_MS,
    onTraffic: (r) => rec.traffic(r),
  };
  if (caps !== undefined) options.capabilities = caps;
  // A handler declares its capability when the scenario does not; register only the declared
  // ones, so the declared capabilities stay exactly the scenario's.
  if (isObject(caps?.elicitation)) options.onElicitation = answer("elicitation/create");
  if (isObject(caps?.sampling)) options.onSampling = answer("sampling/createMessage");
  if (isObject(caps?.roots)) options.onRoots = answer("roots/list");
  if (paced) options.fetch = linePacedFetch();

  // Notifications other than progress (which comes through onProgress): recorded as the core's
  // events. Returns a promise settled when the iterator ends.
  const drain = async (it) => {
    for (;;) {
      const { done, value: n } = await it.next();
      if (done) return;
      record(n);
    }
  };
  const record = (n) => {
    switch (n.type) {
      case "notification":
        rec.event("notification", { method: n.method, params: n.params });
        break;
      case "toolRejected":
        rec.event("tool_rejected", { name: n.name, reason: n.reason });
        break;
      case "diagnostic":
        rec.event("diagnostic", { message: n.message });
        break;
      case "inputCancelled":
        rec.event("input_cancelled", { input: n.input });
        break;
      case "closed":
        rec.event("closed", {});
        break;
      case "progress":
        break; // recorded by onProgress, with its step
      default:
        rec.event("other", { debug: JSON.stringify(n) });
    }
  };

  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    rec.step(i, step);
    if (step.op === "expect_progress") {
      checkProgress(last, step.min ?? 1, failures, i);
      continue;
    }
    let outcome;
    const progress = [];
    rec.currentStep = i;
    if (step.op === "connect") {
      try {
        client = await McpClient.connect(url, options);
        const it = client.notifications();
        // The Connected event is queued on the notification stream; its `server` is the
        // connect operation's result (the core's server info JSON).
        let server = null;
        while (server === null) {
          const { done, value } = await it.next();
          if (done) throw new Error("the notification stream ended before `connected`");
          if (value.type === "connected") server = value.server;
          else record(value);
        }
        rec.event("connected", {
          era: server.era,
          protocolVersion: server.protocolVersion,
          serverInfo: server.serverInfo ?? null,
          capabilities: server.capabilities ?? null,
          instructions: server.instructions ?? null,
        });
        outcome = { ok: true, result: server };
        pump = drain(it);
      } catch (e) {
        outcome = { ok: false, error: errorJson(e) };
      }
    } else if (LIST_OPS[step.op]) {
      const [method, field] = LIST_OPS[step.op];
      try {
        const items = await client[method]();
        outcome = { ok: true, result: { [field]: items } };
        if (step.op === "list_tools") listedTools = true;
      } catch (e) {
        outcome = { ok: false, error: errorJson(e) };
      }
    } else {
      const opts = { timeoutMs: step.timeout_ms };
      if (step.progress === true) {
        opts.onProgress = (p) => {
          progress.push(p);
          rec.event("progress", { step: i, progress: p.progress, total: p.total, message: p.message });
        };
      }
      let abort = null;
      if (step.cancel_after_ms !== undefined) {
        abort = new AbortController();
        opts.signal = abort.signal;
      }
      current = { index: i, answers: [...(step.answers ?? [])] };
      let pending;
      switch (step.op) {
        case "call":
          pending = listedTools
            ? client.callTool(step.name, step.arguments ?? {}, opts)
            : client.request("tools/call", { name: step.name, arguments: step.arguments ?? {} }, opts);
          break;
        case "read_resource":
          pending = client.readResource(step.uri, opts);
          break;
        case "get_prompt":
          pending = client.getPrompt(step.name, step.arguments ?? {}, opts);
          break;
        case "request":
          pending = client.request(step.method, step.params ?? {}, opts);
          break;
      }
      const timer = abort ? setTimeout(() => abort.abort(), step.cancel_after_ms) : null;
      try {
        outcome = { ok: true, result: await pending };
      } catch (e) {
        outcome = { ok: false, error: errorJson(e) };
      } finally {
        if (timer !== null) clearTimeout(timer);
      }
      current = null;
    }
    rec.currentStep = null;
    await settle();
    rec.event("completed", outcome.ok ? { step: i, result: outcome.result } : { step: i, error: outcome.error });
    outcome.progress = progress;
    check(step.expect, outcome, failures, i);
    last = outcome;
    if (step.op === "connect" && !outcome.ok) break;
  }
  const transcript = rec.toJSON(scenario.name);
  if (client) {
    // After the transcript is taken, as the Rust legs close after taking theirs.
    await client.close().catch(() => {});
    await Promise.race([pump, new Promise((r) => setTimeout(r, 2000))]);
  }
  return { ...transcript, failures };
}
