//! Unsigned LEB128 ("base 128 varint"), the crate's one varint module: DyND's length and count
//! prefix, read through [`Cursor::varint`](crate::read::Cursor::varint).
//!
//! Only the minimal encoding of a number is accepted: no trailing `0x80 .. 0x00` padding and
//! nothing past the 64 bits of a `u64`.

use crate::{Error, ErrorKind, Result};

/// The longest LEB128 encoding of a `u64`: ceil(64 / 7) bytes.
pub(crate) const MAX_U64_LEN: usize = 10;

/// Appends the LEB128 encoding of `value` to `buf` and returns how many bytes it took.
#[inline]
pub(crate) fn encode_u64(mut value: u64, buf: &mut [u8; MAX_U64_LEN]) -> usize {
    let mut len = 0;
    loop {
        let byte = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            buf[len] = byte;
            return len + 1;
        }
        buf[len] = byte | 0x80;
        len += 1;
    }
}

/// Decodes a minimal LEB128 `u64` at the start of `input`, returning the value and the number of
/// bytes it used. `offset` is where `input` starts in the whole input, for errors.
///
/// # Errors
/// [`ErrorKind::UnexpectedEnd`] when the input ends inside the varint, [`ErrorKind::BadVarint`]
/// when the encoding is longer than needed or the value does not fit 64 bits.
#[inline]
pub(crate) fn decode_u64(input: &[u8], offset: u64) -> Result<(u64, usize)> {
    // One-byte fast path: the common case for lengths below 128.
    if let Some(&first) = input.first() {
        if first < 0x80 {
            return Ok((u64::from(first), 1));
        }
    }
    let mut value: u64 = 0;
    for (i, &byte) in input.iter().enumerate().take(MAX_U64_LEN) {
        let bits = u64::from(byte & 0x7f);
        if i == MAX_U64_LEN - 1 && byte > 0x01 {
            // The tenth byte may only carry the single top bit of a u64.
            return Err(Error::at(ErrorKind::BadVarint, offset));
        }
        value |= bits << (7 * i);
        if byte & 0x80 == 0 {
            if byte == 0 && i > 0 {
                // A last byte of zero adds nothing: a shorter encoding exists.
                return Err(Error::at(ErrorKind::BadVarint, offset));
            }
            return Ok((value, i + 1));
        }
    }
    if input.len() >= MAX_U64_LEN {
        Err(Error::at(ErrorKind::BadVarint, offset))
    } else {
        Err(Error::at(ErrorKind::UnexpectedEnd, offset))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(value: u64) -> Vec<u8> {
        let mut buf = [0; MAX_U64_LEN];
        let len = encode_u64(value, &mut buf);
        buf[..len].to_vec()
    }

    #[test]
    fn encodes_protobuf_examples() {
        // docs/spec/dynd.md §3.1 (LEB128, as in the protobuf encoding guide).
        assert_eq!(encode(0), [0x00]);
        assert_eq!(encode(1), [0x01]);
        assert_eq!(encode(127), [0x7f]);
        assert_eq!(encode(128), [0x80, 0x01]);
        assert_eq!(encode(150), [0x96, 0x01]);
        assert_eq!(encode(300), [0xac, 0x02]);
        assert_eq!(encode(16_384), [0x80, 0x80, 0x01]);
        assert_eq!(
            encode(u64::MAX),
            [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]
        );
    }

    #[test]
    fn decodes_what_it_encodes() {
        for value in [
            0,
            1,
            127,
            128,
            150,
            300,
            16_383,
            16_384,
            u64::MAX / 3,
            u64::MAX,
        ] {
            let bytes = encode(value);
            assert_eq!(decode_u64(&bytes, 0).unwrap(), (value, bytes.len()));
        }
    }

    #[test]
    fn rejects_overlong_encodings() {
        for bytes in [
            &[0x80, 0x00][..],
            &[0x81, 0x00],
            &[0xff, 0x80, 0x00],
            &[0x96, 0x81, 0x00],
        ] {
            assert_eq!(
                decode_u64(bytes, 5).unwrap_err().kind(),
                ErrorKind::BadVarint
            );
            assert_eq!(decode_u64(bytes, 5).unwrap_err().offset(), Some(5));
        }
    }

    #[test]
    fn rejects_values_past_64_bits() {
        let mut too_big = vec![0xff; 9];
        too_big.push(0x02);
        assert_eq!(
            decode_u64(&too_big, 0).unwrap_err().kind(),
            ErrorKind::BadVarint
        );
        let eleven = vec![0x80; 11];
        assert_eq!(
            decode_u64(&eleven, 0).unwrap_err().kind(),
            ErrorKind::BadVarint
        );
    }

    #[test]
    fn rejects_every_truncation() {
        for value in [128, 300, u64::MAX] {
            let bytes = encode(value);
            for cut in 0..bytes.len() {
                let err = decode_u64(&bytes[..cut], 0).unwrap_err();
                assert_eq!(err.kind(), ErrorKind::UnexpectedEnd, "{value} cut at {cut}");
            }
        }
    }
}
