// Unit tests of the page's pure modules (run in Node; no DOM needed): traffic redaction, the
// outputSchema checker, JSON-RPC messages in traffic, URI template expansion.
import { test } from "node:test";
import assert from "node:assert/strict";
import { validate } from "../../www/js/validate.js";
import { jsonRpcIn } from "../../www/js/traffic.js";
import { Redactor, redactText, isSecretHeader, SECRET_FIELDS } from "../../www/js/redact.js";

test("redaction: credential headers, configured headers and configured values", () => {
  const r = new Redactor({ Authorization: "Bearer tok-SENTINEL-1234", "X-Team": "blue" });
  const out = r.push({
    type: "request", exchange: 1, method: "POST", url: "http://h/mcp?access_token=tok-SENTINEL-1234&x=1",
    headers: [["authorization", "Bearer tok-SENTINEL-1234"], ["x-team", "blue"], ["cookie", "a=b"], ["dpop", "eyJ"], ["x-goog-api-key", "k"],
      ["proxy-authorization", "Basic abc"], ["content-type", "application/json"], ["mcp-protocol-version", "2026-07-28"], ["x-echo", "saw tok-SENTINEL-1234"]],
    body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{"note":"tok-SENTINEL-1234"}}}',
  });
  assert.ok(!JSON.stringify(out).includes("SENTINEL"), JSON.stringify(out));
  const h = Object.fromEntries(out.headers);
  for (const k of ["authorization", "x-team", "cookie", "dpop", "x-goog-api-key", "proxy-authorization"]) assert.equal(h[k], "[redacted]", k);
  assert.equal(h["content-type"], "application/json");
  assert.equal(h["mcp-protocol-version"], "2026-07-28");
  assert.equal(h["x-echo"], "saw [redacted]");
  assert.equal(out.url, "http://h/mcp?access_token=[redacted]&x=1");
  const head = r.push({ type: "head", exchange: 1, status: 401, headers: [["set-cookie", "s=1"], ["www-authenticate", 'Bearer resource_metadata="x"']] });
  assert.deepEqual(head.headers, [["set-cookie", "[redacted]"], ["www-authenticate", 'Bearer resource_metadata="x"']]);
  assert.equal(isSecretHeader("mcp-session-id"), false);
  assert.equal(isSecretHeader("x-auth-token"), true);
});

test("redaction: credential fields in JSON (also JSON inside a string), form bodies and URLs", () => {
  for (const f of SECRET_FIELDS) {
    assert.equal(redactText(`{"${f}": "v-1"}`), `{"${f}": "[redacted]"}`, f);
    assert.equal(redactText(`grant_type=x&${f}=v-1&y=2`), `grant_type=x&${f}=[redacted]&y=2`, f);
  }
  assert.equal(redactText('{"text":"{\\"id_token\\": \\"v-1\\"}"}'), '{"text":"{\\"id_token\\": \\"[redacted]\\"}"}');
  assert.equal(redactText('{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad"}}'), '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad"}}', "a JSON-RPC error code is not a credential");
  assert.equal(redactText('{"code":"print(1)","x":"a\\"b"}'), '{"code":"[redacted]","x":"a\\"b"}');
});

test("redaction: a secret split across body chunks at any offset never shows", () => {
  const token = "tok-SENTINEL-1234";
  const text = `event: message\ndata: {"result":{"access_token":"AT-SECRET-VALUE","refresh_token":"RT-SECRET"},"echo":"${token}"}\n\n`;
  for (let i = 0; i <= text.length; i++) {
    for (let j = i; j <= text.length; j += 7) {
      const r = new Redactor({ Authorization: `Bearer ${token}` });
      const shown = [text.slice(0, i), text.slice(i, j), text.slice(j)].map((t) => r.push({ type: "body", exchange: 3, text: t }).text).join("");
      assert.ok(!/SECRET|SENTINEL/.test(shown), `split at ${i}/${j}: ${shown}`);
    }
  }
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
