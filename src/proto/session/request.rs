//! Requests, paged lists, subscriptions, MRTR rounds, cancellation: the flows every era shares.

use crate::util::vec_map::VecMap;
use serde_json::{Map, Value};
use std::collections::HashSet;

use super::cache;
use super::exchange::{Exchange, Failure, Purpose};
use super::{
    Era, Event, InputId, InputRound, InputSlot, ListKind, ListState, OpId, OpKind, Phase,
    ProtocolError, RequestOptions, RequestState, Session, TaskSupport,
};
use crate::proto::headers;
use crate::proto::http::{mime, names, HttpRequest, Method};
use crate::proto::jsonrpc::{codes, ErrorObject, Message, Notification, Request};

/// Requests that execute nothing on the server: a broken response stream may re-issue them.
const NON_EXECUTING: [&str; 9] = [
    "tools/list",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "prompts/get",
    "completion/complete",
    "ping",
    "server/discover",
];

/// Whether `method` may execute something on the server (a tool call, or any method outside the
/// read-only set), so that running it twice could do harm.
fn executes(method: &str) -> bool {
    !NON_EXECUTING.contains(&method)
}

/// The member that identifies an item of a listing.
fn item_key(kind: ListKind) -> &'static str {
    match kind {
        ListKind::Tools | ListKind::Prompts => "name",
        ListKind::Tasks => "taskId",
        ListKind::Resources => "uri",
        ListKind::ResourceTemplates => "uriTemplate",
    }
}

/// Whether a tool's annotations say that running it twice does no harm: `idempotentHint` or
/// `readOnlyHint` (MCP 2026-07-28 `server/tools` "Tool Annotations"; hints from the server about
/// its own tool, used only to decide whether a call whose stream broke may be sent again).
fn safe_to_repeat(tool: &Value) -> bool {
    let hint = |k: &str| {
        tool.get("annotations")
            .and_then(|a| a.get(k))
            .and_then(Value::as_bool)
            == Some(true)
    };
    hint("idempotentHint") || hint("readOnlyHint")
}

/// Methods that may answer `input_required` (MCP 2026-07-28 `basic/patterns/mrtr`
/// "Supported Requests").
const MRTR_METHODS: [&str; 3] = ["tools/call", "prompts/get", "resources/read"];

/// Sets `key` in `obj._meta` (creating `_meta`), keeping the rest; no-op on a non-object.
fn put_meta(obj: &mut Value, key: &str, value: Value) {
    if let Value::Object(m) = obj {
        let meta = m
            .entry("_meta")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(meta) = meta {
            meta.insert(key.into(), value);
        }
    }
}

/// The method of one input request (MRTR `inputRequests`, a task's `inputRequests`): one a client
/// answers (MCP 2026-07-28 `basic/patterns/mrtr` "Input Requests"), or an invalid result.
pub(super) fn input_method(key: &str, req: &Value) -> Result<String, ProtocolError> {
    let method = req
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if matches!(
        method,
        "elicitation/create" | "sampling/createMessage" | "roots/list"
    ) {
        Ok(method.to_string())
    } else {
        Err(ProtocolError::InvalidResult(format!(
            "input request {key:?} has unsupported method {method:?}"
        )))
    }
}

fn params_map(params: Value) -> Result<Map<String, Value>, ProtocolError> {
    match params {
        Value::Object(m) => Ok(m),
        Value::Null => Ok(Map::new()),
        _ => Err(ProtocolError::InvalidConfig(
            "request params must be a JSON object".into(),
        )),
    }
}

impl Session {
    // ---- commands ----------------------------------------------------------------------------

    /// Sends a request (`tools/call`, `resources/read`, `prompts/get`, `completion/complete`,
    /// `ping`, ...). Completes with the final result: MRTR rounds, session re-initialization,
    /// header and version retries happen inside.
    pub fn request(&mut self, method: &str, params: Value, opts: RequestOptions, now: u64) -> OpId {
        let state = params_map(params).and_then(|mut params| {
            opts.meta.apply(&mut params)?;
            Ok(RequestState::new(method, params, opts.task))
        });
        match state {
            Ok(st) => {
                let id = self.new_op(OpKind::Request(st), &opts, false, now);
                self.start(id, now);
                id
            }
            Err(e) => self.fail_now(e, now),
        }
    }

    /// A caller's per-request inactivity limit above the session's total cap would be cut to
    /// the cap without a word: the API layers refuse it with this before starting the request.
    /// (The client's own requests, such as liveness probes and the lists after a connect, may
    /// pass a longer limit: the cap applies to them as it is.)
    pub fn check_request_timeout(&self, timeout_ms: Option<u64>) -> Result<(), ProtocolError> {
        match (timeout_ms, self.cfg.max_total_timeout_ms) {
            (Some(t), Some(cap)) if t > cap => Err(ProtocolError::InvalidConfig(format!(
                "the request's timeout ({t} ms) exceeds the maximum total timeout ({cap} ms)"
            ))),
            _ => Ok(()),
        }
    }

