//! Reading a vector back, checking every length, index, offset and size against the data.

use std::io::Read;

use super::strings::ViewScan;
use super::strings::INLINE_LIMIT;
use super::types::Type;
use super::vector::{Body, ConstantValue, Encoding, FlatData, Vector};
use crate::error::{Error, ErrorKind, Position, Result};
use crate::limits::{self, Nesting};
use crate::read::Cursor;

/// The default limit on nesting of vectors (a type nests at most
/// [`TYPE_DEPTH_LIMIT`](super::TYPE_DEPTH_LIMIT) levels, separately).
pub use crate::limits::DEFAULT_DEPTH_LIMIT;

/// A buffer read from a stream starts with at most this much room and then grows at most
/// fourfold at a time, so a hostile length costs no more memory than four times the bytes that
/// actually arrive, plus this.
const CHUNK: usize = 64 * 1024;

/// Reads one vector from `reader`, leaving whatever follows it unread.
///
/// Bytes are read with `read_exact` exactly as needed (nothing is read ahead): wrap a file in a
/// `BufReader`. Buffers are read straight into their allocations, which grow as the bytes
/// arrive: a length read from the input never allocates more than four times the bytes that
/// have arrived, plus 64 KiB.
///
/// # Errors
/// [`ErrorKind::UnexpectedEnd`] when the input ends early; [`ErrorKind::UnknownEncoding`] for an
/// encoding code outside 0 to 3; [`ErrorKind::BadType`] for type JSON that does not parse or
/// lacks a field, [`ErrorKind::UnknownTypeKind`] for a type this crate does not know;
/// [`ErrorKind::BadIndex`] for a negative size or length, or an index, offset, size or buffer that does not fit;
/// [`ErrorKind::BadTag`] for a flag byte other than 0 or 1; [`ErrorKind::TypeMismatch`] when a
/// nested vector's type is not the type its place requires; [`ErrorKind::InvalidUtf8`] for a
/// type JSON or a `VARCHAR` or `JSON` value; [`ErrorKind::DepthLimitExceeded`] past 128 levels of
/// vectors or [`TYPE_DEPTH_LIMIT`](super::TYPE_DEPTH_LIMIT) levels of type;
/// [`ErrorKind::Unsupported`] for a flat vector of rows without a values buffer (UNKNOWN has
/// none); [`ErrorKind::Io`] when the reader fails. Every error carries the byte offset.
pub fn restore<R: Read>(reader: R) -> Result<Vector> {
    restore_with_depth_limit(reader, DEFAULT_DEPTH_LIMIT)
}

/// As [`restore`] with a limit of `depth_limit` levels of nested vectors (types keep their own
/// limit, [`TYPE_DEPTH_LIMIT`](super::TYPE_DEPTH_LIMIT)).
///
/// # Errors
/// As [`restore`].
pub fn restore_with_depth_limit<R: Read>(reader: R, depth_limit: usize) -> Result<Vector> {
    Restorer {
        source: IoSource {
            reader,
            position: 0,
            end: None,
        },
        depth: 0,
        depth_limit,
    }
    .vector()
}

/// As [`restore`] for a reader that holds at most `len` more bytes, such as a file whose length
/// is known: each buffer is allocated once at its full length instead of growing as its bytes
/// arrive, which makes restoring a large file about as fast as [`from_bytes`] without holding
/// the file's bytes twice.
///
/// `len` is trusted as an upper bound, so memory stays bounded by it: a length in the input
/// that reaches past `len` bytes is an [`ErrorKind::UnexpectedEnd`] at the offset of that
/// length's buffer, before anything is allocated or read for it.
///
/// # Errors
/// As [`restore`].
///
/// ```
/// use serde_formats::vector::{restore_with_len, to_bytes, Value, Vector};
/// let saved = to_bytes(&Vector::from_values(
///     serde_formats::vector::Type::BigInt,
///     &[Value::BigInt(1), Value::Null, Value::BigInt(3)],
/// )?)?;
/// // A file would give its length from `metadata()`.
/// let vector = restore_with_len(std::io::Cursor::new(&saved), saved.len() as u64)?;
/// assert_eq!(vector.value(2)?, Value::BigInt(3));
/// # Ok::<(), serde_formats::Error>(())
/// ```
pub fn restore_with_len<R: Read>(reader: R, len: u64) -> Result<Vector> {
    Restorer {
        source: IoSource {
            reader,
            position: 0,
            end: Some(len),
        },
        depth: 0,
        depth_limit: DEFAULT_DEPTH_LIMIT,
    }
    .vector()
}

