//! A real S3-compatible server for the object-store tests: moto's `ThreadedMotoServer`, run by
//! `tests/interop/s3_server.py` in the provisioned Python ([`crate::python_peers`]) on a free
//! loopback port. Nothing talks to a real cloud.
//!
//! The server process is driven through its stdin (one JSON command a line: create a bucket,
//! upload a file) and answers on its stdout; every wait has a timeout. It is killed when the
//! [`S3Server`] is dropped, and it exits by itself when its stdin closes, so a server kept in a
//! `static` (never dropped) still ends with the test process: no orphan.
//!
//! Put a [`FaultProxy`](crate::fault_proxy::FaultProxy) in front of it to count requests and
//! bytes or inject errors.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

use crate::python_peers;

/// The access key the tests give clients (moto accepts any; nothing is verified or sent out).
pub const ACCESS_KEY: &str = "testing";
/// The secret key the tests give clients.
pub const SECRET_KEY: &str = "testing";
/// The region the tests give clients.
pub const REGION: &str = "us-east-1";

/// How long the server may take to start (Python imports moto and Flask).
const START_TIMEOUT: Duration = Duration::from_secs(120);
/// How long one command (an upload of a ~100 MB file included) may take.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(300);
/// How long the process may take to exit after its stdin closed, before it is killed.
const EXIT_TIMEOUT: Duration = Duration::from_secs(10);

/// A moto S3 server on `127.0.0.1`, stopped on drop.
pub struct S3Server {
    addr: SocketAddr,
    child: Child,
    /// Commands in, answers out; one command at a time.
    channel: Mutex<Channel>,
    /// The server's stderr, for failure messages.
    log: tempfile::NamedTempFile,
}

struct Channel {
    stdin: Option<ChildStdin>,
    answers: Receiver<String>,
}

impl S3Server {
    /// Starts a server and waits until it answers HTTP.
    ///
    /// # Panics
    ///
    /// When the Python peers cannot be provisioned, or the server does not start in time;
    /// the message carries the server's stderr.
    pub fn start() -> S3Server {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("interop/s3_server.py");
        let log = tempfile::NamedTempFile::new().expect("a temporary file for the server's log");
        let stderr = log.reopen().expect("the server's log file");
        let mut child = python_peers::command(&script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(stderr))
            .spawn()
            .unwrap_or_else(|err| panic!("cannot start {}: {err}", script.display()));
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped stdout");
        let (send, answers) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut server = S3Server {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            child,
            channel: Mutex::new(Channel { stdin, answers }),
            log,
        };
        let first = server.answer(START_TIMEOUT, "start");
        let port: u16 = first
            .strip_prefix("port ")
            .and_then(|port| port.parse().ok())
            .unwrap_or_else(|| server.fail(&format!("unexpected first line {first:?}")));
        server.addr = SocketAddr::from(([127, 0, 0, 1], port));
        server.wait_until_answering();
        server
    }