    /// Fetches every page of a list (MCP `server/utilities/pagination`), following `nextCursor`
    /// with a repeated-cursor guard and the `max_pages` cap. Completes with `{<field>: [...]}`.
    /// 2026-era pages are served from the cache while their `ttlMs` lasts.
    pub fn list_all(&mut self, kind: ListKind, opts: RequestOptions, now: u64) -> OpId {
        let st = ListState {
            kind,
            items: Vec::new(),
            cursor: None,
            seen: Vec::new(),
            keys: HashSet::new(),
            pages: 0,
            rejected: Vec::new(),
            partial: false,
        };
        let id = self.new_op(OpKind::List(st), &opts, false, now);
        self.start(id, now);
        id
    }

    /// 2026 era: opens a `subscriptions/listen` stream with `filter` (MCP 2026-07-28
    /// `basic/patterns/subscriptions`); its notifications arrive as [`Event::Notification`]. A
    /// dropped stream is re-opened within the reconnect budget. 2025 era: the GET stream serves
    /// this purpose; the op completes at once.
    pub fn listen(&mut self, filter: Value, now: u64) -> OpId {
        let id = self.new_op(
            OpKind::Listen { filter },
            &RequestOptions::default(),
            false,
            now,
        );
        self.start(id, now);
        id
    }

    /// Cancels an operation. 2026 era: the response stream is closed, which is the cancellation
    /// (MCP 2026-07-28 `basic/patterns/cancellation`); 2025 era: also `notifications/cancelled`.
    pub fn cancel(&mut self, op: OpId, now: u64) {
        if !self.ops.contains_key(&op) {
            return;
        }
        // A task is cancelled with `tasks/cancel`, never `notifications/cancelled`.
        if !self.cancel_task(op, now) {
            self.tell_abandoned(op, "cancelled by the client");
        }
        self.finish(op, Err(ProtocolError::Cancelled), now);
    }

    /// Tells the server that `op`'s request is abandoned (cancelled, or timed out). In the 2025
    /// era and over stdio that is `notifications/cancelled` (MCP 2025-11-25
    /// `basic/utilities/cancellation`; never for `initialize`, MCP 2026-07-28
    /// `basic/transports/stdio`); in the 2026 era over HTTP closing the response stream is the
    /// cancellation, which ending the op does.
    pub(super) fn tell_abandoned(&mut self, op: OpId, reason: &str) {
        let Some(o) = self.ops.get(&op) else { return };
        let initializing = matches!(o.kind, OpKind::Connect { .. });
        let notify = self.era == Some(Era::Legacy) || self.is_stdio();
        if let (Some(rid), true, false) = (o.rpc.clone(), notify, initializing) {
            let params = serde_json::json!({"requestId": rid.to_value(), "reason": reason});
            self.send_notification("notifications/cancelled", params, None);
        }
    }

    /// Answers an input the server asked for ([`Event::InputRequest`]). `Ok` carries the result
    /// object (`ElicitResult`, `CreateMessageResult`, `ListRootsResult`); `Err` a JSON-RPC error
    /// (2025 era; in an MRTR round an error is sent as `{"error": ...}` under its key).
    pub fn answer_input(
        &mut self,
        input: InputId,
        answer: Result<Value, ErrorObject>,
        now: u64,
    ) -> Result<(), ProtocolError> {
        let slot = self
            .inputs
            .remove(&input)
            .ok_or(ProtocolError::UnknownInput)?;
        match slot {
            InputSlot::ServerRequest { id, op, task } => {
                if let Some(o) = op.and_then(|op| self.ops.get_mut(&op)) {
                    o.user_inputs_open = o.user_inputs_open.saturating_sub(1);
                    o.activity = now;
                }
                let answer = answer.map(|mut result| {
                    if let Some(t) = task {
                        let related = serde_json::json!({ "taskId": t });
                        put_meta(&mut result, super::META_RELATED_TASK, related);
                    }
                    result
                });
                let msg = Message::reply(id, answer);
                let req = self.post(&msg, None);
                self.new_exchange(Exchange::new(Purpose::Reply), req);
            }
            InputSlot::TaskInput { op, key } => {
                let value = answer.unwrap_or_else(|e| serde_json::json!({"error": e.to_value()}));
                if let Some(o) = self.ops.get_mut(&op) {
                    o.activity = now;
                }
                self.task_input_answered(op, key, value, now);
            }
            InputSlot::Round { op, key } => {
                let value = answer.unwrap_or_else(|e| serde_json::json!({"error": e.to_value()}));
                let ready = match self.ops.get_mut(&op).map(|o| &mut o.kind) {
                    Some(OpKind::Request(RequestState { round: Some(r), .. })) => {
                        r.pending.remove(&key);
                        r.answers.insert(key, value);
                        r.pending.is_empty()
                    }
                    _ => false,
                };
                if ready {
                    if let Some(o) = self.ops.get_mut(&op) {
                        o.activity = now;
                    }
                    self.drive(op, now);
                }
            }
        }
        Ok(())
    }

    // ---- driving -----------------------------------------------------------------------------

