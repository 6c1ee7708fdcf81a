//! A small HTTP/1.1 proxy in front of a test server ([`crate::s3_server`]) that counts the
//! requests and response bytes that pass, and on command injects faults: an error status, a
//! connection closed mid-body, a delay, or an object served shorter than it is.
//!
//! Clients point their endpoint at [`FaultProxy::endpoint`]. Each client request is forwarded
//! on a fresh upstream connection (`Connection: close`) and its response sent back with a
//! `Content-Length`, keeping the client's connection alive. Threads of `std::net` only; every
//! socket has a timeout and every thread ends soon after the proxy is dropped.

use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// The longest a request or response head may be.
const MAX_HEAD: usize = 64 << 10;
/// How often blocked threads look at the stop flag.
const TICK: Duration = Duration::from_millis(100);
/// How long the upstream server may take to answer one request.
const UPSTREAM_TIMEOUT: Duration = Duration::from_secs(120);

/// A fault to inject into responses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// Answer with this status (403, 500, 503, ...) and an S3-style XML error body, without
    /// asking the server.
    Status(u16),
    /// Send the response head and half the body, then close the connection.
    ResetMidBody,
    /// Wait this long before answering (or until the proxy is dropped), then answer normally.
    Delay(Duration),
    /// Serve the object as if it were only this many bytes long: ranged responses are cut at
    /// that length (416 past it) and report it as the total size, like a truncated upload.
    Truncate(u64),
}

/// One request that passed the proxy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// `GET`, `HEAD`, ...
    pub method: String,
    /// The request target (path and query).
    pub target: String,
    /// The `Range` header, if any.
    pub range: Option<String>,
    /// The status sent back (0 if the proxy closed the connection before one).
    pub status: u16,
    /// Response body bytes sent to the client.
    pub body_bytes: u64,
}

/// What passed the proxy since it started or since the last [`FaultProxy::take_traffic`].
#[derive(Debug, Clone, Default)]
pub struct Traffic {
    /// Every request, in the order they arrived.
    pub requests: Vec<Request>,
}

impl Traffic {
    /// The number of requests.
    pub fn count(&self) -> usize {
        self.requests.len()
    }

    /// The number of requests with this method.
    pub fn count_method(&self, method: &str) -> usize {
        self.requests.iter().filter(|r| r.method == method).count()
    }

    /// Response body bytes sent, all requests together.
    pub fn body_bytes(&self) -> u64 {
        self.requests.iter().map(|r| r.body_bytes).sum()
    }

    /// One line per request: `GET /b/k bytes=0-65535 -> 206, 65,536 bytes`.
    pub fn describe(&self) -> String {
        self.requests
            .iter()
            .map(|r| {
                format!(
                    "{} {} {} -> {}, {} bytes\n",
                    r.method,
                    r.target,
                    r.range.as_deref().unwrap_or("-"),
                    r.status,
                    r.body_bytes
                )
            })
            .collect()
    }
}

/// A fault and the requests it applies to.
#[derive(Debug)]
struct Plan {
    fault: Fault,
    /// Requests still to pass untouched before the fault applies.
    skip: usize,
    /// Requests still to fault; `None`: all from then on.
    times: Option<usize>,
}

#[derive(Debug, Default)]
struct State {
    traffic: Traffic,
    plans: VecDeque<Plan>,
}

struct Shared {
    upstream: SocketAddr,
    stop: AtomicBool,
    state: Mutex<State>,
}

impl Shared {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|err| err.into_inner())
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The fault for the next request, if any: the first plan that is not skipping it.
    fn next_fault(&self) -> Option<Fault> {
        let mut state = self.state();
        let plan = state.plans.front_mut()?;
        if plan.skip > 0 {
            plan.skip -= 1;
            return None;
        }
        let fault = plan.fault.clone();
        match &mut plan.times {
            Some(0) | Some(1) => {
                state.plans.pop_front();
            }
            Some(n) => *n -= 1,
            None => {}
        }
        Some(fault)
    }
}

/// A counting, fault-injecting proxy on a free loopback port.
pub struct FaultProxy {
    addr: SocketAddr,
    shared: Arc<Shared>,
    accept: Option<JoinHandle<()>>,
}

