//! Transcripts: every JSON-RPC message in and out, the session's events and the scenario's steps,
//! in order; their normalisation (transport-only fields removed) and a readable diff.
//!
//! The format is documented in `tests/scenarios/README.md` so that a recorder in another
//! language (the wasm client in a browser) can produce the same normalised form.

use std::collections::HashMap;
use std::time::Instant;

use mcp_edge::proto::session::{Era, Event, OpId, ProtocolError};
use serde_json::{json, Map, Value};

/// The format tag written into every transcript file.
pub const FORMAT: &str = "mcp-edge-transcript/1";

/// Notifications a server may send at any time, unrelated to a request: whether and when they
/// arrive depends on the channel (stdio has one shared channel; 2025-era HTTP delivers them only
/// on the optional GET stream, and only while it is open), so normalisation drops them.
pub const UNSOLICITED: [&str; 4] = [
    "notifications/tools/list_changed",
    "notifications/prompts/list_changed",
    "notifications/resources/list_changed",
    "notifications/resources/updated",
];

/// Records a raw transcript.
#[derive(Debug)]
pub struct Recorder {
    epoch: Instant,
    entries: Vec<Value>,
    steps: HashMap<OpId, usize>,
    transport: String,
}

impl Recorder {
    /// A recorder for a transport named `transport` (`stdio`, `http`, `browser`).
    pub fn new(transport: &str) -> Self {
        Recorder {
            epoch: Instant::now(),
            entries: Vec::new(),
            steps: HashMap::new(),
            transport: transport.to_string(),
        }
    }

    fn push(&mut self, mut entry: Map<String, Value>) {
        let t = u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX);
        entry.insert("t_ms".into(), Value::from(t));
        self.entries.push(Value::Object(entry));
    }

    /// Ties `op` to scenario step `step`, so its events name the step: the later ones, and those
    /// recorded since the step began (the driver may report an op's first events while starting
    /// it, before its id is known to be labelled).
    pub fn label(&mut self, op: OpId, step: usize) {
        self.steps.insert(op, step);
        for e in self.entries.iter_mut().rev() {
            if e.get("do").is_some() {
                break;
            }
            let Some(m) = e.as_object_mut() else { continue };
            if m.get("op").and_then(Value::as_u64) == Some(op.0)
                && m.get("step").is_some_and(Value::is_null)
            {
                m.insert("step".into(), Value::from(step));
            }
        }
    }

    /// A scenario step begins.
    pub fn step(&mut self, index: usize, step: &Value) {
        let mut m = Map::new();
        m.insert("step".into(), Value::from(index));
        m.insert("do".into(), step.clone());
        self.push(m);
    }

    /// A message the client sent. `exchange` is the HTTP exchange carrying it (transport-only).
    pub fn sent(&mut self, msg: Value, exchange: Option<u64>) {
        self.message("out", msg, exchange);
    }

    /// A message the client received.
    pub fn received(&mut self, msg: Value, exchange: Option<u64>) {
        self.message("in", msg, exchange);
    }

    fn message(&mut self, dir: &str, msg: Value, exchange: Option<u64>) {
        let mut m = Map::new();
        m.insert("dir".into(), Value::from(dir));
        m.insert("msg".into(), msg);
        if let Some(x) = exchange {
            m.insert("exchange".into(), Value::from(x));
        }
        self.push(m);
    }

    /// A transport-level fact (HTTP status, process exit, unparsable output). Dropped by
    /// normalisation.
    pub fn transport(&mut self, detail: Value) {
        let mut m = Map::new();
        m.insert("transport".into(), detail);
        self.push(m);
    }

    /// A session event.
    pub fn event(&mut self, ev: &Event) {
        let step = |op: &OpId| self.steps.get(op).copied();
        let v = match ev {
            Event::Connected(info) => json!({
                "event": "connected",
                "era": era_name(info.era),
                "protocolVersion": info.protocol_version,
                "serverInfo": info.server_info,
                "capabilities": info.capabilities,
                "instructions": info.instructions,
            }),
            Event::Completed { op, result } => {
                let mut m = json!({"event": "completed", "op": op.0, "step": step(op)});
                match result {
                    Ok(v) => m["result"] = v.clone(),
                    Err(e) => m["error"] = error_json(e),
                }
                m
            }
            Event::Progress {
                op,
                progress,
                total,
                message,
            } => json!({
                "event": "progress", "op": op.0, "step": step(op),
                "progress": progress, "total": total, "message": message,
            }),
            Event::Notification { method, params } => {
                json!({"event": "notification", "method": method, "params": params})
            }
            Event::InputRequest {
                input,
                op,
                method,
                params,
            } => json!({
                "event": "input_request", "input": input.0, "op": op.map(|o| o.0),
                "step": op.as_ref().and_then(step), "method": method, "params": params,
            }),
            Event::InputCancelled { input } => {
                json!({"event": "input_cancelled", "input": input.0})
            }
            Event::ToolRejected { name, reason } => {
                json!({"event": "tool_rejected", "name": name, "reason": reason})
            }
            Event::Diagnostic { message } => json!({"event": "diagnostic", "message": message}),
            Event::Closed => json!({"event": "closed"}),
            other => json!({"event": "other", "debug": format!("{other:?}")}),
        };
        if let Value::Object(m) = v {
            self.push(m);
        }
    }

    /// The raw entries so far.
    pub fn entries(&self) -> &[Value] {
        &self.entries
    }

    /// The raw transcript as a JSON document.
    pub fn to_json(&self, scenario: Option<&str>) -> Value {
        json!({
            "format": FORMAT,
            "scenario": scenario,
            "transport": self.transport,
            "entries": self.entries,
        })
    }
}

