//! The async driver: owns one [`Session`], moves its requests over the host's HTTP exchanges,
//! feeds the responses back, and fires its timers. Generic over the [`Host`] (the fetch host in
//! every JS scope); single-threaded by design: no `Send` bounds, no tokio, background work
//! (response streams, the 2025 GET stream, `subscriptions/listen`) runs on [`Host::spawn`].
//!
//! ```text
//!   command ─► Session ─► poll_transmit ─► host.spawn(exchange task: send, read chunks)
//!                 ▲                                   │ handle_response_head / body / end
//!                 └───────────────────────────────────┘
//!   poll_timeout ─► one host timer ─► handle_timeout
//!   poll_event   ─► op waiters, progress callbacks, input handler, notification queue
//! ```

pub mod config;
mod oneshot;
mod queue;

use queue::SharedQueue;
pub use queue::{NextNotification, Notice, NotificationReader};

use crate::util::vec_map::VecMap;
use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use serde_json::Value;

use crate::proto::auth::AuthError;
use crate::proto::http::{HttpRequest, ResponseHead};
use crate::proto::jsonrpc::ErrorObject;
use crate::proto::session::{
    Event, ExchangeId, InputId, ListKind, OpId, Progress, ProtocolError, RequestOptions,
    ServerInfo, Session, SessionConfig, SessionSnapshot, TransportFailure,
};
use crate::runtime::OutboundGate;
use crate::transport::{AbortSwitch, AuthHost, Host, HostResponse, TransportError};

/// Bytes of a pausable stream fed to the session at once. One read can carry thousands of events
/// (headless Chromium delivers large chunks); a slice yields at most `SLICE / 8` (an event is at
/// least `data:x` and a blank line), which stays under `queue::MAX_QUEUED_NOTIFICATIONS - queue::PAUSE_AT`.
const SLICE: usize = 1024;

/// A progress callback. It borrows the notification: the message (up to an event's size) is
/// not copied for it, and moves on into the notification queue afterwards.
pub type ProgressFn = Rc<dyn Fn(&Progress)>;

/// The future an input handler returns.
pub type InputFuture = Pin<Box<dyn Future<Output = Result<Value, ErrorObject>>>>;

/// Answers the server's input requests (elicitation, sampling, roots) in both eras: 2025-era
/// server requests and 2026-07-28 MRTR rounds reach the same handler.
pub type InputHandler = Rc<dyn Fn(InputRequest) -> InputFuture>;

/// One input the server asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct InputRequest {
    /// `elicitation/create`, `sampling/createMessage` or `roots/list`.
    pub method: String,
    /// The request params.
    pub params: Value,
    /// The operation it belongs to (2026-07-28 MRTR rounds); `None` for a 2025-era server
    /// request, which names none.
    pub op: Option<OpId>,
}

/// What the traffic observer sees (for inspectors such as the playground's traffic panel).
#[derive(Debug, Clone)]
pub enum Traffic {
    /// A request was sent.
    Request {
        /// The exchange.
        exchange: u64,
        /// The request.
        request: HttpRequest,
    },
    /// A response head arrived.
    Head {
        /// The exchange.
        exchange: u64,
        /// The head.
        head: ResponseHead,
    },
    /// Body bytes arrived (raw: SSE frames or JSON).
    Body {
        /// The exchange.
        exchange: u64,
        /// The bytes.
        bytes: Vec<u8>,
    },
    /// The exchange ended (`error` when it failed or was aborted).
    End {
        /// The exchange.
        exchange: u64,
        /// Why it ended early, if it did.
        error: Option<String>,
    },
    /// stdio framing: a line written to the server's stdin.
    LineOut {
        /// The line, with its `\n`.
        line: Vec<u8>,
    },
    /// stdio framing: bytes the server wrote to stdout.
    StdoutIn {
        /// The bytes.
        bytes: Vec<u8>,
    },
}

/// Sees every session event before the driver handles it (test harnesses, transcripts).
pub type EventTap = Box<dyn Fn(&Event)>;

/// A traffic observer.
pub type TrafficFn = Box<dyn Fn(&Traffic)>;

/// Options of one connection.
pub struct ClientOptions<H> {
    /// The session configuration (endpoint, protocol, timeouts, headers...).
    pub session: SessionConfig,
    /// The target: HTTP exchanges, clock, timers, tasks, and the authorization host when the
    /// session has OAuth configured.
    pub host: H,
    /// The input handler, if the host answers elicitation / sampling / roots.
    pub input_handler: Option<InputHandler>,
    /// A traffic observer.
    pub observer: Option<TrafficFn>,
    /// A bound on concurrent exchanges shared with other clients (a pool in edge mode): each
    /// exchange holds a permit from before its `fetch` until its body ends.
    pub gate: Option<OutboundGate>,
    /// Sees every session event first.
    pub on_event: Option<EventTap>,
}

