//! The typed-column format: a value as a type array of `u64` words and a data array of bytes.
//!
//! The format comes from a compute engine whose front end reads `type: BigUint64Array` and
//! `data: Uint8Array`. This module makes any serde type fit it, encodes the compressed (dense)
//! descriptions the original only decoded, and reads values in place with [`View`].
//!
//! ```
//! use serde_formats::typed_column::{from_bytes, to_bytes, to_columns};
//!
//! let columns = to_columns(&["hi", "bye"])?;
//! assert_eq!(columns.types, [4, 1, 2, 3, 0, 2, 3, 2, 3]);
//! assert_eq!(columns.data, b"hibye");
//!
//! let bytes = to_bytes(&["hi", "bye"])?;
//! let back: Vec<&str> = from_bytes(&bytes)?; // borrows from `bytes`
//! assert_eq!(back, ["hi", "bye"]);
//! # Ok::<(), serde_formats::Error>(())
//! ```
//!
//! # Wire format
//!
//! Specified in `docs/spec/typed-column.md` (worked examples in §5, decoder errors in §7,
//! differences from the original engine in §8); the sections below restate it.
//!
//! ## Stability
//! The layout below is fixed: bytes written by this version will be read by every later version
//! of this crate, and what it accepts will stay accepted. Encoder output is canonical (see the
//! table at the end) and changes only with a major version.
//!
//! ## Type descriptions
//! The type array is a sequence of descriptions of three words `[kind][offset][length]`; its
//! length must be a multiple of 3 ([`ErrorKind::TypeArrayLength`]) and not 0. Description 0 is
//! the value. Kinds ([`Kind`]): `0` Boolean, `1` Fraction, `2` Float, `3` String, `4` Column;
//! any other number is [`ErrorKind::UnknownKind`]. For an atom, `offset` and `length` are a
//! byte range of the data array ([`ErrorKind::OutOfBounds`] if outside it); Boolean, Fraction
//! and Float must have lengths 1, 16 and 8. For a Column, `length` is its number of children and
//! `offset` the index of the first child's description: the children are the descriptions
//! `offset..offset + length`. Children come after their parent ([`ErrorKind::ChildOrder`]), lie
//! inside the type array ([`ErrorKind::OutOfBounds`]), and every description other than the root
//! is the child of exactly one column ([`ErrorKind::NotATree`]). The offset of an empty column is
//! not used.
//!
//! Data layouts, all little-endian: Boolean one byte, 0 false, anything else true. Fraction 16
//! bytes, `i64` numerator then `i64` denominator, sign in the numerator, not normalised, and a
//! denominator of 0 meaning ±∞ ([`Fraction`]). Float 8 bytes, `f64`. String the UTF-8 bytes
//! ([`ErrorKind::InvalidUtf8`] otherwise). The data array ends with the last byte any atom uses
//! ([`ErrorKind::TrailingBytes`] otherwise); before that it may hold bytes no description uses,
//! and descriptions may share bytes; neither is canonical.
//!
//! ## Compressed (dense) descriptions
//! A description whose kind word has the top bit set (`1 << 63`) is compressed. A Column
//! `[4][d][n]` immediately followed by a compressed description is dense: its `n` elements are
//! stored back to back from data byte `d`, and the descriptions that follow form a chain with
//! one description per nesting level:
//!
//! * `[k'][c][s]` with `k` Boolean, Fraction or Float: `c` atoms of `s` bytes (`s` must be the
//!   kind's size). This ends the chain.
//! * `[4'][c][m]`: `c` columns of `m` elements each; the next level holds `c × m` elements.
//!   `m` is at least 1 unless `c` is 0, so no level holds more elements than the atoms do.
//!
//! The first level's count is `n`, each next level's count is the level above's `c × m`, and the
//! atoms end inside the data. A compressed description is only followed by compressed
//! descriptions or by nothing, so the chain ends the type array and there is at most one dense
//! column. Breaking these rules is [`ErrorKind::MisplacedCompressed`] (compressed root, a
//! compressed description not after a column, an uncompressed one after a compressed one, a
//! compressed String, a chain not ending in atoms), or [`ErrorKind::OutOfBounds`] (counts that
//! disagree, `count × size` overflowing, atoms past the data). The example
//! `[4][0][3] [0'][3][1]` (`docs/spec/typed-column.md` §5.5) is a column of three Booleans at
//! bytes 0, 1 and 2.
//!
//! The encoder writes a column dense when its subtree is hyperrectangular with fixed-size leaves
//! (all elements atoms of one kind, or all columns of one such shape: a `Vec<f64>`, a matrix
//! `Vec<Vec<f64>>` with equal rows, a `Vec<Point>` of `struct Point { x: f64, y: f64 }`), it has
//! at least one element, and its description ends the type array once the value is complete: the
//! root, or the last column written, such as a trailing `Vec<f64>` field. The outermost such column
//! is the one made dense. [`Serializer::with_compression`] turns this off.
//!
//! ## Framing
//! [`to_bytes`] and [`to_writer`] write one buffer: the number of type words as a `u64` LE,
//! the type words as `u64` LE, then the data array to the end of the buffer. A count claiming
//! more words than follow is [`ErrorKind::LengthPastEnd`]; fewer than 8 bytes is
//! [`ErrorKind::UnexpectedEnd`]. Nothing records the data length, so a frame cannot be followed
//! by other bytes: there is no `take_from_bytes`, and [`from_reader`] reads to the end.
//!
//! ## serde data model
//! * **bool**: Boolean.
//! * **i8–i64, u8–u64, i128, u128**: Fraction with denominator 1. Values outside `i64` are
//!   [`ErrorKind::IntegerOverflow`] when writing. Reading an integer accepts any Fraction equal
//!   to an integer that fits the type (`6/3` reads as `2`); otherwise the error names the value
//!   and the type (`IntegerOverflow` if it does not fit, `Unsupported` if it is not an integer).
//! * **f32, f64**: Float (an `f32` widened). Reading a float accepts a Float or a Fraction
//!   (`num / den`, ±∞ for a zero denominator, NaN for `0/0`).
//! * **char, str, String**: String. Reading `&str` borrows from the data. A char must be a
//!   String of exactly one char ([`ErrorKind::InvalidChar`]).
//! * **bytes**: a Column of integers (each byte a Fraction); reading bytes also accepts a String.
//! * **unit, unit struct, None**: the empty Column, written `[4][0][0]`.
//! * **Some(v)**: a Column of one child, `v`.
//! * **newtype struct**: its value, except [`Fraction`] which is the Fraction kind.
//! * **seq, tuple, tuple struct, struct**: a Column of the elements or fields in order. Field
//!   names are not written, so fields are positional: `#[serde(skip_serializing_if)]`,
//!   `flatten` and other name-driven attributes are not supported (skipping a field is an
//!   [`ErrorKind::Unsupported`] error rather than silently shifting the others). A column with
//!   elements left unread by the visitor is an error.
//! * **map**: a Column of entries, each a Column `[key, value]`. Keys may be any value.
//! * **enum**: a unit variant is its name as a String; any other variant is a Column
//!   `[name, payload]` where the payload is the newtype value, or a Column of the tuple or struct
//!   variant's fields. Reading a variant name also accepts its index as an integer Fraction.
//! * **deserialize_any** (self-describing input, e.g. into `serde_json::Value`): Boolean → bool,
//!   Fraction with denominator 1 → `i64`, other Fractions → `f64`, Float → `f64`, String →
//!   borrowed str, Column → sequence. So maps come back as sequences of pairs and unit/None as
//!   empty sequences: the format has no separate map or null kinds.
//!
//! ## Limits and errors
//! **Depth.** The depth of a description is the number of Columns on the path from the root
//! to it, itself included: an atom alone is depth 0, `vec![1]` and `()` (an empty Column) are
//! depth 1, `Some(vec![1])` is 2, a map's entries sit one deeper than the map. Every Column of a
//! value must be at depth at most [`DEFAULT_DEPTH_LIMIT`] (128), whatever Rust type reads it.
//! The [`Serializer`] refuses a value with a deeper Column and the [`Deserializer`] refuses such
//! input, both with [`crate::ErrorKind::DepthLimitExceeded`] and
//! a message naming the limit (the reader adds the type word); both take `with_depth_limit`.
//! [`View`] does not recurse and needs no limit. Lengths and offsets are checked against the
//! arrays before use; nothing is allocated in proportion to an unchecked length. Errors carry an
//! [`ErrorKind`] and a [`Position`](crate::Position): `TypeWord(i)` for description `i`, or
//! `Byte(b)` for byte `b` of the data array (of the whole buffer for framing errors).
//!
//! ## Canonical and accepted encodings
//!
//! | value | canonical (written) | also accepted |
//! | --- | --- | --- |
//! | Boolean | data byte 0 or 1 | any non-zero byte as true |
//! | empty Column | `[4][0][0]` | any offset |
//! | hyperrectangular Column ending the array | dense `[4][d][n]` + chain (compression on) | one description per value |
//! | other Columns | children reserved depth first: a column's children follow everything reserved before it | any layout where children follow their parent and form a tree |
//! | integer | Fraction `n/1` | any Fraction equal to an integer in range |
//! | float | Float | Fraction |
//! | bytes | Column of Fractions | String |
//! | enum variant | its name, a String | its index, an integer Fraction |
//! | data array | bytes in serde order, each used once | unused or shared bytes before the last used byte |
//!
//! # Speed
//!
//! `cargo bench -p serde-formats --bench typed_column structs_100k` (100k structs of a `u32`,
//! two `f64`, a `String` and a `bool`; criterion medians on a 2-core machine, speed relative to
//! serde_json in the same run). Three runs, alternated with the previous writer: [`to_bytes`]
//! 2.8–2.9× `serde_json::to_vec` and [`to_columns`] 3.3–3.5×. Reading, two runs:
//! [`from_bytes`] 3.1–3.2× and [`from_columns`] 3.2–3.3× `serde_json::from_slice`. With a
//! fuzzer busy on the other core every ratio spreads by ±0.5 either way (2.2–3.7× in two runs);
//! a quick `bench-table` run gave 2.90, 3.57, 3.03 and 2.88. Later, on a noisier machine (six
//! alternated runs of 2 s, medians), [`from_bytes`] went from 2.7× to 3.0× serde_json when the
//! pass over the type array described below was removed (13.65 → 13.0 ms). The framed output
//! is 2.0× JSON's size: 18 type words (144 bytes) per struct, its own description and one per
//! field, against 44 data bytes.
//!
//! On the read side (callgrind, [`from_bytes`] inclusive) a struct costs about 750 instructions
//! against serde_json 1.0.154's 2,760: a third is malloc and free (the `String`, the `Vec`
//! growing), about 20 the UTF-8 check of the name (one pass for all-ASCII bytes before the
//! general check, which took 115 of the 867 a struct cost before it; inlining the string and
//! struct entry points took another 26), and the rest reading six descriptions on typed fast
//! paths (an ordinary
//! path, taken for anything unusual, reports the errors) and the tree check, kept as one run of
//! claims while columns' children follow each other. The type array (144 bytes a struct, 14 MB
//! for 100k) is read once: the dense chain is found from its end, and a compressed description
//! anywhere else is caught when the walk reaches it, so no separate pass looks for one. That
//! pass cost few instructions but 5–10% of the read time, all of it waiting on memory.
//!
//! Where the write time goes: per struct about 535 instructions against serde_json's 1,440
//! (callgrind). A struct that reserves its fields' descriptions as it opens (every struct of a
//! sequence after the first that was not uniform) takes no frame: its fields go straight to
//! their slots, counted in the compound serializer, instead of looking up the open frame for
//! each field and pushing and popping a frame per struct. That took 610 instructions to 535,
//! and `to_bytes` from 2.2–2.5× to 2.8–2.9× serde_json. Each field still costs a call into
//! serde's out-of-line `f64::serialize` and the like, about 55 instructions with the data and
//! description stores. [`to_bytes`] trails [`to_columns`] by the copy of the data array behind
//! the type words when it frames them. An element of a sequence pays one compare
//! for its column's phase: only the first two elements of a long column size the arrays, and a
//! short column (a struct's fields) starts past that phase. An ordinary `Vec<f64>` (or slice)
//! does not pay even that: serde hands it over through `collect_seq`, which feeds the floats
//! to the dense path of [`crate::dense`] one by one, 16 instructions a float with the copy into
//! the frame (42 before), and the reader answers serde's requests for `f64` elements of a
//! dense-chain column straight from the data (24 a float, 30 before). The rest is memory: every byte
//! of the output lands in freshly allocated pages, and faulting those in costs as much as
//! writing them on the machines we measure. So the arrays are sized once from a long column's
//! second element, with a quarter to spare (an underestimate meant one more copy of the whole
//! array at the end: 2–4× slower in a plain loop); the type words are built in the form the
//! caller asked for, little-endian after room for the frame count for [`to_bytes`] (framing
//! then appends the smaller array to the larger) and native for [`to_columns`] (handed over as
//! is); and a column after a non-uniform sibling reserves its slots when it opens.

