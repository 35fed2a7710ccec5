// Shared helpers of the edge tests: server URLs from the environment (run.sh exports them),
// child processes that print a JSON banner, HTTP helpers, SSE parsing.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";

export const edgeDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The inbound credential lib/workerd.mjs gives every Worker unless told otherwise (random per run). */
export const AGENT_TOKEN = `test-agent-${randomBytes(24).toString("hex")}`;
/** The header that presents it. */
export const AUTH = { authorization: `Bearer ${AGENT_TOKEN}` };

export function env(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run tests/edge/run.sh`);
  return v;
}

/** A fresh directory under tests/edge/.run (git-ignored); removed by the returned function. */
export function runDir(prefix) {
  const base = path.join(edgeDir, ".run");
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(path.join(base, `${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Starts `node script ...args` that prints one JSON line first and exits when its stdin closes.
 * Returns {banner, stop()}.
 */
export async function startBannerProcess(script, args = []) {
  const child = spawn(process.execPath, [script, ...args], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout });
  const banner = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} printed no banner`)), 15_000);
    lines.once("line", (l) => {
      clearTimeout(timer);
      resolve(JSON.parse(l));
    });
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  const exited = new Promise((r) => child.once("exit", r));
  return {
    banner,
    async stop() {
      child.stdin.end();
      const t = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(t);
    },
  };
}

/** GET `url` as JSON, with the Worker's credential unless `headers` says otherwise. */
export async function getJson(url, headers = AUTH) {
  const r = await fetch(url, { headers });
  const body = await r.text();
  try {
    return { status: r.status, body: JSON.parse(body), headers: r.headers };
  } catch {
    throw new Error(`${url}: HTTP ${r.status}, not JSON: ${body.slice(0, 500)}`);
  }
}

/** POST `value` (JSON, or a string as is), with the Worker's credential unless `init.headers` replaces it. */
export async function postJson(url, value, init = {}) {
  const r = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...AUTH },
    body: typeof value === "string" ? value : JSON.stringify(value),
    ...init,
  });
  const body = await r.text();
  try {
    return { status: r.status, body: JSON.parse(body), headers: r.headers };
  } catch {
    throw new Error(`${url}: HTTP ${r.status}, not JSON: ${body.slice(0, 500)}`);
  }
}

/** Parses a complete `text/event-stream` body into [{event, data}] (data JSON-decoded). */
export function parseSse(text) {
  const events = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    if (!block.trim()) continue;
    let event = "message";
    const data = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    events.push({ event, data: JSON.parse(data.join("\n")) });
  }
  return events;
}

/**
 * Polls `check` (async, returns a value or undefined) until it returns something, at most
 * `tries` x `ms` (a bound on waiting for an asynchronous close to land, not a speed assertion).
 */
export async function eventually(check, { tries = 50, ms = 100 } = {}) {
  let last;
  for (let i = 0; i < tries; i++) {
    last = await check();
    if (last.ok) return last.value;
    await new Promise((r) => setTimeout(r, ms));
  }
  return last.value;
}
