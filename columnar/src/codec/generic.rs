//! Generic: the values as a postcard sequence, for fields without a strategy (wire format in
//! [`crate::codec`]).

use std::marker::PhantomData;

use serde::{Deserialize, Serialize};

use super::serde_glue;
use crate::wire::{self, write_varint_usize, Deserializer};
use crate::Result;

/// Streams values into a Generic column.
///
/// ```
/// use columnar::codec::GenericEncoder;
/// let mut encoder = GenericEncoder::new();
/// encoder.push(&"ab")?;
/// encoder.push(&"c")?;
/// assert_eq!(encoder.finish()?, [0x02, 0x02, b'a', b'b', 0x01, b'c']);
/// # Ok::<(), columnar::Error>(())
/// ```
#[derive(Debug)]
pub struct GenericEncoder<T: ?Sized> {
    /// The serialized values; the count is written in front at the end.
    values: Vec<u8>,
    len: usize,
    _values: PhantomData<fn(&T)>,
}

impl<T: ?Sized> Default for GenericEncoder<T> {
    fn default() -> Self {
        GenericEncoder {
            values: Vec::new(),
            len: 0,
            _values: PhantomData,
        }
    }
}

impl<T: Serialize + ?Sized> GenericEncoder<T> {
    /// An empty encoder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one value.
    ///
    /// # Errors
    /// An error of the value's `Serialize` implementation. The encoder must not be used after
    /// an error.
    #[inline]
    pub fn push(&mut self, value: &T) -> Result<()> {
        wire::append(value, &mut self.values)?;
        self.len += 1;
        Ok(())
    }

    /// Returns the column bytes.
    ///
    /// # Errors
    /// None; the signature matches the other encoders.
    pub fn finish(self) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(10 + self.values.len());
        self.finish_into(&mut out)?;
        Ok(out)
    }

    /// Appends the column bytes to `out`.
    ///
    /// # Errors
    /// None; the signature matches the other encoders.
    pub fn finish_into(self, out: &mut Vec<u8>) -> Result<()> {
        write_varint_usize(out, self.len);
        out.extend_from_slice(&self.values);
        Ok(())
    }
}

/// Encodes a whole column; the bytes are postcard's for `values` as a `Vec<T>`.
///
/// # Errors
/// An error of the values' `Serialize` implementation.
///
/// ```
/// assert_eq!(columnar::codec::generic::encode::<u32>(&[])?, [0x00]);
/// assert_eq!(columnar::codec::generic::encode(&[300u32])?, [0x01, 0xac, 0x02]);
/// # Ok::<(), columnar::Error>(())
/// ```
pub fn encode<T: Serialize>(values: &[T]) -> Result<Vec<u8>> {
    wire::to_vec(values)
}

/// Decodes a whole column.
///
/// # Errors
/// Any postcard decoding error of the sequence, with the offset in `bytes`, and
/// [`ErrorKind::TrailingBytes`] when bytes follow the last value.
///
/// ```
/// let values: Vec<&str> = columnar::codec::generic::decode(&[0x01, 0x02, b'h', b'i'])?;
/// assert_eq!(values, ["hi"]);
/// # Ok::<(), columnar::Error>(())
/// ```
pub fn decode<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> Result<Vec<T>> {
    wire::from_bytes(bytes)
}

/// Streams the values of a Generic column; after the first error it yields `None`.
///
/// ```
/// use columnar::codec::GenericIter;
/// let values: Vec<u8> = GenericIter::new(&[0x02, 0x07, 0x08]).collect::<Result<_, _>>()?;
/// assert_eq!(values, [7, 8]);
/// # Ok::<(), columnar::Error>(())
/// ```
#[derive(Debug)]
pub struct GenericIter<'de, T> {
    de: Deserializer<'de>,
    /// Values left; `None` until the count is read.
    left: Option<usize>,
    failed: bool,
    _values: PhantomData<fn() -> T>,
}

impl<'de, T: Deserialize<'de>> GenericIter<'de, T> {
    /// An iterator over the column `bytes`.
    pub fn new(bytes: &'de [u8]) -> Self {
        Self::with_base(bytes, 0)
    }

    /// An iterator over column bytes that sit at `base` of a larger input.
    pub fn with_base(bytes: &'de [u8], base: usize) -> Self {
        GenericIter {
            de: Deserializer::with_base(bytes, base),
            left: None,
            failed: false,
            _values: PhantomData,
        }
    }

    fn try_next(&mut self) -> Result<Option<T>> {
        let left = match self.left {
            Some(left) => left,
            None => self.de.reader().read_varint_usize()?,
        };
        if left == 0 {
            self.left = Some(0);
            self.de.end()?;
            return Ok(None);
        }
        self.left = Some(left - 1);
        T::deserialize(&mut self.de).map(Some)
    }
}

impl<'de, T: Deserialize<'de>> Iterator for GenericIter<'de, T> {
    type Item = Result<T>;

    fn next(&mut self) -> Option<Result<T>> {
        if self.failed {
            return None;
        }
        let item = self.try_next().transpose();
        if matches!(item, Some(Err(_)) | None) {
            self.failed = true;
        }
        item
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self.left {
            Some(left) if !self.failed => (0, Some(left)),
            Some(_) => (0, Some(0)),
            None => (0, None),
        }
    }
}

impl<'de, T: Deserialize<'de>> std::iter::FusedIterator for GenericIter<'de, T> {}

/// A column stored with the Generic codec (a postcard `Vec<T>`); serializes as a byte string.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GenericColumn<T> {
    /// The values, one per row.
    pub data: Vec<T>,
}

impl<T> GenericColumn<T> {
    /// A column holding `data`.
    pub fn new(data: Vec<T>) -> Self {
        GenericColumn { data }
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Whether the column has no values.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
}

impl<T: Serialize> GenericColumn<T> {
    /// The codec output for this column.
    ///
    /// # Errors
    /// As [`encode`].
    pub fn encode(&self) -> Result<Vec<u8>> {
        encode(&self.data)
    }
}

impl<'de, T: Deserialize<'de>> GenericColumn<T> {
    /// Decodes a column from codec output.
    ///
    /// # Errors
    /// As [`decode`].
    pub fn decode(bytes: &'de [u8]) -> Result<Self> {
        decode(bytes).map(GenericColumn::new)
    }
}

impl<T> From<Vec<T>> for GenericColumn<T> {
    fn from(data: Vec<T>) -> Self {
        GenericColumn { data }
    }
}

impl<T: Serialize> Serialize for GenericColumn<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serde_glue::serialize_column(self.encode(), serializer)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for GenericColumn<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        serde_glue::deserialize_column(deserializer, "a Generic column", GenericColumn::decode)
    }
}
