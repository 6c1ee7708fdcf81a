//! The file layout: magic, header fields, the framing every writer of a file shares
//! ([`begin_file`], [`finish_file`]: header placeholder, data, TOC, header), and the
//! table-of-contents tree the writer builds.

use std::io::{Seek, SeekFrom, Write};

use crate::error::{Error, ErrorKind, Result};

use super::codec::Codec;
use super::msgpack::{Cursor, Head};

/// Length of the magic field.
pub const MAGIC_LEN: usize = 30;
/// Length of each of the two header fields.
pub(crate) const HEADER_FIELD_LEN: usize = 10;
/// Offset of the data section: every position in a file is relative to this byte.
pub const DATA_START: usize = MAGIC_LEN + 2 * HEADER_FIELD_LEN;

/// msglc's default magic: 20 zero bytes, then ASCII `msglc-2024`.
pub const DEFAULT_MAGIC: [u8; MAGIC_LEN] = *b"\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0msglc-2024";

/// One header field: the smallest MessagePack unsigned integer for `value`, right-aligned in
/// ten bytes with zero bytes on the left (27 gives `00 x9, 1b`).
pub(crate) fn encode_header_field(value: u64) -> [u8; HEADER_FIELD_LEN] {
    let mut encoded = Vec::with_capacity(9);
    // Writing into a Vec cannot fail.
    let _ = rmp::encode::write_uint(&mut encoded, value);
    let mut field = [0u8; HEADER_FIELD_LEN];
    field[HEADER_FIELD_LEN - encoded.len()..].copy_from_slice(&encoded);
    field
}

/// Reads one header field: zero bytes, then one MessagePack unsigned integer of any width that
/// ends exactly at the end of the field. All zeros reads as 0.
pub(crate) fn decode_header_field(field: &[u8], offset: u64) -> Result<u64> {
    let Some(first) = field.iter().position(|&b| b != 0) else {
        return Ok(0);
    };
    let mut cur = Cursor::at(field, first, offset);
    let value = match cur.head() {
        Ok(Head::UInt(v)) => v,
        Ok(Head::Int(v)) if v >= 0 => v as u64,
        _ => {
            return Err(Error::with_message(
                ErrorKind::BadToc,
                "header field is not a right-aligned unsigned integer",
            )
            .with_position(crate::Position::Byte(offset + first as u64)))
        }
    };
    if !cur.is_empty() {
        return Err(Error::with_message(
            ErrorKind::BadToc,
            "header field has bytes after its integer",
        )
        .with_position(crate::Position::Byte(cur.offset())));
    }
    Ok(value)
}

/// The parsed 50-byte prefix of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Header {
    /// Start of the TOC, relative to the data start; also the length of the data.
    pub(crate) toc_start: u64,
    /// Length of the TOC in bytes.
    pub(crate) toc_len: u64,
}

impl Header {
    /// Parses the magic and header of a file whose first byte is at absolute offset `base`,
    /// in either codec ([`Codec::of_prefix`]).
    pub(crate) fn parse(prefix: &[u8], magic: &[u8; MAGIC_LEN], base: u64) -> Result<Header> {
        if prefix.len() < DATA_START {
            let matching = prefix.len().min(MAGIC_LEN);
            if prefix[..matching] != magic[..matching] {
                return Err(Error::at(ErrorKind::BadMagic, base));
            }
            return Err(Error::at(
                ErrorKind::UnexpectedEnd,
                base + prefix.len() as u64,
            ));
        }
        if prefix[..MAGIC_LEN] != magic[..] {
            return Err(Error::at(ErrorKind::BadMagic, base));
        }
        let field_a = &prefix[MAGIC_LEN..MAGIC_LEN + HEADER_FIELD_LEN];
        let field_b = &prefix[MAGIC_LEN + HEADER_FIELD_LEN..DATA_START];
        let (a_at, b_at) = (
            base + MAGIC_LEN as u64,
            base + (MAGIC_LEN + HEADER_FIELD_LEN) as u64,
        );
        let (toc_start, toc_len) = match Codec::of_prefix(prefix) {
            Codec::MessagePack => (
                decode_header_field(field_a, a_at)?,
                decode_header_field(field_b, b_at)?,
            ),
            // msglc's CBOR variant left-aligns its integers, so its first byte is never zero.
            Codec::Cbor => (
                super::cbor::decode_header_field(field_a, a_at)?,
                super::cbor::decode_header_field(field_b, b_at)?,
            ),
        };
        Ok(Header { toc_start, toc_len })
    }

    /// The 50-byte prefix for this header.
    pub(crate) fn encode(&self, magic: &[u8; MAGIC_LEN]) -> [u8; DATA_START] {
        let mut out = [0u8; DATA_START];
        out[..MAGIC_LEN].copy_from_slice(magic);
        out[MAGIC_LEN..MAGIC_LEN + HEADER_FIELD_LEN]
            .copy_from_slice(&encode_header_field(self.toc_start));
        out[MAGIC_LEN + HEADER_FIELD_LEN..].copy_from_slice(&encode_header_field(self.toc_len));
        out
    }
}

