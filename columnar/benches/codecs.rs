//! Encode and decode 1M values with each codec, ours next to serde_columnar 0.3.14's in the
//! same group. Throughput is the in-memory size of the values (`1M × size_of::<T>()`), the
//! same for both sides, so the reported rates compare directly.

use std::hint::black_box;
use std::ops::AddAssign;

use columnar::codec::{bool_rle, delta_of_delta, delta_rle, generic, rle};
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_columnar::ColumnTrait;

const N: usize = 1_000_000;

fn rng() -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(0xc0de)
}

/// `N` values in runs of 1 ..= `max_run`, each run's value from `next_value` (drawn before
/// its length).
fn runs<T: Clone>(max_run: usize, mut next_value: impl FnMut(&mut ChaCha8Rng) -> T) -> Vec<T> {
    let mut rng = rng();
    let mut out = Vec::with_capacity(N);
    while out.len() < N {
        let value = next_value(&mut rng);
        let len = rng.random_range(1..=max_run).min(N - out.len());
        out.extend(std::iter::repeat_n(value, len));
    }
    out
}

/// Categorical values in runs of 1 ..= 8.
fn runs_u32() -> Vec<u32> {
    runs(8, |rng| rng.random_range(0..16u32))
}

/// `N` running sums from `value`, each step drawn by `step`.
fn walk<T: Copy + AddAssign>(mut value: T, mut step: impl FnMut(&mut ChaCha8Rng) -> T) -> Vec<T> {
    let mut rng = rng();
    (0..N)
        .map(|_| {
            value += step(&mut rng);
            value
        })
        .collect()
}

/// Increasing ids, mostly +1.
fn ids_u64() -> Vec<u64> {
    walk(1_000_000u64, |rng| {
        if rng.random_bool(0.9) {
            1
        } else {
            rng.random_range(2..100)
        }
    })
}

/// Booleans in runs of 1 ..= 32, alternating.
fn flags() -> Vec<bool> {
    let mut value = true;
    runs(32, |_| {
        value = !value;
        value
    })
}

/// Millisecond timestamps, ~100 ms apart with jitter.
fn timestamps() -> Vec<i64> {
    walk(1_700_000_000_000i64, |rng| 100 + rng.random_range(-5..=5))
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

/// Defines `$bench`: our codec module's `encode` and `decode` on values `$t` next to
/// serde_columnar's encoder, fed one value at a time (`$append` is the argument of `append`
/// for `&$t`), and its decoder. A macro because serde_columnar's encoders share method names
/// but no trait.
macro_rules! bench_codec {
    ($bench:ident, $group:literal, $codec:ident::<$t:ty>, $values:expr,
     peer: $encoder:expr, |$value:ident| $append:expr, |$bytes:ident| $peer_decode:expr) => {
        fn $bench(c: &mut Criterion) {
            let values: Vec<$t> = $values;
            let bytes = $codec::encode(&values).unwrap();
            let mut g = group(c, $group, size_of::<$t>());
            g.bench_function("encode/columnar", |b| {
                b.iter(|| $codec::encode(black_box(&values)).unwrap())
            });
            g.bench_function("encode/serde_columnar", |b| {
                b.iter(|| {
                    let mut encoder = $encoder;
                    for $value in black_box(&values) {
                        encoder.append($append).unwrap();
                    }
                    encoder.finish().unwrap()
                })
            });
            g.bench_function("decode/columnar", |b| {
                b.iter(|| -> Vec<$t> { $codec::decode(black_box(&bytes)).unwrap() })
            });
            g.bench_function("decode/serde_columnar", |b| {
                b.iter(|| {
                    let $bytes = black_box(&bytes);
                    $peer_decode
                })
            });
            g.finish();
        }
    };
}

bench_codec!(bench_rle, "rle_u32", rle::<u32>, runs_u32(),
    peer: serde_columnar::AnyRleEncoder::<u32>::new(), |value| value,
    |bytes| serde_columnar::AnyRleDecoder::<u32>::new(bytes).decode().unwrap());
bench_codec!(bench_delta_rle, "delta_rle_u64", delta_rle::<u64>, ids_u64(),
    peer: serde_columnar::DeltaRleEncoder::new(), |value| *value,
    |bytes| serde_columnar::DeltaRleDecoder::<u64>::new(bytes).decode().unwrap());
bench_codec!(bench_bool_rle, "bool_rle", bool_rle::<bool>, flags(),
    peer: serde_columnar::BoolRleEncoder::new(), |value| *value,
    |bytes| serde_columnar::BoolRleDecoder::new(bytes).decode().unwrap());
bench_codec!(bench_delta_of_delta, "delta_of_delta_i64", delta_of_delta::<i64>, timestamps(),
    peer: serde_columnar::DeltaOfDeltaEncoder::new(), |value| *value,
    |bytes| serde_columnar::DeltaOfDeltaDecoder::<i64>::new(bytes).unwrap().decode().unwrap());

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
