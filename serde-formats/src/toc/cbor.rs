//! msglc's CBOR variant on the read side (RFC 8949, decoded with `minicbor`): the header
//! fields, item heads and skipping for walking a TOC or a value in place, and transcoding one
//! value to the MessagePack the rest of the reader decodes.
//!
//! Every CBOR value is mapped to the MessagePack value a msglc MessagePack file would hold for
//! the same Python object (see the [module docs](super#the-cbor-variant) for the table), so a
//! CBOR file reads exactly like its MessagePack twin; anything without such a value is refused
//! with [`ErrorKind::Unsupported`] at its offset.

use minicbor::data::{Tag, Type};
use minicbor::decode::Error as CborError;
use minicbor::Decoder;

use crate::error::{Error, ErrorKind, Position, Result};
use crate::limits::{self, Nesting};

use super::codec::Item;
use super::layout::{write_array_len, write_map_len, write_uint};

/// The break byte closing an indefinite-length item.
const BREAK: u8 = 0xff;
/// Tag 55799, "self-described CBOR": a marker without meaning, read through.
const SELF_DESCRIBED: u64 = 55799;
/// The largest growth of transcoding: a 3-byte half float becomes a 9-byte float64.
pub(crate) const MAX_GROWTH: u64 = 3;

/// One header field of a CBOR file: a CBOR unsigned integer left-aligned in the field, zero
/// bytes after it (msglc's `ljust`). All zeros reads as 0.
pub(crate) fn decode_header_field(field: &[u8], offset: u64) -> Result<u64> {
    let mut dec = Decoder::new(field);
    let bad = |at: usize, message: &str| {
        Error::with_message(ErrorKind::BadToc, message)
            .with_position(Position::Byte(offset + at as u64))
    };
    let value = match dec.datatype() {
        Ok(Type::U8 | Type::U16 | Type::U32 | Type::U64) => dec
            .u64()
            .map_err(|_| bad(0, "header field's CBOR integer is cut short"))?,
        _ => {
            return Err(bad(
                0,
                "header field is not a left-aligned CBOR unsigned integer",
            ))
        }
    };
    if let Some(extra) = field[dec.position()..].iter().position(|&b| b != 0) {
        return Err(bad(
            dec.position() + extra,
            "header field has non-zero bytes after its CBOR integer",
        ));
    }
    Ok(value)
}

/// Maps a `minicbor` error met at absolute offset `at` (the start of the item being read).
#[cold]
fn convert(err: &CborError, at: u64) -> Error {
    if err.is_end_of_input() {
        return Error::at(ErrorKind::UnexpectedEnd, at);
    }
    let mut text = err.to_string();
    if let Some(pos) = err.position() {
        // minicbor's positions are relative to its slice; ours is absolute.
        text = text.replace(&format!(" at position {pos}"), "");
    }
    let kind = if text.starts_with("invalid utf-8") {
        ErrorKind::InvalidUtf8
    } else {
        ErrorKind::BadCbor
    };
    Error::with_message(kind, text).with_position(Position::Byte(at))
}

#[cold]
fn bad(at: u64, message: &str) -> Error {
    Error::with_message(ErrorKind::BadCbor, message).with_position(Position::Byte(at))
}

#[cold]
fn too_deep(at: u64, limit: usize) -> Error {
    limits::too_deep(Nesting::Value, limit).with_position(Position::Byte(at))
}

#[cold]
fn unsupported(at: u64, message: String) -> Error {
    Error::with_message(ErrorKind::Unsupported, message).with_position(Position::Byte(at))
}

