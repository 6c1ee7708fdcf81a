//! MessagePack -> serde, over a byte slice, borrowing strings and bytes where the type allows.

use serde::de::{self, DeserializeSeed, Visitor};

use crate::error::{Error, ErrorKind, Result};
use crate::limits::{Depth, Nesting};

use super::msgpack::{Cursor, Head};

/// The marker of a MessagePack float64.
const FLOAT64: u8 = 0xcb;

/// Decodes exactly one value from `bytes`, whose first byte is at absolute offset `base`.
pub(crate) fn from_slice<'de, T: de::Deserialize<'de>>(
    bytes: &'de [u8],
    base: u64,
    depth_limit: usize,
) -> Result<T> {
    let mut de = Deserializer {
        cur: Cursor::at(bytes, 0, base),
        depth: Depth::new(depth_limit),
    };
    let value = T::deserialize(&mut de).map_err(|e| de.locate(e))?;
    if !de.cur.is_empty() {
        return Err(de.cur.error(ErrorKind::TrailingBytes));
    }
    Ok(value)
}

/// A serde deserializer over one MessagePack value in a slice.
pub(crate) struct Deserializer<'de> {
    cur: Cursor<'de>,
    depth: Depth,
}

impl<'de> Deserializer<'de> {
    fn locate(&self, err: Error) -> Error {
        err.or_position(crate::Position::Byte(self.cur.offset()))
    }

    fn enter(&mut self) -> Result<()> {
        match self.depth.enter(Nesting::Value) {
            Ok(()) => Ok(()),
            Err(err) => Err(self.locate(err)),
        }
    }

