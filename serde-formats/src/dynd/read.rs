//! The input side: a cursor over a byte slice that hands out borrowed pieces and knows the byte
//! offset of everything it reads, so each error can say where the input went wrong.

use super::varint;
use crate::{Error, ErrorKind, Result};

/// A cursor over the whole input. Every read checks the remaining length first.
#[derive(Clone, Copy)]
pub(crate) struct SliceReader<'de> {
    input: &'de [u8],
    pos: usize,
}

impl<'de> SliceReader<'de> {
    pub(crate) fn new(input: &'de [u8]) -> Self {
        SliceReader { input, pos: 0 }
    }

    /// Byte offset of the next unread byte.
    #[inline]
    pub(crate) fn offset(&self) -> usize {
        self.pos
    }

    /// Bytes not read yet.
    #[inline]
    pub(crate) fn remaining(&self) -> &'de [u8] {
        // `pos` never exceeds `input.len()`: every advance is checked.
        self.input.get(self.pos..).unwrap_or_default()
    }

    /// The bytes from `start` (an earlier offset) up to the current offset.
    #[inline]
    pub(crate) fn since(&self, start: usize) -> &'de [u8] {
        self.input.get(start..self.pos).unwrap_or_default()
    }

    /// Takes the next `len` bytes.
    ///
    /// # Errors
    /// [`ErrorKind::UnexpectedEnd`] at the current offset when fewer bytes remain.
    #[inline]
    pub(crate) fn take(&mut self, len: usize) -> Result<&'de [u8]> {
        match self.remaining().get(..len) {
            Some(bytes) => {
                self.pos += len;
                Ok(bytes)
            }
            None => Err(Error::at(ErrorKind::UnexpectedEnd, self.pos as u64)),
        }
    }

    /// Takes the next `N` bytes as an array (the width of a primitive).
    #[inline]
    pub(crate) fn take_array<const N: usize>(&mut self) -> Result<[u8; N]> {
        match self.remaining().first_chunk::<N>() {
            Some(bytes) => {
                self.pos += N;
                Ok(*bytes)
            }
            None => Err(Error::at(ErrorKind::UnexpectedEnd, self.pos as u64)),
        }
    }

    /// Looks at the next `N` bytes without taking them.
    #[inline]
    pub(crate) fn peek_array<const N: usize>(&self) -> Result<[u8; N]> {
        match self.remaining().first_chunk::<N>() {
            Some(bytes) => Ok(*bytes),
            None => Err(Error::at(ErrorKind::UnexpectedEnd, self.pos as u64)),
        }
    }

    /// Takes one byte.
    #[inline]
    pub(crate) fn byte(&mut self) -> Result<u8> {
        let [byte] = self.take_array::<1>()?;
        Ok(byte)
    }

    /// Takes a minimal LEB128 `u64`.
    #[inline]
    pub(crate) fn varint(&mut self) -> Result<u64> {
        let (value, len) = varint::decode_u64(self.remaining(), self.pos)?;
        self.pos += len;
        Ok(value)
    }

    /// Takes a LEB128 length prefix and the bytes it announces.
    ///
    /// # Errors
    /// [`ErrorKind::LengthPastEnd`] at the prefix when it claims more than the bytes left.
    #[inline]
    pub(crate) fn length_prefixed(&mut self) -> Result<&'de [u8]> {
        let start = self.pos;
        let len = self.varint()?;
        match usize::try_from(len) {
            Ok(len) if len <= self.remaining().len() => self.take(len),
            _ => Err(Error::at(ErrorKind::LengthPastEnd, start as u64)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_prefix_past_the_end_is_an_error_at_the_prefix() {
        let mut reader = SliceReader::new(&[0x01, 0x05, b'a', b'b']);
        reader.byte().unwrap();
        let err = reader.length_prefixed().unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ErrorKind::LengthPastEnd, Some(1))
        );
    }

    #[test]
    fn huge_length_prefix_does_not_allocate_or_panic() {
        let bytes = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
        let err = SliceReader::new(&bytes).length_prefixed().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::LengthPastEnd);
    }

    #[test]
    fn reads_borrowed_pieces_and_tracks_offsets() {
        let mut reader = SliceReader::new(&[0x02, b'h', b'i', 0x07]);
        assert_eq!(reader.length_prefixed().unwrap(), b"hi");
        assert_eq!(reader.since(1), b"hi");
        assert_eq!(reader.peek_array::<1>().unwrap(), [0x07]);
        assert_eq!(reader.byte().unwrap(), 0x07);
        let err = reader.take_array::<2>().unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ErrorKind::UnexpectedEnd, Some(4))
        );
    }
}
