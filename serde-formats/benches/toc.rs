//! TOC-MessagePack against rmp-serde (plain MessagePack, structs as maps) on the two
//! shapes:
//!
//! - A: a map of 1000 keys, each a list of 10 000 f64 (~90 MB);
//! - B: a list of 1M small records `{id, name, score, flags}`.
//!
//! Groups: `toc_write/{A,B}` (our writer building the TOC vs `rmp_serde::to_vec_named`, each
//! into a fresh `Vec` and, `*-reused`, into one buffer cleared and reused every iteration;
//! `toc-writer*` keep one `toc::Writer`, and so the TOC's working memory, across iterations) and
//! `toc_decode/{A,B}` (our `from_bytes` vs `rmp_serde::from_slice`), `Throughput::Bytes` of the
//! plain MessagePack size. `toc_open_leaf/{A,B}` opens a file in memory and reads one random leaf
//! (the fresh-process measurement is `examples/toc_leaf.rs` with `tests/interop/toc_bench_msglc.py`).
//!
//! Run: `cargo bench -p serde-formats --bench toc -- --warm-up-time 1 --measurement-time 3`.

use std::collections::BTreeMap;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use serde_formats::toc::{self, Reader};

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
struct Record {
    id: u64,
    name: String,
    score: f64,
    flags: u8,
}

fn shape_a() -> BTreeMap<String, Vec<f64>> {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    (0..1000)
        .map(|k| {
            let values = (0..10_000).map(|_| rng.random::<f64>()).collect();
            (format!("key{k:04}"), values)
        })
        .collect()
}

fn shape_b() -> Vec<Record> {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    (0..1_000_000u64)
        .map(|id| Record {
            id,
            name: format!("name-{}", rng.random_range(0..100_000u32)),
            score: rng.random(),
            flags: rng.random(),
        })
        .collect()
}

fn write_and_decode<T>(c: &mut Criterion, shape: &str, value: &T)
where
    T: Serialize + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug,
{
    let plain = rmp_serde::to_vec_named(value).unwrap();
    let ours = toc::to_bytes(value).unwrap();
    assert_eq!(&toc::from_bytes::<T>(&ours).unwrap(), value);

    let mut group = c.benchmark_group("toc_write");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(plain.len() as u64));
    group.bench_function(BenchmarkId::new("toc", shape), |b| {
        b.iter(|| toc::to_bytes(value).unwrap())
    });
    group.bench_function(BenchmarkId::new("rmp-serde", shape), |b| {
        b.iter(|| rmp_serde::to_vec_named(value).unwrap())
    });
    // A fresh `Vec` for the file, with a `toc::Writer` kept across iterations.
    let mut writer = toc::Writer::new();
    group.bench_function(BenchmarkId::new("toc-writer", shape), |b| {
        b.iter(|| writer.to_bytes(value).unwrap())
    });
    // The same into one buffer reused across iterations (warm allocation: no growth, no
    // page faults once the first iteration has sized it).
    let mut buffer = Vec::new();
    group.bench_function(BenchmarkId::new("toc-reused", shape), |b| {
        b.iter(|| {
            buffer.clear();
            toc::to_bytes_into(&mut buffer, value).unwrap();
            buffer.len()
        })
    });
    // The same with one `toc::Writer` for every iteration: the TOC's working memory is kept
    // too, as the buffer is.
    let mut writer = toc::Writer::new();
    group.bench_function(BenchmarkId::new("toc-writer-reused", shape), |b| {
        b.iter(|| {
            buffer.clear();
            writer.to_bytes_into(&mut buffer, value).unwrap();
            buffer.len()
        })
    });
    group.bench_function(BenchmarkId::new("rmp-serde-reused", shape), |b| {
        b.iter(|| {
            buffer.clear();
            let mut ser = rmp_serde::Serializer::new(&mut buffer).with_struct_map();
            value.serialize(&mut ser).unwrap();
            buffer.len()
        })
    });
    group.finish();

    let mut group = c.benchmark_group("toc_decode");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(plain.len() as u64));
    group.bench_function(BenchmarkId::new("toc", shape), |b| {
        b.iter(|| toc::from_bytes::<T>(&ours).unwrap())
    });
    group.bench_function(BenchmarkId::new("rmp-serde", shape), |b| {
        b.iter(|| rmp_serde::from_slice::<T>(&plain).unwrap())
    });
    group.finish();
}

/// `toc_open_leaf/{shape}`: opens the file of `value` in memory and reads the leaf at a random
/// path made by `path` (from a generator seeded with `seed`).
fn open_leaf<T, L>(
    c: &mut Criterion,
    shape: &str,
    value: &T,
    seed: u64,
    sample_size: usize,
    mut path: impl FnMut(&mut ChaCha8Rng) -> String,
) where
    T: Serialize,
    L: for<'de> Deserialize<'de>,
{
    let file = toc::to_bytes(value).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut group = c.benchmark_group("toc_open_leaf");
    group.sample_size(sample_size);
    group.bench_function(shape, |b| {
        b.iter(|| {
            let path = path(&mut rng);
            Reader::from_slice(&file).unwrap().get::<L>(&path).unwrap()
        })
    });
    group.finish();
}

fn bench_a(c: &mut Criterion) {
    let value = shape_a();
    write_and_decode(c, "A", &value);
    // Criterion's default sample size.
    open_leaf::<_, f64>(c, "A", &value, 3, 100, |rng| {
        let key = rng.random_range(0..1000);
        format!("key{key:04}/{}", rng.random_range(0..10_000))
    });
}

fn bench_b(c: &mut Criterion) {
    let value = shape_b();
    write_and_decode(c, "B", &value);
    open_leaf::<_, String>(c, "B", &value, 4, 20, |rng| {
        format!("{}/name", rng.random_range(0..1_000_000))
    });
}

criterion_group!(benches, bench_a, bench_b);
criterion_main!(benches);
