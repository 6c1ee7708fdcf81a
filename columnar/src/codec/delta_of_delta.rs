//! DeltaOfDelta: bit-packed second differences for timestamp-like series (wire format in
//! [`crate::codec`]).

use std::marker::PhantomData;

use super::append_output;
use crate::wire::{write_zigzag_i64, Reader};
use crate::{Error, ErrorKind, Result};

integer_element! {
    /// Element types of a DeltaOfDelta column: every integer type whose values fit `i64`.
    ///
    /// Implement it for a newtype to store it with DeltaOfDelta; `to_i64` returning `None` makes
    /// the encoder fail with [`ErrorKind::EncodeOverflow`].
    #[diagnostic::on_unimplemented(
        message = "`{Self}` cannot be stored with strategy `DeltaOfDelta`",
        label = "`DeltaOfDelta` takes integers within `i64`",
        note = "use `strategy = \"Rle\"` or no strategy for other types"
    )]
    pub trait DeltaOfDeltable: i64 { to_i64, from_i64 }
}

/// The payload widths of the five non-zero classes, with their biases, smallest first.
const CLASSES: [(u32, i64); 4] = [(7, 63), (9, 255), (12, 2047), (21, (1 << 20) - 1)];

/// Streams values into a DeltaOfDelta column.
///
/// ```
/// use columnar::codec::DeltaOfDeltaEncoder;
/// let mut encoder = DeltaOfDeltaEncoder::new();
/// for t in [1i64, 2, 3] {
///     encoder.push(&t)?;
/// }
/// // head Some(1); 2 is Δ²=1: `10` + 64 (1000000); 3 is Δ²=0: `0`: 10 bits used.
/// assert_eq!(encoder.finish()?, [0x01, 0x02, 0x02, 0b1010_0000, 0b0000_0000]);
/// # Ok::<(), columnar::Error>(())
/// ```
///
/// Not generic, as in `serde_columnar`: [`append`](Self::append) takes `i64`,
/// [`push`](Self::push) any [`DeltaOfDeltable`] type.
#[derive(Debug, Default)]
pub struct DeltaOfDeltaEncoder {
    head: Option<i64>,
    previous: i64,
    previous_delta: i64,
    /// Full bytes of the bit stream.
    bytes: Vec<u8>,
    /// Pending bits, left-aligned: the next bit goes at position `63 - pending_len`.
    pending: u64,
    pending_len: u32,
}

#[cold]
fn encode_overflow(what: &'static str) -> Error {
    Error::with_message(ErrorKind::EncodeOverflow, what)
}

impl DeltaOfDeltaEncoder {
    /// An empty encoder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one value.
    ///
    /// # Errors
    /// [`ErrorKind::EncodeOverflow`] when the value, its delta or its delta of delta does not fit
    /// `i64` (e.g. `i64::MAX` after `i64::MIN`). The encoder must not be used after an error.
    #[inline]
    pub fn push<T: DeltaOfDeltable>(&mut self, value: &T) -> Result<()> {
        let value = value
            .to_i64()
            .ok_or_else(|| encode_overflow("DeltaOfDelta value outside i64"))?;
        self.append(value)
    }

    /// Adds one `i64` value (`serde_columnar`'s signature).
    ///
    /// # Errors
    /// As [`DeltaOfDeltaEncoder::push`].
    #[inline]
    pub fn append(&mut self, value: i64) -> Result<()> {
        if self.head.is_none() {
            self.head = Some(value);
            self.previous = value;
            return Ok(());
        }
        let delta = value
            .checked_sub(self.previous)
            .ok_or_else(|| encode_overflow("DeltaOfDelta delta outside i64"))?;
        let delta_of_delta = delta
            .checked_sub(self.previous_delta)
            .ok_or_else(|| encode_overflow("DeltaOfDelta delta of delta outside i64"))?;
        self.previous = value;
        self.previous_delta = delta;
        if delta_of_delta == 0 {
            self.write_bits(0, 1);
            return Ok(());
        }
        // Prefix `1`*k `0` for class k (1-based), payload biased to be non-negative.
        for (class, &(width, bias)) in CLASSES.iter().enumerate() {
            if (-bias..=bias + 1).contains(&delta_of_delta) {
                let prefix_len = class as u32 + 2;
                let prefix = (1u64 << prefix_len) - 2;
                self.write_bits(prefix, prefix_len);
                self.write_bits((delta_of_delta + bias) as u64, width);
                return Ok(());
            }
        }
        self.write_bits(0b11111, 5);
        self.write_bits(delta_of_delta as u64, 64);
        Ok(())
    }

