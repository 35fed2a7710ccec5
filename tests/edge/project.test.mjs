// The template Worker in real workerd with a project configuration layer and with a corrupt one:
// a server only the project defines waits for approval (MCP_APPROVED_SERVERS), a copy of the
// operator's endpoint under another name never pushes the operator's entry out, and a document
// that cannot be used fails open (an empty pool whose diagnostics say why) instead of every route
// answering an error.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { writeConfig, startWorkerd, freePort } from "./lib/workerd.mjs";
import { env, getJson, postJson, runDir } from "./lib/harness.mjs";

let layered;
let corrupt;
let workerd;
let scratch;

before(async () => {
  const py = env("PY2026_URL");
  const everything = env("EVERYTHING_URL");
  const [p1, p2] = [await freePort(), await freePort()];
  scratch = runDir("project");
  const project = {
    mcpServers: {
      // Only the project has these: "proj" waits, "approvedProj" was approved by the operator.
      proj: { url: py },
      approvedProj: { url: `${py}?as=approved` },
      // The operator's endpoint under a name that sorts first: the operator's entry is kept.
      aaCopy: { url: everything },
    },
  };
  const file = writeConfig(scratch.dir, {
    storageDir: `${scratch.dir}/do`,
    workers: [
      {
        name: "layered",
        port: p1,
        mcpConfig: { mcpServers: { everything: { url: everything } } },
        vars: { MCP_PROJECT_CONFIG: JSON.stringify(project), MCP_APPROVED_SERVERS: "approvedProj" },
      },
      { name: "corrupt", port: p2, mcpConfig: '{"mcpServers": {"a": {"url": ' },
    ],
  });
  workerd = await startWorkerd(file, [p1, p2]);
  layered = `http://127.0.0.1:${p1}`;
  corrupt = `http://127.0.0.1:${p2}`;
});

after(async () => {
  await workerd?.stop();
  scratch?.remove();
});

test("a project-only server waits for approval; an approved one connects; the operator's entry wins a duplicate", async () => {
  const { status, body } = await getJson(`${layered}/tools`);
  assert.equal(status, 200, JSON.stringify(body));
  const byName = Object.fromEntries(body.servers.map((s) => [s.name, s]));
  assert.equal(byName.proj.state, "pending-approval", JSON.stringify(byName.proj));
  assert.equal(byName.proj.projectEntry, "added");
  assert.equal(byName.approvedProj.state, "connected", JSON.stringify(byName.approvedProj));
  assert.equal(byName.approvedProj.projectEntry, "approved");
  assert.equal(byName.everything.state, "connected");
  assert.equal(byName.aaCopy.state, "disabled");
  assert.equal(byName.aaCopy.lastError.code, "DUPLICATE_SERVER");
  const names = body.tools.map((t) => t.name);
  assert.ok(names.includes("mcp__approvedProj__add"), names.join(", "));
  assert.ok(!names.some((n) => n.startsWith("mcp__proj__")), "no tool of an unapproved server is offered");
  assert.deepEqual(body.diagnostics, []);
  // A call to the waiting server's tool is refused at once, and says why.
  const call = await postJson(`${layered}/call`, { name: "mcp__proj__add", arguments: { a: 1, b: 2 } });
  assert.equal(call.body.isError, true);
  assert.equal(call.body.error.code, "SERVER_UNAVAILABLE", JSON.stringify(call.body));
  assert.equal(call.body.error.state, "pending-approval");
});

test("a configuration that cannot be read fails open: routes answer, diagnostics say why", async () => {
  const { status, body } = await getJson(`${corrupt}/tools`);
  assert.equal(status, 200, JSON.stringify(body));
  assert.deepEqual(body.tools, []);
  assert.deepEqual(body.servers, []);
  assert.equal(body.diagnostics.length, 1);
  assert.equal(body.diagnostics[0].code, "CONFIG");
  assert.match(body.diagnostics[0].message, /user layer ignored: not JSON \(line 1/);
  assert.doesNotMatch(body.diagnostics[0].message, /mcpServers/, "the message never quotes the document");
});
