//! The harness's client: mcp-edge's one session driver ([`mcp_edge::client::Client`]) on the
//! native host ([`NativeHost`]), so that stdio and HTTP run the same driver code as the browser,
//! the edge and the WASI component. What the harness adds: blocking calls bounded by
//! [`DriverLimits`], a transcript (the driver's traffic observer and event tap feed it), scripted
//! answers to the server's input requests, and the stdio process's shutdown.

use std::cell::{RefCell, RefMut};
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;
use std::time::Duration;

use mcp_edge::client::{
    ClientOptions, EventTap, InputFuture, InputHandler, InputRequest, Pending, ProgressFn,
    TrafficFn,
};
use mcp_edge::proto::jsonrpc::ErrorObject;
use mcp_edge::proto::session::{
    Event, Framing, InputId, ListKind, OpId, ProtocolError, RequestOptions, SessionConfig,
};
use serde_json::Value;

use crate::error::HarnessError;
use crate::host::{NativeHost, NoteFn};
use crate::stdio::{ShutdownOutcome, StdioCommand};
use crate::tap::Tap;
use crate::transcript::Recorder;

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

/// Limits of the harness's own waiting.
#[derive(Debug, Clone)]
pub struct DriverLimits {
    /// Longest the harness waits for one operation, whatever the session's timeouts say.
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

/// An input request nothing answered (it was refused): (input, op, method).
pub type Unanswered = (InputId, Option<OpId>, String);

/// Scripted answers per op, and what the handler needs to know of each input request.
#[derive(Default)]
struct Script {
    answers: HashMap<OpId, VecDeque<Value>>,
    /// The inputs the event tap saw, in the order the driver hands them to the handler.
    inputs: VecDeque<InputId>,
    unanswered: Vec<Unanswered>,
}

/// A client: the driver on the native host, and a transcript.
pub struct Client {
    client: mcp_edge::client::Client<NativeHost>,
    host: NativeHost,
    recorder: Rc<RefCell<Recorder>>,
    script: Rc<RefCell<Script>>,
    progress: HashMap<OpId, Rc<RefCell<Vec<ProgressNote>>>>,
    limits: DriverLimits,
    closed: bool,
}

impl Client {
    /// Starts `cmd` and drives a stdio session with `cfg` (its framing is set to stdio).
    pub fn stdio(cmd: &StdioCommand, mut cfg: SessionConfig) -> Result<Self, HarnessError> {
        cfg.framing = Framing::Stdio;
        cfg.open_get_stream = false;
        let c = Client::build(cfg, "stdio")?;
        c.host.start_stdio(cmd)?;
        Ok(c)
    }

    /// Drives an HTTP session with `cfg` against its endpoint (loopback `http://` only).
    pub fn http(mut cfg: SessionConfig) -> Result<Self, HarnessError> {
        cfg.framing = Framing::Http;
        crate::http::url::LoopbackUrl::parse(&cfg.endpoint)?;
        let c = Client::build(cfg, "http")?;
        c.host.start_http();
        Ok(c)
    }

    fn build(cfg: SessionConfig, name: &str) -> Result<Self, HarnessError> {
        let recorder = Rc::new(RefCell::new(Recorder::new(name)));
        let r = recorder.clone();
        let notes: NoteFn = Rc::new(move |detail| r.borrow_mut().transport(detail));
        let host = NativeHost::new(notes);
        let tap = Tap::new(recorder.clone(), cfg.sse, cfg.max_json_bytes);
        let observer: TrafficFn = Box::new(move |t| tap.observe(t));
        let script = Rc::new(RefCell::new(Script::default()));
        let options = ClientOptions {
            session: cfg,
            host: host.clone(),
            input_handler: Some(input_handler(script.clone())),
            observer: Some(observer),
            gate: None,
            on_event: Some(event_tap(recorder.clone(), script.clone())),
        };
        let client = mcp_edge::client::Client::new(options)?;
        Ok(Client {
            client,
            host,
            recorder,
            script,
            progress: HashMap::new(),
            limits: DriverLimits::default(),
            closed: false,
        })
    }

    /// Replaces the harness's own limits.
    pub fn set_limits(&mut self, limits: DriverLimits) {
        self.limits = limits;
    }

    /// The driver (for inspection: era, server info, session id...).
    pub fn driver(&self) -> &mcp_edge::client::Client<NativeHost> {
        &self.client
    }

    /// Operations started and not yet completed.
    pub fn pending_ops(&self) -> usize {
        self.client.pending_ops()
    }

    /// The transcript recorder.
    pub fn recorder(&self) -> RefMut<'_, Recorder> {
        self.recorder.borrow_mut()
    }

    /// The stdio server's stderr tail, if this is a stdio client.
    pub fn stderr_tail(&self, max_chars: usize) -> Option<String> {
        self.host.stderr_tail(max_chars)
    }

