//! The fetch transport against a real loopback server (`tests/servers/fixture/server.mjs`), run in
//! Node and in headless Chromium by `tests/servers/fixture/run-transport-tests.sh`.
//!
//! The server's URLs are compiled in from `MCP_EDGE_FIXTURE_URL`, `MCP_EDGE_FIXTURE_NOCORS_URL` and
//! `MCP_EDGE_FIXTURE_DEAD_URL`, and the scope the run must land in (`window`, `worker`, `node`) from
//! `MCP_EDGE_EXPECT_SCOPE`; without them every test fails (it never silently skips).
#![cfg(all(target_family = "wasm", target_os = "unknown"))]

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Function, Promise, Reflect};
use mcp_edge::proto::http::{HttpRequest, Method};
use mcp_edge::transport::fetch::{AbortHandle, FetchResponse, FetchTransport, TransportError};
use mcp_edge::transport::timer::{now_ms, sleep, Timeout};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::spawn_local;
use wasm_bindgen_test::wasm_bindgen_test;

const MISSING: &str = "fixture URL not compiled in: this suite needs the local test servers, \
                       which the test command starts: run `bash tests/run-all.sh wasm_pack` \
                       (docs/testing.md), or tests/servers/fixture/run-transport-tests.sh for \
                       this suite alone (both export MCP_EDGE_FIXTURE_URL, \
                       MCP_EDGE_FIXTURE_NOCORS_URL and MCP_EDGE_FIXTURE_DEAD_URL)";

/// Fails the test (loudly, never a skip) when the build did not get the fixture URL.
fn required(url: Option<&'static str>) -> &'static str {
    match url {
        Some(url) => url,
        None => panic!("{MISSING}"),
    }
}

fn base() -> &'static str {
    required(option_env!("MCP_EDGE_FIXTURE_URL"))
}

fn nocors_base() -> &'static str {
    required(option_env!("MCP_EDGE_FIXTURE_NOCORS_URL"))
}

fn dead_base() -> &'static str {
    required(option_env!("MCP_EDGE_FIXTURE_DEAD_URL"))
}

#[path = "e2e/scope.rs"]
mod scope;

/// A page or a worker (CORS applies) rather than Node.
fn in_browser() -> bool {
    let location = Reflect::get(&js_sys::global(), &"location".into()).unwrap();
    !location.is_undefined()
}

fn get(url: String) -> HttpRequest {
    HttpRequest {
        method: Method::Get,
        url,
        headers: vec![("accept".into(), "text/event-stream".into())],
        body: None,
        extras: Default::default(),
    }
}

fn mcp_post(url: String, body: &str) -> HttpRequest {
    HttpRequest {
        method: Method::Post,
        url,
        headers: vec![
            (
                "accept".into(),
                "application/json, text/event-stream".into(),
            ),
            ("content-type".into(), "application/json".into()),
            ("mcp-protocol-version".into(), "2026-07-28".into()),
            ("mcp-method".into(), "tools/call".into()),
            ("mcp-name".into(), "add".into()),
            ("mcp-param-region".into(), "eu-west".into()),
            ("authorization".into(), "Bearer fixture-token".into()),
        ],
        body: Some(body.into()),
        extras: Default::default(),
    }
}

/// Reads to the end: the chunks as delivered, or the error with the bytes read before it.
async fn read_all(resp: &mut FetchResponse) -> (Vec<Vec<u8>>, Option<TransportError>) {
    let mut chunks = Vec::new();
    loop {
        match resp.next_chunk().await {
            Ok(Some(chunk)) => chunks.push(chunk),
            Ok(None) => return (chunks, None),
            Err(e) => return (chunks, Some(e)),
        }
    }
}

async fn body_json(resp: &mut FetchResponse) -> serde_json::Value {
    let (chunks, err) = read_all(resp).await;
    assert_eq!(err, None);
    serde_json::from_slice(&chunks.concat()).unwrap()
}

/// Aborts `handle` after `ms` on the global timer, from a separate task.
fn abort_later(handle: &Rc<AbortHandle>, ms: u32) {
    let handle = handle.clone();
    spawn_local(async move {
        sleep(ms).await;
        handle.abort();
    });
}

