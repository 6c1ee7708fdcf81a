//! serde glue for reading: a strict [`Deserializer`] that accepts only canonical bytes.

use std::any::type_name;

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};

use super::array::DIMENSION;
use super::option::{OptionKind, Sentinel};
use super::ser::{is_nan, sentinel_bytes};
use super::{zero_sized_exceeded, DEFAULT_DEPTH_LIMIT, DEFAULT_ZERO_SIZED_LIMIT};
use crate::dense::{BlockDeserializer, ElementKind};
use crate::limits::{self, Depth, Nesting};
use crate::read::Cursor;
use crate::{Error, ErrorKind, Position, Result};

/// A serde deserializer reading canonical DyND bytes from a slice, borrowing strings and bytes
/// from it.
///
/// Use [`from_bytes`](super::from_bytes) unless you need a different depth limit or want to
/// read several values one after the other:
///
/// ```
/// use serde::Deserialize;
/// use serde_formats::dynd::Deserializer;
///
/// let mut de = Deserializer::from_bytes(&[0x05, 0x01, 0x00]).with_depth_limit(16);
/// assert_eq!(u8::deserialize(&mut de).unwrap(), 5);
/// assert_eq!(u16::deserialize(&mut de).unwrap(), 1);
/// de.end().unwrap();
/// ```
pub struct Deserializer<'de> {
    reader: Cursor<'de, ()>,
    depth: Depth,
    /// Elements that took no bytes (of `Vec<()>` and the like) still allowed; bounds the work a
    /// count read from the input can cause without bytes to back it.
    zero_sized_left: usize,
    /// The limit `zero_sized_left` started from, for the error message.
    zero_sized_limit: usize,
    /// Where the elements of the sequence being read start, for the zero-sized budget's
    /// error. Set in the local copy each sequence reads through ([`Self::in_local`]), so it
    /// is the innermost sequence's; kept here rather than in [`Counted`] so that the element
    /// access is two words, which rustc passes in registers and LLVM then knows nothing else
    /// writes the position through (1M `f64`: the position stayed in registers instead of
    /// being stored and reloaded for every element).
    elements_at: usize,
}

impl<'de> Deserializer<'de> {
    /// A deserializer over `input` with the default depth limit of 128.
    pub fn from_bytes(input: &'de [u8]) -> Self {
        Deserializer {
            reader: Cursor::new(input),
            depth: Depth::new(DEFAULT_DEPTH_LIMIT),
            zero_sized_left: DEFAULT_ZERO_SIZED_LIMIT.max(input.len()),
            zero_sized_limit: DEFAULT_ZERO_SIZED_LIMIT,
            elements_at: 0,
        }
    }

    /// Sets how many elements that take no bytes (of `Vec<()>`, `()` fields, ...) the input
    /// may hold: the larger of `limit` and the input length (see the module docs, "Limits").
    /// Call it before reading anything.
    #[must_use]
    pub fn with_zero_sized_limit(mut self, limit: usize) -> Self {
        self.zero_sized_limit = limit;
        self.zero_sized_left = limit.max(self.reader.pos() + self.reader.remaining().len());
        self
    }

    /// Sets how deeply sequences, maps, structs, tuples, enums and options may nest.
    #[must_use]
    pub fn with_depth_limit(mut self, limit: usize) -> Self {
        self.depth = Depth::new(limit);
        self
    }

    /// Byte offset of the next unread byte.
    pub fn offset(&self) -> usize {
        self.reader.pos()
    }