/// Reads the one vector that `bytes` holds.
///
/// # Errors
/// As [`restore`], and [`ErrorKind::TrailingBytes`] when bytes follow the vector.
///
/// ```
/// use serde_formats::vector::{from_bytes, Value};
/// // Written by Velox (pyvelox 0.2.0): a CONSTANT BIGINT of 3 rows, all 7.
/// let mut bytes = vec![1, 0, 0, 0, 31, 0, 0, 0]; // CONSTANT, type JSON of 31 bytes
/// bytes.extend_from_slice(br#"{"type":"BIGINT","name":"Type"}"#);
/// bytes.extend_from_slice(&[3, 0, 0, 0]); // size 3
/// bytes.extend_from_slice(&[0, 1]); // not null, scalar
/// bytes.extend_from_slice(&7i64.to_le_bytes());
/// let v = from_bytes(&bytes)?;
/// assert_eq!(v.value(2)?, Value::BigInt(7));
/// # Ok::<(), serde_formats::Error>(())
/// ```
pub fn from_bytes(bytes: &[u8]) -> Result<Vector> {
    let (vector, rest) = take_from_bytes(bytes)?;
    if rest.is_empty() {
        Ok(vector)
    } else {
        Err(Error::at(
            ErrorKind::TrailingBytes,
            (bytes.len() - rest.len()) as u64,
        ))
    }
}

/// Reads one vector from the front of `bytes` and returns it with the bytes after it.
///
/// # Errors
/// As [`restore`].
pub fn take_from_bytes(bytes: &[u8]) -> Result<(Vector, &[u8])> {
    let mut restorer = Restorer {
        source: Cursor::new(bytes),
        depth: 0,
        depth_limit: DEFAULT_DEPTH_LIMIT,
    };
    let vector = restorer.vector()?;
    let rest = restorer.source.remaining();
    Ok((vector, rest))
}

/// Where bytes come from: the shared slice [`Cursor`] (lengths checked against what is left) or
/// a stream ([`IoSource`], read straight into each buffer's allocation, which grows with the
/// bytes that arrive).
trait Source {
    fn position(&self) -> u64;
    fn read_into(&mut self, out: &mut [u8]) -> Result<()>;
    fn read_vec(&mut self, len: usize) -> Result<Vec<u8>>;
    /// Appends the next `len` bytes to `out`, showing `see` each piece of at most [`PIECE`]
    /// bytes as it arrives.
    fn append(&mut self, out: &mut Vec<u8>, len: usize, see: impl FnMut(&[u8])) -> Result<()>;
    /// Hands the next `len` bytes, a buffer of string views, to `scan`.
    fn views(&mut self, len: usize, scan: &mut ViewScan) -> Result<()>;
}

/// Pieces shown to an `append` caller and views canonicalized after each read: small enough
/// to stay in the L1 cache.
const PIECE: usize = 16 * 1024;

/// Bytes of one string view.
const VIEW: usize = 16;

impl Source for Cursor<'_, ()> {
    fn position(&self) -> u64 {
        self.offset()
    }

    fn read_into(&mut self, out: &mut [u8]) -> Result<()> {
        out.copy_from_slice(self.take(out.len())?);
        Ok(())
    }

    fn read_vec(&mut self, len: usize) -> Result<Vec<u8>> {
        Ok(self.take(len)?.to_vec())
    }

    fn append(&mut self, out: &mut Vec<u8>, len: usize, mut see: impl FnMut(&[u8])) -> Result<()> {
        let bytes = self.take(len)?;
        out.reserve(len);
        for piece in bytes.chunks(PIECE) {
            out.extend_from_slice(piece);
            see(piece);
        }
        Ok(())
    }

    /// One piece: the bytes in place.
    fn views(&mut self, len: usize, scan: &mut ViewScan) -> Result<()> {
        scan.push(self.take(len)?);
        Ok(())
    }
}

/// A stream: every buffer is read straight into the allocation it ends in. When the stream's
/// length is unknown that allocation grows (up to fourfold at a time) as the bytes arrive; when
/// the caller gave it (`end`), it is made once at the buffer's full length.
struct IoSource<R> {
    reader: R,
    position: u64,
    /// The offset past the last byte the reader holds, when the caller knows it.
    end: Option<u64>,
}

