//! Canonical DyND bytes: one byte string per value, for content-addressed storage.
//!
//! This is the serialization proposed for libdynd with every open point fixed: each
//! value of a given type has exactly one encoding, the decoder accepts only that encoding, and
//! [`digest`] (SHA-256 of the bytes) is therefore a content address usable in a Merkle DAG.
//! Only data is written, never types; [`Array`] pairs a value with its datashape [`Type`] for
//! self-describing files (`array[Any]`).
//!
//! ```
//! use serde::{Deserialize, Serialize};
//! use serde_formats::dynd;
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Point<'a> {
//!     x: i32,
//!     y: Option<&'a str>,
//! }
//!
//! let bytes = dynd::to_bytes(&Point { x: 1, y: Some("a") }).unwrap();
//! assert_eq!(bytes, [0x01, 0x00, 0x00, 0x00, 0x01, 0x01, b'a']);
//! let point: Point = dynd::from_bytes(&bytes).unwrap();
//! assert_eq!(point, Point { x: 1, y: Some("a") });
//! ```
//!
//! # Wire format
//!
//! Specified in `docs/spec/dynd.md` (worked examples in §5, decoder errors in §7, differences
//! from the DyND proposal in §8); the sections below restate it.
//!
//! ## Stability
//! The bytes of a value never change: they are the value's content address. A release of this
//! crate that changes the bytes of any value is a breaking (major) release, and will not happen
//! without a new format name. Additions only ever make the decoder accept types it did not
//! know before; never new encodings of known types.
//!
//! ## Integers and floats (`i8`..`i128`, `u8`..`u128`, `f32`, `f64`)
//! Little-endian, full width (`int8`..`int128`, `uint8`..`uint128`, `float32`, `float64`).
//! Floats are written bit-exact: `-0.0` stays `-0.0`, NaN payloads are kept as they are. `usize`
//! and `isize` go through serde as `u64` / `i64`.
//!
//! ## `bool`
//! One byte, `00` (false) or `01` (true).
//!
//! ## `char`
//! The UTF-8 bytes of the code point, 1 to 4 bytes, no length (`char`).
//!
//! ## `str`, `String`, `&[u8]` (serde bytes)
//! Unsigned LEB128 byte length, then the bytes (`string`, `bytes`). A `Vec<u8>` goes through serde
//! as a sequence of `u8`, which gives the same bytes.
//!
//! ## `Option<T>`
//! DyND's missing-value sentinels where the payload type has one, else a tag (`?T`):
//!
//! | payload | `None` | `Some(v)` |
//! | --- | --- | --- |
//! | `bool` | `02` | `00` / `01` |
//! | `i8`..`i128` | `MIN`, e.g. `?int8` is `80` | `v`; `Some(MIN)` is an encode error |
//! | `u8`..`u128` | `MAX`, e.g. `?uint16` is `ff ff` | `v`; `Some(MAX)` is an encode error |
//! | `f32` | bits `0x7f8007a2`: `a2 07 80 7f` | `v`; `Some(NaN)` (any NaN) is an encode error |
//! | `f64` | bits `0x7ff00000000007a2`: `a2 07 00 00 00 00 f0 7f` | `v`; `Some(NaN)` is an encode error |
//! | anything else | `00` | `01` then `v` |
//!
//! serde gives a format neither a value nor a type for `None`, so the choice is made from the
//! Rust type: the serializer sees the static type of every value it is handed
//! (`serialize_field::<Option<i8>>`, ...) and the deserializer sees the type the visitor
//! produces (`Option<i8>`) before it reads a byte. The rule is: **`Option<P>` uses the sentinel
//! exactly when `P` is `bool`, an integer or a float primitive** (also behind `&`, `Box`, `Rc`,
//! `Arc`). A newtype around a primitive (`Option<Meters>`) uses the tag. A custom `Serialize`
//! that calls `serialize_none` itself (for example a `#[serde(transparent)]` wrapper around an
//! `Option`) is an encode error, since its sentinel cannot be chosen.
//!
//! ## `()`, unit structs
//! No bytes (`void`).
//!
//! ## Newtype structs
//! The inner value, nothing around it.
//!
//! ## Tuples, tuple structs, arrays `[T; N]`, structs
//! The fields one after the other, no count and no names (`N * T`, `(T0, T1)`, `{x: T0}`).
//!
//! ## Sequences (`Vec<T>`, `&[T]`, sets)
//! Unsigned LEB128 element count, then the elements (`var * T`). A `HashSet` writes in its
//! iteration order; use a `BTreeSet` (or sort) for canonical bytes.
//!
//! ## Maps
//! Unsigned LEB128 entry count, then each key followed by its value (`var * (K, V)`), **sorted by
//! the bytes of the encoded key**, shortest first where one key's bytes prefix another's. Two
//! keys with the same bytes are an encode error. So a `HashMap` and a `BTreeMap` with the same
//! entries give the same bytes (note that bytewise order of little-endian integers is not their
//! numeric order).
//!
//! ## Enums (not in DyND)
//! Unsigned LEB128 variant index (at most `u32::MAX`), then the payload like a newtype, tuple or
//! struct; a unit variant is the index alone.
//!
//! ## Self-describing data: [`Array`] (`array[Any]`)
//! The datashape type as a `string` in its canonical [`Type`] spelling (what `Display` prints),
//! then the data of that type.
//!
//! In datashape terms: `?T` uses the sentinel exactly when `T` is `bool`, `intN`, `uintN` or
//! `floatN`; every other `T` (including `?T`, `pointer[int8]`, structs) uses the tag.
//!
//! ## Dynamic values ([`Value`], [`Array`])
//! [`from_array_bytes`] reads an `array[Any]` without a Rust type: it parses the type string and
//! lets the type drive decoding. [`to_array_bytes`] writes the type [`infer_type`] finds and
//! then the same bytes as [`to_bytes`]. A `Some(None)` of `??T` decodes to
//! [`Value::Present`]`(Missing)` so that it stays apart from `None` (`Missing`). [`Value`]
//! converts to and from [`serde_json::Value`].
//!
//! ## Canonical and accepted encodings
//! The decoder accepts exactly the canonical encoding; each violation has its own
//! [`ErrorKind`](crate::ErrorKind) and the byte offset where it starts.
//!
//! | item | canonical (written and accepted) | rejected |
//! | --- | --- | --- |
//! | LEB128 length, count, variant | minimal: `05`, `80 01` | overlong `85 00`, `80 00`; over 64 bits: `BadVarint` |
//! | bool | `00`, `01` | any other byte: `BadTag` |
//! | option tag | `00`, `01` | any other byte: `BadTag` |
//! | float option | any non-NaN bits, or the NA bits | any other NaN: `BadSentinel` |
//! | string | valid UTF-8 | `InvalidUtf8` |
//! | char | the shortest UTF-8 of a scalar value | overlong, surrogate, over `10FFFF`: `InvalidChar` |
//! | map keys | strictly increasing bytes | out of order or repeated: `UnsortedKeys` |
//! | `array[Any]` type | the [`Type`] `Display` spelling | other spellings, e.g. extra spaces: `BadType` |
//! | end of input | the value ends where the input ends | `TrailingBytes` |
//! | length | no more than the bytes left | `LengthPastEnd`; truncation is `UnexpectedEnd` |
//!
//! Offsets point at the first byte of the offending item: the varint, the tag, the first byte of
//! the NaN, the first invalid UTF-8 byte, the key that is not greater than the one before. For
//! errors raised by a type's own `Deserialize` (unknown variant, ...) the offset is where the
//! decoder stood.
//!
//! # Limits
//! **Depth.** Each sequence, map, struct, tuple struct, tagged or sentinel `Some`, and enum
//! counts one level, and a tuple or struct variant one more for its fields; plain tuples and
//! arrays (`(A, B)`, `[T; N]`) do not count: they cannot recurse without one of the counted
//! kinds, and leaving them out keeps `[f32; 3]` cheap. The depth of a value is the number of
//! levels enclosing its deepest part: a scalar alone is 0, `vec![1]` is 1, `vec![Some(1)]` is 2.
//! Values of depth up to [`DEFAULT_DEPTH_LIMIT`] (128) are written and read; one deeper is
//! refused by the [`Serializer`] and by the [`Deserializer`] alike, both with
//! `DepthLimitExceeded` and a message naming the limit (the reader adds the offset); both take
//! `with_depth_limit`. Read into a [`Value`], every level of the datashape counts (`N *` and
//! tuples too, and `bytes[N]` one), and a type string may nest at most 128 constructors
//! ([`Type::nesting`]); [`to_array_bytes`] refuses a value whose inferred type would be
//! deeper than [`from_array_bytes`] reads. Lengths are checked against the bytes left
//! before anything is allocated.
//!
//! Elements that take no bytes cannot be bounded by the input length alone: `vec![(); n]` is
//! the few bytes of `n`, and a hostile input can claim 2^60 of them. Each element that took
//! no bytes (a `()`, a unit struct, a struct of those) is counted wherever the number of
//! elements comes from the input: a sequence's elements, and, read into a [`Value`], the
//! elements of an `N * T` dimension and the fields of a tuple or struct type (the type string
//! is input too). The fields of a Rust struct or variant and the members of a Rust tuple or
//! array are not counted: the type fixes how many there are, so the work they cause is
//! bounded by the type times the elements of the sequence they sit in, which are counted.
//! One input may hold at most the larger of [`DEFAULT_ZERO_SIZED_LIMIT`] (2^20 = 1 048 576)
//! counted elements and its length in bytes: so `vec![(); 1_000_000]` is fine, and a tiny
//! input stops after about a million elements (a few milliseconds; at most that many
//! [`Value::Void`]s in memory). The serializer counts the same way and refuses, with the same
//! error, what the deserializer would refuse: `ZeroSizedLimitExceeded`, naming the limit
//! ([`to_array_bytes`], whose output is read through its type, reads it back to check when
//! the type holds anything that takes no bytes).
//! Both take `with_zero_sized_limit` to change it ([`Serializer::with_zero_sized_limit`],
//! [`Deserializer::with_zero_sized_limit`]).
//!
//! # Speed
//! The writer's per-value bookkeeping is a depth count per container and, for values that are
//! not scalars (`bool`, integers, floats, `char`, strings), one stored word (the value's type,
//! for options) and, for a sequence's elements, a check for elements that took no bytes
//! (struct fields and tuple members have none, see "Limits"); scalars skip both, since they
//! always take bytes and never write a missing value (log records: 201 -> 166 instructions
//! each, borsh 160; 163 since the depth count is branch-free, see below). A `Vec` sink's own
//! length is the byte count ([`Output::position`]), so a fixed-size value costs its bytes and
//! a capacity check.
//! A sequence of known length reserves from its first element's size (at most 128 bytes per
//! element); every later element takes one flag test and inlines into serde's loop. A sequence
//! of fixed-width primitives (`bool`, integers, floats) of exact length, which is every `Vec`
//! and slice of them, does not even take that: serde hands it over through `collect_seq`, and
//! the writer reserves the whole output once and runs one loop of appends (1M `f64`: 14
//! instructions per element; 25 before, when serde's `&f64` elements were not recognised as
//! scalars and took the general path; 42 before the flag test).
//!
//! What is left against borsh on fixed-width records is mostly alignment, not bookkeeping. A
//! sequence's count is a LEB128 of 1-3 bytes, so the `f32`s of a mesh and the `f64`s of a
//! `Vec<f64>` land at odd addresses, where borsh's 4-byte count keeps them aligned; on the AMD
//! EPYC these figures come from, an unaligned 4- or 8-byte store into a fresh buffer costs
//! about twice an aligned one. `benches/dynd.rs` measures borsh both ways: `borsh_shifted`
//! writes borsh's bytes after pad bytes that put its elements at DyND's addresses modulo 8.
//! One criterion run (medians):
//!
//! | serialize | DyND | borsh | borsh, DyND's alignment |
//! | --- | --- | --- | --- |
//! | log, 10k records | 0.21 ms | 0.23 ms | 0.24 ms |
//! | mesh, 50k triangles | 0.98 ms | 0.53 ms | 0.88 ms |
//! | `Vec<f64>`, 1M | 2.58 ms | 1.38 ms | 1.92 ms |
//!
//! Over seven runs the log write ran at 0.72-1.10x borsh's speed, median 1.0 (0.58-0.71x in
//! six runs before scalars skipped the bookkeeping). On equal alignment the mesh and
//! `Vec<f64>` writes run at 0.74-0.90x borsh, against 0.4-0.6x as the bytes fall. Moving the
//! output to an aligned address and back at the end (one more pass over it) was tried: the
//! mesh went from 2.0 to 1.5 ms in a plain loop, 1M `f64` got slower.
//! The bytes are the format's and do not change for speed; for long runs of numbers use
//! [`crate::dense`], which copies them as one block (0.8-1.0x a memcpy, where borsh's own
//! element-by-element `Vec<f64>` is 0.3-0.4x).
//!
//! The reader takes struct fields in place and tuple and array elements through a local copy
//! of its position. Counting a struct against the depth limit is a branch-free decrement with
//! its error out of line, small enough that serde's derived `Triangle::deserialize` inlines
//! into the `Vec`'s element loop (125k triangles: 24.2M -> 19.5M instructions a read; criterion,
//! 50k triangles, old and new alternated: 1.28-1.29 ms -> 0.94-0.96 ms, borsh 0.92-1.00 ms,
//! bincode 0.86-0.90 ms, postcard 0.33-0.36 ms). What is left is serde's `[T; N]`, which
//! stays out of line and hands each 36-byte triangle back through memory, where the caller
//! reads it back with wider loads than the stores that wrote it.
//! Whether it stays out of line depends on how rustc splits the crate into codegen units:
//! built with `codegen-units = 1`, the same bench read the 50k triangles in 0.44 ms instead
//! of 1.32 ms (criterion, one machine, same source, before the change above; borsh took
//! 0.52 ms and 0.97 ms). Programs that read many small fixed-size records can set
//! `codegen-units = 1` (or `lto = "fat"`) in their release profile. (Measured again later: with
//! `codegen-units = 1` for every peer, 50k triangles read in 0.43 ms against postcard's
//! 0.25-0.29 ms and bincode's 0.25-0.31 ms; with the default 16, 1.02-1.05 ms against
//! 0.40 ms. The setting helps the peers as much.)
//!
//! Each read checks the bytes left once: the cursor keeps the unread bytes as a slice and
//! derives the position only for error offsets (125k triangles: 139 -> 121 instructions a
//! triangle; log records -3%, 1M `f64` -4%, callgrind).
//!
//! A string's bytes are checked as UTF-8 with one pass for all-ASCII bytes first, which most
//! short strings are (log records, 10k, old and new builds alternated, three runs: 2.38-2.47
//! -> 2.23-2.35 ms a read, against the fastest peer in the same run 0.88-1.09x -> 1.04-1.13x).
//!
//! Struct fields and tuple and array members are not checked for having taken no bytes, on
//! either side ("Limits" says why that stays bounded): each field of a record lost a
//! comparison and a branch, and serde's `[[f32; 3]; 3]` its per-element check. Criterion,
//! builds before and after alternated, three runs, medians (another machine than the figures
//! above): mesh read 0.59-0.61 -> 0.50-0.53 ms (borsh 0.49-0.51, bincode 0.47-0.48, postcard
//! 0.16-0.17), log write 0.100-0.104 -> 0.091-0.097 ms (borsh 0.065-0.069), mesh write and log
//! read unchanged within the noise (0.22 and 0.85-0.89 ms). The triangle is still handed back
//! through memory by an out-of-line `[T; 3]::deserialize` (see above): the same harness read
//! the mesh in 0.15 ms when built with `codegen-units = 1`, postcard in 0.12 ms.
//! A tuple or array field is written without remembering its type for options (its members
//! remember their own), 4 stores a triangle fewer: mesh write 0.206-0.209 -> 0.195 ms (two
//! runs, alternated; postcard 0.154-0.159, borsh 0.185-0.190).
//!
//! Why `[T; 3]::deserialize` stays out of line with 16 codegen units: rustc places that
//! instance in the codegen unit of serde's `impls` module (its type, an array of `f32`, names
//! no crate item to place it by), while the derived `Triangle` visitor that calls it lands in
//! the user's module; across units only ThinLTO could inline it, and it leaves this body (nine
//! bounds-checked reads) out of line. Fat LTO moves the lottery rather than ending it: the
//! standalone harness read 50k triangles in 0.18 ms with `lto = "fat"`, and postcard, whose
//! array stays inlined with 16 units (0.19 ms), went to 1.07 ms there.
//!
//! A sequence's element access is two words (the deserializer and the count left; where the
//! elements start, for the zero-sized budget's error, sits in the deserializer's local copy):
//! rustc passes two words in registers, and LLVM then knows that growing the `Vec` does not
//! write the read position, which it used to store and reload for every element (1M `f64`
//! read element by element, criterion, the previous build and this one: 1.13 -> 0.74 ms,
//! 0.12x -> 0.18x a `memcpy` into a fresh `Vec`; standalone harness 1.35 -> 1.09 ms).
//!
//! The contents of strings and byte strings shorter than 64 bytes are written in two copies of
//! fixed size ([`Output::put_short`]) rather than by a call to `memcpy`, whose dispatch on the
//! length cost more than the copy, and a length of two bytes or more is encoded out of line so
//! that the string's code stays small enough to inline: log write (10k records, standalone
//! harness) 115 -> 93-98 us, borsh 68-73 us in the same runs. The criterion bench build, where
//! the compiler had already laid the old code out better, moved within its noise: 91.4 ->
//! 89.0-91.0 us (borsh 65.6-70.0 us).

