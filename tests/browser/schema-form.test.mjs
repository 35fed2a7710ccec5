// The JSON-Schema form generator in a real page: every supported construct renders, takes input
// through the DOM, and produces the value a server would receive; set() round-trips.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, openPlayground, screenshot } from "./lib.mjs";

let browser;
let p;
before(async () => {
  browser = await launch();
  p = await openPlayground(browser.context, "?autoconnect=0");
});
after(async () => {
  await p?.page.close();
  await browser?.close();
});

const SCHEMA = {
  type: "object",
  required: ["name", "count", "mode", "point"],
  properties: {
    name: { type: "string", title: "Name", description: "who" },
    count: { type: "integer", minimum: 0, default: 3 },
    ratio: { type: "number" },
    flag: { type: "boolean", default: false },
    maybe: { type: ["string", "null"] },
    mode: { enum: ["fast", "slow"] },
    tags: { type: "array", items: { type: "string" } },
    colours: { type: "array", items: { enum: ["red", "green", "blue"] } },
    point: { $ref: "#/$defs/point" },
    shape: { oneOf: [{ title: "circle", $ref: "#/$defs/circle" }, { title: "label", type: "string" }] },
    anything: {},
  },
  $defs: {
    point: { type: "object", required: ["x"], properties: { x: { type: "number" }, y: { type: "number", nullable: true } } },
    circle: { type: "object", properties: { r: { type: "number" } } },
  },
};

test("schema form: every construct renders and yields the right value", async () => {
  const { page } = p;
  await page.evaluate(async (schema) => {
    const { schemaForm } = await import("./js/schema-form.js");
    const editor = schemaForm(schema);
    const host = document.createElement("form");
    host.id = "schema-host";
    host.append(editor.element);
    document.querySelector("#panel-tools").replaceChildren(host);
    window.__editor = editor;
  }, SCHEMA);
  const host = page.locator("#schema-host");
  // Required marks on required fields only.
  assert.equal(await host.locator('.field[data-path="name"] .req').count(), 1);
  assert.equal(await host.locator('.field[data-path="ratio"] .req').count(), 0);
  assert.equal(await host.locator('.field[data-path="name"] input').getAttribute("required"), "");
  // Defaults pre-fill.
  assert.equal(await host.locator('.field[data-path="count"] input').inputValue(), "3");

  await host.getByLabel("Name").fill("Ada");
  await host.locator('.field[data-path="ratio"] input').fill("0.5");
  await host.locator('.field[data-path="flag"] input').check();
  await host.locator('.field[data-path="mode"] select').selectOption({ label: "slow" });
  await host.getByRole("button", { name: "+ Add item" }).first().click();
  await host.locator('[data-path="tags"] .array-items input').first().fill("one");
  await host.getByRole("button", { name: "+ Add item" }).first().click();
  await host.locator('[data-path="tags"] .array-items input').nth(1).fill("two");
  await host.getByLabel("blue").check();
  await host.locator('.field[data-path="point.x"] input').fill("1.25");
  await host.getByLabel("y is null").check();
  await host.getByLabel("shape: variant").selectOption({ label: "circle" });
  await host.locator('.field[data-path="shape.r"] input').fill("2");
  await host.locator('.field[data-path="anything"] textarea').fill('{"free": [1, 2]}');
  await host.getByLabel("maybe is null").check();
  await screenshot(page, "20-schema-form");

  const value = await page.evaluate(() => window.__editor.get());
  assert.deepEqual(value, {
    name: "Ada",
    count: 3,
    ratio: 0.5,
    flag: true,
    maybe: null,
    mode: "slow",
    tags: ["one", "two"],
    colours: ["blue"],
    point: { x: 1.25, y: null },
    shape: { r: 2 },
    anything: { free: [1, 2] },
  });

  // set() round-trips a different value, including switching the oneOf variant.
  const other = { name: "Bo", count: 0, mode: "fast", point: { x: -1, y: 4 }, shape: "a label", tags: ["z"], maybe: "m" };
  const back = await page.evaluate((v) => { window.__editor.set(v); return window.__editor.get(); }, other);
  assert.deepEqual(back, { ...other, flag: false });

  // Invalid raw JSON is a clear error, not a silent drop.
  await host.locator('.field[data-path="anything"] textarea').fill("{not json");
  const err = await page.evaluate(() => { try { window.__editor.get(); return null; } catch (e) { return e.message; } });
  assert.match(err, /^anything: invalid JSON/);
  assert.deepEqual(p.unexpected(), []);
});
