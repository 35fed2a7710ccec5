//! The fetch transport: one HTTP request per call over the global `fetch` (or a host-injected
//! one), the response body streamed chunk by chunk from its `ReadableStream`.
//!
//! ```text
//!   HttpRequest ─► Headers + RequestInit ─► fetch(url, init)  (global, or injected)
//!        │                                        │ gloo-net Response: status, headers
//!   AbortHandle (AbortController) ─ signal ───────┤
//!                                                 └► body.getReader({mode: "byob"}).read() … done
//! ```
//!
//! Bodies that are byte streams (what `fetch` returns in browsers, workerd and Node) are read
//! with a BYOB reader into one reused buffer (WHATWG Streams § 4.6 `ReadableStreamBYOBReader`):
//! 16 KiB for the first read, 256 KiB once a read fills it (a long body); other streams (an
//! injected `fetch` may answer with any `ReadableStream`) with the default reader. In Chromium
//! the default reader's fresh chunk per read left the JS heap 71 MB above its start while 200 MB
//! of 1 KB events streamed (those chunks outlive minor collections); the reused buffer keeps it at
//! 5 MB, at the same speed (`tests/bench/run.sh`, memory rows).
//!
//! Nothing here looks at `window`: `fetch`, `AbortController`, `ReadableStream` and `Headers` are
//! members of every scope the crate runs in (WindowOrWorkerGlobalScope, workerd, Node ≥ 18), so
//! the transport works in a page, a Web Worker, a Workers isolate and Node alike.
//!
//! Abort (WHATWG DOM § 3.1, Fetch § 5.6 step "if signal is aborted, abort the fetch() call")
//! reaches every await: the fetch promise and each body read are raced against the request's
//! signal, so even an injected `fetch` that ignores `init.signal` cannot keep a call hanging.

use std::cell::RefCell;

use gloo_net::http::Response;
use js_sys::{ArrayBuffer, Function, Promise, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{AbortController, AbortSignal, AddEventListenerOptions};

use super::cors;
use super::js::{
    await_abortable, describe, describe_line, detach, get, global_function, scope_origin,
    url_origin, Settled,
};
use crate::proto::http::{HttpRequest, ResponseHead};

pub use super::TransportError;

/// One request's `AbortController` (WHATWG DOM § 3.1). The driver creates one per request, passes
/// it to [`FetchTransport::send`], and aborts it on timeout, on cancellation, or when a followed
/// user `AbortSignal` fires. Aborting fails the pending `send` or `next_chunk` with
/// [`TransportError::Aborted`] and tears down the connection, which is how MCP cancels a request
/// over HTTP in the 2026-07-28 era (`basic/transports/streamable-http`, "Cancellation").
pub struct AbortHandle {
    controller: AbortController,
    /// `(user signal, listener)` pairs registered by [`AbortHandle::follow`], removed on drop.
    followed: RefCell<Vec<(AbortSignal, Function)>>,
}

impl AbortHandle {
    /// A fresh, un-aborted controller.
    ///
    /// # Panics
    /// If the global `AbortController` constructor is missing or throws. Every supported scope
    /// (browsers, workers, workerd, Node ≥ 16) has it; use [`AbortHandle::try_new`] to get an
    /// error instead.
    pub fn new() -> Self {
        match Self::try_new() {
            Ok(handle) => handle,
            Err(e) => panic!("{e}"),
        }
    }

    /// A fresh controller, or [`TransportError::Unsupported`] if the scope has no
    /// `AbortController`.
    pub fn try_new() -> Result<Self, TransportError> {
        if global_function("AbortController").is_none() {
            return Err(TransportError::Unsupported {
                message: "globalThis.AbortController is not a constructor".into(),
            });
        }
        let controller = AbortController::new().map_err(|e| TransportError::Unsupported {
            message: format!("new AbortController() threw: {}", describe_line(&e)),
        })?;
        Ok(AbortHandle {
            controller,
            followed: RefCell::new(Vec::new()),
        })
    }

    /// The signal passed to `fetch` as `init.signal`.
    pub fn signal(&self) -> AbortSignal {
        self.controller.signal()
    }

    /// Aborts the request (idempotent). The abort reason is the default `AbortError`
    /// `DOMException` (WHATWG DOM § 3.1 "signal abort", step 2).
    pub fn abort(&self) {
        self.controller.abort();
    }

    /// Whether [`AbortHandle::abort`] ran or a followed signal fired.
    pub fn is_aborted(&self) -> bool {
        self.controller.signal().aborted()
    }

    /// Aborts this request when `user_signal` aborts; aborts at once if it already has.
    ///
    /// The listener is the controller's own `abort` bound with an `undefined` reason, so the
    /// request always fails with an `AbortError` whatever reason the user gave (the user reads
    /// their reason from their own signal). It is removed when this handle is dropped, so a
    /// long-lived user signal does not collect listeners.
    pub fn follow(&self, user_signal: &AbortSignal) {
        if user_signal.aborted() {
            self.abort();
            return;
        }
        let Ok(abort) = get(&self.controller, "abort").dyn_into::<Function>() else {
            return;
        };
        // Bound arguments come first: the event the listener receives lands in a second,
        // ignored argument, and the reason stays `undefined`.
        let listener: Function = abort
            .bind1(&self.controller, &JsValue::UNDEFINED)
            .unchecked_into();
        let options = AddEventListenerOptions::new();
        options.set_once(true);
        if user_signal
            .add_event_listener_with_callback_and_add_event_listener_options(
                "abort", &listener, &options,
            )
            .is_ok()
        {
            self.followed
                .borrow_mut()
                .push((user_signal.clone(), listener));
        }
    }
}

impl Default for AbortHandle {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for AbortHandle {
    fn drop(&mut self) {
        for (signal, listener) in self.followed.borrow_mut().drain(..) {
            let _ = signal.remove_event_listener_with_callback("abort", &listener);
        }
    }
}

impl std::fmt::Debug for AbortHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AbortHandle")
            .field("aborted", &self.is_aborted())
            .finish()
    }
}