    /// Starts a new op: now if connected, after the connect (or re-initialization) otherwise.
    pub(super) fn start(&mut self, id: OpId, now: u64) {
        match self.phase {
            Phase::Connected => self.drive(id, now),
            Phase::Connecting(c) | Phase::Reinitializing(c) => self.wait_for(id, c),
            Phase::Idle => self.finish(id, Err(ProtocolError::NotConnected), now),
            Phase::Closed => self.finish(id, Err(ProtocolError::Closed), now),
        }
    }

    pub(super) fn fail_now(&mut self, e: ProtocolError, now: u64) -> OpId {
        let id = self.new_op(OpKind::Close, &RequestOptions::default(), false, now);
        self.finish(id, Err(e), now);
        id
    }

    /// (Re)sends what `op` needs next.
    pub(super) fn drive(&mut self, op: OpId, now: u64) {
        if self.auth_gate(op, now) {
            return;
        }
        let Some(o) = self.ops.get(&op) else { return };
        // 2025 era: while a new session is being set up, nothing can be sent (a request without
        // a session id is refused): a timer or retry that fires meanwhile waits for it.
        if let Phase::Reinitializing(r) = self.phase {
            if !matches!(o.kind, OpKind::Connect { .. } | OpKind::Close) {
                return self.wait_for(op, r);
            }
        }
        match &o.kind {
            OpKind::Connect { .. } => self.drive_connect(op, now),
            OpKind::Close => self.drive_close(op, now),
            // Not held back by the authorizer: the sign-in is over.
            OpKind::Authorize => {
                let status = self.auth_status().unwrap_or(Value::Null);
                self.finish(op, Ok(status), now)
            }
            OpKind::Listen { filter, .. } => {
                if self.era == Some(Era::Legacy) {
                    if self.get_stream.is_none() && self.cfg.open_get_stream {
                        self.start_get_stream(now);
                    }
                    self.finish(op, Ok(Value::Null), now);
                    return;
                }
                let mut params = Map::new();
                params.insert("notifications".into(), filter.clone());
                self.send_rpc(op, "subscriptions/listen", params, now);
            }
            OpKind::List(st) if st.kind == ListKind::Tasks && self.era == Some(Era::Modern) => {
                let e = ProtocolError::InvalidConfig(
                    "tasks/list does not exist in 2026-07-28: the Tasks extension has no list \
                     (a task is known by the id its call returned)"
                        .into(),
                );
                self.finish(op, Err(e), now)
            }
            OpKind::List(st) => {
                let method = st.kind.method();
                let mut params = Map::new();
                if let Some(c) = &st.cursor {
                    params.insert("cursor".into(), Value::from(c.clone()));
                }
                if let Some(hit) = self.cached(method, &params, now) {
                    if let Some(OpKind::List(st)) = self.ops.get_mut(&op).map(|o| &mut o.kind) {
                        st.partial = true;
                    }
                    return self.list_page(op, hit, now);
                }
                self.send_rpc(op, method, params, now);
            }
            OpKind::Request(RequestState { task: Some(_), .. }) => self.drive_task(op, now),
            OpKind::Request(st) => {
                let method = st.method.clone();
                let mut params = st.params.clone();
                let task_pref = st.task_pref;
                if let Some(r) = &st.round {
                    params.insert("inputResponses".into(), Value::Object(r.answers.clone()));
                    if let Some(s) = &r.request_state {
                        params.insert("requestState".into(), s.clone());
                    }
                }
                if self.era == Some(Era::Modern) && method == "tools/call" {
                    let name = params
                        .get("name")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string();
                    if let Some(reason) = self.tools.get(&name).and_then(|t| t.rejected.as_ref()) {
                        let e = ProtocolError::ToolRejected {
                            name,
                            reason: reason.clone(),
                        };
                        return self.finish(op, Err(e), now);
                    }
                    if !self.tools_listed {
                        // The Mcp-Param-* headers come from the tool's inputSchema: list first.
                        let lister = self.internal_list_tools(now);
                        return self.wait_for(op, lister);
                    }
                }
                if method == "tools/call" && self.era == Some(Era::Legacy) {
                    if self.legacy_needs_tool_list() {
                        // Whether the tool runs as a task is in its `execution`: list first.
                        let lister = self.internal_list_tools(now);
                        return self.wait_for(op, lister);
                    }
                    self.legacy_task_param(&mut params, task_pref);
                    // The `task` member stays with the request: its result is read as a task.
                    if let Some(OpKind::Request(st)) = self.ops.get_mut(&op).map(|o| &mut o.kind) {
                        if let Some(t) = params.get("task") {
                            st.params.insert("task".into(), t.clone());
                        }
                    }
                }
                if let Some(hit) = self.cached(&method, &params, now) {
                    return self.finish(op, Ok(hit), now);
                }
                self.send_rpc(op, &method, params, now);
            }
        }
    }

    fn cached(&self, method: &str, params: &Map<String, Value>, now: u64) -> Option<Value> {
        if self.era != Some(Era::Modern) {
            return None;
        }
        cache::key(method, params).and_then(|k| self.cache.get(&k, now).cloned())
    }

