// Preloaded with `node --import` before server-everything: its Express app calls
// app.listen(PORT) with no host, which binds every interface, and it has no
// host option. This wraps net.Server#listen so a port-only call binds
// MCP_TEST_HOST (default 127.0.0.1), and, once listening, writes the bound port
// to MCP_TEST_PORT_FILE (so PORT=0 can pick a free port).
import fs from "node:fs";
import net from "node:net";

const host = process.env.MCP_TEST_HOST || "127.0.0.1";
const portFile = process.env.MCP_TEST_PORT_FILE;
const originalListen = net.Server.prototype.listen;

net.Server.prototype.listen = function listenOnLoopback(...args) {
  const first = args[0];
  const portOnly =
    typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first));
  if (portOnly && typeof args[1] !== "string") {
    const callback = args.find((a) => typeof a === "function");
    args = [{ port: Number(first), host }, ...(callback ? [callback] : [])];
  }
  if (portFile) {
    this.once("listening", () => {
      const tmp = `${portFile}.tmp`;
      fs.writeFileSync(tmp, `${this.address().port}\n`);
      fs.renameSync(tmp, portFile);
    });
  }
  return originalListen.apply(this, args);
};
