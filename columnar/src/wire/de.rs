//! serde glue: a [`Deserializer`] over a byte slice that borrows `&str` / `&[u8]` from it.

use serde::de::value::BorrowedBytesDeserializer;
use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};

use super::Reader;
use crate::{Error, ErrorKind, Result};

/// How deep values may nest before [`ErrorKind::DepthLimitExceeded`]: each sequence, tuple,
/// map, struct, enum, `Some` and newtype counts one level.
pub const DEFAULT_DEPTH_LIMIT: usize = 128;

/// A serde deserializer reading postcard 1.x bytes from a slice.
///
/// Strings and byte strings are handed to visitors borrowed from the input, so `&'de str`,
/// `&'de [u8]` and `#[serde(borrow)] Cow<'de, str>` fields do not copy. Every error carries the
/// absolute byte offset of the value that failed; errors from nested column decoders keep
/// their [`ErrorKind`] (see [`crate::codec`]).
///
/// ```
/// use serde::Deserialize;
/// let mut de = columnar::wire::Deserializer::from_bytes(&[0x02, b'h', b'i', 0x07]);
/// let text = <&str>::deserialize(&mut de)?;
/// assert_eq!(text, "hi");
/// assert_eq!(de.offset(), 3);
/// # Ok::<(), columnar::Error>(())
/// ```
#[derive(Debug)]
pub struct Deserializer<'de> {
    reader: Reader<'de>,
    depth_left: usize,
}

impl<'de> Deserializer<'de> {
    /// A deserializer over `bytes`, with offsets counted from 0.
    pub fn from_bytes(bytes: &'de [u8]) -> Self {
        Deserializer {
            reader: Reader::new(bytes),
            depth_left: DEFAULT_DEPTH_LIMIT,
        }
    }

    /// A deserializer over `bytes` that sit at offset `base` of a larger input, so errors
    /// report positions in that input.
    pub fn with_base(bytes: &'de [u8], base: usize) -> Self {
        Deserializer {
            reader: Reader::with_base(bytes, base),
            depth_left: DEFAULT_DEPTH_LIMIT,
        }
    }

    /// Sets how deep values may nest (default [`DEFAULT_DEPTH_LIMIT`]).
    #[must_use]
    pub fn with_depth_limit(mut self, limit: usize) -> Self {
        self.depth_left = limit;
        self
    }

    /// The absolute offset of the next byte to read.
    pub fn offset(&self) -> usize {
        self.reader.offset()
    }

    /// The bytes not yet read.
    pub fn remaining(&self) -> &'de [u8] {
        self.reader.rest()
    }

    /// The underlying [`Reader`], for reading raw primitives between serde values.
    pub fn reader(&mut self) -> &mut Reader<'de> {
        &mut self.reader
    }

    /// Checks that every byte was consumed.
    ///
    /// # Errors
    /// [`ErrorKind::TrailingBytes`] at the first unread byte.
    pub fn end(&self) -> Result<()> {
        if self.reader.is_empty() {
            Ok(())
        } else {
            Err(Error::at(
                ErrorKind::TrailingBytes,
                self.reader.offset() as u64,
            ))
        }
    }

    #[inline]
    fn enter(&mut self) -> Result<()> {
        match self.depth_left.checked_sub(1) {
            Some(left) => {
                self.depth_left = left;
                Ok(())
            }
            None => Err(Error::at(
                ErrorKind::DepthLimitExceeded,
                self.reader.offset() as u64,
            )),
        }
    }

    #[inline]
    fn leave(&mut self) {
        self.depth_left += 1;
    }

    /// Runs `f` one nesting level deeper.
    #[inline]
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        self.enter()?;
        let result = f(self);
        self.leave();
        result
    }

    /// A sequence or map: its varint count, then `visit` one level deeper over that many
    /// elements (entries); errors without an offset are placed at the count.
    #[inline]
    fn counted<T>(&mut self, visit: impl FnOnce(SeqAccess<'_, 'de>) -> Result<T>) -> Result<T> {
        let start = self.reader.offset();
        let left = self.reader.read_varint_usize()?;
        self.nested(|de| visit(SeqAccess { de, left }))
            .map_err(|e| e.or_offset(start as u64))
    }
}