/// A read position in CBOR bytes that reports errors as absolute offsets (`base + pos`).
#[derive(Debug, Clone)]
pub(crate) struct Cursor<'a> {
    dec: Decoder<'a>,
    base: u64,
    /// How many indefinite-length containers may be open at once while skipping.
    depth_limit: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at `pos` within `buf`, whose first byte is at absolute offset `base`.
    pub(crate) fn at(buf: &'a [u8], pos: usize, base: u64, depth_limit: usize) -> Self {
        let mut dec = Decoder::new(buf);
        dec.set_position(pos);
        Cursor {
            dec,
            base,
            depth_limit,
        }
    }

    pub(crate) fn pos(&self) -> usize {
        self.dec.position()
    }

    pub(crate) fn set_pos(&mut self, pos: usize) {
        self.dec.set_position(pos);
    }

    pub(crate) fn offset(&self) -> u64 {
        self.base + self.pos() as u64
    }

    pub(crate) fn slice(&self) -> &'a [u8] {
        self.dec.input()
    }

    pub(crate) fn remaining(&self) -> usize {
        self.slice().len().saturating_sub(self.pos())
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    fn current(&self) -> Result<u8> {
        self.slice()
            .get(self.pos())
            .copied()
            .ok_or_else(|| Error::at(ErrorKind::UnexpectedEnd, self.offset()))
    }

    /// Runs one `minicbor` read, reporting its error at the item's start.
    fn read<T>(&mut self, f: impl FnOnce(&mut Decoder<'a>) -> Result<T, CborError>) -> Result<T> {
        let at = self.offset();
        f(&mut self.dec).map_err(|e| convert(&e, at))
    }

    /// The type of the next item; reserved initial bytes and a stray break are errors.
    fn datatype(&self) -> Result<Type> {
        let at = self.offset();
        match self.dec.datatype().map_err(|e| convert(&e, at))? {
            Type::Break => Err(bad(at, "unexpected break byte")),
            Type::Unknown(b) => Err(bad(at, &format!("reserved initial byte 0x{b:02x}"))),
            ty => Ok(ty),
        }
    }

    /// Takes `n` bytes of a text body whose length [`head`](Self::head) returned.
    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let pos = self.pos();
        let bytes = self
            .slice()
            .get(pos..pos.saturating_add(n))
            .ok_or_else(|| Error::at(ErrorKind::LengthPastEnd, self.offset()))?;
        self.set_pos(pos + n);
        Ok(bytes)
    }

    /// Reads the head of the next item: integers, definite text (the cursor then stands at its
    /// body) and containers (at their first element; an indefinite container's elements are
    /// counted first). Every other item is skipped whole and is [`Item::Other`].
    pub(crate) fn head(&mut self) -> Result<Item> {
        let at = self.offset();
        let item = match self.datatype()? {
            Type::U8 | Type::U16 | Type::U32 | Type::U64 => Item::UInt(self.read(|d| d.u64())?),
            Type::I8 | Type::I16 | Type::I32 | Type::I64 | Type::Int => {
                match i64::try_from(self.read(|d| d.int())?) {
                    Ok(v) => Item::Int(v),
                    Err(_) => Item::Other,
                }
            }
            Type::String => {
                let len = self.read(|d| d.str())?.len();
                self.set_pos(self.pos() - len);
                Item::Str(count32(len as u64, at)?)
            }
            Type::Array => {
                let n = self.read(|d| d.array())?.unwrap_or(0);
                Item::Array(count32(n, at)?)
            }
            Type::Map => {
                let n = self.read(|d| d.map())?.unwrap_or(0);
                Item::Map(count32(n, at)?)
            }
            Type::ArrayIndef => {
                self.read(|d| d.array())?;
                Item::Array(count32(self.count_to_break()?, at)?)
            }
            Type::MapIndef => {
                self.read(|d| d.map())?;
                let items = self.count_to_break()?;
                if items % 2 == 1 {
                    return Err(bad(at, "indefinite-length map with a key but no value"));
                }
                Item::Map(count32(items / 2, at)?)
            }
            _ => {
                self.skip_value()?;
                Item::Other
            }
        };
        Ok(item)
    }

    /// Counts the items from here to the break of an indefinite container, then comes back.
    fn count_to_break(&mut self) -> Result<u64> {
        let start = self.pos();
        let mut n = 0u64;
        while self.current()? != BREAK {
            self.skip_value()?;
            n += 1;
        }
        self.set_pos(start);
        Ok(n)
    }

    /// Skips one whole item.
    pub(crate) fn skip_value(&mut self) -> Result<()> {
        self.skip_values(1)
    }

    /// Skips `count` consecutive whole items without recursion. Definite containers only add to
    /// a counter; each open indefinite container keeps one frame, at most the depth limit.
    pub(crate) fn skip_values(&mut self, count: u64) -> Result<()> {
        struct Frame {
            /// Items still owed by the definite containers around this one.
            outer: u64,
            is_map: bool,
            items: u64,
            at: u64,
        }
        let mut pending = count;
        let mut frames: Vec<Frame> = Vec::new();
        loop {
            if pending == 0 {
                let Some(frame) = frames.last_mut() else {
                    return Ok(());
                };
                if self.current()? == BREAK {
                    if frame.is_map && frame.items % 2 == 1 {
                        return Err(bad(
                            frame.at,
                            "indefinite-length map with a key but no value",
                        ));
                    }
                    self.set_pos(self.pos() + 1);
                    pending = frame.outer;
                    frames.pop();
                    continue;
                }
                frame.items += 1;
                pending = 1;
            }
            pending -= 1;
            let at = self.offset();
            match self.datatype()? {
                Type::Array => {
                    pending = pending.saturating_add(self.read(|d| d.array())?.unwrap_or(0))
                }
                Type::Map => {
                    let n = self.read(|d| d.map())?.unwrap_or(0);
                    pending = pending.saturating_add(n.saturating_mul(2));
                }
                ty @ (Type::ArrayIndef | Type::MapIndef) => {
                    if frames.len() >= self.depth_limit {
                        return Err(too_deep(at, self.depth_limit));
                    }
                    self.set_pos(self.pos() + 1);
                    frames.push(Frame {
                        outer: pending,
                        is_map: ty == Type::MapIndef,
                        items: 0,
                        at,
                    });
                    pending = 0;
                }
                Type::Tag => {
                    self.read(|d| d.tag())?;
                    pending += 1;
                }
                Type::Bytes | Type::BytesIndef => self.read(|d| {
                    for chunk in d.bytes_iter()? {
                        chunk?;
                    }
                    Ok(())
                })?,
                Type::String | Type::StringIndef => self.read(|d| {
                    for chunk in d.str_iter()? {
                        chunk?;
                    }
                    Ok(())
                })?,
                Type::Simple => {
                    simple(self)?;
                }
                _ => self.read(|d| d.skip())?,
            }
        }
    }

    /// Reads a non-negative integer.
    pub(crate) fn uint(&mut self, kind: ErrorKind) -> Result<u64> {
        let start = self.pos();
        match self.datatype() {
            Ok(Type::U8 | Type::U16 | Type::U32 | Type::U64) => self.read(|d| d.u64()),
            _ => {
                self.set_pos(start);
                Err(Error::with_message(kind, "expected a non-negative integer")
                    .with_position(Position::Byte(self.offset())))
            }
        }
    }

    /// Reads an array head.
    pub(crate) fn array_len(&mut self, kind: ErrorKind) -> Result<u32> {
        let start = self.pos();
        match self.datatype() {
            Ok(Type::Array | Type::ArrayIndef) => match self.head()? {
                Item::Array(n) => Ok(n),
                _ => unreachable_array(self.offset()),
            },
            _ => {
                self.set_pos(start);
                Err(Error::with_message(kind, "expected an array")
                    .with_position(Position::Byte(self.offset())))
            }
        }
    }

    /// Whether the next item is an array.
    pub(crate) fn next_is_array(&self) -> Result<bool> {
        Ok(matches!(self.datatype()?, Type::Array | Type::ArrayIndef))
    }
}