mod claims;
mod de;
mod fraction;
mod layout;
mod ser;
mod ser_compound;
mod type_array;
mod view;
mod wire;
mod words;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

pub use de::{Deserializer, DEFAULT_DEPTH_LIMIT};
pub use fraction::Fraction;
pub use ser::{Serializer, ValueSerializer};
pub use ser_compound::{MapSerializer, SeqSerializer};
pub use view::{Iter, View};
pub use wire::Kind;

#[cfg(doc)]
use crate::error::ErrorKind;
use crate::error::Result;

/// The two arrays of a value: type descriptions and data.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TypedColumns {
    /// The type descriptions, three words each.
    pub types: Vec<u64>,
    /// The data the atoms point into.
    pub data: Vec<u8>,
}

impl TypedColumns {
    /// The framed form: type word count (`u64` LE), type words (`u64` LE), data.
    ///
    /// ```
    /// use serde_formats::typed_column::to_columns;
    ///
    /// let bytes = to_columns(&true)?.to_bytes();
    /// assert_eq!(bytes, [3, 0, 0, 0, 0, 0, 0, 0, /* types */ 0, 0, 0, 0, 0, 0, 0, 0,
    ///     0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, /* data */ 1]);
    /// # Ok::<(), serde_formats::Error>(())
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(8 + self.types.len() * 8 + self.data.len());
        write_head(&mut bytes, &self.types);
        bytes.extend_from_slice(&self.data);
        bytes
    }
}