struct State<H: Host> {
    session: Session,
    aborts: VecMap<ExchangeId, Rc<H::Abort>>,
    waiters: VecMap<OpId, oneshot::Sender<Result<Value, ProtocolError>>>,
    receivers: VecMap<OpId, oneshot::Receiver<Result<Value, ProtocolError>>>,
    progress: VecMap<OpId, ProgressFn>,
    /// The armed timer and the session time it stands for.
    timer: Option<(u64, H::Timer)>,
    /// The exchange whose bytes the session is handling now, and whether the session ended it
    /// meanwhile (see [`feed`]).
    feeding: Option<(ExchangeId, bool)>,
    /// The output schemas of the listed tools (feature `validate`).
    #[cfg(feature = "validate")]
    outputs: Option<crate::schema::output::OutputSchemas>,
}

struct Inner<H: Host> {
    state: RefCell<State<H>>,
    queue: SharedQueue,
    host: H,
    input_handler: Option<InputHandler>,
    observer: Option<TrafficFn>,
    gate: Option<OutboundGate>,
    on_event: Option<EventTap>,
}

/// A connected MCP client. Cheap to clone (shared handle).
pub struct Client<H: Host> {
    inner: Rc<Inner<H>>,
}

impl<H: Host> Clone for Client<H> {
    fn clone(&self) -> Self {
        Client {
            inner: self.inner.clone(),
        }
    }
}

impl<H: Host> Inner<H> {
    fn now(&self) -> u64 {
        self.host.now()
    }

    /// Reports traffic to the observer with credentials redacted: `Authorization`, `DPoP`,
    /// cookies, secret URL parameters (`code`, `state`) and OAuth request and response bodies
    /// never reach an inspector.
    fn observe(&self, t: Traffic) {
        use crate::proto::auth::redact;
        let Some(o) = &self.observer else { return };
        let t = match t {
            Traffic::Request {
                exchange,
                mut request,
            } => {
                request.headers = redact::headers(&request.headers);
                request.url = redact::url(&request.url);
                if request.extras.oauth {
                    request.body = request.body.as_deref().map(redact::body);
                }
                request.extras.proofs.clear();
                Traffic::Request { exchange, request }
            }
            Traffic::Head { exchange, mut head } => {
                head.headers = redact::headers(&head.headers);
                Traffic::Head { exchange, head }
            }
            other => other,
        };
        o(&t);
    }
}

/// Moves everything the session wants done; call after every input to the session.
fn pump<H: Host>(inner: &Rc<Inner<H>>) {
    loop {
        // stdio framing: native hosts only (no JS scope or component starts processes).
        #[cfg(not(target_family = "wasm"))]
        let wrote = write_lines(inner);
        #[cfg(target_family = "wasm")]
        let wrote = false;
        let (transmits, aborts, events) = {
            let mut st = inner.state.borrow_mut();
            let mut t = Vec::new();
            while let Some(x) = st.session.poll_transmit() {
                t.push(x);
            }
            let mut a = Vec::new();
            while let Some(x) = st.session.poll_abort() {
                a.push(x);
            }
            let mut e = Vec::new();
            while let Some(x) = st.session.poll_event() {
                e.push(x);
            }
            (t, a, e)
        };
        if !wrote && transmits.is_empty() && aborts.is_empty() && events.is_empty() {
            break;
        }
        let aborted = !aborts.is_empty();
        for ex in aborts {
            let handle = {
                let mut st = inner.state.borrow_mut();
                match &mut st.feeding {
                    // Ended by its own bytes (its final response arrived): its task stops
                    // reading when `feed` returns, without aborting the fetch.
                    Some((feeding, ended)) if *feeding == ex => {
                        *ended = true;
                        None
                    }
                    _ => st.aborts.remove(&ex),
                }
            };
            if let Some(h) = handle {
                h.abort();
            }
        }
        if aborted {
            // A paused exchange sees its abort when it wakes.
            inner.queue.wake_paused();
        }
        if let Some(gate) = &inner.gate {
            // An exchange waiting for a permit sees its abort on its next poll.
            gate.wake_all();
        }
        for t in transmits {
            let handle = Rc::new(inner.host.new_abort());
            inner
                .state
                .borrow_mut()
                .aborts
                .insert(t.exchange, handle.clone());
            inner.observe(Traffic::Request {
                exchange: t.exchange.0,
                request: t.request.clone(),
            });
            inner.host.spawn(Box::pin(run_exchange(
                inner.clone(),
                t.exchange,
                t.request,
                handle,
            )));
        }
        for e in events {
            dispatch(inner, e);
        }
    }
    schedule_timer(inner);
}

