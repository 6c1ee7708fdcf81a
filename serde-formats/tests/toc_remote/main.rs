//! `toc::remote` against object_store's `InMemory` and `LocalFileSystem` stores, through a
//! counting and fault-injecting wrapper (`fault_store.rs`): request and byte counts of the two
//! benchmark shapes, the same values as the local reader on every path (combined files too),
//! the cache, retries and errors. No network.

mod fault_store;

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use object_store::local::LocalFileSystem;
use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt};
use serde::{Deserialize, Serialize};
use serde_formats::toc::remote::{AsyncReader, BlockingReader, RemoteOptions};
use serde_formats::toc::{self, Reader, Value};
use serde_formats::ErrorKind;

use fault_store::{Fault, FaultStore};

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(future)
}

/// `bytes` at `name` of a fresh in-memory store, behind a counting wrapper.
async fn stored(name: &str, bytes: &[u8]) -> (Arc<FaultStore>, Path) {
    let store = FaultStore::new(Arc::new(InMemory::new()));
    let location = Path::from(name);
    store.put(&location, bytes.to_vec().into()).await.unwrap();
    (store, location)
}

/// A reader, opened with `options`, of `bytes` at `name` of a fresh store (see [`stored`]),
/// and the store.
async fn opened(
    name: &str,
    bytes: &[u8],
    options: &RemoteOptions,
) -> (Arc<FaultStore>, AsyncReader) {
    let (store, location) = stored(name, bytes).await;
    let reader = AsyncReader::open_store(store.clone(), location, options)
        .await
        .unwrap();
    (store, reader)
}

/// A reader of shape A (20 keys of 2000 floats) whose cache holds `cache_bytes`, and the store.
async fn shape_a_with_cache(cache_bytes: usize) -> (Arc<FaultStore>, AsyncReader) {
    let file = toc::to_bytes(&shape_a(20, 2000)).unwrap();
    let options = RemoteOptions::new().cache_bytes(cache_bytes);
    opened("a.msglc", &file, &options).await
}

/// Fast retries, for the tests that inject faults.
fn quick() -> RemoteOptions {
    RemoteOptions::new()
        .retry_backoff(Duration::from_millis(1))
        .max_backoff(Duration::from_millis(4))
}

fn shape_a(keys: usize, len: usize) -> BTreeMap<String, Vec<f64>> {
    (0..keys)
        .map(|k| {
            let values = (0..len).map(|i| a_value(k, i, len)).collect();
            (format!("key{k:04}"), values)
        })
        .collect()
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Record {
    id: u64,
    name: String,
    score: f64,
    flags: u8,
}

fn shape_b_record(id: u64) -> Record {
    Record {
        id,
        name: format!("name-{}", id * 7919 % 100_000),
        score: id as f64 / 3.0,
        flags: (id % 251) as u8,
    }
}

fn shape_b(len: u64) -> Vec<Record> {
    (0..len).map(shape_b_record).collect()
}

/// The value at index `i` of key `k` in [`shape_a`] with rows of `len`.
fn a_value(k: usize, i: usize, len: usize) -> f64 {
    (k * len + i) as f64 * 1.25 + 0.1
}

/// The real-size shape A of the issue: 1000 keys × 10 000 f64, about 90 MB.
fn real_a() -> &'static [u8] {
    static FILE: OnceLock<Vec<u8>> = OnceLock::new();
    FILE.get_or_init(|| toc::to_bytes(&shape_a(1000, 10_000)).unwrap())
}