#[wasm_bindgen_test]
async fn event_stream_arrives_in_several_chunks_and_reassembles_exactly() {
    let fixture: serde_json::Value =
        serde_json::from_str(include_str!("servers/fixture/sse-slow.json")).unwrap();
    let expected = fixture["text"].as_str().unwrap().as_bytes().to_vec();
    // The fixture really cuts inside a CRLF and inside a UTF-8 character.
    let splits: Vec<usize> = fixture["splits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as usize)
        .collect();
    assert!(splits
        .iter()
        .any(|&s| expected[s - 1] == b'\r' && expected[s] == b'\n'));
    assert!(splits.iter().any(|&s| expected[s] & 0xC0 == 0x80));

    let transport = FetchTransport::new(None);
    let abort = AbortHandle::new();
    let mut resp = transport
        .send(&get(format!("{}/sse-slow", base())), &abort)
        .await
        .unwrap();
    assert_eq!(resp.head.status, 200);
    assert_eq!(resp.head.header("content-type"), Some("text/event-stream"));
    let (chunks, err) = read_all(&mut resp).await;
    assert_eq!(err, None);
    assert!(
        chunks.len() >= 2,
        "expected a streamed body, got {} chunk(s)",
        chunks.len()
    );
    assert_eq!(chunks.concat(), expected);
    assert!(resp.is_finished());
    assert_eq!(resp.next_chunk().await, Ok(None));
}

#[wasm_bindgen_test]
async fn large_body_arrives_complete_and_in_order() {
    const BYTES: usize = 4 << 20;
    let transport = FetchTransport::new(None);
    let mut resp = transport
        .send(
            &get(format!("{}/bulk?bytes={BYTES}", base())),
            &AbortHandle::new(),
        )
        .await
        .unwrap();
    let mut offset = 0usize;
    let mut chunks = 0usize;
    while let Some(chunk) = resp.next_chunk().await.unwrap() {
        for (i, b) in chunk.iter().enumerate() {
            assert_eq!(*b as usize, (offset + i) % 251, "byte {}", offset + i);
        }
        offset += chunk.len();
        chunks += 1;
    }
    assert_eq!(offset, BYTES);
    assert!(chunks > 1);
}

#[wasm_bindgen_test]
async fn status_and_exposed_headers_are_read() {
    let transport = FetchTransport::new(None);
    let mut resp = transport
        .send(&get(format!("{}/json", base())), &AbortHandle::new())
        .await
        .unwrap();
    assert_eq!(resp.head.status, 200);
    assert_eq!(resp.head.header("Content-Type"), Some("application/json"));
    assert_eq!(
        resp.head.header("mcp-session-id"),
        Some("fixture-session-1")
    );
    // Not in Access-Control-Expose-Headers: hidden from a page, visible to Node.
    assert_eq!(
        resp.head.header("x-fixture-private").is_some(),
        !in_browser()
    );
    let body = body_json(&mut resp).await;
    assert_eq!(body["result"]["ok"], true);
}

#[wasm_bindgen_test]
async fn request_method_headers_and_body_arrive() {
    let transport = FetchTransport::new(None);
    let body = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add"}}"#;
    let mut resp = transport
        .send(
            &mcp_post(format!("{}/echo-headers", base()), body),
            &AbortHandle::new(),
        )
        .await
        .unwrap();
    assert_eq!(resp.head.status, 200);
    let echo = body_json(&mut resp).await;
    assert_eq!(echo["method"], "POST");
    assert_eq!(echo["body"], body);
    let h = &echo["headers"];
    assert_eq!(h["mcp-protocol-version"], "2026-07-28");
    assert_eq!(h["mcp-method"], "tools/call");
    assert_eq!(h["mcp-name"], "add");
    assert_eq!(h["mcp-param-region"], "eu-west");
    assert_eq!(h["authorization"], "Bearer fixture-token");
    assert_eq!(h["content-type"], "application/json");
    assert_eq!(h["accept"], "application/json, text/event-stream");
}

#[wasm_bindgen_test]
async fn error_status_keeps_its_body() {
    let transport = FetchTransport::new(None);
    let mut resp = transport
        .send(&get(format!("{}/status/500", base())), &AbortHandle::new())
        .await
        .unwrap();
    assert_eq!(resp.head.status, 500);
    let body = body_json(&mut resp).await;
    assert_eq!(body["error"]["code"], -32603);
}

#[wasm_bindgen_test]
async fn dropped_chunked_stream_is_a_body_read_error() {
    let transport = FetchTransport::new(None);
    let mut resp = transport
        .send(&get(format!("{}/drop", base())), &AbortHandle::new())
        .await
        .unwrap();
    assert_eq!(resp.head.status, 200);
    let (chunks, err) = read_all(&mut resp).await;
    let sent = b"id: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"res";
    assert!(sent.starts_with(&chunks.concat()));
    let err = err.expect("a cut chunked body must not look like a clean end");
    assert!(
        matches!(err, TransportError::BodyRead { .. }),
        "got {err:?}"
    );
    // Sticky, even across cancel().
    assert_eq!(resp.next_chunk().await, Err(err.clone()));
    resp.cancel();
    assert_eq!(resp.next_chunk().await, Err(err));
}

#[wasm_bindgen_test]
async fn short_content_length_is_a_body_read_error() {
    let transport = FetchTransport::new(None);
    let mut resp = transport
        .send(&get(format!("{}/drop-length", base())), &AbortHandle::new())
        .await
        .unwrap();
    let (_, err) = read_all(&mut resp).await;
    assert!(
        matches!(err, Some(TransportError::BodyRead { .. })),
        "got {err:?}"
    );
}

/// Documents the limit of what HTTP can tell: a close-delimited body that stops early ends
/// cleanly in every runtime, so the layer above must notice the missing JSON-RPC response.
#[wasm_bindgen_test]
async fn close_delimited_body_cut_short_ends_cleanly() {
    let transport = FetchTransport::new(None);
    let mut resp = transport
        .send(&get(format!("{}/drop-close", base())), &AbortHandle::new())
        .await
        .unwrap();
    let (chunks, err) = read_all(&mut resp).await;
    assert_eq!(err, None);
    assert_eq!(
        chunks.concat(),
        b"id: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"res".to_vec()
    );
}

#[wasm_bindgen_test]
async fn abort_while_waiting_for_the_head() {
    let transport = FetchTransport::new(None);
    let abort = Rc::new(AbortHandle::new());
    abort_later(&abort, 50);
    let err = transport
        .send(&get(format!("{}/hang", base())), &abort)
        .await
        .unwrap_err();
    assert_eq!(err, TransportError::Aborted);
    assert!(abort.is_aborted());
}

#[wasm_bindgen_test]
async fn abort_while_reading_the_body() {
    let transport = FetchTransport::new(None);
    let abort = Rc::new(AbortHandle::new());
    let mut resp = transport
        .send(&get(format!("{}/sse-hang", base())), &abort)
        .await
        .unwrap();
    let first = resp.next_chunk().await.unwrap().unwrap();
    assert!(first.starts_with(b"id: 1\n"));
    abort_later(&abort, 30);
    assert_eq!(resp.next_chunk().await, Err(TransportError::Aborted));
    assert_eq!(resp.next_chunk().await, Err(TransportError::Aborted));
}

/// Polls the fixture until the tagged `/sse-hang` connection is closed (bounded: 50 x 20 ms).
/// Whether the server saw the tagged connection close, polled for up to about 10 s (a loaded
/// machine can take a while to tear a connection down; this bounds a wait, it times nothing).
async fn server_saw_close(tag: &str) -> bool {
    let transport = FetchTransport::new(None);
    for _ in 0..400 {
        let mut resp = transport
            .send(
                &get(format!("{}/hang-state?tag={tag}", base())),
                &AbortHandle::new(),
            )
            .await
            .unwrap();
        let (chunks, _) = read_all(&mut resp).await;
        if chunks.concat() == b"closed" {
            return true;
        }
        sleep(25).await;
    }
    false
}

async fn open_tagged_stream(tag: &str, abort: &AbortHandle) -> FetchResponse {
    let transport = FetchTransport::new(None);
    let mut resp = transport
        .send(&get(format!("{}/sse-hang?tag={tag}", base())), abort)
        .await
        .unwrap();
    assert!(resp.next_chunk().await.unwrap().is_some());
    resp
}

/// MCP cancels a request over HTTP by closing its stream: `cancel()` must reach the server.
#[wasm_bindgen_test]
async fn cancel_closes_the_connection_at_the_server() {
    let tag = format!("cancel-{}", now_ms());
    let mut resp = open_tagged_stream(&tag, &AbortHandle::new()).await;
    resp.cancel();
    resp.cancel();
    assert_eq!(resp.next_chunk().await, Ok(None));
    assert!(server_saw_close(&tag).await);
}

#[wasm_bindgen_test]
async fn abort_closes_the_connection_at_the_server() {
    let tag = format!("abort-{}", now_ms());
    let abort = AbortHandle::new();
    let mut resp = open_tagged_stream(&tag, &abort).await;
    abort.abort();
    assert_eq!(resp.next_chunk().await, Err(TransportError::Aborted));
    assert!(server_saw_close(&tag).await);
}

#[wasm_bindgen_test]
async fn dropping_the_response_closes_the_connection_at_the_server() {
    let tag = format!("drop-{}", now_ms());
    let resp = open_tagged_stream(&tag, &AbortHandle::new()).await;
    drop(resp);
    assert!(server_saw_close(&tag).await);
}

#[wasm_bindgen_test]
async fn already_aborted_handle_never_sends() {
    let calls = Rc::new(Cell::new(0u32));
    let counter = calls.clone();
    let spy = Closure::<dyn FnMut(JsValue, JsValue) -> JsValue>::new(move |_url, _init| {
        counter.set(counter.get() + 1);
        JsValue::UNDEFINED
    });
    let transport = FetchTransport::new(Some(spy.as_ref().unchecked_ref::<Function>().clone()));
    let abort = AbortHandle::new();
    abort.abort();
    let err = transport
        .send(&get(format!("{}/json", base())), &abort)
        .await
        .unwrap_err();
    assert_eq!(err, TransportError::Aborted);
    assert_eq!(calls.get(), 0);
}

#[wasm_bindgen_test]
async fn user_signal_is_followed_even_with_a_non_error_reason() {
    let transport = FetchTransport::new(None);
    let user = web_sys::AbortController::new().unwrap();
    let abort = AbortHandle::new();
    abort.follow(&user.signal());
    assert!(!abort.is_aborted());
    let user_in_task = user.clone();
    spawn_local(async move {
        sleep(50).await;
        user_in_task.abort_with_reason(&JsValue::from_str("user pressed stop"));
    });
    let err = transport
        .send(&get(format!("{}/hang", base())), &abort)
        .await
        .unwrap_err();
    assert_eq!(err, TransportError::Aborted);
    assert!(abort.is_aborted());
}

#[wasm_bindgen_test]
fn already_aborted_user_signal_aborts_at_once() {
    let user = web_sys::AbortController::new().unwrap();
    user.abort();
    let abort = AbortHandle::new();
    abort.follow(&user.signal());
    assert!(abort.is_aborted());
}

#[wasm_bindgen_test]
async fn injected_fetch_is_called_with_url_and_init() {
    let global_fetch: Function = Reflect::get(&js_sys::global(), &"fetch".into())
        .unwrap()
        .dyn_into()
        .unwrap();
    let calls = Rc::new(Cell::new(0u32));
    let seen = Rc::new(RefCell::new(Vec::<(String, String, String)>::new()));
    let (counter, log) = (calls.clone(), seen.clone());
    let spy = Closure::<dyn FnMut(JsValue, JsValue) -> JsValue>::new(move |url: JsValue, init| {
        counter.set(counter.get() + 1);
        let method = Reflect::get(&init, &"method".into()).unwrap();
        let headers: web_sys::Headers = Reflect::get(&init, &"headers".into())
            .unwrap()
            .dyn_into()
            .unwrap();
        log.borrow_mut().push((
            url.as_string().unwrap(),
            method.as_string().unwrap(),
            headers.get("mcp-method").unwrap().unwrap_or_default(),
        ));
        global_fetch
            .call2(&JsValue::UNDEFINED, &url, &init)
            .unwrap()
    });
    let transport = FetchTransport::new(Some(spy.as_ref().unchecked_ref::<Function>().clone()));
    assert!(transport.uses_custom_fetch());
    let url = format!("{}/echo-headers", base());
    for _ in 0..2 {
        let mut resp = transport
            .send(&mcp_post(url.clone(), "{}"), &AbortHandle::new())
            .await
            .unwrap();
        let echo = body_json(&mut resp).await;
        assert_eq!(echo["headers"]["mcp-name"], "add");
    }
    assert_eq!(calls.get(), 2);
    assert_eq!(
        seen.borrow()[1],
        (url, "POST".to_string(), "tools/call".to_string())
    );
}

/// The global `fetch` gets the same call as an injected one, `fetch(url, init)` with the global
/// object as `this`: no `Request` object is built first (each one is copied again by `fetch`).
#[wasm_bindgen_test]
async fn global_fetch_is_called_with_url_and_init() {
    let global = js_sys::global();
    let original = Reflect::get(&global, &"fetch".into()).unwrap();
    let spy = Function::new_with_args(
        "input, init",
        "globalThis.__mcpEdgeSeen = [typeof input, this === globalThis, init && init.method, \
         init && init.headers instanceof Headers, init && init.signal instanceof AbortSignal]; \
         return globalThis.__mcpEdgeFetch(input, init);",
    );
    Reflect::set(&global, &"__mcpEdgeFetch".into(), &original).unwrap();
    Reflect::set(&global, &"fetch".into(), &spy).unwrap();
    let result = FetchTransport::new(None)
        .send(
            &mcp_post(format!("{}/echo-headers", base()), "{}"),
            &AbortHandle::new(),
        )
        .await;
    Reflect::set(&global, &"fetch".into(), &original).unwrap();
    let mut resp = result.unwrap();
    assert_eq!(body_json(&mut resp).await["headers"]["mcp-name"], "add");
    let seen = Reflect::get(&global, &"__mcpEdgeSeen".into()).unwrap();
    assert_eq!(
        js_sys::JSON::stringify(&seen).unwrap().as_string().unwrap(),
        r#"["string",true,"POST",true,true]"#
    );
}

/// An injected `fetch` answering 200 with a body stream built by the JS expression `stream`,
/// which enqueues one chunk of `len` (1,000,000) bytes (byte `i` is `i % 251`) and closes.
fn fetch_answering_with(stream: &str) -> Function {
    Function::new_with_args(
        "len",
        &format!(
            "const bytes = () => {{ const b = new Uint8Array(len); for (let i = 0; i < len; i++) b[i] = i % 251; return b; }};
             return () => Promise.resolve({{ status: 200, headers: new Headers({{ 'content-type': 'application/octet-stream' }}), body: {stream} }});"
        ),
    )
    .call1(&JsValue::NULL, &JsValue::from_f64(1_000_000.0))
    .unwrap()
    .dyn_into()
    .unwrap()
}

async fn chunk_lengths(fetch: Function) -> Vec<usize> {
    let transport = FetchTransport::new(Some(fetch));
    let mut resp = transport
        .send(&get(format!("{}/json", base())), &AbortHandle::new())
        .await
        .unwrap();
    let (chunks, err) = read_all(&mut resp).await;
    assert_eq!(err, None);
    let body = chunks.concat();
    assert_eq!(body.len(), 1_000_000);
    assert!(body.iter().enumerate().all(|(i, b)| *b as usize == i % 251));
    chunks.iter().map(Vec::len).collect()
}

#[wasm_bindgen_test]
async fn byte_stream_body_is_read_through_a_byob_reader() {
    // A BYOB reader hands the 1,000,000-byte chunk over in reads of at most its 256 KiB buffer
    // (the default reader would hand it over whole): the reused buffer keeps a long stream from
    // leaving a fresh chunk object per read on the JS heap. The first read gets a 16 KiB buffer
    // (most bodies are short: no 256 KiB allocation per response); filling it grows the next.
    let byte_stream =
        "new ReadableStream({ type: 'bytes', start(c) { c.enqueue(bytes()); c.close(); } })";
    let lengths = chunk_lengths(fetch_answering_with(byte_stream)).await;
    assert_eq!(lengths[0], 16 * 1024, "{lengths:?}");
    assert!(lengths[1] > 16 * 1024, "{lengths:?}");
    assert!(lengths.len() >= 5, "{lengths:?}");
    assert!(lengths.iter().all(|&n| n <= 256 * 1024), "{lengths:?}");
}

#[wasm_bindgen_test]
async fn other_streams_are_read_with_the_default_reader() {
    // Not a byte stream (an injected fetch may answer with any ReadableStream): no BYOB reader
    // exists for it, and the chunk arrives as enqueued.
    let plain = "new ReadableStream({ start(c) { c.enqueue(bytes()); c.close(); } })";
    assert_eq!(
        chunk_lengths(fetch_answering_with(plain)).await,
        vec![1_000_000]
    );
}

/// An injected `fetch` answering 200 with no body and `headers` from the JS expression given.
fn fetch_with_headers(headers: &str) -> Function {
    Function::new_no_args(&format!(
        "return () => Promise.resolve({{ status: 200, headers: {headers}, body: null }});"
    ))
    .call0(&JsValue::NULL)
    .unwrap()
    .dyn_into()
    .unwrap()
}

#[wasm_bindgen_test]
async fn injected_response_headers_are_read_as_string_pairs() {
    // Any iterable of [name, value] pairs is read (a Map, an array); pairs that are not two
    // strings, or that a real `Headers` could not hold, are left out; a `:` in a value stays.
    let pairs = "[['content-type', 'text/event-stream'], ['x-n', 1], ['bad\\nname', 'v'], \
                 ['x:y', 'v'], ['x-split', 'a\\r\\nb'], ['mcp-session-id', 'id:with:colons'], ['x-empty', '']]";
    let transport = FetchTransport::new(Some(fetch_with_headers(pairs)));
    let resp = transport
        .send(&get(format!("{}/json", base())), &AbortHandle::new())
        .await
        .unwrap();
    let pair = |n: &str, v: &str| (n.to_string(), v.to_string());
    assert_eq!(
        resp.head.headers,
        vec![
            pair("content-type", "text/event-stream"),
            pair("mcp-session-id", "id:with:colons"),
            pair("x-empty", ""),
        ]
    );
    // Not iterable as pairs: the response is refused, not read as having no headers.
    let transport = FetchTransport::new(Some(fetch_with_headers("{ 'content-type': 'x' }")));
    let err = transport
        .send(&get(format!("{}/json", base())), &AbortHandle::new())
        .await
        .unwrap_err();
    assert!(
        matches!(&err, TransportError::InvalidResponse { message } if message.contains("headers")),
        "got {err:?}"
    );
}

#[wasm_bindgen_test]
async fn injected_fetch_that_ignores_the_signal_still_aborts() {
    let never = Closure::<dyn FnMut(JsValue, JsValue) -> JsValue>::new(|_url, _init| {
        Promise::new(&mut |_resolve, _reject| {}).into()
    });
    let transport = FetchTransport::new(Some(never.as_ref().unchecked_ref::<Function>().clone()));
    let abort = Rc::new(AbortHandle::new());
    abort_later(&abort, 30);
    let err = transport
        .send(&get(format!("{}/json", base())), &abort)
        .await
        .unwrap_err();
    assert_eq!(err, TransportError::Aborted);
}

#[wasm_bindgen_test]
async fn injected_fetch_returning_garbage_is_invalid_response() {
    let garbage = Closure::<dyn FnMut(JsValue, JsValue) -> JsValue>::new(|_url, _init| {
        JsValue::from_f64(42.0)
    });
    let transport = FetchTransport::new(Some(garbage.as_ref().unchecked_ref::<Function>().clone()));
    let err = transport
        .send(&get(format!("{}/json", base())), &AbortHandle::new())
        .await
        .unwrap_err();
    assert!(
        matches!(err, TransportError::InvalidResponse { .. }),
        "got {err:?}"
    );
}

#[wasm_bindgen_test]
async fn bad_header_and_bad_url_are_invalid_requests() {
    let transport = FetchTransport::new(None);
    let mut req = get(format!("{}/json", base()));
    req.headers.push(("bad header".into(), "x".into()));
    let err = transport.send(&req, &AbortHandle::new()).await.unwrap_err();
    assert!(
        matches!(&err, TransportError::InvalidRequest { message } if message.contains("bad header")),
        "got {err:?}"
    );
    let err = transport
        .send(&get("http://[::1".into()), &AbortHandle::new())
        .await
        .unwrap_err();
    // `fetch` rejects it like a network failure; the URL is parsed when the call fails.
    assert!(
        matches!(&err, TransportError::InvalidRequest { message } if message.contains("not a valid URL")),
        "got {err:?}"
    );
    // The same through an injected fetch (one that hands the call to the global fetch): not
    // mistaken for a network or CORS failure either.
    let delegate = Function::new_with_args("url, init", "return fetch(url, init);");
    let err = FetchTransport::new(Some(delegate))
        .send(&get("http://[::1".into()), &AbortHandle::new())
        .await
        .unwrap_err();
    assert!(
        matches!(&err, TransportError::InvalidRequest { message } if message.contains("not a valid URL")),
        "got {err:?}"
    );
}

#[wasm_bindgen_test]
async fn server_without_cors_is_diagnosed_in_a_browser() {
    let transport = FetchTransport::new(None);
    let req = mcp_post(format!("{}/json", nocors_base()), "{}");
    let result = transport.send(&req, &AbortHandle::new()).await;
    if in_browser() {
        let origin = Reflect::get(
            &Reflect::get(&js_sys::global(), &"location".into()).unwrap(),
            &"origin".into(),
        )
        .unwrap()
        .as_string()
        .unwrap();
        match result {
            Err(TransportError::Cors { diagnosis }) => {
                assert!(diagnosis.contains("mcp-protocol-version"), "{diagnosis}");
                assert!(diagnosis.contains("mcp-method"), "{diagnosis}");
                assert!(diagnosis.contains("authorization"), "{diagnosis}");
                assert!(
                    diagnosis.contains(&format!("Access-Control-Allow-Origin: {origin}")),
                    "{diagnosis}"
                );
                assert!(diagnosis.contains("mcp-session-id, www-authenticate"));
            }
            other => panic!("expected a CORS diagnosis, got {other:?}"),
        }
    } else {
        // Node enforces no CORS: the same request simply succeeds.
        let resp = result.unwrap();
        assert_eq!(resp.head.status, 200);
    }
}

#[wasm_bindgen_test]
async fn refused_connection_is_network_in_node_and_cors_in_a_page() {
    let transport = FetchTransport::new(None);
    let err = transport
        .send(&get(format!("{}/json", dead_base())), &AbortHandle::new())
        .await
        .unwrap_err();
    if in_browser() {
        // A page cannot tell a refused cross-origin connection from a CORS refusal.
        assert!(matches!(err, TransportError::Cors { .. }), "got {err:?}");
    } else {
        match err {
            TransportError::Network { message } => {
                assert!(message.contains("ECONNREFUSED"), "{message}")
            }
            other => panic!("expected Network, got {other:?}"),
        }
    }
}

#[wasm_bindgen_test]
async fn sleep_waits_and_now_ms_advances() {
    let t0 = now_ms();
    assert!(t0.is_finite() && t0 >= 0.0);
    sleep(30).await;
    let waited = now_ms() - t0;
    assert!(waited >= 25.0, "slept only {waited} ms");
    Timeout::new(5).unwrap().await;
}

#[wasm_bindgen_test]
async fn dropping_a_timeout_clears_it() {
    let global = js_sys::global();
    let original = Reflect::get(&global, &"clearTimeout".into()).unwrap();
    let original_fn: Function = original.clone().dyn_into().unwrap();
    let cleared = Rc::new(Cell::new(0u32));
    let counter = cleared.clone();
    let spy = Closure::<dyn FnMut(JsValue)>::new(move |id: JsValue| {
        counter.set(counter.get() + 1);
        let _ = original_fn.call1(&JsValue::UNDEFINED, &id);
    });
    Reflect::set(&global, &"clearTimeout".into(), spy.as_ref()).unwrap();
    let pending = Timeout::new(60_000).unwrap();
    drop(pending);
    let fired = Timeout::new(1).unwrap();
    fired.await;
    Reflect::set(&global, &"clearTimeout".into(), &original).unwrap();
    assert_eq!(cleared.get(), 1, "only the unfired timer is cleared");
}

// Runs in the runtime `wasm-pack test` asks for (see tests/wasm-test-mode).
mcp_edge_wasm_test_mode::configure!();
