//! The session loop: one thread owns the [`Session`], a real monotonic clock and a channel that
//! every transport thread reports into. It follows the session's call order (commands, then
//! `poll_line` / `poll_transmit` / `poll_abort`, then `poll_event`, then wait for input or
//! `poll_timeout`).

use std::collections::{HashMap, VecDeque};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::time::{Duration, Instant};

use mcp_edge::proto::http::{is_event_stream, is_json, ResponseHead};
use mcp_edge::proto::jsonrpc::ErrorObject;
use mcp_edge::proto::ndjson;
use mcp_edge::proto::session::{
    Event, ExchangeId, InputId, ListKind, OpId, ProtocolError, RequestOptions, Session,
    SessionConfig,
};
use mcp_edge::proto::sse;
use serde_json::{json, Value};

use crate::error::HarnessError;
use crate::http::{HttpInput, HttpTransport};
use crate::stdio::{ShutdownOutcome, StdioCommand, StdioProcess};
use crate::transcript::Recorder;

/// Bound of the input channel (chunks from the transports waiting for the loop).
const INPUT_QUEUE: usize = 1024;
/// Largest body the transcript tap buffers for one exchange (the session has its own limit).
const TAP_LIMIT: usize = 16 << 20;
/// Characters of stderr quoted when a server exits.
const STDERR_QUOTE: usize = 2000;

/// What the transport threads report to the loop.
#[derive(Debug)]
pub enum Input {
    /// Bytes the server wrote to stdout.
    Stdout(Vec<u8>),
    /// stdout reached end of file (`None`) or failed.
    StdoutClosed(Option<String>),
    /// Writing to the server's stdin failed.
    StdinFailed(String),
    /// Progress of one HTTP exchange.
    Http(ExchangeId, HttpInput),
}

enum Transport {
    Stdio(StdioProcess),
    Http(HttpTransport),
}

/// Decodes what an HTTP exchange carries into messages, for the transcript only (the session
/// decodes the same bytes itself).
enum BodyTap {
    Json(Vec<u8>),
    Sse(Box<sse::Decoder>),
    Ignore,
}

/// One progress notification as the session reported it: (progress, total, message).
pub type ProgressNote = (f64, Option<f64>, Option<String>);

/// How a user-level operation ended, with its progress.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The result or error.
    pub result: Result<Value, ProtocolError>,
    /// Progress events, in order: (progress, total, message).
    pub progress: Vec<ProgressNote>,
}

/// Limits of the driver itself.
#[derive(Debug, Clone)]
pub struct DriverLimits {
    /// Longest the driver waits for one operation, whatever the session's timeouts say.
    pub max_wait: Duration,
    /// How long `close` waits for the session's close operation (2025-era DELETE).
    pub close_wait: Duration,
}

impl Default for DriverLimits {
    fn default() -> Self {
        DriverLimits {
            max_wait: Duration::from_secs(120),
            close_wait: Duration::from_secs(5),
        }
    }
}

/// A client: a session, a transport, a clock and a transcript.
pub struct Client {
    session: Session,
    transport: Transport,
    tx: SyncSender<Input>,
    rx: Receiver<Input>,
    epoch: Instant,
    recorder: Recorder,
    taps: HashMap<ExchangeId, BodyTap>,
    stdout_tap: ndjson::Decoder,
    done: HashMap<OpId, Result<Value, ProtocolError>>,
    progress: HashMap<OpId, Vec<ProgressNote>>,
    answers: HashMap<OpId, VecDeque<Value>>,
    unanswered: VecDeque<(InputId, Option<OpId>, String)>,
    stdio_closed: bool,
    limits: DriverLimits,
    closed: bool,
}