#[test]
fn shape_a_small_open_and_one_leaf_in_three_requests_then_cache_hits() {
    block_on(async {
        let file = toc::to_bytes(&shape_a(20, 2000)).unwrap();
        let (store, reader) = opened("a.msglc", &file, &RemoteOptions::new()).await;
        assert_eq!(reader.size(), file.len() as u64);
        assert_eq!(store.requests(), 2, "the start of the object, then the TOC");
        let x: f64 = reader.get("key0013/1234").await.unwrap();
        assert_eq!(x, a_value(13, 1234, 2000));
        let stats = reader.stats();
        assert_eq!((stats.reads, store.requests()), (3, 3));
        assert_eq!(stats.bytes_read, store.bytes());
        assert!(stats.bytes_read < file.len() as u64 / 4, "{stats}");
        assert_eq!(
            stats.cache_hits,
            0,
            "{:?} of {}",
            store.ranges(),
            file.len()
        );
        // The same block again, and a neighbour in it: cache hits, no request.
        assert_eq!(reader.get::<f64>("key0013/1234").await.unwrap(), x);
        let next = reader.get::<f64>("key0013/1235").await.unwrap();
        assert_eq!(next, a_value(13, 1235, 2000));
        assert_eq!(store.requests(), 3);
        assert!(reader.stats().cache_hits >= 2, "{}", reader.stats());
    });
}

#[test]
fn shape_a_real_size_open_and_one_leaf_within_three_requests_and_256_kib() {
    let file = real_a();
    block_on(async {
        let (store, location) = stored("a.msglc", file).await;
        for (path, count) in [("key0500/1234", 1), ("key0500", 10_000)] {
            let before = (store.requests(), store.bytes());
            let reader =
                AsyncReader::open_store(store.clone(), location.clone(), &RemoteOptions::new())
                    .await
                    .unwrap();
            let value: Value = reader.get(path).await.unwrap();
            let local = Reader::from_slice(file)
                .unwrap()
                .get::<Value>(path)
                .unwrap();
            assert_eq!(value, local);
            if let Value::Array(values) = &value {
                assert_eq!(values.len(), count);
            }
            let (requests, bytes) = (store.requests() - before.0, store.bytes() - before.1);
            eprintln!(
                "shape A ({} bytes, TOC {}): open + {path}: {requests} requests, {bytes} bytes",
                file.len(),
                reader.toc_len()
            );
            assert!(requests <= 3, "{requests} requests");
            assert!(bytes < 256 << 10, "{bytes} bytes");
            assert_eq!(reader.stats().bytes_read, bytes);
        }
    });
}

#[test]
fn shape_b_open_and_one_record_within_four_requests() {
    let file = toc::to_bytes(&shape_b(1_000_000)).unwrap();
    block_on(async {
        let (store, reader) = opened("b.msglc", &file, &RemoteOptions::new()).await;
        let name: String = reader.get("500000/name").await.unwrap();
        assert_eq!(name, format!("name-{}", 500_000u64 * 7919 % 100_000));
        eprintln!(
            "shape B ({} bytes, TOC {}): open + 500000/name: {} requests, {} bytes",
            file.len(),
            reader.toc_len(),
            store.requests(),
            store.bytes()
        );
        assert!(store.requests() <= 4, "{} requests", store.requests());
        assert!(store.bytes() < reader.toc_len() + (16 << 10));
        let record: Record = reader.get("-1").await.unwrap();
        assert_eq!(record.id, 999_999);
        assert_eq!(record, shape_b_record(999_999));
    });
}

/// Every path of `value` (map keys that are strings, array indices), up to `max`.
fn paths(value: &Value, prefix: &str, max: usize, out: &mut Vec<String>) {
    if out.len() >= max {
        return;
    }
    out.push(prefix.to_string());
    let join = |segment: &str| {
        if prefix.is_empty() {
            segment.to_string()
        } else {
            format!("{prefix}/{segment}")
        }
    };
    match value {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                paths(item, &join(&i.to_string()), max, out);
            }
        }
        Value::Map(entries) => {
            for (key, item) in entries {
                if let Value::Str(key) = key {
                    if !key.is_empty() && !key.contains('/') {
                        paths(item, &join(key), max, out);
                    }
                }
            }
        }
        _ => {}
    }
}

