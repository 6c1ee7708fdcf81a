//! MessagePack primitives on the read side: one item head at a time from a byte slice, and
//! skipping whole values without building them.
//!
//! Writing goes through the `rmp` crate (`rmp::encode`), whose integer, string, binary and
//! container-length writers already pick the smallest encoding, as msglc's codec does.

use crate::error::{ErrorKind, Result};

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

pub(crate) use crate::read::Cursor;

/// The MessagePack reads, on the crate's one cursor.
impl Cursor<'_> {
    #[inline]
    fn u8(&mut self) -> Result<u8> {
        self.byte()
    }
    #[inline]
    fn u16(&mut self) -> Result<u16> {
        self.take_array().map(u16::from_be_bytes)
    }
    #[inline]
    fn u32(&mut self) -> Result<u32> {
        self.take_array().map(u32::from_be_bytes)
    }
    #[inline]
    fn u64(&mut self) -> Result<u64> {
        self.take_array().map(u64::from_be_bytes)
    }

    /// Reads the marker and fixed-size payload of the next item.
    #[inline]
    pub(crate) fn head(&mut self) -> Result<Head> {
        let start = self.pos();
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
                self.set_pos(start);
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
                    self.take_body(n as usize)?;
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
        let start = self.pos();
        match self.head()? {
            Head::UInt(v) => Ok(v),
            Head::Int(v) if v >= 0 => Ok(v as u64),
            _ => {
                self.set_pos(start);
                Err(self.error_msg(kind, "expected a non-negative integer"))
            }
        }
    }

    /// Reads an array header.
    pub(crate) fn array_len(&mut self, kind: ErrorKind) -> Result<u32> {
        let start = self.pos();
        match self.head()? {
            Head::Array(n) => Ok(n),
            _ => {
                self.set_pos(start);
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
            let mut cur = Cursor::at(bytes, 0, 0);
            assert_eq!(cur.head().unwrap(), *head, "{bytes:02x?}");
            assert!(cur.is_empty());
        }
    }

    #[test]
    fn reserved_marker_is_an_error_at_its_offset() {
        let err = Cursor::at(&[0x91, 0xc1], 0, 50).skip_value().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::BadMsgpack);
        assert_eq!(err.offset(), Some(51));
    }

    #[test]
    fn skip_walks_nested_values() {
        // {"a": [1, "xy"], "b": nil}, then 0x07
        let bytes = [
            0x82, 0xa1, b'a', 0x92, 0x01, 0xa2, b'x', b'y', 0xa1, b'b', 0xc0, 0x07,
        ];
        let mut cur = Cursor::at(&bytes, 0, 0);
        cur.skip_value().unwrap();
        assert_eq!(cur.pos(), 11);
    }

    #[test]
    fn skip_rejects_every_truncation_and_huge_counts() {
        let bytes = [
            0x82, 0xa1, b'a', 0x92, 0x01, 0xa2, b'x', b'y', 0xa1, b'b', 0xc0,
        ];
        for len in 0..bytes.len() {
            assert!(
                Cursor::at(&bytes[..len], 0, 0).skip_value().is_err(),
                "{len}"
            );
        }
        // array32 of 4 billion items with one present
        let huge = [0xdd, 0xff, 0xff, 0xff, 0xff, 0x01];
        let err = Cursor::at(&huge, 0, 0).skip_value().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
        let long_str = [0xdb, 0xff, 0xff, 0xff, 0xff, b'a'];
        let err = Cursor::at(&long_str, 0, 0).skip_value().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::LengthPastEnd);
    }
}