impl Client {
    /// Starts `cmd` and drives a stdio session with `cfg` (its framing is set to stdio).
    pub fn stdio(cmd: &StdioCommand, mut cfg: SessionConfig) -> Result<Self, HarnessError> {
        cfg.framing = mcp_edge::proto::session::Framing::Stdio;
        cfg.open_get_stream = false;
        let session = Session::new(cfg)?;
        let (tx, rx) = mpsc::sync_channel(INPUT_QUEUE);
        let proc = StdioProcess::spawn(cmd, tx.clone())?;
        let max = session.config().max_json_bytes;
        Ok(Self::with(
            session,
            Transport::Stdio(proc),
            tx,
            rx,
            "stdio",
            max,
        ))
    }

    /// Drives an HTTP session with `cfg` against its endpoint (loopback `http://` only).
    pub fn http(mut cfg: SessionConfig) -> Result<Self, HarnessError> {
        cfg.framing = mcp_edge::proto::session::Framing::Http;
        crate::http::url::LoopbackUrl::parse(&cfg.endpoint)?;
        let session = Session::new(cfg)?;
        let (tx, rx) = mpsc::sync_channel(INPUT_QUEUE);
        let http = HttpTransport::new(tx.clone());
        let max = session.config().max_json_bytes;
        Ok(Self::with(
            session,
            Transport::Http(http),
            tx,
            rx,
            "http",
            max,
        ))
    }

    fn with(
        session: Session,
        transport: Transport,
        tx: SyncSender<Input>,
        rx: Receiver<Input>,
        name: &str,
        max_line: usize,
    ) -> Self {
        Client {
            session,
            transport,
            tx,
            rx,
            epoch: Instant::now(),
            recorder: Recorder::new(name),
            taps: HashMap::new(),
            stdout_tap: ndjson::Decoder::new(max_line),
            done: HashMap::new(),
            progress: HashMap::new(),
            answers: HashMap::new(),
            unanswered: VecDeque::new(),
            stdio_closed: false,
            limits: DriverLimits::default(),
            closed: false,
        }
    }

    /// Replaces the driver's own limits.
    pub fn set_limits(&mut self, limits: DriverLimits) {
        self.limits = limits;
    }

    /// The session (for inspection).
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The transcript recorder.
    pub fn recorder(&mut self) -> &mut Recorder {
        &mut self.recorder
    }

    /// The stdio server's stderr tail, if this is a stdio client.
    pub fn stderr_tail(&self, max_chars: usize) -> Option<String> {
        match &self.transport {
            Transport::Stdio(p) => Some(p.stderr_tail(max_chars)),
            Transport::Http(_) => None,
        }
    }

    /// The stdio server's stderr log (shared with its drain thread).
    pub fn stderr_log(
        &self,
    ) -> Option<std::sync::Arc<std::sync::Mutex<crate::stderr_log::StderrLog>>> {
        match &self.transport {
            Transport::Stdio(p) => Some(p.stderr()),
            Transport::Http(_) => None,
        }
    }