    pub(super) fn internal_list_tools(&mut self, now: u64) -> OpId {
        let st = ListState {
            kind: ListKind::Tools,
            items: Vec::new(),
            cursor: None,
            seen: Vec::new(),
            keys: HashSet::new(),
            pages: 0,
            rejected: Vec::new(),
            partial: false,
        };
        let id = self.new_op(OpKind::List(st), &RequestOptions::default(), true, now);
        self.drive(id, now);
        id
    }

    /// Sends `method` for `op` with a fresh JSON-RPC id.
    pub(super) fn send_rpc(
        &mut self,
        op: OpId,
        method: &str,
        mut params: Map<String, Value>,
        now: u64,
    ) {
        let Some(o) = self.ops.get_mut(&op) else {
            return;
        };
        if let Some(token) = o.progress_token {
            let meta = params
                .entry("_meta")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(m) = meta {
                m.insert("progressToken".into(), Value::from(token));
            }
        }
        o.activity = now;
        // A new attempt counts its progress afresh (MCP `basic/utilities/progress`: the values
        // increase within one request; a re-issued request is a new one).
        o.last_progress = None;
        let old_rpc = o.rpc.take();
        let old_ex = o.exchange.take();
        if let Some(r) = old_rpc {
            self.pending.remove(&r);
        }
        if let Some(x) = old_ex {
            self.abort_exchange(x);
        }
        let rid = self.next_rpc_id();
        let msg = Message::Request(Request::new(
            rid.clone(),
            method,
            Some(Value::Object(params)),
        ));
        let req = self.post(&msg, Some(op));
        let ex = self.new_exchange(
            Exchange::new(Purpose::Rpc {
                op,
                id: rid.clone(),
            }),
            req,
        );
        self.pending.insert(rid.clone(), op);
        let session_gen = self.session_gen;
        if let Some(o) = self.ops.get_mut(&op) {
            o.rpc = Some(rid);
            o.exchange = Some(ex);
            o.resume_from = None;
            o.session_gen = session_gen;
        }
    }

    /// Sends a notification; `op` (if any) waits for its 202.
    pub(super) fn send_notification(&mut self, method: &str, params: Value, op: Option<OpId>) {
        let msg = Message::Notification(Notification::new(method, Some(params)));
        let req = self.post(&msg, None);
        self.new_exchange(Exchange::new(Purpose::Notify { op }), req);
    }

    /// Builds the POST for `msg` with the headers of the era in use.
    pub(super) fn post(&self, msg: &Message, for_op: Option<OpId>) -> HttpRequest {
        let mut headers: Vec<(String, String)> = vec![
            (names::CONTENT_TYPE.into(), mime::JSON.into()),
            (names::ACCEPT.into(), mime::ACCEPT_POST.into()),
        ];
        let mut msg = msg.clone();
        let connect_step = for_op.and_then(|op| match self.ops.get(&op).map(|o| &o.kind) {
            Some(OpKind::Connect { step, version, .. }) => Some((*step, version.clone())),
            _ => None,
        });
        let modern = match connect_step {
            Some((super::ConnectStep::Discover, _)) => true,
            Some(_) => false,
            None => self.era == Some(Era::Modern),
        };
        if modern {
            let version = connect_step
                .map(|(_, v)| v)
                .unwrap_or_else(|| self.version.clone());
            if let Message::Request(r) = &mut msg {
                self.add_modern_meta(r, &version);
                headers.push((names::MCP_PROTOCOL_VERSION.into(), version));
                headers.extend(headers::standard_headers(&r.method, r.params.as_ref()));
                if r.method == "tools/call" {
                    let name = r
                        .params
                        .as_ref()
                        .and_then(|p| p.get("name"))
                        .and_then(Value::as_str);
                    let args = r.params.as_ref().and_then(|p| p.get("arguments"));
                    if let (Some(spec), Some(args)) = (name.and_then(|n| self.tools.get(n)), args) {
                        headers.extend(headers::param_header_values(&spec.headers, args));
                    }
                }
            }
        } else {
            let initializing = matches!(connect_step, Some((super::ConnectStep::Initialize, _)));
            if !initializing {
                headers.push((names::MCP_PROTOCOL_VERSION.into(), self.version.clone()));
                if let Some(sid) = &self.session_id {
                    headers.push((names::MCP_SESSION_ID.into(), sid.clone()));
                }
            }
        }
        self.add_user_headers(&mut headers);
        HttpRequest {
            method: Method::Post,
            url: self.cfg.endpoint.clone(),
            headers,
            body: Some(msg.to_json()),
            extras: Default::default(),
        }
    }

    pub(super) fn add_user_headers(&self, headers: &mut Vec<(String, String)>) {
        for (k, v) in &self.cfg.headers {
            let k = k.to_ascii_lowercase();
            if !headers.iter().any(|(h, _)| *h == k) {
                headers.push((k, v.clone()));
            }
        }
    }

    /// Puts the 2026-07-28 request metadata into `params._meta` (MCP 2026-07-28 `basic/index`
    /// "_meta"; `basic/versioning`), keeping what the caller put there.
    fn add_modern_meta(&self, r: &mut Request, version: &str) {
        let params = r.params.get_or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(p) = params {
            let meta = p
                .entry("_meta")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(m) = meta {
                m.insert(super::META_PROTOCOL_VERSION.into(), Value::from(version));
                m.insert(
                    super::META_CLIENT_CAPABILITIES.into(),
                    self.capabilities.clone(),
                );
                m.insert(super::META_CLIENT_INFO.into(), self.cfg.client_info.clone());
            }
        }
    }