#[cold]
fn unreachable_array<T>(at: u64) -> Result<T> {
    Err(bad(at, "array head changed while reading it"))
}

/// A length that MessagePack can hold (and our reader counts in `u32`).
fn count32(n: u64, at: u64) -> Result<u32> {
    u32::try_from(n).map_err(|_| {
        Error::with_message(
            ErrorKind::LengthPastEnd,
            "more than 2^32 - 1 items or bytes",
        )
        .with_position(Position::Byte(at))
    })
}

/// Reads a simple value: a two-byte form (`f8`) holding less than 32 is not well-formed.
fn simple(cur: &mut Cursor<'_>) -> Result<u8> {
    let at = cur.offset();
    let two_bytes = cur.current()? == 0xf8;
    let value = cur.read(|d| d.simple())?;
    if two_bytes && value < 32 {
        return Err(bad(at, "two-byte simple value below 32"));
    }
    Ok(value)
}

/// Transcodes the one CBOR value that `bytes` holds (whose first byte is at absolute offset
/// `base`) and appends its MessagePack encoding to `out`.
///
/// # Errors
///
/// [`ErrorKind::Unsupported`] for values MessagePack cannot hold (see the module docs),
/// [`ErrorKind::BadCbor`] and [`ErrorKind::UnexpectedEnd`] for malformed input,
/// [`ErrorKind::TrailingBytes`] after the value, [`ErrorKind::DepthLimitExceeded`].
pub(crate) fn transcode(
    bytes: &[u8],
    base: u64,
    depth_limit: usize,
    out: &mut Vec<u8>,
) -> Result<()> {
    let mut t = Transcoder {
        cur: Cursor::at(bytes, 0, base, depth_limit),
        out,
        depth_limit,
        watch: None,
    };
    t.item(0)?;
    if !t.cur.is_empty() {
        return Err(Error::at(ErrorKind::TrailingBytes, t.cur.offset()));
    }
    Ok(())
}