    fn now(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    // ---- commands --------------------------------------------------------------------------

    /// Starts connecting.
    pub fn start_connect(&mut self) -> OpId {
        let now = self.now();
        self.session.connect(now)
    }

    /// Starts a request.
    pub fn start_request(&mut self, method: &str, params: Value, opts: RequestOptions) -> OpId {
        let now = self.now();
        self.session.request(method, params, opts, now)
    }

    /// Starts fetching every page of a list.
    pub fn start_list(&mut self, kind: ListKind) -> OpId {
        let now = self.now();
        self.session.list_all(kind, RequestOptions::default(), now)
    }

    /// Answers the input requests of `op`, in order, with these results (e.g. `ElicitResult`s).
    pub fn script_answers(&mut self, op: OpId, answers: Vec<Value>) {
        self.answers.insert(op, answers.into());
    }

    /// Cancels an operation.
    pub fn cancel(&mut self, op: OpId) {
        let now = self.now();
        self.session.cancel(op, now);
    }

    /// Connects and waits.
    pub fn connect(&mut self) -> Result<Value, HarnessError> {
        let op = self.start_connect();
        self.wait(op)
    }

    /// Sends a request and waits for its result.
    pub fn call(&mut self, method: &str, params: Value) -> Result<Value, HarnessError> {
        let op = self.start_request(method, params, RequestOptions::default());
        self.wait(op)
    }

    /// Lists every page and waits.
    pub fn list(&mut self, kind: ListKind) -> Result<Value, HarnessError> {
        let op = self.start_list(kind);
        self.wait(op)
    }

    /// Waits for `op`; its result.
    pub fn wait(&mut self, op: OpId) -> Result<Value, HarnessError> {
        self.wait_outcome(op)?.result.map_err(HarnessError::from)
    }

    /// Waits for `op`; its result and progress. Errs only when the driver's own bound passes.
    pub fn wait_outcome(&mut self, op: OpId) -> Result<Outcome, HarnessError> {
        let bound = self.limits.max_wait;
        self.run_until(bound, |c| c.done.contains_key(&op))?;
        let result = self.done.remove(&op).unwrap_or(Err(ProtocolError::Closed));
        Ok(Outcome {
            result,
            progress: self.progress.remove(&op).unwrap_or_default(),
        })
    }

    /// Keeps the loop running for `d` (inputs are handled, timers fire).
    pub fn run_for(&mut self, d: Duration) {
        let until = Instant::now() + d;
        let _ = self.run_until(d + Duration::from_secs(1), |_| Instant::now() >= until);
    }

    /// Closes the session (2025 era: DELETE), then shuts the transport down (stdio: close stdin,
    /// grace period, kill). Returns how a stdio server ended.
    pub fn close(&mut self) -> Option<ShutdownOutcome> {
        if self.closed {
            return None;
        }
        self.closed = true;
        let now = self.now();
        let op = self.session.close(now);
        let wait = self.limits.close_wait;
        let _ = self.run_until(wait, |c| c.done.contains_key(&op));
        match &mut self.transport {
            Transport::Stdio(p) => Some(p.shutdown()),
            Transport::Http(h) => {
                h.abort_all();
                None
            }
        }
    }

    // ---- the loop ----------------------------------------------------------------------------

    /// Runs the loop until `done(self)` or `bound` passes.
    fn run_until(
        &mut self,
        bound: Duration,
        done: impl Fn(&Self) -> bool,
    ) -> Result<(), HarnessError> {
        let give_up = Instant::now() + bound;
        loop {
            self.pump();
            if done(self) {
                return Ok(());
            }
            // Checked before timers too, so a deadline that stays due cannot spin forever.
            let left = give_up.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(HarnessError::Stalled {
                    what: "the operation".into(),
                    after_ms: u64::try_from(bound.as_millis()).unwrap_or(u64::MAX),
                });
            }
            let now = self.now();
            if let Some(t) = self.session.poll_timeout() {
                if t <= now {
                    self.session.handle_timeout(now);
                    continue;
                }
            }
            let wait = match self.session.poll_timeout() {
                Some(t) => left.min(Duration::from_millis(t.saturating_sub(now))),
                None => left,
            };
            match self.rx.recv_timeout(wait) {
                Ok(input) => self.feed(input),
                Err(RecvTimeoutError::Timeout) => {}
                // Unreachable while `self.tx` lives; treat as nothing to do.
                Err(RecvTimeoutError::Disconnected) => std::thread::sleep(wait),
            }
        }
    }

