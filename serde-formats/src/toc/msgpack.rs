//! MessagePack primitives on the read side: one item head at a time from a byte slice, and
//! skipping whole values without building them.
//!
//! Writing goes through the `rmp` crate (`rmp::encode`), whose integer, string, binary and
//! container-length writers already pick the smallest encoding, as msglc's codec does.

use crate::error::{Error, ErrorKind, Result};

/// The head of one MessagePack item: its marker and fixed-size payload. For strings, binaries,
/// extensions and containers it carries the length; the body follows in the input.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Head {
    Nil,
    Bool(bool),
    /// A positive fixint or a `uint 8/16/32/64`.
    UInt(u64),
    /// A negative fixint or an `int 8/16/32/64` (which may hold a non-negative value).
    Int(i64),
    F32(f32),
    F64(f64),
    Str(u32),
    Bin(u32),
    Array(u32),
    Map(u32),
    Ext(i8, u32),
}

/// A read position in a byte slice that reports errors as absolute offsets (`base + pos`).
#[derive(Debug, Clone)]
pub(crate) struct Cursor<'a> {
    buf: &'a [u8],
    pos: usize,
    base: u64,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `buf`, whose first byte is at absolute offset `base`.
    pub(crate) fn new(buf: &'a [u8], base: u64) -> Self {
        Cursor { buf, pos: 0, base }
    }

    /// A cursor at `pos` within `buf`.
    pub(crate) fn at(buf: &'a [u8], pos: usize, base: u64) -> Self {
        Cursor { buf, pos, base }
    }

    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    pub(crate) fn set_pos(&mut self, pos: usize) {
        self.pos = pos;
    }

    /// The absolute offset of the next byte.
    pub(crate) fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    pub(crate) fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.pos >= self.buf.len()
    }

    pub(crate) fn slice(&self) -> &'a [u8] {
        self.buf
    }

    /// An error of `kind` at the current position.
    #[cold]
    pub(crate) fn error(&self, kind: ErrorKind) -> Error {
        Error::at(kind, self.offset())
    }

    /// An error of `kind` with a message at the current position.
    #[cold]
    pub(crate) fn error_msg(&self, kind: ErrorKind, message: &str) -> Error {
        Error::with_message(kind, message).or_position(crate::Position::Byte(self.offset()))
    }

    #[inline]
    pub(crate) fn byte(&mut self) -> Result<u8> {
        match self.buf.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(self.error(ErrorKind::UnexpectedEnd)),
        }
    }

    #[inline]
    pub(crate) fn peek(&self) -> Result<u8> {
        self.buf
            .get(self.pos)
            .copied()
            .ok_or_else(|| self.error(ErrorKind::UnexpectedEnd))
    }

    /// Takes `n` bytes of a body whose length came from the input.
    #[inline]
    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if n > self.remaining() {
            return Err(self.error(ErrorKind::LengthPastEnd));
        }
        let out = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    #[inline]
    fn fixed<const N: usize>(&mut self) -> Result<[u8; N]> {
        match self.buf.get(self.pos..self.pos + N) {
            Some(bytes) => {
                let mut out = [0u8; N];
                out.copy_from_slice(bytes);
                self.pos += N;
                Ok(out)
            }
            None => Err(self.error(ErrorKind::UnexpectedEnd)),
        }
    }

    fn u8(&mut self) -> Result<u8> {
        self.byte()
    }
    fn u16(&mut self) -> Result<u16> {
        self.fixed::<2>().map(u16::from_be_bytes)
    }
    fn u32(&mut self) -> Result<u32> {
        self.fixed::<4>().map(u32::from_be_bytes)
    }
    fn u64(&mut self) -> Result<u64> {
        self.fixed::<8>().map(u64::from_be_bytes)
    }

    /// Reads the marker and fixed-size payload of the next item.
    #[inline]
    pub(crate) fn head(&mut self) -> Result<Head> {
        let start = self.pos;
        let marker = self.byte()?;
        let head = match marker {
            0x00..=0x7f => Head::UInt(u64::from(marker)),
            0x80..=0x8f => Head::Map(u32::from(marker & 0x0f)),
            0x90..=0x9f => Head::Array(u32::from(marker & 0x0f)),
            0xa0..=0xbf => Head::Str(u32::from(marker & 0x1f)),
            0xc0 => Head::Nil,
            0xc2 => Head::Bool(false),
            0xc3 => Head::Bool(true),
            0xc4 => Head::Bin(u32::from(self.u8()?)),
            0xc5 => Head::Bin(u32::from(self.u16()?)),
            0xc6 => Head::Bin(self.u32()?),
            0xc7 => {
                let len = u32::from(self.u8()?);
                Head::Ext(self.u8()? as i8, len)
            }
            0xc8 => {
                let len = u32::from(self.u16()?);
                Head::Ext(self.u8()? as i8, len)
            }
            0xc9 => {
                let len = self.u32()?;
                Head::Ext(self.u8()? as i8, len)
            }
            0xca => Head::F32(f32::from_bits(self.u32()?)),
            0xcb => Head::F64(f64::from_bits(self.u64()?)),
            0xcc => Head::UInt(u64::from(self.u8()?)),
            0xcd => Head::UInt(u64::from(self.u16()?)),
            0xce => Head::UInt(u64::from(self.u32()?)),
            0xcf => Head::UInt(self.u64()?),
            0xd0 => Head::Int(i64::from(self.u8()? as i8)),
            0xd1 => Head::Int(i64::from(self.u16()? as i16)),
            0xd2 => Head::Int(i64::from(self.u32()? as i32)),
            0xd3 => Head::Int(self.u64()? as i64),
            0xd4 => Head::Ext(self.u8()? as i8, 1),
            0xd5 => Head::Ext(self.u8()? as i8, 2),
            0xd6 => Head::Ext(self.u8()? as i8, 4),
            0xd7 => Head::Ext(self.u8()? as i8, 8),
            0xd8 => Head::Ext(self.u8()? as i8, 16),
            0xd9 => Head::Str(u32::from(self.u8()?)),
            0xda => Head::Str(u32::from(self.u16()?)),
            0xdb => Head::Str(self.u32()?),
            0xdc => Head::Array(u32::from(self.u16()?)),
            0xdd => Head::Array(self.u32()?),
            0xde => Head::Map(u32::from(self.u16()?)),
            0xdf => Head::Map(self.u32()?),
            0xe0..=0xff => Head::Int(i64::from(marker as i8)),
            // 0xc1 is never used.
            _ => {
                self.pos = start;
                return Err(self.error_msg(ErrorKind::BadMsgpack, "reserved marker 0xc1"));
            }
        };
        Ok(head)
    }

    /// Skips one whole value, however deeply nested, without recursion.
    pub(crate) fn skip_value(&mut self) -> Result<()> {
        self.skip_values(1)
    }

    /// Skips `count` consecutive whole values.
    pub(crate) fn skip_values(&mut self, count: u64) -> Result<()> {
        // Every pending item needs at least one byte, so this loop ends with the input.
        let mut pending = count;
        while pending > 0 {
            pending -= 1;
            match self.head()? {
                Head::Str(n) | Head::Bin(n) | Head::Ext(_, n) => {
                    self.take(n as usize)?;
                }
                Head::Array(n) => pending += u64::from(n),
                Head::Map(n) => pending += 2 * u64::from(n),
                _ => {}
            }
        }
        Ok(())
    }

    /// Reads a non-negative integer (any integer marker).
    pub(crate) fn uint(&mut self, kind: ErrorKind) -> Result<u64> {
        let start = self.pos;
        match self.head()? {
            Head::UInt(v) => Ok(v),
            Head::Int(v) if v >= 0 => Ok(v as u64),
            _ => {
                self.pos = start;
                Err(self.error_msg(kind, "expected a non-negative integer"))
            }
        }
    }

    /// Reads an array header.
    pub(crate) fn array_len(&mut self, kind: ErrorKind) -> Result<u32> {
        let start = self.pos;
        match self.head()? {
            Head::Array(n) => Ok(n),
            _ => {
                self.pos = start;
                Err(self.error_msg(kind, "expected an array"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_of_every_marker_family() {
        // Bytes from the MessagePack specification's format table.
        let cases: &[(&[u8], Head)] = &[
            (&[0x05], Head::UInt(5)),
            (&[0xff], Head::Int(-1)),
            (&[0xcc, 0xc8], Head::UInt(200)),
            (&[0xd0, 0x80], Head::Int(-128)),
            (
                &[0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
                Head::UInt(u64::MAX),
            ),
            (&[0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0], Head::Int(i64::MIN)),
            (&[0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0], Head::F64(1.5)),
            (&[0xa3], Head::Str(3)),
            (&[0xd9, 0x28], Head::Str(40)),
            (&[0xc4, 0x02], Head::Bin(2)),
            (&[0x92], Head::Array(2)),
            (&[0xde, 0x01, 0x00], Head::Map(256)),
            (&[0xd4, 0x07], Head::Ext(7, 1)),
            (&[0xc0], Head::Nil),
            (&[0xc3], Head::Bool(true)),
        ];
        for (bytes, head) in cases {
            let mut cur = Cursor::new(bytes, 0);
            assert_eq!(cur.head().unwrap(), *head, "{bytes:02x?}");
            assert!(cur.is_empty());
        }
    }

    #[test]
    fn reserved_marker_is_an_error_at_its_offset() {
        let err = Cursor::new(&[0x91, 0xc1], 50).skip_value().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::BadMsgpack);
        assert_eq!(err.offset(), Some(51));
    }

    #[test]
    fn skip_walks_nested_values() {
        // {"a": [1, "xy"], "b": nil}, then 0x07
        let bytes = [
            0x82, 0xa1, b'a', 0x92, 0x01, 0xa2, b'x', b'y', 0xa1, b'b', 0xc0, 0x07,
        ];
        let mut cur = Cursor::new(&bytes, 0);
        cur.skip_value().unwrap();
        assert_eq!(cur.pos(), 11);
    }

    #[test]
    fn skip_rejects_every_truncation_and_huge_counts() {
        let bytes = [
            0x82, 0xa1, b'a', 0x92, 0x01, 0xa2, b'x', b'y', 0xa1, b'b', 0xc0,
        ];
        for len in 0..bytes.len() {
            assert!(Cursor::new(&bytes[..len], 0).skip_value().is_err(), "{len}");
        }
        // array32 of 4 billion items with one present
        let huge = [0xdd, 0xff, 0xff, 0xff, 0xff, 0x01];
        let err = Cursor::new(&huge, 0).skip_value().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
        let long_str = [0xdb, 0xff, 0xff, 0xff, 0xff, b'a'];
        let err = Cursor::new(&long_str, 0).skip_value().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::LengthPastEnd);
    }
}
