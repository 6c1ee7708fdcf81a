//! BoolRle: alternating run lengths of `false` and `true` (wire format in [`crate::codec`]).

use serde::{Deserialize, Serialize};

use super::{append_output, reserve_run, serde_glue};
use crate::wire::{write_varint_usize, Reader};
use crate::{Error, ErrorKind, Result, MAX_RLE_COUNT};

/// The element type of a BoolRle column: `bool` only. It exists so that a `#[columnar]`
/// field of another type with `strategy = "BoolRle"` is reported once, in these words.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be stored with strategy `BoolRle`",
    label = "`BoolRle` takes `bool`",
    note = "use `strategy = \"Rle\"` or `\"DeltaRle\"` for integers"
)]
pub trait BoolRleable: Copy {
    /// The value as a `bool`.
    fn to_bool(self) -> bool;
    /// The value for `value`.
    fn from_bool(value: bool) -> Self;
}

impl BoolRleable for bool {
    #[inline]
    fn to_bool(self) -> bool {
        self
    }
    #[inline]
    fn from_bool(value: bool) -> Self {
        value
    }
}

/// Streams values into a BoolRle column.
///
/// ```
/// use columnar::codec::BoolRleEncoder;
/// let mut encoder = BoolRleEncoder::new();
/// encoder.push(&true)?;
/// assert_eq!(encoder.finish()?, [0x00, 0x01]);
/// # Ok::<(), columnar::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct BoolRleEncoder {
    out: Vec<u8>,
    /// The value of the pending run; runs start with `false`.
    last: bool,
    count: usize,
}

impl BoolRleEncoder {
    /// An empty encoder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one value.
    ///
    /// # Errors
    /// None; the signature matches the other encoders.
    #[inline]
    pub fn push(&mut self, value: &bool) -> Result<()> {
        if *value == self.last {
            self.count += 1;
        } else {
            // The first run is `false`; a column starting with `true` writes a count of 0.
            write_varint_usize(&mut self.out, self.count);
            self.last = *value;
            self.count = 1;
        }
        Ok(())
    }

    /// Adds one value: `serde_columnar`'s name for [`BoolRleEncoder::push`].
    ///
    /// # Errors
    /// None; the signature matches the other encoders.
    pub fn append(&mut self, value: bool) -> Result<()> {
        self.push(&value)
    }

    /// Flushes the pending run and returns the column bytes.
    ///
    /// # Errors
    /// None; the signature matches the other encoders.
    pub fn finish(mut self) -> Result<Vec<u8>> {
        if self.count > 0 {
            write_varint_usize(&mut self.out, self.count);
        }
        Ok(self.out)
    }

    /// Flushes the pending run and appends the column bytes to `out`.
    ///
    /// # Errors
    /// None; the signature matches the other encoders.
    pub fn finish_into(self, out: &mut Vec<u8>) -> Result<()> {
        append_output(out, self.finish()?);
        Ok(())
    }
}

/// Encodes a whole column.
///
/// # Errors
/// None; the signature matches the other codecs.
///
/// ```
/// let bytes = columnar::codec::bool_rle::encode(&[true, true, false, false, false])?;
/// assert_eq!(bytes, [0x00, 0x02, 0x03]);
/// # Ok::<(), columnar::Error>(())
/// ```
pub fn encode(values: &[bool]) -> Result<Vec<u8>> {
    crate::strategy::encode_column::<crate::strategy::BoolRle, bool>(values)
}

/// Reads run counts and validates them.
#[derive(Debug, Clone)]
struct Runs<'de> {
    reader: Reader<'de>,
    /// The value of the last run read; the first run is `false`.
    value: bool,
    first: bool,
}

impl<'de> Runs<'de> {
    fn new(bytes: &'de [u8], base: usize) -> Self {
        Runs {
            reader: Reader::with_base(bytes, base),
            value: true,
            first: true,
        }
    }

