//! The WASI host: [`Host`] for the component (`wasm32-wasip2`) over `wasi:http` exchanges, the
//! component's executor ([`super::wasi_executor`]) and `wasi:clocks`, with an authorization host
//! that keeps its records in the instance's memory and signs with RustCrypto `p256`.
//!
//! ```text
//!   Event::Auth(Load/Save/Delete) ─► memory store (shared by the instance's clients)
//!   Event::Auth(NeedEntropy)      ─► wasi:random get-random-bytes
//!   Event::Auth(NeedDpopKey)      ─► a P-256 key from wasi:random (RustCrypto p256)
//!   Event::Auth(Authorize{url})   ─► fails with AUTH_INTERACTION_REQUIRED + url (no person here)
//!   Transmit with proofs          ─► signing input (core) ─► ES256 (p256) ─► JWT into the request
//! ```

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use serde_json::Value;

use super::es256::Es256Key;
use super::host::{AbortSwitch, AuthHost, Host, HostResponse};
use super::wasi::{Step, WasiExchange};
use super::wasi_executor::{self, MAX_READY_READS};
use super::TransportError;
use crate::bindings::wasi::clocks::{monotonic_clock, wall_clock};
use crate::bindings::wasi::random::random;
use crate::proto::auth::{jose, AuthError, KeyRole, Secret};
use crate::proto::http::{HttpRequest, ResponseHead};
use crate::runtime::LocalFuture;

/// Most records the memory store keeps (tokens and registrations per server and issuer, pending
/// sign-ins): beyond it the oldest writes are forgotten first.
pub const MAX_STORED_RECORDS: usize = 256;

thread_local! {
    /// The records of every client of this component instance, in write order.
    static STORE: RefCell<Vec<(String, String)>> = const { RefCell::new(Vec::new()) };
    /// The instance's DPoP key, made on first use: the DPoP-bound tokens in `STORE` (and an
    /// authorization code bound with `dpop_jkt`) stay usable by every client of the instance, as a
    /// page's clients share one WebCrypto key.
    static DPOP_KEY: RefCell<Option<Rc<Es256Key>>> = const { RefCell::new(None) };
}

/// Unix time in milliseconds (`wasi:clocks/wall-clock`).
pub fn unix_ms() -> u64 {
    let t = wall_clock::now();
    t.seconds
        .saturating_mul(1000)
        .saturating_add(u64::from(t.nanoseconds) / 1_000_000)
}

/// `len` random bytes from the host (`wasi:random/random`, a CSPRNG).
fn random_bytes(len: usize) -> Vec<u8> {
    random::get_random_bytes(len as u64)
}

/// The host of one client in the component.
pub struct WasiHost {
    epoch_ns: u64,
    auth: Option<WasiAuth>,
}

impl WasiHost {
    /// A host whose clock starts now; `auth` when the session has OAuth configured.
    pub fn new(auth: Option<WasiAuth>) -> Self {
        WasiHost {
            epoch_ns: monotonic_clock::now(),
            auth,
        }
    }
}

impl Host for WasiHost {
    type Abort = WasiAbort;
    type Response = WasiResponse;
    type Timer = wasi_executor::Timer;
    type Auth = WasiAuth;

    fn now(&self) -> u64 {
        monotonic_clock::now().saturating_sub(self.epoch_ns) / 1_000_000
    }

    fn unix_ms(&self) -> u64 {
        unix_ms()
    }

    fn spawn(&self, task: LocalFuture<()>) {
        wasi_executor::spawn(task);
    }

    fn timer(&self, delay_ms: u64, fire: Box<dyn FnOnce()>) -> Option<wasi_executor::Timer> {
        Some(wasi_executor::timer(delay_ms, fire))
    }

    fn new_abort(&self) -> WasiAbort {
        WasiAbort::default()
    }

    async fn send(
        &self,
        request: &HttpRequest,
        abort: &WasiAbort,
    ) -> Result<WasiResponse, TransportError> {
        if abort.is_aborted() {
            return Err(TransportError::Aborted);
        }
        let exchange = Rc::new(RefCell::new(WasiExchange::send(request)?));
        let mut response = WasiResponse {
            head: ResponseHead {
                status: 0,
                headers: Vec::new(),
            },
            exchange,
            abort: abort.clone(),
            ready_reads: 0,
        };
        match (Advance { r: &mut response }).await {
            Step::Head(head) => {
                response.head = head;
                Ok(response)
            }
            Step::Failed(e) => Err(e),
            _ => Err(TransportError::InvalidResponse {
                message: "the response ended before its head".into(),
            }),
        }
    }

    fn auth(&self) -> Option<&WasiAuth> {
        self.auth.as_ref()
    }
}

/// An exchange's abort switch: the reader sees it on its next poll and drops the exchange, which
/// aborts the request.
#[derive(Clone, Default)]
pub struct WasiAbort(Rc<Cell<bool>>);

impl AbortSwitch for WasiAbort {
    fn abort(&self) {
        self.0.set(true);
    }

    fn is_aborted(&self) -> bool {
        self.0.get()
    }
}

/// A `wasi:http` response whose head arrived.
pub struct WasiResponse {
    head: ResponseHead,
    exchange: Rc<RefCell<WasiExchange>>,
    abort: WasiAbort,
    /// Chunks handed over since the reader last waited.
    ready_reads: usize,
}

/// The next step of an exchange: waits (on the executor) while nothing is ready, yields after
/// [`MAX_READY_READS`] chunks in a row so that timers can fire.
struct Advance<'a> {
    r: &'a mut WasiResponse,
}

