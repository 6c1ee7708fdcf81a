//! TOC files in a real S3-compatible server (moto, started by the test: nothing talks to a real
//! cloud), read through `serde_formats::toc::remote`:
//!
//! - files we write, read with the [`AsyncReader`] and the [`BlockingReader`]: every sample path
//!   and the whole value as the local reader reads them, and msglc reading the same object
//!   through fsspec/s3fs gives the same values;
//! - files msglc writes (`tests/interop/toc_msglc.py write`), uploaded and read remotely as the
//!   values msgspec encoded.
//!
//! The errors of the store are in `toc_s3_faults`, the request counts of the large shapes and
//! the comparison with msglc in `toc_s3_shapes`, the `sfmt` command line in serde-formats'
//! `tests/sfmt_s3.rs`.

use std::collections::BTreeMap;

use integration_tests::fault_proxy::FaultProxy;
use integration_tests::python_peers;
use integration_tests::s3_server::S3Server;
use serde::{Deserialize, Serialize};
use serde_formats::toc::remote::{AsyncReader, BlockingReader};
use serde_formats::toc::{self, Path, Reader, Value};

// Only the manifest helpers; `check_case` reads local files.
#[allow(dead_code)]
#[path = "common/msglc_files.rs"]
mod msglc_files;
#[path = "common/s3.rs"]
mod s3;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Row {
    id: u64,
    name: String,
    score: f64,
    tags: Vec<String>,
}

/// A document with a bit of everything: a long array of records (blocked), a map of arrays of
/// floats, nested maps, strings and bytes.
fn document() -> Value {
    let rows: Vec<Row> = (0..5000)
        .map(|id| Row {
            id,
            name: format!("row {id}"),
            score: id as f64 / 3.0,
            tags: (0..id % 4).map(|t| format!("t{t}")).collect(),
        })
        .collect();
    let series: BTreeMap<String, Vec<f64>> = (0..20)
        .map(|k| {
            (
                format!("s{k:02}"),
                (0..2000).map(|i| (k * 2000 + i) as f64 * 0.25).collect(),
            )
        })
        .collect();
    let mut doc = BTreeMap::new();
    doc.insert("rows", to_value(&rows));
    doc.insert("series", to_value(&series));
    doc.insert(
        "meta",
        to_value(&BTreeMap::from([("version", "3"), ("name", "Zürich 🚀")])),
    );
    to_value(&doc)
}

/// A serializable value as a `Value`, through rmp-serde (not our code).
fn to_value<T: Serialize>(value: &T) -> Value {
    rmp_serde::from_slice(&rmp_serde::to_vec_named(value).unwrap()).unwrap()
}

/// `document()` as a TOC file, uploaded as `key` to a fresh bucket named from `prefix`: the
/// bucket, the file's bytes and its `s3://` URL.
fn upload_document(server: &S3Server, prefix: &str, key: &str) -> (String, Vec<u8>, String) {
    let bucket = server.bucket(prefix);
    let bytes = toc::to_bytes(&document()).unwrap();
    server.put_bytes(&bucket, key, &bytes);
    let url = format!("s3://{bucket}/{key}");
    (bucket, bytes, url)
}

const PATHS: [&str; 8] = [
    "rows/0",
    "rows/4999/name",
    "rows/2500/tags",
    "series/s07",
    "series/s19/1999",
    "meta",
    "meta/name",
    "",
];