/// Documents of every kind of TOC node, and combined files of them.
fn documents() -> Vec<(&'static str, Vec<u8>)> {
    let mixed = serde_json::json!({
        "small": {"a": 1, "b": [1, 2, 3], "c": "text"},
        "rows": (0..300).map(|i| serde_json::json!({"id": i, "tag": format!("row-{i:030}")})).collect::<Vec<_>>(),
        "floats": (0..3000).map(|i| i as f64 / 7.0).collect::<Vec<_>>(),
        "ints": (0..5000).collect::<Vec<_>>(),
        "nested": {"deep": {"list": (0..2000).map(|i| format!("s{i}")).collect::<Vec<_>>()}},
        "empty": [],
        "nil": null,
    });
    let mixed = toc::to_bytes(&mixed).unwrap();
    let a = toc::to_bytes(&shape_a(5, 1500)).unwrap();
    let b = toc::to_bytes(&shape_b(2000)).unwrap();
    let small = toc::to_bytes(&vec![1u8, 2, 3]).unwrap();
    let by_name = toc::combine_map(&[("mixed", &mixed), ("a", &a), ("small", &small)]).unwrap();
    let by_index = toc::combine_list(&[&b, &by_name]).unwrap();
    vec![
        ("mixed", mixed),
        ("a", a),
        ("b", b),
        ("combined", by_name),
        ("combined-nested", by_index),
    ]
}

/// Every path of `file` (up to `max`) reads the same through `reader` as locally.
fn same_as_local(file: &[u8], max: usize, get: impl Fn(&str) -> Value) -> usize {
    let local = Reader::from_slice(file).unwrap();
    let whole: Value = local.decode().unwrap();
    let mut all = Vec::new();
    paths(&whole, "", max, &mut all);
    for path in &all {
        assert_eq!(
            get(path),
            local.get::<Value>(path).unwrap(),
            "path {path:?}"
        );
    }
    all.len()
}

#[test]
fn every_path_reads_as_the_local_reader_in_memory_and_from_files() {
    let dir = tempfile::tempdir().unwrap();
    for (name, file) in documents() {
        // InMemory, through the async reader.
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let (store, location) = runtime.block_on(stored(name, &file));
        let remote = runtime
            .block_on(AsyncReader::open_store(
                store.clone(),
                location,
                &RemoteOptions::new(),
            ))
            .unwrap();
        let checked = same_as_local(&file, 3000, |path| {
            runtime.block_on(remote.get_value(path)).unwrap()
        });
        assert!(checked > 5, "{name}: {checked} paths");
        assert!(
            store.bytes() <= 2 * file.len() as u64,
            "{name}: {} bytes for a {}-byte file",
            store.bytes(),
            file.len()
        );

        // A file, through a file:// URL and the blocking reader.
        let path = dir.path().join(format!("{name}.msglc"));
        std::fs::write(&path, &file).unwrap();
        let url = format!("file://{}", path.display());
        let blocking = BlockingReader::open(&url, &RemoteOptions::new()).unwrap();
        assert_eq!(blocking.url(), url);
        same_as_local(&file, 500, |path| blocking.get_value(path).unwrap());
        let whole: Value = blocking.decode().unwrap();
        assert_eq!(whole, toc::from_bytes::<Value>(&file).unwrap());
        let local = Reader::from_slice(&file).unwrap();
        assert_eq!(
            blocking.toc_stats().unwrap(),
            local.toc_stats().unwrap(),
            "{name}"
        );
    }
}

#[test]
fn a_member_of_a_combined_file_reads_with_a_few_requests() {
    let a = toc::to_bytes(&shape_a(50, 2000)).unwrap();
    let other = toc::to_bytes(&shape_b(3000)).unwrap();
    let combined = toc::combine_map(&[("b", &other), ("a", &a)]).unwrap();
    block_on(async {
        let (store, reader) = opened("c.msglc", &combined, &RemoteOptions::new()).await;
        let x: f64 = reader.get("a/key0042/17").await.unwrap();
        assert_eq!(x, a_value(42, 17, 2000));
        // Header and TOC of the outer file, of the member, and the block.
        assert_eq!(store.requests(), 5, "{:?}", store.ranges());
        assert!(store.bytes() < combined.len() as u64 / 4);
        let keys: Vec<String> = reader.keys("").await.unwrap();
        assert_eq!(keys, ["b", "a"]);
        assert_eq!(reader.len("a").await.unwrap(), 50);
    });
}

