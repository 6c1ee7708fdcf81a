//! The postcard wire primitives every column is built from, and a postcard-compatible serde
//! [`Serializer`] / [`Deserializer`] whose errors are [`crate::Error`] with a kind and a byte
//! offset.
//!
//! # Why not postcard's own serializer
//!
//! The bytes are postcard 1.x's, exactly (`to_vec` here and `postcard::to_allocvec` agree on
//! every value; a property test checks it). What differs is the error: postcard's
//! `Error::SerdeDeCustom` carries no message and no position, so an error raised by a column
//! decoder nested inside a table (a run count of 0, a delta overflowing `u8`) would reach the
//! user as "Serde Deserialization Error". Ours keeps the [`ErrorKind`], the
//! message and the absolute byte offset.
//!
//! postcard 1.1.3 exposes no public varint or zigzag functions (its `varint` module is
//! private), so the primitives below are written here.
//!
//! # Stability
//!
//! These are postcard 1.x's bytes, which postcard promises not to change within 1.x; this
//! module follows them for as long as the crate is wire-compatible with `serde_columnar` 0.3.x.
//!
//! # The serde data model on the wire
//!
//! (`docs/spec/columnar.md` §3.)
//!
//! | serde type | bytes |
//! | --- | --- |
//! | `bool` | `00` or `01` |
//! | `u8`, `i8` | one raw byte (not a varint) |
//! | `u16`, `u32`, `u64`, `u128` | LEB128 varint: 7 bits per byte, low bits first, high bit = more follows |
//! | `i16`, `i32`, `i64`, `i128` | zigzag (`0,-1,1,-2,..` → `0,1,2,3,..`), then varint |
//! | `f32`, `f64` | little-endian IEEE 754 bits |
//! | `char` | varint length (1–4), then its UTF-8 bytes |
//! | `str`, `bytes` | varint length, then the bytes |
//! | `option` | `00`, or `01` followed by the value |
//! | `unit`, `unit_struct` | nothing |
//! | `unit_variant` | varint variant index |
//! | `newtype_struct` | the value |
//! | `newtype_variant` | varint variant index, then the value |
//! | `seq` | varint length, then the elements (the length must be known up front) |
//! | `tuple`, `tuple_struct`, `struct` | the fields in order, no length, no names |
//! | `tuple_variant`, `struct_variant` | varint variant index, then the fields |
//! | `map` | varint length, then key, value, key, value, ... |
//!
//! `usize` and `isize` are written as `u64` / `i64`, so the bytes do not depend on the platform.
//! The format is not self-describing: `deserialize_any`, `deserialize_ignored_any` and
//! `deserialize_identifier` are [`ErrorKind::Unsupported`].
//! Nesting (sequences, tuples, structs, maps, enums, `Some`, newtypes) is limited to
//! [`DEFAULT_DEPTH_LIMIT`] levels, configurable with [`Deserializer::with_depth_limit`]. A
//! table's columns, which their codecs decode later with readers of their own, are handed the
//! depth left where they were read, so the limit covers everything nested in them too.
//!
//! ## Canonical vs accepted
//!
//! | item | written | also accepted | rejected ([`ErrorKind`]) |
//! | --- | --- | --- | --- |
//! | varint | shortest form | non-minimal forms up to the type's maximum length (`80 00` = 0), as postcard | longer than `ceil(bits/7)` bytes, or bits past the type's width in the last byte (`BadVarint`) |
//! | bool | `00`, `01` | — | anything else (`BadTag`) |
//! | option tag | `00`, `01` | — | anything else (`BadTag`) |
//! | string | valid UTF-8 | — | invalid UTF-8 (`InvalidUtf8`) |
//! | char | 1–4 byte UTF-8 | — | length over 4, not exactly one scalar value (`InvalidChar`; postcard takes the first char) |
//! | seq, map, str, bytes length | exact | — | a string or byte string longer than the bytes left (`LengthPastEnd`, before any allocation); a sequence runs out of input (`UnexpectedEnd`; its length only bounds a `size_hint` capped by the bytes left) |
//!
//! Entry points that decode a whole input ([`from_bytes`]) reject bytes after the value
//! (`TrailingBytes`); [`take_from_bytes`] returns them instead.

mod carry;
mod de;
mod ser;
mod text;

pub(crate) use text::utf8;

pub use de::{from_bytes, take_from_bytes, Deserializer, DEFAULT_DEPTH_LIMIT};
pub use ser::{append, to_vec, Serializer};