/// Calls `$callback!` with the primitives that have a missing-value sentinel, each as
/// `Variant: rust_type` (the variant of both [`Type`] and [`Value`]): their matches need each
/// Rust type statically (see option.rs), so they are written from this one list.
macro_rules! sentinel_primitives {
    ($callback:ident) => {
        $callback! {
            Bool: bool, Int8: i8, Int16: i16, Int32: i32, Int64: i64, Int128: i128, UInt8: u8,
            UInt16: u16, UInt32: u32, UInt64: u64, UInt128: u128, Float32: f32, Float64: f64
        }
    };
}

mod array;
mod datashape;
mod de;
mod infer;
#[cfg(test)]
mod limit_tests;
mod option;
mod ser;
mod ser_compound;
#[cfg(test)]
mod ser_tests;
mod value;
mod write;

use serde::{de::DeserializeOwned, Deserialize, Serialize};

pub use crate::output::{IoWriter, Output};
pub use array::Array;
pub use datashape::Type;
pub use de::Deserializer;
pub use infer::infer_type;
pub use ser::Serializer;
pub use ser_compound::{Compound, MapCompound, SeqCompound};
pub use value::Value;

use crate::Result;

/// How deeply values nest by default.
pub use crate::limits::DEFAULT_DEPTH_LIMIT;