#[test]
fn get_many_fetches_the_values_together() {
    let file = toc::to_bytes(&shape_b(20_000)).unwrap();
    block_on(async {
        let (store, reader) = opened("b.msglc", &file, &RemoteOptions::new()).await;
        let opened = store.requests();
        let paths: Vec<String> = (100..140).map(|i| format!("{i}/name")).collect();
        let names: Vec<String> = reader.get_many(&paths).await.unwrap();
        let expected: Vec<String> = (100u64..140)
            .map(|i| format!("name-{}", i * 7919 % 100_000))
            .collect();
        assert_eq!(names, expected);
        // 40 neighbouring records, a few KB: one request.
        assert_eq!(store.requests() - opened, 1, "{:?}", store.ranges());
        let ids: Vec<u64> = reader.get_many(["100/id", "139/id"]).await.unwrap();
        assert_eq!(ids, [100, 139]);
        assert_eq!(store.requests() - opened, 1);
        let err = reader
            .get_many::<u64, _>(["5/id", "nope"])
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::PathNotFound);
    });
}

#[test]
fn progress_is_told_every_byte_received() {
    use std::sync::atomic::{AtomicU64, Ordering};
    let file = toc::to_bytes(&shape_a(20, 2000)).unwrap();
    let seen = Arc::new(AtomicU64::new(0));
    let counter = seen.clone();
    let options = quick().on_progress(move |bytes| {
        counter.fetch_add(bytes, Ordering::SeqCst);
    });
    block_on(async {
        let (store, reader) = opened("a.msglc", &file, &options).await;
        let _: Vec<f64> = reader.get("key0004").await.unwrap();
        // A body that breaks off is told too, then its retry.
        store.fail_next(&[Fault::BrokenBody]);
        let _: Vec<f64> = reader.get("key0005").await.unwrap();
        assert_eq!(seen.load(Ordering::SeqCst), store.bytes());
        assert!(reader.stats().bytes_read < store.bytes());
    });
}

#[test]
fn the_cache_stays_within_its_bound_and_refetches_what_it_dropped() {
    block_on(async {
        let (store, reader) = shape_a_with_cache(20 << 10).await;
        for key in 0..20 {
            let row: Vec<f64> = reader.get(format!("key{key:04}")).await.unwrap();
            assert_eq!(row.len(), 2000);
            assert!(
                reader.cached_bytes() <= 20 << 10,
                "{}",
                reader.cached_bytes()
            );
        }
        let requests = store.requests();
        let _: Vec<f64> = reader.get("key0000").await.unwrap();
        assert_eq!(store.requests(), requests + 1, "evicted, fetched again");
        let _: Vec<f64> = reader.get("key0000").await.unwrap();
        assert_eq!(store.requests(), requests + 1, "cached now");
    });
}

#[test]
fn concurrent_operations_share_a_small_cache() {
    block_on(async {
        let (_, reader) = shape_a_with_cache(30 << 10).await;
        let gets = (0..60).map(|i| {
            let reader = reader.clone();
            async move {
                let (k, j) = (i % 20, i * 31 % 2000);
                let x: f64 = reader.get(format!("key{k:04}/{j}")).await.unwrap();
                let row: Vec<f64> = reader.get(format!("key{:04}", (k + 7) % 20)).await.unwrap();
                (
                    x == a_value(k, j, 2000),
                    row[j] == a_value((k + 7) % 20, j, 2000),
                )
            }
        });
        for checks in futures::future::join_all(gets).await {
            assert_eq!(checks, (true, true));
        }
        assert!(reader.cached_bytes() <= 30 << 10);
    });
}