/// Sends [`HttpRequest`]s with `fetch`.
///
/// `globalThis.fetch`, or an injected function (a Workers service binding, a proxy, a test spy),
/// is called as the injected one's declared type says (`fetch?: (input: string, init:
/// RequestInit)` in `src/js/mcp-edge.d.ts`): `fetch(url, init)` with `init = { method, headers:
/// Headers, body?, signal, redirect? }`. The answer is wrapped as gloo-net's `Response` and read
/// the same way whichever function gave it; an injected one may be any object with `status`,
/// `headers` and `body` (or a promise of one).
#[derive(Debug, Clone, Default)]
pub struct FetchTransport {
    custom_fetch: Option<Function>,
}

impl FetchTransport {
    /// A transport over the global `fetch`, or over `custom_fetch` when the host injected one.
    pub fn new(custom_fetch: Option<Function>) -> Self {
        FetchTransport { custom_fetch }
    }

    /// Whether requests go through a host-injected `fetch`.
    pub fn uses_custom_fetch(&self) -> bool {
        self.custom_fetch.is_some()
    }

    /// Sends `req`; resolves when the response head (status and headers) has arrived, before any
    /// of the body is read.
    ///
    /// Errors: [`TransportError::InvalidRequest`] for a URL or header fetch rejects;
    /// [`TransportError::Aborted`] if `abort` fires first; [`TransportError::Cors`] for a
    /// cross-origin failure in a page or worker; [`TransportError::Network`] otherwise;
    /// [`TransportError::InvalidResponse`] if an injected `fetch` returns something else than a
    /// response.
    pub async fn send(
        &self,
        req: &HttpRequest,
        abort: &AbortHandle,
    ) -> Result<FetchResponse, TransportError> {
        if abort.is_aborted() {
            return Err(TransportError::Aborted);
        }
        let headers = build_headers(&req.headers)?;
        let signal = abort.signal();
        let pending = call_fetch(self.custom_fetch.as_ref(), req, &headers, &signal)?;
        match await_abortable(pending, &signal).await {
            Settled::Value(response) => FetchResponse::from_js(response, signal),
            Settled::Aborted => Err(TransportError::Aborted),
            Settled::Error(error) => Err(classify_failure(&error, &signal, req)),
        }
    }
}

