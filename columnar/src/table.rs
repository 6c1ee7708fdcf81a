//! Tables: the top-level structs of `#[columnar(ser, de)]`.
//!
//! ```text
//! table := varint(F) field* (varint index, varint len, field bytes)*
//! ```
//!
//! `F` counts the non-skipped fields; required fields come in declaration order, each as its
//! own encoding (a container for `class` fields), then each optional field as its stable index
//! and its encoding in a byte string. Optional fields are always written.

use serde::de::SeqAccess;
use serde::{Deserialize, Deserializer};

use crate::container::{container_error, ColumnsReader, OptionalColumn};
use crate::strategy::{Borrowed, Wrapper};
use crate::{ErrorKind, Result};

/// A plain table field on its way in.
#[repr(transparent)]
pub struct Plain<T>(pub T);

impl<T> Wrapper for Plain<T> {
    type Value = T;
    #[inline]
    fn into_value(self) -> T {
        self.0
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Plain<T> {
    #[inline]
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        T::deserialize(deserializer).map(Plain)
    }
}

impl<T> Wrapper for Borrowed<T> {
    type Value = T;
    #[inline]
    fn into_value(self) -> T {
        self.0
    }
}

/// Reads the next required table field through the wrapper `W`.
///
/// # Errors
/// The field's decoding errors; [`ErrorKind::UnexpectedEnd`] when the table has no more
/// fields.
#[inline]
pub fn next_field<'de, W, A>(seq: &mut A) -> std::result::Result<W::Value, A::Error>
where
    W: Deserialize<'de> + Wrapper,
    A: SeqAccess<'de>,
{
    match seq.next_element::<W>()? {
        Some(value) => Ok(value.into_value()),
        None => Err(container_error(
            ErrorKind::UnexpectedEnd,
            "the table has fewer fields than the schema",
        )),
    }
}

/// Reads the optional table entries that follow the required fields; `found` gets each
/// `(index, bytes)` and says whether it knew the index.
///
/// # Errors
/// Malformed entries and the errors of `found`.
pub fn table_optionals<'de, A, F>(
    columns: &mut ColumnsReader<'de, A>,
    found: F,
) -> std::result::Result<(), A::Error>
where
    A: SeqAccess<'de>,
    F: FnMut(u64, OptionalColumn<'de, '_>) -> Result<bool>,
{
    columns.table_optionals(found)
}
