//! The synchronous driver: owns one [`Session`] and the HTTP exchanges it asked for, and pumps
//! them until the operations a call waits for complete.
//!
//! ```text
//!   command ─► Session ─► poll_transmit ─► WasiExchange::send ──┐
//!                 ▲                                             │ pollables
//!                 │   handle_response_head / body / body_end    ▼
//!                 └──────────── advance() ◄──── wasi:io/poll([exchanges…, timer])
//!   poll_timeout ─► monotonic-clock subscribe-instant ─► handle_timeout
//!   poll_event   ─► results of the awaited ops, their progress, the notification queue
//! ```
//!
//! It follows the session's call order (`proto::session` module docs): after every input, drain
//! `poll_transmit`, `poll_abort` and `poll_event`; then wait on everything in flight at once.
//! Exchanges that outlive a call (a 2025-era `notifications/initialized` still being
//! acknowledged, a DELETE) stay in the table and are driven by the next call.

use std::collections::{HashMap, HashSet, VecDeque};

use serde_json::Value;

use super::auth::AuthHost;
use crate::bindings::wasi::clocks::monotonic_clock;
use crate::bindings::wasi::io::poll;
use crate::proto::session::{Event, ExchangeId, OpId, ProtocolError, Session, TransportFailure};
use crate::transport::wasi::{Step, WasiExchange};
use crate::transport::TransportError;

/// Most notifications kept until the host takes them; the oldest go first.
pub const MAX_QUEUED_NOTIFICATIONS: usize = 256;

/// Most waits of one `read_for` (each ends with something read or the deadline).
const MAX_READ_ROUNDS: usize = 100_000;

/// Most chunks read from one exchange before the driver looks at its timers again.
const MAX_DRAIN_STEPS: usize = 64;

/// Most progress events kept per operation (a server may send any number).
pub const MAX_PROGRESS_EVENTS: usize = 1024;

/// One progress notification as the driver saw it.
#[derive(Debug, Clone, PartialEq)]
pub struct SeenProgress {
    /// Progress so far.
    pub progress: f64,
    /// The total, when known.
    pub total: Option<f64>,
    /// The message, when sent.
    pub message: Option<String>,
    /// Arrival time, milliseconds since the driver's epoch.
    pub at_ms: u64,
}

/// What an operation ended with.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The result or error.
    pub result: Result<Value, ProtocolError>,
    /// Progress seen for it, in order (at most [`MAX_PROGRESS_EVENTS`]).
    pub progress: Vec<SeenProgress>,
    /// Completion time, milliseconds since the driver's epoch.
    pub at_ms: u64,
}

/// A session, its exchanges in flight and its queues.
pub struct Driver {
    session: Session,
    exchanges: HashMap<ExchangeId, WasiExchange>,
    /// Operations a caller waits for, with the progress seen so far.
    watched: HashMap<OpId, Vec<SeenProgress>>,
    done: HashMap<OpId, Outcome>,
    notifications: VecDeque<Event>,
    dropped_notifications: u64,
    epoch_ns: u64,
    /// Keys and answers for OAuth, when the session has auth configured.
    auth: Option<AuthHost>,
}

impl Driver {
    /// A driver for `session` (with `auth` when it has OAuth configured); its clock starts now.
    pub fn new(session: Session, auth: Option<AuthHost>) -> Self {
        Driver {
            session,
            exchanges: HashMap::new(),
            watched: HashMap::new(),
            done: HashMap::new(),
            notifications: VecDeque::new(),
            dropped_notifications: 0,
            epoch_ns: monotonic_clock::now(),
            auth,
        }
    }

    /// Milliseconds since the driver was created (monotonic clock).
    pub fn now(&self) -> u64 {
        monotonic_clock::now().saturating_sub(self.epoch_ns) / 1_000_000
    }

    /// The session (for state queries).
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The session, to change settings of later requests.
    pub fn session_mut(&mut self) -> &mut Session {
        &mut self.session
    }

    /// Starts an operation with `start` and runs until it completes.
    pub fn run(&mut self, start: StartFn) -> Outcome {
        let mut outcomes = self.run_all(vec![start]);
        outcomes.pop().unwrap_or(Outcome {
            result: Err(ProtocolError::Closed),
            progress: Vec::new(),
            at_ms: self.now(),
        })
    }

    /// Starts every operation, then runs until all of them complete. Outcomes are in the order
    /// of `starts`.
    pub fn run_all(&mut self, starts: Vec<StartFn>) -> Vec<Outcome> {
        let ops: Vec<OpId> = starts.into_iter().map(|s| self.start(s)).collect();
        let mut waiting: HashSet<OpId> = ops.iter().copied().collect();
        loop {
            self.pump();
            waiting.retain(|op| !self.done.contains_key(op));
            if waiting.is_empty() {
                break;
            }
            if !wait_all(&mut [&mut *self], None) {
                // Nothing in flight and no timer: the session can make no more progress.
                for op in waiting.drain() {
                    self.give_up(op);
                }
                break;
            }
        }
        let now = self.now();
        ops.into_iter()
            .map(|op| {
                self.done.remove(&op).unwrap_or(Outcome {
                    result: Err(ProtocolError::Closed),
                    progress: Vec::new(),
                    at_ms: now,
                })
            })
            .collect()
    }

