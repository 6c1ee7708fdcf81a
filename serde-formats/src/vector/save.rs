//! Writing a vector in the canonical form of the VectorSaver layout.

use std::io::Write;

use super::restore::DEFAULT_DEPTH_LIMIT;
use super::strings::{string_view, INLINE_LIMIT};
use super::types::Type;
#[cfg(doc)]
use super::types::TYPE_DEPTH_LIMIT;
use super::vector::{Body, ConstantValue, FlatData, Strings, Vector};
use crate::error::{Error, ErrorKind, Result};

/// Writes `vector` to `writer` in the canonical form (see the [module docs](super)).
///
/// Small fields go to `writer` one by one: pass a `BufWriter` for a file or socket. The output
/// is proportional to the rows the vector holds, except for a CONSTANT (a few bytes for any
/// size) and a flat UNKNOWN vector, which writes its all-null bitmap (`size / 8` bytes, up to
/// 256 MiB) even when it was restored from a few bytes.
///
/// # Errors
/// [`ErrorKind::Io`] when the writer fails; [`ErrorKind::IntegerOverflow`] when a buffer would be
/// longer than `i32::MAX` bytes (more than 134 million string views, or 2 GiB of long strings);
/// [`ErrorKind::DepthLimitExceeded`] for what [`restore()`](super::restore()) would refuse: vectors
/// nested more than 128 levels or a type more than [`TYPE_DEPTH_LIMIT`] levels;
/// [`ErrorKind::BadType`] for a `DECIMAL` type with bad parameters (see [`Type::validate`]).
///
/// ```
/// use serde_formats::vector::{save, Type, Value, Vector};
/// let v = Vector::from_values(Type::Integer, &[Value::Integer(7)])?;
/// let mut out = Vec::new();
/// save(&v, &mut out)?;
/// let mut expected = vec![0, 0, 0, 0, 32, 0, 0, 0]; // FLAT, type JSON of 32 bytes
/// expected.extend_from_slice(br#"{"name":"Type","type":"INTEGER"}"#);
/// expected.extend_from_slice(&[1, 0, 0, 0]); // size 1
/// expected.push(0); // no nulls buffer
/// expected.extend_from_slice(&[1, 4, 0, 0, 0, 7, 0, 0, 0]); // values buffer
/// assert_eq!(out, expected);
/// # Ok::<(), serde_formats::Error>(())
/// ```
pub fn save<W: Write>(vector: &Vector, writer: W) -> Result<()> {
    let mut saver = Saver { writer, depth: 0 };
    saver.vector(vector)?;
    saver.writer.flush().map_err(Error::from)
}

/// The canonical bytes of `vector`.
///
/// # Errors
/// As [`save`], without the I/O errors.
pub fn to_bytes(vector: &Vector) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    save(vector, &mut out)?;
    Ok(out)
}

struct Saver<W> {
    writer: W,
    /// Vectors entered, to refuse what `restore` would refuse.
    depth: usize,
}

fn len_i32(len: usize) -> Result<i32> {
    i32::try_from(len).map_err(|_| {
        Error::with_message(
            ErrorKind::IntegerOverflow,
            format_args!("buffer of {len} bytes is longer than i32::MAX"),
        )
    })
}

fn i32s_le(values: &[i32]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() * 4);
    for value in values {
        out.extend_from_slice(&value.to_le_bytes());
    }
    out
}

impl<W: Write> Saver<W> {
    fn bytes(&mut self, bytes: &[u8]) -> Result<()> {
        self.writer.write_all(bytes).map_err(Error::from)
    }

    fn i32(&mut self, value: i32) -> Result<()> {
        self.bytes(&value.to_le_bytes())
    }

    fn flag(&mut self, value: bool) -> Result<()> {
        self.bytes(&[u8::from(value)])
    }

    fn buffer(&mut self, bytes: &[u8]) -> Result<()> {
        self.i32(len_i32(bytes.len())?)?;
        self.bytes(bytes)
    }

    /// The offsets buffer, then the sizes buffer, of an ARRAY or MAP.
    fn ranges(&mut self, data: &FlatData) -> Result<()> {
        let (offsets, sizes) = data.ranges();
        self.buffer(&i32s_le(offsets))?;
        self.buffer(&i32s_le(sizes))
    }

    /// The type as Velox's JSON, `i32` length first.
    fn ty(&mut self, ty: &Type) -> Result<()> {
        // What `restore` would refuse: too deep, or a DECIMAL built with bad parameters.
        ty.validate()?;
        self.buffer(ty.to_json().as_bytes())
    }

    fn nulls(&mut self, nulls: Option<&[u8]>) -> Result<()> {
        match nulls {
            None => self.flag(false),
            Some(bits) => {
                self.flag(true)?;
                self.buffer(bits)
            }
        }
    }

