// Notifications that need a standing stream reach the host through `poll-notifications`:
//   2025 era: server-everything's `notifications/resources/list_changed` on the GET stream (the
//             server sends it on the standalone stream, not on the call's response);
//   2026-07-28: the Python server's `notifications/tools/list_changed` on `subscriptions/listen`.
// Without `listen-json` no standing stream is open and the 2025 notification never arrives.
import { test } from "node:test";
import assert from "node:assert/strict";

const out = process.env.COMPONENT_JS ?? new URL("./out/mcp-edge.js", import.meta.url).href;
const { client } = await import(out);
const { Client } = client;

const PY2026_URL = process.env.PY2026_URL;
const EVERYTHING_URL = process.env.EVERYTHING_URL;
assert.ok(PY2026_URL && EVERYTHING_URL, "run tests/component/run.sh (server URLs missing)");

const methods = (notes) => notes.filter((n) => n.tag === "server").map((n) => n.val.method);

/** Polls (at most `rounds` x `ms`) until `method` arrived; returns every method seen. */
function pollFor(c, method, rounds, ms) {
  const seen = [];
  for (let i = 0; i < rounds && !seen.includes(method); i++) seen.push(...methods(c.pollNotifications(BigInt(ms))));
  return seen;
}

/** Registers a session resource on server-everything, which announces it with list_changed. */
function addResource(c, i) {
  const args = { name: `stream-${i}.txt`, data: "data:text/plain,hello", outputType: "resourceLink" };
  const r = c.callTool("gzip-file-as-resource", JSON.stringify(args), undefined);
  assert.equal(r.isError, false, r.json);
}

test("2025 GET stream: server-everything's resources/list_changed reaches the host", () => {
  const c = Client.connect(EVERYTHING_URL, { listenJson: "{}" });
  try {
    assert.equal(c.serverInfo().era, "legacy");
    // The GET stream opens right after the connect; a change made before the server registered
    // it is not sent anywhere, so change again (bounded) until one arrives.
    let seen = [];
    for (let i = 0; i < 10 && !seen.includes("notifications/resources/list_changed"); i++) {
      addResource(c, i);
      seen = pollFor(c, "notifications/resources/list_changed", 10, 200);
    }
    assert.ok(seen.includes("notifications/resources/list_changed"), `seen: ${seen}`);
  } finally {
    c.close();
  }
});

test("2025 without listen-json: no standing stream, the list change is not seen", () => {
  const c = Client.connect(EVERYTHING_URL, undefined);
  try {
    addResource(c, 100);
    const seen = pollFor(c, "notifications/resources/list_changed", 3, 200);
    assert.ok(!seen.includes("notifications/resources/list_changed"), `seen: ${seen}`);
  } finally {
    c.close();
  }
});

test("2026 subscriptions/listen: the Python server's tools/list_changed reaches the host", () => {
  const c = Client.connect(PY2026_URL, { listenJson: JSON.stringify({ toolsListChanged: true }) });
  try {
    assert.equal(c.serverInfo().era, "modern");
    const ack = pollFor(c, "notifications/subscriptions/acknowledged", 50, 200);
    assert.ok(ack.includes("notifications/subscriptions/acknowledged"), `seen: ${ack}`);
    const name = `c${Date.now() % 1_000_000_000}`;
    const r = c.callTool("add_tool", JSON.stringify({ name }), undefined);
    assert.equal(r.isError, false, r.json);
    const seen = [...methods(c.takeNotifications()), ...pollFor(c, "notifications/tools/list_changed", 50, 200)];
    assert.ok(seen.includes("notifications/tools/list_changed"), `seen: ${seen}`);
  } finally {
    c.close();
  }
});
