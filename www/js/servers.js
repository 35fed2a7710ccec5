// Server connections: the page's list of servers, each with its McpClient and live status
// (state, era, server name/version, tool count, last error), and the card that shows it.

import { McpClient, browserStorage, openAuthorizationPopup } from "../pkg/mcp_edge.js";
import { h, replace } from "./dom.js";
import { shortMessage } from "./render.js";
import { askElicitation, askSampling, askRoots } from "./dialogs.js";

const MAX_EVENTS = 50;

/** Page state shared by the views; `changed(what)` tells subscribers. */
export const store = {
  servers: [],
  selected: null, // id of the server the tabs show
  roots: ["file:///tmp/mcp-playground"],
  shareRootsSilently: false, // set when the user ticks "without asking again" in the roots dialog
  traffic: null, // TrafficLog, set by app.js
  sandboxUrl: null, // the MCP Apps sandbox proxy on its own origin (servers.json), set by app.js
  listeners: new Set(),
  changed(what, server) {
    for (const fn of this.listeners) fn(what, server);
  },
};

let nextServerId = 1;

// OAuth for every server (a server that never answers 401 never uses it): the popup comes back to
// oauth-callback.html next to this page; tokens and pending sign-ins stay in this tab
// (sessionStorage), the DPoP key in IndexedDB.
let authStorage = null; // made on first use: the wasm module is initialised by then
const authOptions = () => ({
  redirectUri: new URL("oauth-callback.html", location.href).href,
  storage: (authStorage ??= browserStorage({ tokens: "session", pending: "session" })),
});

/** A server name usable in `mcp__<server>__<tool>`, unique on this page. */
function uniqueName(wanted, url) {
  let base = (wanted || "").trim();
  if (!base) {
    try {
      const u = new URL(url);
      base = `${u.hostname}_${u.port || (u.protocol === "https:" ? 443 : 80)}`;
    } catch {
      base = "server";
    }
  }
  base = base.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 32) || "server";
  let name = base;
  for (let i = 2; store.servers.some((s) => s.name === name); i++) name = `${base}-${i}`;
  return name;
}

/** Adds a server (not yet connected). A server from a project's configuration (`project: true`)
 * waits for the person to approve it: a project checked into a repository must not start servers
 * nobody asked for. */
export function addServer({ name, url, protocol = "auto", headers = {}, project = false }) {
  const server = {
    id: nextServerId++,
    name: uniqueName(name, url),
    url,
    protocol,
    headers,
    state: project ? "pending-approval" : "idle",
    project,
    client: null,
    generation: 0,
    tools: [],
    lastError: null,
    events: [],
  };
  store.servers.push(server);
  if (store.selected === null) store.selected = server.id;
  store.changed("servers", server);
  return server;
}

export const selectedServer = () => store.servers.find((s) => s.id === store.selected) ?? null;

export function logEvent(server, text) {
  server.events.push({ t: new Date().toLocaleTimeString(), text });
  if (server.events.length > MAX_EVENTS) server.events.shift();
}

function setState(server, state, error = undefined) {
  server.state = state;
  if (error !== undefined) server.lastError = error;
  store.changed("status", server);
}

/** Connects (or reconnects) `server`, then lists its tools and follows its notifications. */
export async function connectServer(server) {
  const generation = ++server.generation;
  const current = () => server.generation === generation;
  if (server.client) closeQuietly(server);
  server.tools = [];
  setState(server, "connecting", null);
  try {
    const client = await McpClient.connect(server.url, {
      headers: server.headers,
      protocol: server.protocol,
      clientInfo: { name: "mcp-edge-playground", version: "0.1.0" },
      // The library declares `elicitation.form` for a handler; this page also answers URL mode.
      capabilities: { elicitation: { form: {}, url: {} } },
      // MCP Apps: tools with a ui:// view render it beside their result (tools-view.js).
      extensions: { "io.modelcontextprotocol/ui": true },
      onTraffic: (record) => store.traffic?.add(server.name, record, server.headers),
      auth: authOptions(),
      onElicitation: (params, extra) => askElicitation(server.name, params, extra?.defaults),
      onSampling: (params) => askSampling(server.name, params),
      onRoots: async () => {
        if (store.shareRootsSilently) {
          logEvent(server, `roots/list answered with ${store.roots.length} root(s)`);
          store.changed("events", server);
          return { roots: store.roots.map((uri) => ({ uri })) };
        }
        const answer = await askRoots(server.name, store.roots);
        store.roots = answer.roots.map((r) => r.uri);
        store.shareRootsSilently = answer.remember;
        return { roots: answer.roots };
      },
    });
    if (!current()) {
      client.close().catch(() => {});
      return;
    }
    server.client = client;
    setState(server, "listing");
    followNotifications(server, client, current);
    await refreshTools(server);
    if (current()) setState(server, "connected");
  } catch (err) {
    if (!current()) return;
    // 401 and no sign-in yet: keep the prepared authorization URL for the "Sign in" click.
    server.signInUrl = err?.code === "AUTH_INTERACTION_REQUIRED" ? err.url : null;
    setState(server, server.signInUrl ? "needs-auth" : "error", err);
  }
}