    /// Appends the low `count` bits of `value` (1 ..= 64), most significant first.
    #[inline]
    fn write_bits(&mut self, value: u64, count: u32) {
        let room = 64 - self.pending_len;
        if count < room {
            self.pending |= value << (room - count);
            self.pending_len += count;
        } else {
            // Fill the word, flush it, keep the low `count - room` bits.
            let rest = count - room;
            self.pending |= value >> rest;
            self.bytes.extend_from_slice(&self.pending.to_be_bytes());
            self.pending = if rest == 0 { 0 } else { value << (64 - rest) };
            self.pending_len = rest;
        }
    }

    /// Returns the column bytes.
    ///
    /// # Errors
    /// None; the signature matches the other encoders.
    pub fn finish(self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.finish_into(&mut out)?;
        Ok(out)
    }

    /// Appends the column bytes to `out`.
    ///
    /// # Errors
    /// None; the signature matches the other encoders.
    pub fn finish_into(self, out: &mut Vec<u8>) -> Result<()> {
        let total_bits = self.bytes.len() * 8 + self.pending_len as usize;
        let tail_bytes = self.pending_len.div_ceil(8) as usize;
        out.reserve(12 + self.bytes.len() + tail_bytes);
        match self.head {
            None => out.push(0),
            Some(head) => {
                out.push(1);
                write_zigzag_i64(out, head);
            }
        }
        let used_in_last = match total_bits % 8 {
            0 if total_bits > 0 => 8,
            bits => bits as u8,
        };
        out.push(used_in_last);
        append_output(out, self.bytes);
        out.extend_from_slice(&self.pending.to_be_bytes()[..tail_bytes]);
        Ok(())
    }
}

/// Encodes a whole column.
///
/// # Errors
/// As [`DeltaOfDeltaEncoder::push`].
///
/// ```
/// assert_eq!(columnar::codec::delta_of_delta::encode::<i64>(&[])?, [0x00, 0x00]);
/// assert_eq!(columnar::codec::delta_of_delta::encode(&[5i64])?, [0x01, 0x0a, 0x00]);
/// # Ok::<(), columnar::Error>(())
/// ```
pub fn encode<T: DeltaOfDeltable>(values: &[T]) -> Result<Vec<u8>> {
    crate::strategy::encode_column::<crate::strategy::DeltaOfDelta, T>(values)
}

/// Decodes a whole column.
///
/// # Errors
/// The errors listed in [`crate::codec`] for DeltaOfDelta, with the offset in `bytes`.
///
/// ```
/// let values: Vec<i64> = columnar::codec::delta_of_delta::decode(&[0x01, 0x02, 0x02, 0xa0, 0x00])?;
/// assert_eq!(values, [1, 2, 3]);
/// let err = columnar::codec::delta_of_delta::decode::<i64>(&[0x01, 0x02]).unwrap_err();
/// assert_eq!((err.kind(), err.offset()), (columnar::ErrorKind::UnexpectedEnd, Some(2)));
/// # Ok::<(), columnar::Error>(())
/// ```
pub fn decode<T: DeltaOfDeltable>(bytes: &[u8]) -> Result<Vec<T>> {
    let mut iter = DeltaOfDeltaIter::new(bytes);
    // Every value after the head takes at least one bit.
    let mut values = Vec::with_capacity(bytes.len().saturating_mul(8).min(1 << 20));
    while let Some(value) = iter.try_next()? {
        values.push(value);
    }
    Ok(values)
}

/// The parsed head and trailer of a column.
#[derive(Debug, Clone)]
struct Bits<'de> {
    data: &'de [u8],
    /// Offset of `data[0]` in the input.
    data_offset: usize,
    total_bits: usize,
    position: usize,
}

