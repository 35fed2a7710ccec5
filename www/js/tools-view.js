// The Tools tab: the tool list of the selected server (title, description, annotation badges, the
// qualified `mcp__<server>__<tool>` name) and, per tool, a form generated from its inputSchema with
// a raw-JSON mode, Call/Cancel, a progress bar fed by progress notifications, elapsed time and
// the rendered result; a tool with an MCP Apps view (`_meta.ui.resourceUri`) shows that view beside
// its result, in a sandboxed frame served from the sandbox proxy's origin, fed the call's input and
// result; the view's own calls go through the same client (so they show in the traffic panel).
// Views are kept per tool so a running call survives switching tools.
// `entries` is a list of {server, tool}: a pool view can pass tools of every server.

import { h, replace, pretty, formatMs, nextId } from "./dom.js";
import { schemaForm, FormError } from "./schema-form.js";
import { renderToolResult, renderError } from "./render.js";
import { toolNames, toolUi, McpApp } from "../pkg/mcp_edge.js";
import { store, logEvent } from "./servers.js";

/** The tool's `ui://` view (MCP Apps), read by the library. */
const appUri = (tool) => toolUi(tool).resourceUri;
/** The page's look as MCP Apps style variables (ext-apps "Theming"), for views that follow it. */
function pageStyleVariables() {
  const root = getComputedStyle(document.documentElement);
  const css = (name) => root.getPropertyValue(name).trim();
  return {
    "--color-background-primary": css("--panel"),
    "--color-background-secondary": css("--bg"),
    "--color-text-primary": css("--text"),
    "--color-text-secondary": css("--muted"),
    "--color-border-primary": css("--line"),
    "--font-sans": getComputedStyle(document.body).fontFamily,
  };
}
/** Who may use the tool (MCP Apps `_meta.ui.visibility`, default both), read by the library. */
const visibility = (tool) => toolUi(tool).visibility;

const views = new Map(); // `${server.id}/${tool.name}` -> {key, json, element}
let selectedKey = null;

/** Tools of one server as view entries. */
export const toolEntries = (server) => server.tools.map((tool) => ({ server, tool }));

const keyOf = ({ server, tool }) => `${server.id}/${tool.name}`;

const namesByList = new WeakMap(); // a server's tools array -> Map(tool name -> qualified name)
/** The `mcp__<server>__<tool>` name the library's pool gives `tool` among its server's tools. */
function qualifiedName(server, tool) {
  let names = namesByList.get(server.tools);
  if (!names) {
    const qualified = toolNames(server.tools.map((t) => [server.name, t.name]));
    names = new Map(server.tools.map((t, i) => [t.name, qualified[i]]));
    namesByList.set(server.tools, names);
  }
  return names.get(tool.name) ?? toolNames([[server.name, tool.name]])[0];
}

/** Annotation badges (MCP server/tools "Tool Annotations"; only hints the server set explicitly). */
export function annotationBadges(tool) {
  const a = tool.annotations ?? {};
  const out = [];
  if (a.readOnlyHint === true) out.push(["read-only", "ok"]);
  if (a.readOnlyHint !== true && a.destructiveHint === true) out.push(["destructive", "bad"]);
  if (a.readOnlyHint !== true && a.destructiveHint === false) out.push(["non-destructive", ""]);
  if (a.idempotentHint === true) out.push(["idempotent", ""]);
  if (a.openWorldHint === true) out.push(["open world", "warn"]);
  if (a.openWorldHint === false) out.push(["closed world", ""]);
  if (tool.outputSchema) out.push(["output schema", ""]);
  if (appUri(tool)) out.push(["app view", "ok"]);
  const vis = visibility(tool);
  if (!vis.includes("model")) out.push(["app only", "warn"]);
  else if (!vis.includes("app") && appUri(tool)) out.push(["model only", ""]);
  return out.map(([label, tone]) => h(`span.badge${tone ? `.${tone}` : ""}`, {}, label));
}

/** Renders the tab for `entries`; `server` (may be null) only for the empty-state text. */
export function renderTools(panel, entries, server) {
  if (!server) return replace(panel, h("p.hint", {}, "Add or select a server."));
  if (server.state !== "connected" && entries.length === 0) {
    if (server.state === "error" && server.lastError) return replace(panel, h("h3", {}, `${server.name}: could not connect`), renderError(server.lastError));
    return replace(panel, h("p.hint", {}, server.state === "idle" ? `Connect ${server.name} to see its tools.` : `${server.name}: ${server.state}.`));
  }
  if (entries.length === 0) return replace(panel, h("p.hint", {}, `${server.name} has no tools.`));
  if (!entries.some((e) => keyOf(e) === selectedKey)) selectedKey = keyOf(entries[0]);
  const list = h(
    "ul.tool-list",
    { "aria-label": "Tools" },
    entries.map((e) => {
      const key = keyOf(e);
      return h("li", {}, h("button.tool-item", {
        type: "button",
        "aria-current": key === selectedKey ? "true" : null,
        dataset: { tool: e.tool.name },
        onclick: () => { selectedKey = key; renderTools(panel, entries, server); panel.querySelector(`.tool-item[data-tool="${CSS.escape(e.tool.name)}"]`)?.focus(); },
      }, h("span.tool-title", {}, e.tool.title ?? e.tool.annotations?.title ?? e.tool.name), h("span.tool-badges", {}, annotationBadges(e.tool))));
    }),
  );
  const entry = entries.find((e) => keyOf(e) === selectedKey);
  const focused = document.activeElement;
  replace(panel, h("div.tools", {}, list, detailFor(entry)));
  if (focused instanceof HTMLElement && focused !== document.activeElement && focused.isConnected) focused.focus();
}

