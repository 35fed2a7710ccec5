// Shared helpers for the playground tests: launch Debian's Chromium through playwright-core
// (never a downloaded browser), open the page, collect console errors, save screenshots.
import { chromium } from "playwright-core";
import { mkdtemp, rm, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

export const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run tests/browser/run.sh`);
  return v;
};

const FLAGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic",
];

/** Starts Chromium with a fresh user-data dir; returns {context, close}. `options` go to
 * launchPersistentContext (e.g. `ignoreDefaultArgs`). */
export async function launch(options = {}) {
  const userDataDir = await mkdtemp(path.join(tmpdir(), "mcp-edge-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: FLAGS,
    viewport: { width: 1400, height: 1000 },
    acceptDownloads: true,
    ...options,
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Opens the playground in a new page and records every console error and uncaught page error.
 * `expected` (regexes) lists browser-generated messages a test provokes on purpose (a CORS block);
 * `unexpected()` returns the others.
 */
export async function openPlayground(context, query = "") {
  const page = await context.newPage();
  const errors = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push({ text: m.text(), url: m.location()?.url ?? "" });
  });
  page.on("pageerror", (e) => errors.push({ text: `pageerror: ${e.message}`, url: "" }));
  const expected = [];
  await page.goto(`${env("PLAYGROUND_URL")}${query}`);
  await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
  return {
    page,
    errors,
    expect(re) { expected.push(re); },
    unexpected: () => errors.filter((e) => !expected.some((re) => re.test(e.text))),
  };
}

/** Saves target/browser-screenshots/<name>.png. */
export async function screenshot(page, name) {
  const dir = env("SCREENSHOT_DIR");
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** The card of server `name`. */
export const card = (page, name) => page.locator(`.server-card[data-server="${name}"]`);

/** Clicks Connect on a pre-filled server and waits until it is connected. */
export async function connect(page, name) {
  await card(page, name).getByRole("button", { name: `Connect ${name}` }).click();
  await page.waitForSelector(`.server-card[data-server="${name}"][data-state="connected"]`, { timeout: 30_000 });
}

/** Selects server `name` and tool `tool` in the Tools tab; returns the detail section. */
export async function openTool(page, name, tool) {
  await card(page, name).locator("button.select").click();
  await page.getByRole("tab", { name: "Tools" }).click();
  await page.locator(`.tool-item[data-tool="${tool}"]`).click();
  const detail = page.locator(`.tool-detail[data-server="${name}"][data-tool="${tool}"]`);
  await detail.waitFor();
  return detail;
}