    fn str_body(&mut self, len: u32) -> Result<&'de str> {
        let at = self.cur.offset();
        let bytes = self.cur.take_body(len as usize)?;
        crate::read::utf8(bytes)
            .map_err(|e| Error::at(ErrorKind::InvalidUtf8, at + e.valid_up_to() as u64))
    }

    fn seq<V: Visitor<'de>>(&mut self, len: u32, visitor: V) -> Result<V::Value> {
        self.container(
            len,
            |access| visitor.visit_seq(access),
            "array has more elements than the type takes",
        )
    }

    fn map<V: Visitor<'de>>(&mut self, len: u32, visitor: V) -> Result<V::Value> {
        self.container(
            len,
            |access| visitor.visit_map(access),
            "map has more entries than the type takes",
        )
    }

    /// An enum: a bare string names a unit variant, a map of one entry a variant with data.
    fn enum_value<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let marker = self.cur.peek()?;
        match marker {
            // A bare string names a unit variant.
            0xa0..=0xbf | 0xd9..=0xdb => visitor.visit_enum(Variant {
                de: self,
                tagged: false,
            }),
            _ => {
                let start = self.cur.pos();
                match self.cur.head()? {
                    Head::Map(1) => {
                        self.enter()?;
                        let value = visitor.visit_enum(Variant {
                            de: &mut *self,
                            tagged: true,
                        })?;
                        self.depth.leave();
                        Ok(value)
                    }
                    _ => {
                        self.cur.set_pos(start);
                        Err(self.cur.error_msg(
                            ErrorKind::Unsupported,
                            "an enum is a string or a map of one entry",
                        ))
                    }
                }
            }
        }
    }

    /// Reads a container of `len` items through `visit`: an error unless the visitor took
    /// every item (`excess` says what is wrong then).
    #[inline]
    fn container<T>(
        &mut self,
        len: u32,
        visit: impl FnOnce(&mut Access<'_, 'de>) -> Result<T>,
        excess: &str,
    ) -> Result<T> {
        self.enter()?;
        let mut access = Access {
            de: self,
            remaining: len,
        };
        let value = visit(&mut access)?;
        let left = access.remaining;
        self.depth.leave();
        if left > 0 {
            return Err(self.cur.error_msg(ErrorKind::TrailingBytes, excess));
        }
        Ok(value)
    }
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let at = self.cur.offset();
        match self.cur.head()? {
            Head::Nil => visitor.visit_unit(),
            Head::Bool(v) => visitor.visit_bool(v),
            Head::UInt(v) => visitor.visit_u64(v),
            Head::Int(v) => visitor.visit_i64(v),
            Head::F32(v) => visitor.visit_f32(v),
            Head::F64(v) => visitor.visit_f64(v),
            Head::Str(len) => visitor.visit_borrowed_str(self.str_body(len)?),
            Head::Bin(len) => visitor.visit_borrowed_bytes(self.cur.take_body(len as usize)?),
            Head::Array(len) => self.seq(len, visitor),
            Head::Map(len) => self.map(len, visitor),
            // rmp-serde's convention: a newtype struct around `(type, data)`; `Value` takes it,
            // types that do not take a newtype struct report it.
            Head::Ext(tag, len) => {
                let data = self.cur.take_body(len as usize)?;
                visitor
                    .visit_newtype_struct(ExtDeserializer { tag, data, next: 0 })
                    .map_err(|e| e.or_position(crate::Position::Byte(at)))
            }
        }
    }

    /// A non-negative integer in a fixint or `uint 8` to `uint 64` head is read here; anything
    /// else as `deserialize_any` reads it. Same values and errors.
    #[inline]
    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let marker = self.cur.peek()?;
        if !matches!(marker, 0x00..=0x7f | 0xcc..=0xcf) {
            return self.deserialize_any(visitor);
        }
        self.cur.byte()?;
        let value = match marker {
            0xcc => u64::from(self.cur.byte()?),
            0xcd => u64::from(u16::from_be_bytes(self.cur.take_array()?)),
            0xce => u64::from(u32::from_be_bytes(self.cur.take_array()?)),
            0xcf => u64::from_be_bytes(self.cur.take_array()?),
            fixint => u64::from(fixint),
        };
        visitor.visit_u64(value)
    }

    /// An integer in a fixint, `int 8` to `int 64` or `uint 8` to `uint 64` head is read here
    /// (a non-negative one visited as `u64`, as `deserialize_any` does); anything else as
    /// `deserialize_any` reads it. Same values and errors.
    #[inline]
    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let marker = self.cur.peek()?;
        let value = match marker {
            0x00..=0x7f | 0xcc..=0xcf => return self.deserialize_u64(visitor),
            0xd0..=0xd3 | 0xe0..=0xff => {
                self.cur.byte()?;
                match marker {
                    0xd0 => i64::from(self.cur.byte()? as i8),
                    0xd1 => i64::from(i16::from_be_bytes(self.cur.take_array()?)),
                    0xd2 => i64::from(i32::from_be_bytes(self.cur.take_array()?)),
                    0xd3 => i64::from_be_bytes(self.cur.take_array()?),
                    negative_fixint => i64::from(negative_fixint as i8),
                }
            }
            _ => return self.deserialize_any(visitor),
        };
        visitor.visit_i64(value)
    }

    /// A string in a fixstr head (field names, most short strings) is read here; anything else
    /// as `deserialize_any` reads it. Same values and errors.
    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let marker = self.cur.peek()?;
        if let 0xa0..=0xbf = marker {
            self.cur.byte()?;
            return visitor.visit_borrowed_str(self.str_body(u32::from(marker & 0x1f))?);
        }
        self.deserialize_any(visitor)
    }

    deserializer_methods! {
        #[inline]
        fn deserialize_u8(self, visitor) => self.deserialize_u64(visitor);
        #[inline]
        fn deserialize_u16(self, visitor) => self.deserialize_u64(visitor);
        #[inline]
        fn deserialize_u32(self, visitor) => self.deserialize_u64(visitor);
        #[inline]
        fn deserialize_i8(self, visitor) => self.deserialize_i64(visitor);
        #[inline]
        fn deserialize_i16(self, visitor) => self.deserialize_i64(visitor);
        #[inline]
        fn deserialize_i32(self, visitor) => self.deserialize_i64(visitor);
        #[inline]
        fn deserialize_string(self, visitor) => self.deserialize_str(visitor);
        #[inline]
        fn deserialize_identifier(self, visitor) => self.deserialize_str(visitor);
    }

    /// A float64, the float msglc writes, is read here; anything else as `deserialize_any`
    /// reads it (serde's `f64` also takes integers and float32s). Same values and errors.
    #[inline]
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.cur.peek()? == FLOAT64 {
            self.cur.byte()?;
            let bits = u64::from_be_bytes(self.cur.take_array()?);
            return visitor.visit_f64(f64::from_bits(bits));
        }
        self.deserialize_any(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.cur.peek()? == 0xc0 {
            self.cur.byte()?;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    deserializer_methods! {
        fn deserialize_newtype_struct(self, _name, visitor) => visitor.visit_newtype_struct(self);
        fn deserialize_enum(self, _name, _variants, visitor) => self.enum_value(visitor);
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.cur.skip_value()?;
        visitor.visit_unit()
    }

    fn is_human_readable(&self) -> bool {
        false
    }

    serde::forward_to_deserialize_any! {
        bool i128 u128 f32 char
        bytes byte_buf unit unit_struct seq tuple
        tuple_struct map struct
    }
}

/// The `(type, data)` of an extension, as a sequence of two elements.
struct ExtDeserializer<'de> {
    tag: i8,
    data: &'de [u8],
    next: u8,
}