    /// A flat UNKNOWN vector's nulls (all rows null, as Velox writes them) and no values buffer.
    /// The bitmap is written in pieces: the vector holds none.
    fn unknown_nulls(&mut self, size: usize) -> Result<()> {
        if size == 0 {
            self.flag(false)?;
            return self.flag(false);
        }
        let mut left = size.div_ceil(8);
        self.flag(true)?;
        self.i32(len_i32(left)?)?;
        let zeros = [0u8; 4096];
        while left > 0 {
            let n = left.min(zeros.len());
            self.bytes(&zeros[..n])?;
            left -= n;
        }
        self.flag(false)
    }

    /// The views, then one buffer of the long strings. Packed strings are those bytes already;
    /// others (sharing bytes, as restored from Velox) are streamed in two passes with the
    /// offsets computed, so saving allocates nothing in proportion to the vector.
    fn strings(&mut self, strings: &Strings) -> Result<()> {
        self.flag(true)?;
        if strings.is_packed() {
            self.buffer(strings.views())?;
            if strings.long().is_empty() {
                return self.i32(0);
            }
            self.i32(1)?;
            return self.buffer(strings.long());
        }
        self.strings_unpacked(strings)
    }

    fn strings_unpacked(&mut self, strings: &Strings) -> Result<()> {
        const CHUNK: usize = 256;
        let size = strings.len();
        self.i32(len_i32(size.saturating_mul(16))?)?;
        let mut chunk = [0u8; 16 * CHUNK];
        let mut long_len = 0usize;
        let mut start = 0;
        while start < size {
            let end = size.min(start + CHUNK);
            for (slot, row) in chunk.chunks_exact_mut(16).zip(start..end) {
                let mut view = strings.view(row);
                let len = u32::from_le_bytes([view[0], view[1], view[2], view[3]]) as usize;
                if len > INLINE_LIMIT {
                    view[8..].copy_from_slice(&(long_len as u64).to_le_bytes());
                    long_len += len;
                }
                slot.copy_from_slice(&view);
            }
            self.bytes(&chunk[..16 * (end - start)])?;
            start = end;
        }
        if long_len == 0 {
            return self.i32(0);
        }
        self.i32(1)?;
        self.i32(len_i32(long_len)?)?;
        for row in 0..size {
            let bytes = strings.get(row);
            if bytes.len() > INLINE_LIMIT {
                self.bytes(bytes)?;
            }
        }
        Ok(())
    }

    fn vector(&mut self, vector: &Vector) -> Result<()> {
        self.depth += 1;
        if self.depth > DEFAULT_DEPTH_LIMIT {
            return Err(Error::with_message(
                ErrorKind::DepthLimitExceeded,
                format_args!("vectors nested more than {DEFAULT_DEPTH_LIMIT} levels"),
            ));
        }
        self.vector_body(vector)?;
        self.depth -= 1;
        Ok(())
    }

    fn vector_body(&mut self, vector: &Vector) -> Result<()> {
        self.i32(vector.encoding().code())?;
        self.ty(&vector.ty)?;
        self.i32(len_i32(vector.size)?)?;
        match &vector.body {
            Body::Flat { .. } if vector.ty == Type::Unknown => self.unknown_nulls(vector.size),
            Body::Flat { nulls, data } => {
                self.nulls(nulls.as_deref())?;
                match data {
                    FlatData::Fixed(values) => {
                        self.flag(true)?;
                        self.buffer(values)
                    }
                    FlatData::Strings(strings) => self.strings(strings),
                    FlatData::Row(children) => {
                        self.i32(len_i32(children.len())?)?;
                        for child in children {
                            match child {
                                None => self.flag(false)?,
                                Some(child) => {
                                    self.flag(true)?;
                                    self.vector(child)?;
                                }
                            }
                        }
                        Ok(())
                    }
                    FlatData::Array { elements, .. } => {
                        self.ranges(data)?;
                        self.vector(elements)
                    }
                    FlatData::Map { keys, values, .. } => {
                        self.ranges(data)?;
                        self.vector(keys)?;
                        self.vector(values)
                    }
                }
            }
            Body::Constant(value) => {
                // is-null, then (unless null) is-scalar: 0 when a base vector and index follow.
                self.flag(matches!(value, ConstantValue::Null))?;
                if !matches!(value, ConstantValue::Null) {
                    self.flag(matches!(value, ConstantValue::Scalar(_)))?;
                }
                match value {
                    ConstantValue::Null => Ok(()),
                    ConstantValue::Scalar(bytes) if vector.ty.is_string() => {
                        self.bytes(&string_view(bytes, 0))?;
                        if bytes.len() > INLINE_LIMIT {
                            self.buffer(bytes)?;
                        }
                        Ok(())
                    }
                    ConstantValue::Scalar(bytes) => self.bytes(bytes),
                    ConstantValue::Complex { base, index } => {
                        self.vector(base)?;
                        self.i32(len_i32(*index)?)
                    }
                }
            }
            Body::Dictionary {
                nulls,
                indices,
                base,
            } => {
                self.nulls(nulls.as_deref())?;
                self.buffer(&i32s_le(indices))?;
                self.vector(base)
            }
            Body::Lazy(loaded) => {
                self.flag(loaded.is_some())?;
                match loaded {
                    Some(loaded) => self.vector(loaded),
                    None => Ok(()),
                }
            }
        }
    }
}
