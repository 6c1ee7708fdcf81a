//! Column-oriented binary encoding, byte-for-byte compatible with `serde_columnar` 0.3.x.
//!
//! A list of rows is stored column by column: all values of one field sit together and are
//! compressed by a codec chosen for that field. Sorted ids become runs of small deltas,
//! timestamps become a few bits each, repeated names become one copy and a count.
//!
//! The package is `columnar-codec` on the registry (the name `columnar` belongs to another
//! project); its library keeps the name `columnar`, so `columnar-codec = "0.1"` in Cargo.toml
//! gives `use columnar::…` in code.
//!
//! # Quick start
//!
//! ```
//! use columnar::columnar;
//!
//! // A row: each field becomes a column with its own codec.
//! #[columnar(vec, iterable)]
//! #[derive(Debug, Clone, PartialEq)]
//! struct Edit {
//!     #[columnar(strategy = "DeltaRle")]
//!     id: u64,
//!     #[columnar(strategy = "Rle")]
//!     author: String,
//!     #[columnar(strategy = "BoolRle")]
//!     deleted: bool,
//!     text: String, // no strategy: Generic
//!     #[columnar(optional, index = 0)]
//!     tag: Option<String>, // added later: old readers skip it, old files read as None
//! }
//!
//! // A table: the top-level value, with the rows as a vec container.
//! #[columnar(ser, de)]
//! #[derive(Debug, PartialEq)]
//! struct Doc {
//!     #[columnar(class = "vec", iter = "Edit")]
//!     edits: Vec<Edit>,
//!     version: u32,
//! }
//!
//! let doc = Doc {
//!     edits: (0..100)
//!         .map(|i| Edit { id: 1000 + i, author: "ann".into(), deleted: false, text: "x".into(), tag: None })
//!         .collect(),
//!     version: 1,
//! };
//! let bytes = columnar::to_vec(&doc)?;
//! // ids, authors and flags take a few bytes in all (one run each); the Generic columns
//! // take 2 bytes (text) and 1 byte (tag) per edit.
//! assert!(bytes.len() < 100 * 4);
//! assert_eq!(columnar::from_bytes::<Doc>(&bytes)?, doc);
//!
//! // Stream the rows without materializing the Vec.
//! let streamed = columnar::iter_from_bytes::<Doc>(&bytes)?;
//! assert_eq!(streamed.edits.filter_map(Result::ok).count(), 100);
//!
//! // Malformed input is an error with a kind and a byte offset, never a panic.
//! let err = columnar::from_bytes::<Doc>(&bytes[..bytes.len() - 1]).unwrap_err();
//! assert_eq!(err.kind(), columnar::ErrorKind::UnexpectedEnd);
//! # Ok::<(), columnar::Error>(())
//! ```
//!
//! # Specification
//!
//! The wire format is specified in `docs/spec/columnar.md` in the repository: primitives (§3),
//! tables and containers (§4), the column codecs (§5), worked examples in hex (§6), limits (§7),
//! what a decoder rejects (§8) and the differences from `serde_columnar` 0.3.14 (§9). The
//! sections below and the [`codec`] and [`wire`] modules restate it next to the code.
//!
//! The crate has four layers:
//!
//! - [`wire`]: the postcard primitives (varints, zigzag, strings) and a postcard-compatible
//!   serde [`Serializer`](wire::Serializer) / [`Deserializer`](wire::Deserializer) whose
//!   [`Error`] says what went wrong and at which byte.
//! - [`codec`]: the five column codecs — Generic, Rle, DeltaRle, BoolRle, DeltaOfDelta —
//!   each with a streaming encoder, a decoder into `Vec<T>`, a streaming iterator and a column
//!   type. The wire format of every codec is documented there.
//! - the [`columnar`] attribute macro, which turns structs into tables and rows, with
//!   [`to_vec`], [`from_bytes`], [`take_from_bytes`] and [`iter_from_bytes`];
//! - [`iter`]: the traits behind iterable decoding.
//!
//! # The `#[columnar]` attribute
//!
//! It replaces `serde_columnar::columnar`: code written for `serde_columnar` 0.3.14 compiles
//! after renaming the crate, and writes the same bytes. The generated code refers only to
//! this crate, so a user crate needs no `serde` or `postcard` dependency of its own.
//!
//! | on | argument | meaning |
//! | --- | --- | --- |
//! | struct | `ser`, `de` | implement `Serialize` / `Deserialize` with the table layout (do not also derive them) |
//! | struct | `vec`, `map` | the struct can be a row of a `class = "vec"` / `class = "map"` field |
//! | struct | `iterable` | generate `Iterable{Row}<'de>`, an iterator of `Result<Row>` over a container's column streams |
//! | struct | `crate = "path"` | the path of this library, for crates that re-export it (default: the name the user's Cargo.toml gives the `columnar-codec` package, or a `serde_columnar` dependency) |
//! | field | `strategy = "Rle" \| "DeltaRle" \| "BoolRle" \| "DeltaOfDelta"` | the column codec (default: Generic) |
//! | field | `class = "vec" \| "map"` | the field is a container of rows: any `C` with `&C: IntoIterator<Item = &Row>` and `C: FromIterator<Row>` (maps: `(&K, &Row)` / `(K, Row)`) |
//! | field | `optional, index = N` | not positional: written as `(N, bytes)` after the required fields; missing ones decode to `Default`, unknown ones are skipped |
//! | field | `index = N` without `optional` | accepted and ignored, as in `serde_columnar`: the field stays positional |
//! | field | `borrow`, `borrow = "'a + 'b"` | `Cow<'a, str>` / `Cow<'a, [u8]>` decode as `Cow::Borrowed` from the input |
//! | field | `skip` | not written; `Default` on decode |
//! | field | `iter = "Row"` | (table, with `class = "vec"`) `iter_from_bytes` returns `{Table}Iter` whose field is an `Iterable{Row}` |
//!
//! Mistakes are compile errors pointing at the attribute or field: unknown arguments,
//! strategies or classes, `strategy` with `class`, `optional` without `index`,
//! duplicate indexes, an optional field before a required or skipped one, enums, tuple
//! structs and unions, `borrow` on a type without a lifetime, `iter` on a map or without
//! `class`, and a strategy the field type cannot take. Rows have no field-count limit, and
//! generic rows and tables (`Row<'a, T>`) work; a type parameter used in a column must be
//! `'static` (no borrowed `T`), and a table streaming generic rows (`iter = "Row<'a, u16>"`)
//! names their type arguments: a generic table cannot stream a generic row.
//!
//! # Wire format of tables and containers
//!
//! (`docs/spec/columnar.md` §4.)
//!
//! ## Stability
//!
//! The bytes are `serde_columnar` 0.3.14's, checked by differential tests, and will not change
//! within this crate's 0.x and 1.x series. Primitives are postcard 1.x's ([`wire`]); columns
//! are the codecs' ([`codec`]).
//!
//! ## Table (`ser`, `de`)
//!
//! ```text
//! table     := varint(F) required-field* optional-field*
//! optional  := varint(index) varint(len) value[len]
//! ```
//!
//! `F` counts the non-skipped fields, optional ones included. Required fields follow in
//! declaration order, each in its own encoding: postcard for plain fields, a container for
//! `class` fields. Each optional field follows as its index and its encoding in a byte string,
//! in declaration order. Optional fields are always written, even when equal to the default.
//!
//! ## Vec container (`class = "vec"`)
//!
//! ```text
//! vec       := varint(F) column* optional-column*
//! column    := varint(len) codec-output[len]
//! optional-column := varint(index) varint(len(X)) X      X := column
//! ```
//!
//! One column per non-skipped field of the row, in declaration order, each the codec output
//! as a byte string; an optional column is wrapped in a second byte string. A row field with
//! `class` is a Generic column whose values are containers.
//!
//! ## Map container (`class = "map"`)
//!
//! `varint(F + 1)`, the keys as a postcard sequence, then the columns as in a vec container,
//! rows in the map's iteration order.
//!
//! ## Canonical vs accepted
//!
//! | part | written | also accepted | rejected (kind) |
//! | --- | --- | --- | --- |
//! | table | required fields, then every optional field | optional fields missing (→ `Default`), unknown indexes (skipped), optional fields in any order | fewer required fields than the schema (`UnexpectedEnd`), an index given twice (`BadHeader`), bytes after the table (`TrailingBytes`) |
//! | container | all columns of one length | optional columns missing (→ `Default`, to the length of the present columns; 0 rows when none is present), unknown indexes (their body is skipped unread) | columns of different lengths, keys and columns of different lengths (`ColumnLengthMismatch`), a missing required column (`UnexpectedEnd`), an index given twice (`BadHeader`), bytes after a known optional column inside its wrapper (`TrailingBytes`), nesting deeper than the depth limit (`DepthLimitExceeded`, see below), the codecs' errors |
//!
//! Nesting is limited as in [`wire`]: 128 levels by default, or the limit given to
//! [`wire::Deserializer::with_depth_limit`] (then `T::deserialize(&mut deserializer)`). Every
//! level of the table counts against it wherever it sits, including the values of a row's
//! columns, which their codecs decode after the container was read (a container in a row's
//! column, a deep serde value in a Generic or Rle column, the lazy rows of [`iter_from_bytes`]):
//! each container is one level, a map container's keys one more, an optional field's or
//! column's `(index, bytes)` pair one more.
//!
//! `serde_columnar` zips columns of unequal length to the shortest, ignores bytes after a
//! table and keeps the last of two equal indexes; this crate reports each as an error, so a
//! corrupted file is never read as a shorter valid one.
//!
//! Both [`from_bytes`] and the row iterators of [`iter_from_bytes`] build rows from the
//! columns' streaming decoders, one value of each per row, so columns of different lengths
//! are found when the first one ends: [`ErrorKind::ColumnLengthMismatch`] at the first byte
//! of the odd column out (the first that ended early or, when most ended, the first that went
//! on). A row iterator yields that error or a codec error once, then ends.
//!
//! # Switching from `serde_columnar`
//!
//! This crate offers `serde_columnar` 0.3.14's public API under the same names, so a crate
//! that uses it switches by editing Cargo.toml only (see the README: a renamed dependency, or
//! the `serde_columnar` compatibility package in `columnar/compat/` for `[patch.crates-io]`).
//! The `#[columnar]` derive finds this crate under the name the user's Cargo.toml gives it,
//! and `#[columnar(crate = "path")]` names it explicitly.
//!
//! Provided, with `serde_columnar`'s signatures: [`to_vec`], [`from_bytes`],
//! [`iter_from_bytes`], the [`columnar`] attribute; the encoders [`AnyRleEncoder`],
//! [`DeltaRleEncoder`] (not generic), [`BoolRleEncoder`], [`DeltaOfDeltaEncoder`] (not
//! generic, `append(i64)`) with `new` / `append` / `finish`; the decoders [`AnyRleDecoder`],
//! [`DeltaRleDecoder`], [`BoolRleDecoder`], [`DeltaOfDeltaDecoder`] with `new` / `decode` /
//! `try_next` / `finalize` / `take_n_finalize` and `Iterator`; the column types
//! [`RleColumn`], [`DeltaRleColumn`], [`BoolRleColumn`], [`DeltaOfDeltaColumn`],
//! [`GenericColumn`] with [`ColumnTrait`] and [`ColumnAttr`]; the element traits
//! [`Rleable`], [`DeltaRleable`], [`DeltaOfDeltable`]; [`ColumnarVec`], [`ColumnarMap`] and
//! the row traits [`RowSer`], [`RowDe`], [`KeyRowSer`], [`KeyRowDe`] (implemented for every
//! `vec` / `map` row); [`ColumnarEncoder`], [`ColumnarDecoder`]; the module [`iterable`]
//! (`TableIter` and the five column iterators); [`ColumnarError`] with all nine variants;
//! [`PostcardError`]; and the re-exports [`izip!`], [`Itertools`], [`MultiUnzip`].
//!
//! [`ColumnarError`] and [`Error`] are one type: an enum with `serde_columnar`'s variants,
//! each decode or encode variant carrying an [`ErrorDetail`] (kind, byte offset, message).
//! Which variant an error kind lands in is tabled on [`Error`].
//!
//! Deliberately left out or different, and why:
//!
//! - The variants' payloads are [`ErrorDetail`], not `String` / `Box<str>` /
//!   `postcard::Error`: they keep the kind and the offset. Matching `Variant(_)` and
//!   formatting the payload compile unchanged; building a variant from a `String` does not.
//! - Corrupt input is `ColumnarDecodeError` (a kind such as `UnexpectedEnd`) where
//!   `serde_columnar` mostly reports postcard's `SerializeError`; `InvalidStrategy`,
//!   `OverflowError` and `Unknown` are never produced.
//! - The column types' `new(data, attr)` constructor and public `attr` field: the attribute is
//!   always empty in 0.3.14; here `new(data)`, and [`ColumnTrait::attr`] returns it.
//! - `AnyRleEncoder::take_encoder` / `DeltaRleEncoder::take_encoder`: they flush into a
//!   `ColumnarEncoder` and panic when the flush fails; use `finish`.
//! - [`ColumnarEncoder`] / [`ColumnarDecoder`] dereference to this crate's
//!   [`wire::Serializer`] / [`wire::Deserializer`] (same bytes), not to postcard's types.
//! - `DeltaRleEncoder::append` refuses a delta outside `i128` (`RleEncodeError`) where
//!   `serde_columnar` saturates and writes a different value.
//! - [`Rleable`] is a blanket trait as there; [`DeltaRleable`] and [`DeltaOfDeltable`] are
//!   implemented for the integer types (and `bool` for DeltaRle) instead of every
//!   `TryFrom<i128>` type, so a newtype implements them itself.
//! - The `analyze` feature (`AnalyzeResult`, `FieldAnalyze`: a size report for tuning
//!   strategies) and the `bench` feature: tooling, not encoding; `__serde_utils`: helpers of
//!   `serde_columnar`'s own derive output.
//! - Decoders are strict where `serde_columnar` is lenient: see [`codec`] ("Canonical vs
//!   accepted") and the decoders' docs (`take_n_finalize` refuses to stop inside a run).
//!
//! # Speed
//!
//! `cargo bench -p columnar-codec --bench table` encodes, decodes and iterates 1M rows of a
//! change log (seven columns: Rle, DeltaRle, DeltaOfDelta and BoolRle, one `String`) with this
//! crate and with `serde_columnar` 0.3.14 in the same run, after checking that the bytes are
//! equal. Speed relative to `serde_columnar`, one criterion run on a shared 2-core machine
//! (medians; `table/paired` alternating the two call by call gives the same ratios):
//!
//! | | this crate | serde_columnar | ratio | the floor: cloning the rows |
//! | --- | --- | --- | --- | --- |
//! | encode | 11.6 ms | 66.5 ms | 5.7x (paired 5.4-5.6x) | |
//! | decode into a `Vec` | 70.8 ms | 85.4 ms | 1.21x (paired 1.19-1.22x) | 58.4 ms |
//! | iterate ([`iter_from_bytes`]) | 20.2 ms | 34.9 ms | 1.73x (paired 1.70-1.75x) | 10.0 ms |
//!
//! The floor columns are what no decoder can go under: the rows own a `String` each and the
//! decoded `Vec` is 64 MB of fresh memory, so cloning the decoded rows (`floor_clone`)
//! already takes 58.4 ms, which caps any decoder at 85.4 / 58.4 = 1.46x serde_columnar here;
//! iterating, allocating and freeing each row's `String` is half of this crate's time.
//! Encoding compares each value with the previous one; strings and byte vectors are compared
//! inline (`codec/run_eq.rs`) rather than by `memcmp`, whose call cost more than the
//! comparison for short strings; with that and a run's next value counted in place, encode
//! went from 27.6 to 11.6 ms (2.35x -> 5.7x serde_columnar's speed).
#![deny(missing_docs)]

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

