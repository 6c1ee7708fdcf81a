//! Generic: the values as a postcard sequence, for fields without a strategy (wire format in
//! [`crate::codec`]).

use std::marker::PhantomData;

use serde::{Deserialize, Serialize};

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
/// [`ErrorKind::TrailingBytes`](crate::ErrorKind::TrailingBytes) when bytes follow the last
/// value.
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
    /// Offset of the column's first byte in the input.
    start: usize,
    /// Values left; `None` until the count is read.
    left: Option<usize>,
    failed: bool,
    _values: PhantomData<fn() -> T>,
}

impl<'de, T: Deserialize<'de>> GenericIter<'de, T> {
    iter_methods!('de, with_depth_limit);

    /// An iterator over column bytes that sit at `base` of a larger input.
    pub fn with_base(bytes: &'de [u8], base: usize) -> Self {
        GenericIter {
            de: Deserializer::with_base(bytes, base),
            start: base,
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

column_type! {
    /// A column stored with the Generic codec (a postcard `Vec<T>`); serializes as a byte string.
    GenericColumn, "a Generic column",
    encode where [T: Serialize],
    decode<'de> where [T: Deserialize<'de>],
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde::{Deserialize, Serialize};

    use super::*;
    use crate::codec::test_support::{
        assert_goldens, assert_rejects, assert_round_trip, codec, entry_points, hex, hostile_cases,
    };

    #[test]
    fn encodes_and_decodes_golden_vectors() {
        // Written by hand from docs/spec/columnar.md §5.1 (worked example in §6.2): varint count,
        // then each value.
        let cases: Vec<(Vec<u32>, Vec<u8>)> = vec![
            // Empty column: count 0.
            (vec![], hex("00")),
            (vec![7], hex("01 07")),
            (vec![1, 300, u32::MAX], hex("03 01 ac 02 ff ff ff ff 0f")),
        ];
        assert_goldens(&cases, &codec!(GenericIter, GenericColumn<u32>));
        for (values, bytes) in cases {
            let mut encoder = GenericEncoder::new();
            for value in &values {
                encoder.push(value).unwrap();
            }
            assert_eq!(encoder.finish().unwrap(), bytes);
        }
        // Strings: count 2, "hi", "".
        let bytes = hex("02 02 68 69 00");
        assert_eq!(encode(&["hi", ""]).unwrap(), bytes);
        assert_eq!(decode::<&str>(&bytes).unwrap(), ["hi", ""]);
    }

    #[test]
    fn rejects_hostile_inputs() {
        let entry_points = entry_points!(decode::<u32>, GenericIter, GenericColumn<u32>);
        assert_rejects(&entry_points, &hostile_cases!("generic.txt"));
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    enum Shape {
        Empty,
        Circle(f64),
        Rect { w: u16, h: i32 },
        Path(Vec<(i8, char)>),
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Row {
        name: String,
        tags: Option<Vec<u8>>,
        shape: Shape,
    }

    fn row() -> impl Strategy<Value = Row> {
        let shape = prop_oneof![
            Just(Shape::Empty),
            any::<f64>()
                .prop_filter("NaN != NaN", |v| !v.is_nan())
                .prop_map(Shape::Circle),
            (any::<u16>(), any::<i32>()).prop_map(|(w, h)| Shape::Rect { w, h }),
            prop::collection::vec((any::<i8>(), any::<char>()), 0..4).prop_map(Shape::Path),
        ];
        (".*", any::<Option<Vec<u8>>>(), shape).prop_map(|(name, tags, shape)| Row {
            name,
            tags,
            shape,
        })
    }

    proptest! {
        #[test]
        fn round_trips_and_matches_serde_columnar(rows in prop::collection::vec(row(), 0..8)) {
                        assert_round_trip(&rows, &codec!(GenericIter, GenericColumn<Row>));
        }

        #[test]
        fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
            let streamed: Result<Vec<Row>> = GenericIter::new(&bytes).collect();
            let bulk = decode::<Row>(&bytes);
            prop_assert_eq!(bulk.is_ok(), streamed.is_ok());
        }
    }
}
