//! The native host: [`Host`] over the harness's own transports, so that the harness runs
//! mcp-edge's one session driver ([`mcp_edge::client::Client`]) as every other target does.
//!
//! ```text
//!   stdio: child process ─ stdin/stdout threads ─┐
//!   http:  one thread per exchange (TcpStream) ──┴─► inbox (mpsc) ─► pieces, one line each
//!                                                                     │ released one at a time
//!   driver tasks ◄─ read_stdout / send / next_chunk ◄─ slots ◄────────┘ by the executor
//! ```
//!
//! Body chunks and stdout bytes are split at `\n` (one piece per line), so that each message is
//! recorded right before the events it causes (an SSE event is dispatched at a blank line, an
//! NDJSON message at its newline).

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, VecDeque};
use std::future::poll_fn;
use std::rc::{Rc, Weak};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::task::Poll;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use mcp_edge::proto::auth::AuthError;
use mcp_edge::proto::http::{HttpRequest, ResponseHead};
use mcp_edge::proto::session::TransportFailure;
use mcp_edge::runtime::LocalFuture;
use mcp_edge::transport::{AbortSwitch, AuthHost, Host, HostResponse, TransportError};
use serde_json::{json, Value};

use crate::executor::{self, Executor, Source};
use crate::http::{HttpInput, HttpTransport};
use crate::stdio::{ShutdownOutcome, StdioProcess};

/// Bound of the inbox (reads from the transports waiting for the executor).
const INPUT_QUEUE: usize = 1024;
/// Characters of stderr quoted when a server exits.
const STDERR_QUOTE: usize = 2000;

/// What the transport threads report to the host.
#[derive(Debug)]
pub enum Input {
    /// Bytes the server wrote to stdout.
    Stdout(Vec<u8>),
    /// stdout reached end of file (`None`) or failed.
    StdoutClosed(Option<String>),
    /// Writing to the server's stdin failed.
    StdinFailed(String),
    /// Progress of one HTTP exchange (the host's key of it).
    Http(u64, HttpInput),
}

/// Where transport facts no message carries go (the transcript's `transport` entries).
pub type NoteFn = Rc<dyn Fn(Value)>;

enum Transport {
    None,
    Stdio(StdioProcess),
    Http(HttpTransport),
}

/// What a stdout reader gets.
enum StdoutPiece {
    Bytes(Vec<u8>),
    Closed(Option<String>),
}

struct Shared {
    executor: Executor,
    epoch: Instant,
    tx: SyncSender<Input>,
    rx: Receiver<Input>,
    transport: RefCell<Transport>,
    notes: NoteFn,
    /// Pieces not yet handed to their readers, in arrival order.
    pending: RefCell<VecDeque<Input>>,
    /// The pieces handed over, per exchange (its key), not yet read.
    exchanges: RefCell<HashMap<u64, VecDeque<HttpInput>>>,
    stdout: RefCell<VecDeque<StdoutPiece>>,
    stdout_closed: Cell<bool>,
    next_key: Cell<u64>,
}

/// The native host of one client. Cheap to clone (a shared handle): the harness keeps one to
/// run the executor and shut the transport down.
#[derive(Clone)]
pub struct NativeHost {
    shared: Rc<Shared>,
}

impl NativeHost {
    /// A host without a transport yet; transport facts go to `notes`.
    pub fn new(notes: NoteFn) -> Self {
        let (tx, rx) = mpsc::sync_channel(INPUT_QUEUE);
        NativeHost {
            shared: Rc::new(Shared {
                executor: Executor::default(),
                epoch: Instant::now(),
                tx,
                rx,
                transport: RefCell::new(Transport::None),
                notes,
                pending: RefCell::default(),
                exchanges: RefCell::default(),
                stdout: RefCell::default(),
                stdout_closed: Cell::new(false),
                next_key: Cell::new(0),
            }),
        }
    }

    /// Starts the stdio server `cmd`; its output comes into this host.
    pub fn start_stdio(&self, cmd: &crate::StdioCommand) -> Result<(), crate::HarnessError> {
        let p = StdioProcess::spawn(cmd, self.shared.tx.clone())?;
        *self.shared.transport.borrow_mut() = Transport::Stdio(p);
        Ok(())
    }