    // ---- results -----------------------------------------------------------------------------

    pub(super) fn op_result(&mut self, op: OpId, result: Value, now: u64) {
        let Some(o) = self.ops.get_mut(&op) else {
            return;
        };
        o.attempts = 0;
        match &o.kind {
            OpKind::Connect { .. } => self.connect_result(op, result, now),
            OpKind::Request(_) => self.request_result(op, result, now),
            OpKind::List(_) => self.list_page(op, result, now),
            OpKind::Listen { .. } | OpKind::Close | OpKind::Authorize => {
                self.finish(op, Ok(result), now)
            }
        }
    }

    fn request_result(&mut self, op: OpId, result: Value, now: u64) {
        let Some(mut result) = self.task_result(op, result, now) else {
            return;
        };
        let Some(OpKind::Request(st)) = self.ops.get(&op).map(|o| &o.kind) else {
            return;
        };
        let method = st.method.clone();
        let sent_params = st.params.clone();
        let had_round = st.round.is_some();
        let result_type = result
            .get("resultType")
            .and_then(Value::as_str)
            .unwrap_or("complete")
            .to_string();
        match result_type.as_str() {
            "complete" => {
                if method == "tools/list" && self.era == Some(Era::Modern) {
                    self.filter_tools(&mut result);
                }
                if method == "tools/list" {
                    self.note_repeatable(&result);
                }
                if !had_round && self.era == Some(Era::Modern) {
                    if let Some(k) = cache::key(&method, &sent_params) {
                        self.cache.put(k, &result, now);
                    }
                }
                self.finish(op, Ok(result), now)
            }
            "input_required" if MRTR_METHODS.contains(&method.as_str()) => {
                self.input_round(op, result, now)
            }
            other => {
                let e = ProtocolError::UnsupportedResultType(other.to_string());
                self.finish(op, Err(e), now)
            }
        }
    }

    /// One MRTR round (MCP 2026-07-28 `basic/patterns/mrtr` "Client Requirements"): surface every
    /// input request, then re-send with `inputResponses` and the exact `requestState`.
    fn input_round(&mut self, op: OpId, result: Value, now: u64) {
        let max = self.cfg.max_input_rounds;
        let requests = match result.get("inputRequests") {
            Some(Value::Object(m)) => m.clone(),
            None | Some(Value::Null) => Map::new(),
            Some(_) => {
                let e = ProtocolError::InvalidResult("inputRequests must be an object".into());
                return self.finish(op, Err(e), now);
            }
        };
        if requests.len() > super::MAX_OPEN_INPUTS {
            let e = ProtocolError::InvalidResult(format!(
                "{} input requests in one round (at most {} are accepted)",
                requests.len(),
                super::MAX_OPEN_INPUTS
            ));
            return self.finish(op, Err(e), now);
        }
        let request_state = result.get("requestState").cloned();
        let mut keys = VecMap::new();
        let mut events = Vec::new();
        for (key, req) in requests {
            let method = match input_method(&key, &req) {
                Ok(m) => m,
                Err(e) => return self.finish(op, Err(e), now),
            };
            let input = InputId(self.next_input);
            self.next_input += 1;
            keys.insert(key.clone(), input);
            self.inputs.insert(input, InputSlot::Round { op, key });
            let params = req
                .get("params")
                .cloned()
                .unwrap_or(Value::Object(Map::new()));
            events.push(Event::InputRequest {
                input,
                op: Some(op),
                method,
                params,
            });
        }
        let Some(OpKind::Request(st)) = self.ops.get_mut(&op).map(|o| &mut o.kind) else {
            return;
        };
        st.rounds += 1;
        if st.rounds > max {
            return self.finish(op, Err(ProtocolError::TooManyInputRounds(max)), now);
        }
        let nothing_asked = keys.is_empty();
        st.round = Some(InputRound {
            request_state,
            pending: keys,
            answers: Map::new(),
        });
        self.events.extend(events);
        if nothing_asked {
            // No inputRequests: the client MAY retry at once.
            self.drive(op, now);
        }
    }