/// How many elements that take no bytes (`()`, unit structs, structs of those) one input may
/// hold at least; an input longer than this many bytes may hold one per byte.
///
/// See "Limits" in the module docs, [`Deserializer::with_zero_sized_limit`] and
/// [`Serializer::with_zero_sized_limit`].
pub const DEFAULT_ZERO_SIZED_LIMIT: usize = 1 << 20;

/// The error for one zero-sized element past the budget, the same for writer and reader.
#[cold]
fn zero_sized_exceeded(limit: usize) -> crate::Error {
    crate::Error::with_message(
        crate::ErrorKind::ZeroSizedLimitExceeded,
        format!(
            "more elements that take no bytes than the larger of the zero-sized limit {limit} \
             and the input length (raise it with with_zero_sized_limit)"
        ),
    )
}

/// The bits of DyND's missing `float32`.
pub const NA_FLOAT32_BITS: u32 = 0x7f80_07a2;

/// The bits of DyND's missing `float64`.
pub const NA_FLOAT64_BITS: u64 = 0x7ff0_0000_0000_07a2;

/// Serializes `value` to its canonical bytes.
///
/// ```
/// let bytes = serde_formats::dynd::to_bytes(&(true, 300u16, vec![Some(1i8), None])).unwrap();
/// assert_eq!(bytes, [0x01, 0x2c, 0x01, 0x02, 0x01, 0x80]);
/// ```
///
/// # Errors
/// [`ErrorKind::BadSentinel`](crate::ErrorKind::BadSentinel) for `Some` of a sentinel value,
/// [`ErrorKind::UnsortedKeys`](crate::ErrorKind::UnsortedKeys) for two map keys with the same
/// bytes, [`ErrorKind::DepthLimitExceeded`](crate::ErrorKind::DepthLimitExceeded),
/// [`ErrorKind::Unsupported`](crate::ErrorKind::Unsupported) for a missing value whose sentinel
/// cannot be chosen, and any error of the value's `Serialize`.
pub fn to_bytes<T: ?Sized + Serialize>(value: &T) -> Result<Vec<u8>> {
    let mut ser = Serializer::new(Vec::new());
    ser.serialize_value(value)?;
    Ok(ser.into_inner())
}

