// Starts and stops workerd (npm `workerd`, pinned in ../package.json) running the template Worker
// behind lib/probe.mjs, with a generated config: every Worker's globalOutbound is a network
// service that allows loopback only, sockets bind 127.0.0.1.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { AGENT_TOKEN } from "./harness.mjs";

const edgeDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// MCP_EDGE_PKG_DIR: another build of the package (e.g. to measure an older library).
export const pkgDir = process.env.MCP_EDGE_PKG_DIR ? path.resolve(process.env.MCP_EDGE_PKG_DIR) : path.join(edgeDir, "pkg");
const COMPATIBILITY_DATE = "2026-11-01";

/** The workerd binary: the platform package's, so that killing it kills the runtime itself. */
export function workerdBinary() {
  const direct = path.join(edgeDir, "node_modules/@cloudflare/workerd-linux-64/bin/workerd");
  return existsSync(direct) ? direct : path.join(edgeDir, "node_modules/.bin/workerd");
}

/** A free loopback port (bound, then released). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** A Cap'n Proto text literal (printable ASCII only, so JSON-style escapes of `"` and `\` do). */
function text(value) {
  if (!/^[\x20-\x7e]*$/.test(value)) throw new Error(`not printable ASCII: ${value}`);
  return JSON.stringify(value);
}

function pkgModules(configDir) {
  const rel = (p) => path.relative(configDir, p);
  const mods = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (full.endsWith(".js")) {
        mods.push(`(name = ${text("pkg/" + path.relative(pkgDir, full))}, esModule = embed ${text(rel(full))})`);
      }
    }
  };
  walk(pkgDir);
  mods.push(`(name = "pkg/mcp_edge_bg.wasm", wasm = embed ${text(rel(path.join(pkgDir, "mcp_edge_bg.wasm")))})`);
  return mods;
}

/**
 * Writes `<runDir>/config.capnp`.
 * workers: [{name, port, mcpConfig (object, or its text as a string: sent as is), edge?: boolean, vars?: {NAME: value},
 *            services?: {BINDING: "127.0.0.1:PORT"}, sessions?: boolean, authStore?: boolean, pins?: boolean,
 *            agentToken?: string | null (the MCP_AGENT_TOKEN binding; default AGENT_TOKEN, null: none),
 *            policy?: object (the MCP_POLICY binding)}]
 * storageDir: where the Durable Objects keep their SQLite files (survives workerd restarts).
 */
export function writeConfig(runDir, { workers, storageDir }) {
  mkdirSync(runDir, { recursive: true });
  const rel = (p) => path.relative(runDir, p);
  const modules = [
    `(name = "probe.mjs", esModule = embed ${text(rel(path.join(edgeDir, "lib/probe.mjs")))})`,
    `(name = "worker/worker.mjs", esModule = embed ${text(rel(path.join(edgeDir, "worker/worker.mjs")))})`,
    ...pkgModules(runDir),
  ];
  const services = [`(name = "loopback", network = (allow = ["local"]))`];
  const sockets = [];
  const consts = [];
  let usesDisk = false;
  for (const w of workers) {
    const configText = typeof w.mcpConfig === "string" ? w.mcpConfig : JSON.stringify(w.mcpConfig);
    const bindings = [`(name = "MCP_CONFIG", text = ${text(configText)})`];
    if (w.edge === false) bindings.push(`(name = "MCP_EDGE", text = "false")`);
    const token = w.agentToken === undefined ? AGENT_TOKEN : w.agentToken;
    if (token !== null) bindings.push(`(name = "MCP_AGENT_TOKEN", text = ${text(token)})`);
    if (w.policy !== undefined) bindings.push(`(name = "MCP_POLICY", text = ${text(JSON.stringify(w.policy))})`);
    for (const [k, v] of Object.entries(w.vars ?? {})) bindings.push(`(name = ${text(k)}, text = ${text(v)})`);
    for (const [binding, address] of Object.entries(w.services ?? {})) {
      const svc = `${w.name}-${binding.toLowerCase()}`;
      services.push(`(name = ${text(svc)}, external = (address = ${text(address)}, http = ()))`);
      bindings.push(`(name = ${text(binding)}, service = ${text(svc)})`);
    }
    const extra = [];
    const namespaces = [];
    if (w.sessions) {
      bindings.push(`(name = "SESSIONS", durableObjectNamespace = "McpSessions")`);
      namespaces.push(`(className = "McpSessions", uniqueKey = ${text(`mcp-edge-sessions-${w.name}`)}, enableSql = true)`);
    }
    if (w.authStore) {
      bindings.push(`(name = "AUTH_STORE", durableObjectNamespace = "McpAuthStore")`);
      namespaces.push(`(className = "McpAuthStore", uniqueKey = ${text(`mcp-edge-auth-${w.name}`)}, enableSql = true)`);
    }
    if (w.pins) {
      bindings.push(`(name = "PINS", durableObjectNamespace = "McpPins")`);
      namespaces.push(`(className = "McpPins", uniqueKey = ${text(`mcp-edge-pins-${w.name}`)}, enableSql = true)`);
    }
    if (namespaces.length) {
      usesDisk = true;
      extra.push(`durableObjectNamespaces = [${namespaces.join(", ")}]`, `durableObjectStorage = (localDisk = "do-disk")`);
    }
    const id = `worker${workers.indexOf(w)}`;
    services.push(`(name = ${text(w.name)}, worker = .${id})`);
    sockets.push(`(name = ${text(w.name)}, address = ${text(`127.0.0.1:${w.port}`)}, http = (), service = ${text(w.name)})`);
    consts.push(`const ${id} :Workerd.Worker = (
  modules = [
    ${modules.join(",\n    ")}
  ],
  compatibilityDate = ${text(COMPATIBILITY_DATE)},
  bindings = [
    ${bindings.join(",\n    ")}
  ],
  globalOutbound = "loopback",
  ${extra.map((e) => e + ",").join("\n  ")}
);`);
  }
  if (usesDisk) {
    mkdirSync(storageDir, { recursive: true });
    services.push(`(name = "do-disk", disk = (path = ${text(path.resolve(storageDir))}, writable = true))`);
  }
  const file = path.join(runDir, "config.capnp");
  writeFileSync(
    file,
    `# Generated by tests/edge/lib/workerd.mjs.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    ${services.join(",\n    ")}
  ],
  sockets = [
    ${sockets.join(",\n    ")}
  ],
);

${consts.join("\n\n")}
`,
  );
  return file;
}

/**
 * Starts `workerd serve <config>` and waits until every worker answers GET /_probe.
 * Returns {stop(), log()}; stop() kills exactly this process and waits for it.
 */
export async function startWorkerd(configFile, ports) {
  const child = spawn(workerdBinary(), ["serve", configFile, "--verbose"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (b) => {
    output += b.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  let dead = null;
  exited.then((r) => (dead = r));
  const stop = async () => {
    if (dead === null) child.kill("SIGTERM");
    const timer = setTimeout(() => dead === null && child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
  };
  for (const port of ports) {
    let up = false;
    for (let i = 0; i < 150 && !up && dead === null; i++) {
      try {
        const r = await fetch(`http://127.0.0.1:${port}/_probe`);
        up = r.ok;
        await r.arrayBuffer();
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    if (!up) {
      await stop();
      throw new Error(`workerd did not serve port ${port}: ${JSON.stringify(dead)}\n${output}`);
    }
  }
  return { stop, log: () => output, pid: child.pid };
}
