//! dynd against bincode 2 (serde, standard config), borsh and postcard on a log-like and a
//! mesh-like dataset, and `Vec<f64>` against a plain memcpy of the same number of bytes.
//!
//! `borsh_shifted` is borsh writing after a few pad bytes, so that its elements sit at the same
//! address modulo 8 as DyND's (DyND's count is a 1-3 byte LEB128, borsh's a 4-byte integer):
//! the difference between `borsh` and `borsh_shifted` is what alignment alone costs, and
//! `borsh_shifted` against `dynd` is the serializer's own cost on equal footing.
//!
//! Run: `cargo bench -p serde-formats --bench dynd -- --warm-up-time 1 --measurement-time 3`

mod common;

use std::hint::black_box;

use borsh::{BorshDeserialize, BorshSerialize};
use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use serde_formats::dense::{DenseSlice, DenseVec};
use serde_formats::dynd;

use common::byte_group;

#[derive(Serialize, Deserialize, BorshSerialize, BorshDeserialize, Clone, PartialEq, Debug)]
struct LogEntry {
    timestamp_ms: u64,
    level: u8,
    service: String,
    message: String,
    status: u16,
    latency_us: u32,
    request_id: u64,
}

#[derive(Serialize, Deserialize, BorshSerialize, BorshDeserialize, Clone, PartialEq, Debug)]
struct Triangle {
    vertices: [[f32; 3]; 3],
}

fn logs(rng: &mut ChaCha8Rng, count: usize) -> Vec<LogEntry> {
    const SERVICES: [&str; 4] = ["auth", "billing", "search-frontend", "ingest"];
    const WORDS: [&str; 8] = [
        "request", "served", "user", "cache", "miss", "timeout", "retry", "ok",
    ];
    let mut now = 1_700_000_000_000u64;
    (0..count)
        .map(|_| {
            now += rng.random_range(0..50);
            let words = rng.random_range(3..12);
            let message = (0..words)
                .map(|_| WORDS[rng.random_range(0..WORDS.len())])
                .collect::<Vec<_>>()
                .join(" ");
            LogEntry {
                timestamp_ms: now,
                level: rng.random_range(0..5),
                service: SERVICES[rng.random_range(0..SERVICES.len())].to_owned(),
                message,
                status: [200, 200, 200, 404, 500][rng.random_range(0..5)],
                latency_us: rng.random_range(50..2_000_000),
                request_id: rng.random(),
            }
        })
        .collect()
}

fn mesh(rng: &mut ChaCha8Rng, count: usize) -> Vec<Triangle> {
    (0..count)
        .map(|_| Triangle {
            vertices: [(); 3].map(|_| [(); 3].map(|_| rng.random_range(-100.0f32..100.0))),
        })
        .collect()
}

fn bincode_config() -> bincode::config::Configuration {
    bincode::config::standard()
}

/// The four formats in one group, serialize and deserialize.
fn compare<T>(c: &mut Criterion, name: &str, data: &Vec<T>)
where
    T: Serialize
        + DeserializeOwned
        + BorshSerialize
        + BorshDeserialize
        + PartialEq
        + std::fmt::Debug,
{
    let dynd_bytes = dynd::to_bytes(data).unwrap();
    let bincode_bytes = bincode::serde::encode_to_vec(data, bincode_config()).unwrap();
    let borsh_bytes = borsh::to_vec(data).unwrap();
    let postcard_bytes = postcard::to_allocvec(data).unwrap();
    // Sanity: every format reads back what it wrote.
    assert_eq!(&dynd::from_bytes::<Vec<T>>(&dynd_bytes).unwrap(), data);
    assert_eq!(&borsh::from_slice::<Vec<T>>(&borsh_bytes).unwrap(), data);
    println!(
        "{name}: dynd {} B, bincode {} B, borsh {} B, postcard {} B",
        dynd_bytes.len(),
        bincode_bytes.len(),
        borsh_bytes.len(),
        postcard_bytes.len()
    );

    let mut group = byte_group(
        c,
        format!("{name}/serialize"),
        dynd_bytes.len() as u64,
        None,
    );
    group.bench_function("dynd", |b| {
        b.iter(|| dynd::to_bytes(black_box(data)).unwrap())
    });
    group.bench_function("bincode", |b| {
        b.iter(|| bincode::serde::encode_to_vec(black_box(data), bincode_config()).unwrap())
    });
    group.bench_function("borsh", |b| {
        b.iter(|| borsh::to_vec(black_box(data)).unwrap())
    });
    borsh_shifted(&mut group, data, &dynd_bytes);
    group.bench_function("postcard", |b| {
        b.iter(|| postcard::to_allocvec(black_box(data)).unwrap())
    });
    group.finish();

    let mut group = byte_group(
        c,
        format!("{name}/deserialize"),
        dynd_bytes.len() as u64,
        None,
    );
    group.bench_function("dynd", |b| {
        b.iter(|| dynd::from_bytes::<Vec<T>>(black_box(&dynd_bytes)).unwrap())
    });
    group.bench_function("bincode", |b| {
        b.iter(|| {
            bincode::serde::decode_from_slice::<Vec<T>, _>(
                black_box(&bincode_bytes),
                bincode_config(),
            )
            .unwrap()
        })
    });
    group.bench_function("borsh", |b| {
        b.iter(|| borsh::from_slice::<Vec<T>>(black_box(&borsh_bytes)).unwrap())
    });
    group.bench_function("postcard", |b| {
        b.iter(|| postcard::from_bytes::<Vec<T>>(black_box(&postcard_bytes)).unwrap())
    });
    group.finish();
}