    /// The next run as `(value, count, offset of the count)`; `None` at the end.
    #[inline]
    fn next_run(&mut self) -> Result<Option<(bool, usize, usize)>> {
        if self.reader.is_empty() {
            return Ok(None);
        }
        let start = self.reader.offset();
        let count = self.reader.read_varint_u64()?;
        self.value = !self.value;
        if count == 0 {
            // Only the leading `false` run may be empty, and only before a `true` run.
            if !std::mem::replace(&mut self.first, false) {
                return Err(Error::at(ErrorKind::ZeroRunCount, start as u64));
            }
            if self.reader.is_empty() {
                return Err(Error::at(
                    ErrorKind::UnexpectedEnd,
                    self.reader.offset() as u64,
                ));
            }
            return self.next_run();
        }
        self.first = false;
        if count > MAX_RLE_COUNT as u64 {
            return Err(Error::at(ErrorKind::RunCountTooLarge, start as u64));
        }
        Ok(Some((self.value, count as usize, start)))
    }
}

/// How many values the column holds, by summing its run lengths without producing them;
/// `None` when it is malformed (decoding it reports where). Saturates at `usize::MAX`.
pub(crate) fn count(bytes: &[u8]) -> Option<usize> {
    let mut runs = Runs::new(bytes, 0);
    let mut total = 0usize;
    while let Some((_, count, _)) = runs.next_run().ok()? {
        total = total.saturating_add(count);
    }
    Some(total)
}

/// Decodes a whole column.
///
/// # Errors
/// The errors listed in [`crate::codec`] for BoolRle, with the offset in `bytes`.
///
/// ```
/// let values = columnar::codec::bool_rle::decode(&[0x00, 0x02, 0x03])?;
/// assert_eq!(values, [true, true, false, false, false]);
/// let err = columnar::codec::bool_rle::decode(&[0x02, 0x00]).unwrap_err();
/// assert_eq!((err.kind(), err.offset()), (columnar::ErrorKind::ZeroRunCount, Some(1)));
/// # Ok::<(), columnar::Error>(())
/// ```
pub fn decode(bytes: &[u8]) -> Result<Vec<bool>> {
    let mut runs = Runs::new(bytes, 0);
    let mut values = Vec::new();
    while let Some((value, count, start)) = runs.next_run()? {
        reserve_run(&mut values, count, start)?;
        values.extend(std::iter::repeat_n(value, count));
    }
    Ok(values)
}

/// Streams the values of a BoolRle column; after the first error it yields `None`.
///
/// ```
/// use columnar::codec::BoolRleIter;
/// let values: Vec<bool> = BoolRleIter::new(&[0x01, 0x01]).collect::<Result<_, _>>()?;
/// assert_eq!(values, [false, true]);
/// # Ok::<(), columnar::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct BoolRleIter<'de> {
    runs: Runs<'de>,
    /// Offset of the column's first byte in the input.
    start: usize,
    value: bool,
    left: usize,
    failed: bool,
}

impl<'de> BoolRleIter<'de> {
    iter_methods!('de);

    /// An iterator over column bytes that sit at `base` of a larger input.
    pub fn with_base(bytes: &'de [u8], base: usize) -> Self {
        BoolRleIter {
            runs: Runs::new(bytes, base),
            start: base,
            value: false,
            left: 0,
            failed: false,
        }
    }
}

impl<'de> BoolRleIter<'de> {
    /// The next value, `None` at the end of the input (for [`super::BoolRleDecoder`]).
    pub(crate) fn next_value(&mut self) -> Result<Option<bool>> {
        self.next().transpose()
    }

    /// The bytes not read yet, and whether a run is partly taken.
    pub(crate) fn rest(&self) -> (&'de [u8], bool) {
        (self.runs.reader.rest(), self.left > 0)
    }
}

impl BoolRleIter<'_> {
    /// Starts the next run (or reports the end or an error), then yields its first value.
    #[inline(never)]
    fn next_slow(&mut self) -> Option<Result<bool>> {
        if self.failed {
            return None;
        }
        match self.runs.next_run() {
            Ok(Some((value, count, _))) => {
                self.value = value;
                self.left = count - 1;
                Some(Ok(value))
            }
            Ok(None) => None,
            Err(err) => {
                self.failed = true;
                Some(Err(err))
            }
        }
    }
}

