// Reads the conformance suite's results for each requirement set and judges them strictly.
//
//   node summarize.mjs <outRoot> <expected-failures.txt> <requirementsDir> <revision>...
//
// For each revision it expects `<outRoot>/<revision>/results/<scenario>-<timestamp>/checks.json`
// (written by `conformance client -o`) and `<outRoot>/<revision>/exits.txt` (one
// "<scenario> <status>" line per client run, written by launch.sh). A scenario passes when its
// checks hold no FAILURE and no WARNING (the suite's own per-scenario verdict) AND the client
// exited 0. The scenarios come from the suite's frozen requirement files: `client` (scored) and
// `not_scored` entries of the client leg (reported separately).
//
// Exit status 1 when a scenario outside the expected-failures file fails, a listed one passes
// (prune the list), or a scenario has no result at all.
//
// Refusals: the client exits 0 after a deliberate security refusal and records it in
// `<outRoot>/<revision>/refusals.txt` ("<scenario> <code>"). Only the scenarios the suite marks
// `allowClientError` (their correct outcome is a refusal) may refuse; a refusal anywhere else
// fails the run. The revision `backcompat` is the 2025-03-26 suite (`--suite backcompat`),
// whose scenarios are in no requirement file and are all scored here.

import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";

const require = createRequire(import.meta.url);
const YAML = require("yaml");

const [outRoot, expectedFile, requirementsDir, ...revisions] = process.argv.slice(2);
if (!outRoot || !expectedFile || !requirementsDir || revisions.length === 0) {
  console.error("usage: summarize.mjs <outRoot> <expected-failures.txt> <requirementsDir> <revision>...");
  process.exit(2);
}

const expected = new Set(
  fs
    .readFileSync(expectedFile, "utf8")
    .split("\n")
    .map((l) => l.replace(/#.*/, "").trim())
    .filter(Boolean),
);

// The suite's `allowClientError` scenarios (src/scenarios/client/auth/*.ts in the pinned
// release): the client is expected to give up, and the checks prove it gave up at the right step.
const REFUSAL_EXPECTED = new Set([
  "auth/scope-retry-limit",
  "auth/resource-mismatch",
  "auth/iss-supported-missing",
  "auth/iss-wrong-issuer",
  "auth/iss-unexpected",
  "auth/iss-normalized",
  "auth/metadata-issuer-mismatch",
]);
// `conformance client --suite backcompat`: the 2025-03-26 scenarios.
const BACKCOMPAT = ["auth/2025-03-26-oauth-metadata-backcompat", "auth/2025-03-26-oauth-endpoint-fallback"];

function refusals(file) {
  const out = new Map();
  if (!fs.existsSync(file)) return out;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const m = line.match(/^(\S+) (\S+)$/);
    if (m) out.set(m[1], m[2]);
  }
  return out;
}

const TIMESTAMP = /^-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/** The newest result directory of `scenario`, or null. */
function resultDir(results, scenario) {
  const parent = path.join(results, path.dirname(scenario));
  const base = path.basename(scenario);
  if (!fs.existsSync(parent)) return null;
  const dirs = fs
    .readdirSync(parent)
    .filter((d) => d.startsWith(base) && TIMESTAMP.test(d.slice(base.length)))
    .sort();
  return dirs.length ? path.join(parent, dirs[dirs.length - 1]) : null;
}

function exitStatuses(file) {
  const out = new Map();
  if (!fs.existsSync(file)) return out;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const m = line.match(/^(\S+) (-?\d+)$/);
    if (m) out.set(m[1], [...(out.get(m[1]) ?? []), Number(m[2])]);
  }
  return out;
}

