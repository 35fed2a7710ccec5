/**
 * The `mcp__<server>__<tool>` name {@link McpPool} gives each (server, tool) pair of this set, in
 * the order given: each part normalised to `[A-Za-z0-9_-]`, at most 64 characters (a stable hash
 * suffix when shortened), collision-free over the set.
 */
export function toolNames(pairs: [server: string, tool: string][]): string[];

/** One entry of `mcpServers`, as users already write it. `${VAR}` / `${VAR:-default}` expand from `vars`. */
export interface ServerEntry {
  /**
   * The transport, as configs spell it; optional, and only checked against the entry: with `url`,
   * "http", "streamable-http", "streamableHttp" or "sse" (the client picks the protocol itself);
   * with `command`, "stdio". A mismatch is a config error.
   */
  type?: "http" | "streamable-http" | "streamableHttp" | "sse" | "stdio";
  url?: string;
  headers?: Record<string, string>;
  /** stdio entries are reported as `unsupported` in wasm. */
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  /** OAuth settings of this server (strings `${VAR}`-expanded), over the pool's `auth` defaults; the hooks come from the pool's `auth` option. */
  auth?: Omit<AuthOptions, "onAuthorizationUrl" | "storage" | "fetch">;
  /** Overrides what annotations claim: the default is "execute" ("edit" is read as "write"). */
  category?: ToolCategory | "edit";
  /**
   * Tools the user approves in advance: `true` for every tool of this server, or the tool names as
   * the server spells them. Reported as `autoApprove` by `toolInfo()` and in the `mcp` export's
   * `_meta["mcp-edge/trust"]`; the pool itself asks nobody, the host's permission layer decides.
   */
  autoApprove?: boolean | string[];
  /** Connect timeout, 1..3600000 ms. */
  timeoutMs?: number;
  /**
   * Inactivity limit of each request to this server, 1..3600000 ms (progress resets it); above the
   * pool's `maxTotalTimeoutMs` the server fails to connect with `CONFIG` rather than being cut.
   */
  callTimeoutMs?: number;
  enabled?: boolean;
  /** The opposite of `enabled`, as some configs spell it; a server is off when either says so. */
  disabled?: boolean;
  protocol?: ProtocolChoice;
}
/** A configuration document; without `mcpServers` the pool has no servers. */
export interface PoolConfig { mcpServers?: Record<string, ServerEntry>; [key: string]: Json | Record<string, ServerEntry> | undefined }

/**
 * The project layer (`projectConfig`): a `null` member removes the user's; a `null` server
 * removes the user's server of that name when it is approved (`approvedProjectServers`).
 */
export interface ProjectConfig { mcpServers?: Record<string, ServerEntry | null>; [key: string]: Json | Record<string, ServerEntry | null> | undefined }

/**
 * A server name pattern (a bare string or `serverName`), a URL pattern (`serverUrl`), both with `*`
 * wildcards, or a stdio server's command (`serverCommand`: a string or a one-element array matches
 * the command with any arguments; a longer array, the command with exactly those arguments).
 */
export type PolicyRule = string | { serverName: string } | { serverUrl: string } | { serverCommand: string | string[] };

/**
 * OAuth for the servers whose configuration entry has `auth`. The hooks (storage, sign-in handler,
 * OAuth `fetch`) serve all of them; every other setting here (`redirectUri`, `clientName`, ...) is
 * a default that each entry's `auth` overrides. A default applies to every such server: a client id
 * or secret put here is sent to each of their authorization servers.
 */
export interface PoolAuthOptions extends Omit<AuthOptions, "onAuthorizationUrl"> {
  /** The person's step for `server`; resolve with the callback URL. */
  onAuthorizationUrl?: (url: string, server: string) => string | Promise<string>;
}

