/** A JSON value as MCP carries it. */
export type Json = null | boolean | number | string | Json[] | JsonObject;
/** A JSON object (a member that is absent reads as `undefined`; objects with optional members fit). */
export type JsonObject = { [key: string]: Json | undefined };

/**
 * Stable error codes of {@link McpError}, and of `lastError` / `error` in {@link McpPool} status and
 * events. The first group comes from the protocol (any request); the second from the pool
 * (configuration, policy, naming, pinning, breakers).
 */
export type McpErrorCode =
  | "RPC" | "HTTP_STATUS" | "UNAUTHORIZED" | "TIMEOUT" | "ABORTED" | "NETWORK" | "CORS"
  | "STREAM_DROPPED" | "LEGACY_TRANSPORT" | "UNSUPPORTED_VERSION" | "NOT_CONNECTED" | "CLOSED"
  | "TOOL_REJECTED" | "OUTPUT_SCHEMA" | "CONFIG" | "INVALID_ARGUMENT" | "EVENT_TOO_LARGE"
  | "BODY_TOO_LARGE" | "PROTOCOL" | "INVALID_META"
  | "TASK_FAILED" | "TASK_CANCELLED" | "TASK_EXPIRED" | "TASK_TIMEOUT"
  | "CONFIG_FIELD" | "UNDEFINED_VARIABLE" | "CONFIG_TRANSPORT" | "DUPLICATE_SERVER" | "DENIED"
  | "NOT_ALLOWED" | "STDIO_UNSUPPORTED" | "UNKNOWN_SERVER" | "UNKNOWN_TOOL"
  | "INVALID_TOOL" | "TOOL_CHANGED" | "CIRCUIT_OPEN" | "INVALID_OPTION" | "SERVER_UNAVAILABLE" | "NOT_APPROVED"
  | "NOT_AN_APP" | "INVALID_APP_RESOURCE" | "INVALID_STATE"
  | AuthErrorCode;

/** Codes of authorization failures and refusals (see docs/authorization.md). */
export type AuthErrorCode =
  | "AUTH_DISCOVERY" | "AUTH_RESOURCE_MISMATCH" | "AUTH_METADATA_ISSUER_MISMATCH"
  | "AUTH_METADATA_NOT_FOUND" | "AUTH_PKCE_UNSUPPORTED" | "AUTH_NO_CLIENT_IDENTITY"
  | "AUTH_REGISTRATION" | "AUTH_STATE_MISMATCH" | "AUTH_ISS_MISSING" | "AUTH_ISS_MISMATCH"
  | "AUTH_DENIED" | "AUTH_TOKEN" | "AUTH_TOKEN_RESPONSE" | "AUTH_STEP_UP_EXHAUSTED"
  | "AUTH_FORBIDDEN" | "AUTH_INTERACTION_REQUIRED" | "AUTH_HEADLESS_UNAVAILABLE"
  | "AUTH_NETWORK" | "AUTH_CORS" | "AUTH_SIGNING" | "AUTH_STORAGE" | "AUTH_CONFIG"
  | "AUTH_NOT_AUTHORIZED" | "AUTH_POPUP_BLOCKED";