/// Deserializes a `T` that must use every byte of `bytes`.
///
/// # Errors
/// Any decoding error with its kind and offset; [`ErrorKind::TrailingBytes`] when bytes are
/// left after the value.
///
/// ```
/// let pair: (u8, &str) = columnar::wire::from_bytes(&[0x07, 0x01, b'x'])?;
/// assert_eq!(pair, (7, "x"));
/// let err = columnar::wire::from_bytes::<u8>(&[0x07, 0x00]).unwrap_err();
/// assert_eq!((err.kind(), err.offset()), (columnar::ErrorKind::TrailingBytes, Some(1)));
/// # Ok::<(), columnar::Error>(())
/// ```
pub fn from_bytes<'de, T: de::Deserialize<'de>>(bytes: &'de [u8]) -> Result<T> {
    let mut deserializer = Deserializer::from_bytes(bytes);
    let value = T::deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

/// Deserializes a `T` from the front of `bytes` and returns the bytes after it.
///
/// # Errors
/// Any decoding error with its kind and offset.
pub fn take_from_bytes<'de, T: de::Deserialize<'de>>(bytes: &'de [u8]) -> Result<(T, &'de [u8])> {
    let mut deserializer = Deserializer::from_bytes(bytes);
    let value = T::deserialize(&mut deserializer)?;
    Ok((value, deserializer.remaining()))
}

/// The newtype name by which a column asks for a byte string together with its decode
/// context (see [`crate::context`]). No other deserializer knows it: they hand the newtype's
/// content to the visitor, which then reads a plain byte string with no context.
pub(crate) const LOCATED_BYTES: &str = "\0columnar::LocatedBytes";

/// Whether `name` is [`LOCATED_BYTES`] (compared by address first: the same constant).
#[inline]
fn is_located_bytes(name: &'static str) -> bool {
    std::ptr::eq(name, LOCATED_BYTES) || name == LOCATED_BYTES
}

/// Hands a byte string to a visitor of [`LOCATED_BYTES`] as a sequence of three: the bytes,
/// the offset of their first byte, and the depth left to values nested in them.
struct LocatedAccess<'de> {
    bytes: &'de [u8],
    offset: usize,
    depth_left: usize,
    next: u8,
}

impl<'de> de::SeqAccess<'de> for LocatedAccess<'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let at = self.next;
        self.next = self.next.saturating_add(1);
        match at {
            0 => seed
                .deserialize(BorrowedBytesDeserializer::<Error>::new(self.bytes))
                .map(Some),
            1 => seed.deserialize(self.offset.into_deserializer()).map(Some),
            2 => seed
                .deserialize(self.depth_left.into_deserializer())
                .map(Some),
            _ => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(3usize.saturating_sub(usize::from(self.next)))
    }
}

struct SeqAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    left: usize,
}

impl<'de> de::SeqAccess<'de> for SeqAccess<'_, 'de> {
    type Error = Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.de).map(Some)
    }

    #[inline]
    fn size_hint(&self) -> Option<usize> {
        // Never trust a length from the input beyond what the bytes left could hold.
        Some(self.left.min(self.de.reader.remaining()))
    }
}

impl<'de> de::MapAccess<'de> for SeqAccess<'_, 'de> {
    type Error = Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        // Each entry counts once: its key is read like an element, its value follows.
        de::SeqAccess::next_element_seed(self, seed)
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        seed.deserialize(&mut *self.de)
    }

    #[inline]
    fn size_hint(&self) -> Option<usize> {
        Some(self.left.min(self.de.reader.remaining() / 2))
    }
}

