// Shared pieces of the browser sign-in tests: a static server for www/ (the library package, the
// callback page, the playground) and this directory's test page, on 127.0.0.1 with the
// playground's Content-Security-Policy (no inline script anywhere); Chromium through
// ../browser/lib.mjs (Debian's /usr/bin/chromium, popup blocking on); and the person who fills in
// oidc-provider's development login and consent pages in whatever window shows them.
import http from "node:http";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launch as launchChromium } from "../browser/lib.mjs";

export { screenshot } from "../browser/lib.mjs";
export * from "../servers/auth/env.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const www = path.resolve(here, "../../www");
const pageDir = path.join(here, "page");
const MIME = { ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".wasm": "application/wasm", ".json": "application/json" };

/** The playground's policy (index.html's meta tag) plus frame-ancestors, as serve-playground sends it. */
async function policy() {
  const html = await readFile(path.join(www, "index.html"), "utf8");
  const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/i.exec(html);
  return `${meta[1]}; frame-ancestors 'none'`;
}

/**
 * Serves www/ at / and page/ at /test/ on a free 127.0.0.1 port; `/servers.json` lists
 * `servers` (the playground's defaults). Every URL requested is kept in `urls` (secret checks).
 * Returns {origin, urls, close}.
 */
export async function serveStatic({ servers = [] } = {}) {
  const csp = await policy();
  const urls = [];
  const server = http.createServer(async (req, res) => {
    urls.push(req.url);
    const send = (status, type, body) => {
      res.writeHead(status, { "content-type": type, "cache-control": "no-store", "content-security-policy": csp, "referrer-policy": "no-referrer" });
      res.end(body);
    };
    const { pathname } = new URL(req.url, "http://127.0.0.1");
    if (pathname === "/servers.json") return send(200, MIME[".json"], JSON.stringify({ servers, autoConnect: false }));
    const [root, rel] = pathname.startsWith("/test/") ? [pageDir, pathname.slice(5)] : [www, pathname === "/" ? "/index.html" : pathname];
    const file = path.resolve(root, `.${decodeURIComponent(rel)}`);
    if (!file.startsWith(root + path.sep)) return send(403, "text/plain", "outside the root\n");
    try {
      if (!(await stat(file)).isFile()) throw new Error("not a file");
      send(200, MIME[path.extname(file)] ?? "application/octet-stream", await readFile(file));
    } catch {
      send(404, "text/plain", "not found\n");
    }
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    urls,
    close: () => new Promise((ok) => { server.closeAllConnections(); server.close(ok); }),
  };
}

/** Chromium with its popup blocker on (Playwright turns it off by default), so a window opened
 * outside a user gesture is blocked as in a user's browser. */
export const launch = () => launchChromium({ ignoreDefaultArgs: ["--disable-popup-blocking"] });

/**
 * Opens the test page (page/app.html) in a new tab and waits until the library is loaded.
 * Console messages are kept in `console` (secret checks); page errors fail the caller's checks.
 */
export async function openApp(context, origin, query = "") {
  const page = await context.newPage();
  const console = [];
  page.on("console", (m) => console.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => console.push(`pageerror: ${e.message}`));
  await page.goto(`${origin}/test/app.html${query}`);
  await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
  return { page, console };
}

/**
 * Plays the person in `win` (a popup, or the page itself in redirect mode): signs in as `login`
 * and consents on oidc-provider's development pages until the window reaches `appOrigin` (the
 * callback) or closes.
 */
export async function signInAsPerson(win, appOrigin, login = "alice") {
  for (let step = 0; step < 12; step++) {
    if (win.isClosed()) return;
    await win.waitForLoadState("domcontentloaded").catch(() => {});
    const url = win.url();
    if (url.startsWith(appOrigin)) return;
    if (url === "about:blank" || !url.startsWith("http")) {
      await win.waitForURL((u) => u.href !== url, { timeout: 15_000 }).catch(() => {});
      continue;
    }
    if (await win.locator('input[name="login"]').count()) {
      await win.locator('input[name="login"]').fill(login);
      await win.locator('input[name="password"]').fill("any-password");
    } else if (!(await win.locator('input[name="prompt"][value="consent"]').count())) {
      throw new Error(`an unexpected page at ${url}: ${(await win.content()).slice(0, 300)}`);
    }
    const closed = win.waitForEvent("close").catch(() => {});
    const moved = win.waitForURL((u) => u.href !== url, { timeout: 15_000 });
    await win.locator('button[type="submit"]').first().click();
    await Promise.race([moved, closed]);
  }
  throw new Error("the person never got back to the app");
}

/** Every secret the issuer handed out (codes, tokens, client secrets) that occurs in `texts`. */
export function leaked(secrets, texts) {
  const all = texts.join("\n");
  return secrets.filter((s) => s.length >= 8 && all.includes(s));
}

/**
 * Opens the app, connects to `server` (AUTH_INTERACTION_REQUIRED), clicks "Sign in", plays the
 * person in the popup; returns {page, outcome} (`outcome`: the app's `{ok}` or `{error}`).
 * `opts` go to the app's prepare (`relay`).
 */
export async function popupSignIn(context, origin, server, opts = {}) {
  const { page, console } = await openApp(context, origin);
  const prepared = await page.evaluate(([s, o]) => window.app.prepare(s, o), [server, opts]);
  if (prepared.error?.code !== "AUTH_INTERACTION_REQUIRED") throw new Error(`prepare: ${JSON.stringify(prepared)}`);
  const popupOpened = context.waitForEvent("page");
  await page.click("#sign-in");
  const popup = await popupOpened;
  await signInAsPerson(popup, origin);
  await page.waitForFunction(() => window.app.outcome, null, { timeout: 30_000 });
  return { page, console, popup, outcome: await page.evaluate(() => window.app.outcome) };
}
