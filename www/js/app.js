// Boot and wiring: loads the wasm client, reads the default servers (servers.json written by the
// demo script, or ?server=URL query parameters), and keeps the server list and the tabs current.
// Query parameters: server=URL (repeatable), protocol=auto|2026-07-28|..., autoconnect=0|1.

import init from "../pkg/mcp_edge.js";
import { store, addServer, connectServer, renderServerList, selectedServer } from "./servers.js";
import { TrafficLog } from "./traffic.js";
import { renderTools, toolEntries } from "./tools-view.js";
import { renderResources } from "./resources-view.js";
import { renderPrompts } from "./prompts-view.js";

const $ = (id) => document.getElementById(id);
const tabs = ["tools", "resources", "prompts", "traffic"];
let activeTab = "tools";
const rendered = { resources: null, prompts: null }; // what the panel last showed, to avoid refetching

function showTab(name, focus = false) {
  activeTab = name;
  for (const t of tabs) {
    const tab = $(`tab-${t}`);
    const on = t === name;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
    $(`panel-${t}`).hidden = !on;
    if (on && focus) tab.focus();
  }
  renderActive(true);
}

function renderActive(force = false) {
  const server = selectedServer();
  const stamp = server ? `${server.id}/${server.state}/${server.generation}` : "none";
  switch (activeTab) {
    case "tools":
      renderTools($("panel-tools"), server ? toolEntries(server) : [], server);
      break;
    case "resources":
    case "prompts":
      if (force || rendered[activeTab] !== stamp) {
        rendered[activeTab] = stamp;
        (activeTab === "resources" ? renderResources : renderPrompts)($(`panel-${activeTab}`), server);
      }
      break;
    default:
      break;
  }
}

function wireTabs() {
  tabs.forEach((t, i) => {
    const tab = $(`tab-${t}`);
    tab.addEventListener("click", () => showTab(t));
    tab.addEventListener("keydown", (e) => {
      const moves = { ArrowRight: 1, ArrowLeft: -1, Home: -i, End: tabs.length - 1 - i };
      if (!(e.key in moves)) return;
      e.preventDefault();
      showTab(tabs[(i + moves[e.key] + tabs.length) % tabs.length], true);
    });
  });
}

/** Parses "Name: value" lines; throws on a malformed line. */
function parseHeaderLines(text) {
  const out = {};
  for (const [n, line] of text.split("\n").entries()) {
    if (!line.trim()) continue;
    const m = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*:\s*(.*?)\s*$/.exec(line);
    if (!m) throw new Error(`header line ${n + 1} is not "Name: value"`);
    out[m[1]] = m[2];
  }
  return out;
}

function wireAddForm() {
  const form = $("add-server-form");
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const error = $("add-server-error");
    error.textContent = "";
    try {
      const headers = parseHeaderLines($("srv-headers").value);
      const token = $("srv-token").value.trim();
      if (token) headers.Authorization = `Bearer ${token}`;
      const server = addServer({ name: $("srv-name").value, url: $("srv-url").value.trim(), protocol: $("srv-protocol").value, headers });
      store.selected = server.id;
      form.reset();
      connectServer(server);
    } catch (err) {
      error.textContent = err.message;
    }
  });
}

async function defaultServers() {
  const params = new URLSearchParams(location.search);
  const fromQuery = params.getAll("server").filter(Boolean).map((url) => ({ url, protocol: params.get("protocol") ?? "auto" }));
  let config = { servers: [], autoConnect: false };
  try {
    const r = await fetch("servers.json", { cache: "no-store" });
    if (r.ok) config = await r.json();
  } catch {
    /* no defaults */
  }
  // Servers named in the query replace the defaults; the sandbox proxy's URL stays.
  if (fromQuery.length) config = { ...config, servers: fromQuery, autoConnect: true };
  if (params.has("autoconnect")) config.autoConnect = params.get("autoconnect") !== "0";
  return config;
}

async function main() {
  wireTabs();
  wireAddForm();
  store.traffic = new TrafficLog();
  store.traffic.mount($("panel-traffic"), () => store.servers.map((s) => s.name));
  store.listeners.add((what, server) => {
    renderServerList($("server-list"));
    if (what === "events") return;
    if (what === "selected" || what === "servers" || !server || server.id === store.selected) renderActive(what === "selected");
  });
  renderServerList($("server-list"));
  renderActive();
  try {
    await init();
  } catch (err) {
    $("boot-status").textContent = `Could not load the wasm client: ${err.message}`;
    $("boot-status").classList.add("bad");
    return;
  }
  const config = await defaultServers();
  store.sandboxUrl = typeof config.sandboxUrl === "string" ? config.sandboxUrl : null;
  for (const s of config.servers ?? []) {
    const server = addServer(s);
    // A project's server waits for the person's approval (its card offers Approve / Reject).
    if (config.autoConnect && !server.project) connectServer(server);
  }
  $("boot-status").textContent = "Ready.";
  document.body.dataset.ready = "true";
}

main();