    /// The bytes not read yet.
    pub fn remaining(&self) -> &'de [u8] {
        self.reader.remaining()
    }

    /// Checks that the whole input was read.
    ///
    /// # Errors
    /// [`ErrorKind::TrailingBytes`] at the first unread byte.
    pub fn end(&self) -> Result<()> {
        if self.reader.remaining().is_empty() {
            Ok(())
        } else {
            Err(Error::at(ErrorKind::TrailingBytes, self.offset() as u64))
        }
    }

    /// Attaches the current offset to an error that has none (serde `custom` errors).
    #[cold]
    pub(crate) fn locate(&self, err: Error) -> Error {
        err.or_position(Position::Byte(self.offset() as u64))
    }

    #[inline]
    fn enter(&mut self) -> Result<()> {
        if self.depth.try_enter() {
            Ok(())
        } else {
            Err(self.too_deep())
        }
    }

    /// The depth-limit error at the current offset, out of line so that [`enter`](Self::enter)
    /// stays a few instructions in every struct's `deserialize`.
    #[cold]
    #[inline(never)]
    fn too_deep(&self) -> Error {
        self.locate(limits::too_deep(Nesting::Value, self.depth.limit()))
    }

    /// The fields of a struct, tuple struct or variant: packed like a tuple, counted against
    /// the depth.
    ///
    /// Unlike a sequence's elements they are read in place, with no copy of the deserializer:
    /// a small struct is read once per element of a sequence, and copying the state in and out
    /// for it cost more than the stores it saves (mesh deserialize 9.65M -> 9.40M instructions).
    #[inline]
    fn struct_fields<V: Visitor<'de>>(&mut self, len: usize, visitor: V) -> Result<V::Value> {
        self.enter()?;
        let result = visitor.visit_seq(Fields {
            de: self,
            left: len,
        });
        self.leave();
        result
    }

    /// Runs `read` on a copy of the deserializer that lives in this (inlined) frame, then takes
    /// its position and budget back: the compiler can keep the position in registers across an
    /// element loop instead of storing and reloading the caller's for every element.
    #[inline]
    fn in_local<R>(&mut self, read: impl FnOnce(&mut Deserializer<'de>) -> R) -> R {
        let mut local = Deserializer {
            reader: self.reader,
            depth: self.depth,
            zero_sized_left: self.zero_sized_left,
            zero_sized_limit: self.zero_sized_limit,
            elements_at: self.elements_at,
        };
        let result = read(&mut local);
        self.reader = local.reader;
        self.zero_sized_left = local.zero_sized_left;
        result
    }

    #[inline]
    fn leave(&mut self) {
        self.depth.leave();
    }

    #[inline]
    fn at(&self, kind: ErrorKind, offset: usize) -> Error {
        Error::at(kind, offset as u64)
    }

    /// A bool or option tag: exactly 0 or 1.
    #[inline]
    fn zero_or_one(&mut self) -> Result<bool> {
        let at = self.offset();
        match self.reader.byte()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(self.at(ErrorKind::BadTag, at)),
        }
    }

    /// A count prefix of a sequence or map.
    #[inline]
    fn count(&mut self) -> Result<(usize, usize)> {
        let at = self.offset();
        let count = self.reader.varint()?;
        // A count beyond the address space cannot be backed by the input or a budget.
        let count = usize::try_from(count).map_err(|_| self.at(ErrorKind::LengthPastEnd, at))?;
        Ok((count, at))
    }

    #[inline]
    fn str(&mut self) -> Result<&'de str> {
        let bytes = self.reader.length_prefixed()?;
        crate::read::utf8(bytes).map_err(|err| {
            let start = self.offset() - bytes.len();
            self.at(ErrorKind::InvalidUtf8, start + err.valid_up_to())
        })
    }

    #[inline]
    fn char(&mut self) -> Result<char> {
        let at = self.offset();
        let first = self.reader.peek_array::<1>()?[0];
        let len = match first {
            0x00..=0x7f => 1,
            0xc2..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xf4 => 4,
            _ => return Err(self.at(ErrorKind::InvalidChar, at)),
        };
        let bytes = self.reader.take(len)?;
        // from_utf8 rejects overlong forms and surrogates: one char has one encoding.
        match std::str::from_utf8(bytes)
            .ok()
            .and_then(|s| s.chars().next())
        {
            Some(c) => Ok(c),
            None => Err(self.at(ErrorKind::InvalidChar, at)),
        }
    }

    #[inline]
    fn option_with_sentinel<V: Visitor<'de>>(
        &mut self,
        sentinel: Sentinel,
        visitor: V,
    ) -> Result<V::Value> {
        let at = self.offset();
        let missing = sentinel_bytes(sentinel);
        let width = missing.as_slice().len();
        let bytes = self
            .reader
            .remaining()
            .get(..width)
            .ok_or_else(|| self.at(ErrorKind::UnexpectedEnd, at))?;
        if bytes == missing.as_slice() {
            self.reader.take(width)?;
            return visitor.visit_none();
        }
        if is_nan(sentinel, bytes) {
            return Err(Error::with_message(
                ErrorKind::BadSentinel,
                format!(
                    "NaN bits other than the missing-value sentinel of ?{}",
                    sentinel.datashape()
                ),
            )
            .with_position(Position::Byte(at as u64)));
        }
        // Present: the payload's own deserialize reads the bytes we only looked at.
        self.enter()?;
        let value = visitor.visit_some(&mut *self)?;
        self.leave();
        Ok(value)
    }
}

