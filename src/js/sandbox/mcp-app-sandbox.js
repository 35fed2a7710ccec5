// The sandbox proxy of mcp-edge's app host (ext-apps `specification/2026-01-26/apps.mdx`,
// "Sandbox proxy"). Serve mcp-app-sandbox.html and this file from an origin other than the page
// that hosts apps, and pass its URL to `McpApp.open` as `sandboxUrl`.
//
// It talks only to the page named by `?host=<origin>`, announces itself with
// `ui/notifications/sandbox-proxy-ready`, loads the view it gets in
// `ui/notifications/sandbox-resource-ready` (the host has already put the view's
// Content-Security-Policy first in the HTML) into an inner sandboxed frame, and passes every other
// message between the page and the view unchanged. It never makes a request of its own.
(() => {
  const host = new URLSearchParams(globalThis.location.search).get("host");
  if (!host || host === globalThis.location.origin) return;
  const SAFE = new Set(["allow-scripts", "allow-same-origin", "allow-forms", "allow-popups",
    "allow-popups-to-escape-sandbox", "allow-modals", "allow-downloads"]);
  let view = null;
  const toHost = (message) => globalThis.parent.postMessage(message, host);
  const load = (p) => {
    view = document.createElement("iframe");
    const tokens = String(typeof p.sandbox === "string" ? p.sandbox : "allow-scripts")
      .split(/\s+/).filter((t) => SAFE.has(t));
    view.setAttribute("sandbox", tokens.join(" "));
    if (typeof p.allow === "string" && p.allow) view.setAttribute("allow", p.allow);
    view.setAttribute("title", "MCP app view");
    view.srcdoc = typeof p.html === "string" ? p.html : "";
    document.body.appendChild(view);
  };
  globalThis.addEventListener("message", (event) => {
    const data = event.data;
    if (event.source === globalThis.parent && event.origin === host) {
      const method = data && typeof data.method === "string" ? data.method : "";
      if (method.startsWith("ui/notifications/sandbox-")) {
        if (method === "ui/notifications/sandbox-resource-ready" && !view) load(data.params || {});
        return;
      }
      if (view) view.contentWindow?.postMessage(data, "*");
    } else if (view && event.source === view.contentWindow) {
      toHost(data);
    }
  });
  toHost({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} });
})();
