// Lists a wasm module's imports and fails if any comes from the module `env`.
//
// An `env` import means some code (usually a C dependency or a std function that has no wasm32
// implementation) expects the host to supply a symbol; browsers, workers and edge isolates have none,
// so the module would fail to instantiate there.
//
//   node tests/tools/check-wasm-imports.mjs <file.wasm>
//   node tests/tools/check-wasm-imports.mjs --self-test   (checks the check: a module importing
//                                                          env.f must be rejected)
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const path = process.argv[2];
if (!path) {
  console.error("usage: check-wasm-imports.mjs <file.wasm> | --self-test");
  process.exit(2);
}
if (path === "--self-test") {
  // (module (type (func)) (import "env" "f" (func (type 0))))
  const bytes = Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
    0x01, 0x04, 0x01, 0x60, 0x00, 0x00, // type section: one func type () -> ()
    0x02, 0x09, 0x01, 0x03, 0x65, 0x6e, 0x76, 0x01, 0x66, 0x00, 0x00, // import "env" "f" func 0
  ]);
  const file = join(mkdtempSync(join(tmpdir(), "wasm-imports-")), "env.wasm");
  writeFileSync(file, bytes);
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), file], { encoding: "utf8" });
  if (r.status === 1 && r.stderr.includes('"env": f (function)')) {
    console.log("self-test: a module importing env.f is rejected");
    process.exit(0);
  }
  console.error(`self-test FAILED: status ${r.status}\n${r.stdout}${r.stderr}`);
  process.exit(1);
}
const module = new WebAssembly.Module(readFileSync(path));
const imports = WebAssembly.Module.imports(module);
const byModule = new Map();
for (const { module: from, name, kind } of imports) {
  if (!byModule.has(from)) byModule.set(from, []);
  byModule.get(from).push(`${name} (${kind})`);
}
console.log(`${path}: ${imports.length} import(s) from ${byModule.size} module(s)`);
for (const [from, names] of byModule) {
  console.log(`  ${from}: ${names.length}`);
}
const env = byModule.get("env") ?? [];
if (env.length > 0) {
  for (const n of env) console.error(`FORBIDDEN import from "env": ${n}`);
  process.exit(1);
}
console.log('no imports from "env"');
