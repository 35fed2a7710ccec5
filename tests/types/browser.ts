// The declarations in a browser page's setting (DOM types, no Node types): a small typed use of
// the API that only needs what a page has. tsc checks it; it is not run (the playground and the
// e2e suites run the same calls in Chromium).
import { McpApp, McpClient, McpPool, browserStorage, isMcpError, openAuthorizationPopup, toolNames } from "mcp-edge";
import type { AppRequest, CallToolResult, PoolEvent, TrafficRecord } from "mcp-edge";

export async function page(url: string, signal: AbortSignal): Promise<CallToolResult | string> {
  const records: TrafficRecord[] = [];
  try {
    const client = await McpClient.connect(url, { fetch: (input, init) => fetch(input, init), onTraffic: (r) => records.push(r) });
    const result = await client.callTool("echo", { message: "hi" }, { signal, onProgress: (p) => console.log(p.progress, p.total) });
    await client.close();
    return result;
  } catch (e) {
    return isMcpError(e) ? `${e.code}: ${e.message}` : String(e);
  }
}

export function pool(onEvent: (e: PoolEvent) => void): McpPool {
  const names: string[] = toolNames([["s", "t"]]);
  console.log(names);
  return new McpPool({ mcpServers: { s: { url: "https://example.com/mcp" } } }, { onEvent });
}

/** Popup sign-in from a click: the window opens before any await; a blocked one offers its URL. */
export function signInOnClick(button: HTMLButtonElement, server: string, url: string, link: HTMLAnchorElement): void {
  const auth = { redirectUri: `${location.origin}/oauth-callback.html`, storage: browserStorage({ tokens: "local", pending: "session" }) };
  button.onclick = () => {
    openAuthorizationPopup(url, { signal: new AbortController().signal, timeoutMs: 120_000 })
      .then((callback) => McpClient.completeAuthorization(server, callback, { auth }))
      .catch((e: unknown) => {
        if (isMcpError(e) && e.code === "AUTH_POPUP_BLOCKED" && e.url) link.href = e.url;
      });
  };
}

/** An MCP Apps view beside a tool's result: the view's calls pass the host's check first. */
export async function appView(url: string, container: HTMLElement, sandboxUrl: string): Promise<CallToolResult> {
  const client = await McpClient.connect(url, { extensions: { "io.modelcontextprotocol/ui": true } });
  const app = await McpApp.open(client, "get-time", {
    container,
    sandboxUrl,
    hostContext: { theme: "dark", availableDisplayModes: ["inline", "fullscreen"] },
    onRequest: (req: AppRequest) => req.method !== "ui/open-link",
    onDisplayMode: (mode) => mode,
    onSizeChange: ({ height }) => console.log(height),
  });
  const result = await app.run({});
  app.setHostContext({ theme: "light" });
  if (app.state === "ready") await app.teardown("done", { timeoutMs: 1000 });
  return result;
}