/** Every rejection of this package is an `McpError` (an `Error` subclass). */
export interface McpError extends Error {
  name: "McpError";
  code: McpErrorCode;
  /** JSON-RPC error code, when the server answered with a JSON-RPC error. */
  rpcCode?: number;
  /** JSON-RPC error message, as the server wrote it. */
  rpcMessage?: string;
  /** JSON-RPC error data. */
  data?: Json;
  /** HTTP status, for HTTP_STATUS, UNAUTHORIZED, AUTH_TOKEN and AUTH_REGISTRATION. */
  status?: number;
  body?: string;
  /** For HTTP_STATUS: whether `body` (at most 4 KiB) was cut, and then how many bytes the server sent. */
  truncated?: boolean;
  bodyLength?: number | null;
  wwwAuthenticate?: string;
  /**
   * For HTTP_STATUS after a 429 or 503: the delay the server's `Retry-After` asked for. The
   * request was retried after each such delay (at most 3 times) unless the delay would have
   * passed its deadline. (A browser can read `Retry-After` cross-origin only if the server lists
   * it in `Access-Control-Expose-Headers`.)
   */
  retryAfterMs?: number;
  /**
   * For STREAM_DROPPED: the server accepted a request that executes something (a tool call)
   * before its response stream broke, so it may have run. Such a request is sent again only when
   * it is known to be safe: the tool is annotated `idempotentHint` or `readOnlyHint`, or the call
   * passed `idempotent: true`.
   */
  mayHaveRun?: boolean;
  /** For STREAM_DROPPED: how often the request was re-issued or resumed. */
  attempts?: number;
  /** For EVENT_TOO_LARGE and BODY_TOO_LARGE: the limit in bytes. */
  limit?: number;
  /** For TIMEOUT: the limit that fired and whether it was the total limit. */
  afterMs?: number;
  total?: boolean;
  /** For CORS and AUTH_CORS: which headers the server must allow / expose, and how to fix it. */
  diagnosis?: string;
  /** For UNSUPPORTED_VERSION: the versions the server supports and the one the client asked for. */
  supported?: string[];
  requested?: string;
  /** For LEGACY_TRANSPORT: the old HTTP+SSE endpoint; for AUTH_NETWORK and AUTH_CORS: the URL that failed. */
  endpoint?: string;
  /** For OUTPUT_SCHEMA: the tool and what did not conform. */
  tool?: string;
  errors?: string[];
  /** For AUTH_*: whether the client refused on purpose (a security check failed). */
  refused?: boolean;
  /** For AUTH_INTERACTION_REQUIRED and AUTH_POPUP_BLOCKED: the authorization URL a person must
   * open (offer it as a link, or open it from a click). */
  url?: string;
  /** For AUTH_TOKEN / AUTH_REGISTRATION / AUTH_DENIED: the OAuth `error` code. */
  error?: string;
}

/** Async key/value storage for OAuth records (tokens, client registrations, pending sign-ins).
 * Values hold secrets. Default: memory. */
export interface AuthStorage {
  get(key: string): string | null | undefined | Promise<string | null | undefined>;
  put(key: string, value: string): void | Promise<void>;
  delete(key: string): void | Promise<void>;
  /** Keeps the DPoP key: returns the stored pair, or stores and returns `generate()`'s (a
   * non-extractable WebCrypto P-256 pair). Without it the key lives as long as the client, and
   * stored DPoP-bound tokens are useless to a reloaded page or another tab. */
  dpopKey?(generate: () => Promise<DpopKeyPair>): Promise<DpopKeyPair>;
}

/** A WebCrypto `CryptoKeyPair` (ECDSA P-256; the private key non-extractable). */
export interface DpopKeyPair { privateKey: object; publicKey: object }

/** Where {@link browserStorage} keeps records: `sessionStorage` (this tab, until it closes),
 * `localStorage` (every tab of the origin, until cleared), IndexedDB (the same, asynchronous), or
 * memory (this page until it unloads). */
export type BrowserStorageArea = "session" | "local" | "indexeddb" | "memory";

export interface BrowserStorageOptions {
  /** Tokens and client registrations (default `"session"`). */
  tokens?: BrowserStorageArea;
  /** Pending sign-ins (verifier, state, ...) while the person is away (default `"session"`). */
  pending?: BrowserStorageArea;
  /** The IndexedDB database (default `"mcp-edge-auth"`): the `"indexeddb"` area and DPoP keys. */
  databaseName?: string;
}

/**
 * A ready {@link AuthStorage} for pages: pending sign-ins and tokens each in the area chosen, and
 * (when tokens outlive the page) the DPoP key in IndexedDB, created once per origin under a Web
 * Lock. Every area holds secrets readable by any script of the origin.
 */
export function browserStorage(options?: BrowserStorageOptions): AuthStorage;