function judge(revision, scenario, results, exits, refused) {
  const dir = resultDir(results, scenario);
  const runs = exits.get(scenario) ?? [];
  if (!dir || !fs.existsSync(path.join(dir, "checks.json"))) {
    return { scenario, pass: false, line: "no result (the suite did not run it?)", missing: true };
  }
  const checks = JSON.parse(fs.readFileSync(path.join(dir, "checks.json"), "utf8"));
  const count = (s) => checks.filter((c) => c.status === s).length;
  const [ok, failed, warnings, skipped] = ["SUCCESS", "FAILURE", "WARNING", "SKIPPED"].map(count);
  const exitOk = runs.length > 0 && runs.every((s) => s === 0);
  const refusal = refused.get(scenario);
  const refusalOk = refusal === undefined || REFUSAL_EXPECTED.has(scenario);
  const pass = failed === 0 && warnings === 0 && exitOk && refusalOk;
  const exitText = runs.length === 0 ? "client never ran" : `exit ${runs.join(",")}`;
  let line = `${ok} passed, ${failed} failed, ${warnings} warnings, ${skipped} skipped; ${exitText}`;
  if (refusal !== undefined) line += `; refused: ${refusal}${refusalOk ? "" : " (this scenario must succeed)"}`;
  const notes = [];
  for (const c of checks) {
    if (c.status === "FAILURE" || c.status === "WARNING") {
      notes.push(`${c.status} ${c.id}: ${c.errorMessage ?? c.description}`);
    }
    const d = c.details ?? {};
    if (typeof d.actualDelayMs === "number") {
      notes.push(`measured ${c.id}: ${d.actualDelayMs} ms (expected ${d.expectedRetryMs} ms, accepted ${d.minAcceptableMs}..${d.maxAcceptableMs})`);
    }
  }
  if (!exitOk && runs.length > 0) {
    const stderr = path.join(dir, "stderr.txt");
    const last = fs.existsSync(stderr) ? fs.readFileSync(stderr, "utf8").trim().split("\n").pop() : "";
    if (last) notes.push(`client: ${last.slice(0, 300)}`);
  }
  return { scenario, pass, line, notes, dir };
}

let problems = [];
let totalPassed = 0;
let allPassed = 0;
let expectedFailed = 0;
let unexpectedFailed = 0;
let totalFailed = 0;
const summaries = [];

for (const revision of revisions) {
  const req =
    revision === "backcompat"
      ? { client: BACKCOMPAT }
      : YAML.parse(fs.readFileSync(path.join(requirementsDir, `${revision}.yaml`), "utf8"));
  const scored = req.client ?? [];
  const unscored = (req.not_scored ?? []).filter((e) => e.leg === "client").map((e) => e.scenario);
  const base = path.join(outRoot, revision);
  const results = path.join(base, "results");
  const exits = exitStatuses(path.join(base, "exits.txt"));
  const refused = refusals(path.join(base, "refusals.txt"));
  const verdicts = { scored: [], unscored: [] };
  for (const [kind, names] of [["scored", scored], ["unscored", unscored]]) {
    for (const scenario of names) {
      const v = judge(revision, scenario, results, exits, refused);
      verdicts[kind].push(v);
      const isExpected = expected.has(scenario);
      const mark = v.pass ? "✓" : isExpected ? "·" : "✗";
      const tag = kind === "unscored" ? " (not scored)" : "";
      console.log(`  ${mark} ${revision} ${scenario}${tag}: ${v.line}${isExpected && !v.pass ? " [expected failure]" : ""}`);
      if (!isExpected || v.pass) for (const n of v.notes ?? []) console.log(`      ${n}`);
      if (v.pass) allPassed += 1;
      else if (isExpected) expectedFailed += 1;
      else unexpectedFailed += 1;
      if (!v.pass && !isExpected) problems.push(`${revision} ${scenario}: failed (${v.line})`);
      if (v.pass && isExpected) problems.push(`${revision} ${scenario}: passes but is listed in expected-failures.txt; remove it`);
    }
  }
  const p = verdicts.scored.filter((v) => v.pass).length;
  const f = verdicts.scored.length - p;
  const up = verdicts.unscored.filter((v) => v.pass).length;
  totalPassed += p;
  totalFailed += f;
  summaries.push(
    `${revision}: ${p} passed, ${f} failed (of ${verdicts.scored.length} scored; not scored: ${up} passed, ${verdicts.unscored.length - up} failed)`,
  );
  fs.writeFileSync(
    path.join(base, "summary.json"),
    JSON.stringify({ revision, passed: p, failed: f, scored: verdicts.scored, unscored: verdicts.unscored }, null, 2),
  );
}

console.log("");
if (problems.length) {
  console.log("NOT OK:");
  for (const p of problems) console.log(`  ${p}`);
} else {
  console.log("OK: every failure is an expected one, and every expected failure still fails");
}
for (const s of summaries) console.log(s);
// Expected failures (listed in expected-failures.txt) are reported apart, so that the count of
// failures is the count of problems.
console.log(`conformance: ${allPassed} passed, ${unexpectedFailed} failed, ${expectedFailed} expected failures (scored and unscored scenarios)`);
process.exit(problems.length ? 1 : 0);