impl<'de> Deserializer<'de> {
    /// A dense sequence ([`crate::dense`]): the count, then `count` elements taken as one
    /// block. A block longer than the input is [`ErrorKind::LengthPastEnd`] at the count.
    fn dense<V: Visitor<'de>>(&mut self, kind: ElementKind, visitor: V) -> Result<V::Value> {
        self.enter()?;
        let (count, at) = self.count()?;
        let block = count
            .checked_mul(kind.size())
            .filter(|&len| len <= self.reader.remaining().len())
            .and_then(|len| self.reader.take_body(len).ok())
            .ok_or_else(|| self.at(ErrorKind::LengthPastEnd, at))?;
        let value = visitor
            .visit_newtype_struct(BlockDeserializer(block))
            .map_err(|err| err.or_position(Position::Byte(at as u64)))?;
        self.leave();
        Ok(value)
    }
}

macro_rules! fixed_width {
    ($($method:ident $visit:ident $ty:ty),*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let bytes = self.reader.take_array::<{ std::mem::size_of::<$ty>() }>()?;
            visitor.$visit(<$ty>::from_le_bytes(bytes))
        }
    )*};
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de> {
    type Error = Error;

    fn is_human_readable(&self) -> bool {
        false
    }

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        Err(Error::with_message(
            ErrorKind::Unsupported,
            "DyND bytes are not self-describing: the type must drive decoding (use dynd::Array for \
             self-describing data)",
        )
        .with_position(Position::Byte(self.offset() as u64)))
    }

    #[inline]
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let value = self.zero_or_one()?;
        visitor.visit_bool(value)
    }

    fixed_width!(
        deserialize_i8 visit_i8 i8,
        deserialize_i16 visit_i16 i16,
        deserialize_i32 visit_i32 i32,
        deserialize_i64 visit_i64 i64,
        deserialize_i128 visit_i128 i128,
        deserialize_u8 visit_u8 u8,
        deserialize_u16 visit_u16 u16,
        deserialize_u32 visit_u32 u32,
        deserialize_u64 visit_u64 u64,
        deserialize_u128 visit_u128 u128,
        deserialize_f32 visit_f32 f32,
        deserialize_f64 visit_f64 f64
    );

    #[inline]
    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let c = self.char()?;
        visitor.visit_char(c)
    }

    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let s = self.str()?;
        visitor.visit_borrowed_str(s)
    }

    #[inline]
    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let bytes = self.reader.length_prefixed()?;
        visitor.visit_borrowed_bytes(bytes)
    }

    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        // Decided from the requested type before any byte is read; see option.rs.
        match OptionKind::of_option(type_name::<V::Value>()).unwrap_or(OptionKind::Tagged) {
            OptionKind::Sentinel(sentinel) => self.option_with_sentinel(sentinel, visitor),
            OptionKind::Tagged => {
                if self.zero_or_one()? {
                    self.enter()?;
                    let value = visitor.visit_some(&mut *self)?;
                    self.leave();
                    Ok(value)
                } else {
                    visitor.visit_none()
                }
            }
        }
    }

    #[inline]
    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }

    #[inline]
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.enter()?;
        let (count, at) = self.count()?;
        let value = self.in_local(|de| {
            de.elements_at = at;
            visitor.visit_seq(Counted { de, left: count })
        })?;
        self.leave();
        Ok(value)
    }

    #[inline]
    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        // Plain tuples and arrays are not counted against the depth limit: they cannot be
        // recursive without a named struct, enum, sequence, map or option, which are counted.
        // Keeping them light lets `[f32; 3]` and the like inline into their callers. Their
        // elements are read through a local copy (mesh deserialize 9.40M -> 8.70M instructions).
        self.in_local(|de| visitor.visit_seq(Fields { de, left: len }))
    }

    #[inline]
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.enter()?;
        let (count, _) = self.count()?;
        let value = visitor.visit_map(Entries {
            de: self,
            left: count,
            previous_key: None,
        })?;
        self.leave();
        Ok(value)
    }

    // The methods that pass on to another: a struct or tuple struct is its counted fields.
    deserializer_methods! {
        #[inline]
        fn deserialize_string(self, visitor) => self.deserialize_str(visitor);
        #[inline]
        fn deserialize_byte_buf(self, visitor) => self.deserialize_bytes(visitor);
        fn deserialize_unit_struct(self, _name, visitor) => visitor.visit_unit();
        #[inline]
        fn deserialize_newtype_struct(self, name, visitor) => match ElementKind::of_name(name) {
            Some(kind) => self.dense(kind, visitor),
            None => visitor.visit_newtype_struct(self),
        };
        #[inline]
        fn deserialize_tuple_struct(self, name, len, visitor) => if name == DIMENSION {
            // A dimension of an `Array` value: its length came from the input's type string.
            self.enter()?;
            let at = self.offset();
            let value = self.in_local(|de| {
                de.elements_at = at;
                visitor.visit_seq(Counted { de, left: len })
            })?;
            self.leave();
            Ok(value)
        } else {
            self.struct_fields(len, visitor)
        };
        #[inline]
        fn deserialize_struct(self, _name, fields, visitor) =>
            self.struct_fields(fields.len(), visitor);
        fn deserialize_enum(self, _name, _variants, visitor) => {
            self.enter()?;
            let value = visitor.visit_enum(Variant { de: &mut *self })?;
            self.leave();
            Ok(value)
        };
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        // Identifiers are not written; only enum variants need one, and they are indices.
        self.deserialize_any(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }
}

