//! Column-oriented binary encoding, byte-for-byte compatible with `serde_columnar` 0.3.x.
//!
//! A list of rows is stored column by column: all values of one field sit together and are
//! compressed by a codec chosen for that field. Sorted ids become runs of small deltas,
//! timestamps become a few bits each, repeated names become one copy and a count.
//!
//! The crate has three layers:
//!
//! - [`wire`]: the postcard primitives (varints, zigzag, strings) and a postcard-compatible
//!   serde [`Serializer`](wire::Serializer) / [`Deserializer`](wire::Deserializer) whose
//!   [`Error`] says what went wrong and at which byte.
//! - [`codec`]: the five column codecs — Generic, Rle, DeltaRle, BoolRle, DeltaOfDelta —
//!   each with a streaming encoder, a decoder into `Vec<T>`, a streaming iterator and a column
//!   type. The wire format of every codec, with its stability promise and a table of
//!   canonical vs accepted encodings, is documented there.
//! - the `#[columnar]` derive, which turns row structs into columns using the codecs.
//!
//! # Quick start
//!
//! ```
//! use columnar::codec::{delta_of_delta, delta_rle, rle, BoolRleEncoder};
//!
//! // Whole columns at once ...
//! let ids = [100u64, 101, 102, 103, 104];
//! let bytes = delta_rle::encode(&ids)?;
//! assert_eq!(bytes, [0x01, 0xc8, 0x01, 0x08, 0x02]); // 100, then four deltas of +1
//! assert_eq!(delta_rle::decode::<u64>(&bytes)?, ids);
//!
//! let names = ["ann", "ann", "ann", "bo"];
//! let bytes = rle::encode(&names)?;
//! assert_eq!(rle::decode::<&str>(&bytes)?, names); // borrowed from `bytes`
//!
//! let times = [1_000i64, 1_010, 1_020, 1_030];
//! assert_eq!(delta_of_delta::encode(&times)?.len(), 6); // head, 1 byte of bits
//!
//! // ... or streamed one value at a time.
//! let mut flags = BoolRleEncoder::new();
//! for flag in [true, true, false] {
//!     flags.push(&flag)?;
//! }
//! assert_eq!(flags.finish()?, [0x00, 0x02, 0x01]);
//!
//! // Malformed input is an error with a kind and a byte offset, never a panic.
//! let err = delta_rle::decode::<u8>(&[0x01, 0xfe, 0x03, 0x02, 0x02]).unwrap_err();
//! assert_eq!(err.kind(), columnar::ErrorKind::IntegerOverflow);
//! assert_eq!(err.offset(), Some(4));
//! # Ok::<(), columnar::Error>(())
//! ```
#![deny(missing_docs)]

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

pub mod codec;
mod container;
pub mod error;
pub mod iter;
mod strategy;
mod table;
pub mod wire;

/// `serde_columnar`'s module of streaming decoders, under its old name.
pub mod iterable {
    pub use crate::iter::*;
}

pub use codec::{
    AnyRleEncoder, AnyRleIter, BoolRleColumn, BoolRleEncoder, BoolRleIter, DeltaOfDeltaColumn,
    DeltaOfDeltaEncoder, DeltaOfDeltaIter, DeltaOfDeltable, DeltaRleColumn, DeltaRleEncoder,
    DeltaRleIter, DeltaRleable, GenericColumn, GenericEncoder, GenericIter, RleColumn, Rleable,
};
pub use error::{Error, ErrorKind, Result};

/// The attribute macro that turns structs into tables and rows; see the crate docs.
pub use columnar_derive::columnar;

/// `serde_columnar`'s name for [`Error`].
pub type ColumnarError = Error;

/// Largest run length a decoder accepts, as in `serde_columnar`.
pub const MAX_RLE_COUNT: usize = 1_000_000_000;

/// Encodes a table (any `Serialize` value) into a new `Vec<u8>`.
///
/// # Errors
/// An encode error of a codec ([`ErrorKind::EncodeOverflow`]) or of a value's `Serialize`
/// implementation.
pub fn to_vec<T: serde::Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
    wire::to_vec(value)
}

/// Same as [`to_vec`], under the name the other formats of this workspace use.
///
/// # Errors
/// As [`to_vec`].
pub fn to_bytes<T: serde::Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
    wire::to_vec(value)
}

/// Encodes a table onto the end of `writer`.
///
/// # Errors
/// As [`to_vec`], and the writer's I/O errors as [`ErrorKind::Message`].
pub fn to_writer<T: serde::Serialize + ?Sized, W: std::io::Write>(
    mut writer: W,
    value: &T,
) -> Result<()> {
    let bytes = wire::to_vec(value)?;
    writer
        .write_all(&bytes)
        .map_err(|err| Error::with_message(ErrorKind::Message, err))
}

/// Decodes a table from `bytes`, which it must use to the last byte. Strings and `borrow`
/// fields borrow from `bytes`.
///
/// # Errors
/// Malformed input, with its [`ErrorKind`] and byte offset; [`ErrorKind::TrailingBytes`] when
/// bytes are left over.
pub fn from_bytes<'de, T: serde::Deserialize<'de>>(bytes: &'de [u8]) -> Result<T> {
    wire::from_bytes(bytes)
}

/// Decodes a table from the front of `bytes` and returns the bytes after it.
///
/// # Errors
/// As [`from_bytes`], without the trailing-bytes check.
pub fn take_from_bytes<'de, T: serde::Deserialize<'de>>(
    bytes: &'de [u8],
) -> Result<(T, &'de [u8])> {
    wire::take_from_bytes(bytes)
}

/// Decodes the streaming form of table `T`: every field with `iter = "Row"` becomes an
/// iterator of `Result<Row>` that decodes its columns lazily.
///
/// # Errors
/// Malformed table framing; errors inside the columns surface from the row iterators.
pub fn iter_from_bytes<'de, T: iter::TableIter<'de>>(bytes: &'de [u8]) -> Result<T::Iter> {
    iter::iter_from_bytes::<T>(bytes)
}

/// What the `#[columnar]` macro's output refers to. Not a public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::container::{
        ColumnsReader, ColumnsWriter, DecodeRows, EncodeRows, MapContainer, MapContainerDe, MapRow,
        OptionalColumn, OptionalEntry, OptionalValues, VecContainer, VecContainerDe, VecRow,
    };
    pub use crate::iter::{IterContainer, IterRows, OptionalIter, RowStep, TableIter};
    pub use crate::strategy::{
        encode_value, encoder, ser_error, BoolRle, Borrow, Borrowed, Codec, CodecDe, ColumnEncoder,
        DeltaOfDelta, DeltaRle, Generic, MapClass, Rle, VecClass, Wrapper,
    };
    pub use crate::table::{next_field, table_optionals, Plain};
    pub use crate::{Error, Result};
    pub use serde;
    pub use std::{
        default::Default, fmt, iter::Iterator, marker::PhantomData, option::Option,
        result::Result as StdResult, vec::Vec,
    };
}