    fn list_page(&mut self, op: OpId, mut page: Value, now: u64) {
        let max_pages = self.cfg.max_pages;
        let modern = self.era == Some(Era::Modern);
        let Some(OpKind::List(st)) = self.ops.get(&op).map(|o| &o.kind) else {
            return;
        };
        let kind = st.kind;
        let mut params = Map::new();
        if let Some(c) = &st.cursor {
            params.insert("cursor".into(), Value::from(c.clone()));
        }
        let rejected = if modern && kind == ListKind::Tools {
            self.filter_tools(&mut page)
        } else {
            Vec::new()
        };
        if modern {
            if let Some(k) = cache::key(kind.method(), &params) {
                if self.cache.get(&k, now).is_none() {
                    self.cache.put(k, &page, now);
                }
            }
        }
        let items = match page.get(kind.field()) {
            Some(Value::Array(a)) => a.clone(),
            _ => {
                let e = ProtocolError::InvalidResult(format!(
                    "{} result has no {} array",
                    kind.method(),
                    kind.field()
                ));
                return self.finish(op, Err(e), now);
            }
        };
        let next = match page.get("nextCursor") {
            Some(Value::String(c)) => Some(c.clone()),
            _ => None,
        };
        let mut diagnostics = Vec::new();
        let Some(OpKind::List(st)) = self.ops.get_mut(&op).map(|o| &mut o.kind) else {
            return;
        };
        st.pages += 1;
        st.rejected.extend(rejected);
        // One item per name (per uri for resources) in a listing: a server that repeats one,
        // on a page or across pages, is reported and the repeat dropped.
        let mut repeated = Vec::new();
        for item in items {
            match item.get(item_key(kind)).and_then(Value::as_str) {
                Some(k) if !st.keys.insert(k.to_string()) => repeated.push(k.to_string()),
                _ => st.items.push(item),
            }
        }
        if !repeated.is_empty() {
            let shown: Vec<&str> = repeated.iter().take(5).map(String::as_str).collect();
            diagnostics.push(format!(
                "{}: page {} repeated {} item(s) already listed ({}{}); dropped",
                kind.method(),
                st.pages,
                repeated.len(),
                shown.join(", "),
                if repeated.len() > shown.len() {
                    ", ..."
                } else {
                    ""
                }
            ));
        }
        let more = match next {
            Some(c) if st.seen.contains(&c) => {
                diagnostics.push(format!(
                    "{}: the server repeated cursor {c:?}; stopped after {} pages",
                    kind.method(),
                    st.pages
                ));
                st.partial = true;
                false
            }
            Some(_) if st.pages >= max_pages => {
                diagnostics.push(format!(
                    "{}: stopped at the {max_pages}-page limit",
                    kind.method()
                ));
                st.partial = true;
                false
            }
            Some(c) => {
                st.seen.push(c.clone());
                st.cursor = Some(c);
                true
            }
            None => false,
        };
        for message in diagnostics {
            self.events.push_back(Event::Diagnostic { message });
        }
        if more {
            return self.drive(op, now);
        }
        let Some(OpKind::List(st)) = self.ops.get_mut(&op).map(|o| &mut o.kind) else {
            return;
        };
        let items = std::mem::take(&mut st.items);
        if kind == ListKind::Tools {
            if !st.partial {
                // A whole listing from the server: facts of tools it no longer lists go, so the
                // map stays the size of the server's current list.
                let mut listed: HashSet<&str> = items
                    .iter()
                    .filter_map(|t| t.get("name").and_then(Value::as_str))
                    .collect();
                listed.extend(st.rejected.iter().map(String::as_str));
                self.tools.retain(|name, _| listed.contains(name.as_str()));
            }
            self.tools_listed = true;
            for facts in self.tools.values_mut() {
                facts.repeatable = false;
                facts.task_support = TaskSupport::Forbidden;
            }
            for tool in &items {
                if let Some(name) = tool.get("name").and_then(Value::as_str) {
                    let facts = self.tools.entry(name.to_string()).or_default();
                    facts.repeatable = safe_to_repeat(tool);
                    facts.task_support = TaskSupport::of_tool(tool);
                }
            }
        }
        let mut out = Map::new();
        out.insert(kind.field().into(), Value::Array(items));
        self.finish(op, Ok(Value::Object(out)), now)
    }

    /// Updates which tools may be re-issued from one page of tools requested directly.
    fn note_repeatable(&mut self, page: &Value) {
        let Some(Value::Array(tools)) = page.get("tools") else {
            return;
        };
        for tool in tools {
            if let Some(name) = tool.get("name").and_then(Value::as_str) {
                let facts = self.tools.entry(name.to_string()).or_default();
                facts.repeatable = safe_to_repeat(tool);
                facts.task_support = TaskSupport::of_tool(tool);
            }
        }
    }

    /// Drops tools whose `x-mcp-header` annotations are invalid and records the valid ones'
    /// `Mcp-Param-*` designations (MCP 2026-07-28 `basic/transports/streamable-http`).
    fn filter_tools(&mut self, page: &mut Value) -> Vec<String> {
        let mut rejected = Vec::new();
        let Some(Value::Array(tools)) = page.get_mut("tools") else {
            return rejected;
        };
        let mut kept = Vec::with_capacity(tools.len());
        for tool in tools.drain(..) {
            let name = tool
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            let schema = tool.get("inputSchema").cloned().unwrap_or(Value::Null);
            let verdict = headers::param_headers(&schema);
            if let Err(reason) = &verdict {
                self.events.push_back(Event::ToolRejected {
                    name: name.clone(),
                    reason: format!("{reason:?}"),
                });
                rejected.push(name.clone());
            } else {
                kept.push(tool);
            }
            let facts = self.tools.entry(name).or_default();
            (facts.headers, facts.rejected) = match verdict {
                Ok(spec) => (spec, None),
                Err(reason) => (Vec::new(), Some(reason)),
            };
        }
        *tools = kept;
        rejected
    }

