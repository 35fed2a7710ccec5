// Unit tests of the page's pure modules (run in Node; no DOM needed): qualified tool names,
// the outputSchema checker, URI template expansion.
import { test } from "node:test";
import assert from "node:assert/strict";
import { qualifiedToolName, normalisePart } from "../../www/js/names.js";
import { validate } from "../../www/js/validate.js";
import { jsonRpcIn } from "../../www/js/traffic.js";

test("qualified names: mcp__<server>__<tool>, [A-Za-z0-9_-] only, _ runs collapsed, trimmed, <= 64", () => {
  assert.equal(qualifiedToolName("everything", "get-sum"), "mcp__everything__get-sum");
  assert.equal(qualifiedToolName("my server!", "weird.tool/name"), "mcp__my_server__weird_tool_name");
  assert.equal(normalisePart("__a___b__"), "a_b");
  assert.equal(normalisePart("ümlaut"), "mlaut");
  assert.equal(normalisePart("***"), "unnamed");
  const long = qualifiedToolName("s".repeat(40), "t".repeat(40));
  assert.equal(long.length, 64);
  assert.ok(long.startsWith("mcp__ssss"));
  assert.ok(!qualifiedToolName("a", `${"x".repeat(55)}_y`).endsWith("_"));
});

test("outputSchema checker: types, required, enum, nested, $ref, additionalProperties, anyOf", () => {
  const schema = {
    type: "object",
    required: ["sum", "items"],
    properties: {
      sum: { type: "integer", minimum: 0 },
      items: { type: "array", items: { $ref: "#/$defs/item" } },
      mode: { enum: ["a", "b"] },
      maybe: { anyOf: [{ type: "string" }, { type: "null" }] },
    },
    additionalProperties: false,
    $defs: { item: { type: "object", required: ["id"], properties: { id: { type: "string", pattern: "^x" } } } },
  };
  assert.deepEqual(validate(schema, { sum: 3, items: [{ id: "x1" }], mode: "a", maybe: null }), []);
  const errs = validate(schema, { sum: 1.5, items: [{ id: "y" }, {}], mode: "c", maybe: 3, extra: 1 });
  assert.ok(errs.some((e) => e.startsWith("$.sum: expected integer")), errs.join("\n"));
  assert.ok(errs.some((e) => e.startsWith("$.items[0].id: does not match")));
  assert.ok(errs.some((e) => e.includes('$.items[1]: missing required property "id"')));
  assert.ok(errs.some((e) => e.startsWith("$.mode: must be one of")));
  assert.ok(errs.some((e) => e.startsWith("$.maybe: matches none of anyOf")));
  assert.ok(errs.some((e) => e.includes('unexpected property "extra"')));
  assert.deepEqual(validate({ type: "object", required: ["sum"] }, {}), ['$: missing required property "sum"']);
});

test("traffic: JSON-RPC messages are found in JSON bodies and in SSE frames", () => {
  assert.deepEqual(jsonRpcIn('{"jsonrpc":"2.0","id":1,"method":"tools/call"}').map((m) => m.method), ["tools/call"]);
  const sse = 'id: 1\nevent: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\ndata: {"jsonrpc":"2.0",\ndata: "id":2,"result":{}}\n\n';
  const found = jsonRpcIn(sse);
  assert.equal(found.length, 2);
  assert.equal(found[0].method, "notifications/progress");
  assert.equal(found[1].id, 2);
  assert.deepEqual(jsonRpcIn('data: {"jsonrpc":"2.0","id":3,"res'), [], "a partial frame is not a message");
});

test("URI templates: variables and RFC 6570 expansion", async () => {
  const { templateVariables, expandTemplate } = await import("../../www/js/resources-view.js");
  assert.deepEqual(templateVariables("demo://resource/dynamic/text/{resourceId}"), ["resourceId"]);
  assert.deepEqual(templateVariables("x://{+path}/{id}{?q,lang}"), ["path", "id", "q", "lang"]);
  assert.equal(expandTemplate("demo://r/{id}", { id: "a b/c" }), "demo://r/a%20b%2Fc");
  assert.equal(expandTemplate("file://{+path}", { path: "/tmp/a b" }), "file:///tmp/a%20b");
  assert.equal(expandTemplate("x://s{?q,lang}", { q: "cat", lang: "" }), "x://s?q=cat");
  assert.equal(expandTemplate("x://s{/a,b}", { a: "1", b: "2" }), "x://s/1/2");
});
