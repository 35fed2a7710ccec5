// Checks that the built component has the world of `wit/client.wit`:
// 1. `jco wit <component.wasm>` (the component's own world): exactly the world's exports, every
//    import the world declares, and no other import than the ones those pull in or the Rust std
//    runtime of wasm32-wasip2 adds;
// 2. the exported interface, type by type and function by function: the TypeScript declarations
//    jco generates from `wit/` equal the ones it generated from the component when transpiling
//    (`jco wit` prints only the root world, not the interface bodies).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join, resolve } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const wasm = process.env.COMPONENT_WASM ?? join(root, "target/wasm32-wasip2/release/mcp_edge.wasm");
const witDir = join(root, "wit");
const jco = join(here, "node_modules/.bin/jco");

/** `import`/`export` items of the first `world NAME { ... }` block in `source`, comments dropped. */
function worldItems(source, name) {
  const noComments = source.replace(/\/\/[^\n]*/g, "");
  const start = noComments.search(new RegExp(`world\\s+${name}\\s*\\{`));
  assert.ok(start >= 0, `world ${name} not found`);
  const body = noComments.slice(noComments.indexOf("{", start) + 1, noComments.indexOf("}", start));
  const items = { imports: [], exports: [] };
  for (const m of body.matchAll(/\b(import|export)\s+([^;]+);/g)) {
    items[m[1] === "import" ? "imports" : "exports"].push(m[2].trim());
  }
  return items;
}

const witSource = readFileSync(join(witDir, "client.wit"), "utf8");
const pkg = witSource.match(/^package\s+([a-z0-9-]+):([a-z0-9-]+)@([0-9.]+);/m);
assert.ok(pkg, "wit/client.wit declares a package");
const [, ns, name, version] = pkg;
/** A world item as the component names it: local interfaces get the package prefix. */
const qualify = (item) => (item.includes(":") ? item : `${ns}:${name}/${item}@${version}`);

const declared = worldItems(witSource, "mcp-client");
const built = worldItems(execFileSync(jco, ["wit", wasm], { encoding: "utf8" }), "root");

// Imported because the declared imports use their types (wasi:http/types uses wasi:io/*).
const PULLED_IN = ["wasi:http/types", "wasi:io/poll", "wasi:io/error", "wasi:io/streams"];
// Added by Rust's std runtime on wasm32-wasip2 (startup, panic output, HashMap seeds).
const STD_RUNTIME = [/^wasi:cli\//, /^wasi:random\/insecure-seed$/];
const unversioned = (item) => item.replace(/@[0-9.]+$/, "");

test("jco wit: the component exports exactly the world's exports", () => {
  assert.deepEqual([...built.exports].sort(), declared.exports.map(qualify).sort());
});

test("jco wit: every import the world declares is imported", () => {
  for (const item of declared.imports.map(qualify)) {
    assert.ok(built.imports.includes(item), `${item} not imported; imports: ${built.imports}`);
  }
});

test("jco wit: no import beyond the declared ones, their dependencies and std's runtime", () => {
  const declaredSet = new Set(declared.imports.map(qualify));
  const extra = built.imports.filter(
    (item) =>
      !declaredSet.has(item) &&
      !PULLED_IN.includes(unversioned(item)) &&
      !STD_RUNTIME.some((re) => re.test(unversioned(item))),
  );
  assert.deepEqual(extra, []);
});

test("the world's documentation names every import the component has", () => {
  // The doc comment block right above `world mcp-client`.
  const lines = witSource.slice(0, witSource.search(/world\s+mcp-client\s*\{/)).split("\n");
  const doc = [];
  for (let i = lines.length - 2; i >= 0 && lines[i].trim().startsWith("///"); i--) doc.unshift(lines[i]);
  const text = doc.join("\n");
  for (const item of built.imports) {
    assert.ok(text.includes("`" + unversioned(item) + "`"), `${item} is not in the world's documentation`);
  }
});

test("the interfaces equal wit/client.wit, type by type", async () => {
  // jco 1.35's bundled preview2-shim starts with no preopened directory, so `jco types <dir>`
  // cannot read any path; open the root for the type generator's own shim instance first.
  // Resolve the shim the way Node does from jco-transpile's files: its own node_modules first.
  const shim = "node_modules/@bytecodealliance/preview2-shim/dist/nodejs/filesystem.js";
  const shimFs = [join(here, "node_modules/@bytecodealliance/jco-transpile", shim), join(here, shim)].find(
    (path) => existsSync(path),
  );
  assert.ok(shimFs, "preview2-shim not installed");
  const { _setPreopens } = await import(shimFs);
  _setPreopens({ "/": "/" });
  const { generateHostTypes } = await import("@bytecodealliance/jco-transpile");
  const files = await generateHostTypes(witDir, { worldName: "mcp-client", name: "mcp-edge" });
  // The component carries no doc comments (wit-bindgen does not embed them): compare the code.
  const code = (ts) =>
    ts
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .split("\n")
      .map((line) => line.trimEnd())
      .filter((line) => line.trim() !== "")
      .join("\n");
  for (const iface of ["client", "pool", "host-input"]) {
    const file = `interfaces/mcp-edge-client-${iface}.d.ts`;
    const key = Object.keys(files).find((k) => k.endsWith(file));
    assert.ok(key, `no ${iface} interface among ${Object.keys(files)}`);
    const fromWit = Buffer.from(files[key]).toString("utf8");
    const fromComponent = readFileSync(join(here, "out", file), "utf8");
    assert.equal(code(fromComponent), code(fromWit), iface);
    if (iface !== "host-input") {
      const resource = iface === "client" ? "Client" : "Pool";
      assert.ok(code(fromWit).includes(`export class ${resource}`), `${iface} declares its resource`);
    }
  }
});