/** "Sign in": opens the prepared URL in a popup now (inside the click, before any await, or the
 * browser blocks it), finishes the sign-in from the callback, then connects. */
export function signIn(server) {
  const url = server.signInUrl;
  const popup = openAuthorizationPopup(url);
  setState(server, "signing-in", null);
  popup
    .then((callback) => McpClient.completeAuthorization(server.url, callback, {
      auth: authOptions(),
      onTraffic: (record) => store.traffic?.add(server.name, record, server.headers),
    }))
    .then(() => {
      logEvent(server, "signed in");
      server.signInUrl = null;
      return connectServer(server);
    })
    .catch((err) => setState(server, "needs-auth", err));
}

/** "Sign out": forgets the tokens (also the stored ones) and disconnects. */
export function signOut(server) {
  server.client?.signOut();
  logEvent(server, "signed out");
  disconnectServer(server);
}

/** Re-reads the tool list (after connect and on `notifications/tools/list_changed`). */
export async function refreshTools(server) {
  const client = server.client;
  if (!client) return;
  try {
    const tools = await client.listTools();
    if (server.client !== client) return;
    server.tools = tools;
    store.changed("tools", server);
  } catch (err) {
    if (server.client === client) setState(server, "error", err);
  }
}

async function followNotifications(server, client, current) {
  try {
    for await (const n of client.notifications()) {
      if (!current()) return;
      switch (n.type) {
        case "notification":
          logEvent(server, `${n.method}${n.params && Object.keys(n.params).length ? ` ${JSON.stringify(n.params).slice(0, 200)}` : ""}`);
          if (n.method === "notifications/tools/list_changed") refreshTools(server);
          else if (n.method?.endsWith("/list_changed")) store.changed("lists", server);
          break;
        case "toolRejected":
          logEvent(server, `tool "${n.name}" dropped: ${n.reason}`);
          break;
        case "diagnostic":
          logEvent(server, n.message);
          break;
        case "signedIn":
          logEvent(server, `signed in at ${n.issuer}${n.scope ? ` (${n.scope})` : ""}`);
          store.changed("status", server);
          break;
        case "closed":
          logEvent(server, "connection closed");
          if (server.client === client) {
            server.client = null;
            setState(server, "closed");
          }
          return;
        default:
          break;
      }
      store.changed("events", server);
    }
  } catch (err) {
    if (current()) logEvent(server, `notifications stopped: ${err?.message ?? err}`);
  }
}

function closeQuietly(server) {
  const client = server.client;
  server.client = null;
  // Its app views first (ui/resource-teardown needs the view, not the server), then the client.
  const apps = [...(server.apps ?? [])];
  server.apps?.clear();
  Promise.all(apps.map((app) => app.teardown("the server disconnected").catch(() => app.close())))
    .finally(() => client?.close().catch(() => {}));
}

export function disconnectServer(server) {
  server.generation++;
  closeQuietly(server);
  server.tools = [];
  setState(server, "idle");
}

export function removeServer(server) {
  disconnectServer(server);
  store.servers = store.servers.filter((s) => s !== server);
  if (store.selected === server.id) store.selected = store.servers[0]?.id ?? null;
  store.changed("servers", server);
}

// ---- the server card ---------------------------------------------------------------------------

/** The person approves a project's server: it connects now. */
export function approveServer(server) {
  logEvent(server, "approved");
  connectServer(server);
}

/** The person rejects a project's server: it stays off until approved. */
export function rejectServer(server) {
  logEvent(server, "rejected");
  setState(server, "rejected");
}

const STATE_LABEL = { "pending-approval": "waiting for approval", rejected: "rejected", idle: "not connected", connecting: "connecting…", listing: "listing tools…", connected: "connected", error: "error", closed: "closed", "needs-auth": "sign-in required", "signing-in": "signing in…" };

/** Who is signed in (issuer, scopes, expiry, token type), or nothing. */
function signedInRows(auth) {
  if (!auth) return null;
  const expiry = auth.expiresAt ? new Date(auth.expiresAt).toLocaleTimeString() : "no expiry";
  return h("div.signed-in", {},
    h("dt", {}, "signed in"),
    h("dd.auth-info", {},
      h("span.auth-issuer", {}, auth.issuer), " · ",
      h("span.auth-scope", {}, auth.scope ?? "(no scope)"), " · ",
      h("span.auth-type", {}, auth.tokenType), " · ",
      h("span.auth-expiry", {}, `expires ${expiry}`)));
}