impl<R: Read> IoSource<R> {
    /// Whether `len` bytes from here fit in the stream's known length: `Ok(true)` to allocate
    /// them at once, `Ok(false)` when the length is unknown, an error when they cannot arrive.
    fn known_to_fit(&self, len: usize) -> Result<bool> {
        match self.end {
            None => Ok(false),
            Some(end) if (len as u64) <= end.saturating_sub(self.position) => Ok(true),
            Some(_) => Err(Error::at(ErrorKind::UnexpectedEnd, self.position)),
        }
    }

    /// Fills `out`; errors are placed at `start`, the offset of the buffer `out` is part of.
    fn fill(&mut self, out: &mut [u8], start: u64) -> Result<()> {
        self.reader
            .read_exact(out)
            .map_err(|err| Error::from(err).with_position(Position::Byte(start)))?;
        self.position += out.len() as u64;
        Ok(())
    }
}

impl<R: Read> Source for IoSource<R> {
    fn position(&self) -> u64 {
        self.position
    }

    fn read_into(&mut self, out: &mut [u8]) -> Result<()> {
        let start = self.position;
        self.known_to_fit(out.len())?;
        self.fill(out, start)
    }

    fn read_vec(&mut self, len: usize) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.append(&mut out, len, |_| {})?;
        Ok(out)
    }

    /// Reads [`PIECE`] bytes at a time into `out`, which grows as they arrive (asking for at
    /// most three times the bytes already in it, or [`CHUNK`] at first, more at a time; fewer
    /// growth steps copy less): its capacity stays below four times the bytes read plus
    /// [`CHUNK`], whatever `len` claims.
    fn append(&mut self, out: &mut Vec<u8>, len: usize, mut see: impl FnMut(&[u8])) -> Result<()> {
        let start = self.position;
        if self.known_to_fit(len)? {
            out.reserve_exact(len);
        }
        let end = out.len() + len;
        while out.len() < end {
            let filled = out.len();
            let piece = (end - filled).min(PIECE);
            if out.capacity() < filled + piece {
                out.reserve((3 * filled).max(CHUNK).min(end - filled));
            }
            // Into the spare capacity, not zeroed first for readers that can (slices can).
            let read = (&mut self.reader)
                .take(piece as u64)
                .read_to_end(out)
                .map_err(|err| Error::from(err).with_position(Position::Byte(start)))?;
            self.position += read as u64;
            if read < piece {
                return Err(Error::at(ErrorKind::UnexpectedEnd, start));
            }
            see(&out[filled..]);
        }
        Ok(())
    }

    /// The views that `scan` keeps are read into place, [`PIECE`] bytes at a time; bytes past
    /// them (a longer buffer) through a scratch buffer of at most [`CHUNK`] bytes.
    fn views(&mut self, len: usize, scan: &mut ViewScan) -> Result<()> {
        let start = self.position;
        let rows = (len / VIEW).min(scan.wanted());
        if self.known_to_fit(len)? {
            scan.reserve(rows);
        }
        let mut done = 0;
        while done < rows {
            let piece = (rows - done).min(PIECE / VIEW);
            scan.fill(piece, |out| self.fill(out, start))?;
            done += piece;
        }
        let mut rest = len - rows * VIEW;
        let mut scratch = vec![0u8; rest.min(CHUNK)];
        while rest > 0 {
            let piece = &mut scratch[..rest.min(CHUNK)];
            self.fill(piece, start)?;
            scan.push(piece);
            rest -= piece.len();
        }
        Ok(())
    }
}

struct Restorer<S> {
    source: S,
    depth: usize,
    depth_limit: usize,
}

/// `count` little-endian `i32`s from the front of `bytes` (callers checked the length).
fn i32s(bytes: &[u8], count: usize) -> Vec<i32> {
    bytes
        .chunks_exact(4)
        .take(count)
        .map(|chunk| i32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]))
        .collect()
}

