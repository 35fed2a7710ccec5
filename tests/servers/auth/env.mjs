// What a test needs from the running OAuth test servers (start.sh): their URLs and the test's client
// credentials (from the environment, as start.sh's auth.env sets them), and the issuer's test-only
// routes.
import { readFileSync } from "node:fs";

function need(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: start tests/servers/auth/start.sh and export its auth.env`);
  return v;
}

/** URLs and credentials of the running servers. */
export function authServers() {
  return {
    issuer: need("AUTH_ISSUER"),
    admin: need("AUTH_ADMIN"),
    py: need("AUTH_PY_URL"),
    node: need("AUTH_NODE_URL"),
    ccBasic: { clientId: need("AUTH_CC_BASIC_ID"), clientSecret: need("AUTH_CC_BASIC_SECRET") },
    ccJwt: { clientId: need("AUTH_CC_JWT_ID"), privateKeyPem: readFileSync(need("AUTH_CC_JWT_KEY_FILE"), "utf8") },
  };
}

/** Every secret the issuer handed out or holds (codes, access and refresh tokens, client secrets)
 * and the grants it served, in order. */
export async function issued(admin) {
  const r = await fetch(`${admin}/issued`);
  if (!r.ok) throw new Error(`${admin}/issued: HTTP ${r.status}`);
  return r.json();
}

/** Sets the lifetime of access tokens issued from now on. */
export async function setAccessTokenTtl(admin, seconds) {
  const r = await fetch(`${admin}/ttl?seconds=${seconds}`, { method: "POST" });
  if (!r.ok) throw new Error(`${admin}/ttl: HTTP ${r.status}`);
  await r.arrayBuffer();
}

/** Calls the `whoami` tool's answer text into an object. */
export function whoami(result) {
  return JSON.parse(result.content.map((c) => c.text).join(""));
}

/** An AuthStorage over a Map (shared by whoever holds the map), counting its calls. */
export function mapStorage(map = new Map()) {
  const calls = { get: 0, put: 0, delete: 0 };
  return {
    map,
    calls,
    get: async (k) => {
      calls.get += 1;
      return map.get(k) ?? null;
    },
    put: async (k, v) => {
      calls.put += 1;
      map.set(k, v);
    },
    delete: async (k) => {
      calls.delete += 1;
      map.delete(k);
    },
  };
}

/** What a browser meets at real providers: `coop` (Cross-Origin-Opener-Policy: same-origin on the
 * sign-in pages) and `tokenCors` (false: no CORS headers on /token). */
export async function setBrowserOptions(admin, { coop, tokenCors }) {
  const q = new URLSearchParams();
  if (coop !== undefined) q.set("coop", coop ? "1" : "0");
  if (tokenCors !== undefined) q.set("token_cors", tokenCors ? "1" : "0");
  const r = await fetch(`${admin}/browser?${q}`, { method: "POST" });
  if (!r.ok) throw new Error(`${admin}/browser: HTTP ${r.status}`);
  return r.json();
}