    /// The stdio server's stderr log (shared with its drain thread).
    pub fn stderr_log(
        &self,
    ) -> Option<std::sync::Arc<std::sync::Mutex<crate::stderr_log::StderrLog>>> {
        self.host.stderr_log()
    }

    // ---- commands --------------------------------------------------------------------------

    /// Starts connecting.
    pub fn start_connect(&mut self) -> OpId {
        self.client.start_connect().0
    }

    /// Starts a request; its progress (when `opts.progress`) is kept for [`Client::wait_outcome`].
    pub fn start_request(&mut self, method: &str, params: Value, opts: RequestOptions) -> OpId {
        let notes = opts
            .progress
            .then(|| Rc::new(RefCell::new(Vec::<ProgressNote>::new())));
        let callback = notes.clone().map(|n| -> ProgressFn {
            Rc::new(move |p| {
                n.borrow_mut()
                    .push((p.progress, p.total, p.message.clone()))
            })
        });
        let op = self.client.start_request(method, params, opts, callback).0;
        if let Some(n) = notes {
            self.progress.insert(op, n);
        }
        op
    }

    /// Starts fetching every page of a list.
    pub fn start_list(&mut self, kind: ListKind) -> OpId {
        self.client.start_list(kind, RequestOptions::default()).0
    }

    /// Answers the input requests of `op`, in order, with these results (e.g. `ElicitResult`s).
    pub fn script_answers(&mut self, op: OpId, answers: Vec<Value>) {
        self.script.borrow_mut().answers.insert(op, answers.into());
    }

    /// Cancels an operation.
    pub fn cancel(&mut self, op: OpId) {
        self.client.cancel(Pending(op));
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

    /// Waits for `op`; its result and progress. Errs only when the harness's own bound passes.
    pub fn wait_outcome(&mut self, op: OpId) -> Result<Outcome, HarnessError> {
        let bound = self.limits.max_wait;
        let result = self
            .host
            .block_on(self.client.wait(Pending(op)), bound)
            .ok_or_else(|| HarnessError::Stalled {
                what: "the operation".into(),
                after_ms: u64::try_from(bound.as_millis()).unwrap_or(u64::MAX),
            })?;
        let progress = self.progress.remove(&op).map(|n| n.take());
        Ok(Outcome {
            result,
            progress: progress.unwrap_or_default(),
        })
    }

    /// Keeps the driver running for `d` (inputs are handled, timers fire).
    pub fn run_for(&mut self, d: Duration) {
        let _ = self
            .host
            .block_on(self.host.sleep(d), d + Duration::from_secs(1));
    }

    /// Closes the session (2025 era: DELETE), then shuts the transport down (stdio: close stdin,
    /// grace period, kill). Returns how a stdio server ended.
    pub fn close(&mut self) -> Option<ShutdownOutcome> {
        if self.closed {
            return None;
        }
        self.closed = true;
        let _ = self
            .host
            .block_on(self.client.close(), self.limits.close_wait);
        self.host.shutdown()
    }

    /// Inputs the server asked for that nothing answered (they were refused).
    pub fn unanswered_inputs(&self) -> Vec<Unanswered> {
        self.script.borrow().unanswered.clone()
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if !self.closed {
            self.closed = true;
            self.host.shutdown();
        }
        // The driver's tasks hold the driver, which holds the host, which holds the tasks.
        self.host.clear();
    }
}

/// Records every session event; keeps what the input handler needs to know.
fn event_tap(recorder: Rc<RefCell<Recorder>>, script: Rc<RefCell<Script>>) -> EventTap {
    Box::new(move |ev| {
        recorder.borrow_mut().event(ev);
        match ev {
            Event::Completed { op, .. } => {
                script.borrow_mut().answers.remove(op);
            }
            Event::InputRequest { input, .. } => script.borrow_mut().inputs.push_back(*input),
            _ => {}
        }
    })
}

/// Answers input requests from the script. 2025-era server requests come without an op: when
/// exactly one running op has scripted answers, they are for it. Nothing scripted: refused (the
/// server is not left waiting) and kept in `unanswered`.
fn input_handler(script: Rc<RefCell<Script>>) -> InputHandler {
    Rc::new(move |req: InputRequest| -> InputFuture {
        let mut s = script.borrow_mut();
        let input = s.inputs.pop_front();
        let owner = req.op.or_else(|| {
            let mut with = s.answers.iter().filter(|(_, a)| !a.is_empty());
            match (with.next(), with.next()) {
                (Some((o, _)), None) => Some(*o),
                _ => None,
            }
        });
        let answer = owner.and_then(|o| s.answers.get_mut(&o)?.pop_front());
        let result = match answer {
            Some(a) => Ok(a),
            None => {
                if let Some(input) = input {
                    s.unanswered.push((input, req.op, req.method.clone()));
                }
                Err(ErrorObject {
                    code: -32601,
                    message: format!("the harness has no answer for {}", req.method),
                    data: None,
                })
            }
        };
        Box::pin(std::future::ready(result))
    })
}