impl<S: Source> Restorer<S> {
    fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let mut out = [0u8; N];
        self.source.read_into(&mut out)?;
        Ok(out)
    }

    fn i32(&mut self) -> Result<i32> {
        Ok(i32::from_le_bytes(self.array()?))
    }

    fn flag(&mut self) -> Result<bool> {
        let position = self.source.position();
        match self.array::<1>()? {
            [0] => Ok(false),
            [1] => Ok(true),
            [other] => Err(Error::with_message(
                ErrorKind::BadTag,
                format_args!("flag byte {other}"),
            )
            .with_position(Position::Byte(position))),
        }
    }

    /// A flag, then the vector when it is set: a ROW child or a LAZY vector's loaded contents.
    fn optional_vector(&mut self) -> Result<Option<Vector>> {
        Ok(if self.flag()? {
            Some(self.vector()?)
        } else {
            None
        })
    }

    /// An `i32` size, length or count, which must not be negative.
    fn len(&mut self, what: &str) -> Result<usize> {
        let position = self.source.position();
        let value = self.i32()?;
        usize::try_from(value).map_err(|_| {
            Error::with_message(ErrorKind::BadIndex, format_args!("negative {what} {value}"))
                .with_position(Position::Byte(position))
        })
    }

    fn buffer(&mut self, what: &str) -> Result<Vec<u8>> {
        let len = self.len(what)?;
        self.source.read_vec(len)
    }

    /// A buffer of one `i32` per row; it may be longer than needed, never shorter.
    fn row_buffer(&mut self, what: &str, size: usize) -> Result<Vec<i32>> {
        let position = self.source.position();
        let bytes = self.buffer(what)?;
        if bytes.len() / 4 < size {
            return Err(Error::with_message(
                ErrorKind::BadIndex,
                format_args!("{what} buffer of {} bytes for {size} rows", bytes.len()),
            )
            .with_position(Position::Byte(position)));
        }
        Ok(i32s(&bytes, size))
    }

    /// The offsets buffer, then the sizes buffer, of an ARRAY or MAP of `size` rows.
    fn ranges(&mut self, size: usize) -> Result<(Vec<i32>, Vec<i32>)> {
        let offsets = self.row_buffer("offsets", size)?;
        Ok((offsets, self.row_buffer("sizes", size)?))
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > self.depth_limit {
            return Err(limits::too_deep(Nesting::Vector, self.depth_limit)
                .with_position(Position::Byte(self.source.position())));
        }
        Ok(())
    }

    /// The type: an `i32` length and that many bytes of UTF-8 JSON.
    fn ty(&mut self) -> Result<Type> {
        let bytes = self.buffer("type JSON length")?;
        let start = self.source.position() - bytes.len() as u64;
        let text = std::str::from_utf8(&bytes).map_err(|err| {
            Error::with_message(ErrorKind::InvalidUtf8, "type JSON")
                .with_position(Position::Byte(start + err.valid_up_to() as u64))
        })?;
        Type::from_json_at(text, start)
    }

    fn nulls(&mut self) -> Result<Option<Vec<u8>>> {
        if self.flag()? {
            Ok(Some(self.buffer("nulls buffer length")?))
        } else {
            Ok(None)
        }
    }

    fn vector(&mut self) -> Result<Vector> {
        self.enter()?;
        let start = self.source.position();
        let code = self.i32()?;
        let encoding = Encoding::from_code(code).ok_or_else(|| {
            Error::with_message(ErrorKind::UnknownEncoding, format_args!("encoding {code}"))
                .with_position(Position::Byte(start))
        })?;
        let ty = self.ty()?;
        let size = self.len("size")?;
        let body = match encoding {
            Encoding::Flat => {
                let nulls = self.nulls()?;
                let data = self
                    .flat_data(&ty, size, nulls.as_deref())
                    .map_err(|err| err.or_position(Position::Byte(start)))?;
                Body::Flat { nulls, data }
            }
            Encoding::Constant => self.constant(&ty)?,
            Encoding::Dictionary => {
                let nulls = self.nulls()?;
                let indices = self.row_buffer("indices", size)?;
                let base = Box::new(self.vector()?);
                Body::Dictionary {
                    nulls,
                    indices,
                    base,
                }
            }
            Encoding::Lazy => Body::Lazy(self.optional_vector()?.map(Box::new)),
        };
        self.depth -= 1;
        // Checks that need the whole vector (indices against the base, types of children)
        // point at the vector's first byte.
        Vector::checked(ty, size, body).map_err(|err| err.or_position(Position::Byte(start)))
    }

    fn flat_data(&mut self, ty: &Type, size: usize, nulls: Option<&[u8]>) -> Result<FlatData> {
        Ok(match ty {
            Type::Row(fields) => {
                let position = self.source.position();
                let count = self.len("child count")?;
                if count != fields.len() {
                    return Err(Error::with_message(
                        ErrorKind::BadIndex,
                        format_args!("{count} children for {ty}"),
                    )
                    .with_position(Position::Byte(position)));
                }
                let mut children = Vec::with_capacity(count.min(64));
                for _ in 0..count {
                    children.push(self.optional_vector()?);
                }
                FlatData::Row(children)
            }
            Type::Array(_) => {
                let (offsets, sizes) = self.ranges(size)?;
                FlatData::Array {
                    offsets,
                    sizes,
                    elements: Box::new(self.vector()?),
                }
            }
            Type::Map(..) => {
                let (offsets, sizes) = self.ranges(size)?;
                let keys = Box::new(self.vector()?);
                FlatData::Map {
                    offsets,
                    sizes,
                    keys,
                    values: Box::new(self.vector()?),
                }
            }
            scalar => self.scalar_values(scalar, size, nulls)?,
        })
    }

    fn scalar_values(&mut self, ty: &Type, size: usize, nulls: Option<&[u8]>) -> Result<FlatData> {
        let position = self.source.position();
        let has_values = self.flag()?;
        if !has_values && size != 0 && *ty != Type::Unknown {
            return Err(Error::with_message(
                ErrorKind::Unsupported,
                "flat vector without a values buffer",
            )
            .with_position(Position::Byte(position)));
        }
        if !ty.is_string() {
            // Length and null positions are checked by `Vector::checked`.
            return Ok(FlatData::Fixed(if has_values {
                self.buffer("values buffer length")?
            } else {
                Vec::new()
            }));
        }
        // The views are checked and copied out as they arrive, the string buffers after them.
        let mut scan = ViewScan::new(size, nulls, ty.is_text());
        if has_values {
            let len = self.len("values buffer length")?;
            self.source.views(len, &mut scan)?;
        }
        let views_at = self.source.position() - scan.seen() as u64;
        let text = ty.is_text();
        let buffer_count = self.len("string buffer count")?;
        let mut long = Vec::new();
        let mut ascii = true;
        for _ in 0..buffer_count {
            let len = self.len("string buffer length")?;
            self.source.append(&mut long, len, |piece| {
                if text && ascii {
                    ascii = piece.is_ascii();
                }
            })?;
        }
        Ok(FlatData::Strings(scan.finish(long, ascii, views_at)?))
    }

    fn constant(&mut self, ty: &Type) -> Result<Body> {
        if self.flag()? {
            // A null constant: nothing follows.
            return Ok(Body::Constant(ConstantValue::Null));
        }
        let scalar_position = self.source.position();
        let is_scalar = self.flag()?;
        if is_scalar && !ty.is_scalar() {
            return Err(Error::with_message(
                ErrorKind::TypeMismatch,
                format_args!("is-scalar byte 1 for a {ty} constant"),
            )
            .with_position(Position::Byte(scalar_position)));
        }
        let value = if !is_scalar {
            // A base vector and an index, for any type.
            let base = Box::new(self.vector()?);
            let index = self.len("constant index")?;
            ConstantValue::Complex { base, index }
        } else if ty.is_string() {
            let view_position = self.source.position();
            let view: [u8; 16] = self.array()?;
            let len = u32::from_le_bytes([view[0], view[1], view[2], view[3]]) as usize;
            if len <= INLINE_LIMIT {
                ConstantValue::Scalar(view[4..4 + len].to_vec())
            } else {
                let length_position = self.source.position();
                let bytes = self.buffer("constant string length")?;
                if bytes.len() != len {
                    return Err(Error::with_message(
                        ErrorKind::BadIndex,
                        format_args!(
                            "string view of {len} bytes (at byte {view_position}) followed by {} bytes",
                            bytes.len()
                        ),
                    )
                    .with_position(Position::Byte(length_position)));
                }
                ConstantValue::Scalar(bytes)
            }
        } else {
            let width = ty.fixed_width().unwrap_or(0);
            let mut bytes = vec![0u8; width];
            self.source.read_into(&mut bytes)?;
            ConstantValue::Scalar(bytes)
        };
        Ok(Body::Constant(value))
    }
}