/// Builds a `Headers` object, in order, keeping repeated names (WHATWG Fetch § 5.2 `append`).
/// A name or value `Headers` refuses (not a token, CR/LF, non-Latin-1) is an
/// [`TransportError::InvalidRequest`], not a network error.
fn build_headers(pairs: &[(String, String)]) -> Result<web_sys::Headers, TransportError> {
    let headers = web_sys::Headers::new().map_err(|e| TransportError::Unsupported {
        message: format!("new Headers() threw: {}", describe_line(&e)),
    })?;
    for (name, value) in pairs {
        headers
            .append(name, value)
            .map_err(|e| TransportError::InvalidRequest {
                message: format!("header `{name}` refused: {}", describe_line(&e)),
            })?;
    }
    Ok(headers)
}

/// Calls `fetch(url, init)`: the global `fetch` with the global object as `this`, or an injected
/// one (its declared type, `fetch?: (input: string, init: RequestInit)`; a proxy or relay may
/// rewrite the URL string) with `undefined`. A synchronous throw is treated like a rejection.
///
/// No `Request` object is built first: `fetch` makes its one `Request` from `(url, init)` itself
/// (WHATWG Fetch § 5.6 step 2). A `Request` built ahead (what gloo-net's `RequestBuilder` does,
/// with a second throwaway `Request`, a `URL` and a `URLSearchParams`) is copied again by
/// `fetch`; in the benchmark under contention that was the renderer's largest cost after `fetch`
/// itself (docs/measurements.md, "Under contention"). A URL `fetch` cannot parse is rejected like
/// a network failure (or with anything, by an injected function): [`classify_failure`] parses the
/// URL on failure only, to report an [`TransportError::InvalidRequest`] instead.
fn call_fetch(
    fetch: Option<&Function>,
    req: &HttpRequest,
    headers: &web_sys::Headers,
    signal: &AbortSignal,
) -> Result<Promise, TransportError> {
    let global;
    let (fetch, this) = match fetch {
        Some(injected) => (injected, JsValue::UNDEFINED),
        None => {
            global = global_function("fetch").ok_or_else(|| TransportError::Unsupported {
                message: "globalThis.fetch is not a function".into(),
            })?;
            (&global, js_sys::global().into())
        }
    };
    let returned = fetch
        .call2(
            &this,
            &JsValue::from_str(&req.url),
            &request_init(req, headers, signal),
        )
        .map_err(|e| classify_failure(&e, signal, req))?;
    Ok(Promise::resolve(&returned))
}

/// `{ method, headers, body?, signal, redirect? }` (WHATWG Fetch § 5.3 `RequestInit`).
fn request_init(
    req: &HttpRequest,
    headers: &web_sys::Headers,
    signal: &AbortSignal,
) -> web_sys::RequestInit {
    let init = web_sys::RequestInit::new();
    init.set_method(req.method.as_str());
    init.set_headers(headers);
    if let Some(body) = &req.body {
        init.set_body(&JsValue::from_str(body));
    }
    init.set_signal(Some(signal));
    if req.extras.manual_redirect {
        // The OAuth headless step reads the 3xx itself (WHATWG Fetch § 4.4 "manual"). In a
        // browser the answer is an opaque redirect (status 0), which the authorizer reports.
        init.set_redirect(web_sys::RequestRedirect::Manual);
    }
    init
}

/// Maps a rejected `fetch` to a [`TransportError`].
///
/// Fetch turns every network error into a bare `TypeError` (WHATWG Fetch § 5.6 `fetch()`,
/// "reject p with a TypeError"). In a scope with a `location` (page or worker) whose origin
/// differs from the request's, CORS is the usual cause and the most useful reading, so the error
/// becomes [`TransportError::Cors`] with a diagnosis; elsewhere (Node, workerd: no CORS) it is
/// [`TransportError::Network`].
fn classify_failure(error: &JsValue, signal: &AbortSignal, req: &HttpRequest) -> TransportError {
    let (name, _) = describe(error);
    if signal.aborted() || name == "AbortError" {
        return TransportError::Aborted;
    }
    let said = describe_line(error);
    // Fetch rejects a URL it cannot parse with the same `TypeError` as a network failure (§ 5.6
    // step 2, via the `Request` constructor's URL parsing); an injected fetch may reject it with
    // anything. Parsed here, on failure only, and once.
    let Some(request_origin) = url_origin(&req.url) else {
        return TransportError::InvalidRequest {
            message: format!("not a valid URL: {} ({said})", req.url),
        };
    };
    if name == "TypeError" {
        if let Some(origin) = scope_origin() {
            if request_origin != origin {
                let diagnosis = cors::diagnose(
                    &origin,
                    &req.url,
                    req.method.as_str(),
                    &req.headers,
                    req.extras.oauth,
                );
                return TransportError::Cors {
                    diagnosis: format!("{diagnosis} (The runtime reported: {said}.)"),
                };
            }
        }
    }
    TransportError::Network { message: said }
}

