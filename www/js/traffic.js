// The traffic panel: every HTTP exchange the clients make, from `onTraffic` records (request, response
// head, raw body chunks - the SSE frames as they arrived - and end), with time since page load,
// duration, HTTP status, Mcp-* headers and the JSON-RPC messages found in each body. Filterable and
// exportable as JSON. Keeps the newest MAX_RECORDS records. Records are redacted as they arrive
// (redact.js): no credential is stored, shown, searched or exported.

import { h, replace, formatMs } from "./dom.js";
import { Redactor } from "./redact.js";

const MAX_RECORDS = 5000;
const MAX_SHOWN_BODY = 64 * 1024;

/** Headers worth showing in the summary: the MCP ones and resumption. */
const isMcpHeader = ([name]) => /^(mcp-|last-event-id$)/i.test(name);

/** JSON-RPC messages in a request body or in a body chunk (JSON or SSE `data:` lines). */
export function jsonRpcIn(text) {
  if (!text) return [];
  const candidates = [];
  const trimmed = text.trim();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) candidates.push(trimmed);
  else {
    for (const event of text.split(/\r?\n\r?\n|\r\r/)) {
      const data = event.split(/\r?\n|\r/).filter((l) => l.startsWith("data:")).map((l) => l.slice(5).replace(/^ /, "")).join("\n");
      if (data) candidates.push(data);
    }
  }
  const out = [];
  for (const c of candidates) {
    try {
      const v = JSON.parse(c);
      for (const m of Array.isArray(v) ? v : [v]) if (m && typeof m === "object") out.push(m);
    } catch {
      /* a chunk may hold part of an event: shown raw */
    }
  }
  return out;
}

function describeMessage(m) {
  if (typeof m.method === "string") return m.id !== undefined ? `${m.method} #${m.id}` : m.method;
  if (m.error) return `error #${m.id} ${m.error.code}`;
  if (m.result !== undefined) return `result #${m.id}`;
  return "?";
}

export class TrafficLog {
  constructor() {
    this.records = [];
    this.starts = new Map(); // `${server}/${exchange}` -> request time
    this.filter = { text: "", server: "", dir: "" };
    this.list = null;
    this.count = null;
    this.redactors = new Map(); // server -> {headers, redactor}
  }