impl<'de> Bits<'de> {
    /// Reads the head (option tag, then the first value) and the trailer byte (the bits used
    /// in the last data byte). Returns them with the trailer's offset and a reader at the data.
    fn read_header(bytes: &'de [u8], base: usize) -> Result<(Option<i64>, u8, usize, Reader<'de>)> {
        let mut reader = Reader::with_base(bytes, base);
        let tag_at = reader.offset();
        let head = match reader.read_u8()? {
            0 => None,
            1 => Some(reader.read_zigzag_i64()?),
            _ => return Err(Error::at(ErrorKind::BadTag, tag_at as u64)),
        };
        let trailer_at = reader.offset();
        let used_in_last = reader.read_u8()?;
        Ok((head, used_in_last, trailer_at, reader))
    }

    /// Parses head and trailer, validating the trailer against the data.
    fn parse(bytes: &'de [u8], base: usize) -> Result<(Option<i64>, Bits<'de>)> {
        let (head, used_in_last, trailer_at, reader) = Bits::read_header(bytes, base)?;
        let data = reader.rest();
        let data_offset = reader.offset();
        let bad_header = || Error::at(ErrorKind::BadHeader, trailer_at as u64);
        if used_in_last > 8 || (used_in_last == 0) != data.is_empty() {
            return Err(bad_header());
        }
        if head.is_none() && !data.is_empty() {
            return Err(bad_header());
        }
        let total_bits = match data.len() {
            0 => 0,
            len => (len - 1) * 8 + used_in_last as usize,
        };
        if let Some(&last) = data.last() {
            // The encoder leaves unused low bits of the last byte 0.
            let padding_mask = (0xffu16 >> used_in_last) as u8;
            if last & padding_mask != 0 {
                return Err(Error::at(
                    ErrorKind::BadHeader,
                    (data_offset + data.len() - 1) as u64,
                ));
            }
        }
        Ok((
            head,
            Bits {
                data,
                data_offset,
                total_bits,
                position: 0,
            },
        ))
    }

    /// Parses the head and trailer of a column that may be followed by other data (for
    /// [`super::DeltaOfDeltaDecoder`]): the trailer is checked when the column ends, against
    /// the bits actually read. Returns the head, the bits and the trailer byte.
    fn parse_prefix(bytes: &'de [u8], base: usize) -> Result<(Option<i64>, Bits<'de>, u8)> {
        let (head, used_in_last, trailer_at, reader) = Bits::read_header(bytes, base)?;
        if used_in_last > 8 {
            return Err(Error::at(ErrorKind::BadHeader, trailer_at as u64));
        }
        let data = reader.rest();
        // As serde_columnar reads it: the last byte of everything that follows holds
        // `used_in_last` bits; a caller taking `n` values stops well before.
        let total_bits = match (head, data.len()) {
            (None, _) | (_, 0) => 0,
            (Some(_), len) => (len - 1) * 8 + used_in_last as usize,
        };
        let bits = Bits {
            data,
            data_offset: reader.offset(),
            total_bits,
            position: 0,
        };
        Ok((head, bits, used_in_last))
    }

    #[inline]
    fn remaining(&self) -> usize {
        self.total_bits - self.position
    }

    /// The next 121 or more bits, left-aligned; bits past the end read as 0.
    #[inline]
    fn window(&self) -> u128 {
        let rest = self.data.get(self.position / 8..).unwrap_or_default();
        let window = match rest.first_chunk::<16>() {
            Some(chunk) => *chunk,
            // Near the end: zero-fill.
            None => {
                let mut window = [0u8; 16];
                window[..rest.len()].copy_from_slice(rest);
                window
            }
        };
        u128::from_be_bytes(window) << (self.position % 8)
    }
}

/// Streams the values of a DeltaOfDelta column; after the first error it yields `None`.
///
/// A malformed head is reported by the first call to `next`.
///
/// ```
/// use columnar::codec::DeltaOfDeltaIter;
/// let values: Vec<u32> = DeltaOfDeltaIter::new(&[0x01, 0x02, 0x02, 0xa0, 0x00]).collect::<Result<_, _>>()?;
/// assert_eq!(values, [1, 2, 3]);
/// # Ok::<(), columnar::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct DeltaOfDeltaIter<'de, T> {
    state: IterState<'de>,
    /// Offset of the column's first byte in the input.
    start: usize,
    previous: i64,
    previous_delta: i64,
    /// Codes `0` (delta of delta 0) known to follow, found by one look at the bits.
    zeros: usize,
    _values: PhantomData<fn() -> T>,
}

