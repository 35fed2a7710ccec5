//! What only the 2025 era has (MCP 2025-11-25 `basic/transports`, `basic/lifecycle`): the GET
//! stream, server-to-client requests, session expiry and DELETE; plus notification handling.

use serde_json::{json, Map, Value};

use super::exchange::{Exchange, Purpose};
use super::{
    ConnectStep, Era, Event, ExchangeId, InputId, InputSlot, OpId, OpKind, Phase, ProtocolError,
    RequestOptions, Session,
};
use crate::proto::http::{mime, names, Method};
use crate::proto::jsonrpc::{
    codes, ErrorObject, ErrorResponse, Message, Notification, Request, Response,
};

/// Most of the client's own answers to server requests (pings, refusals) in flight at once.
const MAX_OPEN_REPLIES: usize = 64;

impl Session {
    /// Adds the headers every 2025-era request after `initialize` carries.
    pub(super) fn legacy_headers(&self, headers: &mut Vec<(String, String)>) {
        headers.push((names::MCP_PROTOCOL_VERSION.into(), self.version.clone()));
        if let Some(sid) = &self.session_id {
            headers.push((names::MCP_SESSION_ID.into(), sid.clone()));
        }
        self.add_user_headers(headers);
    }

    /// Opens (or re-opens) the optional GET stream, resuming from the last event id if any.
    pub(super) fn open_get_stream(&mut self, _now: u64) {
        if self.phase != Phase::Connected || self.era != Some(Era::Legacy) {
            return;
        }
        let Some(g) = &self.get_stream else { return };
        let mut headers = vec![(names::ACCEPT.to_string(), mime::EVENT_STREAM.to_string())];
        if let Some(id) = &g.last_event_id {
            headers.push((names::LAST_EVENT_ID.into(), id.clone()));
        }
        self.legacy_headers(&mut headers);
        let ex = self.send_bodiless(Method::Get, headers, Purpose::GetStream, None);
        if let Some(g) = &mut self.get_stream {
            g.exchange = Some(ex);
        }
    }

    /// A server-to-client request (2025 era only: 2026 servers MUST NOT send them).
    pub(super) fn server_request(&mut self, r: Request, from: ExchangeId, _now: u64) {
        if self.era == Some(Era::Modern) {
            self.events.push_back(Event::Diagnostic {
                message: format!(
                    "ignored a {} request: 2026-07-28 servers must not send requests",
                    r.method
                ),
            });
            return;
        }
        match r.method.as_str() {
            "ping" => self.reply(Message::Response(Response {
                id: r.id,
                result: json!({}),
                extra: Map::new(),
            })),
            "elicitation/create" | "sampling/createMessage" | "roots/list"
                if self.inputs.len() >= super::MAX_OPEN_INPUTS =>
            {
                // A server that floods the client with requests gets errors, not unbounded state.
                let error = ErrorObject {
                    code: codes::INTERNAL_ERROR,
                    message: format!(
                        "too many unanswered requests (at most {} at once)",
                        super::MAX_OPEN_INPUTS
                    ),
                    data: None,
                };
                self.reply(Message::Error(ErrorResponse {
                    id: Some(r.id),
                    error,
                    extra: Map::new(),
                }))
            }
            "elicitation/create" | "sampling/createMessage" | "roots/list" => {
                let input = InputId(self.next_input);
                self.next_input += 1;
                // MCP 2025-11-25 `basic/utilities/tasks`: a request for a task names it; the
                // answer names it too.
                let task = r
                    .params
                    .as_ref()
                    .and_then(|p| p.get("_meta"))
                    .and_then(|m| m.get(super::META_RELATED_TASK))
                    .and_then(|t| t.get("taskId"))
                    .and_then(Value::as_str)
                    .map(str::to_string);
                // A request on a request's stream belongs to that request (MCP 2025-11-25
                // `basic/transports`: "related to the originating client request"); one on the
                // GET stream to the task it names ("clients SHOULD expect messages to be
                // delivered on any SSE stream, including the HTTP GET stream").
                let op = match self.exchanges.get(&from).map(|x| &x.purpose) {
                    Some(Purpose::Rpc { op, .. } | Purpose::Resume { op }) => Some(*op),
                    _ => task.as_deref().and_then(|id| self.task_op(id)),
                };
                if let Some(o) = op.and_then(|op| self.ops.get_mut(&op)) {
                    o.user_inputs_open += 1;
                }
                self.inputs
                    .insert(input, InputSlot::ServerRequest { id: r.id, op, task });
                let params = r.params.unwrap_or(Value::Object(Map::new()));
                self.events.push_back(Event::InputRequest {
                    input,
                    op,
                    method: r.method,
                    params,
                });
            }
            _ => {
                let error = ErrorObject {
                    code: codes::METHOD_NOT_FOUND,
                    message: format!("client does not implement {}", r.method),
                    data: None,
                };
                self.reply(Message::Error(ErrorResponse {
                    id: Some(r.id),
                    error,
                    extra: Map::new(),
                }))
            }
        }
    }