/// Appends the frame head: the type word count and the type words, little-endian.
fn write_head(bytes: &mut Vec<u8>, types: &[u64]) {
    bytes.extend_from_slice(&(types.len() as u64).to_le_bytes());
    let start = bytes.len();
    bytes.resize(start + types.len() * 8, 0);
    // One pass over a pre-sized buffer: a tight loop instead of a capacity check per word.
    for (chunk, word) in bytes[start..].chunks_exact_mut(8).zip(types) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
}

/// Serializes `value` into its two arrays, with compressed descriptions where allowed.
///
/// # Errors
/// An integer outside `i64`, a skipped struct field, a `Serialize` impl whose length hint is
/// wrong, or a custom error from the `Serialize` impl.
///
/// ```
/// use serde_formats::typed_column::to_columns;
///
/// let columns = to_columns(&vec![true, false, true])?;
/// assert_eq!(columns.types, [4, 0, 3, (1 << 63), 3, 1]); // [4][0][3] [0'][3][1]
/// assert_eq!(columns.data, [1, 0, 1]);
/// # Ok::<(), serde_formats::Error>(())
/// ```
pub fn to_columns<T: ?Sized + Serialize>(value: &T) -> Result<TypedColumns> {
    let mut serializer = Serializer::new();
    value.serialize(&mut serializer)?;
    serializer.into_columns()
}