pub mod codec;
mod column;
mod compat;
mod container;
mod context;
pub mod error;
pub mod iter;
mod row_hint;
mod strategy;
mod table;
pub mod wire;

/// `serde_columnar`'s module of streaming decoders, under its old name.
pub mod iterable {
    pub use crate::iter::*;
}

pub use codec::{
    AnyRleDecoder, AnyRleEncoder, AnyRleIter, BoolRleColumn, BoolRleDecoder, BoolRleEncoder,
    BoolRleIter, DeltaOfDeltaColumn, DeltaOfDeltaDecoder, DeltaOfDeltaEncoder, DeltaOfDeltaIter,
    DeltaOfDeltable, DeltaRleColumn, DeltaRleDecoder, DeltaRleEncoder, DeltaRleIter, DeltaRleable,
    GenericColumn, GenericEncoder, GenericIter, RleColumn, Rleable,
};
pub use compat::{
    ColumnAttr, ColumnTrait, ColumnarDecoder, ColumnarEncoder, ColumnarMap, ColumnarVec, KeyRowDe,
    KeyRowSer, RowDe, RowSer,
};
/// `serde_columnar`'s name for [`Error`]: the same type, with the same variants.
pub use error::Error as ColumnarError;
pub use error::{Error, ErrorDetail, ErrorKind, Result};
/// `serde_columnar` re-exports these three from `itertools`; so does this crate.
pub use itertools::{izip, Itertools, MultiUnzip};
/// postcard's error, which `serde_columnar` re-exports (it converts into [`Error`]).
pub use postcard::Error as PostcardError;