impl<'de> de::Deserializer<'de> for ExtDeserializer<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_seq(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de> de::SeqAccess<'de> for ExtDeserializer<'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        use serde::de::value::BorrowedBytesDeserializer;
        use serde::de::IntoDeserializer;
        self.next += 1;
        match self.next {
            1 => seed.deserialize(self.tag.into_deserializer()).map(Some),
            2 => seed
                .deserialize(BorrowedBytesDeserializer::new(self.data))
                .map(Some),
            _ => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(2usize.saturating_sub(self.next as usize))
    }
}

/// Elements of an array, or entries of a map.
struct Access<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    remaining: u32,
}

impl<'de> Access<'_, 'de> {
    /// The next element, or the next entry's key: `None` once the container is read.
    #[inline]
    fn next_item<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.remaining == 0 {
            return Ok(None);
        }
        self.remaining -= 1;
        seed.deserialize(&mut *self.de).map(Some)
    }
}

impl<'de> de::SeqAccess<'de> for Access<'_, 'de> {
    type Error = Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        self.next_item(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        // Never trust a count read from the input for preallocation: each element needs a byte.
        Some((self.remaining as usize).min(self.de.cur.remaining().len()))
    }
}

impl<'de> de::MapAccess<'de> for Access<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        self.next_item(seed)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        seed.deserialize(&mut *self.de)
    }

    fn size_hint(&self) -> Option<usize> {
        Some((self.remaining as usize).min(self.de.cur.remaining().len() / 2))
    }
}

/// An enum: `"Variant"` (a unit variant, `tagged` false) or `{"Variant": payload}`.
struct Variant<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    tagged: bool,
}

impl Variant<'_, '_> {
    /// The error for a unit variant where `expected` was wanted.
    #[cold]
    fn no_payload(&self, expected: &str) -> Error {
        self.de.cur.error_msg(ErrorKind::Unsupported, expected)
    }
}

enum_access_via_de!(Variant);

impl<'de> de::VariantAccess<'de> for Variant<'_, 'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        if self.tagged {
            de::Deserialize::deserialize(&mut *self.de)
        } else {
            Ok(())
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        if !self.tagged {
            return Err(self.no_payload("expected a variant with data"));
        }
        seed.deserialize(&mut *self.de)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        if !self.tagged {
            return Err(self.no_payload("expected a tuple variant"));
        }
        de::Deserializer::deserialize_seq(&mut *self.de, visitor)
    }

    deserializer_methods! {
        fn struct_variant(self, _fields, visitor) => {
            if !self.tagged {
                return Err(self.no_payload("expected a struct variant"));
            }
            de::Deserializer::deserialize_map(&mut *self.de, visitor)
        };
    }
}

#[cfg(test)]
mod tests {
    use super::from_slice;
    use crate::ErrorKind;

    #[test]
    fn an_f64_takes_every_number_marker() {
        // Bytes from the MessagePack specification's format table.
        let cases: &[(&[u8], f64)] = &[
            (&[0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0], 1.5),
            (&[0xca, 0x3f, 0xc0, 0, 0], 1.5),
            (&[0xcc, 0xc8], 200.0),
            (&[0xd0, 0x80], -128.0),
            (&[0x05], 5.0),
            (&[0xff], -1.0),
        ];
        for (bytes, expected) in cases {
            assert_eq!(
                from_slice::<f64>(bytes, 0, 8).unwrap(),
                *expected,
                "{bytes:02x?}"
            );
        }
        // A NaN keeps its payload bits.
        let nan = [0xcb, 0x7f, 0xf8, 0, 0, 0, 0, 0, 1];
        let bits = from_slice::<f64>(&nan, 0, 8).unwrap().to_bits();
        assert_eq!(bits, 0x7ff8_0000_0000_0001);
    }

