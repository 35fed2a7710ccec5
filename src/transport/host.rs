//! What a target gives the session driver ([`crate::client::Client`]): a clock, timers, a way to
//! run background tasks, HTTP exchanges it can abort, and what OAuth needs from outside the core
//! (storage, randomness, keys, the person's sign-in). Nothing here names a JS type or a WASI
//! import; the fetch host (`wasm32-unknown-unknown`) implements it over `fetch` and the global
//! timers.
//!
//! ```text
//!   driver ─ new_abort + send(HttpRequest) ─► Response { head } ─ next_chunk … None
//!          ─ timer(delay, fire) ─► Timer (dropping it cancels it)
//!          ─ spawn(task)        ─► runs on the host's one thread
//! ```
//!
//! All methods are called from the one thread the driver lives on; none may block.

use std::future::Future;

use serde_json::Value;

use super::TransportError;
use crate::proto::auth::AuthError;
use crate::proto::http::{HttpRequest, ResponseHead};
use crate::runtime::LocalFuture;

/// The target a driver runs on.
// The futures are not `Send`: every host runs them on one thread (a JS event loop, the
// component's poll loop), which is why the trait uses `async fn` without bounds.
#[allow(async_fn_in_trait)]
pub trait Host: 'static {
    /// One request's abort switch, shared by the driver and the task reading the exchange.
    type Abort: AbortSwitch + 'static;
    /// A response whose head arrived.
    type Response: HostResponse + 'static;
    /// An armed timer; dropping it cancels it, so no timer outlives the work it guards.
    type Timer: 'static;
    /// What OAuth needs from the host.
    type Auth: AuthHost;

    /// Milliseconds on a monotonic clock that starts near 0 when the host was made.
    fn now(&self) -> u64;

    /// Milliseconds since the Unix epoch (wall clock): `Retry-After` dates, token expiry.
    fn unix_ms(&self) -> u64;

    /// Runs `task` to completion in the background.
    fn spawn(&self, task: LocalFuture<()>);

    /// Calls `fire` once, `delay_ms` from now, unless the returned timer is dropped first.
    /// `None` when the scope has no timers (the session's deadlines then never fire).
    fn timer(&self, delay_ms: u64, fire: Box<dyn FnOnce()>) -> Option<Self::Timer>;

    /// A fresh, un-aborted switch for one exchange.
    fn new_abort(&self) -> Self::Abort;

    /// Sends `request`; resolves when the response head has arrived, before any of the body.
    /// Fails with [`TransportError::Aborted`] once `abort` fired. OAuth requests
    /// (`request.extras.oauth`) may go through a fetch of their own.
    async fn send(
        &self,
        request: &HttpRequest,
        abort: &Self::Abort,
    ) -> Result<Self::Response, TransportError>;

    /// The authorization host, when the session has OAuth configured and the host answers it.
    fn auth(&self) -> Option<&Self::Auth>;

    /// stdio framing: writes one line (ending in `\n`) to the server's stdin. Hosts that start
    /// no processes refuse.
    fn write_line(&self, line: Vec<u8>) -> Result<(), TransportError> {
        let _ = line;
        Err(TransportError::Unsupported {
            message: "this host has no stdio transport".into(),
        })
    }

    /// stdio framing: the next bytes the server wrote to stdout; `Err` with the reason once
    /// stdout ended or failed (the process exited, its stderr's last lines).
    async fn read_stdout(&self) -> Result<Vec<u8>, String> {
        Err("this host has no stdio transport".into())
    }
}

/// One exchange's abort switch.
pub trait AbortSwitch {
    /// Aborts the exchange: its pending `send` or `next_chunk` fails with
    /// [`TransportError::Aborted`] and the connection is torn down.
    fn abort(&self);
    /// Whether [`AbortSwitch::abort`] was called.
    fn is_aborted(&self) -> bool;
}

/// A response whose head arrived; its body is read chunk by chunk.
#[allow(async_fn_in_trait)]
pub trait HostResponse {
    /// Status and the headers the scope may read.
    fn head(&self) -> &ResponseHead;
    /// The next chunk of the body as it arrived; `Ok(None)` at its end (and after
    /// [`HostResponse::cancel`]). Errors are sticky.
    async fn next_chunk(&mut self) -> Result<Option<Vec<u8>>, TransportError>;
    /// Stops reading and releases the body without aborting the request (its final answer
    /// arrived).
    fn cancel(&mut self);
}

/// What OAuth needs from the host: storage that runs its calls in order, randomness, the DPoP
/// key and signatures, a lock shared by the host's clients, and the person's sign-in.
#[allow(async_fn_in_trait)]
pub trait AuthHost: Clone + 'static {
    /// A storage write or delete, queued when it was made; resolves with how it went.
    type Stored: Future<Output = Result<(), String>> + 'static;

    /// `n` cryptographically random bytes.
    fn random_bytes(&self, n: usize) -> Result<Vec<u8>, String>;
    /// Reads `key` (after every earlier storage call): `None` when nothing is stored.
    async fn load(&self, key: &str) -> Result<Option<String>, String>;
    /// Writes `value` under `key`, queued now, after every earlier storage call.
    fn write(&self, key: &str, value: &str) -> Self::Stored;
    /// Removes `key`, queued now like [`AuthHost::write`].
    fn delete(&self, key: &str) -> Self::Stored;
    /// Resolves once every storage call queued so far has run.
    async fn all_stored(&self);
    /// Takes the named lock (one refresh of a shared token at a time).
    async fn lock(&self, name: &str) -> Result<(), String>;
    /// Releases the named lock.
    fn unlock(&self, name: &str);
    /// The DPoP key's public JWK (the key is made once and never leaves the host).
    async fn dpop_key(&self) -> Result<Value, AuthError>;
    /// Has the person sign in at `url`; resolves with the callback URL the authorization server
    /// redirected to. `None` when the host has no sign-in handler.
    async fn sign_in(&self, url: &str) -> Option<Result<String, AuthError>>;
    /// Signs every proof `request` asks for (DPoP, client assertions), just before it is sent.
    async fn sign_proofs(&self, request: &mut HttpRequest) -> Result<(), AuthError>;
}