/// Where a response body stands.
enum Body {
    /// Reading; the reader holds the stream's lock.
    Reading(Reader),
    /// The stream reported `done`, the response had no body, or [`FetchResponse::cancel`] ran.
    Ended,
    /// Reading failed; every later call returns this error again.
    Failed(TransportError),
}

/// How many bytes one BYOB read may return on a long body: the size of the reused buffer. Measured
/// in Chromium (200 MB of 1 KB events): 64 KiB streamed 16 KB events 28% slower than the default
/// reader, 256 KiB as fast, both with the same small heap.
const BYOB_BUFFER_BYTES: u32 = 256 * 1024;

/// The buffer of a body's first BYOB read. Most bodies (a JSON-RPC response, a short SSE stream)
/// fit in it; a read that fills it means a long body, and the reads after it get a
/// [`BYOB_BUFFER_BYTES`] buffer. A 256 KiB buffer for every response cost each `tools/call` a
/// 256 KiB allocation for a body of a few hundred bytes: garbage-collector work that showed in
/// the benchmark's p99 latency and calls/s at 64 in flight.
const BYOB_FIRST_BYTES: u32 = 16 * 1024;

/// The lock on a body stream.
struct Reader {
    /// A `ReadableStreamBYOBReader` or a `ReadableStreamDefaultReader`.
    reader: JsValue,
    /// Its `read` method, looked up once (or what stood there instead: each read rejects with it).
    read: Result<Function, JsValue>,
    /// For a BYOB reader, the buffer the next read fills: the one the last read handed back
    /// (a read transfers it, WHATWG Streams § 4.6.4), or `None` to allocate one.
    byob: Option<Option<ArrayBuffer>>,
    /// The size of the next buffer allocated: [`BYOB_FIRST_BYTES`], then [`BYOB_BUFFER_BYTES`]
    /// once a read filled the small one.
    next_buffer_bytes: u32,
}

impl Reader {
    /// Locks `stream`: with a BYOB reader when it is a byte stream, else the default reader.
    fn lock(stream: &JsValue, get_reader: &Function) -> Result<Reader, JsValue> {
        let options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&options, &"mode".into(), &"byob".into());
        // Not a byte stream: `getReader({mode: "byob"})` throws a TypeError and locks nothing.
        let (reader, byob) = match get_reader.call1(stream, &options) {
            Ok(reader) => (reader, Some(None)),
            Err(_) => (get_reader.call0(stream)?, None),
        };
        let read = get(&reader, "read").dyn_into::<Function>();
        Ok(Reader {
            reader,
            read,
            byob,
            next_buffer_bytes: BYOB_FIRST_BYTES,
        })
    }

    /// Starts the next read: `reader.read()`, or `reader.read(view)` over the reused buffer.
    fn read(&mut self) -> Promise {
        let read = match &self.read {
            Ok(read) => read,
            Err(not_a_function) => return Promise::reject(not_a_function),
        };
        let bytes = self.next_buffer_bytes;
        let started = match &mut self.byob {
            None => read.call0(&self.reader),
            Some(buffer) => {
                let buffer = buffer.take().unwrap_or_else(|| ArrayBuffer::new(bytes));
                read.call1(&self.reader, &Uint8Array::new(&buffer))
            }
        };
        // `Promise.resolve` passes a promise through and wraps anything else; a throw rejects.
        started.map_or_else(|e| Promise::reject(&e), |p| Promise::resolve(&p))
    }

    /// Takes back a BYOB read's buffer (the view it fulfilled with sits on it) for the next read,
    /// unless the read filled a buffer smaller than [`BYOB_BUFFER_BYTES`]: a long body, whose
    /// next reads get a large one.
    fn keep_buffer(&mut self, value: &JsValue) {
        if let (Some(slot), Some(view)) = (&mut self.byob, value.dyn_ref::<Uint8Array>()) {
            let buffer = view.buffer();
            if view.byte_length() == buffer.byte_length()
                && buffer.byte_length() < BYOB_BUFFER_BYTES
            {
                self.next_buffer_bytes = BYOB_BUFFER_BYTES;
                *slot = None;
            } else {
                *slot = Some(buffer);
            }
        }
    }

    /// `reader.cancel()`, settled in the background.
    fn cancel(&self) {
        if let Ok(cancel) = get(&self.reader, "cancel").dyn_into::<Function>() {
            if let Ok(p) = cancel.call0(&self.reader) {
                if let Ok(p) = p.dyn_into::<Promise>() {
                    detach(p);
                }
            }
        }
    }
}