    #[test]
    fn a_u64_takes_every_non_negative_integer_marker() {
        let cases: &[(&[u8], u64)] = &[
            (&[0x05], 5),
            (&[0x7f], 127),
            (&[0xcc, 0xc8], 200),
            (&[0xcd, 0x01, 0x00], 256),
            (&[0xce, 0x00, 0x01, 0x00, 0x00], 65_536),
            (
                &[0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
                u64::MAX,
            ),
            // Signed markers holding a non-negative value, through the general path.
            (&[0xd0, 0x05], 5),
            (&[0xd3, 0, 0, 0, 0, 0, 0, 0x01, 0x00], 256),
        ];
        for (bytes, expected) in cases {
            assert_eq!(
                from_slice::<u64>(bytes, 0, 8).unwrap(),
                *expected,
                "{bytes:02x?}"
            );
        }
        assert_eq!(from_slice::<u8>(&[0xcc, 0xc8], 0, 8).unwrap(), 200);
        let err = from_slice::<u8>(&[0xcd, 0x01, 0x00], 0, 8).unwrap_err();
        assert!(err.to_string().contains("expected u8"), "{err}");
        let err = from_slice::<u64>(&[0xff], 0, 8).unwrap_err();
        assert!(err.to_string().contains("expected u64"), "{err}");
        // A uint 32 at offset 10 cut short: the error is where its 4 bytes start.
        let err = from_slice::<u64>(&[0xce, 0, 1], 10, 8).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ErrorKind::UnexpectedEnd, Some(11))
        );
    }

    #[test]
    fn an_i64_takes_every_integer_marker() {
        let cases: &[(&[u8], i64)] = &[
            (&[0x05], 5),
            (&[0xff], -1),
            (&[0xe0], -32),
            (&[0xd0, 0x80], -128),
            (&[0xd1, 0xff, 0x00], -256),
            (&[0xd2, 0xff, 0xff, 0x00, 0x00], -65_536),
            (&[0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0], i64::MIN),
            (&[0xd0, 0x05], 5),
            (&[0xcc, 0xc8], 200),
            (
                &[0xcf, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
                i64::MAX,
            ),
        ];
        for (bytes, expected) in cases {
            assert_eq!(
                from_slice::<i64>(bytes, 0, 8).unwrap(),
                *expected,
                "{bytes:02x?}"
            );
        }
        assert_eq!(from_slice::<i8>(&[0xd0, 0x80], 0, 8).unwrap(), -128);
        let err = from_slice::<i8>(&[0xd1, 0xff, 0x00], 0, 8).unwrap_err();
        assert!(err.to_string().contains("expected i8"), "{err}");
        let err = from_slice::<i64>(&[0xcf, 0xff, 0, 0, 0, 0, 0, 0, 0], 0, 8).unwrap_err();
        assert!(err.to_string().contains("expected i64"), "{err}");
        let err = from_slice::<i64>(&[0xcb, 0, 0, 0, 0, 0, 0, 0, 0], 0, 8).unwrap_err();
        assert!(err.to_string().contains("expected i64"), "{err}");
        // An int 16 at offset 10 cut short: the error is where its 2 bytes start.
        let err = from_slice::<i64>(&[0xd1, 0xff], 10, 8).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ErrorKind::UnexpectedEnd, Some(11))
        );
    }

    #[test]
    fn a_string_reads_every_string_head_and_checks_it() {
        assert_eq!(
            from_slice::<String>(&[0xa2, b'h', b'i'], 0, 8).unwrap(),
            "hi"
        );
        assert_eq!(
            from_slice::<&str>(&[0xd9, 0x02, b'h', b'i'], 0, 8).unwrap(),
            "hi"
        );
        // A fixstr at offset 10 whose second byte is not UTF-8: the error is at that byte.
        let err = from_slice::<String>(&[0xa2, b'h', 0xff], 10, 8).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ErrorKind::InvalidUtf8, Some(12))
        );
        let err = from_slice::<String>(&[0xa3, b'h', b'i'], 10, 8).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::LengthPastEnd);
    }

    #[test]
    fn a_truncated_or_mistyped_f64_is_an_error_where_it_is() {
        let float64 = [0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0];
        // A float64 at offset 10 whose 8 bytes are cut short: the error is where they start.
        for len in 0..float64.len() {
            let err = from_slice::<f64>(&float64[..len], 10, 8).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::UnexpectedEnd, "{len}");
            assert_eq!(err.offset(), Some(if len == 0 { 10 } else { 11 }), "{len}");
        }
        let err = from_slice::<f64>(&[0xa1, b'x'], 10, 8).unwrap_err();
        assert!(err.to_string().contains("expected f64"), "{err}");
    }
}
