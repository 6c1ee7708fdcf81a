//! The decode context: what a column decoder is handed so that it reports offsets in the
//! whole input and honours the nesting limit of the deserializer it was found by.
//!
//! # Design
//!
//! Decoding state is carried explicitly, never in thread-locals:
//!
//! - The [`wire::Deserializer`] owns the input, the offset of the next byte and the depth
//!   left (its [`with_depth_limit`](wire::Deserializer::with_depth_limit), 128 by default);
//!   every sequence, tuple, struct, map, enum, `Some` and newtype inside it costs one level.
//! - A column is a byte string that its codec decodes later, often with a fresh reader or
//!   deserializer of its own (a Generic column of containers, the lazy row iterators of
//!   `iter_from_bytes`). So a container does not read its columns as plain bytes: it asks for
//!   them through the newtype name [`wire::LOCATED_BYTES`], and this crate's deserializer
//!   answers with a [`DecodeContext`]: the bytes, the offset of their first byte and the depth
//!   left at that point. The column decoder is built from that context (`CodecDe::iter`), so values nested inside a column
//!   (containers in a row, rows in those containers, deep serde values) spend the same budget,
//!   and a user's limit is honoured at every level. Another deserializer (postcard, say)
//!   does not know the name and hands over the plain bytes: the context then starts at
//!   offset 0 with the default limit.
//! - Errors travel as values: a codec or container error raised inside a serde visitor is
//!   returned as the deserializer's own error type, which is [`crate::Error`] itself when the
//!   deserializer is this crate's (see `wire::carry`), so the first column error reaches
//!   [`from_bytes`](crate::from_bytes) with its kind, offset and message.
//!
//! Encoding has no state to carry besides its errors, which travel the same way; a
//! container's columns are collected in the `ColumnsWriter` handed to its row type.

use std::fmt;

use serde::de::{self, DeserializeSeed, Visitor};
use serde::{Deserialize, Deserializer};

use crate::wire::{self, Reader};
use crate::{Error, ErrorKind, Result};

/// A column's bytes with where they sit in the input and the nesting depth left to the values
/// inside them: all that a column decoder needs from the deserializer that found it.
#[derive(Debug, Clone, Copy)]
pub struct DecodeContext<'de> {
    bytes: &'de [u8],
    offset: usize,
    depth_left: usize,
}

impl<'de> DecodeContext<'de> {
    /// `bytes` starting at `offset` of the input, with `depth_left` levels of nesting allowed.
    pub fn new(bytes: &'de [u8], offset: usize, depth_left: usize) -> Self {
        DecodeContext {
            bytes,
            offset,
            depth_left,
        }
    }

    /// The column's bytes.
    #[inline]
    pub fn bytes(&self) -> &'de [u8] {
        self.bytes
    }

    /// The offset of the first byte in the input.
    #[inline]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// How many levels of nesting the values inside may still use.
    #[inline]
    pub fn depth_left(&self) -> usize {
        self.depth_left
    }

    /// A reader over the bytes, reporting offsets in the input.
    pub fn reader(&self) -> Reader<'de> {
        Reader::with_base(self.bytes, self.offset)
    }

    /// A deserializer over the bytes, reporting offsets in the input, with the depth left.
    pub fn deserializer(&self) -> wire::Deserializer<'de> {
        wire::Deserializer::with_base(self.bytes, self.offset).with_depth_limit(self.depth_left)
    }

    /// The byte string at the start of these bytes, which must be all of them.
    ///
    /// # Errors
    /// The framing errors of the byte string; [`ErrorKind::TrailingBytes`] after it.
    pub fn inner_byte_string(&self) -> Result<DecodeContext<'de>> {
        let mut reader = self.reader();
        let inner = reader.read_bytes()?;
        if !reader.is_empty() {
            return Err(Error::at(ErrorKind::TrailingBytes, reader.offset() as u64));
        }
        Ok(DecodeContext {
            bytes: inner,
            offset: reader.offset() - inner.len(),
            depth_left: self.depth_left,
        })
    }
}

/// Reads a byte string together with its [`DecodeContext`] (see the module docs).
pub(crate) struct LocatedBytes;

impl<'de> DeserializeSeed<'de> for LocatedBytes {
    type Value = DecodeContext<'de>;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> std::result::Result<DecodeContext<'de>, D::Error> {
        deserializer.deserialize_newtype_struct(wire::LOCATED_BYTES, LocatedVisitor)
    }
}

struct LocatedVisitor;

impl<'de> Visitor<'de> for LocatedVisitor {
    type Value = DecodeContext<'de>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a byte string")
    }

    /// This crate's deserializer: the bytes, their offset, the depth left.
    #[inline]
    fn visit_seq<A: de::SeqAccess<'de>>(
        self,
        mut seq: A,
    ) -> std::result::Result<DecodeContext<'de>, A::Error> {
        let missing = |at| de::Error::invalid_length(at, &"a located byte string");
        let bytes: &'de [u8] = seq.next_element()?.ok_or_else(|| missing(0))?;
        let offset: usize = seq.next_element()?.ok_or_else(|| missing(1))?;
        let depth_left: usize = seq.next_element()?.ok_or_else(|| missing(2))?;
        Ok(DecodeContext::new(bytes, offset, depth_left))
    }

    /// Another deserializer: the plain byte string, offsets from its first byte.
    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> std::result::Result<DecodeContext<'de>, D::Error> {
        let bytes = <&'de [u8]>::deserialize(deserializer)?;
        Ok(DecodeContext::new(bytes, 0, wire::DEFAULT_DEPTH_LIMIT))
    }

    fn visit_borrowed_bytes<E: de::Error>(
        self,
        bytes: &'de [u8],
    ) -> std::result::Result<DecodeContext<'de>, E> {
        Ok(DecodeContext::new(bytes, 0, wire::DEFAULT_DEPTH_LIMIT))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_crates_deserializer_gives_offset_and_depth() {
        let input = [0x07, 0x02, 0xaa, 0xbb];
        let mut de = wire::Deserializer::from_bytes(&input).with_depth_limit(9);
        assert_eq!(u8::deserialize(&mut de).unwrap(), 7);
        let context = LocatedBytes.deserialize(&mut de).unwrap();
        assert_eq!(context.bytes(), [0xaa, 0xbb]);
        assert_eq!((context.offset(), context.depth_left()), (2, 9));
    }

    #[test]
    fn another_deserializer_gives_the_bytes_from_offset_zero() {
        let input = [0x02, 0xaa, 0xbb];
        let mut de = postcard::Deserializer::from_bytes(&input);
        let context = LocatedBytes.deserialize(&mut de).unwrap();
        assert_eq!(context.bytes(), [0xaa, 0xbb]);
        assert_eq!(
            (context.offset(), context.depth_left()),
            (0, wire::DEFAULT_DEPTH_LIMIT)
        );
    }

    #[test]
    fn an_inner_byte_string_keeps_absolute_offsets() {
        let context = DecodeContext::new(&[0x01, 0x05], 10, 3);
        let inner = context.inner_byte_string().unwrap();
        assert_eq!((inner.bytes(), inner.offset()), (&[0x05][..], 11));
        let err = DecodeContext::new(&[0x00, 0x05], 10, 3)
            .inner_byte_string()
            .unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ErrorKind::TrailingBytes, Some(11))
        );
    }
}
