
/**
 * What `McpApp` hands the host when a view asks for something (`onRequest`): the method and its
 * parameters. `tools/call` names a tool of the view's own server that the app may call (checked
 * before the host sees it).
 */
export type AppRequest =
  | { method: "tools/call"; name: string; arguments: JsonObject }
  | { method: "resources/read"; uri: string }
  | { method: "ui/open-link"; url: string }
  | { method: "ui/message"; params: JsonObject }
  | { method: "ui/update-model-context"; params: JsonObject }
  | { method: "ui/request-display-mode"; mode: string };

/**
 * The element the view's frame goes into: a DOM `Element` (typed by what `open` uses, so the
 * declarations compile without the DOM library, in Node and Workers too).
 */
export interface AppContainer { appendChild(node: never): unknown }

/** The sandbox proxy's `HTMLIFrameElement`. */
export interface AppFrameElement { readonly contentWindow: unknown; getAttribute(name: string): string | null }

/** A host callback's answer: a value, or a promise of one; `false` (or a throw) refuses. */
type HostAnswer<T> = T | false | Promise<T | false>;

/** What a tool says about its MCP Apps view (`_meta.ui`): the `ui://` resource and who may use it. */
export interface ToolUi { resourceUri: string | null; visibility: Array<"model" | "app"> }

/**
 * Reads a tool object's `_meta.ui` as the exports and `McpApp` do: `resourceUri` from
 * `_meta.ui.resourceUri` or the deprecated `_meta["ui/resourceUri"]` (only a `ui://` URI counts),
 * `visibility` defaulting to both.
 */
export function toolUi(tool: Tool): ToolUi;

/** Options of `McpApp.open` (MCP Apps, ext-apps `specification/2026-01-26/apps.mdx`). */
export interface McpAppOptions {
  /** Where the frame goes. */
  container: AppContainer;
  /**
   * The sandbox proxy page (`mcp-app-sandbox.html` of this package, with its script), served
   * from an origin other than the page's. `open` throws when the origins are the same.
   */
  sandboxUrl: string;
  /** `hostInfo` for `ui/initialize` (default `{name: "mcp-edge", version}`). */
  hostInfo?: { name: string; version: string };
  /**
   * `hostContext` for `ui/initialize`: theme, styles, displayMode (default "inline"),
   * availableDisplayModes (default ["inline"]), containerDimensions (default
   * `{maxHeight}`), locale, timeZone, platform (default "web"), ...; `toolInfo` is added.
   */
  hostContext?: JsonObject;
  /** The tallest the frame grows to follow the view's size (CSS pixels, default 800). */
  maxHeight?: number;
  /** Sees every view request first; `false` or a throw refuses it (the view gets an error). */
  onRequest?(request: AppRequest): HostAnswer<unknown>;
  /** `ui/open-link` (http and https only); without it links are refused and not advertised. */
  onOpenLink?(url: string): HostAnswer<unknown>;
  /** `ui/message`: content the view wants in the conversation. */
  onMessage?(params: JsonObject): HostAnswer<unknown>;
  /** `ui/update-model-context`: context for the model's later turns (each replaces the last). */
  onUpdateModelContext?(params: JsonObject): HostAnswer<unknown>;
  /**
   * `ui/request-display-mode` for a mode both sides declared: resolve to the mode now in use.
   * Anything else (or no callback) leaves the mode as it is, and the view is told so.
   */
  onDisplayMode?(mode: string): HostAnswer<string>;
  /** The view is initialised (`ui/notifications/initialized`; its `appInfo`). */
  onInitialized?(appInfo: Json): void;
  /** `notifications/message` from the view (a log record). */
  onLog?(params: JsonObject): void;
  /** `ui/notifications/size-changed` (the frame's height already follows it). */
  onSizeChange?(size: { width: number | null; height: number | null }): void;
  /** A message from the view that was dropped or refused, and why (at most 64 are reported). */
  onDiagnostic?(text: string): void;
  /** The view is gone (teardown answered, timed out, or `close()`). */
  onClose?(): void;
}

/**
 * A server's interactive view (MCP Apps) in a sandboxed frame of the page, bridged to its server
 * through the `McpClient` it was opened with: the view can call only that server's tools whose
 * `_meta.ui.visibility` includes "app", and read its resources. The client must declare the
 * extension: `McpClient.connect(url, {extensions: {"io.modelcontextprotocol/ui": true}})`.
 */
export class McpApp {
  private constructor();
  free(): void;
  /** Reads the tool's `ui://` resource and mounts its view (not yet fed any input). */
  static open(client: McpClient, toolName: string, options: McpAppOptions): Promise<McpApp>;
  /** The sandbox proxy's iframe, until the view is closed. */
  readonly frame: AppFrameElement | undefined;
  readonly state: "awaiting-proxy" | "loading" | "initializing" | "ready" | "tearing-down" | "closed";
  /** How many dropped or refused view messages were counted but not reported (beyond 64). */
  readonly droppedDiagnostics: number;
  /** The Content-Security-Policy the view runs under (from `_meta.ui.csp`, checked). */
  readonly contentSecurityPolicy: string;
  /** Calls the tool with `args`, feeding the view the input, then the result (or `tool-cancelled`). */
  run(args: JsonObject, options?: CallOptions): Promise<CallToolResult>;
  /** `ui/notifications/tool-input` (once; held until the view is initialised). */
  toolInput(args: JsonObject): void;
  /** `ui/notifications/tool-input-partial` while arguments stream, before `toolInput`. */
  toolInputPartial(args: JsonObject): void;
  /** `ui/notifications/tool-result`, after `toolInput`. */
  toolResult(result: CallToolResult): void;
  /** `ui/notifications/tool-cancelled`, after `toolInput`. */
  toolCancelled(reason: string): void;
  /** `ui/notifications/host-context-changed` with these members. */
  setHostContext(changes: JsonObject): void;
  /** `ui/resource-teardown`, then removes the frame once the view answers or after `timeoutMs` (3 s). */
  teardown(reason?: string, options?: { timeoutMs?: number }): Promise<void>;
  /** Removes the frame now. */
  close(): void;
}