/// Elements of a sequence, tuple or struct. `COUNTED`: their number came from the input (a
/// sequence's count, an `Array` dimension), so each one that took no bytes is counted against
/// the zero-sized budget. The fields of a struct or variant and the members of a tuple or
/// array are as many as the type has and are not counted: the work they cause is bounded by
/// the type, and the sequence they sit in counts its own elements.
struct Elements<'a, 'de, const COUNTED: bool> {
    de: &'a mut Deserializer<'de>,
    left: usize,
}

/// The fields of a struct or variant, or the members of a tuple or array.
type Fields<'a, 'de> = Elements<'a, 'de, false>;
/// The elements of a sequence or of an `Array` dimension.
type Counted<'a, 'de> = Elements<'a, 'de, true>;

impl<'de, const COUNTED: bool> de::SeqAccess<'de> for Elements<'_, 'de, COUNTED> {
    type Error = Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        if !COUNTED {
            return seed.deserialize(&mut *self.de).map(Some);
        }
        // Compared by the bytes left rather than the offset, which the cursor derives.
        let before = self.de.reader.remaining().len();
        let value = seed.deserialize(&mut *self.de)?;
        if self.de.reader.remaining().len() == before {
            match self.de.zero_sized_left.checked_sub(1) {
                Some(left) => self.de.zero_sized_left = left,
                None => return Err(zero_sized_at(self.de.zero_sized_limit, self.de.elements_at)),
            }
        }
        Ok(Some(value))
    }

    fn size_hint(&self) -> Option<usize> {
        // Never trust a count from the input for preallocation beyond what the bytes can hold.
        Some(self.left.min(self.de.remaining().len()))
    }
}

/// The zero-sized budget error for the sequence starting at `at`: out of line, so that the
/// element loop stays small enough to inline.
#[cold]
#[inline(never)]
fn zero_sized_at(limit: usize, at: usize) -> Error {
    zero_sized_exceeded(limit).or_position(Position::Byte(at as u64))
}

/// Entries of a map; each key must encode strictly greater than the one before.
struct Entries<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    left: usize,
    previous_key: Option<&'de [u8]>,
}