/// The absolute offset of the CBOR item that produced byte `target` of the MessagePack that
/// [`transcode`] makes of `bytes`: where an error found in the MessagePack lies in the file.
pub(crate) fn source_offset(bytes: &[u8], base: u64, depth_limit: usize, target: u64) -> u64 {
    let mut out = Vec::new();
    let mut t = Transcoder {
        cur: Cursor::at(bytes, 0, base, depth_limit),
        out: &mut out,
        depth_limit,
        watch: Some((target, base)),
    };
    // The value transcoded before, so this cannot fail; if it did, the best answer so far
    // stands.
    let _ = t.item(0);
    t.watch.map_or(base, |(_, found)| found)
}

struct Transcoder<'a, 'o> {
    cur: Cursor<'a>,
    out: &'o mut Vec<u8>,
    depth_limit: usize,
    /// For [`source_offset`]: the MessagePack offset looked for, and the offset of the last
    /// CBOR item that started at or before it.
    watch: Option<(u64, u64)>,
}

impl Transcoder<'_, '_> {
    fn enter(&self, depth: usize) -> Result<()> {
        if depth >= self.depth_limit {
            return Err(too_deep(self.cur.offset(), self.depth_limit));
        }
        Ok(())
    }

    /// The MessagePack head of a map of `n` entries or an array of `n` elements, then the
    /// container's `items` items (a map's keys and values), one level below `depth`.
    fn container(&mut self, is_map: bool, n: u32, items: u64, depth: usize) -> Result<()> {
        if is_map {
            write_map_len(self.out, n as usize);
        } else {
            write_array_len(self.out, n as usize);
        }
        for _ in 0..items {
            self.item(depth + 1)?;
        }
        Ok(())
    }