export function serverCard(server) {
  const selected = store.selected === server.id;
  const client = server.client;
  const info = client?.serverInfo;
  const connected = server.state === "connected" || server.state === "listing";
  return h(
    "li.server-card",
    { dataset: { server: server.name, state: server.state }, "aria-current": selected ? "true" : null },
    h("div.card-head", {},
      h("button.select", { type: "button", "aria-pressed": selected ? "true" : "false", onclick: () => { store.selected = server.id; store.changed("selected", server); } },
        h("strong", {}, server.name)),
      h(`span.state.${server.state}`, { role: "status", "aria-label": `${server.name} state` }, STATE_LABEL[server.state] ?? server.state)),
    h("div.url", {}, h("code", {}, server.url), server.protocol !== "auto" ? h("span.hint", {}, ` (${server.protocol})`) : null),
    connected && client
      ? h("dl.status", {},
          h("div", {}, h("dt", {}, "era"), h("dd.era", {}, `${client.era === "modern" ? "2026 stateless" : "2025 session"} · ${client.protocolVersion}`)),
          h("div", {}, h("dt", {}, "server"), h("dd.server-info", {}, info ? `${info.title ?? info.name} ${info.version ?? ""}` : "(unnamed)")),
          h("div", {}, h("dt", {}, "tools"), h("dd.tool-count", {}, String(server.tools.length))),
          client.sessionId ? h("div", {}, h("dt", {}, "session"), h("dd", {}, h("code", {}, client.sessionId.slice(0, 12)), "…")) : null,
          signedInRows(client.auth))
      : null,
    server.lastError
      ? h("p.last-error", { dataset: { code: server.lastError.code ?? "ERROR" } }, h("span.hint", {}, "last error "), h("span.badge.bad", {}, server.lastError.code ?? "ERROR"), " ", shortMessage(server.lastError))
      : null,
    server.events.length
      ? h("details.events", { open: server.eventsOpen === true, ontoggle: (e) => { server.eventsOpen = e.target.open; } }, h("summary", {}, `events (${server.events.length})`), h("ol", {}, server.events.slice(-20).map((e) => h("li", {}, h("span.hint", {}, e.t), " ", e.text))))
      : null,
    server.signInUrl
      ? h("p.sign-in-link.hint", {}, "If no window opens: ", h("a", { href: server.signInUrl, target: "_blank", rel: "opener" }, "open the sign-in page"))
      : null,
    server.state === "pending-approval"
      ? h("p.approval.hint", {}, "From the project's configuration, not added by you: connect it?")
      : null,
    h("div.buttons", {},
      server.state === "pending-approval" || server.state === "rejected"
        ? h("button.small.primary", { type: "button", onclick: () => approveServer(server), "aria-label": `Approve ${server.name}` }, "Approve")
        : null,
      server.state === "pending-approval"
        ? h("button.small", { type: "button", onclick: () => rejectServer(server), "aria-label": `Reject ${server.name}` }, "Reject")
        : null,
      server.state === "needs-auth"
        ? h("button.small.primary", { type: "button", onclick: () => signIn(server), "aria-label": `Sign in to ${server.name}` }, "Sign in")
        : null,
      connected && client?.auth
        ? h("button.small", { type: "button", onclick: () => signOut(server), "aria-label": `Sign out of ${server.name}` }, "Sign out")
        : null,
      server.state === "pending-approval" || server.state === "rejected"
        ? null
        : server.state === "idle" || server.state === "error" || server.state === "closed" || server.state === "needs-auth"
          ? h("button.small.primary", { type: "button", onclick: () => connectServer(server), "aria-label": `Connect ${server.name}` }, "Connect")
          : h("button.small", { type: "button", onclick: () => disconnectServer(server), "aria-label": `Disconnect ${server.name}` }, "Disconnect"),
      h("button.small", { type: "button", onclick: () => removeServer(server), "aria-label": `Remove ${server.name}` }, "Remove")),
  );
}

/** Re-renders the list, keeping keyboard focus on the same control. */
export function renderServerList(ul) {
  const focused = ul.contains(document.activeElement) ? document.activeElement.getAttribute("aria-label") ?? document.activeElement.textContent : null;
  replace(ul, store.servers.length ? store.servers.map(serverCard) : h("li.hint", {}, "No servers yet: add one below."));
  if (focused) {
    const again = [...ul.querySelectorAll("button")].find((b) => (b.getAttribute("aria-label") ?? b.textContent) === focused);
    again?.focus();
  }
}