pub(crate) use carry::{de_column_error, ser_column_error};
pub(crate) use de::LOCATED_BYTES;

use crate::{Error, ErrorKind, Result};

/// Zigzag-maps a signed integer onto an unsigned one: `0, -1, 1, -2, 2` → `0, 1, 2, 3, 4`.
#[inline]
pub fn zigzag_i64(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}

/// Inverse of [`zigzag_i64`].
#[inline]
pub fn unzigzag_i64(value: u64) -> i64 {
    ((value >> 1) as i64) ^ -((value & 1) as i64)
}

/// Zigzag for `i128` (see [`zigzag_i64`]).
#[inline]
pub fn zigzag_i128(value: i128) -> u128 {
    ((value << 1) ^ (value >> 127)) as u128
}

/// Inverse of [`zigzag_i128`].
#[inline]
pub fn unzigzag_i128(value: u128) -> i128 {
    ((value >> 1) as i128) ^ -((value & 1) as i128)
}

/// Appends `value` as a LEB128 varint.
///
/// ```
/// let mut out = Vec::new();
/// columnar::wire::write_varint_u64(&mut out, 300);
/// assert_eq!(out, [0xac, 0x02]);
/// ```
#[inline]
pub fn write_varint_u64(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Appends `value` as a LEB128 varint (see [`write_varint_u64`]).
#[inline]
pub fn write_varint_u128(out: &mut Vec<u8>, mut value: u128) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Appends a `usize` as a varint; identical to the `u64` encoding.
#[inline]
pub fn write_varint_usize(out: &mut Vec<u8>, value: usize) {
    write_varint_u64(out, value as u64);
}

/// Appends a signed value as zigzag + varint.
///
/// ```
/// let mut out = Vec::new();
/// columnar::wire::write_zigzag_i64(&mut out, -2);
/// assert_eq!(out, [0x03]);
/// ```
#[inline]
pub fn write_zigzag_i64(out: &mut Vec<u8>, value: i64) {
    write_varint_u64(out, zigzag_i64(value));
}

/// Appends an `i128` as zigzag + varint.
#[inline]
pub fn write_zigzag_i128(out: &mut Vec<u8>, value: i128) {
    write_varint_u128(out, zigzag_i128(value));
}

/// Appends a byte string: varint length, then the bytes.
#[inline]
pub fn write_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    write_varint_usize(out, bytes.len());
    out.extend_from_slice(bytes);
}

/// A cursor over input bytes that reads the primitives and reports errors at absolute offsets.
///
/// `base` is the offset of `bytes[0]` within the whole input, so a reader over one column that
/// sits at byte 17 of a table reports errors at 17 + its own position.
#[derive(Debug, Clone)]
pub struct Reader<'de> {
    bytes: &'de [u8],
    pos: usize,
    base: usize,
}

impl<'de> Reader<'de> {
    /// A reader over `bytes`, reporting offsets from 0.
    pub fn new(bytes: &'de [u8]) -> Self {
        Reader {
            bytes,
            pos: 0,
            base: 0,
        }
    }

    /// A reader over `bytes` that start at offset `base` of a larger input.
    pub fn with_base(bytes: &'de [u8], base: usize) -> Self {
        Reader {
            bytes,
            pos: 0,
            base,
        }
    }

    /// The absolute offset of the next byte to read.
    #[inline]
    pub fn offset(&self) -> usize {
        self.base + self.pos
    }