fn dispatch<H: Host>(inner: &Rc<Inner<H>>, event: Event) {
    if let Some(tap) = &inner.on_event {
        tap(&event);
    }
    match event {
        Event::Completed { op, result } => {
            let (waiter, _progress) = {
                let mut st = inner.state.borrow_mut();
                (st.waiters.remove(&op), st.progress.remove(&op))
            };
            if let Some(w) = waiter {
                w.send(result);
            }
        }
        Event::Progress {
            op,
            progress,
            total,
            message,
        } => {
            let p = Progress {
                progress,
                total,
                message,
                task: None,
            };
            report_progress(inner, op, &p);
            queue_notification(
                inner,
                Event::Progress {
                    op,
                    progress,
                    total,
                    message: p.message,
                },
            );
        }
        // A task's status reaches the call's progress callback, numbered per report.
        Event::TaskStatus { op, task, report } => {
            let p = Progress {
                progress: f64::from(report),
                total: None,
                message: task.status_message.clone(),
                task: Some(task),
            };
            report_progress(inner, op, &p);
        }
        Event::InputRequest {
            input,
            op,
            method,
            params,
        } => answer_input(inner, input, InputRequest { method, params, op }),
        Event::Auth(e) => auth_event(inner, e),
        other => queue_notification(inner, other),
    }
}

/// Calls `op`'s progress callback, if it has one. The callback is taken out while it runs (it may
/// call back into the client) and put back while the op waits.
fn report_progress<H: Host>(inner: &Rc<Inner<H>>, op: OpId, p: &Progress) {
    let cb = inner.state.borrow_mut().progress.remove(&op);
    if let Some(cb) = cb {
        cb(p);
        let mut st = inner.state.borrow_mut();
        if st.waiters.contains_key(&op) {
            st.progress.insert(op, cb);
        }
    }
}

fn queue_notification<H: Host>(inner: &Rc<Inner<H>>, event: Event) {
    inner.queue.push(event);
}

/// Feeds one body chunk to the session. A stream that carries only notifications is fed in
/// slices, waiting for room in the queue before each one while a reader is open, so that nothing
/// is dropped from it however many events one read carries; a stream carrying an operation's
/// response is never paused (a caller awaiting the operation before it reads notifications would
/// wait forever), and what overflows from it is reported as a gap.
///
/// Returns true when the session ended the exchange because of these bytes (its final response
/// arrived): the caller stops reading and cancels the body. Aborting the fetch there, as for a
/// timeout or a cancellation, cost every `tools/call` an abort (the signal's event, the fetch's
/// abort steps): 5 % of a page's time in a loop of in-page calls.
async fn feed<H: Host>(
    inner: &Rc<Inner<H>>,
    id: ExchangeId,
    bytes: &[u8],
    pausable: bool,
    abort: &H::Abort,
) -> bool {
    if !pausable {
        let now = inner.now();
        {
            let mut st = inner.state.borrow_mut();
            st.feeding = Some((id, false));
            st.session.handle_body(id, bytes, now);
        }
        pump(inner);
        let mut st = inner.state.borrow_mut();
        return matches!(st.feeding.take(), Some((_, true)));
    }
    for slice in bytes.chunks(SLICE) {
        inner.queue.room(abort).await;
        if abort.is_aborted() {
            return false;
        }
        let now = inner.now();
        inner.state.borrow_mut().session.handle_body(id, slice, now);
        pump(inner);
    }
    false
}

/// Answers the authorizer through the host's [`AuthHost`]. Without one nothing is stored: every
/// read finds nothing and a sign-in that needs a person fails with the URL.
fn auth_event<H: Host>(inner: &Rc<Inner<H>>, event: crate::proto::auth::AuthEvent) {
    use crate::proto::auth::AuthEvent as E;
    let now = inner.now();
    let Some(host) = inner.host.auth().cloned() else {
        let mut st = inner.state.borrow_mut();
        match event {
            E::Load { key } => st.session.handle_auth_loaded(&key, None, now),
            E::Authorize { url } => st
                .session
                .abort_authorization(AuthError::InteractionRequired { url }, now),
            E::Lock { .. } => st.session.handle_auth_locked(now),
            E::NeedEntropy { .. } | E::NeedDpopKey => st.session.abort_authorization(
                AuthError::InvalidConfig("no authorization host".into()),
                now,
            ),
            _ => {}
        }
        return;
    };
    match event {
        E::NeedEntropy { bytes } => {
            let mut st = inner.state.borrow_mut();
            match host.random_bytes(bytes) {
                Ok(b) => st.session.add_entropy(&b, now),
                Err(m) => st.session.abort_authorization(AuthError::Signing(m), now),
            }
            return;
        }
        E::SignedIn { .. } => return queue_notification(inner, Event::Auth(event)),
        E::Unlock { name } => return host.unlock(&name),
        _ => {}
    }
    // Writes join the host's storage queue now, before anyone can wait for it to run empty.
    let stored = match &event {
        E::Save { key, value } => Some(host.write(key, value.expose())),
        E::Delete { key } => Some(host.delete(key)),
        _ => None,
    };
    // One task type for every event that waits on the host (one future type in the package).
    spawn_with(inner, move |inner| async move {
        if let Some(stored) = stored {
            // A failed write or delete is reported; the session does not wait for them.
            if let Err(e) = stored.await {
                let message = match event {
                    E::Save { .. } => format!("token storage write failed: {e}"),
                    _ => e,
                };
                queue_notification(&inner, Event::Diagnostic { message });
                pump(&inner);
            }
            return;
        }
        let mut failed = None;
        match event {
            E::Load { key } => {
                let value = match host.load(&key).await {
                    Ok(v) => v,
                    // An unreadable store is an empty one for this read, and said.
                    Err(e) => {
                        failed = Some(format!("token storage read failed: {e}"));
                        None
                    }
                };
                let now = inner.now();
                inner
                    .state
                    .borrow_mut()
                    .session
                    .handle_auth_loaded(&key, value.as_deref(), now);
            }
            E::Lock { name } => {
                let locked = host.lock(&name).await;
                let now = inner.now();
                let mut st = inner.state.borrow_mut();
                match locked {
                    Ok(()) => st.session.handle_auth_locked(now),
                    Err(e) => st.session.abort_authorization(AuthError::Storage(e), now),
                }
            }
            E::NeedDpopKey => {
                let key = host.dpop_key().await;
                let now = inner.now();
                let mut st = inner.state.borrow_mut();
                match key {
                    Ok(jwk) => st.session.handle_dpop_key(jwk, now),
                    Err(e) => st.session.abort_authorization(e, now),
                }
            }
            E::Authorize { url } => {
                let callback = host.sign_in(&url).await;
                let now = inner.now();
                let mut st = inner.state.borrow_mut();
                match callback {
                    Some(Ok(cb)) => st.session.handle_authorization_callback(&cb, now),
                    Some(Err(e)) => st.session.abort_authorization(e, now),
                    None => st
                        .session
                        .abort_authorization(AuthError::InteractionRequired { url }, now),
                }
            }
            _ => return,
        }
        if let Some(message) = failed {
            queue_notification(&inner, Event::Diagnostic { message });
        }
        pump(&inner);
    });
}