export interface PoolOptions extends Omit<ConnectOptions, "auth"> {
  /** OAuth hooks and default settings for the servers whose configuration has an `auth` entry. */
  auth?: PoolAuthOptions;
  /** Values for `${VAR}` expansion. Errors name the variable, never a value. */
  vars?: Record<string, string>;
  /**
   * A second (project) layer over `config`, an object or its JSON text: top-level scalars override;
   * its servers that `config` lacks are added but wait in `pending-approval` (an
   * `approvalRequired` event is sent) until `approveServer` or `rejectServer`; one that `config`
   * has is ignored (the user's entry, with its credentials, stays in force; `status()` says
   * `projectEntry: "ignored"` and a `projectEntryIgnored` event is sent). Servers named in
   * `approvedProjectServers` are approved in advance: added ones connect, and the project's entry
   * replaces the user's whole. Two entries with the same endpoint keep the user's, never the
   * project's. A layer that cannot be used is left out (`status().diagnostics`).
   */
  projectConfig?: ProjectConfig | string;
  /** Project servers approved in advance (see `projectConfig`). */
  approvedProjectServers?: string[];
  /** Deny wins; an absent allow list allows all, an empty one allows none. */
  policy?: { denied?: PolicyRule[]; allowed?: PolicyRule[] };
  /**
   * Edge isolates (Workers allow 6 simultaneous subrequests): at most 6 outbound HTTP exchanges
   * at once across all of the pool's clients (connects, calls, closes; each held until its
   * response body ends), the rest wait in FIFO order. The 2025-era GET stream is off unless
   * `openGetStream: true`.
   */
  edge?: boolean;
  maxConcurrentConnects?: number;
  /** Connect timeout of servers without `timeoutMs` (default 30000). */
  connectTimeoutMs?: number;
  /**
   * Reconnection timing. A failed remote server is retried after `initialMs` (default 1000),
   * growing by `multiplier` (2) up to `maxMs` (30000), minus up to `jitterPercent` (20) %, at most
   * `maxRetries` (5) times in a row and `maxTotalRetries` (50) times in all; a connection that stays
   * up `stableAfterMs` (60000) ends the streak. Then it is retried every `slowMs` (300000, jittered)
   * for as long as the pool lives; `slowMs: null` gives up instead (until `reconnect()`).
   */
  reconnect?: {
    initialMs?: number; maxMs?: number; multiplier?: number; jitterPercent?: number;
    maxRetries?: number; maxTotalRetries?: number; stableAfterMs?: number; slowMs?: number | null;
  };
  /**
   * Pins from an earlier run (`pool.pins()`): a tool whose description or input schema differs
   * from its pin is held back (and reported by a `toolChanged` event) until `acceptTool`.
   */
  pins?: Pins;
  /**
   * Deferred tool loading (MCP client best practices, "Progressive Tool Discovery"). Default
   * `{mode: "auto", contextTokens: 200000, sharePercent: 5, style: "native"}`: once the exported
   * definitions' estimated tokens exceed `contextTokens * sharePercent / 100`, `tools()` defers them
   * behind a search tool. `native` uses Anthropic's `defer_loading` + `tool_reference` and OpenAI
   * Responses' client `tool_search`; other formats (and `style: "meta"`) get the fixed pair
   * `search_tools` / `call_tool`, which `call()` answers. `alwaysLoaded` tools are always sent whole.
   */
  toolSearch?: ToolSearchOptions;
  onEvent?: (event: PoolEvent) => void;
}

export interface ToolSearchOptions {
  mode?: "auto" | "always" | "never";
  contextTokens?: number;
  /** 1..100. */
  sharePercent?: number;
  alwaysLoaded?: string[];
  style?: "native" | "meta";
}

/** Whether a format's definitions are deferred now, and what they cost (estimated tokens). */
export interface Deferral {
  deferred: boolean;
  totalTokens: number;
  thresholdTokens: number;
  perServer: Record<string, number>;
  /** Tools sent whole. */
  loaded: number;
  /** Tools left to the search tool. */
  deferredTools: number;
  /** Estimated tokens of the array `tools()` returns that the model reads up front. */
  upfrontTokens: number;
}

/** Anthropic's reference to a deferred tool, the content of the search tool's `tool_result`. */
export interface ToolReference { type: "tool_reference"; tool_name: string }

/** OpenAI Responses' answer to a client `tool_search_call`. */
export interface ToolSearchOutput {
  type: "tool_search_output";
  execution: "client";
  call_id: string | null;
  status: "completed";
  tools: OpenAiResponsesTool[];
}

/** One search result; `definition` is in the requested format (default `mcp`). */
export interface ToolSearchHit {
  name: string;
  server: string;
  tool: string;
  score: number;
  definition: Tool | OpenAiTool | OpenAiResponsesTool | AnthropicTool;
}

/** Tool pins: `{server: {tool: "sha256:<hex>"}}` (tool names as the server spells them). */
export type Pins = Record<string, Record<string, string>>;

/** A tool held back because its definition differs from its pin. */
export interface HeldTool { name: string; server: string; tool: string; pinned: string; current: string }

export type ServerState = "pending" | "connecting" | "connected" | "failed" | "needs-auth" | "disabled" | "pending-approval" | "unsupported";