    /// How many bytes are left.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    /// Whether every byte has been read.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.pos >= self.bytes.len()
    }

    /// The bytes not yet read.
    #[inline]
    pub fn rest(&self) -> &'de [u8] {
        self.bytes.get(self.pos..).unwrap_or_default()
    }

    /// The next byte, without reading it; `None` at the end of the input.
    #[inline]
    pub(crate) fn peek_u8(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// The varint `skip` bytes past the read position when it takes at most 9 bytes (63 bits,
    /// the common case of DeltaRle deltas), with its length in bytes; `None` when it is longer
    /// or the input ends inside it. Reads nothing: the caller takes it with
    /// [`Reader::advance`], or falls back to a full read, which decides and reports errors.
    #[inline]
    pub(crate) fn peek_short_varint(&self, skip: usize) -> Option<(u64, usize)> {
        let rest = self.bytes.get(self.pos.checked_add(skip)?..)?;
        let mut value = 0u64;
        for (index, &byte) in rest.iter().take(9).enumerate() {
            value |= u64::from(byte & 0x7f) << (7 * index);
            if byte & 0x80 == 0 {
                return Some((value, index + 1));
            }
        }
        None
    }

    /// Moves past `len` bytes that a peek (such as [`Reader::peek_short_varint`]) has seen.
    #[inline]
    pub(crate) fn advance(&mut self, len: usize) {
        self.pos = self.bytes.len().min(self.pos + len);
    }

    /// Reads one byte.
    ///
    /// # Errors
    /// [`ErrorKind::UnexpectedEnd`] at the end of the input.
    #[inline]
    pub fn read_u8(&mut self) -> Result<u8> {
        match self.bytes.get(self.pos) {
            Some(&byte) => {
                self.pos += 1;
                Ok(byte)
            }
            None => Err(Error::at(ErrorKind::UnexpectedEnd, self.offset() as u64)),
        }
    }

    /// Reads exactly `len` bytes, borrowing them from the input.
    ///
    /// # Errors
    /// [`ErrorKind::UnexpectedEnd`] when fewer than `len` bytes are left (nothing is consumed).
    #[inline]
    pub fn read_slice(&mut self, len: usize) -> Result<&'de [u8]> {
        if len > self.remaining() {
            return Err(Error::at(ErrorKind::UnexpectedEnd, self.offset() as u64));
        }
        let slice = &self.bytes[self.pos..self.pos + len];
        self.pos += len;
        Ok(slice)
    }

    /// Reads exactly `N` bytes into an array (a fixed-width little-endian number).
    ///
    /// # Errors
    /// [`ErrorKind::UnexpectedEnd`] when fewer than `N` bytes are left (nothing is consumed).
    #[inline]
    pub fn read_array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let mut array = [0u8; N];
        array.copy_from_slice(self.read_slice(N)?);
        Ok(array)
    }

    /// Reads a byte string: a varint length checked against the bytes left, then the bytes.
    ///
    /// # Errors
    /// [`ErrorKind::BadVarint`] / [`ErrorKind::UnexpectedEnd`] for the length,
    /// [`ErrorKind::LengthPastEnd`] (at the length) when it claims more bytes than are left.
    #[inline]
    pub fn read_bytes(&mut self) -> Result<&'de [u8]> {
        let start = self.offset();
        let len = self.read_varint_usize()?;
        if len > self.remaining() {
            return Err(Error::at(ErrorKind::LengthPastEnd, start as u64));
        }
        self.read_slice(len)
    }

    /// Reads a varint `u16`.
    ///
    /// # Errors
    /// [`ErrorKind::BadVarint`] (at the varint's first byte) when it is too long or overflows,
    /// [`ErrorKind::UnexpectedEnd`] when the input ends inside it.
    #[inline]
    pub fn read_varint_u16(&mut self) -> Result<u16> {
        self.read_varint_bits(16).map(|v| v as u16)
    }

    /// Reads a varint `u32` (errors as [`Reader::read_varint_u16`]).
    ///
    /// # Errors
    /// As [`Reader::read_varint_u16`].
    #[inline]
    pub fn read_varint_u32(&mut self) -> Result<u32> {
        self.read_varint_bits(32).map(|v| v as u32)
    }

    /// Reads a varint `u64` (errors as [`Reader::read_varint_u16`]).
    ///
    /// # Errors
    /// As [`Reader::read_varint_u16`].
    #[inline]
    pub fn read_varint_u64(&mut self) -> Result<u64> {
        // Fast path: one-byte varints dominate run counts and small deltas.
        if let Some(&byte) = self.bytes.get(self.pos) {
            if byte < 0x80 {
                self.pos += 1;
                return Ok(u64::from(byte));
            }
        }
        self.read_varint_bits(64)
    }

    /// Reads a varint `usize`, written as a `u64` (errors as [`Reader::read_varint_u16`]);
    /// a value above `usize::MAX` on a narrow platform is [`ErrorKind::IntegerOverflow`].
    ///
    /// # Errors
    /// As [`Reader::read_varint_u16`].
    #[inline]
    pub fn read_varint_usize(&mut self) -> Result<usize> {
        let start = self.offset();
        let value = self.read_varint_u64()?;
        usize::try_from(value).map_err(|_| Error::at(ErrorKind::IntegerOverflow, start as u64))
    }

    /// Reads a varint `u128` (errors as [`Reader::read_varint_u16`]).
    ///
    /// # Errors
    /// As [`Reader::read_varint_u16`].
    #[inline]
    pub fn read_varint_u128(&mut self) -> Result<u128> {
        // Fast path: one-byte varints dominate DeltaRle deltas.
        if let Some(&byte) = self.bytes.get(self.pos) {
            if byte < 0x80 {
                self.pos += 1;
                return Ok(u128::from(byte));
            }
        }
        let start = self.offset();
        let mut value: u128 = 0;
        // 128 bits need 19 bytes; the 19th may carry only 2 bits.
        for index in 0..19u32 {
            let byte = self.read_u8()?;
            value |= u128::from(byte & 0x7f) << (7 * index);
            if byte & 0x80 == 0 {
                if index == 18 && byte > 0x03 {
                    return Err(Error::at(ErrorKind::BadVarint, start as u64));
                }
                return Ok(value);
            }
        }
        Err(Error::at(ErrorKind::BadVarint, start as u64))
    }

    /// Reads a zigzag varint `i64`.
    ///
    /// # Errors
    /// As [`Reader::read_varint_u16`].
    #[inline]
    pub fn read_zigzag_i64(&mut self) -> Result<i64> {
        self.read_varint_u64().map(unzigzag_i64)
    }

    /// Reads a zigzag varint `i128`.
    ///
    /// # Errors
    /// As [`Reader::read_varint_u16`].
    #[inline]
    pub fn read_zigzag_i128(&mut self) -> Result<i128> {
        self.read_varint_u128().map(unzigzag_i128)
    }

    /// Varint of at most `bits` (16, 32 or 64) bits, with postcard's limits: at most
    /// `ceil(bits / 7)` bytes, and the last byte may not carry bits past the width.
    #[inline]
    fn read_varint_bits(&mut self, bits: u32) -> Result<u64> {
        let start = self.offset();
        let max_bytes = bits.div_ceil(7);
        let last_byte_max: u8 = ((1u32 << (bits % 7)) - 1) as u8;
        let mut value: u64 = 0;
        for index in 0..max_bytes {
            let byte = self.read_u8()?;
            value |= u64::from(byte & 0x7f) << (7 * index);
            if byte & 0x80 == 0 {
                if index == max_bytes - 1 && byte > last_byte_max {
                    return Err(Error::at(ErrorKind::BadVarint, start as u64));
                }
                return Ok(value);
            }
        }
        Err(Error::at(ErrorKind::BadVarint, start as u64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_match_the_seed_examples() {
        // docs/spec/columnar.md §6.1 (rules §3.1): 0 → 00, 1 → 01, 127 → 7F, 128 → 80 01.
        for (value, bytes) in [
            (0u64, &[0x00][..]),
            (1, &[0x01]),
            (127, &[0x7f]),
            (128, &[0x80, 0x01]),
        ] {
            let mut out = Vec::new();
            write_varint_u64(&mut out, value);
            assert_eq!(out, bytes);
            assert_eq!(Reader::new(bytes).read_varint_u64().unwrap(), value);
        }
        // docs/spec/columnar.md §6.1 (rules §3.2): zigzag 0 → 00, -1 → 01, 1 → 02, -2 → 03, 2 → 04.
        for (value, byte) in [(0i64, 0u8), (-1, 1), (1, 2), (-2, 3), (2, 4)] {
            let mut out = Vec::new();
            write_zigzag_i64(&mut out, value);
            assert_eq!(out, [byte]);
        }
    }

    #[test]
    fn extremes_take_the_maximum_length() {
        let mut out = Vec::new();
        write_varint_u64(&mut out, u64::MAX);
        // 64 bits = 9 bytes of 7 bits + 1 bit in the tenth.
        assert_eq!(
            out,
            [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]
        );
        let mut out = Vec::new();
        write_varint_u128(&mut out, u128::MAX);
        let mut expected = vec![0xff; 18];
        expected.push(0x03);
        assert_eq!(out, expected);
        assert_eq!(Reader::new(&out).read_varint_u128().unwrap(), u128::MAX);
        assert_eq!(zigzag_i128(i128::MIN), u128::MAX);
        assert_eq!(unzigzag_i64(u64::MAX), i64::MIN);
    }

    #[test]
    fn rejects_overlong_and_overflowing_varints() {
        // 11 bytes for a u64.
        let overlong = [
            0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00,
        ];
        let err = Reader::new(&overlong).read_varint_u64().unwrap_err();
        assert_eq!((err.kind(), err.offset()), (ErrorKind::BadVarint, Some(0)));
        // Tenth byte carries 2 bits: 2^64 does not fit.
        let overflow = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02];
        let err = Reader::new(&overflow).read_varint_u64().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::BadVarint);
        // u16: third byte may carry 2 bits.
        let err = Reader::new(&[0xff, 0xff, 0x04])
            .read_varint_u16()
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::BadVarint);
        assert_eq!(
            Reader::new(&[0xff, 0xff, 0x03]).read_varint_u16().unwrap(),
            u16::MAX
        );
        // Truncated inside a varint.
        let err = Reader::with_base(&[0x80], 5).read_varint_u32().unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ErrorKind::UnexpectedEnd, Some(6))
        );
    }

    #[test]
    fn byte_strings_are_checked_against_the_input() {
        let mut reader = Reader::new(&[0x05, 1, 2]);
        let err = reader.read_bytes().unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ErrorKind::LengthPastEnd, Some(0))
        );
        let mut reader = Reader::new(&[0x02, 1, 2, 9]);
        assert_eq!(reader.read_bytes().unwrap(), [1, 2]);
        assert_eq!(reader.rest(), [9]);
    }

    mod serde_glue {
        use std::collections::BTreeMap;

        use proptest::prelude::*;
        use serde::{Deserialize, Serialize};

        use crate::wire::{from_bytes, take_from_bytes, to_vec, Deserializer};
        use crate::ErrorKind;

        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        struct Unit;

        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        struct Newtype(i16);

        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        enum Event {
            Start,
            Value(u128),
            Pair(i8, u8),
            Named { at: i128, by: Option<String> },
        }

        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        struct Everything {
            flag: bool,
            small: (i8, u8, i16, u16),
            mid: (i32, u32, i64, u64),
            wide: (i128, u128, isize, usize),
            floats: (f32, f64),
            letter: char,
            text: String,
            #[serde(with = "serde_bytes_shim")]
            blob: Vec<u8>,
            maybe: Option<Option<u32>>,
            list: Vec<Event>,
            map: BTreeMap<u16, Vec<bool>>,
            unit: (),
            unit_struct: Unit,
            newtype: Newtype,
            array: [u8; 3],
        }

        /// Serializes a Vec<u8> as serde bytes (not a sequence), without the serde_bytes crate.
        mod serde_bytes_shim {
            pub fn serialize<S: serde::Serializer>(v: &[u8], s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(v)
            }
            pub fn deserialize<'de, D: serde::Deserializer<'de>>(
                d: D,
            ) -> Result<Vec<u8>, D::Error> {
                struct V;
                impl serde::de::Visitor<'_> for V {
                    type Value = Vec<u8>;
                    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                        f.write_str("bytes")
                    }
                    fn visit_bytes<E>(self, v: &[u8]) -> Result<Vec<u8>, E> {
                        Ok(v.to_vec())
                    }
                }
                d.deserialize_bytes(V)
            }
        }

        fn event() -> impl Strategy<Value = Event> {
            prop_oneof![
                Just(Event::Start),
                any::<u128>().prop_map(Event::Value),
                (any::<i8>(), any::<u8>()).prop_map(|(a, b)| Event::Pair(a, b)),
                (any::<i128>(), any::<Option<String>>())
                    .prop_map(|(at, by)| Event::Named { at, by }),
            ]
        }

        prop_compose! {
            fn everything()(
                flag in any::<bool>(),
                small in any::<(i8, u8, i16, u16)>(),
                mid in any::<(i32, u32, i64, u64)>(),
                wide in any::<(i128, u128, isize, usize)>(),
                floats in any::<(f32, f64)>().prop_filter("NaN", |(a, b)| !a.is_nan() && !b.is_nan()),
                letter in any::<char>(),
                text in ".*",
                blob in any::<Vec<u8>>(),
                maybe in any::<Option<Option<u32>>>(),
                list in prop::collection::vec(event(), 0..5),
                map in prop::collection::btree_map(any::<u16>(), any::<Vec<bool>>(), 0..4),
                array in any::<[u8; 3]>(),
                newtype in any::<i16>(),
            ) -> Everything {
                Everything {
                    flag, small, mid, wide, floats, letter, text, blob, maybe, list, map,
                    unit: (), unit_struct: Unit, newtype: Newtype(newtype), array,
                }
            }
        }

        proptest! {
            #[test]
            fn serializer_writes_postcards_bytes(value in everything()) {
                let ours = to_vec(&value).unwrap();
                let theirs = postcard::to_allocvec(&value).unwrap();
                prop_assert_eq!(&ours, &theirs);
                prop_assert_eq!(&from_bytes::<Everything>(&ours).unwrap(), &value);
                prop_assert_eq!(&postcard::from_bytes::<Everything>(&ours).unwrap(), &value);
            }

            #[test]
            fn deserializers_agree_on_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..48)) {
                // We are at least as strict as postcard: whatever we accept, it accepts too,
                // with the same value.
                type Probe = (Option<u16>, Vec<Event>, String, char, i64);
                if let Ok((ours, rest)) = take_from_bytes::<Probe>(&bytes) {
                    let (theirs, their_rest) = postcard::take_from_bytes::<Probe>(&bytes).unwrap();
                    prop_assert_eq!(ours, theirs);
                    prop_assert_eq!(rest, their_rest);
                }
            }
        }

        #[test]
        fn strings_and_bytes_are_borrowed() {
            let bytes = [0x02, b'h', b'i', 0x01, 0xff];
            let (text, blob): (&str, &[u8]) = from_bytes(&bytes).unwrap();
            assert_eq!((text, blob), ("hi", &[0xff][..]));
            assert!(std::ptr::eq(text.as_ptr(), bytes[1..].as_ptr()));
        }

        #[test]
        fn errors_carry_kind_and_offset() {
            let cases: &[(&[u8], ErrorKind, u64)] = &[
                (&[0x02], ErrorKind::BadTag, 0),
                (&[0x01, 0x02, b'h', 0xff], ErrorKind::InvalidUtf8, 3),
                (&[0x01, 0x09, b'h'], ErrorKind::LengthPastEnd, 1),
                (&[0x01], ErrorKind::UnexpectedEnd, 1),
            ];
            for (input, kind, offset) in cases {
                let err = from_bytes::<(bool, String)>(input).unwrap_err();
                assert_eq!(
                    (err.kind(), err.offset()),
                    (*kind, Some(*offset)),
                    "{input:02x?}"
                );
            }
            // A char of two scalar values, a char longer than 4 bytes.
            let err = from_bytes::<char>(&[0x02, b'a', b'b']).unwrap_err();
            assert_eq!(
                (err.kind(), err.offset()),
                (ErrorKind::InvalidChar, Some(0))
            );
            let err = from_bytes::<char>(&[0x05, 0, 0, 0, 0, 0]).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidChar);
            // Trailing bytes.
            let err = from_bytes::<u8>(&[1, 2]).unwrap_err();
            assert_eq!(
                (err.kind(), err.offset()),
                (ErrorKind::TrailingBytes, Some(1))
            );
        }

        #[test]
        fn custom_messages_survive_with_their_offset() {
            // Variant index 7 of a 4-variant enum: serde's derive raises a custom error.
            let err = from_bytes::<(u8, Event)>(&[0x00, 0x07]).unwrap_err();
            assert_eq!((err.kind(), err.offset()), (ErrorKind::Message, Some(1)));
            assert!(err.message().unwrap().contains("variant index"), "{err}");
        }

        #[test]
        fn nesting_is_limited() {
            #[derive(Debug, Serialize, Deserialize)]
            struct Tree(Option<Box<Tree>>);
            // 200 levels of Some: 200 × `01`, then `00`.
            let mut bytes = vec![0x01; 200];
            bytes.push(0x00);
            let err = from_bytes::<Tree>(&bytes).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::DepthLimitExceeded);
            let mut de = Deserializer::from_bytes(&bytes).with_depth_limit(500);
            assert!(Tree::deserialize(&mut de).is_ok());
        }

        #[test]
        fn sequences_need_a_known_length() {
            struct Unsized;
            impl Serialize for Unsized {
                fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    use serde::ser::SerializeSeq;
                    s.serialize_seq(None)?.end()
                }
            }
            assert_eq!(to_vec(&Unsized).unwrap_err().kind(), ErrorKind::Unsupported);
            // collect_str writes a string.
            struct Shown;
            impl Serialize for Shown {
                fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    s.collect_str(&format_args!("{}-{}", 1, 2))
                }
            }
            assert_eq!(to_vec(&Shown).unwrap(), [0x03, b'1', b'-', b'2']);
        }

        #[test]
        fn huge_sequence_lengths_do_not_allocate() {
            // A Vec<u64> claiming u64::MAX / 2 elements with 2 bytes behind it.
            let mut bytes = vec![0xff; 9];
            bytes.push(0x00);
            bytes.extend_from_slice(&[1, 2]);
            let err = from_bytes::<Vec<u64>>(&bytes).unwrap_err();
            assert_eq!(
                (err.kind(), err.offset()),
                (ErrorKind::UnexpectedEnd, Some(12))
            );
        }
    }
}
