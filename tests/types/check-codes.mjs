// Every error code the Rust code can hand to JS is in the declared `McpErrorCode` union, and the
// union names no code that nothing produces. Codes come from the bodies of every
// `fn code(&self) -> &'static str` in src/ (the stable codes of each error enum) and from the
// string literals passed to `make_mcp_error` in src/js/.
//   node check-codes.mjs <repo root>
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = process.argv[2];
const rustFiles = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full);
    else if (full.endsWith(".rs")) rustFiles.push(full);
  }
};
walk(path.join(root, "src"));

/** The text of the block that starts at the first `{` at or after `from`. */
function block(text, from) {
  const open = text.indexOf("{", from);
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) return text.slice(open, i + 1);
  }
  return text.slice(open);
}

const produced = new Map(); // code -> where
for (const file of rustFiles) {
  const text = readFileSync(file, "utf8");
  const rel = path.relative(root, file);
  for (const m of text.matchAll(/fn code\(&self\) -> &'static str/g)) {
    for (const c of block(text, m.index).matchAll(/=>\s*"([A-Z][A-Z0-9_]*)"/g)) produced.set(c[1], rel);
  }
  for (const c of text.matchAll(/make_mcp_error\(\s*"([A-Z][A-Z0-9_]*)"/g)) produced.set(c[1], rel);
}

const dts = readFileSync(path.join(root, "src/js/mcp-edge.d.ts"), "utf8");
/** The string literals of the union type `name`, following the unions it names (AuthErrorCode). */
function literals(name, seen = new Set()) {
  const union = new RegExp(`export type ${name}\\s*=([^;]+);`).exec(dts);
  if (!union || seen.has(name)) return null;
  seen.add(name);
  const out = [...union[1].matchAll(/"([A-Z][A-Z0-9_]*)"/g)].map((m) => m[1]);
  for (const ref of union[1].matchAll(/\|\s*([A-Z][A-Za-z0-9]*)\b/g)) out.push(...(literals(ref[1], seen) ?? []));
  return out;
}
const codes = literals("McpErrorCode");
if (!codes) {
  console.log("check FAILED: src/js/mcp-edge.d.ts declares no McpErrorCode union");
  process.exit(1);
}
const declared = new Set(codes);

let ok = produced.size > 0;
for (const [code, where] of produced) {
  if (!declared.has(code)) {
    console.log(`check FAILED: ${where} gives JS the error code ${code}, which McpErrorCode does not declare`);
    ok = false;
  }
}
for (const code of declared) {
  if (!produced.has(code)) {
    console.log(`check FAILED: McpErrorCode declares ${code}, which no Rust code produces`);
    ok = false;
  }
}
if (ok) console.log(`check passed: McpErrorCode declares exactly the ${produced.size} codes the Rust code produces`);
process.exit(ok ? 0 : 1);