#[test]
fn transient_errors_are_retried_and_then_succeed() {
    let file = toc::to_bytes(&shape_a(10, 2000)).unwrap();
    block_on(async {
        let (store, location) = stored("a.msglc", &file).await;
        let options = quick().request_timeout(Duration::from_millis(300));
        store.fail_next(&[Fault::ServerError, Fault::BrokenBody]);
        let reader = AsyncReader::open_store(store.clone(), location, &options)
            .await
            .unwrap();
        assert_eq!(
            store.requests(),
            4,
            "two failed first requests, then the first and the TOC"
        );
        store.fail_next(&[Fault::Hang, Fault::BrokenBody, Fault::ServerError]);
        let row: Vec<f64> = reader.get("key0003").await.unwrap();
        assert_eq!(row[1], a_value(3, 1, 2000));
        assert_eq!(store.requests(), 8);
        assert_eq!(reader.stats().reads, 8);
    });
}

#[test]
fn errors_name_the_url_and_the_byte_range() {
    let file = toc::to_bytes(&shape_a(10, 2000)).unwrap();
    block_on(async {
        let (store, location) = stored("a.msglc", &file).await;
        let url = format!("{store}/a.msglc");

        // A missing object.
        let err = AsyncReader::open_store(store.clone(), Path::from("missing"), &quick())
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Remote);
        let text = err.to_string();
        assert!(text.contains("/missing bytes 0..4096: not found"), "{text}");
        assert_eq!(store.requests(), 1, "not retried");
        assert!(!text.contains('\n'));

        // Refused: no retry.
        store.fail_next(&[Fault::Forbidden]);
        let err = AsyncReader::open_store(store.clone(), location.clone(), &quick())
            .await
            .unwrap_err();
        assert!(
            err.to_string().contains(&format!("{url} bytes 0..4096")),
            "{err}"
        );
        assert!(err.to_string().contains("403"), "{err}");
        assert_eq!(store.requests(), 2);

        // Failing for longer than the retries last.
        let reader = AsyncReader::open_store(store.clone(), location.clone(), &quick())
            .await
            .unwrap();
        let opened = store.requests();
        store.fail_next(&[Fault::ServerError; 6]);
        let err = reader.get::<Vec<f64>>("key0002").await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Remote);
        let range = store.ranges().last().cloned().unwrap();
        let text = err.to_string();
        assert!(
            text.contains(&format!("{url} bytes {}..{}", range.start, range.end)),
            "{text}"
        );
        assert!(text.contains("after 6 attempts"), "{text}");
        assert_eq!(store.requests() - opened, 6);
        // The reader still works afterwards.
        assert_eq!(reader.get::<Vec<f64>>("key0002").await.unwrap().len(), 2000);

        // The object deleted while being read: not retried.
        store.fail_next(&[Fault::NotFound]);
        let before = store.requests();
        let err = reader.get::<Vec<f64>>("key0005").await.unwrap_err();
        assert!(err.to_string().contains(": not found"), "{err}");
        assert_eq!(store.requests(), before + 1);

        // A path that is not there.
        let err = reader.get::<f64>("key0002/x").await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::PathNotFound);
        assert!(err.to_string().contains(&url), "{err}");
    });
}

#[test]
fn objects_shorter_than_their_header_or_toc_say_are_errors() {
    let file = toc::to_bytes(&shape_a(10, 2000)).unwrap();
    block_on(async {
        for cut in [10, 49, 50, 4000, file.len() - 1] {
            let (store, location) = stored("cut.msglc", &file[..cut]).await;
            let err = AsyncReader::open_store(store, location, &quick())
                .await
                .unwrap_err();
            let text = err.to_string();
            assert!(text.contains("cut.msglc"), "cut at {cut}: {text}");
            if cut > 50 {
                assert_eq!(err.kind(), ErrorKind::UnexpectedEnd, "{text}");
                assert!(
                    text.contains(&format!("the object has {cut} bytes")),
                    "{text}"
                );
            }
        }
        let (store, location) = stored("empty.msglc", b"").await;
        let err = AsyncReader::open_store(store, location, &quick().max_retries(0))
            .await
            .unwrap_err();
        assert!(err.to_string().contains("empty.msglc"), "{err}");
    });
}