export interface AuthorizationPopupOptions {
  /** Rejects with `TIMEOUT` when no callback arrives in time (default 600000). */
  timeoutMs?: number;
  /** Rejects with `ABORTED` and closes the popup. */
  signal?: AbortSignal;
  /** `window.open` target name and features (default a 520x720 popup). */
  name?: string;
  features?: string;
}

/**
 * Opens the authorization URL in a popup at once — call it in the click handler, before any
 * `await`, or the browser blocks it (`AUTH_POPUP_BLOCKED`, with `url`) — and resolves with the
 * callback URL the redirect URI page (`www/oauth-callback.html`) sends back over a
 * `BroadcastChannel` (or `postMessage` to the opener). Pass it to `completeAuthorization`, or
 * use the function as `onAuthorizationUrl` where the sign-in starts from a click.
 */
export function openAuthorizationPopup(url: string, options?: AuthorizationPopupOptions): Promise<string>;

/** OAuth 2.1 authorization for a server (MCP `basic/authorization`). A 401/403 runs the flow and
 * the refused request is replayed. */
export interface AuthOptions {
  /** Default `"authorization_code"` (PKCE). `"client_credentials"`, `"jwt_bearer"` (workload
   * identity) and `"token_exchange"` (enterprise-managed) need no person. */
  grant?: "authorization_code" | "client_credentials" | "jwt_bearer" | "token_exchange";
  /** Where the authorization server sends the person back (authorization_code). */
  redirectUri?: string;
  /** Request the authorization URL without a browser and read the redirect (Node, workerd,
   * pre-approved clients); impossible in a browser page (`AUTH_HEADLESS_UNAVAILABLE`). */
  headless?: boolean;
  /** The person's step: show `url`, resolve with the callback URL the browser came back to.
   * Without it (and not headless) a sign-in fails with `AUTH_INTERACTION_REQUIRED` + `url`. */
  onAuthorizationUrl?: (url: string) => string | Promise<string>;
  /** A pre-registered client id (tried first), its secret, and the issuer it belongs to (absent:
   * the first authorization server the MCP server names). */
  clientId?: string;
  clientSecret?: string;
  clientIssuer?: string;
  /** PKCS#8 PEM of a P-256 key: client authentication with `private_key_jwt` (ES256). */
  privateKeyPem?: string;
  tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "private_key_jwt" | "none";
  /** A Client ID Metadata Document URL, used as client id where the server supports it. */
  clientMetadataUrl?: string;
  /** Dynamic registration: `client_name` and `application_type` (default from the redirect URI). */
  clientName?: string;
  applicationType?: "native" | "web";
  /** Scope when neither the server's challenge nor its metadata names one. */
  scope?: string;
  /** Ask for refresh tokens (default true for authorization_code). */
  offlineAccess?: boolean;
  /** Use DPoP-bound tokens when the authorization server offers ES256 (default true). */
  dpop?: boolean;
  /** jwt_bearer: the workload identity assertion. */
  assertion?: string;
  /** token_exchange: the enterprise IdP's token endpoint, client and the user's ID token. */
  tokenExchange?: { tokenEndpoint: string; clientId: string; clientSecret?: string; idToken: string };
  storage?: AuthStorage;
  /** A fetch for OAuth traffic only (an app proxy or an edge relay for servers without CORS). */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
}

/** Who is signed in. */
export interface AuthStatus { issuer: string; scope: string | null; expiresAt: number | null; tokenType: "Bearer" | "DPoP" }

/** Whether a value is an {@link McpError}. */
export function isMcpError(value: unknown): value is McpError;

export type ProtocolChoice = "auto" | "2026-07-28" | "2025-11-25" | "2025-06-18" | "2025-03-26";

export interface Implementation { name: string; version: string; title?: string; [key: string]: Json | undefined }