fn era_name(era: Era) -> &'static str {
    match era {
        Era::Modern => "modern",
        Era::Legacy => "legacy",
    }
}

/// How an error appears in a transcript: its stable code, its text, and for server errors the
/// JSON-RPC code and message.
pub fn error_json(e: &ProtocolError) -> Value {
    let mut v = json!({"code": e.code(), "message": e.to_string()});
    if let ProtocolError::Rpc { code, message, .. } = e {
        v["rpc"] = json!({"code": code, "message": message});
    }
    v
}

/// Normalises raw entries: drops timestamps, exchange numbers, op and input numbers, transport
/// facts, diagnostics and `closed` events; strips JSON-RPC ids, progress tokens, cancelled request
/// ids, subscription ids, session ids and opaque `requestState` tokens; drops unsolicited
/// notifications ([`UNSOLICITED`]) and the client's `notifications/cancelled` (how a cancellation
/// travels differs by transport); collapses a failed era-detection probe into one marker.
/// Message order and content are otherwise kept.
pub fn normalise(raw: &[Value]) -> Vec<Value> {
    let probe = failed_probe(raw);
    let mut out = Vec::new();
    for (i, e) in raw.iter().enumerate() {
        if let Some((req, resp)) = probe {
            if i == req {
                out.push(json!({"probe": "server/discover", "outcome": "legacy"}));
                continue;
            }
            if Some(i) == resp {
                continue;
            }
        }
        let Some(m) = e.as_object() else { continue };
        if m.contains_key("transport") {
            continue;
        }
        if let Some(msg) = m.get("msg") {
            if is_unsolicited(msg.get("method")) {
                continue;
            }
            // How a cancellation travels is transport-specific: a `notifications/cancelled`
            // message on stdio and in the 2025 era, closing the response stream over 2026-07-28
            // HTTP (MCP 2026-07-28 `basic/patterns/cancellation`). The `completed` event with
            // `ABORTED` is what stays.
            if msg.get("method").and_then(Value::as_str) == Some("notifications/cancelled")
                && m.get("dir").and_then(Value::as_str) == Some("out")
            {
                continue;
            }
            let mut msg = msg.clone();
            strip_message(&mut msg);
            out.push(json!({"dir": m.get("dir"), "msg": msg}));
            continue;
        }
        if let Some(ev) = m.get("event").and_then(Value::as_str) {
            if matches!(ev, "diagnostic" | "closed") {
                continue;
            }
            if ev == "notification" && is_unsolicited(m.get("method")) {
                continue;
            }
            let mut m = m.clone();
            for k in ["t_ms", "op", "input"] {
                m.remove(k);
            }
            // Which request a 2025-era server request belongs to is known from the response stream
            // it arrived on over HTTP; stdio has one shared channel and cannot tell.
            if ev == "input_request" {
                m.remove("step");
            }
            if let Some(p) = m.get_mut("params") {
                strip_meta_ids(p);
            }
            if let Some(r) = m.get_mut("result") {
                strip_opaque(r);
            }
            out.push(Value::Object(m));
            continue;
        }
        let mut m = m.clone();
        m.remove("t_ms");
        out.push(Value::Object(m));
    }
    out.into_iter().map(canonical).collect()
}