impl Iterator for BoolRleIter<'_> {
    type Item = Result<bool>;

    #[inline(always)]
    fn next(&mut self) -> Option<Result<bool>> {
        // Inside a run (`left` is 0 after an error): one decrement.
        if self.left > 0 {
            self.left -= 1;
            return Some(Ok(self.value));
        }
        self.next_slow()
    }
}

impl std::iter::FusedIterator for BoolRleIter<'_> {}

/// A column stored with the BoolRle codec; serializes as a byte string of [`encode`]'s
/// output.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BoolRleColumn {
    /// The values, one per row.
    pub data: Vec<bool>,
}

impl BoolRleColumn {
    /// A column holding `data`.
    pub fn new(data: Vec<bool>) -> Self {
        BoolRleColumn { data }
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Whether the column has no values.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The codec output for this column.
    ///
    /// # Errors
    /// None; the signature matches the other columns.
    pub fn encode(&self) -> Result<Vec<u8>> {
        encode(&self.data)
    }

    /// Decodes a column from codec output.
    ///
    /// # Errors
    /// As [`decode`].
    pub fn decode(bytes: &[u8]) -> Result<Self> {
        decode(bytes).map(BoolRleColumn::new)
    }
}

impl From<Vec<bool>> for BoolRleColumn {
    fn from(data: Vec<bool>) -> Self {
        BoolRleColumn { data }
    }
}

impl Serialize for BoolRleColumn {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serde_glue::serialize_column(self.encode(), serializer)
    }
}

impl<'de> Deserialize<'de> for BoolRleColumn {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        serde_glue::deserialize_column(deserializer, "a BoolRle column", BoolRleColumn::decode)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::codec::test_support::{
        assert_goldens, assert_rejects, assert_round_trip, assert_stream_starts, codec,
        entry_points, hex, hostile_cases, stream_agrees_with_bulk,
    };

    /// Golden vectors written by hand from `docs/spec/columnar.md` §5.4; the first rows are the
    /// BoolRle worked examples of §6.2.
    fn goldens() -> Vec<(Vec<bool>, Vec<u8>)> {
        let (t, f) = (true, false);
        vec![
            // Counts [0, 2, 3].
            (vec![t, t, f, f, f], hex("00 02 03")),
            // [true] → 00 01.
            (vec![t], hex("00 01")),
            // Empty column: no bytes.
            (vec![], vec![]),
            (vec![f], hex("01")),
            (vec![f, t], hex("01 01")),
            (vec![f, t, t, f], hex("01 02 01")),
            // 200 falses: varint 200 = c8 01.
            (vec![f; 200], hex("c8 01")),
        ]
    }

    /// Both encoders write the goldens; every decoder reads them, and their prefixes safely.
    #[test]
    fn golden_vectors_round_trip_like_serde_columnar() {
        assert_goldens(&goldens(), &codec!(BoolRleIter, BoolRleColumn));
    }

    #[test]
    fn rejects_hostile_inputs() {
        let entry_points = entry_points!(decode, BoolRleIter, BoolRleColumn);
        assert_rejects(&entry_points, &hostile_cases!("bool_rle.txt"));
    }

    #[test]
    fn accepts_a_run_of_exactly_max_rle_count() {
        // 1_000_000_000 = 80 94 eb dc 03; stream the start instead of materializing it.
        let bytes = hex("01 80 94 eb dc 03");
        assert_stream_starts(BoolRleIter::new(&bytes), &[false, true, true]);
    }

    proptest! {
        #[test]
        fn round_trips_and_matches_serde_columnar(
            runs in prop::collection::vec((any::<bool>(), 1usize..300), 0..20)
        ) {
            let values: Vec<bool> = runs
                .into_iter()
                .flat_map(|(value, times)| std::iter::repeat_n(value, times))
                .collect();
                        assert_round_trip(&values, &codec!(BoolRleIter, BoolRleColumn));
        }

        #[test]
        fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
            stream_agrees_with_bulk(BoolRleIter::new(&bytes), || decode(&bytes))?;
        }
    }
}