impl<'de> de::MapAccess<'de> for Entries<'_, 'de> {
    type Error = Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let start = self.de.offset();
        let key = seed.deserialize(&mut *self.de)?;
        let key_bytes = self.de.reader.since(start);
        if let Some(previous) = self.previous_key {
            if key_bytes <= previous {
                return Err(self.de.at(ErrorKind::UnsortedKeys, start));
            }
        }
        self.previous_key = Some(key_bytes);
        Ok(Some(key))
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        // Keys strictly increase, so at most one entry has an empty key: maps need no
        // zero-sized budget.
        let value = seed.deserialize(&mut *self.de)?;
        Ok(value)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left.min(self.de.remaining().len()))
    }
}

/// An enum: LEB128 variant index, then the payload.
struct Variant<'a, 'de> {
    de: &'a mut Deserializer<'de>,
}

impl<'a, 'de> de::EnumAccess<'de> for Variant<'a, 'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let at = self.de.offset();
        let index = self.de.reader.varint()?;
        let index = u32::try_from(index).map_err(|_| self.de.at(ErrorKind::BadVarint, at))?;
        let value = seed
            .deserialize(index.into_deserializer())
            .map_err(|err: Error| err.or_position(Position::Byte(at as u64)))?;
        Ok((value, self))
    }
}

impl<'de> de::VariantAccess<'de> for Variant<'_, 'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(&mut *self.de)
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        self.de.struct_fields(len, visitor)
    }

    deserializer_methods! {
        fn struct_variant(self, fields, visitor) => self.de.struct_fields(fields.len(), visitor);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dynd::{from_bytes, take_from_bytes};
    use serde::Deserialize;

    #[test]
    fn strings_and_bytes_are_borrowed_from_the_input() {
        let input = [0x02, b'h', b'i', 0x01, 0xaa];
        let (text, bytes): (&str, &[u8]) = from_bytes(&input).unwrap();
        assert_eq!((text, bytes), ("hi", &[0xaa][..]));
        assert!(std::ptr::eq(text.as_ptr(), &input[1]));
        assert!(std::ptr::eq(bytes.as_ptr(), &input[4]));
    }

    #[test]
    fn sentinel_options_are_decided_by_the_requested_type() {
        // The same byte is "missing" for ?bool, a tag for ?String and data for ?u8.
        assert_eq!(from_bytes::<Option<bool>>(&[0x02]).unwrap(), None);
        assert_eq!(from_bytes::<Option<u8>>(&[0x02]).unwrap(), Some(2));
        assert_eq!(
            from_bytes::<Option<String>>(&[0x02]).unwrap_err().kind(),
            ErrorKind::BadTag
        );
        assert_eq!(from_bytes::<Option<u8>>(&[0x00]).unwrap(), Some(0));
        assert_eq!(from_bytes::<Option<String>>(&[0x00]).unwrap(), None);
    }

    #[test]
    fn values_can_be_read_one_after_another() {
        let input = [0x07, 0x01, b'x', 0xff];
        let mut de = Deserializer::from_bytes(&input);
        assert_eq!(u8::deserialize(&mut de).unwrap(), 7);
        assert_eq!(<&str>::deserialize(&mut de).unwrap(), "x");
        assert_eq!(de.offset(), 3);
        let err = de.end().unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ErrorKind::TrailingBytes, Some(3))
        );
        let (value, rest) = take_from_bytes::<u8>(&input).unwrap();
        assert_eq!((value, rest), (7, &input[1..]));
    }

    #[test]
    fn self_describing_requests_are_unsupported() {
        let err = from_bytes::<serde::de::IgnoredAny>(&[0x00]).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ErrorKind::Unsupported, Some(0))
        );
    }

    #[test]
    fn custom_errors_get_the_offset_where_they_arose() {
        #[derive(Deserialize, Debug)]
        #[allow(dead_code)]
        enum One {
            Only,
        }
        let err = from_bytes::<(u16, One)>(&[0x00, 0x00, 0x01]).unwrap_err();
        assert_eq!((err.kind(), err.offset()), (ErrorKind::Message, Some(2)));
    }
}
