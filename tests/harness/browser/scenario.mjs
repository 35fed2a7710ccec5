// The scenario language's pure parts for the browser leg (tests/scenarios/README.md), as
// tests/harness/src/scenario.rs implements them: strict step validation (unknown ops, fields and
// expectations are errors, so a typo cannot silently skip a check), expectations, the progress
// check, and the transcript form of an error.

const REQUEST_FIELDS = ["progress", "timeout_ms", "cancel_after_ms", "answers"];
const OP_FIELDS = {
  connect: [],
  list_tools: [],
  list_prompts: [],
  list_resources: [],
  list_resource_templates: [],
  call: ["name", "arguments", ...REQUEST_FIELDS],
  read_resource: ["uri", ...REQUEST_FIELDS],
  get_prompt: ["name", "arguments", ...REQUEST_FIELDS],
  request: ["method", "params", ...REQUEST_FIELDS],
  expect_progress: ["min"],
};
const EXPECT_FIELDS = [
  "error", "rpc_code", "is_error", "text", "text_contains", "count", "names_include", "names_exclude",
];

export const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/** Validates a step as strictly as the Rust parser (unknown ops, fields, expectations fail). */
export function checkStep(step, i) {
  const bad = (m) => new Error(`step ${i}: ${m}`);
  if (!isObject(step)) throw bad("a step must be an object");
  const allowed = OP_FIELDS[step.op];
  if (!allowed) throw bad(`unknown op ${JSON.stringify(step.op)}`);
  for (const k of Object.keys(step)) {
    if (k === "op" || k === "expect") continue;
    if (!allowed.includes(k)) throw bad(`unknown field ${JSON.stringify(k)} for op ${JSON.stringify(step.op)}`);
  }
  if (step.expect !== undefined) {
    if (!isObject(step.expect)) throw bad("expect must be an object");
    for (const k of Object.keys(step.expect)) {
      if (!EXPECT_FIELDS.includes(k)) throw bad(`unknown expectation ${JSON.stringify(k)}`);
    }
  }
  for (const k of ["arguments", "params"]) {
    if (step[k] !== undefined && !isObject(step[k])) throw bad(`${k} must be an object`);
  }
  if (step.answers !== undefined && !Array.isArray(step.answers)) throw bad("answers must be an array");
  for (const k of ["timeout_ms", "cancel_after_ms", "min"]) {
    if (step[k] !== undefined && !(Number.isInteger(step[k]) && step[k] >= 0)) {
      throw bad(`${k} must be a non-negative integer`);
    }
  }
  if (step.progress !== undefined && typeof step.progress !== "boolean") throw bad("progress must be a boolean");
  const need = { call: "name", read_resource: "uri", get_prompt: "name", request: "method" }[step.op];
  if (need && typeof step[need] !== "string") throw bad(`${step.op} needs ${JSON.stringify(need)}`);
}

/** The transcript form of a rejection: `{code, message, rpc?}` (Rust `error_json`). */
export function errorJson(e) {
  if (!(e && typeof e === "object" && e.name === "McpError")) {
    return { code: "NOT_AN_MCP_ERROR", message: String(e?.stack ?? e) };
  }
  const out = { code: e.code, message: e.message };
  if (e.code === "RPC") {
    // The JS error carries the JSON-RPC code but not the server's own message; the core's text
    // is "server error <code>: <message>", so the message is what follows that prefix.
    const prefix = `server error ${e.rpcCode}: `;
    out.rpc = { code: e.rpcCode, message: e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message };
  }
  return out;
}

/** The text of the first text content block. */
export function firstText(v) {
  const block = Array.isArray(v?.content) ? v.content.find((c) => c?.type === "text") : undefined;
  return typeof block?.text === "string" ? block.text : undefined;
}

/** Item names of a list result (or `uri`s of a read result), as the Rust `names`. */
export function names(v) {
  if (!isObject(v)) return undefined;
  const items = Object.values(v).find(Array.isArray);
  if (!items) return undefined;
  return items.map((it) => it?.name ?? it?.uri).filter((n) => typeof n === "string");
}

/** Checks one step's outcome against `expect` (Rust `check`); pushes failure texts. */
export function check(expect = {}, outcome, failures, i) {
  const fail = (m) => failures.push(`step ${i}: ${m}`);
  if (!outcome.ok) {
    const err = outcome.error;
    if (expect.error === undefined) return fail(`failed: ${err.message} [${err.code}]`);
    if (err.code !== expect.error) fail(`expected error ${expect.error}, got ${err.message} [${err.code}]`);
    if (expect.rpc_code !== undefined && err.rpc && err.rpc.code !== expect.rpc_code) {
      fail(`expected JSON-RPC error ${expect.rpc_code}, got ${err.rpc.code}`);
    }
    return;
  }
  const v = outcome.result;
  if (expect.error !== undefined) return fail(`expected error ${expect.error}, got a result: ${JSON.stringify(v)}`);
  if (expect.is_error !== undefined) {
    const got = v?.isError === true;
    if (got !== expect.is_error) fail(`expected isError ${expect.is_error}, got ${got}: ${JSON.stringify(v)}`);
  }
  if (expect.text !== undefined && firstText(v) !== expect.text) {
    fail(`expected text ${JSON.stringify(expect.text)}, got ${JSON.stringify(firstText(v))}`);
  }
  if (expect.text_contains !== undefined && !(firstText(v)?.includes(expect.text_contains) ?? false)) {
    fail(`expected text containing ${JSON.stringify(expect.text_contains)}, got ${JSON.stringify(firstText(v))}`);
  }
  const include = expect.names_include ?? [];
  const exclude = expect.names_exclude ?? [];
  if (expect.count !== undefined || include.length > 0 || exclude.length > 0) {
    const got = names(v) ?? [];
    if (expect.count !== undefined && got.length !== expect.count) {
      fail(`expected ${expect.count} items, got ${got.length}: ${JSON.stringify(got)}`);
    }
    for (const want of include) if (!got.includes(want)) fail(`expected an item named ${JSON.stringify(want)} in ${JSON.stringify(got)}`);
    for (const no of exclude) if (got.includes(no)) fail(`expected no item named ${JSON.stringify(no)} in ${JSON.stringify(got)}`);
  }
}

export function checkProgress(last, min, failures, i) {
  if (!last) {
    failures.push(`step ${i}: expect_progress with no earlier request`);
    return;
  }
  const p = last.progress;
  if (p.length < min) failures.push(`step ${i}: expected at least ${min} progress notifications, got ${p.length}`);
  for (let k = 1; k < p.length; k++) {
    if (!(p[k].progress > p[k - 1].progress)) {
      failures.push(`step ${i}: progress did not increase: ${JSON.stringify(p)}`);
      break;
    }
  }
}
