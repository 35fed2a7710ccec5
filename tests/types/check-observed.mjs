// The values the typed program got back at runtime, checked against the declared types by tsc:
// each observation {type, where, value} becomes `export const vN: <type> = <value as a literal>;`
// in <dir>/observed.ts, compiled with --strict. Object literals get TypeScript's excess-property
// check, so a field the declarations do not describe fails as surely as a missing or mistyped
// one. Each error is reported with the call or event the value came from.
//   node check-observed.mjs <observed.json> <dir>
import { readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const [observedFile, dir] = process.argv.slice(2);
const observations = JSON.parse(readFileSync(observedFile, "utf8"));
if (!Array.isArray(observations) || observations.length === 0) {
  console.log("check FAILED: the typed program recorded no values");
  process.exit(1);
}

/** A TypeScript literal for a JSON-like value (`undefined` spelled out; JSON covers the rest). */
const literal = (v) => (v === undefined ? "undefined" : JSON.stringify(v, null, 1));

const lines = ['import type * as M from "mcp-edge";', ""];
const lineOf = []; // observation index -> first line (1-based) of its declaration
observations.forEach((o, i) => {
  lineOf.push(lines.length + 1);
  lines.push(`// ${o.where.replace(/\n/g, " ")}`);
  lines.push(...`export const v${i}: ${o.type} = ${literal(o.value)};`.split("\n"));
});
const file = path.join(dir, "observed.ts");
writeFileSync(file, `${lines.join("\n")}\n`);
writeFileSync(
  path.join(dir, "tsconfig.observed.json"),
  JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "nodenext", moduleResolution: "nodenext", lib: ["es2022"], types: ["node"] },
    files: ["observed.ts"],
  }),
);
const tsc = spawnSync(process.execPath, [path.join(here, "node_modules/typescript/bin/tsc"), "-p", path.join(dir, "tsconfig.observed.json"), "--pretty", "false"], { encoding: "utf8" });
const out = `${tsc.stdout}${tsc.stderr}`;
const whereOfLine = (line) => {
  let k = 0;
  while (k + 1 < lineOf.length && lineOf[k + 1] <= line) k++;
  return observations[k];
};
const errors = out.split("\n").filter((l) => /error TS\d+/.test(l));
const reported = new Set();
for (const e of errors) {
  const m = /observed\.ts\((\d+),\d+\): (.*)$/.exec(e);
  const o = m ? whereOfLine(Number(m[1])) : null;
  const key = o ? `${o.where}|${m[2]}` : e;
  if (reported.has(key)) continue;
  reported.add(key);
  console.log(o ? `check FAILED: ${o.where}: the value does not match ${o.type}: ${m[2]}` : `check FAILED: ${e}`);
}
if (tsc.status !== 0 && errors.length === 0) {
  console.log(`check FAILED: tsc on observed values exited ${tsc.status}:\n${out}`);
  process.exit(1);
}
if (errors.length) {
  console.log(`(the values are in ${file})`);
  process.exit(1);
}
console.log(`check passed: ${observations.length} runtime values match their declared types (tsc --strict)`);
