//! Helpers shared by the fuzz targets, each of which includes this file with `#[path]` and
//! uses only some of it.
#![allow(dead_code)]

/// Runs expand without consuming input, so a short input can claim 10^9 values: columns longer
/// than this are only streamed, not collected.
pub const STREAM_LIMIT: usize = 1 << 12;

/// The values (or the first error) `iter` streams, when it ends within [`STREAM_LIMIT`] items;
/// `None` for a longer column.
pub fn streamed<T, E>(mut iter: impl Iterator<Item = Result<T, E>>) -> Option<Result<Vec<T>, E>> {
    let head = iter.by_ref().take(STREAM_LIMIT).collect();
    iter.next().is_none().then_some(head)
}

/// Streaming (`iter`) and bulk decoding (`bulk`) agree, errors included, when the column ends
/// within [`STREAM_LIMIT`] values; the values they decoded, if they did.
pub fn agree<T: PartialEq + std::fmt::Debug, E: PartialEq + std::fmt::Debug>(
    iter: impl Iterator<Item = Result<T, E>>,
    bulk: impl FnOnce() -> Result<Vec<T>, E>,
) -> Option<Vec<T>> {
    let streamed = streamed(iter)?;
    let bulk = bulk();
    assert_eq!(bulk, streamed);
    bulk.ok()
}