/// stdio framing: writes the lines the session has ready to the server's stdin; whether there
/// were any.
#[cfg(not(target_family = "wasm"))]
fn write_lines<H: Host>(inner: &Rc<Inner<H>>) -> bool {
    let mut wrote = false;
    loop {
        let line = inner.state.borrow_mut().session.poll_line();
        let Some(line) = line else { return wrote };
        wrote = true;
        inner.observe(Traffic::LineOut { line: line.clone() });
        if let Err(e) = inner.host.write_line(line) {
            let message = format!("writing to the server's stdin failed: {e}");
            queue_notification(inner, Event::Diagnostic { message });
        }
    }
}

/// stdio framing: feeds what the server writes to stdout to the session until stdout ends.
/// Native hosts only: no JS scope or component starts processes.
#[cfg(not(target_family = "wasm"))]
async fn read_stdout<H: Host>(inner: Rc<Inner<H>>) {
    loop {
        let read = inner.host.read_stdout().await;
        let now = inner.now();
        match read {
            Ok(bytes) => {
                inner.observe(Traffic::StdoutIn {
                    bytes: bytes.clone(),
                });
                inner.state.borrow_mut().session.handle_stdio(&bytes, now);
                pump(&inner);
            }
            Err(reason) => {
                inner
                    .state
                    .borrow_mut()
                    .session
                    .handle_stdio_closed(&reason, now);
                pump(&inner);
                return;
            }
        }
    }
}

/// Runs `task` (given its own handle on the driver) on the host.
fn spawn_with<H: Host, F: Future<Output = ()> + 'static>(
    inner: &Rc<Inner<H>>,
    task: impl FnOnce(Rc<Inner<H>>) -> F,
) {
    inner.host.spawn(Box::pin(task(inner.clone())));
}

fn answer_input<H: Host>(inner: &Rc<Inner<H>>, input: InputId, request: InputRequest) {
    let Some(handler) = inner.input_handler.clone() else {
        let error = ErrorObject {
            code: crate::proto::jsonrpc::codes::METHOD_NOT_FOUND,
            message: format!("this client has no handler for {}", request.method),
            data: None,
        };
        let now = inner.now();
        let _ = inner
            .state
            .borrow_mut()
            .session
            .answer_input(input, Err(error), now);
        return;
    };
    spawn_with(inner, move |inner| async move {
        let answer = handler(request).await;
        let now = inner.now();
        // The op may have ended meanwhile: then the input is unknown, which is fine.
        let _ = inner
            .state
            .borrow_mut()
            .session
            .answer_input(input, answer, now);
        pump(&inner);
    });
}

/// Keeps the one timer armed for the session's next deadline: cleared when nothing is due, so no
/// timer outlives the work (Workers, Node exit); kept when an earlier or equal deadline is
/// already armed (that one re-arms when it fires); replaced otherwise.
fn schedule_timer<H: Host>(inner: &Rc<Inner<H>>) {
    let now = inner.now();
    let mut st = inner.state.borrow_mut();
    match st.session.poll_timeout() {
        None => st.timer = None,
        Some(at) if st.timer.as_ref().is_some_and(|(armed, _)| *armed <= at) => {}
        Some(at) => {
            let weak = Rc::downgrade(inner);
            let fire = Box::new(move || {
                let Some(inner) = weak.upgrade() else { return };
                let now = inner.now();
                let fired = {
                    let mut st = inner.state.borrow_mut();
                    st.session.handle_timeout(now);
                    st.timer.take()
                };
                // The fired timer owns this callback: it is dropped after the callback returned.
                if let Some(fired) = fired {
                    inner.host.spawn(Box::pin(async move { drop(fired) }));
                }
                pump(&inner);
            });
            st.timer = inner
                .host
                .timer(at.saturating_sub(now), fire)
                .map(|t| (at, t));
        }
    }
}

