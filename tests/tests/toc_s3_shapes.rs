//! The benchmark shapes in a real S3-compatible server (moto), read through the counting proxy:
//! our remote reader against the goals of issue 17, and side by side with msglc reading the
//! same objects from the same server through fsspec/s3fs.
//!
//! - shape A, a map of 1000 keys × 10 000 f64 (about 90 MB, TOC about 164 KB): open + one leaf
//!   in at most 3 requests and under 256 KiB;
//! - shape B, 1M records `{id, name, score, flags}`: open + one record's field in at most 4.
//!
//! Counts and bytes are asserted; times are only printed (run with `--nocapture` to see the
//! table; the README quotes it). Both readers' values are compared.

use std::time::Instant;

use integration_tests::fault_proxy::{FaultProxy, Traffic};
use integration_tests::s3_server::S3Server;
use integration_tests::xorshift::Xorshift as Rng;
use serde_formats::toc::remote::BlockingReader;
use serde_formats::toc::{self, Value};

#[path = "common/s3.rs"]
mod s3;

#[path = "../../serde-formats/examples/common/toc_shapes.rs"]
mod toc_shapes;

fn shape_a() -> Vec<u8> {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    toc::to_bytes(&toc_shapes::shape_a(|| rng.unit())).unwrap()
}

fn shape_b() -> Vec<u8> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let b = toc_shapes::shape_b(|| {
        (
            (rng.next() % 100_000) as u32,
            rng.unit(),
            (rng.next() & 0xff) as u8,
        )
    });
    toc::to_bytes(&b).unwrap()
}

/// One reader's open + one value: requests, bytes, time.
struct Row {
    reader: &'static str,
    traffic: Traffic,
    millis: f64,
}

/// Reads `path` of `bucket/key` with our reader and with msglc through `proxy`; checks that
/// both read the local value and returns both rows.
fn compare(proxy: &FaultProxy, bucket: &str, key: &str, bytes: &[u8], path: &str) -> [Row; 2] {
    let expected: Value = toc::Reader::from_slice(bytes).unwrap().get(path).unwrap();
    let url = format!("s3://{bucket}/{key}");
    let options = s3::options(&proxy.endpoint());
    proxy.take_traffic();
    let start = Instant::now();
    let reader = BlockingReader::open(&url, &options).unwrap();
    let ours = reader.get_value(path).unwrap();
    let millis = start.elapsed().as_secs_f64() * 1e3;
    let traffic = proxy.take_traffic();
    assert_eq!(ours, expected, "{key} {path}");
    assert_eq!(reader.stats().reads as usize, traffic.count());
    assert_eq!(reader.stats().bytes_read, traffic.body_bytes());
    let ours_row = Row {
        reader: "serde-formats remote (debug build)",
        traffic,
        millis,
    };
    let theirs = s3::msglc_read(&proxy.endpoint(), bucket, key, &[path]);
    let traffic = proxy.take_traffic();
    assert_eq!(theirs.values, [expected], "msglc: {key} {path}");
    let theirs_row = Row {
        reader: "msglc 261017 + s3fs 2026.9.0",
        traffic,
        millis: theirs.seconds * 1e3,
    };
    [ours_row, theirs_row]
}

fn print_table(rows: &[(&str, &str, Row)]) {
    println!(
        "| file | open + read | reader | requests (HEAD + GET) | bytes | time (ms) |\n\
         | --- | --- | --- | --- | --- | --- |"
    );
    for (file, path, row) in rows {
        println!(
            "| {file} | `{path}` | {} | {} ({} + {}) | {} | {:.1} |",
            row.reader,
            row.traffic.count(),
            row.traffic.count_method("HEAD"),
            row.traffic.count_method("GET"),
            row.traffic.body_bytes(),
            row.millis
        );
    }
}

#[test]
fn shapes_a_and_b_need_few_requests_and_bytes_compared_with_msglc() {
    let server = S3Server::shared();
    let bucket = server.bucket("shapes");
    let a = shape_a();
    server.put_bytes(&bucket, "shape_a.msglc", &a);
    let proxy = FaultProxy::start(server.addr());
    let mut rows = Vec::new();

    let [ours, theirs] = compare(&proxy, &bucket, "shape_a.msglc", &a, "key0500/1234");
    assert!(ours.traffic.count() <= 3, "{}", ours.traffic.describe());
    assert_eq!(ours.traffic.count_method("HEAD"), 0);
    assert!(
        ours.traffic.body_bytes() < 256 << 10,
        "{}",
        ours.traffic.describe()
    );
    rows.push(("A (90 MB)", "key0500/1234", ours));
    rows.push(("A (90 MB)", "key0500/1234", theirs));

    let [ours, theirs] = compare(&proxy, &bucket, "shape_a.msglc", &a, "key0500");
    assert!(ours.traffic.count() <= 3, "{}", ours.traffic.describe());
    rows.push(("A", "key0500", ours));
    rows.push(("A", "key0500", theirs));
    drop(a);

    let b = shape_b();
    server.put_bytes(&bucket, "shape_b.msglc", &b);
    let [ours, theirs] = compare(&proxy, &bucket, "shape_b.msglc", &b, "500000/name");
    assert!(ours.traffic.count() <= 4, "{}", ours.traffic.describe());
    rows.push(("B (1M records)", "500000/name", ours));
    rows.push(("B (1M records)", "500000/name", theirs));

    print_table(&rows);
}