/// Serializes `value` into one framed buffer (see [`TypedColumns::to_bytes`]).
///
/// # Errors
/// As [`to_columns`].
///
/// ```
/// use serde_formats::typed_column::to_bytes;
///
/// let bytes = to_bytes("Hello")?;
/// assert_eq!(&bytes[..8], &3u64.to_le_bytes());
/// assert_eq!(&bytes[8..32], [3u64, 0, 5].map(u64::to_le_bytes).concat());
/// assert_eq!(&bytes[32..], b"Hello");
/// # Ok::<(), serde_formats::Error>(())
/// ```
pub fn to_bytes<T: ?Sized + Serialize>(value: &T) -> Result<Vec<u8>> {
    let mut serializer = Serializer::new().framed();
    value.serialize(&mut serializer)?;
    serializer.into_bytes()
}

/// Serializes `value` as one framed buffer into `writer`.
///
/// # Errors
/// As [`to_columns`], plus [`ErrorKind::Io`] from the writer.
///
/// ```
/// use serde_formats::typed_column::{to_bytes, to_writer};
///
/// let mut out = Vec::new();
/// to_writer(&mut out, &["hi", "bye"])?;
/// assert_eq!(out, to_bytes(&["hi", "bye"])?);
/// # Ok::<(), serde_formats::Error>(())
/// ```
pub fn to_writer<W: std::io::Write, T: ?Sized + Serialize>(writer: W, value: &T) -> Result<()> {
    let mut serializer = Serializer::new();
    value.serialize(&mut serializer)?;
    serializer.write_frame(writer)
}

