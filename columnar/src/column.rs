//! The interface between containers and column strategies: how a container starts a
//! column's streaming decoder from its [`DecodeContext`], and how decoding wrappers hand
//! over the value they decoded. Containers, row iterators and strategies all build on it.

use crate::context::DecodeContext;
use crate::Result;

/// A strategy that can decode values of type `T` borrowing from `'de`.
#[diagnostic::on_unimplemented(
    message = "a `{T}` field cannot be decoded with strategy `{Self}`",
    note = "Rle takes `Clone + Deserialize` values, DeltaRle and DeltaOfDelta integers, BoolRle `bool`"
)]
pub trait CodecDe<'de, T> {
    /// The streaming decoder of a column.
    type Iter: ColumnIter<T>;
    /// Streams a column, reporting offsets in the input and allowing the values the depth
    /// left in `context`.
    fn iter(context: DecodeContext<'de>) -> Self::Iter;
    /// Whether [`CodecDe::count`] can tell how many values a column holds.
    const COUNTS: bool = false;
    /// How many values the column `bytes` holds, when the codec can tell much faster than
    /// decoding them (`None` otherwise, or when the column is malformed). Only a capacity
    /// hint for the rows being decoded.
    #[inline]
    fn count(_bytes: &'de [u8]) -> Option<usize> {
        None
    }
}

/// A column's streaming decoder, which knows where its column starts in the input.
pub trait ColumnIter<T>: Iterator<Item = Result<T>> {
    /// The offset of the column's first byte in the input.
    fn column_start(&self) -> usize;
}

/// A decoding wrapper around the value it decodes.
pub trait Wrapper {
    /// The wrapped value's type.
    type Value;
    /// Unwraps the value.
    fn into_value(self) -> Self::Value;
}