#[test]
fn our_files_read_remotely_as_locally_and_msglc_reads_them_the_same() {
    let server = S3Server::shared();
    let (bucket, bytes, url) = upload_document(server, "ours", "data/doc.msglc");
    let local = Reader::from_slice(&bytes).unwrap();
    let options = s3::options(&server.endpoint());

    let blocking = BlockingReader::open(&url, &options).unwrap();
    assert_eq!(blocking.size(), bytes.len() as u64);
    assert_eq!(blocking.url(), url);
    for path in PATHS {
        let expected: Value = local.get(path).unwrap();
        assert_eq!(blocking.get_value(path).unwrap(), expected, "{path}");
    }
    assert_eq!(
        blocking.get::<Vec<Row>>("rows").unwrap(),
        local.get::<Vec<Row>>("rows").unwrap()
    );
    assert_eq!(blocking.decode::<Value>().unwrap(), document());
    let stats = blocking.stats();
    assert!(stats.reads >= 2 && stats.bytes_read > 0, "{stats}");

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let reader = AsyncReader::open(&url, &options).await.unwrap();
        for path in PATHS {
            let expected: Value = local.get(path).unwrap();
            assert_eq!(reader.get_value(path).await.unwrap(), expected, "{path}");
        }
        let many: Vec<Value> = reader.get_many(PATHS).await.unwrap();
        let expected: Vec<Value> = PATHS.iter().map(|p| local.get(*p).unwrap()).collect();
        assert_eq!(many, expected);
    });

    // msglc, through fsspec/s3fs, reads the same values from the same object.
    let paths = &PATHS[..PATHS.len() - 1];
    let msglc = s3::msglc_read(&server.endpoint(), &bucket, "data/doc.msglc", paths);
    for (path, theirs) in paths.iter().zip(&msglc.values) {
        assert_eq!(&blocking.get_value(*path).unwrap(), theirs, "{path}");
    }
}

#[test]
fn files_msglc_writes_read_remotely_as_msgspec_encoded() {
    let server = S3Server::shared();
    let dir = tempfile::tempdir().unwrap();
    python_peers::run_script("toc_msglc.py", [std::path::Path::new("write"), dir.path()]);
    let bucket = server.bucket("msglc");
    s3::upload_dir(server, &bucket, "peer", dir.path());
    let options = s3::options(&server.endpoint());
    let cases = msglc_files::manifest(dir.path());
    assert!(!cases.is_empty());
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let file = case["file"].as_str().unwrap();
        let url = format!("s3://{bucket}/peer/{file}");
        let reader = BlockingReader::open(&url, &options).unwrap();
        let whole = msglc_files::msgpack_file(dir.path(), &case["plain"]);
        assert_eq!(reader.decode::<Value>().unwrap(), whole, "{name}");
        let paths = case["paths"].as_array().unwrap();
        for (path, expected) in paths.iter().zip(case["expected"].as_array().unwrap()) {
            let path = Path::from_segments(msglc_files::segments(path));
            let expected = msglc_files::msgpack_file(dir.path(), expected);
            assert_eq!(reader.get_value(&path).unwrap(), expected, "{name} {path}");
        }
    }
}

#[test]
fn reads_through_the_proxy_are_counted_and_a_leaf_needs_three_requests() {
    let server = S3Server::shared();
    let (_, bytes, url) = upload_document(server, "counted", "doc.msglc");
    let proxy = FaultProxy::start(server.addr());
    let reader = BlockingReader::open(&url, &s3::options(&proxy.endpoint())).unwrap();
    let leaf: f64 = reader.get("series/s03/17").unwrap();
    assert_eq!(leaf, (3 * 2000 + 17) as f64 * 0.25);
    let traffic = proxy.take_traffic();
    // The head (which also gives the size), the TOC, the leaf: ranged GETs only, no HEAD.
    assert_eq!(traffic.count(), 3, "{}", traffic.describe());
    assert_eq!(traffic.count_method("GET"), 3, "{}", traffic.describe());
    assert!(traffic.requests.iter().all(|r| r.range.is_some()));
    let stats = reader.stats();
    assert_eq!(stats.reads, 3, "{stats}");
    assert_eq!(stats.bytes_read, traffic.body_bytes(), "{stats}");
    assert!(traffic.body_bytes() < bytes.len() as u64 / 4);
    // The same leaf again comes from the cache.
    let again: f64 = reader.get("series/s03/17").unwrap();
    assert_eq!(again, leaf);
    assert_eq!(proxy.take_traffic().count(), 0);
    assert!(reader.stats().cache_hits > stats.cache_hits);
}