  /** Records one `onTraffic` record of `server`, whose configured headers are `headers`. */
  add(server, raw, headers = {}) {
    let r = this.redactors.get(server);
    if (!r || r.headers !== headers) {
      r = { headers, redactor: new Redactor(headers) };
      this.redactors.set(server, r);
    }
    const record = r.redactor.push(raw);
    const t = performance.now();
    const key = `${server}/${record.exchange}`;
    const open = this.starts.get(key);
    if (record.type === "end") this.starts.delete(key);
    if (this.starts.size > MAX_RECORDS) this.starts.delete(this.starts.keys().next().value);
    const text = record.type === "request" ? record.body ?? "" : record.type === "body" ? record.text : "";
    const entry = {
      t,
      since: open === undefined ? null : t - open.t,
      request: open ?? null, // the exchange's request record: filters match whole exchanges
      server,
      dir: record.type === "request" ? "out" : "in",
      messages: jsonRpcIn(text).map(describeMessage),
      ...record,
    };
    if (record.type === "request") this.starts.set(key, entry);
    if (open && entry.messages.some((m) => /^(result|error) #/.test(m))) open.answered = true;
    this.records.push(entry);
    if (this.records.length > MAX_RECORDS) this.records.shift();
    if (this.list && this.matches(entry)) {
      this.list.append(this.row(entry));
      while (this.list.childElementCount > MAX_RECORDS) this.list.firstElementChild.remove();
      this.updateCount();
    }
  }

  matches(e) {
    const f = this.filter;
    if (f.server && e.server !== f.server) return false;
    if (f.dir && e.dir !== f.dir) return false;
    if (f.text) {
      const needle = f.text.toLowerCase();
      return haystack(e).includes(needle) || (e.request !== null && haystack(e.request).includes(needle));
    }
    return true;
  }

  row(e) {
    const headers = (e.headers ?? []).filter(isMcpHeader);
    let what;
    switch (e.type) {
      case "request": what = [h("strong", {}, e.method), " ", h("span.url", { title: e.url }, shortUrl(e.url))]; break;
      case "head": what = [h(`span.status${e.status >= 400 ? ".bad" : ""}`, {}, `HTTP ${e.status}`), " ", contentType(e.headers)]; break;
      case "body": what = [h("span.hint", {}, `${e.text.length} chars`)]; break;
      default:
        // The client closes a stream it no longer needs once the response is in: not a failure.
        what = !e.error ? h("span.hint", {}, "ended") : e.request?.answered ? h("span.hint", {}, `closed after the response (${e.error})`) : h("span.bad", {}, `ended: ${e.error}`);
    }
    const body = e.type === "request" ? e.body : e.type === "body" ? e.text : null;
    return h(
      "li",
      { dataset: { dir: e.dir, type: e.type, server: e.server } },
      h(
        "details",
        {},
        h(
          "summary",
          {},
          h("span.time", {}, `${(e.t / 1000).toFixed(3)}s`),
          h("span.server", {}, e.server),
          h(`span.dir.${e.dir}`, { title: e.dir === "out" ? "client to server" : "server to client" }, e.dir === "out" ? "→" : "←"),
          h("span.kind", {}, `${e.type} #${e.exchange}`),
          h("span.what", {}, what),
          e.messages.length ? h("span.rpc", {}, e.messages.join(", ")) : null,
          headers.map(([k, v]) => h("span.chip", { title: `${k}: ${v}` }, `${k}: ${v.length > 40 ? `${v.slice(0, 40)}…` : v}`)),
          e.since !== null && e.type !== "request" ? h("span.since", {}, `+${formatMs(e.since)}`) : null,
        ),
        e.headers?.length ? h("table.headers", {}, h("tbody", {}, e.headers.map(([k, v]) => h("tr", {}, h("th", { scope: "row" }, k), h("td", {}, v))))) : null,
        body ? h("pre.raw", {}, body.length > MAX_SHOWN_BODY ? `${body.slice(0, MAX_SHOWN_BODY)}\n… (${body.length} chars)` : body) : null,
      ),
    );
  }

  updateCount() {
    if (this.count) this.count.textContent = `${this.list.childElementCount} of ${this.records.length} records`;
  }

  rerender() {
    if (!this.list) return;
    replace(this.list, this.records.filter((e) => this.matches(e)).map((e) => this.row(e)));
    this.updateCount();
  }

  /** Builds the panel; `servers()` returns the current server names for the filter. */
  mount(container, servers) {
    const text = h("input", { id: "traffic-filter", type: "search", placeholder: "method, header, text…", oninput: () => { this.filter.text = text.value; this.rerender(); } });
    const server = h("select", { id: "traffic-server", onchange: () => { this.filter.server = server.value; this.rerender(); } });
    const fillServers = () => {
      const keep = server.value;
      replace(server, h("option", { value: "" }, "all servers"), servers().map((s) => h("option", { value: s }, s)));
      server.value = keep;
    };
    server.addEventListener("focus", fillServers);
    fillServers();
    const dir = h("select", { id: "traffic-dir", onchange: () => { this.filter.dir = dir.value; this.rerender(); } },
      h("option", { value: "" }, "both directions"), h("option", { value: "out" }, "→ client to server"), h("option", { value: "in" }, "← server to client"));
    this.list = h("ol.traffic", { "aria-label": "Traffic records" });
    this.count = h("span.hint", { "aria-live": "polite" });
    replace(
      container,
      h("div.toolbar", { role: "toolbar", "aria-label": "Traffic view" },
        h("label", { for: "traffic-filter" }, "Filter"), text,
        h("label.sr-only", { for: "traffic-server" }, "Server"), server,
        h("label.sr-only", { for: "traffic-dir" }, "Direction"), dir,
        h("button", { type: "button", onclick: () => this.exportJson() }, "Export JSON"),
        h("button", { type: "button", onclick: () => { this.records = []; this.rerender(); } }, "Clear"),
        this.count),
      this.list,
    );
    this.rerender();
  }

  exportJson() {
    const data = this.records.map(({ messages, request, hay, answered, ...r }) => ({ ...r, t: Math.round(r.t * 1000) / 1000 }));
    const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
    const a = h("a", { href: URL.createObjectURL(blob), download: "mcp-traffic.json" });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  }
}

/** Text a filter searches: kind, method, URL, "HTTP <status>", JSON-RPC methods, headers, body. */
function haystack(e) {
  if (!e.hay) {
    e.hay = `${e.type} ${e.method ?? ""} ${e.url ?? ""} ${e.status !== undefined ? `HTTP ${e.status}` : ""} ${e.messages.join(" ")} ${e.body ?? ""} ${e.text ?? ""} ${e.error ?? ""} ${JSON.stringify(e.headers ?? [])}`.toLowerCase();
  }
  return e.hay;
}

/** The path (and query) of a URL; the full URL is in the row's tooltip. */
function shortUrl(url) {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

function contentType(headers) {
  const ct = (headers ?? []).find(([k]) => k.toLowerCase() === "content-type");
  return ct ? h("span.hint", {}, ct[1]) : null;
}
