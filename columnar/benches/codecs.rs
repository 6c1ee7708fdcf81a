//! Encode and decode 1M values with each codec, ours next to serde_columnar 0.3.14's in the
//! same group. Throughput is the in-memory size of the values (`1M × size_of::<T>()`), the
//! same for both sides, so the reported rates compare directly.

use std::hint::black_box;

use columnar::codec::{bool_rle, delta_of_delta, delta_rle, generic, rle};
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_columnar::ColumnTrait;

const N: usize = 1_000_000;

fn rng() -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(0xc0de)
}

/// Categorical values in runs of 1 ..= 8.
fn runs_u32() -> Vec<u32> {
    let mut rng = rng();
    let mut out = Vec::with_capacity(N);
    while out.len() < N {
        let value = rng.random_range(0..16u32);
        let len = rng.random_range(1..=8usize).min(N - out.len());
        out.extend(std::iter::repeat_n(value, len));
    }
    out
}

/// Increasing ids, mostly +1.
fn ids_u64() -> Vec<u64> {
    let mut rng = rng();
    let mut id = 1_000_000u64;
    (0..N)
        .map(|_| {
            id += if rng.random_bool(0.9) {
                1
            } else {
                rng.random_range(2..100)
            };
            id
        })
        .collect()
}

/// Booleans in runs of 1 ..= 32.
fn flags() -> Vec<bool> {
    let mut rng = rng();
    let mut out = Vec::with_capacity(N);
    let mut value = false;
    while out.len() < N {
        let len = rng.random_range(1..=32usize).min(N - out.len());
        out.extend(std::iter::repeat_n(value, len));
        value = !value;
    }
    out
}

/// Millisecond timestamps, ~100 ms apart with jitter.
fn timestamps() -> Vec<i64> {
    let mut rng = rng();
    let mut t = 1_700_000_000_000i64;
    (0..N)
        .map(|_| {
            t += 100 + rng.random_range(-5..=5);
            t
        })
        .collect()
}

/// Uniform u64 values, for the Generic codec.
fn random_u64() -> Vec<u64> {
    let mut rng = rng();
    (0..N).map(|_| rng.random_range(0..1u64 << 40)).collect()
}

fn group<'a>(
    c: &'a mut Criterion,
    name: &str,
    value_size: usize,
) -> BenchmarkGroup<'a, criterion::measurement::WallTime> {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Bytes((N * value_size) as u64));
    group.sample_size(10);
    group
}

fn bench_rle(c: &mut Criterion) {
    let values = runs_u32();
    let bytes = rle::encode(&values).unwrap();
    let mut g = group(c, "rle_u32", 4);
    g.bench_function("encode/columnar", |b| {
        b.iter(|| rle::encode(black_box(&values)).unwrap())
    });
    g.bench_function("encode/serde_columnar", |b| {
        b.iter(|| {
            let mut encoder = serde_columnar::AnyRleEncoder::<u32>::new();
            for value in black_box(&values) {
                encoder.append(value).unwrap();
            }
            encoder.finish().unwrap()
        })
    });
    g.bench_function("decode/columnar", |b| {
        b.iter(|| rle::decode::<u32>(black_box(&bytes)).unwrap())
    });
    g.bench_function("decode/serde_columnar", |b| {
        b.iter(|| {
            serde_columnar::AnyRleDecoder::<u32>::new(black_box(&bytes))
                .decode()
                .unwrap()
        })
    });
    g.finish();
}

fn bench_delta_rle(c: &mut Criterion) {
    let values = ids_u64();
    let bytes = delta_rle::encode(&values).unwrap();
    let mut g = group(c, "delta_rle_u64", 8);
    g.bench_function("encode/columnar", |b| {
        b.iter(|| delta_rle::encode(black_box(&values)).unwrap())
    });
    g.bench_function("encode/serde_columnar", |b| {
        b.iter(|| {
            let mut encoder = serde_columnar::DeltaRleEncoder::new();
            for value in black_box(&values) {
                encoder.append(*value).unwrap();
            }
            encoder.finish().unwrap()
        })
    });
    g.bench_function("decode/columnar", |b| {
        b.iter(|| delta_rle::decode::<u64>(black_box(&bytes)).unwrap())
    });
    g.bench_function("decode/serde_columnar", |b| {
        b.iter(|| {
            serde_columnar::DeltaRleDecoder::<u64>::new(black_box(&bytes))
                .decode()
                .unwrap()
        })
    });
    g.finish();
}

fn bench_bool_rle(c: &mut Criterion) {
    let values = flags();
    let bytes = bool_rle::encode(&values).unwrap();
    let mut g = group(c, "bool_rle", 1);
    g.bench_function("encode/columnar", |b| {
        b.iter(|| bool_rle::encode(black_box(&values)).unwrap())
    });
    g.bench_function("encode/serde_columnar", |b| {
        b.iter(|| {
            let mut encoder = serde_columnar::BoolRleEncoder::new();
            for value in black_box(&values) {
                encoder.append(*value).unwrap();
            }
            encoder.finish().unwrap()
        })
    });
    g.bench_function("decode/columnar", |b| {
        b.iter(|| bool_rle::decode(black_box(&bytes)).unwrap())
    });
    g.bench_function("decode/serde_columnar", |b| {
        b.iter(|| {
            serde_columnar::BoolRleDecoder::new(black_box(&bytes))
                .decode()
                .unwrap()
        })
    });
    g.finish();
}

fn bench_delta_of_delta(c: &mut Criterion) {
    let values = timestamps();
    let bytes = delta_of_delta::encode(&values).unwrap();
    let mut g = group(c, "delta_of_delta_i64", 8);
    g.bench_function("encode/columnar", |b| {
        b.iter(|| delta_of_delta::encode(black_box(&values)).unwrap())
    });
    g.bench_function("encode/serde_columnar", |b| {
        b.iter(|| {
            let mut encoder = serde_columnar::DeltaOfDeltaEncoder::new();
            for value in black_box(&values) {
                encoder.append(*value).unwrap();
            }
            encoder.finish().unwrap()
        })
    });
    g.bench_function("decode/columnar", |b| {
        b.iter(|| delta_of_delta::decode::<i64>(black_box(&bytes)).unwrap())
    });
    g.bench_function("decode/serde_columnar", |b| {
        b.iter(|| {
            serde_columnar::DeltaOfDeltaDecoder::<i64>::new(black_box(&bytes))
                .unwrap()
                .decode()
                .unwrap()
        })
    });
    g.finish();
}

fn bench_generic(c: &mut Criterion) {
    let values = random_u64();
    let bytes = generic::encode(&values).unwrap();
    let peer_column = serde_columnar::GenericColumn::from(values.clone());
    let mut g = group(c, "generic_u64", 8);
    g.bench_function("encode/columnar", |b| {
        b.iter(|| generic::encode(black_box(&values)).unwrap())
    });
    g.bench_function("encode/serde_columnar", |b| {
        b.iter(|| black_box(&peer_column).encode().unwrap())
    });
    g.bench_function("decode/columnar", |b| {
        b.iter(|| generic::decode::<u64>(black_box(&bytes)).unwrap())
    });
    g.bench_function("decode/serde_columnar", |b| {
        b.iter(|| serde_columnar::GenericColumn::<u64>::decode(black_box(&bytes)).unwrap())
    });
    g.finish();
}

criterion_group!(
    codecs,
    bench_rle,
    bench_delta_rle,
    bench_bool_rle,
    bench_delta_of_delta,
    bench_generic
);
criterion_main!(codecs);