    /// Makes this an HTTP host (loopback `http://` exchanges, one thread each).
    pub fn start_http(&self) {
        let h = HttpTransport::new(self.shared.tx.clone());
        *self.shared.transport.borrow_mut() = Transport::Http(h);
    }

    /// Runs `future` and the driver's tasks until `future` completes; `None` once `bound`
    /// passed first.
    pub fn block_on<T>(
        &self,
        future: impl std::future::Future<Output = T>,
        bound: Duration,
    ) -> Option<T> {
        self.shared.executor.block_on(future, bound, &*self.shared)
    }

    /// A future that resolves `delay` from now (on this host's executor).
    pub fn sleep(&self, delay: Duration) -> impl std::future::Future<Output = ()> {
        self.shared.executor.sleep(delay)
    }

    /// Shuts the transport down (stdio: close stdin, grace period, kill; HTTP: abort every
    /// exchange). How a stdio server ended.
    pub fn shutdown(&self) -> Option<ShutdownOutcome> {
        match &mut *self.shared.transport.borrow_mut() {
            Transport::Stdio(p) => Some(p.shutdown()),
            Transport::Http(h) => {
                h.abort_all();
                None
            }
            Transport::None => None,
        }
    }

    /// Drops the driver's tasks and timers (they hold the driver, which holds this host).
    pub fn clear(&self) {
        self.shared.executor.clear();
    }

    /// The stdio server's stderr tail, if this is a stdio host.
    pub fn stderr_tail(&self, max_chars: usize) -> Option<String> {
        match &*self.shared.transport.borrow() {
            Transport::Stdio(p) => Some(p.stderr_tail(max_chars)),
            _ => None,
        }
    }

    /// The stdio server's stderr log (shared with its drain thread).
    pub fn stderr_log(
        &self,
    ) -> Option<std::sync::Arc<std::sync::Mutex<crate::stderr_log::StderrLog>>> {
        match &*self.shared.transport.borrow() {
            Transport::Stdio(p) => Some(p.stderr()),
            _ => None,
        }
    }
}

impl Shared {
    /// Why stdout ended: the exit status (or the read error) and stderr's last lines.
    fn exit_reason(&self, err: Option<String>) -> String {
        let mut transport = self.transport.borrow_mut();
        let Transport::Stdio(p) = &mut *transport else {
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

    fn abort_exchange(&self, key: u64) {
        self.exchanges.borrow_mut().remove(&key);
        if let Transport::Http(h) = &*self.transport.borrow() {
            h.abort(key);
        }
    }
}

/// Splits `bytes` after every `\n`.
fn lines(bytes: &[u8]) -> impl Iterator<Item = Vec<u8>> + '_ {
    bytes.split_inclusive(|b| *b == b'\n').map(<[u8]>::to_vec)
}

impl Source for Shared {
    fn has_pending(&self) -> bool {
        !self.pending.borrow().is_empty()
    }

    fn release(&self) -> bool {
        let Some(input) = self.pending.borrow_mut().pop_front() else {
            return false;
        };
        match input {
            Input::Stdout(bytes) => self
                .stdout
                .borrow_mut()
                .push_back(StdoutPiece::Bytes(bytes)),
            Input::StdoutClosed(err) => {
                if !self.stdout_closed.replace(true) {
                    self.stdout.borrow_mut().push_back(StdoutPiece::Closed(err));
                }
            }
            Input::StdinFailed(e) => (self.notes)(json!({"stdin_failed": e})),
            // An exchange nobody reads any more (aborted, cancelled) gets nothing.
            Input::Http(key, what) => {
                if let Some(q) = self.exchanges.borrow_mut().get_mut(&key) {
                    q.push_back(what);
                }
            }
        }
        true
    }

    fn wait(&self, timeout: Duration) {
        let input = match self.rx.recv_timeout(timeout) {
            Ok(input) => input,
            Err(RecvTimeoutError::Timeout) => return,
            // Unreachable while `self.tx` lives.
            Err(RecvTimeoutError::Disconnected) => return std::thread::sleep(timeout),
        };
        let mut pending = self.pending.borrow_mut();
        match input {
            Input::Stdout(bytes) => pending.extend(lines(&bytes).map(Input::Stdout)),
            Input::Http(key, HttpInput::Body(bytes)) => {
                pending.extend(lines(&bytes).map(|piece| Input::Http(key, HttpInput::Body(piece))))
            }
            other => pending.push_back(other),
        }
    }
}

/// One exchange's abort switch; the host's key of the exchange is assigned with it.
pub struct NativeAbort {
    key: u64,
    aborted: Cell<bool>,
    shared: Weak<Shared>,
}

impl AbortSwitch for NativeAbort {
    fn abort(&self) {
        if self.aborted.replace(true) {
            return;
        }
        if let Some(s) = self.shared.upgrade() {
            // Shuts the socket down: the exchange's thread stops, the server sees the close.
            s.abort_exchange(self.key);
            s.executor.wake();
        }
    }

