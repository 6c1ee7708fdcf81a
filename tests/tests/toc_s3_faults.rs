//! Errors of the store, injected between the remote reader and a real moto server by the
//! counting proxy ([`integration_tests::fault_proxy`]): a missing key, 403, 5xx (transient:
//! retried, then the read succeeds; persistent: a clear error), a connection closed mid-body,
//! an object shorter than its TOC claims, a server that does not answer. Each read ends with a
//! value or an `ErrorKind::Remote` error naming the URL and the byte range: no panic, no hang.
//! No timed assertion: the hang test only bounds its wait by the reader's own timeout.

use std::time::Duration;

use integration_tests::fault_proxy::{Fault, FaultProxy};
use integration_tests::s3_server::S3Server;
use serde_formats::toc::remote::{BlockingReader, RemoteOptions};
use serde_formats::toc::{self, Value};
use serde_formats::{Error, ErrorKind};

#[path = "common/s3.rs"]
mod s3;

/// 40 arrays of 1000 f64 (about 330 KB, TOC a few KB), so that opening and one leaf are three
/// distinct requests: the head, the TOC, the leaf.
fn value() -> Vec<Vec<f64>> {
    (0..40)
        .map(|i| (0..1000).map(|j| (i * 1000 + j) as f64).collect())
        .collect()
}

/// A fresh bucket holding `value()` as `dir/file.msglc`, a proxy in front of the server, and
/// the object's URL and bytes.
fn setup() -> (FaultProxy, String, Vec<u8>) {
    let server = S3Server::shared();
    let bucket = server.bucket("faults");
    let bytes = toc::to_bytes(&value()).unwrap();
    server.put_bytes(&bucket, "dir/file.msglc", &bytes);
    (
        FaultProxy::start(server.addr()),
        format!("s3://{bucket}/dir/file.msglc"),
        bytes,
    )
}

fn options(proxy: &FaultProxy) -> RemoteOptions {
    s3::options(&proxy.endpoint()).max_retries(2)
}

/// The error is `Remote`, names the URL and a byte range, and contains `what`.
fn assert_remote(err: &Error, url: &str, what: &str) {
    let message = err.to_string();
    assert_eq!(err.kind(), ErrorKind::Remote, "{message}");
    assert!(message.contains(url), "no URL in: {message}");
    assert!(message.contains("bytes "), "no byte range in: {message}");
    assert!(
        message.to_lowercase().contains(&what.to_lowercase()),
        "no {what:?} in: {message}"
    );
    assert!(!message.contains('\n'), "not one line: {message}");
}

/// Opening `url` through `proxy` is a `Remote` error naming it and containing `what`, after one
/// request: an error that is not transient is not retried.
fn open_fails_at_once(proxy: &FaultProxy, url: &str, what: &str) {
    let err = BlockingReader::open(url, &options(proxy)).unwrap_err();
    assert_remote(&err, url, what);
    assert_eq!(proxy.take_traffic().count(), 1, "{url} ({what}): retried");
}

#[test]
fn a_missing_key_is_a_clear_error() {
    let (proxy, url, _) = setup();
    let missing = url.replace("file.msglc", "nothing.msglc");
    open_fails_at_once(&proxy, &missing, "not found");
}

#[test]
fn forbidden_is_a_clear_error_and_not_retried() {
    let (proxy, url, _) = setup();
    proxy.inject(Fault::Status(403), 0, None);
    open_fails_at_once(&proxy, &url, "403");
}

#[test]
fn transient_server_errors_are_retried_and_the_read_succeeds() {
    let (proxy, url, _) = setup();
    // The first try of the head and of the leaf fail with 503, then 500.
    proxy.inject(Fault::Status(503), 0, Some(1));
    proxy.inject(Fault::Status(500), 1, Some(1));
    let reader = BlockingReader::open(&url, &options(&proxy)).unwrap();
    assert_eq!(reader.get::<f64>("17/5").unwrap(), 17_005.0);
    let traffic = proxy.take_traffic();
    assert_eq!(traffic.count(), 5, "{}", traffic.describe());
    let statuses: Vec<u16> = traffic.requests.iter().map(|r| r.status).collect();
    assert_eq!(statuses, [503, 206, 500, 206, 206]);
}

