// Preloaded with `node --import` before a test server whose code calls `listen(port)` with no host
// (which binds every interface). It makes such calls bind 127.0.0.1 only, so servers started by the
// tests and the demo are reachable from this machine alone. Calls that name a host are left as they are.
import net from "node:net";

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const [first, second] = args;
  const isPort = typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first));
  if (isPort && typeof second !== "string") {
    args.splice(1, 0, "127.0.0.1");
  } else if (first && typeof first === "object" && !("path" in first) && first.host === undefined) {
    args[0] = { ...first, host: "127.0.0.1" };
  }
  return listen.apply(this, args);
};