    fn is_aborted(&self) -> bool {
        self.aborted.get()
    }
}

/// A response whose head arrived; its body comes from the exchange's slot, one line at a time.
pub struct NativeResponse {
    head: ResponseHead,
    key: u64,
    shared: Rc<Shared>,
    /// The end or the failure was read (sticky).
    ended: Option<Result<(), TransportError>>,
}

impl NativeResponse {
    fn take(&self) -> Option<HttpInput> {
        let piece = self
            .shared
            .exchanges
            .borrow_mut()
            .get_mut(&self.key)?
            .pop_front();
        if piece.is_some() {
            // Whatever this piece causes runs before the next one is handed over.
            self.shared.executor.wake();
        }
        piece
    }
}

impl HostResponse for NativeResponse {
    fn head(&self) -> &ResponseHead {
        &self.head
    }

    async fn next_chunk(&mut self) -> Result<Option<Vec<u8>>, TransportError> {
        poll_fn(|_| {
            if let Some(end) = &self.ended {
                return Poll::Ready(end.clone().map(|()| None));
            }
            let piece = self.take();
            let ended = match piece {
                None => return Poll::Pending,
                Some(HttpInput::Body(bytes)) => return Poll::Ready(Ok(Some(bytes))),
                Some(HttpInput::End) => Ok(()),
                Some(HttpInput::Failed(f)) => Err(transport_error(f)),
                Some(HttpInput::Head(_)) => Err(TransportError::InvalidResponse {
                    message: "a second response head".into(),
                }),
            };
            self.shared.exchanges.borrow_mut().remove(&self.key);
            self.ended = Some(ended.clone());
            Poll::Ready(ended.map(|()| None))
        })
        .await
    }

    fn cancel(&mut self) {
        if self.ended.is_none() {
            self.ended = Some(Ok(()));
            self.shared.abort_exchange(self.key);
        }
    }
}

impl Drop for NativeResponse {
    fn drop(&mut self) {
        self.cancel();
    }
}

/// Removes an exchange's slot (and stops its thread) when `send` is dropped before its head.
struct SendGuard<'a> {
    key: u64,
    shared: &'a Shared,
    armed: bool,
}

impl Drop for SendGuard<'_> {
    fn drop(&mut self) {
        if self.armed {
            self.shared.abort_exchange(self.key);
        }
    }
}

/// The driver maps these back: `Network` before the head, `BodyRead` after it.
fn transport_error(f: TransportFailure) -> TransportError {
    match f {
        TransportFailure::BodyInterrupted(message) => TransportError::BodyRead { message },
        TransportFailure::Network(message) => TransportError::Network { message },
        other => TransportError::Network {
            message: format!("{other:?}"),
        },
    }
}

impl Host for NativeHost {
    type Abort = NativeAbort;
    type Response = NativeResponse;
    type Timer = executor::Timer;
    type Auth = NoAuth;