#[test]
fn persistent_server_errors_fail_after_the_retries_with_the_range() {
    let (proxy, url, bytes) = setup();
    let reader = BlockingReader::open(&url, &options(&proxy)).unwrap();
    proxy.take_traffic();
    proxy.inject(Fault::Status(500), 0, None);
    let err = reader.get::<Vec<f64>>("30").unwrap_err();
    assert_remote(&err, &url, "500");
    // The first try and two retries.
    let traffic = proxy.take_traffic();
    assert_eq!(traffic.count(), 3, "{}", traffic.describe());
    // The range asked for is the one in the message.
    let local = toc::Reader::from_slice(&bytes).unwrap();
    let node = local.node("30").unwrap();
    let (start, end) = node.span().unwrap().unwrap();
    let (start, end) = (node.data_start() + start, node.data_start() + end);
    assert!(
        err.to_string().contains(&format!("bytes {start}..{end}")),
        "{err} (value at {start}..{end})"
    );
    proxy.clear_faults();
    assert_eq!(reader.get::<Vec<f64>>("30").unwrap(), value()[30]);
}

#[test]
fn a_connection_closed_mid_body_is_retried_then_reported() {
    let (proxy, url, _) = setup();
    let reader = BlockingReader::open(&url, &options(&proxy)).unwrap();
    proxy.take_traffic();
    proxy.inject(Fault::ResetMidBody, 0, Some(1));
    assert_eq!(reader.get::<Vec<f64>>("12").unwrap(), value()[12]);
    assert_eq!(proxy.take_traffic().count(), 2);

    proxy.inject(Fault::ResetMidBody, 0, None);
    let err = reader.get::<Vec<f64>>("13").unwrap_err();
    assert_remote(&err, &url, "");
    // Retried by the store's client alone (2 retries: 3 requests), not again by the reader.
    let traffic = proxy.take_traffic();
    assert_eq!(traffic.count(), 3, "{}", traffic.describe());
}

#[test]
fn an_object_shorter_than_its_toc_claims_is_an_error() {
    let server = S3Server::shared();
    let (proxy, url, bytes) = setup();
    // Uploaded cut short: the header and TOC are intact, the data ends early.
    let bucket = url
        .trim_start_matches("s3://")
        .split('/')
        .next()
        .unwrap()
        .to_owned();
    let local = toc::Reader::from_slice(&bytes).unwrap();
    let toc_start = local.data_len();
    let mut cut = bytes[..toc_start as usize / 2].to_vec();
    cut.extend_from_slice(&bytes[toc_start as usize..]);
    // The TOC at the end of `cut` but the header says it starts at `toc_start`: the reads the
    // TOC claims run past the end of the object.
    server.put_bytes(&bucket, "short.msglc", &cut);
    let short = format!("s3://{bucket}/short.msglc");
    match BlockingReader::open(&short, &options(&proxy)) {
        Err(err) => assert!(err.to_string().contains(&short), "{err}"),
        Ok(reader) => {
            let err = reader.get::<Vec<f64>>("39").unwrap_err();
            assert!(err.to_string().contains(&short), "{err}");
        }
    }

    // The proxy serves the intact object as if it ended in the middle of the data: the TOC
    // read, past that end, fails.
    proxy.inject(Fault::Truncate(toc_start / 2), 0, None);
    let err = BlockingReader::open(&url, &options(&proxy)).unwrap_err();
    assert!(err.to_string().contains(&url), "{err}");
    assert!(
        matches!(err.kind(), ErrorKind::Remote | ErrorKind::UnexpectedEnd),
        "{err}"
    );
}

#[test]
fn a_server_that_does_not_answer_times_out() {
    let (proxy, url, _) = setup();
    let reader = BlockingReader::open(&url, &options(&proxy)).unwrap();
    let slow = options(&proxy)
        .request_timeout(Duration::from_secs(1))
        .max_retries(1);
    let slow_reader = BlockingReader::open(&url, &slow).unwrap();
    proxy.take_traffic();
    proxy.inject(Fault::Delay(Duration::from_secs(600)), 0, None);
    let err = slow_reader.get::<Vec<f64>>("5").unwrap_err();
    assert_remote(&err, &url, "");
    // The try and one retry, each given up on after the timeout.
    let traffic = proxy.take_traffic();
    assert_eq!(traffic.count(), 2, "{}", traffic.describe());
    proxy.clear_faults();
    assert_eq!(reader.get::<Value>("5/999").unwrap(), Value::F64(5999.0));
}
