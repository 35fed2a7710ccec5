// The browser leg's transcript recorder: builds the raw `mcp-edge-transcript/1` entries
// (tests/scenarios/README.md) from what the wasm client's public API shows: `onTraffic` records
// (request bodies, response heads, body text, ends) and the results, errors, progress, inputs and
// notifications the runner sees. Normalisation is not done here: the Rust harness normalises the
// raw entries with its own code, so there is one normaliser.

import { SseDecoder } from "./sse.mjs";

/** Most body text buffered for one JSON response (the Rust recorder's tap limit). */
const JSON_TAP_LIMIT = 16 << 20;

/** `media-type` of a Content-Type value, lower-cased, parameters dropped (RFC 9110 § 8.3). */
function mediaType(contentType) {
  return (contentType ?? "").split(";")[0].trim().toLowerCase();
}

function header(headers, name) {
  const hit = (headers ?? []).find(([n]) => n.toLowerCase() === name);
  return hit ? hit[1] : null;
}

export class Recorder {
  constructor() {
    this.epoch = performance.now();
    this.entries = [];
    /** exchange -> {kind: "json", text} | {kind: "sse", decoder} | {kind: "ignore"} */
    this.taps = new Map();
    /** The scenario step running now (set by the runner), and the step each exchange began in. */
    this.currentStep = null;
    this.exchangeStep = new Map();
    /** The exchange of the last message received. */
    this.lastInExchange = null;
  }

  push(entry) {
    entry.t_ms = Math.round(performance.now() - this.epoch);
    this.entries.push(entry);
  }

  /** Step `index` begins; `step` is the step object as written. */
  step(index, step) {
    this.push({ step: index, do: step });
  }

  /** A session event (`connected`, `completed`, `progress`, `input_request`, ...). */
  event(kind, fields) {
    this.push({ event: kind, ...fields });
  }

  transport(detail) {
    this.push({ transport: detail });
  }

  message(dir, msg, exchange) {
    if (dir === "in") this.lastInExchange = exchange;
    this.push({ dir, msg, exchange });
  }

  /**
   * The step that began the exchange which carried the last received message, or null: an
   * input request (MRTR round, 2025-era server request) belongs to the operation whose response
   * stream carried it (MCP 2025-11-25 `basic/transports`: "related to the originating client
   * request"); one on the GET stream belongs to none.
   */
  lastInStep() {
    return this.exchangeStep.get(this.lastInExchange) ?? null;
  }

  /** The `onTraffic` observer: called before the events a chunk causes are delivered. */
  traffic(record) {
    const ex = record.exchange;
    switch (record.type) {
      case "request": {
        this.transport({ http: { exchange: ex, method: record.method, url: record.url } });
        this.taps.set(ex, { kind: "ignore" });
        this.exchangeStep.set(ex, this.currentStep);
        if (record.body !== null && record.body !== undefined) {
          try {
            this.message("out", JSON.parse(record.body), ex);
          } catch (e) {
            this.transport({ unparsable_out: String(e) });
          }
        }
        break;
      }
      case "head": {
        const contentType = header(record.headers, "content-type");
        this.transport({ http: { exchange: ex, status: record.status, contentType } });
        if (!this.taps.has(ex)) break;
        const type = mediaType(contentType);
        const ok = record.status >= 200 && record.status < 300;
        if (type === "text/event-stream" && ok) {
          this.taps.set(ex, { kind: "sse", decoder: new SseDecoder() });
        } else if (type === "application/json") {
          // Error statuses with a JSON-RPC error body are messages too.
          this.taps.set(ex, { kind: "json", text: "" });
        } else {
          this.taps.set(ex, { kind: "ignore" });
        }
        break;
      }
      case "body": {
        const tap = this.taps.get(ex);
        if (!tap) break;
        if (tap.kind === "json") {
          if (tap.text.length + record.text.length <= JSON_TAP_LIMIT) tap.text += record.text;
        } else if (tap.kind === "sse") {
          let events;
          try {
            events = tap.decoder.feed(record.text);
          } catch (e) {
            this.transport({ http: { exchange: ex, sse_error: String(e) } });
            this.taps.set(ex, { kind: "ignore" });
            break;
          }
          for (const ev of events) {
            if (ev.data === "") continue; // priming events
            let msg;
            try {
              msg = JSON.parse(ev.data);
            } catch {
              this.transport({ sse_data_not_json: ev.data });
              continue;
            }
            this.message("in", msg, ex);
          }
        }
        break;
      }
      case "end": {
        const tap = this.taps.get(ex);
        this.taps.delete(ex);
        if (record.error !== null && record.error !== undefined) {
          // Aborted or failed: like the Rust recorder, a half-read JSON body is not a message.
          this.transport({ http: { exchange: ex, ended: record.error } });
          break;
        }
        if (tap?.kind === "json") {
          let v;
          try {
            v = JSON.parse(tap.text);
          } catch {
            v = undefined;
          }
          if (v !== null && typeof v === "object" && !Array.isArray(v) && "jsonrpc" in v) {
            this.message("in", v, ex);
          } else {
            this.transport({ http: { exchange: ex, body: tap.text.slice(0, 4096) } });
          }
        } else if (tap?.kind === "sse") {
          tap.decoder.finish();
        }
        break;
      }
      default:
        this.transport({ unknown_traffic: record });
    }
  }

  /** The raw transcript document. */
  toJSON(scenario) {
    return { format: "mcp-edge-transcript/1", scenario, transport: "browser", entries: this.entries.slice() };
  }
}