    fn now(&self) -> u64 {
        u64::try_from(self.shared.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    fn unix_ms(&self) -> u64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
    }

    fn spawn(&self, task: LocalFuture<()>) {
        self.shared.executor.spawn(task);
    }

    fn timer(&self, delay_ms: u64, fire: Box<dyn FnOnce()>) -> Option<executor::Timer> {
        Some(
            self.shared
                .executor
                .timer(Duration::from_millis(delay_ms), fire),
        )
    }

    fn new_abort(&self) -> NativeAbort {
        let key = self.shared.next_key.get();
        self.shared.next_key.set(key + 1);
        NativeAbort {
            key,
            aborted: Cell::new(false),
            shared: Rc::downgrade(&self.shared),
        }
    }

    async fn send(
        &self,
        request: &HttpRequest,
        abort: &NativeAbort,
    ) -> Result<NativeResponse, TransportError> {
        if abort.is_aborted() {
            return Err(TransportError::Aborted);
        }
        let key = abort.key;
        let shared = &*self.shared;
        match &*shared.transport.borrow() {
            Transport::Http(h) => {
                shared.exchanges.borrow_mut().insert(key, VecDeque::new());
                h.send(key, request.clone());
            }
            _ => {
                return Err(TransportError::Network {
                    message: "HTTP request on a stdio transport".into(),
                })
            }
        }
        let mut guard = SendGuard {
            key,
            shared,
            armed: true,
        };
        let head = poll_fn(|_| {
            if abort.is_aborted() {
                return Poll::Ready(Err(TransportError::Aborted));
            }
            let piece = match shared.exchanges.borrow_mut().get_mut(&key) {
                // Its slot goes with an abort.
                None => return Poll::Ready(Err(TransportError::Aborted)),
                Some(q) => q.pop_front(),
            };
            let Some(piece) = piece else {
                return Poll::Pending;
            };
            Poll::Ready(match piece {
                HttpInput::Head(head) => Ok(head),
                HttpInput::Failed(f) => Err(transport_error(f)),
                HttpInput::Body(_) | HttpInput::End => Err(TransportError::InvalidResponse {
                    message: "the response ended before its head".into(),
                }),
            })
        });
        let head = head.await;
        // A piece was read: whatever it causes runs before the next one is handed over.
        shared.executor.wake();
        match head {
            Ok(head) => {
                guard.armed = false;
                Ok(NativeResponse {
                    head,
                    key,
                    shared: self.shared.clone(),
                    ended: None,
                })
            }
            Err(e) => {
                if !matches!(e, TransportError::InvalidResponse { .. }) {
                    // Ended by the exchange itself: nothing to stop.
                    guard.armed = false;
                    shared.exchanges.borrow_mut().remove(&key);
                }
                Err(e)
            }
        }
    }

    fn auth(&self) -> Option<&NoAuth> {
        None
    }

    fn write_line(&self, line: Vec<u8>) -> Result<(), TransportError> {
        match &*self.shared.transport.borrow() {
            // A failed write is reported by the writer thread (`Input::StdinFailed`); a full
            // backlog here.
            Transport::Stdio(p) => p
                .write_line(line)
                .map_err(|message| TransportError::Network { message }),
            _ => Err(TransportError::Unsupported {
                message: "this host has no stdio transport".into(),
            }),
        }
    }

    async fn read_stdout(&self) -> Result<Vec<u8>, String> {
        let shared = &*self.shared;
        let piece = poll_fn(|_| match shared.stdout.borrow_mut().pop_front() {
            Some(p) => Poll::Ready(p),
            None => Poll::Pending,
        })
        .await;
        shared.executor.wake();
        match piece {
            StdoutPiece::Bytes(bytes) => Ok(bytes),
            StdoutPiece::Closed(err) => {
                let reason = shared.exit_reason(err);
                (shared.notes)(json!({"stdio_closed": reason}));
                Err(reason)
            }
        }
    }
}

/// The harness signs in nowhere: no session it drives has OAuth configured.
#[derive(Clone, Copy, Debug)]
pub enum NoAuth {}

impl AuthHost for NoAuth {
    type Stored = std::future::Ready<Result<(), String>>;

    fn random_bytes(&self, _n: usize) -> Result<Vec<u8>, String> {
        match *self {}
    }
    async fn load(&self, _key: &str) -> Result<Option<String>, String> {
        match *self {}
    }
    fn write(&self, _key: &str, _value: &str) -> Self::Stored {
        match *self {}
    }
    fn delete(&self, _key: &str) -> Self::Stored {
        match *self {}
    }
    async fn all_stored(&self) {
        match *self {}
    }
    async fn lock(&self, _name: &str) -> Result<(), String> {
        match *self {}
    }
    fn unlock(&self, _name: &str) {
        match *self {}
    }
    async fn dpop_key(&self) -> Result<Value, AuthError> {
        match *self {}
    }
    async fn sign_in(&self, _url: &str) -> Option<Result<String, AuthError>> {
        match *self {}
    }
    async fn sign_proofs(&self, _request: &mut HttpRequest) -> Result<(), AuthError> {
        match *self {}
    }
}
