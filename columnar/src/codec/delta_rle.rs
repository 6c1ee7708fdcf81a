//! DeltaRle: Rle over the `i128` differences of consecutive integers (wire format in
//! [`crate::codec`]).

use std::marker::PhantomData;

use super::{append_output, read_run_header, reserve_run, AnyRleEncoder, RunHeader};
use crate::wire::Reader;
use crate::{Error, ErrorKind, Result};

integer_element! {
    /// Element types of a DeltaRle column: every integer type and `bool` (as 0 / 1).
    ///
    /// Implement it for a newtype to store it with DeltaRle; `to_i128` returning `None` makes the
    /// encoder fail with [`ErrorKind::EncodeOverflow`].
    #[diagnostic::on_unimplemented(
        message = "`{Self}` cannot be stored with strategy `DeltaRle`",
        label = "`DeltaRle` takes integers and `bool`",
        note = "use `strategy = \"Rle\"` or no strategy for other types"
    )]
    pub trait DeltaRleable: i128 { to_i128, from_i128 }
}

impl DeltaRleable for bool {
    #[inline]
    fn to_i128(self) -> Option<i128> {
        Some(i128::from(self))
    }
    #[inline]
    fn from_i128(value: i128) -> Option<Self> {
        match value {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
}

/// Streams values into a DeltaRle column.
///
/// ```
/// use columnar::codec::DeltaRleEncoder;
/// let mut encoder = DeltaRleEncoder::new();
/// for id in [10u64, 11, 12, 13] {
///     encoder.push(&id)?;
/// }
/// // literal of one delta 10, run of three deltas 1
/// assert_eq!(encoder.finish()?, [0x01, 0x14, 0x06, 0x02]);
/// # Ok::<(), columnar::Error>(())
/// ```
///
/// Not generic, as in `serde_columnar`: each call may pass any [`DeltaRleable`] type, the
/// encoder works on `i128`.
#[derive(Debug, Default)]
pub struct DeltaRleEncoder {
    deltas: AnyRleEncoder<i128>,
    previous: i128,
}

impl DeltaRleEncoder {
    /// An empty encoder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one value.
    ///
    /// # Errors
    /// [`ErrorKind::EncodeOverflow`] when the value or its difference from the previous value
    /// is outside `i128` (never saturated). The encoder must not be used after an error.
    #[inline]
    pub fn push<T: DeltaRleable>(&mut self, value: &T) -> Result<()> {
        let value = value.to_i128().ok_or_else(|| {
            Error::with_message(ErrorKind::EncodeOverflow, "DeltaRle value outside i128")
        })?;
        let delta = value.checked_sub(self.previous).ok_or_else(|| {
            Error::with_message(ErrorKind::EncodeOverflow, "DeltaRle delta outside i128")
        })?;
        self.previous = value;
        self.deltas.push(&delta)
    }

    /// Adds one value: `serde_columnar`'s name for [`DeltaRleEncoder::push`].
    ///
    /// # Errors
    /// As [`DeltaRleEncoder::push`].
    pub fn append<T: DeltaRleable>(&mut self, value: T) -> Result<()> {
        self.push(&value)
    }

    /// Flushes the pending run and returns the column bytes.
    ///
    /// # Errors
    /// None in practice; the signature matches the other encoders.
    pub fn finish(self) -> Result<Vec<u8>> {
        self.deltas.finish()
    }

    /// Flushes the pending run and appends the column bytes to `out`.
    ///
    /// # Errors
    /// As [`DeltaRleEncoder::finish`].
    pub fn finish_into(self, out: &mut Vec<u8>) -> Result<()> {
        append_output(out, self.finish()?);
        Ok(())
    }
}

/// Encodes a whole column.
///
/// # Errors
/// As [`DeltaRleEncoder::push`].
///
/// ```
/// assert_eq!(columnar::codec::delta_rle::encode(&[1u8, 2, 3])?, [0x06, 0x02]);
/// # Ok::<(), columnar::Error>(())
/// ```
pub fn encode<T: DeltaRleable>(values: &[T]) -> Result<Vec<u8>> {
    crate::strategy::encode_column::<crate::strategy::DeltaRle, T>(values)
}

#[cold]
fn overflow(offset: usize) -> Error {
    Error::at(ErrorKind::IntegerOverflow, offset as u64)
}

/// `first + delta × steps`, or `None` when it leaves `i128`.
///
/// The product alone may leave `i128` while the sum does not (a run climbing from near
/// `i128::MIN` to near `i128::MAX`), so the product is bounded by the room left in the
/// direction of the run and computed in `u128`, where it then cannot overflow.
#[inline]
fn run_end(first: i128, delta: i128, steps: usize) -> Option<i128> {
    let steps = u128::try_from(steps).ok()?;
    let magnitude = delta.unsigned_abs();
    if magnitude == 0 || steps == 0 {
        return Some(first);
    }
    let room = if delta > 0 {
        i128::MAX.abs_diff(first)
    } else {
        first.abs_diff(i128::MIN)
    };
    if steps > room / magnitude {
        return None;
    }
    // magnitude × steps <= room < 2^128, and the true result is in i128: wrapping is exact.
    let span = (magnitude * steps) as i128;
    Some(if delta > 0 {
        first.wrapping_add(span)
    } else {
        first.wrapping_sub(span)
    })
}

/// How many values the column holds, reading run headers and skipping the deltas without
/// adding them up; `None` when it is malformed (decoding it reports where). Saturates at
/// `usize::MAX`.
pub(crate) fn count(bytes: &[u8]) -> Option<usize> {
    let mut reader = Reader::new(bytes);
    let mut total = 0usize;
    while let Some(header) = read_run_header(&mut reader, true).ok()? {
        let values = match header {
            RunHeader::Repeat(len) => {
                reader.read_zigzag_i128().ok()?;
                len
            }
            RunHeader::Literal(len) => {
                for _ in 0..len {
                    reader.read_zigzag_i128().ok()?;
                }
                len
            }
        };
        total = total.saturating_add(values);
    }
    Some(total)
}

/// Decodes a whole column.
///
/// # Errors
/// The errors listed in [`crate::codec`] for DeltaRle, with the offset in `bytes`; a value that
/// does not fit `T` is [`ErrorKind::IntegerOverflow`] at the delta that produced it.
///
/// ```
/// assert_eq!(columnar::codec::delta_rle::decode::<u8>(&[0x06, 0x02])?, [1, 2, 3]);
/// // 255 then +1: a u8 column cannot hold 256.
/// let err = columnar::codec::delta_rle::decode::<u8>(&[0x01, 0xfe, 0x03, 0x02, 0x02]).unwrap_err();
/// assert_eq!((err.kind(), err.offset()), (columnar::ErrorKind::IntegerOverflow, Some(4)));
/// # Ok::<(), columnar::Error>(())
/// ```
pub fn decode<T: DeltaRleable>(bytes: &[u8]) -> Result<Vec<T>> {
    let mut reader = Reader::new(bytes);
    let mut values = Vec::new();
    let mut current: i128 = 0;
    loop {
        let start = reader.offset();
        match read_run_header(&mut reader, true)? {
            None => return Ok(values),
            Some(RunHeader::Repeat(len)) => {
                let delta_at = reader.offset();
                let delta = reader.read_zigzag_i128()?;
                // The values form an arithmetic sequence; T's range is an interval, so checking
                // both ends checks them all.
                let first = current
                    .checked_add(delta)
                    .ok_or_else(|| overflow(delta_at))?;
                let last = run_end(first, delta, len - 1).ok_or_else(|| overflow(delta_at))?;
                if T::from_i128(first).is_none() || T::from_i128(last).is_none() {
                    return Err(overflow(delta_at));
                }
                reserve_run(&mut values, len, start)?;
                if delta == 0 {
                    let value = T::from_i128(first).ok_or_else(|| overflow(delta_at))?;
                    values.extend(std::iter::repeat_n(value, len));
                } else {
                    let mut value = first;
                    for _ in 0..len {
                        values.push(T::from_i128(value).ok_or_else(|| overflow(delta_at))?);
                        value = value.wrapping_add(delta);
                    }
                }
                current = last;
            }
            Some(RunHeader::Literal(len)) => {
                values.reserve(len);
                for _ in 0..len {
                    let delta_at = reader.offset();
                    let delta = reader.read_zigzag_i128()?;
                    current = current
                        .checked_add(delta)
                        .ok_or_else(|| overflow(delta_at))?;
                    values.push(T::from_i128(current).ok_or_else(|| overflow(delta_at))?);
                }
            }
        }
    }
}

/// Streams the values of a DeltaRle column; after the first error it yields `None`.
///
/// ```
/// use columnar::codec::DeltaRleIter;
/// let ids: Vec<u64> = DeltaRleIter::new(&[0x01, 0x14, 0x06, 0x02]).collect::<Result<_, _>>()?;
/// assert_eq!(ids, [10, 11, 12, 13]);
/// # Ok::<(), columnar::Error>(())
/// ```
#[derive(Debug)]
pub struct DeltaRleIter<'de, T> {
    reader: Reader<'de>,
    /// Offset of the column's first byte in the input.
    start: usize,
    current: i128,
    /// The delta of the pending run and where it was read.
    run_delta: i128,
    run_delta_at: usize,
    run_left: usize,
    literal_left: usize,
    failed: bool,
    _values: PhantomData<fn() -> T>,
}

impl<'de, T: DeltaRleable> DeltaRleIter<'de, T> {
    iter_methods!('de);

    /// An iterator over column bytes that sit at `base` of a larger input.
    pub fn with_base(bytes: &'de [u8], base: usize) -> Self {
        DeltaRleIter {
            reader: Reader::with_base(bytes, base),
            start: base,
            current: 0,
            run_delta: 0,
            run_delta_at: 0,
            run_left: 0,
            literal_left: 0,
            failed: false,
            _values: PhantomData,
        }
    }

    fn try_next(&mut self) -> Result<Option<T>> {
        loop {
            if self.run_left > 0 {
                self.run_left -= 1;
                return self.step(self.run_delta, self.run_delta_at).map(Some);
            }
            if self.literal_left > 0 {
                self.literal_left -= 1;
                let delta_at = self.reader.offset();
                let delta = self.reader.read_zigzag_i128()?;
                return self.step(delta, delta_at).map(Some);
            }
            match read_run_header(&mut self.reader, true)? {
                None => return Ok(None),
                Some(RunHeader::Repeat(len)) => {
                    self.run_delta_at = self.reader.offset();
                    self.run_delta = self.reader.read_zigzag_i128()?;
                    self.run_left = len;
                }
                Some(RunHeader::Literal(len)) => self.literal_left = len,
            }
        }
    }

    #[inline]
    fn step(&mut self, delta: i128, delta_at: usize) -> Result<T> {
        self.current = self
            .current
            .checked_add(delta)
            .ok_or_else(|| overflow(delta_at))?;
        T::from_i128(self.current).ok_or_else(|| overflow(delta_at))
    }
}

impl<'de, T: DeltaRleable> DeltaRleIter<'de, T> {
    /// The next value, `None` at the end of the input (for [`super::DeltaRleDecoder`]).
    pub(crate) fn next_value(&mut self) -> Result<Option<T>> {
        self.next().transpose()
    }

