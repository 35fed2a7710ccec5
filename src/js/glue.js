// The crate's JS, one module for all of it: wasm-bindgen ships it as one snippet file (one
// request, one gzip stream). Bound in src/js/glue.rs (McpError, progress objects, the stream
// wrapper, the browser sign-in helpers) and src/client/auth.rs (the authorization host).
// scripts/shrink-package.sh minifies it; scripts/oauth-share.sh cuts its sections by the
// `// ---- ` markers (keep them).

export class McpError extends Error {
  constructor(code, message, details) {
    super(message);
    this.name = "McpError";
    this.code = code;
    if (details) {
      for (const key of Object.keys(details)) {
        if (details[key] !== undefined && details[key] !== null) this[key] = details[key];
      }
    }
  }
}
export function makeMcpError(code, message, details) {
  return new McpError(code, message, details);
}
export function isMcpError(value) {
  return value instanceof McpError;
}
// One progress notification as the declared `Progress` object (one object literal per event:
// no JSON text in between).
export function makeProgress(progress, total, message, task) {
  return task === null ? { progress, total, message } : { progress, total, message, task };
}
// Settles as `promise` does, or rejects as soon as `signal` aborts if that comes first (a
// host-injected fetch or body stream may ignore the signal). One call per await from
// src/transport/js.rs, where building the promise, the listener and `Promise.race` through the
// bindings took eight crossings and a Rust closure. A later rejection of `promise` is handled
// here, so a runtime that treats unhandled rejections as fatal (Node) never sees it.
export function abortable(promise, signal) {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    const done = () => signal.removeEventListener("abort", onAbort);
    promise.then((v) => { done(); resolve(v); }, (e) => { done(); reject(e); });
  });
}
// The headers of an injected fetch's answer that is not a `Response` (any iterable of pairs) as one
// string, a `name:value` line per pair, for src/transport/fetch.rs (a real `Response`'s are read
// with gloo-net's `Headers::entries`); undefined when `headers` is not iterable as pairs. Pairs
// that are not two strings, or that a real `Headers` cannot hold (a `:` in the name, a line break
// anywhere), are left out.
export function headerLines(headers) {
  let lines = "";
  try {
    for (const [name, value] of headers) {
      if (typeof name === "string" && typeof value === "string" && !/[:\r\n]/.test(name) && !/[\r\n]/.test(value)) {
        lines += `${name}:${value}\n`;
      }
    }
  } catch {
    return undefined;
  }
  return lines;
}
// ---- sign-in in browser pages (see src/js/browser.rs) ----
const CALLBACK_CHANNEL = "mcp-edge-oauth";
const CALLBACK = "mcp-edge:oauth-callback";
const stateOf = (u) => { try { return new URL(u).searchParams.get("state"); } catch { return null; } };
// Opens `url` in a popup now (inside the click: no await before this call) and resolves with the
// callback URL the callback page (www/oauth-callback.html) sends back over a BroadcastChannel
// (immune to Cross-Origin-Opener-Policy), or by postMessage to the opener. Never polls
// `popup.closed` (it reads true under COOP while the window is open). Null: blocked.
export function openPopup(url, options) {
  const o = options || {};
  let popup = null;
  try {
    if (typeof globalThis.open === "function") popup = globalThis.open(url, o.name || "mcp-edge-sign-in", o.features || "popup,width=520,height=720");
  } catch { popup = null; }
  if (!popup) return null;
  const state = stateOf(url);
  const ms = o.timeoutMs ?? 600000;
  return new Promise((resolve, reject) => {
    const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CALLBACK_CHANNEL) : null;
    const end = () => {
      if (channel) channel.close();
      globalThis.removeEventListener("message", onMessage);
      clearTimeout(timer);
      if (o.signal) o.signal.removeEventListener("abort", onAbort);
      try { popup.close(); } catch { /* severed by COOP */ }
    };
    const accept = (data, reply) => {
      if (!data || data.type !== CALLBACK || typeof data.url !== "string") return;
      if (state !== null && stateOf(data.url) !== state) return; // another sign-in's callback
      try { reply({ type: `${CALLBACK}:received`, state }); } catch { /* gone */ }
      end();
      resolve(data.url);
    };
    const onMessage = (e) => {
      if (e.origin === globalThis.location.origin) accept(e.data, (m) => e.source.postMessage(m, e.origin));
    };
    const onAbort = () => { end(); reject(new McpError("ABORTED", "the sign-in was cancelled")); };
    if (channel) channel.onmessage = (e) => accept(e.data, (m) => channel.postMessage(m));
    globalThis.addEventListener("message", onMessage);
    const timer = setTimeout(() => { end(); reject(new McpError("TIMEOUT", `no sign-in callback within ${ms} ms`, { afterMs: ms })); }, ms);
    if (o.signal) {
      if (o.signal.aborted) onAbort();
      else o.signal.addEventListener("abort", onAbort, { once: true });
    }
  });
}
const PENDING = "mcp-edge:pending:";
const idbCall = (db, store, mode, f) => db.then((d) => new Promise((ok, fail) => {
  const tx = d.transaction(store, mode);
  const req = f(tx.objectStore(store));
  tx.oncomplete = () => ok(req.result);
  tx.onerror = tx.onabort = () => fail(tx.error);
}));
const idbOpen = (name) => new Promise((ok, fail) => {
  const r = globalThis.indexedDB.open(name, 1);
  r.onupgradeneeded = () => { r.result.createObjectStore("records"); r.result.createObjectStore("keys"); };
  r.onsuccess = () => ok(r.result);
  r.onerror = () => fail(r.error);
});
function area(kind, idb) {
  if (kind === "memory") {
    const m = new Map();
    return { get: (k) => m.get(k), put: (k, v) => { m.set(k, v); }, delete: (k) => { m.delete(k); } };
  }
  if (kind === "session" || kind === "local") {
    const s = globalThis[`${kind}Storage`];
    if (!s) throw new McpError("AUTH_CONFIG", `${kind}Storage is not available here`);
    return { get: (k) => s.getItem(k), put: (k, v) => s.setItem(k, v), delete: (k) => s.removeItem(k) };
  }
  if (kind === "indexeddb") {
    return {
      get: (k) => idbCall(idb(), "records", "readonly", (s) => s.get(k)),
      put: (k, v) => idbCall(idb(), "records", "readwrite", (s) => s.put(v, k)),
      delete: (k) => idbCall(idb(), "records", "readwrite", (s) => s.delete(k)),
    };
  }
  throw new McpError("INVALID_ARGUMENT", `browserStorage: unknown storage ${JSON.stringify(kind)} (session, local, indexeddb, memory)`);
}
// Storage for `auth.storage`: pending sign-ins and tokens/registrations each in the area the
// caller chose; DPoP keys (non-extractable) in IndexedDB when tokens outlive the page.
export function browserStorage(options) {
  const o = options || {};
  let db = null;
  const idb = () => {
    if (!globalThis.indexedDB) throw new McpError("AUTH_CONFIG", "IndexedDB is not available here");
    return db || (db = idbOpen(o.databaseName || "mcp-edge-auth"));
  };
  const tokens = area(o.tokens || "session", idb);
  const pending = area(o.pending || "session", idb);
  const pick = (k) => (k.startsWith(PENDING) ? pending : tokens);
  const store = {
    get: (k) => pick(k).get(k),
    put: (k, v) => pick(k).put(k, v),
    delete: (k) => pick(k).delete(k),
  };
  if ((o.tokens || "session") !== "memory" && globalThis.indexedDB) {
    store.dpopKey = (make) => {
      const run = async () => {
        const have = await idbCall(idb(), "keys", "readonly", (s) => s.get("dpop"));
        if (have) return have;
        const pair = await make();
        await idbCall(idb(), "keys", "readwrite", (s) => s.put(pair, "dpop"));
        return pair;
      };
      const locks = globalThis.navigator && globalThis.navigator.locks;
      return locks ? locks.request("mcp-edge:dpop-key", run) : run();
    };
  }
  return store;
}
export function wrapStream(stream) {
  let done = false;
  const finish = () => {
    if (!done) { done = true; stream.free(); }
    return { done: true, value: undefined };
  };
  return {
    next: () => done
      ? Promise.resolve({ done: true, value: undefined })
      : stream.nextItem().then((value) => (value === undefined ? finish() : { done: false, value })),
    return: () => Promise.resolve(finish()),
    [Symbol.asyncIterator]() { return this; },
  };
}