#[test]
fn the_blocking_reader_refuses_to_run_inside_a_runtime() {
    let file = toc::to_bytes(&shape_a(3, 100)).unwrap();
    let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    block_on(store.put(&Path::from("f"), file.into())).unwrap();
    let reader =
        BlockingReader::open_store(store.clone(), Path::from("f"), &RemoteOptions::new()).unwrap();
    assert_eq!(reader.get::<f64>("key0001/2").unwrap(), a_value(1, 2, 100));
    block_on(async {
        let err = reader.get::<f64>("key0001/2").unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Unsupported);
        let err =
            BlockingReader::open_store(store, Path::from("f"), &RemoteOptions::new()).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Unsupported);
        // Dropped inside a runtime: no panic.
        drop(reader);
    });
}

#[test]
fn urls_pick_their_store_and_bad_ones_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f.msglc");
    std::fs::write(&path, toc::to_bytes(&vec![vec![0.5f64; 2000]; 4]).unwrap()).unwrap();
    let store = LocalFileSystem::new();
    let location = Path::from_filesystem_path(&path).unwrap();
    let reader =
        BlockingReader::open_store(Arc::new(store), location, &RemoteOptions::new()).unwrap();
    assert_eq!(reader.get::<f64>("3/1999").unwrap(), 0.5);
    for url in ["not a url", "memory:///x", "ftp://host/x"] {
        let err = BlockingReader::open(url, &RemoteOptions::new()).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Remote, "{url}");
        assert!(err.to_string().contains(url), "{err}");
    }
    let missing = format!("file://{}/nope", dir.path().display());
    let err = BlockingReader::open(&missing, &RemoteOptions::new()).unwrap_err();
    assert!(
        err.to_string()
            .contains(&format!("{missing} bytes 0..4096")),
        "{err}"
    );
    let err = BlockingReader::open(
        "s3://bucket/key",
        &RemoteOptions::new().store_option("no_such_option", "1"),
    )
    .unwrap_err();
    assert!(err.to_string().contains("s3://bucket/key"), "{err}");
}

#[test]
fn readers_and_their_futures_are_send_and_sync() {
    fn send<T: Send>(_: &T) {}
    fn sync<T: Send + Sync>() {}
    fn clone<T: Clone>() {}
    sync::<AsyncReader>();
    clone::<AsyncReader>();
    sync::<BlockingReader>();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (store, location) = runtime.block_on(stored("f", &toc::to_bytes(&[1u8]).unwrap()));
    let reader = runtime
        .block_on(AsyncReader::open_store(
            store,
            location,
            &RemoteOptions::new(),
        ))
        .unwrap();
    let future = reader.get::<u8>("0");
    send(&future);
    assert_eq!(runtime.block_on(future).unwrap(), 1);
}

#[test]
fn the_local_reader_counts_its_reads() {
    let file = toc::to_bytes(&shape_a(20, 2000)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.msglc");
    std::fs::write(&path, &file).unwrap();
    let reader = Reader::open(&path).unwrap();
    let opened = reader.stats();
    assert_eq!(opened.reads, 2);
    assert_eq!(opened.bytes_read, 50 + reader.toc_len());
    let _: Vec<f64> = reader.get("key0007").unwrap();
    let stats = reader.stats();
    assert!(
        stats.reads > 2 && stats.bytes_read > opened.bytes_read + 16_000,
        "{stats}"
    );
    assert_eq!(stats.cache_hits, 0);
    assert!(stats.time >= opened.time);
}