    /// POSTs the client's own answer to a server request (a ping, a refusal). At most
    /// [`MAX_OPEN_REPLIES`] of them wait for the server to take them: a server that floods
    /// requests and leaves the answers unaccepted gets no more, and a diagnostic says so.
    fn reply(&mut self, msg: Message) {
        let open = self
            .exchanges
            .values()
            .filter(|e| e.purpose == Purpose::Reply)
            .count();
        if open >= MAX_OPEN_REPLIES {
            self.events.push_back(Event::Diagnostic {
                message: format!(
                    "did not answer a server request: {MAX_OPEN_REPLIES} answers already wait for the server to accept them"
                ),
            });
            return;
        }
        let req = self.post(&msg, None);
        self.new_exchange(Exchange::new(Purpose::Reply), req);
    }

    /// A server notification.
    pub(super) fn notification(&mut self, n: Notification, now: u64) {
        let mut params = n.params.unwrap_or(Value::Object(Map::new()));
        match n.method.as_str() {
            // MCP `basic/utilities/progress`: progress MUST increase; the token maps to the op.
            "notifications/progress" => {
                let token = params.get("progressToken").and_then(Value::as_i64);
                let Some(op) = token.and_then(|t| self.progress.get(&t).copied()) else {
                    return;
                };
                let Some(progress) = params.get("progress").and_then(Value::as_f64) else {
                    return;
                };
                let Some(o) = self.ops.get_mut(&op) else {
                    return;
                };
                if o.last_progress.is_some_and(|p| progress <= p) {
                    self.events.push_back(Event::Diagnostic {
                        // The number as the server wrote it: formatting the `f64` would
                        // link `core`'s float printer (15 KB of wasm) for this one message.
                        message: format!(
                            "ignored non-increasing progress {}",
                            crate::util::json::json_text(&params["progress"])
                        ),
                    });
                    return;
                }
                o.last_progress = Some(progress);
                // "Reset on progress": activity moves the inactivity deadline.
                o.activity = now;
                self.events.push_back(Event::Progress {
                    op,
                    progress,
                    total: params.get("total").and_then(Value::as_f64),
                    // Moved out of the parsed notification, not copied: it can be as long as
                    // the event.
                    message: match params.get_mut("message").map(Value::take) {
                        Some(Value::String(m)) => Some(m),
                        _ => None,
                    },
                });
                return;
            }
            // A task's status changed: its op polls now (2025-11-25 `notifications/tasks/status`;
            // the extension's `notifications/tasks`).
            "notifications/tasks/status" | "notifications/tasks" => {
                self.task_notified(&params, now)
            }
            "notifications/tools/list_changed" => {
                self.cache.invalidate_method("tools/list");
                self.tools_listed = false;
            }
            "notifications/prompts/list_changed" => self.cache.invalidate_method("prompts/list"),
            "notifications/resources/list_changed" => {
                self.cache.invalidate_method("resources/list");
                self.cache.invalidate_method("resources/templates/list");
            }
            "notifications/resources/updated" => {
                if let Some(uri) = params.get("uri").and_then(Value::as_str) {
                    self.cache.invalidate_resource(uri);
                }
            }
            "notifications/cancelled" => {
                if let Some(rid) = params.get("requestId") {
                    if let Ok(Message::Request(r)) = Message::from_value(json!({
                        "jsonrpc": "2.0", "id": rid, "method": "x"
                    })) {
                        self.cancel_server_request(&r.id);
                    }
                }
            }
            "notifications/subscriptions/acknowledged" => {
                let sub = params
                    .get("_meta")
                    .and_then(|m| m.get(super::META_SUBSCRIPTION_ID))
                    .cloned();
                let op = sub.and_then(|s| {
                    self.pending
                        .iter()
                        .find(|(rid, _)| rid.to_value() == s)
                        .map(|(_, op)| *op)
                });
                if let Some(o) = op.and_then(|op| self.ops.get_mut(&op)) {
                    o.attempts = 0;
                }
            }
            _ => {}
        }
        self.events.push_back(Event::Notification {
            method: n.method,
            params,
        });
    }