export interface ServerStatus {
  name: string;
  state: ServerState;
  transport: "http" | "stdio" | null;
  lastError: { code: McpErrorCode; message: string } | null;
  toolCount: number;
  /** Prompts it offers (servers that declare `prompts`), 0 unless connected. */
  promptCount: number;
  /** Resources it offers (servers that declare `resources`), 0 unless connected. */
  resourceCount: number;
  era: "modern" | "legacy" | null;
  protocolVersion: string | null;
  retries: number;
  /** Milliseconds on the pool's clock, which starts at 0 when the pool is made (as `deadline`). */
  nextRetryAt: number | null;
  deadline: number | null;
  /** Automatic retries stopped (only with slow retries turned off). */
  gaveUp: boolean;
  /** The fast retries are spent: the server is retried every few minutes (jittered) until it is back. */
  slowRetry: boolean;
  /** What became of the project layer's entry of this name; `null` when it has none. */
  projectEntry: "added" | "ignored" | "approved" | null;
}
export interface PoolStatus {
  servers: ServerStatus[];
  /** Configuration layers left out because they could not be used (bad JSON, not an object). */
  diagnostics: { code: McpErrorCode; message: string }[];
}

/**
 * What `onEvent` receives: a server changed state (also when a connected one stopped answering:
 * `connected` -> `failed`, reconnected with backoff), a connect attempt ran out of time, a server
 * said a list changed (the pool fetched it again; for tools it ran the pinning check and updated
 * the exports), or a connected server's exported tool count changed.
 */
export type PoolEvent =
  | { type: "state"; server: string; from: ServerState; to: ServerState; error: { code: McpErrorCode; message: string } | null }
  | { type: "attemptAborted"; server: string }
  /** The project layer's entry for a server the user's config has was not used (not approved). */
  | { type: "projectEntryIgnored"; server: string }
  /** A server only the project layer defines waits for `approveServer` / `rejectServer`. */
  | { type: "approvalRequired"; server: string }
  /** A configuration layer could not be used; the pool started without it. */
  | { type: "configRejected"; code: McpErrorCode; message: string }
  /** `dropped` events were lost here (a queue nobody drained was full); never sent to a listener that keeps up. */
  | { type: "gap"; dropped: number }
  | { type: "listChanged"; server: string; list: "tools" | "prompts" | "resources"; count: number }
  | { type: "toolCount"; server: string; count: number }
  /** A tool's description or input schema differs from its pin: it is held back until `acceptTool`. */
  | { type: "toolChanged"; name: string; server: string; tool: string; pinned: string; current: string }
  /** A tool definition was unusable and left out (the server's other tools stay). */
  | { type: "toolRejected"; server: string; code: "INVALID_TOOL"; error: string }
  /** The exported tool set changed (a server joined or left, a list changed, a tool was accepted): read `tools()` again. */
  | { type: "toolsChanged" };

export type ToolFormat = "openai" | "openai-responses" | "anthropic" | "mcp";

export type ToolCategory = "read" | "write" | "execute";

/**
 * What a host's permission layer reads about an exported tool. `category` is the user's (else
 * "execute"); `hintedCategory` and `hints` are what the server's annotations claim (untrusted,
 * spec defaults for absent ones); `autoApprove` whether the user's `autoApprove` covers it. The
 * `mcp` export carries the same (without the names) in `_meta["mcp-edge/trust"]`.
 */
export interface ToolInfo {
  name: string;
  server: string;
  tool: string;
  title: string | null;
  category: ToolCategory;
  hintedCategory: ToolCategory;
  hints: { readOnly: boolean; destructive: boolean; idempotent: boolean; openWorld: boolean };
  autoApprove: boolean;
  /** MCP 2025-11-25 `execution.taskSupport` ("required": always called as a task and polled to its result); `null` when the tool declares none (a 2026-07-28 server with the Tasks extension may still make any call a task). */
  taskSupport: "required" | "optional" | "forbidden" | null;
  /**
   * MCP Apps (`_meta.ui`): the `ui://` view that renders its results, and who may use it. A tool
   * whose visibility lacks "model" is in no export and the pool's `call` refuses it
   * (`UNKNOWN_TOOL`); one without "app" is refused to views.
   */
  ui: { resourceUri: string | null; visibility: Array<"model" | "app"> };
}

export interface OpenAiTool { type: "function"; function: { name: string; description: string; parameters: JsonObject } }
export interface OpenAiResponsesTool { type: "function"; name: string; description: string; parameters: JsonObject }
export interface AnthropicTool { name: string; description: string; input_schema: JsonObject }