    /// The bytes not read yet, and whether a run is partly taken.
    pub(crate) fn rest(&self) -> (&'de [u8], bool) {
        (
            self.reader.rest(),
            self.run_left > 0 || self.literal_left > 0,
        )
    }

    /// The next value of the pending run when it is in range; `None` otherwise (no run, or
    /// overflow, which the slow path reports).
    #[inline(always)]
    fn run_step(&mut self) -> Option<T> {
        if self.run_left > 0 {
            let current = self.current.checked_add(self.run_delta)?;
            let value = T::from_i128(current)?;
            self.run_left -= 1;
            self.current = current;
            return Some(value);
        }
        None
    }

    /// Takes a one-byte run header (and, for a repeated run, its delta of at most 9 bytes),
    /// the common case, when the previous run is used up; anything else, including the end of
    /// the input and every error, is left unread for [`DeltaRleIter::try_next`].
    #[inline]
    fn start_run_fast(&mut self) {
        if self.failed {
            return;
        }
        // The fast path of `read_run_header`, for values that take a byte each.
        let Some(byte @ 1..0x80) = self.reader.peek_u8() else {
            return;
        };
        let count = crate::wire::unzigzag_i64(u64::from(byte));
        let len = count.unsigned_abs() as usize;
        if count > 0 {
            if let Some((raw, delta_len)) = self.reader.peek_short_varint(1) {
                self.run_delta_at = self.reader.offset() + 1;
                // raw < 2^63: its zigzag decoding as i64 is the same number as i128's.
                self.run_delta = i128::from(crate::wire::unzigzag_i64(raw));
                self.run_left = len;
                self.reader.advance(1 + delta_len);
            }
        } else if len < self.reader.remaining() {
            self.literal_left = len;
            self.reader.advance(1);
        }
    }