/// The same value with every object's keys sorted, so printed transcripts line up, and every
/// integral float written as an integer (`4.0` -> `4`), as a JavaScript recorder would write it.
pub fn canonical(v: Value) -> Value {
    match v {
        Value::Number(n) if n.is_f64() => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0 => {
                Value::from(f as i64)
            }
            _ => Value::Number(n),
        },
        Value::Object(m) => {
            let mut entries: Vec<(String, Value)> = m.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k, canonical(v)))
                    .collect(),
            )
        }
        Value::Array(a) => Value::Array(a.into_iter().map(canonical).collect()),
        v => v,
    }
}

fn is_unsolicited(method: Option<&Value>) -> bool {
    method
        .and_then(Value::as_str)
        .is_some_and(|m| UNSOLICITED.contains(&m))
}

/// Finds a `server/discover` request that failed (an error reply or none) before the client fell
/// back to `initialize`: (index of the request, index of its error reply). The shape of that
/// failure is transport-specific (an HTTP status, a JSON-RPC error, a probe timeout on stdio).
fn failed_probe(raw: &[Value]) -> Option<(usize, Option<usize>)> {
    let is = |e: &Value, dir: &str| e.get("dir").and_then(Value::as_str) == Some(dir);
    let req = raw.iter().position(|e| {
        is(e, "out") && e["msg"].get("method").and_then(Value::as_str) == Some("server/discover")
    })?;
    let id = raw[req]["msg"].get("id")?.clone();
    let init = raw.iter().skip(req).position(|e| {
        is(e, "out") && e["msg"].get("method").and_then(Value::as_str) == Some("initialize")
    })?;
    let reply = raw
        .iter()
        .enumerate()
        .skip(req)
        .take(init + 1)
        .find(|(_, e)| {
            // An HTTP error body may carry `id: null` (JSON-RPC 2.0 § 5 when the id is unknown).
            let rid = e["msg"].get("id");
            is(e, "in")
                && (rid == Some(&id)
                    || (rid.is_none_or(Value::is_null) && e["msg"].get("error").is_some()))
        })
        .map(|(i, _)| i);
    match reply {
        Some(i) if raw[i]["msg"].get("result").is_some() => None,
        r => Some((req, r)),
    }
}

/// Removes the fields of a message that identify the exchange rather than its content.
fn strip_message(msg: &mut Value) {
    let Some(m) = msg.as_object_mut() else { return };
    m.remove("id");
    let method = m.get("method").and_then(Value::as_str).map(str::to_string);
    if let Some(params) = m.get_mut("params").and_then(Value::as_object_mut) {
        match method.as_deref() {
            Some("notifications/progress") => {
                params.remove("progressToken");
            }
            Some("notifications/cancelled") => {
                params.remove("requestId");
            }
            _ => {}
        }
        if params.contains_key("requestState") {
            params.insert("requestState".into(), Value::from("<opaque>"));
        }
    }
    if let Some(p) = m.get_mut("params") {
        strip_meta_ids(p);
    }
    if let Some(r) = m.get_mut("result") {
        strip_meta_ids(r);
        strip_opaque(r);
    }
}

