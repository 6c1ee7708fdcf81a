//! The two value shapes of the TOC benchmark (issue 17), shared through `#[path]` by the example
//! `toc_leaf` and the integration test `toc_s3_shapes`; each fills them from its own seeded
//! random source.

use std::collections::BTreeMap;

use serde::Serialize;

/// A record of shape B.
#[derive(Serialize)]
pub struct Record {
    pub id: u64,
    pub name: String,
    pub score: f64,
    pub flags: u8,
}

/// Shape A: a map of 1000 keys (`key0000`, `key0001`, …) × 10 000 f64 drawn from `unit`.
pub fn shape_a(mut unit: impl FnMut() -> f64) -> BTreeMap<String, Vec<f64>> {
    (0..1000)
        .map(|k| (format!("key{k:04}"), (0..10_000).map(|_| unit()).collect()))
        .collect()
}

/// Shape B: 1M records of ids 0, 1, …; `draw` gives each one's name number (`name-{n}`),
/// score and flags.
pub fn shape_b(mut draw: impl FnMut() -> (u32, f64, u8)) -> Vec<Record> {
    (0..1_000_000u64)
        .map(|id| {
            let (n, score, flags) = draw();
            Record {
                id,
                name: format!("name-{n}"),
                score,
                flags,
            }
        })
        .collect()
}
