// Server requests for input answered by the host through `mcp-edge:client/host-input`
// (host-input.mjs, mapped by run.sh), in both eras, against the Python server's `mrtr_twice`:
//   2026-07-28: two multi-round-trip rounds (`inputRequests` in an input_required result);
//   2025-11-25: two `elicitation/create` server requests on the call's response stream.
// Without a handler the host answers nothing: no elicitation capability is declared and the
// server's requests are refused, as before the interface existed.
import { test, describe, afterEach } from "node:test";
import assert from "node:assert/strict";
import { setInputHandler } from "./host-input.mjs";

const out = process.env.COMPONENT_JS ?? new URL("./out/mcp-edge.js", import.meta.url).href;
const { client, pool } = await import(out);
const { Client } = client;
const { Pool } = pool;

const PY2026_URL = process.env.PY2026_URL;
assert.ok(PY2026_URL, "run tests/component/run.sh (server URLs missing)");

const text = (result) => JSON.parse(result.contentJson).map((c) => c.text).join("");

/** A handler answering each elicitation with the next of `answers`; records the requests. */
function answering(...answers) {
  const seen = [];
  setInputHandler({
    kinds: ["elicitation"],
    answer(request) {
      seen.push({ ...request, params: JSON.parse(request.paramsJson) });
      return { action: "accept", content: { answer: answers[seen.length - 1] } };
    },
  });
  return seen;
}

afterEach(() => setInputHandler(null));

for (const [era, options, version, refusal] of [
  // Without the capability the tool refuses with -32021 (missing client capability).
  ["2026-07-28 (MRTR rounds)", undefined, "2026-07-28", /elicitation client capability/],
  // The server's elicitation/create is answered -32601 by the component.
  ["2025-11-25 (server requests)", { protocolVersion: "2025-11-25" }, "2025-11-25", /cannot answer elicitation\/create/],
]) {
  describe(`elicitation through the host, ${era}`, () => {
    test("both questions reach the host and the tool completes with its answers", () => {
      const seen = answering("one", "two");
      const c = Client.connect(PY2026_URL, options);
      try {
        assert.equal(c.serverInfo().protocolVersion, version);
        const r = c.callTool("mrtr_twice", "{}", undefined);
        assert.equal(r.isError, false, r.json);
        assert.equal(text(r), "first=one second=two");
        assert.deepEqual(seen.map((s) => s.kind), ["elicitation", "elicitation"]);
        assert.deepEqual(seen.map((s) => s.method), ["elicitation/create", "elicitation/create"]);
        assert.deepEqual(seen.map((s) => s.params.message),
          ["mrtr_twice: first question", "mrtr_twice: second question"]);
        assert.equal(seen[0].serverUrl, PY2026_URL);
      } finally {
        c.close();
      }
    });

    test("a host that answers nothing declares no capability and the server is refused", () => {
      const c = Client.connect(PY2026_URL, options);
      try {
        let failed;
        try {
          const r = c.callTool("mrtr_twice", "{}", undefined);
          failed = r.isError ? text(r) : undefined;
        } catch (e) {
          failed = e.payload?.message ?? String(e);
        }
        assert.ok(failed, "the tool must not complete without answers");
        assert.match(failed, refusal);
      } finally {
        c.close();
      }
    });
  });
}

test("a refusal from the host reaches the server as a JSON-RPC error (2025 era)", () => {
  setInputHandler({
    kinds: ["elicitation"],
    answer() {
      throw { code: -32603n, message: "the user is away" };
    },
  });
  const c = Client.connect(PY2026_URL, { protocolVersion: "2025-11-25" });
  try {
    let outcome;
    try {
      outcome = text(c.callTool("mrtr_twice", "{}", undefined));
    } catch (e) {
      outcome = e.payload?.message ?? String(e);
    }
    assert.match(outcome, /the user is away/);
  } finally {
    c.close();
  }
});

test("the pool's clients ask the same host", () => {
  const seen = answering("p1", "p2");
  const p = Pool.create(JSON.stringify({ mcpServers: { py: { url: PY2026_URL } } }), undefined);
  try {
    assert.equal(JSON.parse(p.connectAll()).servers[0].state, "connected");
    const r = JSON.parse(p.call("mcp__py__mrtr_twice", "{}", undefined));
    assert.equal(r.isError, false, JSON.stringify(r));
    assert.equal(r.content[0].text, "first=p1 second=p2");
    assert.equal(seen.length, 2);
  } finally {
    p.close();
  }
});
