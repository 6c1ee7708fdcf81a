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
pub mod error;
pub mod wire;

pub use codec::{
    AnyRleEncoder, AnyRleIter, BoolRleColumn, BoolRleEncoder, BoolRleIter, DeltaOfDeltaColumn,
    DeltaOfDeltaEncoder, DeltaOfDeltaIter, DeltaOfDeltable, DeltaRleColumn, DeltaRleEncoder,
    DeltaRleIter, DeltaRleable, GenericColumn, GenericEncoder, GenericIter, RleColumn, Rleable,
};
pub use error::{Error, ErrorKind, Result};

/// Largest run length a decoder accepts, as in `serde_columnar`.
pub const MAX_RLE_COUNT: usize = 1_000_000_000;