// ---- the authorization host (see src/client/auth.rs) ----
const memory = new Map();
const memoryStore = {
  get: (k) => memory.get(k),
  put: (k, v) => { memory.set(k, v); },
  delete: (k) => { memory.delete(k); },
};
const P256 = { name: "ECDSA", namedCurve: "P-256" };
const subtle = () => {
  const s = globalThis.crypto && globalThis.crypto.subtle;
  if (!s) throw new Error("crypto.subtle is not available (an insecure origin? it needs HTTPS or localhost)");
  return s;
};
export function authHost(options) {
  const o = options || {};
  const store = o.storage || memoryStore;
  let chain = Promise.resolve();
  const queued = (f) => (chain = chain.then(f, f));
  let dpop = null, dpopJwk = null, client = null;
  const held = new Map();
  return {
    // One refresh per issuer and client across the tabs of an origin (Web Locks); scopes
    // without `navigator.locks` (Node, workerd) have no other tab: granted at once.
    lock(name) {
      const locks = globalThis.navigator && globalThis.navigator.locks;
      if (!locks) return Promise.resolve();
      return new Promise((granted, failed) => {
        locks.request(name, () => new Promise((release) => {
          if (held.get(name) === "released") { held.delete(name); release(); } else { held.set(name, release); }
          granted();
        })).catch(failed);
      });
    },
    // Released once the storage calls queued before it (the new tokens) have run, so the next
    // holder reads what this one stored.
    unlock(name) {
      const free = () => {
        const release = held.get(name);
        if (typeof release === "function") { held.delete(name); release(); } else held.set(name, "released");
      };
      chain.then(free, free);
    },
    load: (key) => queued(async () => {
      const v = await store.get(key);
      return typeof v === "string" ? v : undefined;
    }),
    save: (key, value) => queued(() => store.put(key, value)),
    remove: (key) => queued(() => store.delete(key)),
    settled: () => chain.then(() => undefined, () => undefined),
    random(n) {
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i += 65536) globalThis.crypto.getRandomValues(out.subarray(i, Math.min(n, i + 65536)));
      return out;
    },
    async dpopKey() {
      if (!dpop) {
        // A store that keeps keys (browserStorage over IndexedDB) gives every tab and reload the
        // same non-extractable key, so stored DPoP-bound tokens stay usable.
        const make = () => subtle().generateKey(P256, false, ["sign"]);
        const pair = typeof store.dpopKey === "function" ? await store.dpopKey(make) : await make();
        dpopJwk = JSON.stringify(await subtle().exportKey("jwk", pair.publicKey));
        dpop = pair.privateKey;
      }
      return dpopJwk;
    },
    async sign(dpopRole, data) {
      let key = dpopRole ? dpop : client;
      if (!key && !dpopRole) {
        if (typeof o.privateKeyPem !== "string") throw new Error("private_key_jwt needs auth.privateKeyPem");
        const b64 = o.privateKeyPem.replace(/-----[^-]*-----/g, "").replace(/\s+/g, "");
        const der = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        key = client = await subtle().importKey("pkcs8", der, P256, false, ["sign"]);
      }
      if (!key) throw new Error("the DPoP key is not ready");
      return new Uint8Array(await subtle().sign({ name: "ECDSA", hash: "SHA-256" }, key, data));
    },
    authorize: typeof o.onAuthorizationUrl === "function"
      ? async (url) => {
          const back = await o.onAuthorizationUrl(url);
          if (typeof back !== "string") throw new Error("onAuthorizationUrl must resolve to the callback URL");
          return back;
        }
      : null,
  };
}
// ---- end of the authorization host ----
