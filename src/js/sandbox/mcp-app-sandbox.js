// The sandbox proxy of mcp-edge's app host (ext-apps `specification/2026-01-26/apps.mdx`,
// "Sandbox proxy"). Serve mcp-app-sandbox.html and this file from an origin other than the page
// that hosts apps (ideally with `Content-Security-Policy: frame-ancestors <that page's origin>`),
// and pass its URL to `McpApp.open` as `sandboxUrl`.
//
// It talks only to the page named by `?host=<origin>` (which must be the page that framed it,
// where the browser says so), announces itself with `ui/notifications/sandbox-proxy-ready`, loads
// the view it gets in `ui/notifications/sandbox-resource-ready` (the host has already put the
// view's Content-Security-Policy first in the HTML) into an inner sandboxed frame with an opaque
// origin, and passes every other message between the page and the view unchanged, never a
// `ui/notifications/sandbox-*` one from the view. It never makes a request of its own. The view's
// frame cannot navigate to an origin the view did not declare for frames (this page's frame-src),
// and a view whose frame loads a second document is removed.
(() => {
  const host = new URLSearchParams(globalThis.location.search).get("host");
  if (!host || host === globalThis.location.origin) return;
  const framedBy = globalThis.location.ancestorOrigins?.[0];
  if (framedBy !== undefined && framedBy !== host) return;
  // Never `allow-same-origin` (every view would share this origin) nor a way out of the sandbox.
  const SAFE = new Set(["allow-scripts", "allow-forms", "allow-popups", "allow-modals"]);
  const SANDBOX = "ui/notifications/sandbox-";
  let view = null;
  let loads = 0;
  const toHost = (message) => globalThis.parent.postMessage(message, host);
  const load = (p) => {
    // This document's frame-src decides where the view's frame may navigate (and the view's
    // document inherits it): only the origins the view declared for frames, else nowhere. The
    // host checked them (src/proto/apps/resource.rs), and a policy can only narrow.
    const frames = Array.isArray(p.csp?.frameDomains) ? p.csp.frameDomains.filter((d) => typeof d === "string") : [];
    const policy = document.createElement("meta");
    policy.httpEquiv = "Content-Security-Policy";
    policy.content = `frame-src ${frames.length ? frames.join(" ") : "'none'"}`;
    document.head.appendChild(policy);
    view = document.createElement("iframe");
    const tokens = String(typeof p.sandbox === "string" ? p.sandbox : "allow-scripts")
      .split(/\s+/).filter((t) => SAFE.has(t));
    view.setAttribute("sandbox", tokens.join(" "));
    if (typeof p.allow === "string" && p.allow) view.setAttribute("allow", p.allow);
    view.setAttribute("title", "MCP app view");
    // The view's own document loads once; a second load is the view navigating away.
    view.addEventListener("load", () => {
      if (++loads > 1 && view) {
        view.remove();
        view = null;
      }
    });
    view.srcdoc = typeof p.html === "string" ? p.html : "";
    document.body.appendChild(view);
  };
  const method = (data) => (data && typeof data.method === "string" ? data.method : "");
  globalThis.addEventListener("message", (event) => {
    const data = event.data;
    if (event.source === globalThis.parent && event.origin === host) {
      if (method(data).startsWith(SANDBOX)) {
        if (method(data) === `${SANDBOX}resource-ready` && !view && loads === 0) load(data.params || {});
        return;
      }
      if (view && loads < 2) view.contentWindow?.postMessage(data, "*");
    } else if (view && loads < 2 && event.source === view.contentWindow && !method(data).startsWith(SANDBOX)) {
      toHost(data);
    }
  });
  toHost({ jsonrpc: "2.0", method: `${SANDBOX}proxy-ready`, params: {} });
})();