/// A response whose head has arrived; the body is read with [`FetchResponse::next_chunk`].
///
/// Dropping it cancels the body stream (releasing the connection), as does
/// [`FetchResponse::cancel`].
pub struct FetchResponse {
    /// Status and the headers this scope may read. In a browser a cross-origin response exposes
    /// only CORS-safelisted headers plus those in `Access-Control-Expose-Headers` (WHATWG Fetch
    /// § 3.2.3); a missing `mcp-session-id` there is the driver's to diagnose.
    pub head: ResponseHead,
    body: Body,
    signal: AbortSignal,
}

impl std::fmt::Debug for FetchResponse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let body = match &self.body {
            Body::Reading(_) => "reading".to_string(),
            Body::Ended => "ended".to_string(),
            Body::Failed(e) => format!("failed: {e}"),
        };
        f.debug_struct("FetchResponse")
            .field("head", &self.head)
            .field("body", &body)
            .finish()
    }
}

impl FetchResponse {
    /// Wraps what `fetch` fulfilled with as gloo-net's `Response`, reads its head and locks its
    /// body with a BYOB reader if it is a byte stream, else a `ReadableStreamDefaultReader`
    /// (WHATWG Streams § 4.6, § 4.3).
    ///
    /// A `Response` is wrapped as it is and its headers are read with gloo-net's
    /// `Headers::entries` (WHATWG Fetch § 5.2: names lowercase, sorted, `set-cookie` split; only
    /// what the scope may read). Anything else (an injected `fetch` may answer with any object
    /// shaped like one) is wrapped once its `status` is checked to be an integer from 0 to 999
    /// (gloo-net's accessors read the members by name and would wrap any other number into a
    /// `u16`), and its `headers` are read leniently by [`read_headers`].
    fn from_js(value: JsValue, signal: AbortSignal) -> Result<Self, TransportError> {
        let invalid = |what: &str, got: &JsValue| TransportError::InvalidResponse {
            message: format!("{what} (got {})", describe_line(got)),
        };
        let (response, headers) = match value.dyn_into::<web_sys::Response>() {
            Ok(response) => {
                let response = Response::from(response);
                let headers = response.headers().entries().collect();
                (response, headers)
            }
            Err(other) => {
                let status_ok = get(&other, "status")
                    .as_f64()
                    .is_some_and(|s| s.fract() == 0.0 && (0.0..=999.0).contains(&s));
                if !status_ok {
                    return Err(invalid("no numeric `status` between 0 and 999", &other));
                }
                let response = Response::from(other.unchecked_into::<web_sys::Response>());
                let headers = response.headers().into_raw();
                let headers = read_headers(&headers).ok_or_else(|| {
                    invalid("`headers` is not iterable as [name, value] pairs", &headers)
                })?;
                (response, headers)
            }
        };
        let body = match response.body() {
            None => Body::Ended,
            Some(stream) => {
                let get_reader = get(&stream, "getReader")
                    .dyn_into::<Function>()
                    .map_err(|_| invalid("`body` is not a ReadableStream", &stream))?;
                let reader = Reader::lock(&stream, &get_reader).map_err(|e| {
                    TransportError::InvalidResponse {
                        message: format!("body cannot be read: {}", describe_line(&e)),
                    }
                })?;
                Body::Reading(reader)
            }
        };
        Ok(FetchResponse {
            head: ResponseHead {
                status: response.status(),
                headers,
            },
            body,
            signal,
        })
    }