#[derive(Debug, Clone)]
enum IterState<'de> {
    /// The head is not parsed yet.
    Start {
        bytes: &'de [u8],
        base: usize,
    },
    /// The head is parsed (by [`DeltaOfDeltaIter::prefix`]) and not returned yet.
    Head(i64, Bits<'de>),
    Bits(Bits<'de>),
    Done,
}

impl<'de, T: DeltaOfDeltable> DeltaOfDeltaIter<'de, T> {
    iter_methods!('de);

    /// An iterator over column bytes that sit at `base` of a larger input.
    pub fn with_base(bytes: &'de [u8], base: usize) -> Self {
        DeltaOfDeltaIter {
            state: IterState::Start { bytes, base },
            start: base,
            previous: 0,
            previous_delta: 0,
            zeros: 0,
            _values: PhantomData,
        }
    }

    #[inline]
    fn try_next(&mut self) -> Result<Option<T>> {
        let (value, value_at) = match &mut self.state {
            IterState::Done => return Ok(None),
            IterState::Start { bytes, base } => {
                let (head, bits) = Bits::parse(bytes, *base)?;
                match head {
                    None => {
                        self.state = IterState::Done;
                        return Ok(None);
                    }
                    Some(head) => {
                        let head_at = *base + 1;
                        self.state = IterState::Bits(bits);
                        self.previous = head;
                        (head, head_at)
                    }
                }
            }
            IterState::Head(head, bits) => {
                let head = *head;
                let bits = bits.clone();
                self.state = IterState::Bits(bits);
                self.previous = head;
                (head, self.start + 1)
            }
            IterState::Bits(bits) if self.zeros > 0 => {
                // A run of `0` codes: the delta repeats, no bits to look at.
                self.zeros -= 1;
                let code_at = bits.data_offset + bits.position / 8;
                bits.position += 1;
                self.previous = self
                    .previous
                    .checked_add(self.previous_delta)
                    .ok_or_else(|| Error::at(ErrorKind::IntegerOverflow, code_at as u64))?;
                (self.previous, code_at)
            }
            IterState::Bits(bits) => {
                if bits.remaining() == 0 {
                    self.state = IterState::Done;
                    return Ok(None);
                }
                let code_at = bits.data_offset + bits.position / 8;
                let truncated = || Error::at(ErrorKind::UnexpectedEnd, code_at as u64);
                let overflow = || Error::at(ErrorKind::IntegerOverflow, code_at as u64);
                // Prefix `0`, `10`, `110`, `1110`, `11110` or `11111`, then the payload. Bits
                // past the last used one are 0 (padding is checked), so they end a prefix.
                let window = bits.window();
                let ones = window.leading_ones().min(5);
                if ones == 0 {
                    // The window holds at least 121 real bits; padding and bits past the
                    // data read as 0, so the run is also bounded by the bits left.
                    let run = (window.leading_zeros() as usize)
                        .min(121)
                        .min(bits.remaining());
                    self.zeros = run - 1;
                }
                let prefix_len = if ones < 5 { ones + 1 } else { 5 };
                let (width, bias) = match ones {
                    0 => (0, 0),
                    1..=4 => CLASSES[ones as usize - 1],
                    _ => (64, 0),
                };
                if bits.remaining() < (prefix_len + width) as usize {
                    return Err(truncated());
                }
                bits.position += (prefix_len + width) as usize;
                let delta_of_delta = match width {
                    0 => 0,
                    // Two's complement, all 64 bits.
                    64 => ((window << prefix_len) >> 64) as u64 as i64,
                    // At most 21 bits: no overflow.
                    _ => ((window << prefix_len) >> (128 - width)) as i64 - bias,
                };
                self.previous_delta = self
                    .previous_delta
                    .checked_add(delta_of_delta)
                    .ok_or_else(overflow)?;
                self.previous = self
                    .previous
                    .checked_add(self.previous_delta)
                    .ok_or_else(overflow)?;
                (self.previous, code_at)
            }
        };
        T::from_i64(value)
            .map(Some)
            .ok_or_else(|| Error::at(ErrorKind::IntegerOverflow, value_at as u64))
    }
}

/// Where a DeltaOfDelta column that may be followed by other data ends (for
/// [`super::DeltaOfDeltaDecoder`]).
#[derive(Debug, Clone)]
pub(crate) struct PrefixEnd<'de> {
    data: &'de [u8],
    data_offset: usize,
    trailer_at: usize,
    used_in_last: u8,
    total_bits: usize,
}

impl PrefixEnd<'_> {
    /// The number of bytes after the trailer byte.
    pub(crate) fn data_len(&self) -> usize {
        self.data.len()
    }

    /// The input offset of byte `at` after the trailer byte.
    pub(crate) fn offset_of(&self, at: usize) -> usize {
        self.data_offset + at
    }
}

