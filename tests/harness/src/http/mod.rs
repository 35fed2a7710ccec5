//! A small native Streamable HTTP transport (MCP `basic/transports/streamable-http`): a blocking
//! HTTP/1.1 client over `std::net::TcpStream` to loopback `http://` URLs only.
//!
//! Each exchange runs on its own thread under a key the host assigns: connect, write the request
//! with `Connection: close`, then stream the response back into the host's inbox (head, body
//! chunks as they arrive, end, or failure). Bodies may be delimited by `Content-Length`, the
//! chunked transfer coding, or the end of the connection (RFC 9112 § 6.3). Aborting an exchange
//! shuts its socket down, which ends the thread's blocking read.

pub mod chunked;
pub mod response;
pub mod url;

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream, ToSocketAddrs};
use std::sync::mpsc::SyncSender;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use mcp_edge::proto::http::HttpRequest;
use mcp_edge::proto::session::TransportFailure;

use crate::host::Input;
use chunked::ChunkedDecoder;
use response::{body_framing, parse_head, BodyFraming};
use url::LoopbackUrl;

/// Size of one socket read.
const READ_CHUNK: usize = 16 * 1024;
/// How long a connection attempt to loopback may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Debug)]
enum Slot {
    Connecting,
    Open(TcpStream),
    Aborted,
}

/// The transport: starts exchanges and aborts them.
#[derive(Debug)]
pub struct HttpTransport {
    inputs: SyncSender<Input>,
    slots: Arc<Mutex<HashMap<u64, Slot>>>,
}

