//! typed_column beside its baselines: a dense `Vec<f64>` of 1M beside a plain memcpy of the same
//! 8 MB (both directions), and 100k small structs beside serde_json `to_vec` / `from_slice`.
//!
//! Run: `cargo bench -p serde-formats --bench typed_column -- --warm-up-time 1 --measurement-time 3`

mod common;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use serde_formats::dense::{DenseSlice, DenseVec};
use serde_formats::typed_column::{from_bytes, from_columns, to_bytes, to_columns, View};

use common::byte_group;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Reading {
    id: u32,
    x: f64,
    y: f64,
    name: String,
    active: bool,
}

fn dense_f64(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(0x7c01);
    let values: Vec<f64> = (0..1_000_000).map(|_| rng.random::<f64>() * 1e6).collect();
    let raw: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let columns = to_columns(&values).unwrap();
    let framed = to_bytes(&values).unwrap();
    assert_eq!(columns.data, raw);

    let mut group = byte_group(c, "typed_column/dense_f64_1M", raw.len() as u64, Some(20));
    group.bench_function("memcpy", |b| b.iter(|| black_box(&raw).to_vec()));
    let mut target = vec![0u8; raw.len()];
    group.bench_function("memcpy_reused", |b| {
        b.iter(|| {
            target.copy_from_slice(black_box(&raw));
            black_box(&target);
        })
    });
    group.bench_function("encode/to_columns", |b| {
        b.iter(|| to_columns(black_box(&values)).unwrap())
    });
    group.bench_function("encode/to_bytes", |b| {
        b.iter(|| to_bytes(black_box(&values)).unwrap())
    });
    group.bench_function("encode/to_bytes_dense", |b| {
        b.iter(|| to_bytes(&DenseSlice(black_box(&values[..]))).unwrap())
    });
    group.bench_function("decode/from_bytes_dense", |b| {
        b.iter(|| from_bytes::<DenseVec<f64>>(black_box(&framed)).unwrap())
    });
    group.bench_function("decode/from_columns", |b| {
        b.iter(|| {
            from_columns::<Vec<f64>>(black_box(&columns.types), black_box(&columns.data)).unwrap()
        })
    });
    group.bench_function("decode/from_bytes", |b| {
        b.iter(|| from_bytes::<Vec<f64>>(black_box(&framed)).unwrap())
    });
    group.bench_function("view/sum", |b| {
        b.iter(|| {
            let view = View::from_bytes(black_box(&framed)).unwrap();
            view.iter().map(|v| v.as_f64().unwrap_or(0.0)).sum::<f64>()
        })
    });
    group.finish();
}

fn small_structs(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(0x7c02);
    let readings: Vec<Reading> = (0..100_000)
        .map(|i| Reading {
            id: i,
            x: rng.random::<f64>() * 100.0,
            y: rng.random::<f64>() * -100.0,
            name: format!("sensor-{}", rng.random_range(0..10_000)),
            active: rng.random(),
        })
        .collect();
    let framed = to_bytes(&readings).unwrap();
    let columns = to_columns(&readings).unwrap();
    let json = serde_json::to_vec(&readings).unwrap();
    assert_eq!(from_bytes::<Vec<Reading>>(&framed).unwrap(), readings);

    let mut group = byte_group(
        c,
        "typed_column/structs_100k",
        framed.len() as u64,
        Some(20),
    );
    group.bench_function("encode/serde_json", |b| {
        b.iter(|| serde_json::to_vec(black_box(&readings)).unwrap())
    });
    group.bench_function("encode/to_bytes", |b| {
        b.iter(|| to_bytes(black_box(&readings)).unwrap())
    });
    group.bench_function("encode/to_columns", |b| {
        b.iter(|| to_columns(black_box(&readings)).unwrap())
    });
    group.bench_function("decode/serde_json", |b| {
        b.iter(|| serde_json::from_slice::<Vec<Reading>>(black_box(&json)).unwrap())
    });
    group.bench_function("decode/from_bytes", |b| {
        b.iter(|| from_bytes::<Vec<Reading>>(black_box(&framed)).unwrap())
    });
    group.bench_function("decode/from_columns", |b| {
        b.iter(|| {
            from_columns::<Vec<Reading>>(black_box(&columns.types), black_box(&columns.data))
                .unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, dense_f64, small_structs);
criterion_main!(benches);
