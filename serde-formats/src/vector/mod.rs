//! VectorSaver: columnar vectors saved with their encodings (seed 001).
//!
//! A failure that depends on a particular arrangement of dictionary, constant or lazy wrappers
//! can be replayed only if the input is saved with those wrappers intact. This module models
//! Velox-style [`Vector`]s (FLAT, CONSTANT, DICTIONARY, LAZY over a [`Type`] tree), writes them
//! with [`save`] / [`to_bytes`] and reads them back with [`restore`] / [`from_bytes`], checking
//! everything Velox's reader takes on trust. [`Vector::value`] reads a row through any encoding,
//! `Display` prints a summary and the first rows, and [`from_rows`] / [`to_rows`] bridge to
//! serde types.
//!
//! ```
//! use serde_formats::vector::{from_bytes, to_bytes, Type, Value, Vector};
//! let base = Vector::from_values(Type::Varchar, &[Value::Varchar("hello".into()), Value::Null])?;
//! let dict = Vector::dictionary(base, vec![0, 1, 0], None)?;
//! let bytes = to_bytes(&dict)?;
//! let back = from_bytes(&bytes)?;
//! assert_eq!(back, dict); // structurally: still a DICTIONARY over a FLAT VARCHAR
//! assert_eq!(back.to_string(), "[DICTIONARY VARCHAR: 3 elements, 1 nulls]\n0: hello\n1: null\n2: hello");
//! # Ok::<(), serde_formats::Error>(())
//! ```
//!
//! # Wire format
//!
//! **Stability.** The layout is Velox's VectorSaver layout (seed 001) with the byte rules of
//! `DESIGN.md`; it will not change within a major version of this crate. [`save`] always writes
//! the *canonical* form below, so equal vectors give equal bytes. [`restore`] also reads the
//! *accepted* forms listed in the table at the end, and turns them into the canonical vector.
//!
//! All integers are little-endian. A *buffer* is an `i32` byte length followed by that many
//! bytes. A *flag* is one byte, 0 or 1 (anything else is [`ErrorKind::BadTag`]).
//!
//! ## Header
//! Every vector starts with `i32` encoding (0 FLAT, 1 CONSTANT, 2 DICTIONARY, 3 LAZY), its type,
//! and `i32` size (the number of rows, not negative).
//!
//! ## Type
//! `i32` kind: BOOLEAN 0, TINYINT 1, SMALLINT 2, INTEGER 3, BIGINT 4, REAL 5, DOUBLE 6,
//! VARCHAR 7, VARBINARY 8, TIMESTAMP 9, HUGEINT 10; ARRAY 30 followed by the element type;
//! MAP 31 followed by the key and value types; ROW 32 followed by `i32` child count and per
//! child a buffer with the UTF-8 name and the child's type. Other kinds are
//! [`ErrorKind::UnknownTypeKind`].
//!
//! ## Nulls
//! A flag, 1 iff at least one row is null, then the nulls buffer: `ceil(size / 8)` bytes, row
//! `i` in bit `i % 8` of byte `i / 8` (LSB first), bit 1 = not null, unused high bits 0.
//!
//! ## FLAT scalar (BOOLEAN ... HUGEINT)
//! Header, nulls, flag 1 (values present), the values buffer, `i32` number of string buffers,
//! the string buffers. Values are `size × width` bytes: TINYINT 1, SMALLINT 2, INTEGER and
//! REAL 4, BIGINT and DOUBLE 8 (floats bit for bit), HUGEINT 16 (`i128`), TIMESTAMP 16 (`i64`
//! seconds, `u64` nanoseconds); BOOLEAN packs bits like the nulls. A null row's value is all
//! zero bytes. Non-string types have 0 string buffers.
//!
//! VARCHAR and VARBINARY values are 16-byte *views*. A string of at most 12 bytes is inline:
//! `u32` length, the bytes, zero padding. A longer one is `u32` length, 4 zero bytes, `u64`
//! offset into the concatenation of the string buffers. The writer puts all long strings into
//! one buffer in row order (1 string buffer, or 0 when no string is longer than 12 bytes); a null
//! row's view is 16 zero bytes. VARCHAR must be valid UTF-8.
//!
//! ## FLAT ROW
//! Header, nulls, `i32` child count (equal to the type's), then per child a flag: 1 when the
//! child vector is null (nothing follows; every field of it reads as null), 0 when the child
//! vector follows. Each child has the field's type and at least `size` rows.
//!
//! ## FLAT ARRAY and MAP
//! ARRAY: header, nulls, sizes buffer (`i32` per row), offsets buffer (`i32` per row), the
//! elements vector. MAP: header, nulls, sizes, offsets, the keys vector, the values vector
//! (the seed omits the two buffers for MAP; without them a map cannot be rebuilt). Row `i`
//! holds entries `offsets[i] .. offsets[i] + sizes[i]`, both non-negative and within the
//! elements (for MAP, within both keys and values). Null rows have offset 0 and size 0.
//!
//! ## CONSTANT
//! Header, is-null flag, is-scalar flag (1 for BOOLEAN ... HUGEINT, 0 for ARRAY, MAP, ROW, also
//! when null). A null constant ends there. A scalar writes its value: `width` bytes (BOOLEAN
//! one byte 0/1), or for strings a 16-byte view followed, when longer than 12 bytes, by a
//! buffer holding the string (the view's offset is 0). A complex constant writes its base vector
//! and an `i32` index below the base's size; it is never null at that index (a null base row
//! is written as the null constant).
//!
//! ## DICTIONARY
//! Header, nulls, indices buffer (`i32` per row, 0 at null rows, else `0 <= index < base
//! size`), the base vector (of the same type).
//!
//! ## LAZY
//! Header, a flag, 1 when the vector was loaded, then the loaded vector (same type, at least
//! `size` rows). An unloaded lazy vector restores as one; reading its values is
//! [`ErrorKind::NotLoaded`].
//!
//! ## Canonical and accepted forms
//!
//! | field | canonical (written) | also accepted (read) |
//! | --- | --- | --- |
//! | nulls flag | 1 iff some row is null | 1 with no null row (read as no nulls) |
//! | nulls, values, sizes, offsets, indices buffers | exactly the bytes `size` rows need | longer (extra bytes ignored, as Velox may save a buffer's capacity); shorter is [`ErrorKind::BadIndex`] |
//! | unused high bits of a bitmap | 0 | anything (ignored) |
//! | value, view, size, offset or index at a null row | zero bytes | anything (ignored, not checked) |
//! | values-present flag | 1 | 0 only for a vector of size 0 |
//! | string buffers | one buffer of the long strings in row order, none if all inline | any number, any layout, views pointing anywhere inside them (even sharing bytes) |
//! | inline view padding, long view bytes 4..8 | zero | anything (ignored) |
//! | constant long string view offset | 0 | anything (ignored) |
//!
//! Everything else is an error: negative sizes, lengths, counts, offsets or indices
//! ([`ErrorKind::BadIndex`]), an index not below the base size, a range past the elements, a
//! long view past the string buffers, a child count different from the type's, a nested vector
//! of the wrong type ([`ErrorKind::TypeMismatch`]), a constant long-string length different
//! from its view's, invalid UTF-8 in names or VARCHAR values, string buffers in a non-string
//! vector ([`ErrorKind::Unsupported`]), nesting deeper than 128 levels of vectors and types
//! together, input ending early ([`ErrorKind::UnexpectedEnd`]), and for [`from_bytes`] bytes
//! after the vector ([`ErrorKind::TrailingBytes`]). Errors carry the byte offset of the bad
//! field; checks that need a whole vector (indices against the base, child types) point at
//! the vector's first byte. [`restore`] never allocates more than 64 KiB beyond the bytes it has
//! actually read, whatever lengths the input claims.
//!
//! Where the seed is silent: TIMESTAMP nanoseconds are kept as written (not checked below
//! 10⁹); a ROW child vector may be longer than the row, as in Velox; lengths are `i32`, so a
//! vector is at most `i32::MAX` rows and a buffer at most `i32::MAX` bytes.
//!
//! [`ErrorKind::BadTag`]: crate::ErrorKind::BadTag
//! [`ErrorKind::UnknownTypeKind`]: crate::ErrorKind::UnknownTypeKind
//! [`ErrorKind::NotLoaded`]: crate::ErrorKind::NotLoaded
//! [`ErrorKind::BadIndex`]: crate::ErrorKind::BadIndex
//! [`ErrorKind::TypeMismatch`]: crate::ErrorKind::TypeMismatch
//! [`ErrorKind::Unsupported`]: crate::ErrorKind::Unsupported
//! [`ErrorKind::UnexpectedEnd`]: crate::ErrorKind::UnexpectedEnd
//! [`ErrorKind::TrailingBytes`]: crate::ErrorKind::TrailingBytes

mod display;
mod restore;
mod rows;
mod save;
mod types;
mod value;
#[allow(clippy::module_inception)] // the brief's layout: `vector/vector.rs` holds the model
mod vector;

pub use restore::{
    from_bytes, restore, restore_with_depth_limit, take_from_bytes, DEFAULT_DEPTH_LIMIT,
};
pub use rows::{from_rows, to_rows};
pub use save::{save, to_bytes};
pub use types::Type;
pub use value::{Timestamp, Value};
pub use vector::{Encoding, Vector, MAX_SIZE};

#[cfg(test)]
mod tests;
