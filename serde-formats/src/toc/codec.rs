//! The two codecs a file may use (MessagePack, or msglc's CBOR variant) behind one read
//! cursor, so the lazy reader walks TOCs and values the same way in both; and decoding a value
//! of either codec through the MessagePack deserializer.

use serde::de::DeserializeOwned;

use crate::error::{Position, Result};

use super::layout::MAGIC_LEN;
use super::msgpack::{self, Head};
use super::{cbor, de};

/// The codec of a file's data and TOC, told by its header.
///
/// msglc writes MessagePack by default and CBOR when given `packer=CBORCodec`; a combined file
/// may hold files of both codecs. [`Reader`](super::Reader) reads both; this crate writes
/// MessagePack only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Codec {
    /// MessagePack: header fields right-aligned (their first byte is zero).
    MessagePack,
    /// CBOR (RFC 8949): header fields left-aligned (their first byte is not zero).
    Cbor,
}

impl Codec {
    /// The codec of the file whose 50-byte prefix is `prefix`, as msglc tells it: by whether
    /// the first header byte is zero.
    pub(crate) fn of_prefix(prefix: &[u8]) -> Codec {
        match prefix.get(MAGIC_LEN) {
            Some(0) | None => Codec::MessagePack,
            Some(_) => Codec::Cbor,
        }
    }

    /// A cursor at `pos` within `buf`, whose first byte is at absolute offset `base`.
    pub(crate) fn cursor<'a>(
        self,
        buf: &'a [u8],
        pos: usize,
        base: u64,
        depth_limit: usize,
    ) -> Cur<'a> {
        match self {
            Codec::MessagePack => Cur::Mp(msgpack::Cursor::at(buf, pos, base)),
            Codec::Cbor => Cur::Cb(cbor::Cursor::at(buf, pos, base, depth_limit)),
        }
    }

    /// Decodes the one value `bytes` holds (first byte at absolute offset `base`).
    pub(crate) fn decode<T: DeserializeOwned>(
        self,
        bytes: &[u8],
        base: u64,
        depth_limit: usize,
    ) -> Result<T> {
        match self {
            Codec::MessagePack => de::from_slice(bytes, base, depth_limit),
            Codec::Cbor => {
                let mut mp = Vec::with_capacity(bytes.len());
                cbor::transcode(bytes, base, depth_limit, &mut mp)?;
                de::from_slice(&mp, 0, depth_limit).map_err(|err| match err.offset() {
                    // The error was found in the MessagePack: report the CBOR item behind it.
                    Some(at) => {
                        let source = cbor::source_offset(bytes, base, depth_limit, at);
                        err.with_position(Position::Byte(source))
                    }
                    None => err,
                })
            }
        }
    }

    /// Appends the MessagePack encoding of the one value `bytes` holds.
    pub(crate) fn append_msgpack(
        self,
        bytes: &[u8],
        base: u64,
        depth_limit: usize,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        match self {
            Codec::MessagePack => {
                out.extend_from_slice(bytes);
                Ok(())
            }
            Codec::Cbor => cbor::transcode(bytes, base, depth_limit, out),
        }
    }
}

impl std::fmt::Display for Codec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Codec::MessagePack => "MessagePack",
            Codec::Cbor => "CBOR",
        })
    }
}

/// What the reader needs to know of an item's head in either codec.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Item {
    /// A non-negative integer (MessagePack: any integer marker holding one).
    UInt(u64),
    /// A negative integer.
    Int(i64),
    /// A string of this many bytes; the cursor stands at its body.
    Str(u32),
    /// An array of this many elements; the cursor stands at the first.
    Array(u32),
    /// A map of this many entries; the cursor stands at the first key.
    Map(u32),
    /// Anything else; where the cursor stands afterwards is unspecified.
    Other,
}

/// A read cursor over MessagePack or CBOR bytes.
#[derive(Debug, Clone)]
pub(crate) enum Cur<'a> {
    Mp(msgpack::Cursor<'a>),
    Cb(cbor::Cursor<'a>),
}

macro_rules! each {
    ($self:expr, $c:ident => $e:expr) => {
        match $self {
            Cur::Mp($c) => $e,
            Cur::Cb($c) => $e,
        }
    };
}

impl<'a> Cur<'a> {
    pub(crate) fn pos(&self) -> usize {
        each!(self, c => c.pos())
    }

    pub(crate) fn set_pos(&mut self, pos: usize) {
        each!(self, c => c.set_pos(pos))
    }

    /// Every container ends right after its last element: true of MessagePack; CBOR's
    /// indefinite-length containers end with a break byte after it.
    pub(crate) fn containers_end_at_last_element(&self) -> bool {
        matches!(self, Cur::Mp(_))
    }

    /// The absolute offset of the next byte.
    pub(crate) fn offset(&self) -> u64 {
        each!(self, c => c.offset())
    }

    /// How many bytes are left.
    pub(crate) fn remaining(&self) -> usize {
        match self {
            Cur::Mp(c) => c.remaining().len(),
            Cur::Cb(c) => c.remaining(),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        each!(self, c => c.is_empty())
    }

    pub(crate) fn slice(&self) -> &'a [u8] {
        each!(self, c => c.slice())
    }

    /// Takes the `n` bytes of a body whose length came from the input.
    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        match self {
            Cur::Mp(c) => c.take_body(n),
            Cur::Cb(c) => c.take(n),
        }
    }

    pub(crate) fn skip_value(&mut self) -> Result<()> {
        each!(self, c => c.skip_value())
    }

    pub(crate) fn skip_values(&mut self, count: u64) -> Result<()> {
        each!(self, c => c.skip_values(count))
    }

    pub(crate) fn uint(&mut self, kind: crate::ErrorKind) -> Result<u64> {
        each!(self, c => c.uint(kind))
    }

    pub(crate) fn array_len(&mut self, kind: crate::ErrorKind) -> Result<u32> {
        each!(self, c => c.array_len(kind))
    }

    /// Whether the next item is an array (without reading it).
    pub(crate) fn next_is_array(&self) -> Result<bool> {
        match self {
            Cur::Mp(c) => Ok(matches!(c.peek()?, 0x90..=0x9f | 0xdc | 0xdd)),
            Cur::Cb(c) => c.next_is_array(),
        }
    }

    /// Reads the head of the next item.
    pub(crate) fn head(&mut self) -> Result<Item> {
        match self {
            Cur::Mp(c) => Ok(match c.head()? {
                Head::UInt(v) => Item::UInt(v),
                Head::Int(v) if v >= 0 => Item::UInt(v as u64),
                Head::Int(v) => Item::Int(v),
                Head::Str(n) => Item::Str(n),
                Head::Array(n) => Item::Array(n),
                Head::Map(n) => Item::Map(n),
                _ => Item::Other,
            }),
            Cur::Cb(c) => c.head(),
        }
    }
}