    /// Starts an operation with `start` and watches it (its outcome waits in
    /// [`Driver::take_outcome`]); sends what it needs at once.
    pub fn start(&mut self, start: StartFn) -> OpId {
        let now = self.now();
        let op = start(&mut self.session, now);
        self.watched.insert(op, Vec::new());
        self.pump();
        op
    }

    /// The outcome of a watched operation, once it completed.
    pub fn take_outcome(&mut self, op: OpId) -> Option<Outcome> {
        self.done.remove(&op)
    }

    /// Stops watching `op` (its waiter is gone): a later outcome is not kept.
    pub fn forget(&mut self, op: OpId) {
        self.watched.remove(&op);
        self.done.remove(&op);
    }

    /// Ends a watched operation that can make no more progress with a `Network` error.
    fn give_up(&mut self, op: OpId) {
        let result = Err(ProtocolError::Network(
            "no exchange in flight and no timer pending for this operation".into(),
        ));
        self.complete(op, result);
    }

    /// Records the outcome of a watched operation (an unwatched one is not kept).
    fn complete(&mut self, op: OpId, result: Result<Value, ProtocolError>) {
        if let Some(progress) = self.watched.remove(&op) {
            let at_ms = self.now();
            self.done.insert(
                op,
                Outcome {
                    result,
                    progress,
                    at_ms,
                },
            );
        }
    }

    /// The session's next deadline on the monotonic clock, in nanoseconds.
    fn deadline_ns(&self) -> Option<u64> {
        self.session
            .poll_timeout()
            .map(|at| self.epoch_ns.saturating_add(at.saturating_mul(1_000_000)))
    }

    /// Feeds the session its timeout when its deadline passed; returns whether it did.
    fn fire_due_timer(&mut self, now_ns: u64) -> bool {
        if self.deadline_ns().is_none_or(|at| at > now_ns) {
            return false;
        }
        let now = self.now();
        self.session.handle_timeout(now);
        self.pump();
        true
    }

    /// Opens the 2026-era `subscriptions/listen` stream with `filter` (2025 era: the GET stream
    /// serves; the session completes the op at once). Its outcome is not kept.
    pub fn listen(&mut self, filter: Value) {
        let now = self.now();
        self.session.listen(filter, now);
        self.pump();
    }

    /// Reads every exchange in flight for at most `wait_ms` milliseconds, until a notification
    /// is queued (`0`: one non-blocking pass over what already arrived).
    pub fn read_for(&mut self, wait_ms: u64) {
        let deadline = monotonic_clock::now().saturating_add(wait_ms.saturating_mul(1_000_000));
        let mut polled = false;
        for _ in 0..MAX_READ_ROUNDS {
            self.pump();
            let due = monotonic_clock::now() >= deadline;
            if !self.notifications.is_empty() || (polled && due) {
                return;
            }
            if !wait_all(&mut [&mut *self], Some(deadline)) {
                return;
            }
            polled = true;
        }
    }

    /// Takes the queued notifications and how many were dropped since the last take.
    pub fn take_notifications(&mut self) -> (Vec<Event>, u64) {
        let dropped = std::mem::take(&mut self.dropped_notifications);
        (self.notifications.drain(..).collect(), dropped)
    }

    /// Moves everything the session wants done: sends, aborts, events, until it wants nothing.
    fn pump(&mut self) {
        loop {
            let mut busy = false;
            while let Some(ex) = self.session.poll_abort() {
                busy = true;
                // Dropping the exchange drops its wasi resources, which aborts the request.
                self.exchanges.remove(&ex);
            }
            while let Some(t) = self.session.poll_transmit() {
                busy = true;
                let mut request = t.request;
                if let (false, Some(auth)) = (request.extras.proofs.is_empty(), self.auth.as_mut())
                {
                    // DPoP proofs and client assertions are signed now, with the current time.
                    if let Err(e) = auth.sign_proofs(&mut request) {
                        let now = self.now();
                        let failure =
                            TransportFailure::Network(format!("could not sign the request: {e}"));
                        self.session.handle_failure(t.exchange, failure, now);
                        continue;
                    }
                }
                match WasiExchange::send(&request) {
                    Ok(ex) => {
                        self.exchanges.insert(t.exchange, ex);
                    }
                    Err(e) => {
                        let now = self.now();
                        self.session.handle_failure(t.exchange, failure(e), now);
                    }
                }
            }
            while let Some(e) = self.session.poll_event() {
                busy = true;
                self.dispatch(e);
            }
            if !busy {
                break;
            }
        }
    }