    /// The server ended the 2025-era session (HTTP 404): start a new one, and make `op` (if any)
    /// wait for it and replay (MCP 2025-11-25 `basic/transports` "Session Management").
    pub(super) fn session_expired(&mut self, op: Option<OpId>, now: u64) {
        let reinit = match self.phase {
            Phase::Reinitializing(r) => r,
            Phase::Connected => {
                self.session_id = None;
                if let Some(ex) = self.get_stream.as_mut().and_then(|g| g.exchange.take()) {
                    self.abort_exchange(ex);
                }
                self.get_stream = None;
                let kind = OpKind::Connect {
                    step: ConnectStep::Initialize,
                    version: self.version.clone(),
                    probe_error: None,
                };
                let r = self.new_op(kind, &RequestOptions::default(), true, now);
                self.phase = Phase::Reinitializing(r);
                self.drive_connect(r, now);
                r
            }
            _ => {
                if let Some(op) = op {
                    self.finish(op, Err(ProtocolError::NotConnected), now);
                }
                return;
            }
        };
        if let Some(op) = op {
            self.wait_for(op, reinit);
        }
    }

    /// Ends the session: every running op fails with `Closed`; in the 2025 era the session is
    /// DELETEd (405 is fine). Completes when that is done.
    pub fn close(&mut self, now: u64) -> OpId {
        let op = self.new_op(OpKind::Close, &RequestOptions::default(), false, now);
        let others: Vec<OpId> = self.ops.keys().copied().filter(|o| *o != op).collect();
        for o in others {
            self.finish(o, Err(ProtocolError::Closed), now);
        }
        if let Some(ex) = self.get_stream.take().and_then(|g| g.exchange) {
            self.abort_exchange(ex);
        }
        let ids: Vec<_> = self.exchanges.keys().copied().collect();
        for ex in ids {
            self.abort_exchange(ex);
        }
        for input in std::mem::take(&mut self.inputs).into_keys() {
            self.events.push_back(Event::InputCancelled { input });
        }
        let delete = self.era == Some(Era::Legacy)
            && self.session_id.is_some()
            && self.phase != Phase::Closed;
        self.phase = Phase::Closed;
        self.events.push_back(Event::Closed);
        if delete {
            self.drive_close(op, now);
        } else {
            self.finish(op, Ok(Value::Null), now);
        }
        op
    }

    pub(super) fn drive_close(&mut self, op: OpId, _now: u64) {
        let mut headers = Vec::new();
        self.legacy_headers(&mut headers);
        self.send_bodiless(Method::Delete, headers, Purpose::Delete { op }, Some(op));
    }
}