    // ---- failures ----------------------------------------------------------------------------

    pub(super) fn op_failed(&mut self, op: OpId, failure: Failure, now: u64) {
        let Some(o) = self.ops.get(&op) else { return };
        if let Failure::Http {
            status: status @ (401 | 403),
            www_authenticate,
            dpop_nonce,
            auth_gen,
            ..
        } = &failure
        {
            if self.auth.is_some() && !matches!(o.kind, OpKind::Close) {
                let (status, www, nonce, generation) = (
                    *status,
                    www_authenticate.clone(),
                    dpop_nonce.clone(),
                    *auth_gen,
                );
                return self.op_unauthorized(op, status, www, nonce, generation, now);
            }
        }
        match &o.kind {
            OpKind::Connect { .. } => self.connect_failed(op, failure, now),
            OpKind::Close => self.finish(op, Ok(Value::Null), now),
            _ => self.request_failed(op, failure, now),
        }
    }

    fn request_failed(&mut self, op: OpId, failure: Failure, now: u64) {
        if self.retried_after(op, &failure, now) {
            return;
        }
        if self.task_request_failed(op, &failure, now) {
            return;
        }
        let era = self.era;
        let reissue_budget = self.cfg.max_reissues;
        let policy = self.cfg.reconnect;
        let has_session = self.session_id.is_some();
        let reinitializing = matches!(self.phase, Phase::Reinitializing(_));
        // A 404 for a request sent in a session that was replaced meanwhile says nothing about
        // the current one: the request is replayed in it.
        let stale_session = self.phase == Phase::Connected
            && self
                .ops
                .get(&op)
                .is_some_and(|o| o.session_gen != self.session_gen);
        let repeatable = self.may_repeat(op);
        let Some(o) = self.ops.get_mut(&op) else {
            return;
        };
        let method = match &o.kind {
            OpKind::Request(st) => st.method.clone(),
            OpKind::List(st) => st.kind.method().to_string(),
            _ => String::new(),
        };
        let is_listen = matches!(o.kind, OpKind::Listen { .. });
        match &failure {
            // -32020: re-list tools, then retry once with the headers the new schema designates.
            Failure::Rpc { error, .. }
                if era == Some(Era::Modern)
                    && error.code == codes::HEADER_MISMATCH
                    && method == "tools/call"
                    && !o.header_retry_used =>
            {
                o.header_retry_used = true;
                self.cache.invalidate_method("tools/list");
                self.tools_listed = false;
                let lister = self.internal_list_tools(now);
                self.wait_for(op, lister);
            }
            // -32022: retry once with a mutually supported modern version (MCP 2026-07-28
            // `basic/versioning`), even when the server lists the version just sent.
            Failure::Rpc { error, .. }
                if era == Some(Era::Modern)
                    && error.code == codes::UNSUPPORTED_PROTOCOL_VERSION
                    && !o.version_retry_used =>
            {
                o.version_retry_used = true;
                let supported = supported_versions(error.data.as_ref());
                if let Some(v) = supported
                    .iter()
                    .find(|v| v.as_str() == super::MODERN_VERSION)
                {
                    self.version = v.clone();
                    self.drive(op, now);
                } else {
                    let e = ProtocolError::UnsupportedProtocolVersion {
                        requested: self.version.clone(),
                        supported,
                    };
                    self.finish(op, Err(e), now);
                }
            }
            // 2025 era: 404 on a session request = the session is gone: new session, replay once
            // (requests in flight when it ended wait for the same new session).
            Failure::Http { status: 404, .. } | Failure::Rpc { status: 404, .. }
                if era == Some(Era::Legacy)
                    && (has_session || reinitializing)
                    && !o.session_retry_used =>
            {
                o.session_retry_used = true;
                if stale_session {
                    self.drive(op, now);
                } else {
                    self.session_expired(Some(op), now);
                }
            }
            Failure::Dropped {
                resume_from,
                retry_ms,
            } => match era {
                // 2025 era: resume by GET with Last-Event-ID after the server's `retry` delay.
                Some(Era::Legacy)
                    if resume_from.is_some() && o.attempts < policy.max_attempts && !is_listen =>
                {
                    o.attempts += 1;
                    let delay = retry_ms
                        .unwrap_or(policy.initial_delay_ms)
                        .min(policy.max_delay_ms)
                        .max(super::MIN_RECONNECT_DELAY_MS);
                    o.wake_at = Some(now + delay);
                }
                // 2026 (and a 2025 stream without event ids, which cannot be resumed): a broken
                // stream loses the request; only a request that is safe to run twice is
                // re-issued (with a new id), so a tool with side effects never runs twice
                // because a connection broke.
                Some(era)
                    if !is_listen
                        && repeatable
                        && o.attempts < reissue_budget
                        && (era == Era::Modern || resume_from.is_none()) =>
                {
                    o.attempts += 1;
                    self.drive(op, now);
                }
                // A listen stream that drops without its graceful result MAY be re-opened.
                Some(Era::Modern) if is_listen && o.attempts < policy.max_attempts => {
                    o.attempts += 1;
                    let exp = policy
                        .initial_delay_ms
                        .saturating_mul(1 << (o.attempts - 1).min(16));
                    let delay = self.jitter(exp.min(policy.max_delay_ms));
                    if let Some(o) = self.ops.get_mut(&op) {
                        o.wake_at = Some(now + delay);
                    }
                }
                _ => {
                    let e = ProtocolError::StreamDropped {
                        attempts: o.attempts,
                        may_have_run: executes(&method),
                    };
                    self.finish(op, Err(e), now)
                }
            },
            _ => {
                let attempts = o.attempts;
                self.finish(op, Err(failure.into_error(attempts)), now)
            }
        }
    }