    /// One server for the whole test binary, started on first use. It is never dropped; its
    /// process exits when the test process does (its stdin closes).
    pub fn shared() -> &'static S3Server {
        static SERVER: OnceLock<S3Server> = OnceLock::new();
        SERVER.get_or_init(S3Server::start)
    }

    /// The server's address, `127.0.0.1:PORT`.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The endpoint URL for clients, `http://127.0.0.1:PORT`.
    pub fn endpoint(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Creates a bucket with a name not used before in this process, starting with `prefix`
    /// (lowercase letters, digits and `-`), and returns its name.
    pub fn bucket(&self, prefix: &str) -> String {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let name = format!(
            "{prefix}-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        self.command(&serde_json::json!({"op": "bucket", "bucket": name}));
        name
    }

    /// Uploads the local file `file` as `bucket/key` (private: clients must sign).
    pub fn put_file(&self, bucket: &str, key: &str, file: &Path) {
        self.put(bucket, key, file, false);
    }

    /// Uploads `bytes` as `bucket/key` (private: clients must sign).
    pub fn put_bytes(&self, bucket: &str, key: &str, bytes: &[u8]) {
        let mut file = tempfile::NamedTempFile::new().expect("a temporary file");
        file.write_all(bytes).expect("write the temporary file");
        self.put(bucket, key, file.path(), false);
    }

    /// Uploads `bytes` as `bucket/key`, readable without signing (ACL `public-read`): for
    /// plain HTTP clients.
    pub fn put_public_bytes(&self, bucket: &str, key: &str, bytes: &[u8]) {
        let mut file = tempfile::NamedTempFile::new().expect("a temporary file");
        file.write_all(bytes).expect("write the temporary file");
        self.put(bucket, key, file.path(), true);
    }

    fn put(&self, bucket: &str, key: &str, file: &Path, public: bool) {
        let file = file.to_str().expect("a UTF-8 temporary path");
        self.command(&serde_json::json!({
            "op": "put", "bucket": bucket, "key": key, "file": file, "public": public
        }));
    }

    /// Sends one command and panics unless the server answers `ok` in time.
    fn command(&self, command: &serde_json::Value) {
        let mut channel = self.channel.lock().unwrap_or_else(|err| err.into_inner());
        let stdin = channel.stdin.as_mut().expect("the server's stdin is open");
        if let Err(err) = writeln!(stdin, "{command}").and_then(|()| stdin.flush()) {
            drop(channel);
            self.fail(&format!("cannot send {command}: {err}"));
        }
        let answer = match channel.answers.recv_timeout(COMMAND_TIMEOUT) {
            Ok(answer) => answer,
            Err(RecvTimeoutError::Timeout) => {
                drop(channel);
                self.fail(&format!("no answer to {command} in {COMMAND_TIMEOUT:?}"))
            }
            Err(RecvTimeoutError::Disconnected) => {
                drop(channel);
                self.fail(&format!("the server exited during {command}"))
            }
        };
        if answer != "ok" {
            drop(channel);
            self.fail(&format!("{command}: {answer}"));
        }
    }

    /// The next line the server prints, within `timeout`.
    fn answer(&self, timeout: Duration, what: &str) -> String {
        let channel = self.channel.lock().unwrap_or_else(|err| err.into_inner());
        let answer = channel.answers.recv_timeout(timeout);
        drop(channel);
        match answer {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => self.fail(&format!("no {what} in {timeout:?}")),
            Err(RecvTimeoutError::Disconnected) => {
                self.fail(&format!("the server exited before {what}"))
            }
        }
    }

    /// Polls with a plain HTTP request until the server answers with any status line.
    fn wait_until_answering(&self) {
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            if http_status_line(self.addr).is_some() {
                return;
            }
            if Instant::now() > deadline {
                self.fail(&format!(
                    "{} did not answer in {START_TIMEOUT:?}",
                    self.addr
                ));
            }
            thread::sleep(Duration::from_millis(50));
        }
    }

    /// Panics with `message` and the server's stderr.
    fn fail(&self, message: &str) -> ! {
        let mut log = String::new();
        if let Ok(mut file) = File::open(self.log.path()) {
            let _ = file.read_to_string(&mut log);
        }
        panic!("moto S3 server (tests/interop/s3_server.py): {message}\nits stderr:\n{log}");
    }
}

impl Drop for S3Server {
    fn drop(&mut self) {
        // Closing stdin asks the server to stop; kill it if it does not in time.
        let channel = self
            .channel
            .get_mut()
            .unwrap_or_else(|err| err.into_inner());
        drop(channel.stdin.take());
        let deadline = Instant::now() + EXIT_TIMEOUT;
        while Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => return,
                Ok(None) => thread::sleep(Duration::from_millis(20)),
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The status line of `GET /` at `addr`, or `None` if nothing answers within a second.
fn http_status_line(addr: SocketAddr) -> Option<String> {
    let timeout = Duration::from_secs(1);
    let mut stream = TcpStream::connect_timeout(&addr, timeout).ok()?;
    stream.set_read_timeout(Some(timeout)).ok()?;
    stream.set_write_timeout(Some(timeout)).ok()?;
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .ok()?;
    let mut line = String::new();
    BufReader::new(stream).read_line(&mut line).ok()?;
    line.starts_with("HTTP/").then_some(line)
}