/// Serializes `value` into `writer`.
///
/// ```
/// let mut out = Vec::new();
/// serde_formats::dynd::to_writer(&mut out, &"hé").unwrap();
/// assert_eq!(out, [0x03, b'h', 0xc3, 0xa9]);
/// ```
///
/// # Errors
/// As [`to_bytes`], and [`ErrorKind::Io`](crate::ErrorKind::Io) when writing fails. Bytes
/// written before an error stay written.
pub fn to_writer<W: std::io::Write, T: ?Sized + Serialize>(writer: W, value: &T) -> Result<()> {
    let mut ser = Serializer::new(IoWriter(writer));
    ser.serialize_value(value)
}

/// Deserializes a `T` from exactly `bytes`, borrowing `&str` and `&[u8]` from them.
///
/// ```
/// let (name, n): (&str, Option<u8>) = serde_formats::dynd::from_bytes(&[0x02, b'h', b'i', 0xff]).unwrap();
/// assert_eq!((name, n), ("hi", None));
/// ```
///
/// # Errors
/// Any violation of the canonical form (see the table in the module docs), with its byte
/// offset; [`ErrorKind::TrailingBytes`](crate::ErrorKind::TrailingBytes) when bytes are left
/// over; errors of `T`'s `Deserialize` (kind `Message`) at the offset where they arose.
pub fn from_bytes<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> Result<T> {
    let mut de = Deserializer::from_bytes(bytes);
    let value = T::deserialize(&mut de).map_err(|err| de.locate(err))?;
    de.end()?;
    Ok(value)
}

