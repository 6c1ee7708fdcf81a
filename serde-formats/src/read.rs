//! The one input cursor of the crate: [`Cursor`], a read position in a byte slice whose every
//! read is bounded by the bytes left, and whose errors carry the absolute `u64` byte offset
//! (`base + pos`, `base` being where the slice starts in the whole input).
//!
//! The DyND deserializer, the TOC MessagePack reader and `vector`'s restore from a slice read
//! through it; a format adds its own decoding (MessagePack heads, ...) as inherent methods next
//! to its code.

use crate::error::{Error, ErrorKind, Position, Result};
use crate::varint;

/// Where a cursor's slice starts in the whole input: `u64` for a piece of a larger input, `()`
/// (zero, and no bytes in the cursor) for a cursor over the whole input, so that hot decoders
/// keep a four-word cursor (two slices) in registers.
pub(crate) trait Base: Copy {
    /// The absolute offset of the slice's first byte.
    fn get(self) -> u64;
}

impl Base for () {
    #[inline]
    fn get(self) -> u64 {
        0
    }
}

impl Base for u64 {
    #[inline]
    fn get(self) -> u64 {
        self
    }
}

/// A read position in a byte slice. Reads never go past the end: each checks the bytes left
/// first and is an error at the current offset otherwise.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cursor<'a, B = u64> {
    buf: &'a [u8],
    /// The bytes of `buf` not read yet, always a suffix of it: a read checks its length once
    /// and moves its start, and the position is derived (`buf.len() - rest.len()`) only where
    /// it is needed, for offsets in errors and the like.
    rest: &'a [u8],
    /// The absolute offset of `buf[0]`, for errors.
    base: B,
}

impl<'a> Cursor<'a, ()> {
    /// A cursor at the start of `buf`, which is the whole input.
    #[inline]
    pub(crate) fn new(buf: &'a [u8]) -> Self {
        Cursor {
            buf,
            rest: buf,
            base: (),
        }
    }
}

impl<'a> Cursor<'a, u64> {
    /// A cursor at `pos` within `buf`, whose first byte is at absolute offset `base`.
    #[inline]
    pub(crate) fn at(buf: &'a [u8], pos: usize, base: u64) -> Self {
        Cursor {
            buf,
            rest: buf.get(pos..).unwrap_or_default(),
            base,
        }
    }
}

impl<'a, B: Base> Cursor<'a, B> {
    /// The position of the next unread byte within the slice.
    #[inline]
    pub(crate) fn pos(&self) -> usize {
        self.buf.len() - self.rest.len()
    }

    /// Moves to `pos` within the slice (at most its end).
    #[inline]
    pub(crate) fn set_pos(&mut self, pos: usize) {
        self.rest = self.buf.get(pos..).unwrap_or_default();
    }

    /// The absolute offset of the next unread byte.
    #[inline]
    pub(crate) fn offset(&self) -> u64 {
        self.base.get() + self.pos() as u64
    }

    /// The whole slice, read or not.
    #[inline]
    pub(crate) fn slice(&self) -> &'a [u8] {
        self.buf
    }

    /// The bytes not read yet.
    #[inline]
    pub(crate) fn remaining(&self) -> &'a [u8] {
        self.rest
    }

    /// Whether every byte has been read.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.rest.is_empty()
    }

    /// The bytes from `start` (an earlier position) up to the current one.
    #[inline]
    pub(crate) fn since(&self, start: usize) -> &'a [u8] {
        self.buf.get(start..self.pos()).unwrap_or_default()
    }

    /// A varint error found at offset 0 of the unread bytes, placed at the cursor: the offset
    /// is worked out on the error path only.
    #[cold]
    fn relocate(&self, err: Error) -> Error {
        err.with_position(Position::Byte(self.offset()))
    }

    /// An error of `kind` at the current offset.
    #[cold]
    pub(crate) fn error(&self, kind: ErrorKind) -> Error {
        Error::at(kind, self.offset())
    }

    /// An error of `kind` with `message` at the current offset.
    #[cold]
    pub(crate) fn error_msg(&self, kind: ErrorKind, message: &str) -> Error {
        Error::with_message(kind, message).or_position(Position::Byte(self.offset()))
    }

    /// Takes the next `len` bytes; [`ErrorKind::UnexpectedEnd`] when fewer remain.
    #[inline]
    pub(crate) fn take(&mut self, len: usize) -> Result<&'a [u8]> {
        self.take_or(len, ErrorKind::UnexpectedEnd)
    }

    /// Takes the `len` bytes of a body whose length came from the input;
    /// [`ErrorKind::LengthPastEnd`] when fewer remain.
    #[inline]
    pub(crate) fn take_body(&mut self, len: usize) -> Result<&'a [u8]> {
        self.take_or(len, ErrorKind::LengthPastEnd)
    }

    #[inline]
    fn take_or(&mut self, len: usize, kind: ErrorKind) -> Result<&'a [u8]> {
        match self.rest.split_at_checked(len) {
            Some((bytes, rest)) => {
                self.rest = rest;
                Ok(bytes)
            }
            None => Err(self.error(kind)),
        }
    }

    /// Takes the next `N` bytes as an array (the width of a primitive).
    #[inline]
    pub(crate) fn take_array<const N: usize>(&mut self) -> Result<[u8; N]> {
        match self.rest.split_first_chunk::<N>() {
            Some((bytes, rest)) => {
                self.rest = rest;
                Ok(*bytes)
            }
            None => Err(self.error(ErrorKind::UnexpectedEnd)),
        }
    }

    /// Looks at the next `N` bytes without taking them.
    #[inline]
    pub(crate) fn peek_array<const N: usize>(&self) -> Result<[u8; N]> {
        match self.rest.first_chunk::<N>() {
            Some(bytes) => Ok(*bytes),
            None => Err(self.error(ErrorKind::UnexpectedEnd)),
        }
    }

    /// Takes one byte.
    #[inline]
    pub(crate) fn byte(&mut self) -> Result<u8> {
        let [byte] = self.take_array::<1>()?;
        Ok(byte)
    }

    /// Looks at the next byte without taking it.
    #[inline]
    pub(crate) fn peek(&self) -> Result<u8> {
        let [byte] = self.peek_array::<1>()?;
        Ok(byte)
    }

    /// Takes a minimal LEB128 `u64` (see [`varint`]).
    #[inline]
    pub(crate) fn varint(&mut self) -> Result<u64> {
        match varint::decode_u64(self.rest, 0) {
            Ok((value, len)) => {
                self.rest = self.rest.get(len..).unwrap_or_default();
                Ok(value)
            }
            Err(err) => Err(self.relocate(err)),
        }
    }

    /// Takes a LEB128 length prefix and the bytes it announces.
    ///
    /// # Errors
    /// [`ErrorKind::LengthPastEnd`] at the prefix when it claims more than the bytes left.
    #[inline]
    pub(crate) fn length_prefixed(&mut self) -> Result<&'a [u8]> {
        let start = self.offset();
        let len = self.varint()?;
        match usize::try_from(len) {
            Ok(len) if len <= self.remaining().len() => self.take(len),
            _ => Err(Error::at(ErrorKind::LengthPastEnd, start)),
        }
    }
}

