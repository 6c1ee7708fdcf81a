//! Ranged requests to one object ([`Fetcher`]): each under a timeout, transient failures
//! retried with a bounded exponential backoff, the object pinned by its ETag after the first
//! response, the bytes checked against the range asked for, counted in [`ReadStats`], and
//! errors turned into the crate's [`Error`] naming the URL and the byte range.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use futures::StreamExt;
use object_store::path::Path;
use object_store::{GetOptions, GetRange, ObjectStore};

use crate::error::{Error, ErrorKind, Result};
use crate::toc::ReadStats;

use super::RemoteOptions;

/// What the first request learned about the object.
#[derive(Debug)]
pub(super) struct FirstResponse {
    /// The bytes from the start of the object.
    pub(super) bytes: Bytes,
    /// The object's size (from the response's `Content-Range`, no HEAD request).
    pub(super) size: u64,
}

/// Fetches ranges of one object.
#[derive(Debug)]
pub(super) struct Fetcher {
    store: Arc<dyn ObjectStore>,
    location: Path,
    url: String,
    /// Whether the store's own client retries failed requests and timeouts (the stores built
    /// from a URL): then only failures while reading a body are retried here, and the timeout
    /// here bounds all of the client's attempts.
    store_retries: bool,
    options: RemoteOptions,
    /// The ETag of the first response: later requests ask for that version only.
    etag: std::sync::OnceLock<Option<String>>,
    requests: AtomicU64,
    bytes: AtomicU64,
    nanos: AtomicU64,
}

/// Why one request failed, and whether to try it again.
struct Failure {
    message: String,
    transient: bool,
}

impl Fetcher {
    pub(super) fn new(
        store: Arc<dyn ObjectStore>,
        location: Path,
        url: String,
        store_retries: bool,
        options: &RemoteOptions,
    ) -> Self {
        Fetcher {
            store,
            location,
            url,
            store_retries,
            options: options.clone(),
            etag: std::sync::OnceLock::new(),
            requests: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
            nanos: AtomicU64::new(0),
        }
    }

    pub(super) fn url(&self) -> &str {
        &self.url
    }

    /// Requests and bytes so far (cache hits are counted by the reader).
    pub(super) fn stats(&self) -> ReadStats {
        ReadStats {
            bytes_read: self.bytes.load(Ordering::Relaxed),
            reads: self.requests.load(Ordering::Relaxed),
            cache_hits: 0,
            time: Duration::from_nanos(self.nanos.load(Ordering::Relaxed)),
        }
    }

    /// The first request: up to `len` bytes from the start of the object, and its size.
    pub(super) async fn first(&self, len: u64) -> Result<FirstResponse> {
        let (bytes, size, etag) = self.fetch_with_retries(0..len.max(1), true).await?;
        let _ = self.etag.set(etag);
        Ok(FirstResponse { bytes, size })
    }

    /// The bytes `range` of the object, which must lie inside it.
    pub(super) async fn fetch(&self, range: Range<u64>) -> Result<Bytes> {
        Ok(self.fetch_with_retries(range, false).await?.0)
    }

    async fn fetch_with_retries(
        &self,
        range: Range<u64>,
        first: bool,
    ) -> Result<(Bytes, u64, Option<String>)> {
        let timeout = if self.store_retries {
            self.options.retry_budget()
        } else {
            self.options.request_timeout
        };
        let mut retry = 0;
        loop {
            let started = Instant::now();
            self.requests.fetch_add(1, Ordering::Relaxed);
            let outcome = match tokio::time::timeout(timeout, self.request(&range, first)).await {
                Ok(outcome) => outcome,
                Err(_) => Err(Failure {
                    message: format!("no response within {timeout:?}"),
                    transient: !self.store_retries,
                }),
            };
            let nanos = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
            self.nanos.fetch_add(nanos, Ordering::Relaxed);
            match outcome {
                Ok(ok) => {
                    self.bytes.fetch_add(ok.0.len() as u64, Ordering::Relaxed);
                    return Ok(ok);
                }
                Err(failure) if failure.transient && retry < self.options.max_retries => {
                    tokio::time::sleep(self.options.backoff(retry)).await;
                    retry += 1;
                }
                Err(failure) => {
                    let tries = if retry > 0 {
                        format!(" (after {} attempts)", retry + 1)
                    } else {
                        String::new()
                    };
                    return Err(Error::with_message(
                        ErrorKind::Remote,
                        format!(
                            "{} bytes {}..{}: {}{tries}",
                            self.url, range.start, range.end, failure.message
                        ),
                    ));
                }
            }
        }
    }

    /// One request, its body read whole and checked.
    async fn request(
        &self,
        range: &Range<u64>,
        first: bool,
    ) -> Result<(Bytes, u64, Option<String>), Failure> {
        let options = GetOptions {
            range: Some(GetRange::Bounded(range.clone())),
            if_match: self.etag.get().cloned().flatten(),
            ..GetOptions::default()
        };
        let result = self
            .store
            .get_opts(&self.location, options)
            .await
            .map_err(|e| Failure {
                transient: !self.store_retries && transient(&e),
                message: describe(&e),
            })?;
        let size = result.meta.size;
        let etag = result.meta.e_tag.clone();
        let got = result.range.clone();
        // A body that breaks off is retried by a cloud store's own client (resuming the
        // range); retrying it here too would multiply the attempts.
        let body_error = |e: object_store::Error| Failure {
            transient: !self.store_retries && transient(&e),
            message: format!("reading the response body: {}", describe(&e)),
        };
        let bytes = match &self.options.progress {
            None => result.bytes().await.map_err(body_error)?,
            Some(progress) => {
                // Chunk by chunk, to report them as they come.
                let mut chunks = result.into_stream();
                let mut body = Vec::new();
                while let Some(chunk) = chunks.next().await {
                    let chunk = chunk.map_err(body_error)?;
                    progress.report(chunk.len() as u64);
                    body.extend_from_slice(&chunk);
                }
                Bytes::from(body)
            }
        };
        // Past the end only the first request may reach: it learns the size from the answer.
        let expected = range.start..if first {
            range.end.min(size)
        } else {
            range.end
        };
        if got != expected || bytes.len() as u64 != expected.end - expected.start {
            let message = if !first && range.end > size {
                // The object is shorter than the file's header or TOC says.
                return Err(Failure {
                    message: format!("the object has only {size} bytes"),
                    transient: false,
                });
            } else {
                format!(
                    "the response holds {} bytes for {}..{} (bytes {}..{} asked)",
                    bytes.len(),
                    got.start,
                    got.end,
                    expected.start,
                    expected.end
                )
            };
            return Err(Failure {
                message,
                transient: true,
            });
        }
        Ok((bytes, size, etag))
    }
}

/// Whether a store error may go away when the request is sent again: server errors,
/// connection failures and broken bodies (`Generic`), not missing objects, refused
/// credentials or a changed object.
fn transient(error: &object_store::Error) -> bool {
    matches!(
        error,
        object_store::Error::Generic { .. } | object_store::Error::JoinError { .. }
    )
}

/// One line saying what the store answered.
fn describe(error: &object_store::Error) -> String {
    let text = match error {
        object_store::Error::NotFound { .. } => format!("not found ({error})"),
        object_store::Error::Precondition { .. } => {
            format!("the object changed since it was opened ({error})")
        }
        _ => error.to_string(),
    };
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