function detailFor(entry) {
  const key = keyOf(entry);
  const json = JSON.stringify(entry.tool);
  let view = views.get(key);
  if (!view || (view.json !== json && !view.running)) {
    // A changed tool gets a new detail: its open app view is torn down first (spec: before
    // tearing down a view, for any reason).
    if (view?.app) {
      const old = view.app;
      old.teardown("the tool changed").catch(() => old.close());
    }
    view = { key, json, running: false };
    view.element = buildDetail(entry, view);
    views.set(key, view);
  }
  return view.element;
}

function buildDetail({ server, tool }, view) {
  const qualified = qualifiedName(server, tool);
  let editor;
  let formError = null;
  try {
    editor = schemaForm(tool.inputSchema ?? { type: "object" });
  } catch (err) {
    formError = err;
  }
  const rawId = nextId("tool");
  const raw = h("textarea.json.raw-args", { id: rawId, rows: 8, spellcheck: "false", hidden: true, "aria-label": "Arguments as JSON" });
  const rawToggle = h("input", { type: "checkbox", id: `${rawId}-toggle` });
  const errorLine = h("p.form-error", { role: "alert" });
  const callBtn = h("button.primary.call", { type: "submit" }, "Call tool");
  const cancelBtn = h("button.cancel", { type: "button", disabled: true }, "Cancel");
  const progress = h("progress.call-progress", { max: 1, "aria-label": "Call progress" });
  progress.removeAttribute("value"); // indeterminate until the first notification
  const progressText = h("span.progress-text", { "aria-live": "polite" });
  const elapsed = h("output.elapsed", { "aria-label": "Elapsed time" });
  const runLine = h("div.run", { hidden: true }, progress, progressText, elapsed);
  const result = h("div.result-slot", { "aria-live": "polite" });
  const appHolder = h("div.app-holder");
  const appStatus = h("span.app-status", { "aria-live": "polite" });
  const appClose = h("button.app-close", { type: "button" }, "Close view");
  const appSlot = h("section.app-slot", { hidden: true, "aria-label": `App view of ${tool.name}` },
    h("div.app-bar", {}, h("strong", {}, "App view"), " ", appStatus, appClose), appHolder);
  const closeApp = async (reason) => {
    const app = view.app;
    view.app = null;
    server.apps?.delete(app);
    if (app) await app.teardown(reason).catch(() => app.close());
    appSlot.hidden = true;
    appSlot.classList.remove("fullscreen");
  };
  appClose.addEventListener("click", () => closeApp("closed by the user"));
  const openApp = async (client) => {
    await closeApp("the tool is called again");
    replace(appStatus, "loading…");
    appSlot.hidden = false;
    try {
      view.app = await McpApp.open(client, tool.name, {
        container: appHolder,
        sandboxUrl: store.sandboxUrl,
        hostInfo: { name: "mcp-edge-playground", version: "0.1.0" },
        hostContext: {
          theme: matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light",
          styles: { variables: pageStyleVariables() },
          availableDisplayModes: ["inline", "fullscreen"],
          locale: navigator.language,
          timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        },
        onInitialized: (info) => { replace(appStatus, `ready (${info?.name ?? "view"})`); },
        onDisplayMode: (mode) => {
          appSlot.classList.toggle("fullscreen", mode === "fullscreen");
          return mode;
        },
        onRequest: (req) => {
          logEvent(server, `app view of ${tool.name}: ${req.method}${req.name ? ` ${req.name}` : ""}`);
          store.changed("events", server);
        },
        onLog: (params) => { logEvent(server, `app view log: ${JSON.stringify(params.data ?? params)}`); store.changed("events", server); },
        onDiagnostic: (text) => { logEvent(server, `app view: ${text}`); store.changed("events", server); },
        onClose: () => { appSlot.hidden = true; },
      });
      appSlot.dataset.state = "open";
      (server.apps ??= new Set()).add(view.app);
    } catch (err) {
      view.app = null;
      replace(appStatus, `could not open the view: ${err.message}`);
    }
    return view.app;
  };
  const formArea = h("div.form-area", {}, editor ? editor.element : h("p.hint", {}, `The schema could not be turned into a form (${formError?.message}); use raw JSON.`));

  const useRaw = (on) => {
    errorLine.textContent = "";
    if (on) {
      try {
        raw.value = pretty(editor?.get() ?? {});
      } catch {
        raw.value = raw.value || "{}";
      }
    } else if (editor) {
      try {
        editor.set(JSON.parse(raw.value || "{}"));
      } catch (err) {
        errorLine.textContent = `Raw JSON is not valid, the form keeps its values (${err.message})`;
      }
    }
    raw.hidden = !on;
    formArea.hidden = on;
  };
  rawToggle.addEventListener("change", () => useRaw(rawToggle.checked));
  if (!editor) {
    rawToggle.checked = true;
    rawToggle.disabled = true;
    useRaw(true);
  }

  const args = () => {
    if (rawToggle.checked) {
      const v = JSON.parse(raw.value || "{}");
      if (!v || typeof v !== "object" || Array.isArray(v)) throw new Error("arguments must be a JSON object");
      return v;
    }
    return editor.get() ?? {};
  };

  let controller = null;
  // novalidate: the browser's own check would block a raw-JSON call on the hidden form's empty
  // required fields; the submit handler runs reportValidity() itself when the form is in use.
  const form = h("form.tool-form", { "aria-label": `Arguments of ${tool.name}`, novalidate: true }, formArea, raw, errorLine,
    h("div.buttons", {}, callBtn, cancelBtn,
      h("span.raw-toggle", {}, rawToggle, h("label", { for: rawToggle.id }, "Edit as raw JSON"))));
  cancelBtn.addEventListener("click", () => controller?.abort());
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    errorLine.textContent = "";
    if (!rawToggle.checked && !form.reportValidity()) return;
    let a;
    try {
      a = args();
    } catch (err) {
      errorLine.textContent = err.message;
      if (err instanceof FormError) err.input?.focus();
      return;
    }
    const client = server.client;
    if (!client) {
      errorLine.textContent = `${server.name} is not connected.`;
      return;
    }
    controller = new AbortController();
    view.running = true;
    callBtn.disabled = true;
    cancelBtn.disabled = false;
    runLine.hidden = false;
    runLine.dataset.state = "running";
    progress.removeAttribute("value");
    progress.max = 1;
    progressText.textContent = "waiting for the server…";
    replace(result);
    const app = appUri(tool) && store.sandboxUrl ? await openApp(client) : null;
    app?.toolInput(a);
    const started = performance.now();
    const tick = () => { elapsed.textContent = formatMs(performance.now() - started); };
    tick();
    const timer = setInterval(tick, 100);
    let outcome;
    try {
      const r = await client.callTool(tool.name, a, {
        signal: controller.signal,
        onProgress: (p) => {
          if (p.total !== null && p.total > 0) {
            progress.max = p.total;
            progress.value = Math.min(p.progress, p.total);
          } else {
            progress.removeAttribute("value");
          }
          progressText.textContent = p.message ?? (p.total !== null ? `${p.progress} / ${p.total}` : `${p.progress}`);
        },
      });
      outcome = r.isError ? "tool-error" : "done";
      progress.max = 1;
      progress.value = 1;
      progressText.textContent = r.isError ? "finished with isError" : "done";
      replace(result, renderToolResult(r, client.getTool(tool.name) ?? tool));
      if (app && view.app === app) app.toolResult(r);
    } catch (err) {
      outcome = err?.code === "ABORTED" ? "cancelled" : "failed";
      if (app && view.app === app) app.toolCancelled(err?.message ?? String(err));
      progressText.textContent = outcome === "cancelled" ? "cancelled" : "failed";
      replace(result, renderError(err));
    } finally {
      clearInterval(timer);
      tick();
      elapsed.textContent = `${outcome === "cancelled" ? "cancelled after" : "took"} ${elapsed.textContent}`;
      runLine.dataset.state = outcome;
      view.running = false;
      controller = null;
      callBtn.disabled = false;
      cancelBtn.disabled = true;
    }
  });

  return h(
    "section.tool-detail",
    { "aria-labelledby": `${rawId}-h`, dataset: { tool: tool.name, server: server.name } },
    h("h3", { id: `${rawId}-h` }, tool.title ?? tool.annotations?.title ?? tool.name),
    h("p.names", {}, h("code.tool-name", {}, tool.name), " · ", h("code.qualified", { title: "the name a model sees" }, qualified)),
    h("p.badges", {}, annotationBadges(tool)),
    tool.description ? h("p.description", {}, tool.description) : null,
    form,
    runLine,
    h("div.result-and-app", {}, result, appSlot),
    h("details.schema", {}, h("summary", {}, "input schema"), h("pre.json", {}, pretty(tool.inputSchema ?? {})),
      tool.outputSchema ? [h("h4", {}, "output schema"), h("pre.json", {}, pretty(tool.outputSchema))] : null),
  );
}