/// Deserializes a `T` from the start of `bytes` and returns it with the bytes after it.
///
/// ```
/// let (n, rest): (u16, &[u8]) = serde_formats::dynd::take_from_bytes(&[0x01, 0x02, 0x03]).unwrap();
/// assert_eq!((n, rest), (0x0201, &[0x03][..]));
/// ```
///
/// # Errors
/// As [`from_bytes`], except that bytes left over are returned, not rejected.
pub fn take_from_bytes<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> Result<(T, &'de [u8])> {
    let mut de = Deserializer::from_bytes(bytes);
    let value = T::deserialize(&mut de).map_err(|err| de.locate(err))?;
    Ok((value, de.remaining()))
}

/// Deserializes a `T` from everything `reader` yields.
///
/// The reader is read to its end: trailing bytes are an error, so the whole input must be seen
/// before the value can be accepted anyway.
///
/// ```
/// let v: Vec<i16> = serde_formats::dynd::from_reader(&[0x01, 0xff, 0x7f][..]).unwrap();
/// assert_eq!(v, [i16::MAX]);
/// ```
///
/// # Errors
/// [`ErrorKind::Io`](crate::ErrorKind::Io) when reading fails, otherwise as [`from_bytes`].
pub fn from_reader<R: std::io::Read, T: DeserializeOwned>(mut reader: R) -> Result<T> {
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes)?;
    from_bytes(&bytes)
}