    /// The next chunk of the body, as the network delivered it (in principle possibly empty);
    /// `Ok(None)` at the end of the body
    /// (and after [`FetchResponse::cancel`]). A chunk may split a line, a CRLF or a UTF-8
    /// character anywhere: the SSE / JSON decoders above reassemble.
    ///
    /// If the signal aborts: [`TransportError::Aborted`]. If the stream errors before its end
    /// (connection reset, chunked framing cut, content length not reached):
    /// [`TransportError::BodyRead`]. Errors are sticky: later calls return the same error.
    pub async fn next_chunk(&mut self) -> Result<Option<Vec<u8>>, TransportError> {
        let read = match &mut self.body {
            Body::Reading(reader) => {
                if self.signal.aborted() {
                    // Do not even start a read: on an aborted fetch it would only reject.
                    return self.fail(TransportError::Aborted);
                }
                reader.read()
            }
            Body::Ended => return Ok(None),
            Body::Failed(e) => return Err(e.clone()),
        };
        match await_abortable(read, &self.signal).await {
            Settled::Value(result) => {
                if get(&result, "done").as_bool() == Some(true) {
                    self.body = Body::Ended;
                    return Ok(None);
                }
                let value = get(&result, "value");
                let bytes = chunk_bytes(&value);
                if let Body::Reading(reader) = &mut self.body {
                    reader.keep_buffer(&value);
                }
                match bytes {
                    Some(bytes) => Ok(Some(bytes)),
                    None => self.fail(TransportError::BodyRead {
                        message: "the body stream yielded a chunk that is not bytes".into(),
                    }),
                }
            }
            Settled::Aborted => self.fail(TransportError::Aborted),
            Settled::Error(e) => {
                let error = if describe(&e).0 == "AbortError" {
                    TransportError::Aborted
                } else {
                    TransportError::BodyRead {
                        message: describe_line(&e),
                    }
                };
                self.fail(error)
            }
        }
    }

    /// Releases the body: cancels the stream so the runtime can close the connection
    /// (WHATWG Streams `ReadableStreamDefaultReader.cancel()` / `ReadableStreamBYOBReader.cancel()`). Idempotent; after it,
    /// [`FetchResponse::next_chunk`] returns `Ok(None)` (or the earlier error).
    pub fn cancel(&mut self) {
        if let Body::Reading(reader) = &self.body {
            reader.cancel();
            self.body = Body::Ended;
        }
    }

    /// Whether the body has ended, failed, or been cancelled.
    pub fn is_finished(&self) -> bool {
        !matches!(self.body, Body::Reading(_))
    }

    fn fail(&mut self, error: TransportError) -> Result<Option<Vec<u8>>, TransportError> {
        self.cancel();
        self.body = Body::Failed(error.clone());
        Err(error)
    }
}

impl Drop for FetchResponse {
    fn drop(&mut self) {
        self.cancel();
    }
}

/// A body chunk as bytes: a `Uint8Array` (what fetch bodies yield, WHATWG Fetch § 5.3), or for
/// injected streams an `ArrayBuffer` or a string (UTF-8 encoded).
fn chunk_bytes(value: &JsValue) -> Option<Vec<u8>> {
    if let Some(array) = value.dyn_ref::<Uint8Array>() {
        return Some(array.to_vec());
    }
    if let Some(buffer) = value.dyn_ref::<ArrayBuffer>() {
        return Some(Uint8Array::new(buffer).to_vec());
    }
    value.as_string().map(String::into_bytes)
}

/// The `[name, value]` pairs of the `headers` of an injected `fetch`'s answer that is not a
/// `Response`: any iterable of pairs (a `Headers`, a `Map`, an array); pairs that are not two
/// strings, or that a real `Headers` could not hold, are left out. `None` if `headers` is not
/// iterable. gloo-net's `Headers::entries`, which reads a real `Response`'s headers, assumes a
/// real `Headers`: it throws on a value that is not a string and reads an array's entries as
/// `[index, pair]`.
fn read_headers(headers: &JsValue) -> Option<Vec<(String, String)>> {
    // `headerLines` (src/js/glue.js) joins them in JS: one crossing for the whole set.
    let lines = super::js::header_lines(headers)?;
    Some(
        lines
            .lines()
            .filter_map(|line| line.split_once(':'))
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect(),
    )
}