/**
 * A tool result as an LLM reads it: one text block; `raw` is the server's result. When the call
 * failed (rather than the tool), `error` says how, with the code and details an `McpError` would
 * carry (and the pool's own: `SERVER_UNAVAILABLE` with `server`, `state`, `nextRetryAt` and `retryInMs`,
 * `CIRCUIT_OPEN` with `retryAt`, `UNKNOWN_TOOL`, `TOOL_CHANGED`, `INVALID_ARGUMENT` for a malformed
 * `search_tools` / `call_tool` call).
 */
export interface FlatToolResult {
  content: [{ type: "text"; text: string }];
  isError: boolean;
  raw?: CallToolResult;
  error?: { code: McpErrorCode; message: string; status?: number; retryAfterMs?: number; mayHaveRun?: boolean; server?: string; state?: ServerState; nextRetryAt?: number | null; retryInMs?: number | null; retryAt?: number; [key: string]: Json | undefined };
}

export class McpPool {
  free(): void;
  /**
   * Never throws for the document's content: a document that cannot be used (bad JSON text, not an
   * object) gives an empty pool whose `status().diagnostics` says why; a bad entry fails only itself.
   */
  constructor(config: PoolConfig | string, options?: PoolOptions);
  /** Connects every enabled server (bounded concurrency, own timeouts); never rejects for one server. */
  connectAll(): Promise<PoolStatus>;
  status(): PoolStatus;
  tools(options: { format: "openai" }): OpenAiTool[];
  tools(options: { format: "openai-responses" }): OpenAiResponsesTool[];
  tools(options: { format: "anthropic" }): AnthropicTool[];
  tools(options?: { format?: "mcp" }): Tool[];
  // With deferral on (`deferral().deferred`), `tools()` also holds the search tool (`search_tools`,
  // or OpenAI's `{type: "tool_search"}`), `call_tool` in the meta style, and `defer_loading: true`
  // on deferred definitions in the native style.
  /**
   * Server instructions as fenced `<system-reminder>` blocks naming their server (at most 2,048
   * characters each, with a marker when cut), each delivered once: `text` holds the
   * blocks of what changed since the last call (empty when nothing did), `joined` names the servers
   * whose instructions are new or changed, `left` those whose instructions are gone.
   */
  instructions(): { text: string; joined: string[]; left: string[] };
  tokenEstimates(format: ToolFormat): Record<string, number>;
  /** Whether `format`'s definitions are deferred now (see `toolSearch`). */
  deferral(options?: { format?: ToolFormat }): Deferral;
  /**
   * The exported tools that match `query`, best first (BM25 over names, titles, descriptions and
   * parameters; `snake_case`, `camelCase`, dotted and hyphenated names split into words).
   * `limit` 1..50, default 5.
   */
  searchTools(query: string, options?: { limit?: number; servers?: string[]; format?: ToolFormat }): ToolSearchHit[];
  /**
   * The answer to the model's search-tool call (its arguments `{query, limit?}`): with native
   * deferral, Anthropic `tool_reference` blocks (the `tool_result` content) or OpenAI's
   * `tool_search_output` item for `callId`; otherwise a tool result listing the tools.
   */
  searchAnswer(args: JsonObject, options: { format: "anthropic" }): ToolReference[] | FlatToolResult;
  searchAnswer(args: JsonObject, options: { format: "openai-responses"; callId: string }): ToolSearchOutput | FlatToolResult;
  searchAnswer(args: JsonObject, options?: { format?: ToolFormat; callId?: string }): FlatToolResult;
  /** Category, hints and advance approval of every exported tool, in the order of `tools()`. */
  toolInfo(): ToolInfo[];
  /** The prompts of every connected server that declares `prompts`, by server. */
  prompts(): { server: string; prompt: Prompt }[];
  /** The resources of every connected server that declares `resources`, by server. */
  resources(): { server: string; resource: Resource }[];
  /**
   * Resolves for every outcome of the call: failures come back as `isError` results. Rejects (with
   * INVALID_ARGUMENT) only when `args` or `options` are malformed, before anything is sent.
   */
  call(name: string, args?: JsonObject, options?: CallOptions): Promise<FlatToolResult>;
  reconnect(server: string): void;
  /** Approves a server only the project layer defines (`pending-approval`): it connects now. False when it needed none. */
  approveServer(server: string): boolean;
  /** Rejects such a server: it stays `disabled` with `NOT_APPROVED`. False when it needed no approval. */
  rejectServer(server: string): boolean;
  /** The tools held back because their definition changed since it was pinned. */
  heldTools(): HeldTool[];
  /** Every pin, to persist (IndexedDB, KV, Durable Object storage) and pass back as the `pins` option. */
  pins(): Pins;
  /** Accepts a held tool's new definition: re-pins it and exports it again. */
  acceptTool(name: string): void;
  close(): Promise<void>;
}
