// The DOM half of McpApp (src/js/apps.rs): one frame on the sandbox proxy's origin and the
// messages in and out of it. Every protocol rule is in the core's bridge (src/proto/apps); this
// file only moves text between the frame and the bridge.

// Mounts the sandbox proxy page `sandboxUrl` (another origin than the page's: ext-apps "Sandbox
// proxy" rule 1) in `container`. `receive(text)` gets each message of the frame as JSON text, or
// `null` for one that cannot be serialised. Returns the frame's handle.
export function mountAppFrame(container, sandboxUrl, allow, maxHeight, receive) {
  const page = globalThis.location;
  const url = new URL(sandboxUrl, page.href);
  if (url.origin === page.origin) {
    throw new Error(`the sandbox proxy ${url.origin} must be on another origin than the page`);
  }
  url.searchParams.set("host", page.origin);
  const frame = document.createElement("iframe");
  // The proxy needs scripts and its own origin (rule 2); the view's frame inside is its own.
  frame.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms");
  if (allow) frame.setAttribute("allow", allow);
  frame.setAttribute("title", "MCP app");
  frame.className = "mcp-app-frame";
  frame.style.cssText = "border:0;width:100%;height:0;display:block";
  const onMessage = (event) => {
    if (event.source !== frame.contentWindow || event.origin !== url.origin) return;
    let text = null;
    try {
      text = JSON.stringify(event.data);
    } catch {
      text = null;
    }
    receive(typeof text === "string" ? text : null);
  };
  globalThis.addEventListener("message", onMessage);
  frame.src = url.href;
  container.appendChild(frame);
  return {
    frame,
    post(text) {
      frame.contentWindow?.postMessage(JSON.parse(text), url.origin);
    },
    height(h) {
      frame.style.height = `${Math.ceil(Math.min(h, maxHeight))}px`;
    },
    remove() {
      globalThis.removeEventListener("message", onMessage);
      frame.remove();
    },
  };
}