/** `elicitation/create` params (form or URL mode). */
export interface ElicitRequestParams { mode?: "form" | "url"; message: string; requestedSchema?: JsonObject; url?: string; elicitationId?: string; [key: string]: Json | undefined }
export interface ElicitResult { action: "accept" | "decline" | "cancel"; content?: JsonObject }
export interface CreateMessageParams { messages: JsonObject[]; maxTokens: number; [key: string]: Json | undefined }
export interface CreateMessageResult { role: "assistant"; content: JsonObject; model: string; stopReason?: string; [key: string]: Json | undefined }
export interface ListRootsResult { roots: { uri: string; name?: string }[] }

/** One traffic record, for inspectors. */
export type TrafficRecord =
  | { type: "request"; exchange: number; method: "GET" | "POST" | "DELETE"; url: string; headers: [string, string][]; body: string | null }
  | { type: "head"; exchange: number; status: number; headers: [string, string][] }
  | { type: "body"; exchange: number; text: string }
  | { type: "end"; exchange: number; error: string | null };

export interface ConnectOptions {
  /** Extra headers on every request (e.g. `Authorization`). */
  headers?: Record<string, string>;
  /** `"auto"` (default): 2026-07-28 first, falling back to the 2025 era. */
  protocol?: ProtocolChoice;
  /** Per-request inactivity timeout, reset by progress (default 60000). */
  timeoutMs?: number;
  /** Hard limit per request, progress or not. Must be >= timeoutMs. */
  maxTotalTimeoutMs?: number;
  /** A fetch to use instead of `globalThis.fetch` (service bindings, proxies, tests). */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  clientInfo?: Implementation;
  capabilities?: JsonObject;
  /** 2025 era: open the optional GET stream (default true). */
  openGetStream?: boolean;
  /**
   * Largest event of a response's event stream, in bytes of data (default 8388608, 8 MiB). A
   * larger event fails its request at once with `EVENT_TOO_LARGE` (never re-issued) and the
   * response is no longer read.
   */
  maxEventBytes?: number;
  /** Largest JSON response body, in bytes (default 16777216, 16 MiB); beyond it `BODY_TOO_LARGE`. */
  maxBodyBytes?: number;
  /** Answers elicitation (2025 server requests and 2026 MRTR rounds). `extra.defaults` pre-populates the form; defaults of fields left out are applied to an accepted result. */
  onElicitation?: (params: ElicitRequestParams, extra: { defaults: JsonObject }) => ElicitResult | Promise<ElicitResult>;
  onSampling?: (params: CreateMessageParams) => CreateMessageResult | Promise<CreateMessageResult>;
  onRoots?: (params: JsonObject) => ListRootsResult | Promise<ListRootsResult>;
  /** Sees every request, response head, body chunk (raw SSE frames) and end. Credentials are
   * redacted (`Authorization`, `DPoP`, cookies, `code`/`state` in URLs, OAuth bodies). */
  onTraffic?: (record: TrafficRecord) => void;
  /** OAuth for this server. */
  auth?: AuthOptions;
  /**
   * Extensions to declare (MCP 2026-07-28 "Extension Negotiation"), identifier to settings
   * object; `true` declares the settings mcp-edge knows (MCP Apps,
   * `"io.modelcontextprotocol/ui": true`, declares `{"mimeTypes": ["text/html;profile=mcp-app"]}`);
   * `false` turns a default one off. Sent in every request's `_meta` (2026-07-28) or in
   * `initialize` (2025 era).
   */
  extensions?: Record<string, JsonObject | boolean>;
  /** Declare the Tasks extension (default true): calls a server turns into tasks are polled to their result. */
  tasks?: boolean;
  /** How long a call that became a task waits for it (default 86400000, 24 h); then `TASK_TIMEOUT`, the task left running. */
  maxTaskWaitMs?: number;
}

/** A task a call became (2026-07-28 Tasks extension, or 2025-11-25 tasks), as last reported. */
export interface TaskInfo {
  taskId: string;
  shape: "extension" | "2025-11-25";
  status: "working" | "input_required" | "completed" | "failed" | "cancelled";
  statusMessage: string | null;
  pollIntervalMs: number | null;
  ttlMs: number | null;
  createdAt: string | null;
  lastUpdatedAt: string | null;
}