async fn run_exchange<H: Host>(
    inner: Rc<Inner<H>>,
    id: ExchangeId,
    mut req: HttpRequest,
    abort: Rc<H::Abort>,
) {
    // Held until this function returns: after the body ended, failed or was cancelled.
    let _permit = match &inner.gate {
        None => None,
        Some(gate) => {
            let waiting_on = abort.clone();
            match gate.acquire(move || waiting_on.is_aborted()).await {
                Some(p) => Some(p),
                None => {
                    // Aborted while queued (timeout, cancel, close): nothing was sent.
                    inner.observe(Traffic::End {
                        exchange: id.0,
                        error: Some("aborted".into()),
                    });
                    finish_exchange(&inner, id);
                    return;
                }
            }
        }
    };
    if !req.extras.proofs.is_empty() {
        let signed = match inner.host.auth() {
            Some(host) => host.sign_proofs(&mut req).await,
            None => Err(AuthError::Signing("no authorization host".into())),
        };
        if let Err(e) = signed {
            inner.observe(Traffic::End {
                exchange: id.0,
                error: Some(e.to_string()),
            });
            let now = inner.now();
            inner.state.borrow_mut().session.handle_failure(
                id,
                TransportFailure::Network(format!("could not sign the request: {e}")),
                now,
            );
            finish_exchange(&inner, id);
            return;
        }
    }
    let oauth = req.extras.oauth;
    let result = inner.host.send(&req, &abort).await;
    let mut response = match result {
        Ok(r) => r,
        Err(e) => {
            inner.observe(Traffic::End {
                exchange: id.0,
                error: Some(e.to_string()),
            });
            if e != TransportError::Aborted {
                let failure = match e {
                    TransportError::Cors { diagnosis } => TransportFailure::Cors(diagnosis),
                    other => TransportFailure::Network(other.to_string()),
                };
                let now = inner.now();
                inner
                    .state
                    .borrow_mut()
                    .session
                    .handle_failure(id, failure, now);
            }
            finish_exchange(&inner, id);
            return;
        }
    };
    inner.observe(Traffic::Head {
        exchange: id.0,
        head: response.head().clone(),
    });
    let pausable = {
        let now = inner.now();
        let mut st = inner.state.borrow_mut();
        // A `Retry-After` HTTP-date needs the wall clock; the core reads none itself.
        st.session.set_wall_clock(inner.host.unix_ms(), now);
        st.session
            .handle_response_head(id, response.head().clone(), now);
        st.session.is_notification_stream(id)
    };
    pump(&inner);
    loop {
        if abort.is_aborted() {
            response.cancel();
            inner.observe(Traffic::End {
                exchange: id.0,
                error: Some("aborted".into()),
            });
            break;
        }
        match response.next_chunk().await {
            Ok(Some(bytes)) => {
                // Observed before the session sees it: what it sends in answer comes after.
                // OAuth responses (tokens, registrations) are never shown.
                if inner.observer.is_some() {
                    inner.observe(Traffic::Body {
                        exchange: id.0,
                        bytes: if oauth {
                            crate::proto::auth::secret::REDACTED.as_bytes().to_vec()
                        } else {
                            bytes.clone()
                        },
                    });
                }
                if feed(&inner, id, &bytes, pausable, &abort).await {
                    response.cancel();
                    inner.observe(Traffic::End {
                        exchange: id.0,
                        error: Some("aborted".into()),
                    });
                    break;
                }
            }
            Ok(None) => {
                inner.observe(Traffic::End {
                    exchange: id.0,
                    error: None,
                });
                let now = inner.now();
                inner.state.borrow_mut().session.handle_body_end(id, now);
                break;
            }
            Err(TransportError::Aborted) => {
                inner.observe(Traffic::End {
                    exchange: id.0,
                    error: Some("aborted".into()),
                });
                break;
            }
            Err(e) => {
                inner.observe(Traffic::End {
                    exchange: id.0,
                    error: Some(e.to_string()),
                });
                let now = inner.now();
                let failure = TransportFailure::BodyInterrupted(e.to_string());
                inner
                    .state
                    .borrow_mut()
                    .session
                    .handle_failure(id, failure, now);
                break;
            }
        }
    }
    finish_exchange(&inner, id);
}

fn finish_exchange<H: Host>(inner: &Rc<Inner<H>>, id: ExchangeId) {
    inner.state.borrow_mut().aborts.remove(&id);
    pump(inner);
}

/// A started operation: await it with [`Client::wait`], cancel it with [`Client::cancel`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pending(pub OpId);

