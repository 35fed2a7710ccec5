//! The fetch host: [`Host`] for every JS scope (a page, a Web Worker, workerd, Node) over the
//! fetch transport, the global `setTimeout`, `performance.now()` and `spawn_local`, with the JS
//! authorization host ([`AuthHost`]) when the session has OAuth configured.

use std::future::Future;

use js_sys::Function;

use super::fetch::{AbortHandle, FetchResponse, FetchTransport};
use super::host::{AbortSwitch, Host, HostResponse};
use super::js_auth::AuthHost;
use super::timer::{now_ms, Callback};
use super::TransportError;
use crate::proto::http::{HttpRequest, ResponseHead};
use crate::runtime::LocalFuture;

/// The host of one client in a JS scope.
pub struct FetchHost {
    transport: FetchTransport,
    auth_transport: FetchTransport,
    auth: Option<AuthHost>,
    epoch: f64,
}

impl FetchHost {
    /// A host over the global `fetch`, or over `fetch` when the host injected one; OAuth traffic
    /// (metadata, registration, tokens) goes through `auth_fetch` when given (an app proxy or an
    /// edge relay for an authorization server without CORS headers). Its clock starts now.
    pub fn new(
        fetch: Option<Function>,
        auth_fetch: Option<Function>,
        auth: Option<AuthHost>,
    ) -> Self {
        FetchHost {
            auth_transport: FetchTransport::new(auth_fetch.or_else(|| fetch.clone())),
            transport: FetchTransport::new(fetch),
            auth,
            epoch: now_ms(),
        }
    }
}

impl Host for FetchHost {
    type Abort = AbortHandle;
    type Response = FetchResponse;
    type Timer = Callback;
    type Auth = AuthHost;

    fn now(&self) -> u64 {
        (now_ms() - self.epoch).max(0.0) as u64
    }

    fn unix_ms(&self) -> u64 {
        js_sys::Date::now().max(0.0) as u64
    }

    fn spawn(&self, task: LocalFuture<()>) {
        wasm_bindgen_futures::spawn_local(task);
    }

    fn timer(&self, delay_ms: u64, fire: Box<dyn FnOnce()>) -> Option<Callback> {
        Callback::start(delay_ms, fire)
    }

    fn new_abort(&self) -> AbortHandle {
        AbortHandle::new()
    }

    // The transport's own future, not a wrapper around it: one state machine less per call.
    fn send(
        &self,
        request: &HttpRequest,
        abort: &AbortHandle,
    ) -> impl Future<Output = Result<FetchResponse, TransportError>> {
        let transport = if request.extras.oauth {
            &self.auth_transport
        } else {
            &self.transport
        };
        transport.send(request, abort)
    }

    fn auth(&self) -> Option<&AuthHost> {
        self.auth.as_ref()
    }
}

impl AbortSwitch for AbortHandle {
    fn abort(&self) {
        AbortHandle::abort(self);
    }

    fn is_aborted(&self) -> bool {
        AbortHandle::is_aborted(self)
    }
}

impl HostResponse for FetchResponse {
    fn head(&self) -> &ResponseHead {
        &self.head
    }

    fn next_chunk(&mut self) -> impl Future<Output = Result<Option<Vec<u8>>, TransportError>> {
        FetchResponse::next_chunk(self)
    }

    fn cancel(&mut self) {
        FetchResponse::cancel(self);
    }
}