/** Opaque durable state of a client (plain JSON: store it anywhere). */
/** `savedAt` (`Date.now()` when taken) lets `restore` charge the time spent in storage to cached lists. */
export interface ClientSnapshot { version: number; endpoint: string; era: "modern" | "legacy" | null; protocolVersion: string; savedAt?: number; [key: string]: Json | undefined }

/** A progress notification, or (with `task`) a task's status report: `progress` then counts the reports and `message` is the status message. */
export interface Progress { progress: number; total: number | null; message: string | null; task?: TaskInfo }

export interface CallOptions {
  signal?: AbortSignal;
  /** Progress of the request; after a re-issue (see `idempotent`) the new attempt's progress starts again. */
  onProgress?: (progress: Progress) => void;
  timeoutMs?: number;
  /**
   * The call is safe to run twice: if its response stream breaks and cannot be resumed (every
   * 2026-07-28 stream; a 2025 stream without event ids), it is sent once more. Without it a tool
   * call is re-sent only when the tool is annotated `idempotentHint` or `readOnlyHint`; otherwise
   * it fails with `STREAM_DROPPED` and `mayHaveRun: true`.
   */
  idempotent?: boolean;
  /** W3C trace context for the request's `_meta` (validated: a malformed value fails with `INVALID_META`, nothing sent). */
  traceparent?: string;
  tracestate?: string;
  baggage?: string;
  /** Minimum log level the server should emit for this request (`io.modelcontextprotocol/logLevel`). */
  logLevel?: "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";
  /** 2025 era: `"prefer"` calls a tool whose `execution.taskSupport` is `"optional"` as a task ("required" ones always are). */
  task?: "auto" | "prefer";
}

/** Hints from the server (untrusted); servers may send more keys than these. */
export interface ToolAnnotations { title?: string; readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean; [key: string]: Json | undefined }
export interface Tool { name: string; title?: string; description?: string; inputSchema: JsonObject; outputSchema?: JsonObject; annotations?: ToolAnnotations; [key: string]: Json | undefined }
/** A content block as the server sent it (MCP `ContentBlock`; `annotations`, `_meta` and newer fields pass through). */
export type ContentBlock =
  | { type: "text"; text: string; annotations?: JsonObject; _meta?: JsonObject; [key: string]: Json | undefined }
  | { type: "image"; data: string; mimeType: string; annotations?: JsonObject; _meta?: JsonObject; [key: string]: Json | undefined }
  | { type: "audio"; data: string; mimeType: string; annotations?: JsonObject; _meta?: JsonObject; [key: string]: Json | undefined }
  | { type: "resource_link"; uri: string; name: string; title?: string; description?: string; mimeType?: string; size?: number; annotations?: JsonObject; _meta?: JsonObject; [key: string]: Json | undefined }
  | { type: "resource"; resource: JsonObject; annotations?: JsonObject; _meta?: JsonObject; [key: string]: Json | undefined };
export interface CallToolResult { content: ContentBlock[]; structuredContent?: JsonObject; isError?: boolean; [key: string]: Json | undefined }
export interface Resource { uri: string; name: string; mimeType?: string; [key: string]: Json | undefined }
export interface ResourceTemplate { uriTemplate: string; name: string; [key: string]: Json | undefined }
export interface Prompt { name: string; description?: string; arguments?: { name: string; required?: boolean; description?: string }[]; [key: string]: Json | undefined }

export type Notification =
  | { type: "notification"; method: string; params: JsonObject }
  | { type: "progress"; operation: number; progress: number; total: number | null; message: string | null }
  | { type: "diagnostic"; message: string }
  | { type: "toolRejected"; name: string; reason: string }
  | { type: "connected"; server: JsonObject }
  | { type: "inputCancelled"; input: number }
  | { type: "signedIn"; issuer: string; scope: string | null; expiresAt: number | null; tokenType: "Bearer" | "DPoP" }
  | { type: "closed" }
  /** `dropped` items were lost here: the queue (1024 items) was full while a request's own stream delivered more. */
  | { type: "gap"; dropped: number };