    /// Whether `op` may be sent again after its response stream broke: it executes nothing, the
    /// caller declared it idempotent, or it calls a tool annotated `idempotentHint` or
    /// `readOnlyHint` (MCP 2026-07-28 `server/tools` "Tool Annotations").
    fn may_repeat(&self, op: OpId) -> bool {
        let Some(o) = self.ops.get(&op) else {
            return false;
        };
        match &o.kind {
            OpKind::List(_) => true,
            OpKind::Request(st) => {
                o.idempotent
                    || !executes(&st.method)
                    || (st.method == "tools/call"
                        && st
                            .params
                            .get("name")
                            .and_then(Value::as_str)
                            .and_then(|n| self.tools.get(n))
                            .is_some_and(|t| t.repeatable))
            }
            _ => false,
        }
    }

    /// A 429 or 503 with `Retry-After` (RFC 6585 § 4, RFC 9110 § 15.6.4): waits that long and
    /// sends `op` again, when retries are left and the wait ends before the op's deadline; true
    /// when it will. The status proves the request did not run, so this holds for requests that
    /// execute something too.
    pub(super) fn retried_after(&mut self, op: OpId, failure: &Failure, now: u64) -> bool {
        match failure {
            Failure::Http {
                status: 429 | 503,
                retry_after_ms: Some(delay),
                ..
            } => self.wait_retry_after(op, *delay, now),
            _ => false,
        }
    }

    fn wait_retry_after(&mut self, op: OpId, delay: u64, now: u64) -> bool {
        let max = self.cfg.max_retry_after;
        let Some(o) = self.ops.get_mut(&op) else {
            return false;
        };
        let at = now.saturating_add(delay);
        if o.throttle_retries >= max || o.deadline().is_some_and(|d| at >= d) {
            return false;
        }
        o.throttle_retries += 1;
        o.rpc = None;
        o.exchange = None;
        o.wake_at = Some(at);
        self.events.push_back(Event::Diagnostic {
            message: format!("the server asked to retry after {delay} ms (429/503); waiting"),
        });
        true
    }

    /// A timer of `op` fired.
    pub(super) fn wake(&mut self, op: OpId, now: u64) {
        let Some(o) = self.ops.get(&op) else { return };
        // A task is polled afresh, never resumed: the stream position of the call that created
        // it (or of a `tasks/result` that broke) belongs to a request that is over.
        let task = matches!(o.kind, OpKind::Request(RequestState { task: Some(_), .. }));
        if task || matches!(o.kind, OpKind::Listen { .. }) || self.era != Some(Era::Legacy) {
            return self.drive(op, now);
        }
        let Some(from) = o.resume_from.clone() else {
            return self.drive(op, now);
        };
        let mut headers = vec![(names::ACCEPT.to_string(), mime::EVENT_STREAM.to_string())];
        headers.push((names::LAST_EVENT_ID.into(), from));
        self.legacy_headers(&mut headers);
        self.send_bodiless(Method::Get, headers, Purpose::Resume { op }, Some(op));
        if let Some(o) = self.ops.get_mut(&op) {
            o.activity = now;
        }
    }
}

/// The `supported` list of an `UnsupportedProtocolVersionError`'s data.
pub(super) fn supported_versions(data: Option<&Value>) -> Vec<String> {
    data.and_then(|d| d.get("supported"))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// Whether an error identifies a modern (2026-07-28+) server (MCP 2026-07-28
/// `basic/versioning` "Backward Compatibility with Initialization-Based Versions").
pub(super) fn is_modern_error(error: &ErrorObject, status: u16) -> bool {
    match error.code {
        codes::UNSUPPORTED_PROTOCOL_VERSION => !supported_versions(error.data.as_ref()).is_empty(),
        codes::HEADER_MISMATCH | codes::MISSING_REQUIRED_CLIENT_CAPABILITY => true,
        _ => {
            let _ = status;
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modern_errors_are_recognised() {
        let e = |code, data| ErrorObject {
            code,
            message: String::new(),
            data,
        };
        assert!(is_modern_error(
            &e(
                -32022,
                Some(serde_json::json!({"supported": ["2026-07-28"]}))
            ),
            400
        ));
        assert!(!is_modern_error(&e(-32022, None), 400));
        assert!(is_modern_error(&e(-32020, None), 400));
        assert!(!is_modern_error(&e(-32600, None), 400));
        assert!(!is_modern_error(&e(-32000, None), 400));
    }
}