impl HttpTransport {
    /// A transport reporting into `inputs`.
    pub fn new(inputs: SyncSender<Input>) -> Self {
        HttpTransport {
            inputs,
            slots: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// Starts exchange `id` (a key the caller assigns) on its own thread.
    pub fn send(&self, id: u64, request: HttpRequest) {
        if let Ok(mut s) = self.slots.lock() {
            s.insert(id, Slot::Connecting);
        }
        let inputs = self.inputs.clone();
        let slots = Arc::clone(&self.slots);
        let spawned = thread::Builder::new()
            .name(format!("http-exchange-{id}"))
            .spawn(move || {
                let ex = Exchange { id, inputs, slots };
                ex.run(&request);
            });
        if let Err(e) = spawned {
            let _ = self.inputs.send(Input::Http(
                id,
                HttpInput::Failed(TransportFailure::Network(format!(
                    "could not start a thread: {e}"
                ))),
            ));
        }
    }

    /// Aborts one exchange still running: its socket is shut down and nothing more is reported
    /// for it.
    pub fn abort(&self, id: u64) {
        if let Ok(mut s) = self.slots.lock() {
            if let Some(slot) = s.get_mut(&id) {
                if let Slot::Open(stream) = std::mem::replace(slot, Slot::Aborted) {
                    let _ = stream.shutdown(Shutdown::Both);
                }
            }
        }
    }

    /// Aborts every exchange still running.
    pub fn abort_all(&self) {
        let ids: Vec<u64> = self
            .slots
            .lock()
            .map(|s| s.keys().copied().collect())
            .unwrap_or_default();
        for id in ids {
            self.abort(id);
        }
    }
}

impl Drop for HttpTransport {
    fn drop(&mut self) {
        self.abort_all();
    }
}

/// What one exchange reports.
#[derive(Debug)]
pub enum HttpInput {
    /// The response head.
    Head(mcp_edge::proto::http::ResponseHead),
    /// A piece of the (de-chunked) body.
    Body(Vec<u8>),
    /// The body ended.
    End,
    /// The exchange failed.
    Failed(TransportFailure),
}

struct Exchange {
    id: u64,
    inputs: SyncSender<Input>,
    slots: Arc<Mutex<HashMap<u64, Slot>>>,
}

impl Exchange {
    fn aborted(&self) -> bool {
        self.slots
            .lock()
            .map(|s| matches!(s.get(&self.id), Some(Slot::Aborted)))
            .unwrap_or(true)
    }

    /// Reports `what` unless the exchange was aborted; false when nothing more should be sent.
    fn report(&self, what: HttpInput) -> bool {
        if self.aborted() {
            return false;
        }
        self.inputs.send(Input::Http(self.id, what)).is_ok()
    }

    fn run(&self, req: &HttpRequest) {
        let outcome = self.exchange(req);
        if let Err(failure) = outcome {
            self.report(HttpInput::Failed(failure));
        }
        if let Ok(mut s) = self.slots.lock() {
            s.remove(&self.id);
        }
    }

    fn exchange(&self, req: &HttpRequest) -> Result<(), TransportFailure> {
        let url =
            LoopbackUrl::parse(&req.url).map_err(|e| TransportFailure::Network(e.to_string()))?;
        let addr = url
            .socket_addr()
            .to_socket_addrs()
            .map_err(|e| TransportFailure::Network(format!("{}: {e}", url.socket_addr())))?
            .next()
            .ok_or_else(|| {
                TransportFailure::Network(format!("{}: no address", url.socket_addr()))
            })?;
        let mut stream = TcpStream::connect_timeout(&addr, CONNECT_TIMEOUT)
            .map_err(|e| TransportFailure::Network(format!("connect to {addr}: {e}")))?;
        let _ = stream.set_nodelay(true);
        {
            let mut slots = self.slots.lock().map_err(|_| net("lock poisoned"))?;
            match slots.get(&self.id) {
                Some(Slot::Aborted) | None => return Ok(()),
                _ => {}
            }
            let clone = stream.try_clone().map_err(|e| net(&e.to_string()))?;
            slots.insert(self.id, Slot::Open(clone));
        }
        let bytes = encode_request(req, &url)?;
        stream
            .write_all(&bytes)
            .map_err(|e| net(&format!("sending the request: {e}")))?;

        // The head.
        let mut buf = Vec::new();
        let mut chunk = vec![0u8; READ_CHUNK];
        let (head, rest) = loop {
            let n = read_some(&mut stream, &mut chunk).map_err(|e| net(&e))?;
            if n == 0 {
                return Err(net("the connection closed before a response head"));
            }
            buf.extend_from_slice(&chunk[..n]);
            match parse_head(&buf) {
                Ok(Some((head, used))) if (100..200).contains(&head.status) => {
                    // An interim response (RFC 9110 § 15.2): the final one follows.
                    buf.drain(..used);
                    continue;
                }
                Ok(Some((head, used))) => break (head, buf.split_off(used)),
                Ok(None) => continue,
                Err(e) => return Err(net(&format!("bad response head: {e:?}"))),
            }
        };
        let framing = body_framing(&head, req.method.as_str())
            .map_err(|e| net(&format!("bad response head: {e:?}")))?;
        if !self.report(HttpInput::Head(head)) {
            return Ok(());
        }
        let interrupted = |m: &str| TransportFailure::BodyInterrupted(m.to_string());
        match framing {
            BodyFraming::None => {}
            BodyFraming::Length(total) => {
                let mut left = total;
                let first = &rest[..rest.len().min(usize::try_from(left).unwrap_or(usize::MAX))];
                left -= first.len() as u64;
                if !first.is_empty() && !self.report(HttpInput::Body(first.to_vec())) {
                    return Ok(());
                }
                while left > 0 {
                    let n = read_some(&mut stream, &mut chunk).map_err(|e| interrupted(&e))?;
                    if n == 0 {
                        return Err(interrupted(&format!(
                            "the connection closed {left} bytes before the end of the body"
                        )));
                    }
                    let n = n.min(usize::try_from(left).unwrap_or(usize::MAX));
                    left -= n as u64;
                    if !self.report(HttpInput::Body(chunk[..n].to_vec())) {
                        return Ok(());
                    }
                }
            }
            BodyFraming::Chunked => {
                let mut dec = ChunkedDecoder::new();
                let mut out = Vec::new();
                let mut input = rest;
                loop {
                    dec.feed(&input, &mut out)
                        .map_err(|e| interrupted(&format!("bad chunked body: {e:?}")))?;
                    if !out.is_empty() && !self.report(HttpInput::Body(std::mem::take(&mut out))) {
                        return Ok(());
                    }
                    if dec.is_done() {
                        break;
                    }
                    let n = read_some(&mut stream, &mut chunk).map_err(|e| interrupted(&e))?;
                    if n == 0 {
                        return Err(interrupted("the connection closed inside a chunked body"));
                    }
                    input = chunk[..n].to_vec();
                }
            }
            BodyFraming::UntilClose => {
                if !rest.is_empty() && !self.report(HttpInput::Body(rest)) {
                    return Ok(());
                }
                loop {
                    let n = read_some(&mut stream, &mut chunk).map_err(|e| interrupted(&e))?;
                    if n == 0 {
                        break;
                    }
                    if !self.report(HttpInput::Body(chunk[..n].to_vec())) {
                        return Ok(());
                    }
                }
            }
        }
        let _ = stream.shutdown(Shutdown::Both);
        self.report(HttpInput::End);
        Ok(())
    }
}

fn net(m: &str) -> TransportFailure {
    TransportFailure::Network(m.to_string())
}

fn read_some(stream: &mut TcpStream, buf: &mut [u8]) -> Result<usize, String> {
    loop {
        match stream.read(buf) {
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e.to_string()),
        }
    }
}

/// The request bytes: request line, `Host`, the session's headers, framing headers, body.
fn encode_request(req: &HttpRequest, url: &LoopbackUrl) -> Result<Vec<u8>, TransportFailure> {
    let mut head = format!(
        "{} {} HTTP/1.1\r\nhost: {}\r\n",
        req.method.as_str(),
        url.target,
        url.host_header()
    );
    for (name, value) in &req.headers {
        let bad = |s: &str| s.bytes().any(|b| b == b'\r' || b == b'\n' || b == 0);
        if bad(name) || bad(value) || name.is_empty() {
            return Err(net(&format!(
                "refusing to send header {name:?}: it contains CR, LF or NUL"
            )));
        }
        if name.eq_ignore_ascii_case("host")
            || name.eq_ignore_ascii_case("content-length")
            || name.eq_ignore_ascii_case("connection")
            || name.eq_ignore_ascii_case("transfer-encoding")
        {
            continue;
        }
        head.push_str(name);
        head.push_str(": ");
        head.push_str(value);
        head.push_str("\r\n");
    }
    let body = req.body.as_deref().unwrap_or("");
    if req.body.is_some() || req.method.as_str() == "POST" {
        head.push_str(&format!("content-length: {}\r\n", body.len()));
    }
    head.push_str("connection: close\r\n\r\n");
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body.as_bytes());
    Ok(bytes)
}