impl FaultProxy {
    /// Starts a proxy forwarding to `upstream`.
    ///
    /// # Panics
    ///
    /// When no loopback port can be bound.
    pub fn start(upstream: SocketAddr) -> FaultProxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
        let addr = listener.local_addr().expect("the bound address");
        let shared = Arc::new(Shared {
            upstream,
            stop: AtomicBool::new(false),
            state: Mutex::new(State::default()),
        });
        let accept_shared = Arc::clone(&shared);
        let accept = thread::spawn(move || {
            for stream in listener.incoming() {
                if accept_shared.stopped() {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let shared = Arc::clone(&accept_shared);
                thread::spawn(move || {
                    let _ = serve(stream, &shared);
                });
            }
        });
        FaultProxy {
            addr,
            shared,
            accept: Some(accept),
        }
    }

    /// The proxy's address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The endpoint URL for clients, `http://127.0.0.1:PORT`.
    pub fn endpoint(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Injects `fault` into `times` requests (`None`: every one) after letting `skip` pass.
    /// Faults queue: the next one starts when this one is used up.
    pub fn inject(&self, fault: Fault, skip: usize, times: Option<usize>) {
        self.shared
            .state()
            .plans
            .push_back(Plan { fault, skip, times });
    }

    /// Removes every queued fault.
    pub fn clear_faults(&self) {
        self.shared.state().plans.clear();
    }

    /// What passed since the start or the last call, and starts counting afresh.
    pub fn take_traffic(&self) -> Traffic {
        std::mem::take(&mut self.shared.state().traffic)
    }
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
        // Wakes the accept loop, which then sees the flag.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
        if let Some(accept) = self.accept.take() {
            let _ = accept.join();
        }
    }
}

/// A parsed HTTP head: the first line and the headers.
struct Head {
    line: String,
    headers: Vec<(String, String)>,
}

impl Head {
    fn parse(bytes: &[u8]) -> io::Result<Head> {
        let text = std::str::from_utf8(bytes).map_err(|_| invalid("a head that is not UTF-8"))?;
        let mut lines = text.split("\r\n");
        let line = lines.next().unwrap_or_default().to_owned();
        let mut headers = Vec::new();
        for header in lines.filter(|l| !l.is_empty()) {
            let (name, value) = header
                .split_once(':')
                .ok_or_else(|| invalid("a header without ':'"))?;
            headers.push((name.trim().to_owned(), value.trim().to_owned()));
        }
        Ok(Head { line, headers })
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn remove(&mut self, name: &str) {
        self.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
    }

    fn set(&mut self, name: &str, value: String) {
        self.remove(name);
        self.headers.push((name.to_owned(), value));
    }

    fn to_bytes(&self) -> Vec<u8> {
        let mut out = format!("{}\r\n", self.line);
        for (name, value) in &self.headers {
            out.push_str(&format!("{name}: {value}\r\n"));
        }
        out.push_str("\r\n");
        out.into_bytes()
    }

    fn is_chunked(&self) -> bool {
        self.get("transfer-encoding")
            .is_some_and(|v| v.to_ascii_lowercase().contains("chunked"))
    }
}

fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_owned())
}

/// A connection's bytes, read as needed, with the stop flag checked while waiting.
struct Conn<'a> {
    stream: TcpStream,
    buf: Vec<u8>,
    shared: &'a Shared,
    /// When set, reading past this instant fails (the upstream timeout).
    deadline: Option<Instant>,
}