/// Removes `_meta.progressToken` and `_meta["io.modelcontextprotocol/subscriptionId"]`.
fn strip_meta_ids(v: &mut Value) {
    if let Some(meta) = v.get_mut("_meta").and_then(Value::as_object_mut) {
        meta.remove("progressToken");
        meta.remove("io.modelcontextprotocol/subscriptionId");
        if meta.is_empty() {
            if let Some(o) = v.as_object_mut() {
                o.remove("_meta");
            }
        }
    }
}

/// Replaces server-minted opaque tokens (MRTR `requestState`) with a placeholder.
fn strip_opaque(v: &mut Value) {
    if let Some(o) = v.as_object_mut() {
        if o.contains_key("requestState") {
            o.insert("requestState".into(), Value::from("<opaque>"));
        }
    }
}

/// A unified diff of two normalised transcripts (each entry pretty-printed), or `None` when they
/// are equal. `a_name` and `b_name` label the sides.
pub fn diff(a: &[Value], b: &[Value], a_name: &str, b_name: &str) -> Option<String> {
    if a == b {
        return None;
    }
    let lines = |t: &[Value]| -> Vec<String> {
        let mut out = Vec::new();
        for (i, e) in t.iter().enumerate() {
            let text = serde_json::to_string_pretty(e).unwrap_or_default();
            for (j, l) in text.lines().enumerate() {
                out.push(if j == 0 {
                    format!("#{i:<3} {l}")
                } else {
                    format!("     {l}")
                });
            }
        }
        out
    };
    let (la, lb) = (lines(a), lines(b));
    Some(unified(&la, &lb, a_name, b_name, 3))
}