/// The content address of `value`: SHA-256 of its canonical bytes, computed without building
/// them in memory.
///
/// ```
/// // SHA-256 of the empty string: a unit value has no bytes.
/// let digest = serde_formats::dynd::digest(&()).unwrap();
/// assert_eq!(digest[..4], [0xe3, 0xb0, 0xc4, 0x42]);
/// ```
///
/// # Errors
/// As [`to_bytes`].
pub fn digest<T: ?Sized + Serialize>(value: &T) -> Result<[u8; 32]> {
    let mut ser = Serializer::new(write::HashOutput(<sha2::Sha256 as sha2::Digest>::new()));
    ser.serialize_value(value)?;
    Ok(sha2::Digest::finalize(ser.into_inner().0).into())
}

/// Writes `value` as a self-describing `array[Any]`: its datashape type, inferred from the
/// value by [`infer_type`], then its canonical bytes.
///
/// ```
/// let bytes = serde_formats::dynd::to_array_bytes(&[1u8, 2]).unwrap();
/// assert_eq!(bytes, b"\x092 * uint8\x01\x02");
/// ```
///
/// # Errors
/// As [`infer_type`] and [`to_bytes`]; also `ZeroSizedLimitExceeded` when [`from_array_bytes`]
/// would count more elements that take no bytes than its budget allows (it counts the fields
/// and members of the datashape too, see "Limits"; such values are read back to check).
pub fn to_array_bytes<T: ?Sized + Serialize>(value: &T) -> Result<Vec<u8>> {
    let ty = infer_type(value)?;
    // The reader counts levels by the type, which may differ from the Rust value's own
    // (a plain tuple is a counted `(A, B)` type): refuse what it could not read.
    array::check_type_nesting(&ty)?;
    if array::data_depth(&ty) > DEFAULT_DEPTH_LIMIT {
        return Err(crate::Error::with_message(
            crate::ErrorKind::DepthLimitExceeded,
            format!("data of type nested deeper than the depth limit {DEFAULT_DEPTH_LIMIT}"),
        ));
    }
    let mut ser = Serializer::new(Vec::new());
    ser.serialize_value(&ty.to_string())?;
    ser.serialize_value(value)?;
    let bytes = ser.into_inner();
    // Read through its type, a value's struct fields and tuple members count against the
    // zero-sized budget (the type string is input), where the Rust value's serializer counts
    // only sequence elements (see "Limits"): when the type may hold any, read the bytes back,
    // so that what this writes `from_array_bytes` reads. Any other error there would be a
    // writer bug; it is returned as it is rather than bytes that cannot be read.
    if array::may_hold_zero_sized(&ty) {
        if let Err(err) = from_array_bytes(&bytes) {
            return Err(match err.kind() {
                crate::ErrorKind::ZeroSizedLimitExceeded => {
                    zero_sized_exceeded(DEFAULT_ZERO_SIZED_LIMIT)
                }
                _ => err,
            });
        }
    }
    Ok(bytes)
}

/// Reads a self-describing `array[Any]` without a Rust type: the type string, then the data it
/// describes, as a dynamic [`Value`].
///
/// ```
/// use serde_formats::dynd::{from_array_bytes, Type, Value};
///
/// let array = from_array_bytes(b"\x06?int16\x00\x80").unwrap();
/// assert_eq!(array.ty, "?int16".parse::<Type>().unwrap());
/// assert_eq!(array.value, Value::Missing);
/// ```
///
/// # Errors
/// [`ErrorKind::BadType`](crate::ErrorKind::BadType) when the type does not parse or is not in
/// its canonical spelling, otherwise as [`from_bytes`].
pub fn from_array_bytes(bytes: &[u8]) -> Result<Array> {
    let mut de = Deserializer::from_bytes(bytes);
    let array = array::read_array(&mut de)?;
    de.end()?;
    Ok(array)
}