export class McpClient {
  private constructor();
  free(): void;
  static connect(url: string, options?: ConnectOptions): Promise<McpClient>;
  /** Signs in to `url` (with `options.auth`) without connecting; tokens go to the auth storage. */
  static signIn(url: string, options: ConnectOptions & { auth: AuthOptions }): Promise<AuthStatus>;
  /** Finishes a sign-in from the callback URL, also in a process that did not start it (the
   * pending request is read from `options.auth.storage` by its `state`). */
  static completeAuthorization(url: string, callbackUrl: string, options: ConnectOptions & { auth: AuthOptions }): Promise<AuthStatus>;
  /** Rebuilds a connected client from {@link McpClient.snapshot} output, without a request. */
  static restore(url: string, snapshot: ClientSnapshot, options?: ConnectOptions): McpClient;
  /** Durable state (era, version, server info, session id, Last-Event-ID, cached lists). */
  snapshot(): ClientSnapshot;
  readonly serverInfo: Implementation | null;
  /** Who is signed in with OAuth, or null. */
  readonly auth: AuthStatus | null;
  /** Forgets this server's OAuth tokens (the stored ones too). */
  signOut(): void;
  readonly protocolVersion: string;
  readonly era: "modern" | "legacy";
  readonly instructions: string | undefined;
  readonly capabilities: JsonObject | null;
  /** The extensions in play: what this client declares and what the server announced (identifier to settings). */
  readonly extensions: { client: Record<string, JsonObject>; server: Record<string, JsonObject> };
  readonly sessionId: string | undefined;
  listTools(options?: { timeoutMs?: number }): Promise<Tool[]>;
  getTool(name: string): Tool | undefined;
  callTool(name: string, args?: JsonObject, options?: CallOptions): Promise<CallToolResult>;
  /** 2025-11-25: every task the server keeps for this client (`tasks/list`, all pages); a 2026-07-28 session has none (`CONFIG`). */
  listTasks(): Promise<JsonObject[]>;
  /** The calls that became tasks and are being polled now. */
  tasks(): TaskInfo[];
  /** Polls a task (from `tasks()`, a snapshot's `tasks`, a progress report) to its end without calling the tool again. */
  resumeTask(task: TaskInfo, options?: CallOptions): Promise<CallToolResult>;
  listResources(): Promise<Resource[]>;
  listResourceTemplates(): Promise<ResourceTemplate[]>;
  readResource(uri: string, options?: CallOptions): Promise<{ contents: JsonObject[] }>;
  listPrompts(): Promise<Prompt[]>;
  getPrompt(name: string, args?: Record<string, string>, options?: CallOptions): Promise<{ messages: JsonObject[]; description?: string }>;
  complete(ref: { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string }, argument: { name: string; value: string }, context?: { arguments?: Record<string, string> }): Promise<{ completion: { values: string[]; total?: number; hasMore?: boolean } }>;
  request(method: string, params?: JsonObject, options?: CallOptions): Promise<JsonObject>;
  subscribe(filter: { toolsListChanged?: boolean; promptsListChanged?: boolean; resourcesListChanged?: boolean; resourceSubscriptions?: string[] }, options?: { signal?: AbortSignal }): Promise<JsonObject | null>;
  /**
   * Notifications as an async iterator. While it is open (until `return()` or a `break` out of
   * `for await`), the 2025 GET stream and `subscribe()` streams stop being read when its queue is
   * full, so nothing from them is lost; items lost from a request's own stream (which is never
   * paused) are reported by a `gap` item.
   */
  notifications(): AsyncIterableIterator<Notification>;
  /** How many notifications were lost because the queue was full (see the `gap` item). */
  readonly droppedNotifications: number;
  close(): Promise<void>;
}