/// A line diff (longest common subsequence) printed as unified hunks with `context` lines.
fn unified(a: &[String], b: &[String], a_name: &str, b_name: &str, context: usize) -> String {
    // Bound the quadratic table; beyond it, report the first differing line only.
    const MAX_CELLS: usize = 16_000_000;
    let mut out = format!("--- {a_name}\n+++ {b_name}\n");
    if (a.len() + 1).saturating_mul(b.len() + 1) > MAX_CELLS {
        let i = a
            .iter()
            .zip(b)
            .position(|(x, y)| x != y)
            .unwrap_or(a.len().min(b.len()));
        out.push_str(&format!(
            "@@ transcripts too long for a full diff; first difference at line {} @@\n-{}\n+{}\n",
            i + 1,
            a.get(i).map_or("<end>", String::as_str),
            b.get(i).map_or("<end>", String::as_str)
        ));
        return out;
    }
    let (n, m) = (a.len(), b.len());
    let mut lcs = vec![0u32; (n + 1) * (m + 1)];
    let at = |i: usize, j: usize| i * (m + 1) + j;
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[at(i, j)] = if a[i] == b[j] {
                lcs[at(i + 1, j + 1)] + 1
            } else {
                lcs[at(i + 1, j)].max(lcs[at(i, j + 1)])
            };
        }
    }
    // The edit script: (' ' | '-' | '+', line).
    let mut ops: Vec<(char, &str)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            ops.push((' ', &a[i]));
            i += 1;
            j += 1;
        } else if j < m && (i == n || lcs[at(i, j + 1)] >= lcs[at(i + 1, j)]) {
            ops.push(('+', &b[j]));
            j += 1;
        } else {
            ops.push(('-', &a[i]));
            i += 1;
        }
    }
    // Print the changed regions with context.
    let changed: Vec<usize> = ops
        .iter()
        .enumerate()
        .filter(|(_, (c, _))| *c != ' ')
        .map(|(k, _)| k)
        .collect();
    let mut k = 0;
    while k < changed.len() {
        let start = changed[k].saturating_sub(context);
        let mut end = changed[k];
        while k < changed.len() && changed[k] <= end + 2 * context + 1 {
            end = changed[k];
            k += 1;
        }
        let end = (end + context + 1).min(ops.len());
        out.push_str(&format!("@@ edit {}..{} @@\n", start + 1, end));
        for (c, l) in &ops[start..end] {
            out.push(*c);
            out.push_str(l);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalise_strips_transport_fields_and_keeps_order() {
        let raw = vec![
            json!({"t_ms": 1, "step": 0, "do": {"op": "call"}}),
            json!({"t_ms": 2, "dir": "out", "exchange": 4, "msg": {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                "params": {"name": "x", "_meta": {"progressToken": 9}}}}),
            json!({"t_ms": 3, "transport": {"http": {"status": 200}}}),
            json!({"t_ms": 4, "dir": "in", "msg": {"jsonrpc": "2.0", "method": "notifications/progress",
                "params": {"progressToken": 9, "progress": 1}}}),
            json!({"t_ms": 4, "dir": "in", "msg": {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}}),
            json!({"t_ms": 5, "event": "progress", "op": 3, "step": 0, "progress": 1.0}),
            json!({"t_ms": 6, "event": "diagnostic", "message": "x"}),
            json!({"t_ms": 7, "dir": "in", "msg": {"jsonrpc": "2.0", "id": 7, "result": {"content": []}}}),
            json!({"t_ms": 8, "event": "completed", "op": 3, "step": 0, "result": {"content": []}}),
        ];
        let n = normalise(&raw);
        assert_eq!(
            n,
            vec![
                json!({"step": 0, "do": {"op": "call"}}),
                json!({"dir": "out", "msg": {"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "x"}}}),
                json!({"dir": "in", "msg": {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progress": 1}}}),
                json!({"event": "progress", "step": 0, "progress": 1}),
                json!({"dir": "in", "msg": {"jsonrpc": "2.0", "result": {"content": []}}}),
                json!({"event": "completed", "step": 0, "result": {"content": []}}),
            ]
        );
    }

    #[test]
    fn a_failed_probe_collapses_to_a_marker() {
        let out = |id: i64, method: &str| json!({"dir": "out", "msg": {"jsonrpc": "2.0", "id": id, "method": method}});
        let stdio = vec![
            out(1, "server/discover"),
            json!({"dir": "in", "msg": {"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}}}),
            out(2, "initialize"),
        ];
        let http = vec![
            out(1, "server/discover"),
            json!({"transport": {"status": 400}}),
            out(2, "initialize"),
        ];
        assert_eq!(normalise(&stdio), normalise(&http));
        assert_eq!(
            normalise(&http)[0],
            json!({"probe": "server/discover", "outcome": "legacy"})
        );
        // A successful discover is kept.
        let modern = vec![
            out(1, "server/discover"),
            json!({"dir": "in", "msg": {"jsonrpc": "2.0", "id": 1, "result": {}}}),
        ];
        assert_eq!(normalise(&modern).len(), 2);
    }

    #[test]
    fn diff_shows_the_changed_field() {
        let a = vec![json!({"dir": "in", "msg": {"result": {"text": "Echo: hi"}}})];
        let b = vec![json!({"dir": "in", "msg": {"result": {"text": "Echo: ho"}}})];
        let d = diff(&a, &b, "stdio", "http").unwrap();
        assert!(d.contains("-           \"text\": \"Echo: hi\""), "{d}");
        assert!(d.contains("+           \"text\": \"Echo: ho\""), "{d}");
        assert!(d.starts_with("--- stdio\n+++ http\n"));
        assert!(diff(&a, &a, "x", "y").is_none());
    }
}