/// Reads a framed buffer to the end of `reader` and deserializes an owned `T` from it.
///
/// The frame does not record the data length (the data runs to the end of the buffer), so the
/// reader must hold exactly one value; for the same reason there is no `take_from_bytes`.
///
/// # Errors
/// As [`from_bytes`], plus [`ErrorKind::Io`] from the reader.
pub fn from_reader<R: std::io::Read, T: DeserializeOwned>(mut reader: R) -> Result<T> {
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes)?;
    from_bytes(&bytes)
}

/// Deserializes a `T` from the two arrays, borrowing strings from `data`.
///
/// # Errors
/// Malformed input (see the module docs: every error has a kind and a type-description index or
/// data byte offset), input of another shape than `T`, or nesting deeper than 128.
///
/// ```
/// use serde_formats::typed_column::from_columns;
///
/// let types = [4, 1, 2, 4, 3, 2, 4, 5, 2, 3, 0, 1, 3, 1, 1, 3, 2, 1, 3, 3, 1];
/// let value: Vec<Vec<&str>> = from_columns(&types, b"abcd")?;
/// assert_eq!(value, [["a", "b"], ["c", "d"]]);
/// # Ok::<(), serde_formats::Error>(())
/// ```
pub fn from_columns<'de, T: Deserialize<'de>>(types: &'de [u64], data: &'de [u8]) -> Result<T> {
    let mut deserializer = Deserializer::from_columns(types, data)?;
    let value = T::deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

/// Deserializes a `T` from a framed buffer, borrowing strings from it.
///
/// # Errors
/// As [`from_columns`], plus truncated framing.
pub fn from_bytes<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> Result<T> {
    let mut deserializer = Deserializer::from_bytes(bytes)?;
    let value = T::deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

#[cfg(test)]
mod claims_tests;
#[cfg(test)]
mod layout_tests;
#[cfg(test)]
mod limit_tests;
#[cfg(test)]
mod tests;