    fn item(&mut self, depth: usize) -> Result<()> {
        let at = self.cur.offset();
        if let Some((target, found)) = &mut self.watch {
            if self.out.len() as u64 <= *target {
                *found = at;
            } else {
                return Err(Error::new(ErrorKind::Message));
            }
        }
        match self.cur.datatype()? {
            Type::U8 | Type::U16 | Type::U32 | Type::U64 => {
                let v = self.cur.read(|d| d.u64())?;
                write_uint(self.out, v);
            }
            Type::I8 | Type::I16 | Type::I32 | Type::I64 | Type::Int => {
                let v = i64::try_from(self.cur.read(|d| d.int())?).map_err(|_| {
                    unsupported(
                        at,
                        "negative integer below -2^63 (MessagePack holds 64 bits)".into(),
                    )
                })?;
                let _ = rmp::encode::write_sint(self.out, v);
            }
            // float32 keeps its width, as Value::F32 does for MessagePack; half floats (cbor2
            // writes NaN and infinities as such) widen exactly to float64, msglc's float.
            Type::F32 => {
                let v = self.cur.read(|d| d.f32())?;
                let _ = rmp::encode::write_f32(self.out, v);
            }
            Type::F16 | Type::F64 => {
                let v = self.cur.read(|d| d.f64())?;
                let _ = rmp::encode::write_f64(self.out, v);
            }
            Type::Bool => {
                let v = self.cur.read(|d| d.bool())?;
                let _ = rmp::encode::write_bool(self.out, v);
            }
            Type::Null => {
                self.cur.read(|d| d.null())?;
                let _ = rmp::encode::write_nil(self.out);
            }
            Type::Undefined => {
                return Err(unsupported(
                    at,
                    "CBOR `undefined` (MessagePack has only nil)".into(),
                ))
            }
            Type::Simple => {
                let v = simple(&mut self.cur)?;
                return Err(unsupported(at, format!("CBOR simple value {v}")));
            }
            Type::Bytes | Type::BytesIndef => {
                let data = self.chunks(at, false)?;
                let len = count32(data.len() as u64, at)?;
                let _ = rmp::encode::write_bin_len(self.out, len);
                self.out.extend_from_slice(&data);
            }
            Type::String | Type::StringIndef => {
                let data = self.chunks(at, true)?;
                let len = count32(data.len() as u64, at)?;
                let _ = rmp::encode::write_str_len(self.out, len);
                self.out.extend_from_slice(&data);
            }
            Type::Array | Type::Map => {
                self.enter(depth)?;
                let is_map = self.cur.datatype()? == Type::Map;
                let n = if is_map {
                    self.cur.read(|d| d.map())?.unwrap_or(0)
                } else {
                    self.cur.read(|d| d.array())?.unwrap_or(0)
                };
                // Every element takes at least one byte: a larger count is a lie.
                let items = if is_map { n.saturating_mul(2) } else { n };
                if items > self.cur.remaining() as u64 {
                    return Err(Error::at(ErrorKind::LengthPastEnd, at));
                }
                self.container(is_map, count32(n, at)?, items, depth)?;
            }
            ty @ (Type::ArrayIndef | Type::MapIndef) => {
                self.enter(depth)?;
                self.cur.set_pos(self.cur.pos() + 1);
                // Counted first, so the MessagePack head comes before the elements.
                let items = self.cur.count_to_break()?;
                let is_map = ty == Type::MapIndef;
                if is_map && items % 2 == 1 {
                    return Err(bad(at, "indefinite-length map with a key but no value"));
                }
                let n = count32(if is_map { items / 2 } else { items }, at)?;
                self.container(is_map, n, items, depth)?;
                // `count_to_break` stopped at the break.
                self.cur.set_pos(self.cur.pos() + 1);
            }
            Type::Tag => {
                let tag = self.cur.read(|d| d.tag())?;
                self.tagged(tag, at, depth)?;
            }
            // `datatype` has refused breaks and reserved bytes.
            other => return Err(bad(at, &format!("unexpected CBOR item {other}"))),
        }
        Ok(())
    }

    /// The body of a byte or text string, its chunks joined when of indefinite length.
    fn chunks(&mut self, at: u64, text: bool) -> Result<Vec<u8>> {
        let mut data = Vec::new();
        let result = if text {
            self.cur.dec.str_iter().and_then(|chunks| {
                for chunk in chunks {
                    data.extend_from_slice(chunk?.as_bytes());
                }
                Ok(())
            })
        } else {
            self.cur.dec.bytes_iter().and_then(|chunks| {
                for chunk in chunks {
                    data.extend_from_slice(chunk?);
                }
                Ok(())
            })
        };
        result.map_err(|e| convert(&e, at))?;
        Ok(data)
    }

    /// A tagged item: bignums that fit 64 bits become integers, tag 55799 is read through,
    /// every other tag is refused.
    fn tagged(&mut self, tag: Tag, at: u64, depth: usize) -> Result<()> {
        match u64::from(tag) {
            tag @ (2 | 3) => {
                let content_at = self.cur.offset();
                if !matches!(self.cur.datatype()?, Type::Bytes | Type::BytesIndef) {
                    return Err(bad(content_at, "a bignum's content must be a byte string"));
                }
                let magnitude = self.chunks(content_at, false)?;
                let digits = match magnitude.iter().position(|&b| b != 0) {
                    Some(first) => &magnitude[first..],
                    None => &[][..],
                };
                let too_big = || {
                    unsupported(
                        at,
                        format!("bignum (tag {tag}) beyond 64 bits (MessagePack holds 64 bits)"),
                    )
                };
                if digits.len() > 8 {
                    return Err(too_big());
                }
                let n = digits
                    .iter()
                    .fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
                if tag == 2 {
                    write_uint(self.out, n);
                } else {
                    // Tag 3 holds -1 - n.
                    let v = i64::try_from(n).map_err(|_| too_big())?;
                    let _ = rmp::encode::write_sint(self.out, -1 - v);
                }
                Ok(())
            }
            SELF_DESCRIBED => {
                self.enter(depth)?;
                self.item(depth + 1)
            }
            other => Err(unsupported(
                at,
                format!("CBOR tag {other} (no MessagePack equivalent)"),
            )),
        }
    }
}

#[cfg(test)]
mod tests;