    /// Moves everything the session wants out: lines or requests, aborts, then events.
    fn pump(&mut self) {
        loop {
            let mut busy = false;
            while let Some(line) = self.session.poll_line() {
                busy = true;
                match serde_json::from_slice::<Value>(&line) {
                    Ok(v) => self.recorder.sent(v, None),
                    Err(e) => self
                        .recorder
                        .transport(json!({"unparsable_out": e.to_string()})),
                }
                if let Transport::Stdio(p) = &self.transport {
                    p.write_line(line);
                }
            }
            while let Some(t) = self.session.poll_transmit() {
                busy = true;
                let ex = t.exchange;
                let req = &t.request;
                self.recorder.transport(json!({"http": {
                    "exchange": ex.0, "method": req.method.as_str(), "url": req.url,
                }}));
                if let Some(body) = &req.body {
                    match serde_json::from_str::<Value>(body) {
                        Ok(v) => self.recorder.sent(v, Some(ex.0)),
                        Err(e) => self
                            .recorder
                            .transport(json!({"unparsable_out": e.to_string()})),
                    }
                }
                match &self.transport {
                    Transport::Http(h) => {
                        self.taps.insert(ex, BodyTap::Ignore);
                        h.send(t);
                    }
                    Transport::Stdio(_) => {
                        // The stdio framing never transmits HTTP requests.
                        let now = self.now();
                        self.session.handle_failure(
                            ex,
                            mcp_edge::proto::session::TransportFailure::Network(
                                "HTTP request on a stdio transport".into(),
                            ),
                            now,
                        );
                    }
                }
            }
            while let Some(ex) = self.session.poll_abort() {
                busy = true;
                self.taps.remove(&ex);
                self.recorder
                    .transport(json!({"http": {"exchange": ex.0, "aborted": true}}));
                if let Transport::Http(h) = &self.transport {
                    h.abort(ex);
                }
            }
            while let Some(ev) = self.session.poll_event() {
                busy = true;
                self.recorder.event(&ev);
                self.on_event(ev);
            }
            if !busy {
                return;
            }
        }
    }

    fn on_event(&mut self, ev: Event) {
        match ev {
            Event::Completed { op, result } => {
                self.answers.remove(&op);
                self.done.insert(op, result);
            }
            Event::Progress {
                op,
                progress,
                total,
                message,
            } => self
                .progress
                .entry(op)
                .or_default()
                .push((progress, total, message)),
            Event::InputRequest {
                input, op, method, ..
            } => {
                // 2025-era server requests come without an op; when exactly one running op has
                // scripted answers, they are for it.
                let owner = op.or_else(|| {
                    let mut with = self.answers.iter().filter(|(_, a)| !a.is_empty());
                    match (with.next(), with.next()) {
                        (Some((o, _)), None) => Some(*o),
                        _ => None,
                    }
                });
                let answer = owner.and_then(|o| self.answers.get_mut(&o)?.pop_front());
                let now = self.now();
                match answer {
                    Some(a) => {
                        let _ = self.session.answer_input(input, Ok(a), now);
                    }
                    None => {
                        // Nothing scripted: refuse, so the server is not left waiting.
                        let refusal = ErrorObject {
                            code: -32601,
                            message: format!("the harness has no answer for {method}"),
                            data: None,
                        };
                        self.unanswered.push_back((input, op, method));
                        let _ = self.session.answer_input(input, Err(refusal), now);
                    }
                }
            }
            _ => {}
        }
    }

    /// Feeds one input into the session (and the transcript tap).
    fn feed(&mut self, input: Input) {
        let now = self.now();
        match input {
            Input::Stdout(bytes) => {
                // One line at a time, so that each message is recorded right before the events
                // it causes, whatever the read chunking was.
                for piece in bytes.split_inclusive(|b| *b == b'\n') {
                    for item in self.stdout_tap.feed(piece) {
                        match item {
                            Ok(msg) => self.recorder.received(msg.to_value(), None),
                            Err(e) => self
                                .recorder
                                .transport(json!({"stdout_not_jsonrpc": format!("{e:?}")})),
                        }
                    }
                    let now = self.now();
                    self.session.handle_stdio(piece, now);
                    self.pump();
                }
            }
            Input::StdoutClosed(err) => {
                if self.stdio_closed {
                    return;
                }
                self.stdio_closed = true;
                let reason = self.exit_reason(err);
                self.recorder.transport(json!({"stdio_closed": reason}));
                let now = self.now();
                self.session.handle_stdio_closed(&reason, now);
            }
            Input::StdinFailed(e) => {
                self.recorder.transport(json!({"stdin_failed": e}));
            }
            Input::Http(ex, what) => self.feed_http(ex, what, now),
        }
    }

