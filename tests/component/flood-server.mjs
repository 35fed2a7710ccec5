// A 2026-07-28 MCP endpoint whose `tools/call` answers with an event stream that carries nothing
// but SSE comments, written as fast as the socket takes them, for `FLOOD_MS` milliseconds (then
// the stream ends without a result). It runs in a process of its own: the component's calls are
// synchronous and would stop a server in the test's own process from writing. Prints its port
// as the first line; exits when its stdin closes. Tool `progress_flood {count}` instead answers
// with `count` progress notifications (for the call's progressToken), then its result.
import http from "node:http";

const FLOOD_MS = Number(process.env.FLOOD_MS ?? 10_000);
const comments = Buffer.from(": flood\n\n".repeat(4096));

const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    const msg = body ? JSON.parse(body) : {};
    const json = (result) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result }));
    };
    if (msg.method === "server/discover") {
      return json({ resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, serverInfo: { name: "flood", version: "1" } });
    }
    if (msg.method === "tools/list") {
      return json({ tools: [{ name: "flood", inputSchema: { type: "object" } }, { name: "progress_flood", inputSchema: { type: "object" } }] });
    }
    if (msg.method === "tools/call" && msg.params?.name === "progress_flood") {
      const token = msg.params?._meta?.progressToken;
      const count = Number(msg.params?.arguments?.count ?? 0);
      res.writeHead(200, { "content-type": "text/event-stream" });
      let out = "";
      for (let i = 1; i <= count; i++) {
        out += `data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: i, message: `step ${i}` } })}\n\n`;
      }
      out += `data: ${JSON.stringify({ jsonrpc: "2.0", id: msg.id, result: { content: [{ type: "text", text: "done" }] } })}\n\n`;
      return res.end(out);
    }
    if (msg.method === "tools/call") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const until = Date.now() + FLOOD_MS;
      const write = () => {
        while (Date.now() < until) {
          if (!res.write(comments)) return void res.once("drain", write);
        }
        res.end();
      };
      res.on("error", () => {});
      return write();
    }
    res.writeHead(202);
    res.end();
  });
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
