// Plays the person of an authorization code flow against as.mjs (oidc-provider's development login
// and consent pages) over plain HTTP, no browser: follows the authorization URL, signs in as
// `login`, consents, and returns the URL the provider finally redirects to (the client's
// redirect_uri with `code`, `state` and `iss`), without requesting it.
//
//   const callback = await signInAs(authorizationUrl, "alice");
//
// A small cookie jar carries the provider's interaction and session cookies between the steps, as
// a browser would (each cookie sent back to the origin that set it; paths and expiry are not
// needed for this one provider).

const MAX_STEPS = 20;

/** A cookie jar for one origin: name -> value. */
class Jar {
  constructor() {
    this.cookies = new Map();
  }
  take(response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair.indexOf("=");
      if (eq > 0) this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

/** The action URL of the page's (only) form. */
function formAction(html, base) {
  const m = /<form[^>]*action="([^"]+)"/.exec(html);
  if (!m) throw new Error(`no form on the page: ${html.slice(0, 300)}`);
  return new URL(m[1].replace(/&amp;/g, "&"), base).href;
}

/**
 * Walks the provider's pages from `authorizationUrl` until it redirects somewhere else than itself;
 * returns that URL. `login`: the account to sign in as (the development pages accept any name and
 * password). `redirectOrigin`: the origin of the client's redirect URI (default: anything that is
 * not the provider).
 */
export async function signInAs(authorizationUrl, login, { redirectOrigin } = {}) {
  const provider = new URL(authorizationUrl).origin;
  const jar = new Jar();
  let url = authorizationUrl;
  let method = "GET";
  let body;
  for (let step = 0; step < MAX_STEPS; step++) {
    const r = await fetch(url, {
      method,
      body,
      redirect: "manual",
      headers: {
        cookie: jar.header(),
        ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
    });
    jar.take(r);
    method = "GET";
    body = undefined;
    if (r.status >= 300 && r.status < 400) {
      await r.arrayBuffer();
      const next = new URL(r.headers.get("location"), url).href;
      const origin = new URL(next).origin;
      if (redirectOrigin ? origin === redirectOrigin : origin !== provider) return next;
      url = next;
      continue;
    }
    const html = await r.text();
    if (r.status !== 200) throw new Error(`the provider answered HTTP ${r.status} at ${url}: ${html.slice(0, 300)}`);
    const action = formAction(html, url);
    if (html.includes('name="prompt" value="login"')) {
      body = new URLSearchParams({ prompt: "login", login, password: "any-password" }).toString();
    } else if (html.includes('name="prompt" value="consent"')) {
      body = new URLSearchParams({ prompt: "consent" }).toString();
    } else {
      throw new Error(`an unexpected page at ${url}: ${html.slice(0, 300)}`);
    }
    url = action;
    method = "POST";
  }
  throw new Error(`no redirect back after ${MAX_STEPS} steps`);
}