impl Future for Advance<'_> {
    type Output = Step;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Step> {
        let r = &mut *self.r;
        if r.abort.is_aborted() {
            return Poll::Ready(Step::Failed(TransportError::Aborted));
        }
        if r.ready_reads >= MAX_READY_READS {
            r.ready_reads = 0;
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        let step = r.exchange.borrow_mut().advance();
        match step {
            Step::Pending => {
                r.ready_reads = 0;
                wasi_executor::wait_on(&r.exchange);
                Poll::Pending
            }
            other => {
                r.ready_reads += 1;
                Poll::Ready(other)
            }
        }
    }
}

impl HostResponse for WasiResponse {
    fn head(&self) -> &ResponseHead {
        &self.head
    }

    async fn next_chunk(&mut self) -> Result<Option<Vec<u8>>, TransportError> {
        match (Advance { r: self }).await {
            Step::Body(bytes) => Ok(Some(bytes)),
            Step::End | Step::Head(_) => Ok(None),
            Step::Failed(e) => {
                // Dropping the exchange's resources aborts the request.
                self.exchange.replace(WasiExchange::done());
                Err(e)
            }
            Step::Pending => Ok(None),
        }
    }

    fn cancel(&mut self) {
        self.exchange.replace(WasiExchange::done());
    }
}

/// What one client holds for authorization: its keys. Records live in the instance's memory
/// store, shared by its clients.
#[derive(Clone, Default)]
pub struct WasiAuth(Rc<RefCell<Keys>>);

#[derive(Default)]
struct Keys {
    client_key_pem: Option<Secret>,
    dpop: Option<Rc<Es256Key>>,
    client: Option<Es256Key>,
}

impl WasiAuth {
    /// For a client whose `private_key_jwt` key is `client_key_pem`.
    pub fn new(client_key_pem: Option<String>) -> Self {
        WasiAuth(Rc::new(RefCell::new(Keys {
            client_key_pem: client_key_pem.map(Secret::new),
            dpop: None,
            client: None,
        })))
    }

    fn sign(&self, role: KeyRole, input: &[u8]) -> Result<Vec<u8>, AuthError> {
        let mut keys = self.0.borrow_mut();
        if role == KeyRole::Client && keys.client.is_none() {
            let pem = keys.client_key_pem.as_ref().ok_or_else(|| {
                AuthError::InvalidConfig("private_key_jwt needs the client's private key".into())
            })?;
            keys.client = Some(Es256Key::from_pkcs8_pem(pem.expose()).map_err(AuthError::Signing)?);
        }
        let key = match role {
            KeyRole::Dpop => keys.dpop.as_deref(),
            KeyRole::Client => keys.client.as_ref(),
        };
        let key = key.ok_or_else(|| AuthError::Signing("the DPoP key is not ready".into()))?;
        Ok(key.sign(input))
    }
}

impl AuthHost for WasiAuth {
    type Stored = std::future::Ready<Result<(), String>>;

    fn random_bytes(&self, n: usize) -> Result<Vec<u8>, String> {
        Ok(random_bytes(n))
    }

    async fn load(&self, key: &str) -> Result<Option<String>, String> {
        Ok(STORE.with(|s| {
            s.borrow()
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.clone())
        }))
    }

    fn write(&self, key: &str, value: &str) -> Self::Stored {
        STORE.with(|s| {
            let mut s = s.borrow_mut();
            s.retain(|(k, _)| k != key);
            if s.len() >= MAX_STORED_RECORDS {
                s.remove(0);
            }
            s.push((key.to_string(), value.to_string()));
        });
        std::future::ready(Ok(()))
    }

    fn delete(&self, key: &str) -> Self::Stored {
        STORE.with(|s| s.borrow_mut().retain(|(k, _)| k != key));
        std::future::ready(Ok(()))
    }

    async fn all_stored(&self) {}

    /// One component instance is one process with no concurrent refresher: the lock is granted
    /// at once (the store is this instance's own).
    async fn lock(&self, _name: &str) -> Result<(), String> {
        Ok(())
    }

    fn unlock(&self, _name: &str) {}

    async fn dpop_key(&self) -> Result<Value, AuthError> {
        let key = DPOP_KEY.with(|k| -> Result<Rc<Es256Key>, AuthError> {
            let mut k = k.borrow_mut();
            if let Some(key) = &*k {
                return Ok(key.clone());
            }
            let key = Rc::new(Es256Key::generate(random_bytes).map_err(AuthError::Signing)?);
            *k = Some(key.clone());
            Ok(key)
        })?;
        let jwk = key.public_jwk();
        self.0.borrow_mut().dpop = Some(key);
        Ok(jwk)
    }

    /// No person can be shown a page from inside a component: the host gets the URL.
    async fn sign_in(&self, _url: &str) -> Option<Result<String, AuthError>> {
        None
    }

    /// Each proof gets the current time and a fresh random `jti` (RFC 9449 § 4.2, RFC 7523 § 3).
    async fn sign_proofs(&self, req: &mut HttpRequest) -> Result<(), AuthError> {
        let iat = unix_ms() / 1000;
        let jti = || Ok::<_, AuthError>(crate::util::hash::hex(&random_bytes(16)));
        for proof in jose::take_proofs(req, iat, jti)? {
            let signature = self.sign(proof.key(), proof.signing_input())?;
            proof.finish(req, &signature);
        }
        Ok(())
    }
}