impl<'de, T: DeltaOfDeltable> DeltaOfDeltaIter<'de, T> {
    /// An iterator over a column at the front of `bytes`, with its head parsed.
    pub(crate) fn prefix(bytes: &'de [u8]) -> Result<(Self, PrefixEnd<'de>)> {
        let (head, bits, used_in_last) = Bits::parse_prefix(bytes, 0)?;
        let end = PrefixEnd {
            data: bits.data,
            data_offset: bits.data_offset,
            trailer_at: bits.data_offset - 1,
            used_in_last,
            total_bits: bits.total_bits,
        };
        let mut iter = DeltaOfDeltaIter::new(bytes);
        match head {
            None => iter.state = IterState::Done,
            Some(head) => iter.state = IterState::Head(head, bits),
        }
        Ok((iter, end))
    }

    /// The next value, `None` at the end (for [`super::DeltaOfDeltaDecoder`]).
    pub(crate) fn next_value(&mut self) -> Result<Option<T>> {
        self.next().transpose()
    }

    /// The bytes after the column once the values read so far are all of it: the trailer
    /// byte must count the bits read in the last byte and the bits after them must be 0.
    ///
    /// # Errors
    /// [`ErrorKind::ColumnLengthMismatch`] when the trailer says the column goes on,
    /// [`ErrorKind::BadHeader`] for non-zero padding.
    pub(crate) fn prefix_rest(&self, end: &PrefixEnd<'de>) -> Result<&'de [u8]> {
        let read = match &self.state {
            IterState::Bits(bits) => bits.position,
            IterState::Done => end.total_bits,
            IterState::Start { .. } | IterState::Head(..) => 0,
        };
        let expected = match read % 8 {
            0 if read > 0 => 8,
            bits => bits as u8,
        };
        if end.used_in_last != expected {
            return Err(Error::with_message(
                ErrorKind::ColumnLengthMismatch,
                "the DeltaOfDelta column holds more values than were taken",
            )
            .or_offset(end.trailer_at as u64));
        }
        let used_bytes = read.div_ceil(8);
        if read % 8 != 0 {
            let last = end.data[used_bytes - 1];
            if last & (0xffu16 >> (read % 8)) as u8 != 0 {
                return Err(Error::at(
                    ErrorKind::BadHeader,
                    (end.data_offset + used_bytes - 1) as u64,
                ));
            }
        }
        Ok(&end.data[used_bytes..])
    }
}

impl<T: DeltaOfDeltable> Iterator for DeltaOfDeltaIter<'_, T> {
    type Item = Result<T>;

    #[inline(always)]
    fn next(&mut self) -> Option<Result<T>> {
        // Inside a run of `0` codes: one addition and one bit; anything unusual (overflow,
        // a value outside `T`) takes the slow path, which reports it.
        if self.zeros > 0 {
            if let IterState::Bits(bits) = &mut self.state {
                if let Some(value) = self.previous.checked_add(self.previous_delta) {
                    if let Some(out) = T::from_i64(value) {
                        self.zeros -= 1;
                        bits.position += 1;
                        self.previous = value;
                        return Some(Ok(out));
                    }
                }
            }
        }
        self.next_slow()
    }
}

impl<T: DeltaOfDeltable> DeltaOfDeltaIter<'_, T> {
    /// Everything but the middle of a run of `0` codes.
    #[inline(never)]
    fn next_slow(&mut self) -> Option<Result<T>> {
        let item = self.try_next().transpose();
        if matches!(item, Some(Err(_))) {
            self.state = IterState::Done;
        }
        item
    }
}

impl<T: DeltaOfDeltable> std::iter::FusedIterator for DeltaOfDeltaIter<'_, T> {}

column_type! {
    /// A column stored with the DeltaOfDelta codec; serializes as a byte string of [`encode`]'s
    /// output.
    DeltaOfDeltaColumn, "a DeltaOfDelta column",
    encode where [T: DeltaOfDeltable],
    decode where [T: DeltaOfDeltable],
}

#[cfg(test)]
mod tests;