    fn exit_reason(&mut self, err: Option<String>) -> String {
        let Transport::Stdio(p) = &mut self.transport else {
            return "stdout closed".into();
        };
        let mut reason = match (&err, p.wait_exit(Duration::from_millis(500))) {
            (Some(e), _) => format!("reading the server's stdout failed: {e}"),
            (None, Some(status)) => {
                format!("the server process `{}` exited ({status})", p.program())
            }
            (None, None) => format!("the server process `{}` closed its stdout", p.program()),
        };
        let tail = p.stderr_tail(STDERR_QUOTE);
        if !tail.is_empty() {
            reason.push_str("; its stderr ends with:\n");
            reason.push_str(&tail);
        }
        reason
    }

    fn feed_http(&mut self, ex: ExchangeId, what: HttpInput, now: u64) {
        match what {
            HttpInput::Head(head) => {
                self.recorder.transport(json!({"http": {
                    "exchange": ex.0, "status": head.status,
                    "contentType": head.header("content-type"),
                }}));
                if let Some(tap) = self.taps.get_mut(&ex) {
                    *tap = tap_for(&head, self.session.config().sse);
                }
                self.session.handle_response_head(ex, head, now);
            }
            HttpInput::Body(bytes) => {
                // Line by line: an SSE event is dispatched at a blank line, so each piece carries
                // at most one event, recorded right before the events it causes.
                for piece in bytes.split_inclusive(|b| *b == b'\n') {
                    self.tap_body(ex, piece);
                    let now = self.now();
                    self.session.handle_body(ex, piece, now);
                    self.pump();
                }
            }
            HttpInput::End => {
                if let Some(BodyTap::Json(buf)) = self.taps.remove(&ex) {
                    self.tap_json(ex, &buf);
                }
                self.session.handle_body_end(ex, now);
            }
            HttpInput::Failed(f) => {
                self.taps.remove(&ex);
                self.recorder
                    .transport(json!({"http": {"exchange": ex.0, "failed": format!("{f:?}")}}));
                self.session.handle_failure(ex, f, now);
            }
        }
    }

    fn tap_body(&mut self, ex: ExchangeId, bytes: &[u8]) {
        let mut msgs = Vec::new();
        match self.taps.get_mut(&ex) {
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
                Ok(v) => self.recorder.received(v, Some(ex.0)),
                Err(_) => self.recorder.transport(json!({"sse_data_not_json": data})),
            }
        }
    }

    fn tap_json(&mut self, ex: ExchangeId, buf: &[u8]) {
        match serde_json::from_slice::<Value>(buf) {
            Ok(v) if v.get("jsonrpc").is_some() => self.recorder.received(v, Some(ex.0)),
            _ => self.recorder.transport(json!({"http": {
                "exchange": ex.0,
                "body": String::from_utf8_lossy(&buf[..buf.len().min(4096)]),
            }})),
        }
    }

    /// Inputs the server asked for that nothing answered (they were refused).
    pub fn unanswered_inputs(&self) -> impl Iterator<Item = &(InputId, Option<OpId>, String)> {
        self.unanswered.iter()
    }

    /// Keeps the sender alive (the loop never sees a disconnected channel).
    #[doc(hidden)]
    pub fn input_sender(&self) -> SyncSender<Input> {
        self.tx.clone()
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

impl Drop for Client {
    fn drop(&mut self) {
        if !self.closed {
            self.closed = true;
            match &mut self.transport {
                Transport::Stdio(p) => {
                    p.shutdown();
                }
                Transport::Http(h) => h.abort_all(),
            }
        }
    }
}