impl<H: Host> Client<H> {
    fn build(options: ClientOptions<H>, session: Session) -> Client<H> {
        let inner = Rc::new(Inner {
            state: RefCell::new(State {
                session,
                aborts: VecMap::new(),
                waiters: VecMap::new(),
                receivers: VecMap::new(),
                progress: VecMap::new(),
                timer: None,
                feeding: None,
                #[cfg(feature = "validate")]
                outputs: None,
            }),
            queue: SharedQueue::default(),
            host: options.host,
            input_handler: options.input_handler,
            observer: options.observer,
            gate: options.gate,
            on_event: options.on_event,
        });
        #[cfg(not(target_family = "wasm"))]
        if inner.state.borrow().session.config().framing == crate::proto::session::Framing::Stdio {
            spawn_with(&inner, read_stdout);
        }
        Client { inner }
    }

    /// Creates a client and connects it.
    pub async fn connect(
        options: ClientOptions<H>,
    ) -> Result<(Client<H>, ServerInfo), ProtocolError> {
        let client = Client::new(options)?;
        let op = client.start_connect();
        client.wait(op).await?;
        let info = client.server_info().ok_or(ProtocolError::NotConnected)?;
        Ok((client, info))
    }

    /// Creates a client without connecting it, for a host that starts its operations itself and
    /// waits for them by op ([`Client::start_connect`], [`Client::start_list`]): the native test
    /// harness, which labels each op's events with the scenario step that started it.
    pub fn new(mut options: ClientOptions<H>) -> Result<Client<H>, ProtocolError> {
        options.session.unix_epoch_ms = options.host.unix_ms();
        let session = Session::new(options.session.clone())?;
        Ok(Client::build(options, session))
    }

    /// Starts connecting; its result is the connect op's value (era, server info, capabilities).
    pub fn start_connect(&self) -> Pending {
        self.start(|s, now| s.connect(now), None)
    }

    /// Signs in to the server at `options.session.endpoint` without connecting (its auth must
    /// be configured): resolves with who is signed in once tokens are stored.
    pub fn sign_in(
        options: ClientOptions<H>,
    ) -> impl std::future::Future<Output = Result<Value, ProtocolError>> {
        Client::authorize(options, None)
    }