    /// Everything but an in-range step of a run: a literal's delta of at most 9 bytes is read
    /// and added here, and a new run started by [`DeltaRleIter::start_run_fast`]; anything
    /// unusual (a longer delta, overflow, the end of the input) takes the slow path, which
    /// reads it again and reports it.
    #[inline(never)]
    fn next_uncommon(&mut self) -> Option<Result<T>> {
        if self.run_left == 0 && self.literal_left == 0 {
            self.start_run_fast();
        }
        if let Some(value) = self.run_step() {
            return Some(Ok(value));
        }
        if self.literal_left > 0 {
            if let Some((raw, len)) = self.reader.peek_short_varint(0) {
                // raw < 2^63: its zigzag decoding as i64 is the same number as i128's.
                let delta = i128::from(crate::wire::unzigzag_i64(raw));
                if let Some(current) = self.current.checked_add(delta) {
                    if let Some(value) = T::from_i128(current) {
                        self.reader.advance(len);
                        self.literal_left -= 1;
                        self.current = current;
                        return Some(Ok(value));
                    }
                }
            }
        }
        self.next_slow()
    }

    /// Reads the next value the general way, reporting any error at its offset.
    fn next_slow(&mut self) -> Option<Result<T>> {
        if self.failed {
            return None;
        }
        let item = self.try_next().transpose();
        if matches!(item, Some(Err(_))) {
            self.failed = true;
            self.run_left = 0;
            self.literal_left = 0;
        }
        item
    }
}

impl<T: DeltaRleable> Iterator for DeltaRleIter<'_, T> {
    type Item = Result<T>;

    #[inline(always)]
    fn next(&mut self) -> Option<Result<T>> {
        // Inside a run: one addition, inlined into the caller's loop; anything else is out of
        // line, so the row iterators that call this for each column stay small.
        if let Some(value) = self.run_step() {
            return Some(Ok(value));
        }
        self.next_uncommon()
    }
}

impl<T: DeltaRleable> std::iter::FusedIterator for DeltaRleIter<'_, T> {}

column_type! {
    /// A column stored with the DeltaRle codec; serializes as a byte string of [`encode`]'s
    /// output.
    DeltaRleColumn, "a DeltaRle column",
    encode where [T: DeltaRleable],
    decode where [T: DeltaRleable],
}

#[cfg(test)]
mod tests;