/// borsh's bytes after pad bytes that put its elements at DyND's addresses modulo 8 (see the
/// module docs): `pad + 4 ≡ count width (mod 8)`.
fn borsh_shifted<T: BorshSerialize>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    data: &Vec<T>,
    dynd_bytes: &[u8],
) {
    let count_width = dynd_bytes.iter().take_while(|&&b| b & 0x80 != 0).count() + 1;
    let pad = (count_width + 4) % 8;
    group.bench_function("borsh_shifted", |b| {
        b.iter(|| {
            let mut out = vec![0u8; pad];
            borsh::to_writer(&mut out, black_box(data)).unwrap();
            out
        })
    });
}

/// memcpy of the same bytes: into a reused buffer ("memcpy", warm) and into a fresh `Vec`
/// ("memcpy_fresh", paying the allocation and page faults as `to_bytes` does).
fn memcpy_into(group: &mut BenchmarkGroup<'_, WallTime>, source: &[u8]) {
    let mut target = vec![0u8; source.len()];
    group.bench_function("memcpy", |b| {
        b.iter(|| {
            target.copy_from_slice(black_box(source));
            black_box(&target);
        })
    });
    group.bench_function("memcpy_fresh", |b| b.iter(|| black_box(source).to_vec()));
}

fn floats(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let data: Vec<f64> = (0..1_000_000).map(|_| rng.random::<f64>()).collect();
    let bytes = dynd::to_bytes(&data).unwrap();
    let raw: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();

    let mut group = byte_group(c, "vec_f64/serialize", raw.len() as u64, Some(30));
    group.bench_function("dynd", |b| {
        b.iter(|| dynd::to_bytes(black_box(&data)).unwrap())
    });
    group.bench_function("dynd_dense", |b| {
        b.iter(|| dynd::to_bytes(&DenseSlice(black_box(&data[..]))).unwrap())
    });
    group.bench_function("borsh", |b| {
        b.iter(|| borsh::to_vec(black_box(&data)).unwrap())
    });
    borsh_shifted(&mut group, &data, &bytes);
    memcpy_into(&mut group, &raw);
    group.finish();

    let mut group = byte_group(c, "vec_f64/deserialize", raw.len() as u64, Some(30));
    group.bench_function("dynd", |b| {
        b.iter(|| dynd::from_bytes::<Vec<f64>>(black_box(&bytes)).unwrap())
    });
    group.bench_function("dynd_dense", |b| {
        b.iter(|| dynd::from_bytes::<DenseVec<f64>>(black_box(&bytes)).unwrap())
    });
    memcpy_into(&mut group, &raw);
    group.finish();
}

fn datasets(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let logs = logs(&mut rng, 10_000);
    compare(c, "log", &logs);
    let mesh = mesh(&mut rng, 50_000);
    compare(c, "mesh", &mesh);
}

criterion_group!(benches, datasets, floats);
criterion_main!(benches);