    fn dispatch(&mut self, event: Event) {
        match event {
            Event::Completed { op, result } => self.complete(op, result),
            Event::Progress {
                op,
                progress,
                total,
                message,
            } => {
                let at_ms = self.now();
                if let Some(seen) = self.watched.get_mut(&op) {
                    if seen.len() < MAX_PROGRESS_EVENTS {
                        seen.push(SeenProgress {
                            progress,
                            total,
                            message,
                            at_ms,
                        });
                    }
                }
            }
            Event::InputRequest {
                input,
                method,
                params,
                ..
            } => {
                // Answered by the host (host-input), or refused when it does not answer this kind.
                let endpoint = &self.session.config().endpoint;
                let answer = super::input::answer(&method, &params, endpoint);
                let now = self.now();
                // The op may have ended meanwhile: then the input is unknown, which is fine.
                let _ = self.session.answer_input(input, answer, now);
            }
            Event::Auth(e) => {
                let now = self.now();
                let line = self
                    .auth
                    .as_mut()
                    .and_then(|a| a.answer(&mut self.session, e, now));
                if let Some(message) = line {
                    self.queue(Event::Diagnostic { message });
                }
            }
            Event::Connected(_) | Event::InputCancelled { .. } => {}
            other => self.queue(other),
        }
    }

    /// Keeps a notification for the host, as one the session raised.
    pub fn notify(&mut self, event: Event) {
        self.queue(event);
    }

    /// Keeps a notification for the host (the oldest goes when the queue is full).
    fn queue(&mut self, event: Event) {
        if self.notifications.len() >= MAX_QUEUED_NOTIFICATIONS {
            self.notifications.pop_front();
            self.dropped_notifications += 1;
        }
        self.notifications.push_back(event);
    }

    /// Feeds what an exchange has ready, chunk by chunk, pumping after each so that progress is
    /// stamped when its bytes arrived; at most [`MAX_DRAIN_STEPS`] chunks, so that a server that
    /// writes faster than the client reads cannot keep the timers from firing (the next wait
    /// fires them, then finds the exchange still ready).
    fn drain_exchange(&mut self, id: ExchangeId) {
        for _ in 0..MAX_DRAIN_STEPS {
            let Some(ex) = self.exchanges.get_mut(&id) else {
                return;
            };
            let step = ex.advance();
            let now = self.now();
            match step {
                Step::Pending => return,
                Step::Head(head) => self.session.handle_response_head(id, head, now),
                Step::Body(bytes) => self.session.handle_body(id, &bytes, now),
                Step::End => {
                    self.exchanges.remove(&id);
                    self.session.handle_body_end(id, now);
                }
                Step::Failed(e) => {
                    self.exchanges.remove(&id);
                    self.session.handle_failure(id, failure(e), now);
                }
            }
            self.pump();
        }
    }
}

/// Waits until an exchange of any of `drivers` is ready, a session's next timer is due or
/// `wake_at_ns` (a monotonic instant) passed, whichever comes first, and feeds what happened to
/// the sessions: one `wasi:io/poll` over every driver's exchanges and the earliest deadline.
/// Returns `false` when there is nothing to wait for.
pub fn wait_all(drivers: &mut [&mut Driver], wake_at_ns: Option<u64>) -> bool {
    let now_ns = monotonic_clock::now();
    let mut fired = false;
    for d in drivers.iter_mut() {
        fired |= d.fire_due_timer(now_ns);
    }
    if fired {
        return true;
    }
    let ids: Vec<(usize, ExchangeId)> = drivers
        .iter()
        .enumerate()
        .flat_map(|(i, d)| {
            d.exchanges
                .iter()
                .filter(|(_, ex)| ex.pollable().is_some())
                .map(move |(id, _)| (i, *id))
        })
        .collect();
    let deadline = drivers
        .iter()
        .filter_map(|d| d.deadline_ns())
        .chain(wake_at_ns)
        .min();
    if ids.is_empty() && deadline.is_none() {
        return false;
    }
    let timer = deadline.map(monotonic_clock::subscribe_instant);
    let ready: Vec<u32> = {
        let mut list: Vec<&poll::Pollable> = ids
            .iter()
            .filter_map(|(i, id)| {
                drivers
                    .get(*i)
                    .and_then(|d| d.exchanges.get(id))
                    .and_then(WasiExchange::pollable)
            })
            .collect();
        if let Some(t) = &timer {
            list.push(t);
        }
        poll::poll(&list)
    };
    drop(timer);
    for index in ready {
        match ids.get(index as usize) {
            Some((i, id)) => {
                if let Some(d) = drivers.get_mut(*i) {
                    d.drain_exchange(*id);
                }
            }
            None => {
                let now_ns = monotonic_clock::now();
                for d in drivers.iter_mut() {
                    d.fire_due_timer(now_ns);
                }
            }
        }
    }
    true
}

/// What the session is told when the transport fails: a broken body after the head is
/// `BodyInterrupted` (an SSE stream may then be resumed or re-issued), anything else `Network`.
fn failure(e: TransportError) -> TransportFailure {
    match e {
        TransportError::BodyRead { message } => TransportFailure::BodyInterrupted(message),
        TransportError::Network { message } => TransportFailure::Network(message),
        other => TransportFailure::Network(other.to_string()),
    }
}

/// Starts one operation on the session at `now`.
pub type StartFn = Box<dyn FnOnce(&mut Session, u64) -> OpId>;
