// The app of the browser sign-in tests, written as a page would use mcp-edge: connect; on
// AUTH_INTERACTION_REQUIRED keep the prepared authorization URL; the "Sign in" click opens it in a
// popup synchronously (openAuthorizationPopup), completeAuthorization finishes with the callback,
// then connect again. Redirect mode leaves the page and finishes after the reload. Tokens and
// registrations in IndexedDB (shared by tabs), pending sign-ins in sessionStorage, the DPoP key in
// IndexedDB (browserStorage). The tests drive it through `window.app`.
import init, * as mcp from "/pkg/mcp_edge.js";

await init();
const popupRedirect = `${location.origin}/oauth-callback.html`;
const pageRedirect = `${location.origin}/test/app.html`;
// Tokens in IndexedDB: transactional across tabs (localStorage writes reach other tabs'
// processes asynchronously in Chromium, so a re-read under the refresh lock could miss them).
const storage = mcp.browserStorage({ tokens: "indexeddb", pending: "session" });
const clients = new Map();

/** `auth` options; `relay`: send OAuth traffic through that loopback relay (`?url=`). */
function auth({ redirect = false, relay } = {}) {
  const a = { redirectUri: redirect ? pageRedirect : popupRedirect, storage };
  if (relay) a.fetch = (url, init) => fetch(`${relay}?url=${encodeURIComponent(url)}`, init);
  return a;
}

/** An error as plain data for the test. */
const plain = (e) => ({ code: e?.code ?? null, message: String(e?.message ?? e), url: e?.url, endpoint: e?.endpoint, diagnosis: e?.diagnosis });

/** Connects (the stored tokens are used), lists the tools and calls `whoami`. */
async function connectAndUse(server, opts) {
  clients.get(server)?.close().catch(() => {});
  const client = await mcp.McpClient.connect(server, { auth: auth(opts), onTraffic: note });
  clients.set(server, client);
  const tools = (await client.listTools()).map((t) => t.name);
  return { tools, whoami: await call(server), status: client.auth };
}

/** Calls `whoami` on the connected client of `server`. */
async function call(server) {
  const r = await clients.get(server).callTool("whoami", {});
  return JSON.parse(r.content.map((c) => c.text).join(""));
}

/** What went over the wire, without bodies or headers: method, path, status, time. */
const traffic = [];
const started = new Map();
function note(r) {
  if (r.type === "request") started.set(r.exchange, `${r.method} ${new URL(r.url).pathname}`);
  else if (r.type === "head" && traffic.length < 1000) {
    const why = r.status === 401 ? ` ${r.headers.find(([k]) => k === "www-authenticate")?.[1] ?? ""}` : "";
    traffic.push(`${(performance.now() / 1000).toFixed(2)} ${started.get(r.exchange)} ${r.status}${why}`);
  }
}

const settle = (p) => p.then((ok) => ({ ok }), (e) => ({ error: plain(e) }));

window.app = {
  mcp,
  storage,
  /** Connects; without tokens the library answers AUTH_INTERACTION_REQUIRED with the URL, which
   * the next "Sign in" click opens. */
  async prepare(server, opts = {}) {
    const r = await settle(connectAndUse(server, opts));
    if (r.error?.code === "AUTH_INTERACTION_REQUIRED") {
      this.pending = { server, url: r.error.url, opts };
      sessionStorage.setItem("app:prepared", JSON.stringify({ server, url: r.error.url }));
    }
    return r;
  },
  connectAndUse: (server, opts) => settle(connectAndUse(server, opts)),
  call: (server) => settle(call(server)),
  /** Redirect mode: the page itself is the redirect URI; the server is remembered for the reload. */
  async leaveToSignIn(server) {
    sessionStorage.setItem("app:server", server);
    const r = await this.prepare(server, { redirect: true });
    if (this.pending) location.assign(this.pending.url);
    return r;
  },
  /** A popup opened outside any user gesture, or by the library's handler. */
  popupNow: (url) => settle(mcp.openAuthorizationPopup(url)),
  signInWithHandler: (server) => settle(mcp.McpClient.signIn(server, { auth: { ...auth(), onAuthorizationUrl: (url) => mcp.openAuthorizationPopup(url) } })),
  outcome: null,
  traffic,
};

document.getElementById("sign-in").addEventListener("click", () => {
  const { server, url, opts } = window.app.pending;
  // Opened now, inside the click: no await before this call.
  window.app.outcome = settle(
    mcp.openAuthorizationPopup(url, { timeoutMs: 60_000 })
      .then((callback) => mcp.McpClient.completeAuthorization(server, callback, { auth: auth(opts) }))
      .then(() => connectAndUse(server, opts)),
  );
});

// Back from a full-page redirect: finish the stored pending sign-in, then connect.
const back = new URLSearchParams(location.search);
const server = sessionStorage.getItem("app:server");
if (server && (back.has("code") || back.has("error"))) {
  sessionStorage.removeItem("app:server");
  const callback = location.href;
  history.replaceState(null, "", location.pathname); // the code leaves the address bar
  window.app.outcome = settle(
    mcp.McpClient.completeAuthorization(server, callback, { auth: auth({ redirect: true }) })
      .then(() => connectAndUse(server, { redirect: true })),
  );
}
// Popups opened without a user gesture, as the page loads (`?popup-on-load=1`): the prepared URL
// with the helper, then a sign-in with the helper as the library's handler. The results go to the
// console: the test must not touch the page meanwhile (Playwright's evaluate and waits count as
// user gestures).
if (back.get("popup-on-load") === "1") {
  const prepared = JSON.parse(sessionStorage.getItem("app:prepared"));
  Promise.all([window.app.popupNow(prepared.url), window.app.signInWithHandler(prepared.server)])
    .then((results) => console.info(`popup-on-load ${JSON.stringify(results)}`));
}
document.body.dataset.ready = "true";
