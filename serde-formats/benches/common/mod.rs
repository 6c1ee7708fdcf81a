//! What the serde-formats benches share: a criterion group whose throughput is the bytes of
//! one input.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput};

/// A benchmark group `name` measured in `bytes` per iteration, with `samples` samples
/// (`None`: criterion's default).
pub fn byte_group<'a>(
    c: &'a mut Criterion,
    name: impl Into<String>,
    bytes: u64,
    samples: Option<usize>,
) -> BenchmarkGroup<'a, WallTime> {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Bytes(bytes));
    if let Some(samples) = samples {
        group.sample_size(samples);
    }
    group
}