/// `bytes` as text, as [`std::str::from_utf8`] checks it, with one quick pass first for
/// bytes that are all ASCII: most strings a format reads (names, keys, labels) are short and
/// ASCII, and the general check costs several instructions a byte on them (typed-column
/// structs with an 11-byte name: 115 instructions a string, an eighth of reading the struct).
#[inline]
pub(crate) fn utf8(bytes: &[u8]) -> std::result::Result<&str, std::str::Utf8Error> {
    if bytes.is_ascii() {
        // SAFETY: every ASCII byte is a whole UTF-8 character, so all-ASCII bytes are valid
        // UTF-8.
        return Ok(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    std::str::from_utf8(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_prefix_past_the_end_is_an_error_at_the_prefix() {
        let mut cursor = Cursor::new(&[0x01, 0x05, b'a', b'b']);
        cursor.byte().unwrap();
        let err = cursor.length_prefixed().unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ErrorKind::LengthPastEnd, Some(1))
        );
    }

    #[test]
    fn huge_length_prefix_does_not_allocate_or_panic() {
        let bytes = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
        let err = Cursor::new(&bytes).length_prefixed().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::LengthPastEnd);
    }

    #[test]
    fn reads_borrowed_pieces_and_tracks_offsets() {
        let mut cursor = Cursor::new(&[0x02, b'h', b'i', 0x07]);
        assert_eq!(cursor.length_prefixed().unwrap(), b"hi");
        assert_eq!(cursor.since(1), b"hi");
        assert_eq!(cursor.peek_array::<1>().unwrap(), [0x07]);
        assert_eq!(cursor.byte().unwrap(), 0x07);
        let err = cursor.take_array::<2>().unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ErrorKind::UnexpectedEnd, Some(4))
        );
    }

    #[test]
    fn errors_carry_the_absolute_offset_and_the_kind_of_read() {
        let mut cursor = Cursor::at(&[1, 2, 3], 1, 100);
        assert_eq!(cursor.offset(), 101);
        let err = cursor.take_body(5).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ErrorKind::LengthPastEnd, Some(101))
        );
        let err = cursor.take(5).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ErrorKind::UnexpectedEnd, Some(101))
        );
        assert_eq!(cursor.take(2).unwrap(), [2, 3]);
        assert!(cursor.is_empty());
        assert_eq!(cursor.peek().unwrap_err().offset(), Some(103));
    }

    #[test]
    fn a_varint_error_is_at_the_absolute_offset() {
        let mut cursor = Cursor::at(&[0x80, 0x00], 0, 40);
        let err = cursor.varint().unwrap_err();
        assert_eq!((err.kind(), err.offset()), (ErrorKind::BadVarint, Some(40)));
    }

    #[test]
    fn text_is_checked_alike_on_the_ascii_pass_and_off_it() {
        for bytes in [
            &b""[..],
            b"sensor-42",
            "caf\u{e9} \u{1f600}".as_bytes(),
            b"abc\xffdef",
            b"abcdefgh\xc3",
            b"\xed\xa0\x80 a surrogate",
        ] {
            let ours = utf8(bytes).map_err(|err| err.valid_up_to());
            let std = std::str::from_utf8(bytes).map_err(|err| err.valid_up_to());
            assert_eq!(ours, std, "{bytes:?}");
        }
        assert_eq!(utf8(b"abc\xffdef").unwrap_err().valid_up_to(), 3);
    }
}
