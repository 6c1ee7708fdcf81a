//! `sfmt get` and `sfmt inspect` on a URL (`s3://bucket/key`, `gs://`, `az://`, `https://`,
//! `file://`): the toc file read with ranged requests through `toc::remote`, with
//! `--endpoint` for S3-compatible servers and credentials from the usual environment
//! variables (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`,
//! `AWS_REGION`, `AWS_ENDPOINT_URL`, `GOOGLE_*`, `AZURE_*`).

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use serde_formats::toc::remote::{BlockingReader, RemoteOptions};
use serde_formats::toc::{self, ReadStats};

use crate::progress;

/// The URL schemes read through `toc::remote` rather than as local paths.
const SCHEMES: [&str; 9] = [
    "s3://", "s3a://", "gs://", "az://", "adl://", "abfs://", "abfss://", "https://", "http://",
];

static ENDPOINT: OnceLock<Option<String>> = OnceLock::new();

/// Response body bytes received so far, piece by piece as they arrive (the reader's progress
/// callback): what the progress bar shows.
static RECEIVED: AtomicU64 = AtomicU64::new(0);

/// Sets the endpoint of S3-compatible servers for the rest of the run (from `--endpoint`).
pub fn set_endpoint(endpoint: Option<String>) {
    let _ = ENDPOINT.set(endpoint);
}

/// The URL `file` names, if it is one: an object store's (`s3://...`, `https://...`) or a
/// `file://` URL. Anything else is a local path.
pub fn url(file: &Path) -> Option<&str> {
    let text = file.to_str()?;
    let lower = text.get(..8).unwrap_or(text).to_ascii_lowercase();
    (SCHEMES.iter().any(|scheme| lower.starts_with(scheme)) || lower.starts_with("file://"))
        .then_some(text)
}

/// Opens the toc file at `url`: its header and TOC, in two requests.
pub fn open(url: &str) -> Result<BlockingReader> {
    let env = |name: &str| std::env::var(name).ok().filter(|value| !value.is_empty());
    let mut options = RemoteOptions::new().on_progress(|bytes| {
        RECEIVED.fetch_add(bytes, Ordering::Relaxed);
    });
    // `--endpoint`, else the endpoint the AWS tools take from the environment; an `http://`
    // one allows plain HTTP, as `--endpoint` does.
    let endpoint = ENDPOINT
        .get()
        .cloned()
        .flatten()
        .or_else(|| env("AWS_ENDPOINT_URL_S3"))
        .or_else(|| env("AWS_ENDPOINT_URL"));
    let is_s3 = url
        .get(..5)
        .is_some_and(|s| s.eq_ignore_ascii_case("s3://"))
        || url
            .get(..6)
            .is_some_and(|s| s.eq_ignore_ascii_case("s3a://"));
    if let Some(endpoint) = endpoint.filter(|_| is_s3) {
        options = options.endpoint(endpoint);
    }
    if env("AWS_ALLOW_HTTP").is_some_and(|value| value.eq_ignore_ascii_case("true")) {
        options = options.allow_http(true);
    }
    BlockingReader::open(url, &options).with_context(|| format!("cannot open {url} as toc"))
}

/// The value at `path` of the file at `url`, with a progress bar on stderr while a value of
/// over [`progress::THRESHOLD`] bytes arrives; and the reader's statistics.
pub fn get(reader: &BlockingReader, path: &str) -> Result<toc::Value> {
    // The value's size from the TOC (no request beyond those the read itself needs).
    let span = reader
        .with_reader(|r| r.node(path).and_then(|node| node.span()))
        .ok()
        .flatten();
    let size = span.map_or(0, |(start, end)| end - start);
    let before = RECEIVED.load(Ordering::Relaxed);
    let done = AtomicBool::new(false);
    let value = std::thread::scope(|scope| {
        if size >= progress::THRESHOLD {
            scope.spawn(|| {
                let bar = progress::bar(size, "reading");
                while !done.load(Ordering::Relaxed) {
                    let received = RECEIVED.load(Ordering::Relaxed);
                    bar.set_position(received.saturating_sub(before).min(size));
                    std::thread::sleep(Duration::from_millis(100));
                }
                bar.finish_and_clear();
            });
        }
        let value = reader.get_value(path);
        done.store(true, Ordering::Relaxed);
        value
    });
    value.with_context(|| format!("cannot read path `{path}` of {}", reader.url()))
}

/// `read N of M bytes (P%) in R requests, C cache hits, T ms`: what `--stats` prints for a
/// URL, from the reader's [`ReadStats`].
pub fn stats_line(stats: ReadStats, size: u64, elapsed: Instant) -> String {
    format!(
        "read {} of {} bytes ({:.4}%) in {} requests, {} cache hits, {:.3} ms",
        crate::get::thousands(stats.bytes_read),
        crate::get::thousands(size),
        crate::get::percent(stats.bytes_read, size),
        stats.reads,
        stats.cache_hits,
        elapsed.elapsed().as_secs_f64() * 1e3
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_told_from_local_paths() {
        for text in [
            "s3://bucket/key.msglc",
            "S3://bucket/key",
            "gs://b/k",
            "az://c/k",
            "https://host/f.toc",
            "http://127.0.0.1:9000/b/k",
            "file:///tmp/f.toc",
        ] {
            assert_eq!(url(Path::new(text)), Some(text), "{text}");
        }
        for text in ["data.toc", "-", "/tmp/s3:/x", "./s3://x", "s3:/bucket", ""] {
            assert_eq!(url(Path::new(text)), None, "{text}");
        }
    }

    #[test]
    fn the_stats_line_gives_the_fraction_and_the_requests() {
        let stats = ReadStats {
            bytes_read: 2048,
            reads: 3,
            cache_hits: 1,
            time: Duration::from_millis(2),
        };
        let line = stats_line(stats, 8192, Instant::now());
        assert!(
            line.starts_with("read 2,048 of 8,192 bytes (25.0000%) in 3 requests, 1 cache hits, "),
            "{line}"
        );
        assert!(line.ends_with(" ms"), "{line}");
    }
}