/// A `deserialize_*` method for a scalar: `$read` takes the value from the reader `$reader`
/// (`$start` binds the offset of its first byte, where a bad value is an error), and an
/// error of the visitor is placed there too.
macro_rules! scalar_method {
    ($method:ident => $visit:ident, |$reader:ident, $start:pat_param| $read:expr) => {
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let start = self.reader.offset() as u64;
            let $start = start;
            let $reader = &mut self.reader;
            let value = $read;
            visitor
                .$visit::<Error>(value)
                .map_err(|e| e.or_offset(start))
        }
    };
}

/// A `deserialize_*` method that reads the same bytes as another: `$method(args) =>
/// $target(passed)` forwards the visitor, after the arguments `passed`, to `$target`.
macro_rules! forward_method {
    ($method:ident($($arg:ident: $ty:ty),*) => $target:ident($($pass:expr),*)) => {
        #[inline]
        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value> {
            self.$target($($pass,)* visitor)
        }
    };
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de> {
    type Error = Error;

    fn is_human_readable(&self) -> bool {
        false
    }

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        Err(Error::with_message(
            ErrorKind::Unsupported,
            "the format is not self-describing: deserialize_any",
        )
        .or_offset(self.reader.offset() as u64))
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        Err(Error::with_message(
            ErrorKind::Unsupported,
            "the format is not self-describing: deserialize_ignored_any",
        )
        .or_offset(self.reader.offset() as u64))
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        Err(Error::with_message(
            ErrorKind::Unsupported,
            "identifiers are not stored: deserialize_identifier",
        )
        .or_offset(self.reader.offset() as u64))
    }

    scalar_method!(deserialize_bool => visit_bool, |r, start| match r.read_u8()? {
        0 => false,
        1 => true,
        _ => return Err(Error::at(ErrorKind::BadTag, start)),
    });
    scalar_method!(deserialize_i8 => visit_i8, |r, _| r.read_u8()? as i8);
    scalar_method!(deserialize_u8 => visit_u8, |r, _| r.read_u8()?);
    // A zigzag value of N bits always maps back into the N-bit signed range.
    scalar_method!(deserialize_i16 => visit_i16,
        |r, _| super::unzigzag_i64(u64::from(r.read_varint_u16()?)) as i16);
    scalar_method!(deserialize_i32 => visit_i32,
        |r, _| super::unzigzag_i64(u64::from(r.read_varint_u32()?)) as i32);
    scalar_method!(deserialize_i64 => visit_i64, |r, _| r.read_zigzag_i64()?);
    scalar_method!(deserialize_i128 => visit_i128, |r, _| r.read_zigzag_i128()?);
    scalar_method!(deserialize_u16 => visit_u16, |r, _| r.read_varint_u16()?);
    scalar_method!(deserialize_u32 => visit_u32, |r, _| r.read_varint_u32()?);
    scalar_method!(deserialize_u64 => visit_u64, |r, _| r.read_varint_u64()?);
    scalar_method!(deserialize_u128 => visit_u128, |r, _| r.read_varint_u128()?);
    scalar_method!(deserialize_f32 => visit_f32,
        |r, _| f32::from_bits(u32::from_le_bytes(r.read_array()?)));
    scalar_method!(deserialize_f64 => visit_f64,
        |r, _| f64::from_bits(u64::from_le_bytes(r.read_array()?)));

    #[inline]
    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.reader.offset();
        let len = self.reader.read_varint_usize()?;
        if len > 4 {
            return Err(Error::at(ErrorKind::InvalidChar, start as u64));
        }
        let bytes = self.reader.read_slice(len)?;
        let text = std::str::from_utf8(bytes)
            .map_err(|_| Error::at(ErrorKind::InvalidChar, start as u64))?;
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => visitor
                .visit_char::<Error>(c)
                .map_err(|e| e.or_offset(start as u64)),
            _ => Err(Error::at(ErrorKind::InvalidChar, start as u64)),
        }
    }

    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.reader.offset();
        let bytes = self.reader.read_bytes()?;
        let payload = self.reader.offset() - bytes.len();
        let text = super::utf8(bytes)
            .map_err(|e| Error::at(ErrorKind::InvalidUtf8, (payload + e.valid_up_to()) as u64))?;
        visitor
            .visit_borrowed_str::<Error>(text)
            .map_err(|e| e.or_offset(start as u64))
    }

    #[inline]
    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.reader.offset();
        let bytes = self.reader.read_bytes()?;
        let payload_base = self.reader.offset() - bytes.len();
        visitor
            .visit_borrowed_bytes::<Error>(bytes)
            // A visitor of a plain byte string counts offsets from its first byte.
            .map_err(|e| e.shifted(payload_base as u64).or_offset(start as u64))
    }

    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.reader.offset();
        match self.reader.read_u8()? {
            0 => visitor
                .visit_none::<Error>()
                .map_err(|e| e.or_offset(start as u64)),
            1 => self
                .nested(|de| visitor.visit_some(de))
                .map_err(|e| e.or_offset(start as u64)),
            _ => Err(Error::at(ErrorKind::BadTag, start as u64)),
        }
    }

    #[inline]
    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.reader.offset();
        visitor
            .visit_unit::<Error>()
            .map_err(|e| e.or_offset(start as u64))
    }

    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        let start = self.reader.offset();
        if is_located_bytes(name) {
            let bytes = self.reader.read_bytes()?;
            let access = LocatedAccess {
                bytes,
                offset: self.reader.offset() - bytes.len(),
                depth_left: self.depth_left,
                next: 0,
            };
            // The visitor was given absolute offsets: its errors need no shift.
            return visitor
                .visit_seq(access)
                .map_err(|e| e.or_offset(start as u64));
        }
        self.nested(|de| visitor.visit_newtype_struct(de))
            .map_err(|e| e.or_offset(start as u64))
    }

    #[inline]
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.counted(|access| visitor.visit_seq(access))
    }

    #[inline]
    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        let start = self.reader.offset();
        self.nested(|de| visitor.visit_seq(SeqAccess { de, left: len }))
            .map_err(|e| e.or_offset(start as u64))
    }

    #[inline]
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.counted(|access| visitor.visit_map(access))
    }

    // The same bytes as another type: owned strings and bytes, unit structs, tuple structs, and
    // structs (tuples of their fields, in order).
    forward_method!(deserialize_string() => deserialize_str());
    forward_method!(deserialize_byte_buf() => deserialize_bytes());
    forward_method!(deserialize_unit_struct(_name: &'static str) => deserialize_unit());
    forward_method!(deserialize_tuple_struct(_name: &'static str, len: usize)
        => deserialize_tuple(len));
    forward_method!(deserialize_struct(_name: &'static str, fields: &'static [&'static str])
        => deserialize_tuple(fields.len()));

    #[inline]
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let start = self.reader.offset();
        self.nested(|de| visitor.visit_enum(de))
            .map_err(|e| e.or_offset(start as u64))
    }
}

impl<'de> de::EnumAccess<'de> for &mut Deserializer<'de> {
    type Error = Error;
    type Variant = Self;

    #[inline]
    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let start = self.reader.offset();
        let index = self.reader.read_varint_u32()?;
        let value = seed
            .deserialize(IntoDeserializer::<Error>::into_deserializer(index))
            .map_err(|e| e.or_offset(start as u64))?;
        Ok((value, self))
    }
}

impl<'de> de::VariantAccess<'de> for &mut Deserializer<'de> {
    type Error = Error;

    #[inline]
    fn unit_variant(self) -> Result<()> {
        Ok(())
    }

    #[inline]
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(self)
    }

    #[inline]
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_tuple(self, len, visitor)
    }

    #[inline]
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_tuple(self, fields.len(), visitor)
    }
}