impl Conn<'_> {
    /// Reads more bytes; `Ok(false)` at end of stream.
    fn fill(&mut self) -> io::Result<bool> {
        let mut chunk = [0u8; 64 << 10];
        loop {
            if self.shared.stopped() {
                return Err(io::Error::other("proxy stopped"));
            }
            if self.deadline.is_some_and(|d| Instant::now() > d) {
                return Err(io::Error::new(io::ErrorKind::TimedOut, "upstream timeout"));
            }
            match self.stream.read(&mut chunk) {
                Ok(0) => return Ok(false),
                Ok(n) => {
                    self.buf.extend_from_slice(&chunk[..n]);
                    return Ok(true);
                }
                Err(err)
                    if matches!(
                        err.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) => {}
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => return Err(err),
            }
        }
    }

    /// The next head, or `None` at a clean end of stream.
    fn head(&mut self) -> io::Result<Option<Head>> {
        loop {
            if let Some(end) = find(&self.buf, b"\r\n\r\n") {
                let head = Head::parse(&self.buf[..end])?;
                self.buf.drain(..end + 4);
                return Ok(Some(head));
            }
            if self.buf.len() > MAX_HEAD {
                return Err(invalid("a head over 64 KiB"));
            }
            if !self.fill()? {
                return if self.buf.is_empty() {
                    Ok(None)
                } else {
                    Err(invalid("a truncated head"))
                };
            }
        }
    }

    /// Exactly `len` bytes.
    fn take(&mut self, len: usize) -> io::Result<Vec<u8>> {
        while self.buf.len() < len {
            if !self.fill()? {
                return Err(invalid("a truncated body"));
            }
        }
        Ok(self.buf.drain(..len).collect())
    }

    /// One line (without its CRLF).
    fn line(&mut self) -> io::Result<String> {
        loop {
            if let Some(end) = find(&self.buf, b"\r\n") {
                let line = String::from_utf8_lossy(&self.buf[..end]).into_owned();
                self.buf.drain(..end + 2);
                return Ok(line);
            }
            if !self.fill()? {
                return Err(invalid("a truncated chunked body"));
            }
        }
    }

    /// The body that follows `head`: chunked, by `Content-Length`, or (`to_eof`) to the end.
    fn body(&mut self, head: &Head, to_eof: bool) -> io::Result<Vec<u8>> {
        if head.is_chunked() {
            let mut body = Vec::new();
            loop {
                let size = self.line()?;
                let size = size.split(';').next().unwrap_or_default().trim();
                let size =
                    usize::from_str_radix(size, 16).map_err(|_| invalid("a bad chunk size"))?;
                if size == 0 {
                    // Trailers, up to the empty line.
                    while !self.line()?.is_empty() {}
                    return Ok(body);
                }
                body.extend(self.take(size)?);
                self.take(2)?;
            }
        }
        if let Some(len) = head.get("content-length") {
            let len = len.parse().map_err(|_| invalid("a bad Content-Length"))?;
            return self.take(len);
        }
        if to_eof {
            while self.fill()? {}
            return Ok(std::mem::take(&mut self.buf));
        }
        Ok(Vec::new())
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Serves one client connection, request after request.
fn serve(stream: TcpStream, shared: &Shared) -> io::Result<()> {
    stream.set_read_timeout(Some(TICK))?;
    stream.set_write_timeout(Some(UPSTREAM_TIMEOUT))?;
    let mut writer = stream.try_clone()?;
    let mut client = Conn {
        stream,
        buf: Vec::new(),
        shared,
        deadline: None,
    };
    while let Some(mut request) = client.head()? {
        if request
            .get("expect")
            .is_some_and(|v| v.eq_ignore_ascii_case("100-continue"))
        {
            writer.write_all(b"HTTP/1.1 100 Continue\r\n\r\n")?;
            request.remove("expect");
        }
        let body = client.body(&request, false)?;
        let close = request
            .get("connection")
            .is_some_and(|v| v.eq_ignore_ascii_case("close"));
        let mut parts = request.line.split(' ');
        let method = parts.next().unwrap_or_default().to_owned();
        let target = parts.next().unwrap_or_default().to_owned();
        let index = {
            let mut state = shared.state();
            state.traffic.requests.push(Request {
                method: method.clone(),
                target,
                range: request.get("range").map(str::to_owned),
                status: 0,
                body_bytes: 0,
            });
            state.traffic.requests.len() - 1
        };
        let fault = shared.next_fault();
        let record = |status: u16, bytes: u64| {
            if let Some(r) = shared.state().traffic.requests.get_mut(index) {
                r.status = status;
                r.body_bytes = bytes;
            }
        };
        if let Some(Fault::Status(code)) = fault {
            let body = error_body(code);
            let body = if method == "HEAD" { Vec::new() } else { body };
            let head = format!(
                "HTTP/1.1 {code} {}\r\nContent-Type: application/xml\r\nContent-Length: {}\r\n\r\n",
                reason(code),
                body.len()
            );
            writer.write_all(head.as_bytes())?;
            writer.write_all(&body)?;
            record(code, body.len() as u64);
            if close {
                break;
            }
            continue;
        }
        if let Some(Fault::Delay(delay)) = &fault {
            let until = Instant::now() + *delay;
            while Instant::now() < until && !shared.stopped() {
                thread::sleep(TICK.min(until.saturating_duration_since(Instant::now())));
            }
        }
        let (mut head, mut body) = forward(shared, &mut request, &body)?;
        let mut status: u16 = status_of(&head);
        if let Some(Fault::Truncate(len)) = fault {
            status = truncate(&mut head, &mut body, len, status, &method);
        }
        let is_head = method == "HEAD";
        head.remove("transfer-encoding");
        head.remove("connection");
        if !is_head {
            head.set("Content-Length", body.len().to_string());
        }
        if close {
            head.set("Connection", "close".to_owned());
        }
        writer.write_all(&head.to_bytes())?;
        if is_head {
            record(status, 0);
        } else if fault == Some(Fault::ResetMidBody) {
            let half = body.len() / 2;
            writer.write_all(&body[..half])?;
            writer.flush()?;
            record(status, half as u64);
            let _ = writer.shutdown(Shutdown::Both);
            return Ok(());
        } else {
            writer.write_all(&body)?;
            record(status, body.len() as u64);
        }
        if close {
            break;
        }
    }
    let _ = writer.shutdown(Shutdown::Both);
    Ok(())
}

/// Sends `request` (with `body`) upstream on a fresh connection and reads the whole response.
fn forward(shared: &Shared, request: &mut Head, body: &[u8]) -> io::Result<(Head, Vec<u8>)> {
    let stream = TcpStream::connect_timeout(&shared.upstream, UPSTREAM_TIMEOUT)?;
    stream.set_read_timeout(Some(TICK))?;
    stream.set_write_timeout(Some(UPSTREAM_TIMEOUT))?;
    request.set("Connection", "close".to_owned());
    request.remove("transfer-encoding");
    if !body.is_empty() || request.get("content-length").is_some() {
        request.set("Content-Length", body.len().to_string());
    }
    let mut writer = stream.try_clone()?;
    writer.write_all(&request.to_bytes())?;
    writer.write_all(body)?;
    let mut upstream = Conn {
        stream,
        buf: Vec::new(),
        shared,
        deadline: Some(Instant::now() + UPSTREAM_TIMEOUT),
    };
    let head = upstream
        .head()?
        .ok_or_else(|| invalid("no response from upstream"))?;
    let method = request.line.split(' ').next().unwrap_or_default();
    let status = status_of(&head);
    let body = if method == "HEAD" || status == 204 || status == 304 {
        Vec::new()
    } else {
        upstream.body(&head, true)?
    };
    Ok((head, body))
}

fn status_of(head: &Head) -> u16 {
    head.line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

/// Rewrites a response for an object cut to `len` bytes; returns the new status.
fn truncate(head: &mut Head, body: &mut Vec<u8>, len: u64, status: u16, method: &str) -> u16 {
    if method == "HEAD" {
        head.set("Content-Length", len.to_string());
        return status;
    }
    match status {
        200 => {
            body.truncate(usize::try_from(len).unwrap_or(usize::MAX));
            200
        }
        206 => {
            // `bytes START-END/TOTAL`
            let start = head
                .get("content-range")
                .and_then(|v| v.strip_prefix("bytes "))
                .and_then(|v| v.split('-').next())
                .and_then(|v| v.parse::<u64>().ok())
                .unwrap_or(0);
            if start >= len {
                head.line = "HTTP/1.1 416 Requested Range Not Satisfiable".to_owned();
                head.set("Content-Range", format!("bytes */{len}"));
                *body = error_body(416);
                return 416;
            }
            let keep = usize::try_from(len - start).unwrap_or(usize::MAX);
            body.truncate(keep);
            let end = start + body.len() as u64 - 1;
            head.set("Content-Range", format!("bytes {start}-{end}/{len}"));
            206
        }
        other => other,
    }
}

fn reason(code: u16) -> &'static str {
    match code {
        403 => "Forbidden",
        404 => "Not Found",
        416 => "Requested Range Not Satisfiable",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Error",
    }
}

/// An S3-style error document for `code`.
fn error_body(code: u16) -> Vec<u8> {
    let name = match code {
        403 => "AccessDenied",
        416 => "InvalidRange",
        500 => "InternalError",
        503 => "SlowDown",
        _ => "Error",
    };
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>{name}</Code>\
         <Message>injected by the test proxy</Message></Error>"
    )
    .into_bytes()
}