/// The attribute macro that turns structs into tables and rows; see the crate docs.
pub use columnar_derive::columnar;

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
/// As [`to_vec`], and the writer's I/O errors as [`Error::IOError`].
pub fn to_writer<T: serde::Serialize + ?Sized, W: std::io::Write>(
    mut writer: W,
    value: &T,
) -> Result<()> {
    let bytes = wire::to_vec(value)?;
    writer.write_all(&bytes).map_err(Error::IOError)
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
    pub use crate::codec::{BoolRleable, DeltaOfDeltable, DeltaRleable};
    pub use crate::container::{
        de_error, ColumnsReader, ColumnsWriter, DecodeRows, EncodeRows, MapContainer,
        MapContainerDe, MapRow, OptionalColumn, OptionalEntry, Rows, VecContainer, VecContainerDe,
        VecRow,
    };
    pub use crate::context::DecodeContext;
    pub use crate::iter::{IterContainer, IterRows, OptionalIter, RowStep, TableIter};
    pub use crate::strategy::{
        encode_value, encoder, ser_error, BoolRle, Borrow, Borrowed, Codec, CodecDe, ColumnEncoder,
        ColumnIter, DeltaOfDelta, DeltaRle, Generic, MapClass, Rle, VecClass, Wrapper,
    };
    pub use crate::table::{next_field, table_optionals, Plain};
    pub use crate::{Error, Result};
    pub use serde;
    pub use std::{
        default::Default, fmt, iter::Iterator, marker::PhantomData, option::Option,
        result::Result as StdResult, vec::Vec,
    };
}

/// The crate README's examples (columnar/README.md), compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct CrateReadmeDoctests;