    /// Finishes a sign-in from the callback URL the authorization server redirected to, in a
    /// process that may not be the one that started it (the pending request is read from the
    /// auth storage by `state`). Resolves with who is signed in; the tokens are stored.
    pub fn complete_authorization(
        options: ClientOptions<H>,
        callback: &str,
    ) -> impl std::future::Future<Output = Result<Value, ProtocolError>> + '_ {
        Client::authorize(options, Some(callback))
    }

    /// Both of the above, one body (one future type for every caller): a sign-in, or its end
    /// from `callback`.
    pub(crate) async fn authorize(
        mut options: ClientOptions<H>,
        callback: Option<&str>,
    ) -> Result<Value, ProtocolError> {
        options.session.unix_epoch_ms = options.host.unix_ms();
        let session = Session::new(options.session.clone())?;
        let client = Client::build(options, session);
        let op = client.start(
            |s, now| match callback {
                Some(cb) => s.complete_authorization(cb, now),
                None => s.authorize(now),
            },
            None,
        );
        let result = client.wait(op).await;
        // The pending request (or the tokens) must be stored before the caller moves on: the
        // callback may arrive in another process.
        client.auth_stored().await;
        result
    }

    /// Rebuilds a connected client from a [`SessionSnapshot`] without a round trip (a fresh
    /// isolate after eviction). The snapshot must be of `options.session.endpoint`.
    pub fn restore(
        mut options: ClientOptions<H>,
        snapshot: SessionSnapshot,
    ) -> Result<Client<H>, ProtocolError> {
        options.session.unix_epoch_ms = options.host.unix_ms();
        let now = options.host.now();
        let session = Session::restore(options.session.clone(), snapshot, now)?;
        let client = Client::build(options, session);
        pump(&client.inner);
        Ok(client)
    }

    /// The session's durable state now.
    pub fn snapshot(&self) -> SessionSnapshot {
        let now = self.inner.now();
        self.inner.state.borrow().session.snapshot(now)
    }

    fn start(
        &self,
        f: impl FnOnce(&mut Session, u64) -> OpId,
        progress: Option<ProgressFn>,
    ) -> Pending {
        let now = self.inner.now();
        let (rx_op, rx) = {
            let mut st = self.inner.state.borrow_mut();
            let op = f(&mut st.session, now);
            let (tx, rx) = oneshot::channel();
            st.waiters.insert(op, tx);
            if let Some(p) = progress {
                st.progress.insert(op, p);
            }
            (op, rx)
        };
        self.inner.state.borrow_mut().receivers.insert(rx_op, rx);
        pump(&self.inner);
        Pending(rx_op)
    }

    /// Waits for a started operation.
    pub async fn wait(&self, op: Pending) -> Result<Value, ProtocolError> {
        let rx = self.inner.state.borrow_mut().receivers.remove(&op.0);
        match rx {
            Some(rx) => rx.await.unwrap_or(Err(ProtocolError::Closed)),
            None => Err(ProtocolError::Closed),
        }
    }

    /// Refuses a caller's per-request timeout above the session's total cap
    /// ([`crate::proto::session::Session::check_request_timeout`]); the API layers call it
    /// before starting a caller's request.
    pub fn check_request_timeout(&self, timeout_ms: Option<u64>) -> Result<(), ProtocolError> {
        self.inner
            .state
            .borrow()
            .session
            .check_request_timeout(timeout_ms)
    }

    /// Starts a request; see [`Session::request`].
    pub fn start_request(
        &self,
        method: &str,
        params: Value,
        opts: RequestOptions,
        progress: Option<ProgressFn>,
    ) -> Pending {
        let opts = RequestOptions {
            progress: opts.progress || progress.is_some(),
            ..opts
        };
        self.start(|s, now| s.request(method, params, opts, now), progress)
    }

    /// Sends a request and waits for its result.
    pub async fn request(
        &self,
        method: &str,
        params: Value,
        opts: RequestOptions,
    ) -> Result<Value, ProtocolError> {
        let p = self.start_request(method, params, opts, None);
        self.wait(p).await
    }

    /// The extensions in play: what this client declares (the session's configuration) and what
    /// the server announced (`capabilities.extensions` of `server/discover` or `initialize`).
    pub fn extensions(
        &self,
    ) -> (
        serde_json::Map<String, Value>,
        serde_json::Map<String, Value>,
    ) {
        let st = self.inner.state.borrow();
        let client = st.session.config().extensions.clone();
        let server = st
            .session
            .server_info()
            .and_then(|i| i.capabilities.get("extensions"))
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        (client, server)
    }

    /// The tasks this client is driving now (calls the server turned into tasks), with their
    /// last reported state.
    pub fn tasks(&self) -> Vec<crate::proto::session::TaskInfo> {
        let st = self.inner.state.borrow();
        st.session.tasks().into_iter().map(|(_, t)| t).collect()
    }

    /// Resumes a task by what was known of it (a snapshot's `tasks`, a progress report): polls
    /// it to its end without calling the tool again; completes like the call would have.
    pub fn resume_task(
        &self,
        task: crate::proto::session::TaskInfo,
        progress: Option<ProgressFn>,
    ) -> Pending {
        self.start(move |s, now| s.resume_task(task, now), progress)
    }

    /// Checks that the server still answers, with the cheapest request its era defines:
    /// `server/discover` for a 2026-07-28 server (which has no `ping`), `ping` for a 2025-era
    /// one (MCP 2025-11-25 `basic/utilities/ping`). Any JSON-RPC answer, an error too, and an
    /// HTTP status below 500 prove it alive; a timeout, a 5xx or a network failure do not.
    pub async fn probe(&self, timeout_ms: u64) -> Result<(), ProtocolError> {
        let method = match self.era() {
            Some(crate::proto::session::Era::Modern) => "server/discover",
            _ => "ping",
        };
        let opts = RequestOptions {
            timeout_ms: Some(timeout_ms),
            ..RequestOptions::default()
        };
        match self
            .request(method, Value::Object(Default::default()), opts)
            .await
        {
            Ok(_) | Err(ProtocolError::Rpc { .. }) => Ok(()),
            Err(ProtocolError::HttpStatus { status, .. }) if status < 500 => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Calls a tool and checks its `structuredContent` against the tool's `outputSchema`
    /// (eval-free; the tools are listed once first if they never were). Without the `validate`
    /// feature the result is returned as received.
    pub async fn call_tool(&self, pending: Pending, name: &str) -> Result<Value, ProtocolError> {
        let result = self.wait(pending).await?;
        self.check_tool_result(name, &result)?;
        Ok(result)
    }

    /// Loads the output schemas if no tool list was fetched yet (nothing to load without the
    /// `validate` feature: no validator, so no `tools/list` round trip before a call).
    pub async fn ensure_output_schemas(&self) -> Result<(), ProtocolError> {
        #[cfg(feature = "validate")]
        if self.inner.state.borrow().outputs.is_none() {
            self.list_all(ListKind::Tools, RequestOptions::default())
                .await?;
        }
        Ok(())
    }

    /// Checks a `tools/call` result of `name` against its output schema (MCP 2025-06-18+,
    /// server/tools "Output Schema": clients SHOULD validate structured results against it).
    /// Without the `validate` feature every result passes.
    pub fn check_tool_result(&self, name: &str, result: &Value) -> Result<(), ProtocolError> {
        #[cfg(feature = "validate")]
        if let Some(o) = &self.inner.state.borrow().outputs {
            return o.check(name, result);
        }
        let _ = (name, result);
        Ok(())
    }

    /// Lists every page of `kind`.
    pub async fn list_all(
        &self,
        kind: ListKind,
        opts: RequestOptions,
    ) -> Result<Value, ProtocolError> {
        let p = self.start_list(kind, opts);
        let v = self.wait(p).await?;
        #[cfg(feature = "validate")]
        if kind == ListKind::Tools {
            let tools = v
                .get("tools")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let errors = {
                let mut st = self.inner.state.borrow_mut();
                st.outputs
                    .get_or_insert_with(Default::default)
                    .update(&tools)
            };
            for (tool, e) in errors {
                let message = format!("the outputSchema of {tool:?} does not compile ({e}); its results are not checked");
                queue_notification(&self.inner, Event::Diagnostic { message });
            }
        }
        Ok(v)
    }

    /// Starts listing every page of `kind`; see [`Session::list_all`]. Unlike
    /// [`Client::list_all`], the tools' output schemas are not taken from the result.
    pub fn start_list(&self, kind: ListKind, opts: RequestOptions) -> Pending {
        self.start(|s, now| s.list_all(kind, opts, now), None)
    }

    /// Opens a 2026-07-28 `subscriptions/listen` stream (2025 era: the GET stream).
    pub fn listen(&self, filter: Value) -> Pending {
        self.start(|s, now| s.listen(filter, now), None)
    }

    /// Cancels a started operation.
    pub fn cancel(&self, op: Pending) {
        let now = self.inner.now();
        self.inner.state.borrow_mut().session.cancel(op.0, now);
        pump(&self.inner);
    }

    /// Closes the session (2025 era: DELETE). Every running operation fails with `Closed`.
    pub async fn close(&self) -> Result<(), ProtocolError> {
        let p = self.start(|s, now| s.close(now), None);
        let result = self.wait(p).await.map(|_| ());
        // Tokens refreshed or obtained by this client reach the store before close resolves.
        self.auth_stored().await;
        result
    }

    /// Waits until the auth host's storage queue ran empty.
    async fn auth_stored(&self) {
        if let Some(host) = self.inner.host.auth() {
            host.all_stored().await;
        }
    }

    /// Changes the per-request timeouts for later requests.
    pub fn set_timeouts(&self, request_ms: Option<u64>, max_total_ms: Option<u64>) {
        self.inner
            .state
            .borrow_mut()
            .session
            .set_timeouts(request_ms, max_total_ms);
    }

    /// Starts closing the session without waiting (2025 era: the DELETE goes out when the
    /// host runs its tasks): for a client being dropped.
    pub fn close_later(&self) {
        let _ = self.start(|s, now| s.close(now), None);
    }

    /// Operations started and not yet completed (for inspection).
    pub fn pending_ops(&self) -> usize {
        self.inner.state.borrow().session.pending_ops()
    }

    /// Milliseconds on the host's clock (the `now` the session is given).
    pub fn now(&self) -> u64 {
        self.inner.now()
    }

    /// The era of the session, once known.
    pub fn era(&self) -> Option<crate::proto::session::Era> {
        self.inner.state.borrow().session.era()
    }

    /// The protocol version the session speaks (or will offer first).
    pub fn protocol_version(&self) -> String {
        self.inner
            .state
            .borrow()
            .session
            .protocol_version()
            .to_string()
    }

    /// What the server told about itself.
    pub fn server_info(&self) -> Option<ServerInfo> {
        self.inner.state.borrow().session.server_info().cloned()
    }

    /// The 2025-era session id, if any.
    pub fn session_id(&self) -> Option<String> {
        self.inner
            .state
            .borrow()
            .session
            .session_id()
            .map(str::to_string)
    }

    /// Replaces an extra header for later requests (e.g. a refreshed token).
    pub fn set_header(&self, name: &str, value: Option<String>) {
        self.inner
            .state
            .borrow_mut()
            .session
            .set_header(name, value);
    }

    /// A reader of the notifications (list changes, logging, progress, diagnostics, `Closed`).
    /// While one is open, streams that carry only notifications pause when the queue is full
    /// instead of losing items; items lost from other streams are reported as [`Notice::Gap`].
    pub fn notifications(&self) -> NotificationReader {
        self.inner.queue.reader()
    }

    /// How many notifications were dropped because the queue was full (each one also reported
    /// to the reader by a [`Notice::Gap`]).
    pub fn dropped_notifications(&self) -> u64 {
        self.inner.queue.dropped()
    }

    /// Whether the session is up (2025 era: also while a lost session is being replaced; false
    /// once that failed, or before connecting, or after closing).
    pub fn is_connected(&self) -> bool {
        self.inner.state.borrow().session.is_connected()
    }

    /// 2025 era: whether the GET stream was given up after its reconnect budget.
    pub fn notification_stream_lost(&self) -> bool {
        self.inner.state.borrow().session.notification_stream_lost()
    }

    /// Who is signed in (OAuth): `{issuer, scope, expiresAt, tokenType}`; `None` without auth or
    /// tokens.
    pub fn auth_status(&self) -> Option<Value> {
        self.inner.state.borrow().session.auth_status()
    }

    /// Forgets this server's OAuth tokens (stored ones too): the next request signs in again.
    pub fn sign_out(&self) {
        let now = self.inner.now();
        self.inner.state.borrow_mut().session.sign_out(now);
        pump(&self.inner);
    }

    /// Whether the client was closed.
    pub fn is_closed(&self) -> bool {
        self.inner.state.borrow().session.is_closed()
    }
}
