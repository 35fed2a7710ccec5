//! The transcript's view of the traffic: the driver's observer ([`Traffic`]) decoded into the
//! messages the client sent and received (the session decodes the same bytes itself), plus the
//! transport facts no message carries.
//!
//! ```text
//!   Request body, LineOut ─► sent        Head ─► a body tap per exchange (SSE, JSON, ignore)
//!   Body ─► the exchange's tap ─► received       StdoutIn ─► NDJSON tap ─► received
//! ```
//!
//! The driver observes bytes before the session handles them, so each message is recorded right
//! before the events it causes.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use mcp_edge::client::Traffic;
use mcp_edge::proto::http::{is_event_stream, is_json, ResponseHead};
use mcp_edge::proto::{ndjson, sse};
use serde_json::{json, Value};

use crate::transcript::Recorder;

/// Largest body the tap buffers for one exchange (the session has its own limit).
const TAP_LIMIT: usize = 16 << 20;

/// Decodes what an HTTP exchange carries into messages.
enum BodyTap {
    Json(Vec<u8>),
    Sse(Box<sse::Decoder>),
    Ignore,
}

/// Records the traffic of one client.
pub struct Tap {
    recorder: Rc<RefCell<Recorder>>,
    sse: sse::DecoderConfig,
    bodies: RefCell<HashMap<u64, BodyTap>>,
    stdout: RefCell<ndjson::Decoder>,
}

impl Tap {
    /// A tap into `recorder`; SSE decoded with `sse`, stdout lines of at most `max_line` bytes.
    pub fn new(recorder: Rc<RefCell<Recorder>>, sse: sse::DecoderConfig, max_line: usize) -> Self {
        Tap {
            recorder,
            sse,
            bodies: RefCell::default(),
            stdout: RefCell::new(ndjson::Decoder::new(max_line)),
        }
    }

    fn note(&self, detail: Value) {
        self.recorder.borrow_mut().transport(detail);
    }

    fn sent(&self, bytes: &[u8], exchange: Option<u64>) {
        match serde_json::from_slice::<Value>(bytes) {
            Ok(v) => self.recorder.borrow_mut().sent(v, exchange),
            Err(e) => self.note(json!({"unparsable_out": e.to_string()})),
        }
    }

    /// Records one observed piece of traffic.
    pub fn observe(&self, t: &Traffic) {
        match t {
            Traffic::Request { exchange, request } => {
                self.note(json!({"http": {
                    "exchange": exchange, "method": request.method.as_str(), "url": request.url,
                }}));
                if let Some(body) = &request.body {
                    self.sent(body.as_bytes(), Some(*exchange));
                }
                self.bodies.borrow_mut().insert(*exchange, BodyTap::Ignore);
            }
            Traffic::Head { exchange, head } => {
                self.note(json!({"http": {
                    "exchange": exchange, "status": head.status,
                    "contentType": head.header("content-type"),
                }}));
                if let Some(tap) = self.bodies.borrow_mut().get_mut(exchange) {
                    *tap = tap_for(head, self.sse);
                }
            }
            Traffic::Body { exchange, bytes } => self.body(*exchange, bytes),
            Traffic::End { exchange, error } => {
                let tap = self.bodies.borrow_mut().remove(exchange);
                match error.as_deref() {
                    None => {
                        if let Some(BodyTap::Json(buf)) = tap {
                            self.json(*exchange, &buf);
                        }
                    }
                    Some("aborted") => {
                        self.note(json!({"http": {"exchange": exchange, "aborted": true}}))
                    }
                    Some(e) => self.note(json!({"http": {"exchange": exchange, "failed": e}})),
                }
            }
            Traffic::LineOut { line } => self.sent(line, None),
            Traffic::StdoutIn { bytes } => {
                let items = self.stdout.borrow_mut().feed(bytes);
                for item in items {
                    match item {
                        Ok(msg) => self.recorder.borrow_mut().received(msg.to_value(), None),
                        Err(e) => self.note(json!({"stdout_not_jsonrpc": format!("{e:?}")})),
                    }
                }
            }
        }
    }

    fn body(&self, exchange: u64, bytes: &[u8]) {
        let mut msgs = Vec::new();
        match self.bodies.borrow_mut().get_mut(&exchange) {
            Some(BodyTap::Json(buf)) if buf.len() + bytes.len() <= TAP_LIMIT => {
                buf.extend_from_slice(bytes);
            }
            Some(BodyTap::Sse(dec)) => {
                for ev in dec.feed(bytes).flatten() {
                    if !ev.data.is_empty() {
                        msgs.push(ev.data);
                    }
                }
            }
            _ => {}
        }
        for data in msgs {
            match serde_json::from_str::<Value>(&data) {
                Ok(v) => self.recorder.borrow_mut().received(v, Some(exchange)),
                Err(_) => self.note(json!({"sse_data_not_json": data})),
            }
        }
    }

    fn json(&self, exchange: u64, buf: &[u8]) {
        match serde_json::from_slice::<Value>(buf) {
            Ok(v) if v.get("jsonrpc").is_some() => {
                self.recorder.borrow_mut().received(v, Some(exchange))
            }
            _ => self.note(json!({"http": {
                "exchange": exchange,
                "body": String::from_utf8_lossy(&buf[..buf.len().min(4096)]),
            }})),
        }
    }
}

fn tap_for(head: &ResponseHead, cfg: sse::DecoderConfig) -> BodyTap {
    let ct = head.header("content-type").unwrap_or("");
    if is_event_stream(ct) && (200..300).contains(&head.status) {
        BodyTap::Sse(Box::new(sse::Decoder::new(cfg)))
    } else if is_json(ct) {
        // Error statuses with a JSON-RPC error body are messages too.
        BodyTap::Json(Vec::new())
    } else {
        BodyTap::Ignore
    }
}