/// Starts a file at `out`'s position: a zero header where the real one will go (no reader
/// accepts it, so a file left unfinished is refused). Returns where the file starts; the data
/// follows.
pub(crate) fn begin_file<W: Write + Seek>(out: &mut W) -> Result<u64> {
    let base = out.stream_position()?;
    out.write_all(&[0u8; DATA_START])?;
    Ok(base)
}

/// Ends the file [`begin_file`] started at `base`, once its `data_len` bytes of data are
/// written: the `toc` after the data, the header (`toc_start` = `data_len`) with `magic` at
/// `base`, then `out` left at the end of the file, flushed. The TOC writer, the in-memory
/// writer, the [`Combiner`](super::Combiner) and the [`Appender`](super::Appender) all frame
/// their files here.
pub(crate) fn finish_file<W: Write + Seek>(
    out: &mut W,
    base: u64,
    data_len: u64,
    toc: &[u8],
    magic: &[u8; MAGIC_LEN],
) -> Result<()> {
    finish_file_then(out, base, data_len, toc, magic, |_| Ok(()))
}

/// [`finish_file`], calling `before_header` once the TOC is written and before the header is:
/// the [`Appender`](super::Appender) makes the TOC durable there, so that the header never
/// points at a TOC a crash could lose. The header is one write of [`DATA_START`] bytes when
/// `out` is buffered (a `BufWriter` flushes on the seek that follows it).
pub(crate) fn finish_file_then<W: Write + Seek>(
    out: &mut W,
    base: u64,
    data_len: u64,
    toc: &[u8],
    magic: &[u8; MAGIC_LEN],
    before_header: impl FnOnce(&mut W) -> Result<()>,
) -> Result<()> {
    out.write_all(toc)?;
    before_header(out)?;
    let header = Header {
        toc_start: data_len,
        toc_len: toc.len() as u64,
    };
    out.seek(SeekFrom::Start(base))?;
    out.write_all(&header.encode(magic))?;
    out.seek(SeekFrom::Start(
        base + DATA_START as u64 + data_len + toc.len() as u64,
    ))?;
    out.flush()?;
    Ok(())
}

// Writing into a Vec cannot fail; lengths beyond u32 were rejected while serializing.
pub(crate) fn write_uint(out: &mut Vec<u8>, value: u64) {
    let _ = rmp::encode::write_uint(out, value);
}

pub(crate) fn write_array_len(out: &mut Vec<u8>, len: usize) {
    let _ = rmp::encode::write_array_len(out, len as u32);
}

pub(crate) fn write_map_len(out: &mut Vec<u8>, len: usize) {
    let _ = rmp::encode::write_map_len(out, len as u32);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A header field holding `tail` right-aligned.
    fn field(tail: &[u8]) -> [u8; HEADER_FIELD_LEN] {
        let mut field = [0u8; HEADER_FIELD_LEN];
        field[HEADER_FIELD_LEN - tail.len()..].copy_from_slice(tail);
        field
    }

    /// The worked examples of docs/spec/toc-msgpack.md §5.1.
    #[test]
    fn header_fields_are_right_aligned_minimal_integers() {
        // docs/spec/toc-msgpack.md §5.1: 27 -> 00 x9, 1b; 326 -> 00 x7, cd 01 46 (the data
        // length of the document of §5.5).
        assert_eq!(encode_header_field(27), field(&[0x1b]));
        assert_eq!(encode_header_field(326), field(&[0xcd, 0x01, 0x46]));
        assert_eq!(
            decode_header_field(&field(&[0xcd, 0x01, 0x46]), 0).unwrap(),
            326
        );
    }

    /// The worked example of docs/spec/toc-msgpack.md §5.1.
    #[test]
    fn header_field_accepts_fixed_width_u64() {
        let fixed = field(&[0xcf, 0, 0, 0, 0, 0, 0, 0, 0x1b]);
        assert_eq!(decode_header_field(&fixed, 0).unwrap(), 27);
    }

    #[test]
    fn header_field_rejects_garbage() {
        let mut field = [0u8; 10];
        field[5] = 0x1b;
        field[9] = 0x01;
        let err = decode_header_field(&field, 30).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::BadToc);
        assert_eq!(err.offset(), Some(36));
        let mut field = [0u8; 10];
        field[9] = 0xa1; // a string marker
        assert_eq!(
            decode_header_field(&field, 0).unwrap_err().kind(),
            ErrorKind::BadToc
        );
        let mut field = [0u8; 10];
        field[8] = 0xcd; // truncated uint16
        field[9] = 0x01;
        assert!(decode_header_field(&field, 0).is_err());
    }
}
