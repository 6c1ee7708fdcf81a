//! VectorSaver: columnar vectors saved with their encodings, as Velox's `saveVector` writes them.
//!
//! A failure that depends on a particular arrangement of dictionary, constant or lazy wrappers
//! can be replayed only if the input is saved with those wrappers intact. This module models
//! Velox [`Vector`]s (FLAT, CONSTANT, DICTIONARY, LAZY over a [`Type`] tree), writes them with
//! [`save()`] / [`to_bytes`] and reads them back with [`restore()`] / [`from_bytes`], checking
//! everything Velox's reader takes on trust. [`Vector::value`] reads a row through any encoding,
//! `Display` prints a summary and the first rows, and [`from_rows`] / [`to_rows`] bridge to
//! serde types. Files written by Velox (`facebook::velox::saveVector`, pyvelox's
//! `save_vector`) restore, and Velox restores the files [`save()`] writes; both directions are
//! tested against pyvelox 0.2.0 (`tests/tests/velox_interop.rs`). With the cargo feature
//! `arrow`, `to_arrow` / `from_arrow` convert between vectors and arrow-rs arrays (type mapping
//! and encoding choices in the `arrow` module's docs; dictionaries stay dictionaries,
//! constants become run-end encoded arrays), tested against pyarrow and pyvelox (`tests/tests/vector_arrow.rs`).
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
//! Specified in `docs/spec/vector-saver.md` (worked examples from Velox's own files in §5,
//! decoder errors in §7, differences from Velox in §8); the sections below restate it.
//!
//! **Stability.** The layout is Velox's `VectorSaver` layout (`velox/vector/VectorSaver.cpp`),
//! which has no magic number and no version. [`save()`] always writes the *canonical* form below,
//! so equal vectors give equal bytes. [`restore()`] also reads the *accepted* forms listed in the
//! table at the end, which Velox writes too, and turns them into the canonical vector.
//!
//! **The layout of Velox's prose description is not read.** Earlier versions of this crate
//! followed the VectorSaver documentation, which describes types as `i32` kind numbers, a
//! string-buffer count after every flat vector, ROW child flags with the opposite meaning,
//! ARRAY/MAP sizes before offsets and an is-scalar byte after a null constant
//! (`docs/spec/vector-saver.md` §8.2). Velox never wrote that layout. A file in it could be told
//! apart by its type (a kind number of at most 32 where Velox has a JSON length followed by `{`),
//! but reading it needs a second reader for every other difference, for files nobody but this crate
//! wrote; it was dropped. Such files fail with [`ErrorKind::BadType`] or
//! [`ErrorKind::UnexpectedEnd`].
//!
//! All integers are little-endian. A *buffer* is an `i32` byte length followed by that many
//! bytes. A *flag* is one byte, 0 or 1 (anything else is [`ErrorKind::BadTag`]; Velox itself
//! writes only 0 and 1).
//!
//! ## Header
//! Every vector, nested ones too, starts with `i32` encoding (0 FLAT, also for ROW, ARRAY and
//! MAP; 1 CONSTANT; 2 DICTIONARY; 3 LAZY), its type, and `i32` size (the number of rows, not
//! negative).
//!
//! ## Type
//! A buffer holding Velox's type JSON (`Type::serialize()`), UTF-8. [`save()`] writes the keys in
//! the order `name`, `type`, then `precision`, `scale` (DECIMAL), `names` (ROW), `cTypes`
//! (ARRAY, MAP, ROW), without spaces: `{"name":"Type","type":"BIGINT"}`,
//! `{"name":"DateType","type":"DATE"}`,
//! `{"name":"Type","type":"DECIMAL","precision":10,"scale":2}`,
//! `{"name":"Type","type":"ARRAY","cTypes":[...]}`,
//! `{"name":"Type","type":"ROW","names":["a"],"cTypes":[...]}`. Velox's own key order varies
//! from file to file (folly objects are hash maps), so [`restore()`] parses the JSON, in any
//! order, and goes by `type` as Velox does (`name` is not checked). Known types: BOOLEAN,
//! TINYINT, SMALLINT, INTEGER, BIGINT, REAL, DOUBLE, VARCHAR, VARBINARY, TIMESTAMP, HUGEINT,
//! DATE, DECIMAL(p, s), INTERVAL DAY TO SECOND, INTERVAL YEAR TO MONTH, JSON, UNKNOWN, ARRAY,
//! MAP, ROW; any other is [`ErrorKind::UnknownTypeKind`] naming it (OPAQUE and the other custom
//! types of Velox's function libraries are not supported). A type nests at most
//! [`TYPE_DEPTH_LIMIT`] levels, on both sides.
//!
//! ## Nulls
//! A flag, then if 1 the nulls buffer: row `i` in bit `i % 8` of byte `i / 8` (LSB first), bit
//! 1 = not null. [`save()`] writes the flag 1 iff some row is null, `ceil(size / 8)` bytes, unused
//! high bits 0.
//!
//! ## FLAT scalar
//! Header, nulls, flag 1 (values present), the values buffer. Values are `size × width` bytes:
//! TINYINT 1, SMALLINT 2, INTEGER, DATE (days), INTERVAL YEAR TO MONTH (months) and REAL 4,
//! BIGINT, INTERVAL DAY TO SECOND (milliseconds), DOUBLE and DECIMAL up to precision 18
//! (unscaled `i64`) 8, HUGEINT and DECIMAL above 18 (unscaled `i128`) 16, TIMESTAMP 16 (`i64`
//! seconds, `u64` nanoseconds); floats bit for bit; BOOLEAN packs bits like the nulls. A null
//! row's value is all zero bytes. Nothing follows, except for the string types. UNKNOWN (every
//! row null) writes the nulls and flag 0: no values buffer.
//!
//! VARCHAR, VARBINARY and JSON values are 16-byte *views*, followed by `i32` number of string
//! buffers and the string buffers. A string of at most 12 bytes is inline: `u32` length, the
//! bytes, zero padding. A longer one is `u32` length, 4 zero bytes, `u64` offset into the
//! concatenation of the string buffers. The writer puts all long strings into one buffer in row
//! order (1 string buffer, or 0 when no string is longer than 12 bytes); a null row's view is
//! 16 zero bytes. VARCHAR and JSON must be valid UTF-8.
//!
//! ## FLAT ROW
//! Header, nulls, `i32` child count (equal to the type's), then per child a flag: 1 when the
//! child vector follows, 0 when the child is absent (Velox's `nullptr` child; every field of it
//! reads as null). Each child has the field's type and at least `size` rows.
//!
//! ## FLAT ARRAY and MAP
//! ARRAY: header, nulls, offsets buffer (`i32` per row), sizes buffer (`i32` per row), the
//! elements vector. MAP: header, nulls, offsets, sizes, the keys vector, the values vector.
//! Row `i` holds entries `offsets[i] .. offsets[i] + sizes[i]`, both non-negative and within
//! the elements (for MAP, within both keys and values). Null rows have offset 0 and size 0.
//!
//! ## CONSTANT
//! Header, is-null flag. A null constant ends there. Otherwise an is-scalar flag: 1 for a value
//! written in place, `width` bytes (BOOLEAN one byte 0/1), or for strings a 16-byte view
//! followed, when longer than 12 bytes, by a buffer holding the string (the view's offset is
//! 0); 0 for a base vector and an `i32` index below the base's size. [`save()`] writes scalar
//! types in place and ARRAY, MAP and ROW as base and index (never null at that index: a null
//! base row is written as the null constant).
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
//! | field | canonical (written) | also accepted (read), as Velox writes it |
//! | --- | --- | --- |
//! | type JSON | keys in the order above, no spaces | any key order, whitespace, any `name` |
//! | nulls flag | 1 iff some row is null | 1 with no null row (read as no nulls) |
//! | nulls, values, offsets, sizes, indices buffers | exactly the bytes `size` rows need | longer (extra bytes ignored: Velox saves a buffer's capacity, e.g. `size + 1` offsets from Arrow); shorter is [`ErrorKind::BadIndex`] |
//! | unused high bits of a bitmap | 0 | anything (ignored) |
//! | value, view, size, offset or index at a null row | zero bytes | anything (ignored, not checked: Velox leaves uninitialised memory there) |
//! | values-present flag | 1 (0 for UNKNOWN) | 0 also for a vector of size 0 |
//! | string buffers | one buffer of the long strings in row order, none if all inline | any number, any layout, views pointing anywhere inside them (even sharing bytes, inline strings in the buffer too) |
//! | inline view padding, long view bytes 4..8 | zero | anything (ignored) |
//! | constant long string view bytes 4..16 | 4-byte prefix zero, offset 0 | anything (Velox writes a memory address) |
//! | scalar constant | is-scalar 1 and the value | is-scalar 0, a base vector and an index (Velox does this for a value held in a base, e.g. over a lazy vector): the value is copied out; over an unloaded lazy base the base is kept and written back as it came |
//! | UNKNOWN flat | nulls all 0, no values | any nulls and values (every row reads null) |
//!
//! Everything else is an error: negative sizes, lengths, counts, offsets or indices
//! ([`ErrorKind::BadIndex`]), an index not below the base size, a range past the elements, a
//! long view past the string buffers, a child count different from the type's, a nested vector
//! of the wrong type ([`ErrorKind::TypeMismatch`]), a non-null UNKNOWN constant, a constant
//! long-string length different from its view's, invalid UTF-8 in the type JSON or in VARCHAR
//! and JSON values, nesting deeper than 128 levels of vectors, input ending early
//! ([`ErrorKind::UnexpectedEnd`]), and for [`from_bytes`] bytes after the vector
//! ([`ErrorKind::TrailingBytes`]). Errors carry the byte offset of the bad field (for type JSON
//! that does not parse, of the offending byte); checks that need a whole vector (indices
//! against the base, child types) point at the vector's first byte. [`restore()`] reads each
//! buffer straight into its allocation, which grows with the bytes that arrive: it never
//! allocates more than four times the bytes it has actually read plus 64 KiB, whatever lengths the
//! input claims; what it builds is a small multiple of those bytes (the type JSON is parsed
//! straight into the type, not into a JSON tree, and a flat UNKNOWN vector keeps no bitmap).
//!
//! Where Velox is silent: TIMESTAMP nanoseconds are kept as written (not checked below 10⁹); a
//! ROW child vector may be longer than the row, as in Velox; lengths are `i32`, so a vector is
//! at most `i32::MAX` rows and a buffer at most `i32::MAX` bytes; a DECIMAL value built with
//! [`Vector::from_values`] must have the type's scale and fewer digits than its precision
//! (values read from a file are kept as written).
//!
//! [`ErrorKind::BadType`]: crate::ErrorKind::BadType
//! [`ErrorKind::BadTag`]: crate::ErrorKind::BadTag
//! [`ErrorKind::UnknownTypeKind`]: crate::ErrorKind::UnknownTypeKind
//! [`ErrorKind::NotLoaded`]: crate::ErrorKind::NotLoaded
//! [`ErrorKind::BadIndex`]: crate::ErrorKind::BadIndex
//! [`ErrorKind::TypeMismatch`]: crate::ErrorKind::TypeMismatch
//! [`ErrorKind::Unsupported`]: crate::ErrorKind::Unsupported
//! [`ErrorKind::UnexpectedEnd`]: crate::ErrorKind::UnexpectedEnd
//! [`ErrorKind::TrailingBytes`]: crate::ErrorKind::TrailingBytes

#[cfg(feature = "arrow")]
pub mod arrow;
#[cfg(feature = "arrow")]
mod arrow_values;
mod build;
mod check;
mod display;
mod restore;
mod rows;
mod save;
mod scalar;
mod strings;
mod types;
mod value;
#[allow(clippy::module_inception)] // the brief's layout: `vector/vector.rs` holds the model
mod vector;

#[cfg(feature = "arrow")]
pub use arrow::{arrow_type, from_arrow, into_arrow, to_arrow, type_from_arrow};
pub use restore::{
    from_bytes, restore, restore_with_depth_limit, restore_with_len, take_from_bytes,
    DEFAULT_DEPTH_LIMIT,
};
pub use rows::{from_rows, to_rows};
pub use save::{save, to_bytes};
pub use types::{Type, MAX_DECIMAL_PRECISION, TYPE_DEPTH_LIMIT};
pub use value::{Timestamp, Value};
pub use vector::{Encoding, Vector, MAX_SIZE};

#[cfg(test)]
mod tests;
