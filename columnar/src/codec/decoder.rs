//! `serde_columnar`'s hand-driven decoders: [`AnyRleDecoder`], [`DeltaRleDecoder`],
//! [`BoolRleDecoder`] and [`DeltaOfDeltaDecoder`], thin wrappers over the streaming iterators
//! that can also stop after `n` values and hand back the bytes after them.
//!
//! Several columns written back to back without lengths (as Loro's change blocks are) are
//! read by decoding `n` values of the first with [`take_n_finalize`](AnyRleDecoder::take_n_finalize),
//! then starting the next decoder on the rest:
//!
//! ```
//! use columnar::{AnyRleDecoder, AnyRleEncoder, BoolRleDecoder, BoolRleEncoder};
//!
//! let mut flags = BoolRleEncoder::new();
//! let mut lens = AnyRleEncoder::<u32>::new();
//! for i in 0..3u32 {
//!     flags.append(i == 1)?;
//!     lens.append(i * 10)?;
//! }
//! let mut bytes = flags.finish()?;
//! bytes.extend(lens.finish()?);
//! bytes.extend(b"tail");
//!
//! let (flags, rest) = BoolRleDecoder::new(&bytes).take_n_finalize(3)?;
//! let (lens, rest) = AnyRleDecoder::<u32>::new(rest).take_n_finalize(3)?;
//! assert_eq!((flags, lens, rest), (vec![false, true, false], vec![0, 10, 20], &b"tail"[..]));
//! # Ok::<(), columnar::Error>(())
//! ```
//!
//! Differences from `serde_columnar` 0.3.14, all on malformed input or misuse: a decoder
//! stops at the end of its input or at an error (`serde_columnar` reads a malformed run count
//! as the end); `finalize` and `take_n_finalize` refuse to stop in the middle of a run
//! (`serde_columnar` drops the rest of the run) with [`ErrorKind::ColumnLengthMismatch`];
//! taking more values than the column holds is `RleDecodeError` with
//! [`ErrorKind::UnexpectedEnd`]; a DeltaOfDelta column is checked when it ends (its trailer
//! byte must count the bits read, its padding must be 0).

use serde::Deserialize;

use super::delta_of_delta::PrefixEnd;
use super::{
    AnyRleIter, BoolRleIter, DeltaOfDeltaIter, DeltaOfDeltable, DeltaRleIter, DeltaRleable,
};
use crate::{Error, ErrorKind, Result};

#[cold]
fn fewer_than(n: usize, offset: usize) -> Error {
    Error::with_message(
        ErrorKind::UnexpectedEnd,
        format_args!("the column holds fewer than {n} values"),
    )
    .or_offset(offset as u64)
    .into_variant(Error::RleDecodeError)
}

#[cold]
fn mid_run(offset: usize) -> Error {
    Error::with_message(
        ErrorKind::ColumnLengthMismatch,
        "stopped inside a run: the column holds more values than were taken",
    )
    .or_offset(offset as u64)
}

/// The bytes after a run-length column, refusing to stop inside a run.
fn rest_after<'de>(input: &'de [u8], (rest, in_run): (&'de [u8], bool)) -> Result<&'de [u8]> {
    if in_run {
        return Err(mid_run(input.len() - rest.len()));
    }
    Ok(rest)
}

/// Pushes `value`, growing with `try_reserve` so that a hostile run too large to hold is
/// [`ErrorKind::RunCountTooLarge`] instead of an allocation failure that aborts.
#[inline]
fn push_or_refuse<T>(values: &mut Vec<T>, value: T, offset: usize) -> Result<()> {
    if values.len() == values.capacity() {
        values
            .try_reserve(values.len().max(64))
            .map_err(|_| Error::at(ErrorKind::RunCountTooLarge, offset as u64))?;
    }
    values.push(value);
    Ok(())
}

macro_rules! decoder_methods {
    ($value:ty) => {
        /// Decodes every remaining value.
        ///
        /// # Errors
        /// The codec's errors listed in [`crate::codec`], with their offset in the input.
        pub fn decode(&mut self) -> Result<Vec<$value>> {
            let mut values = Vec::new();
            while let Some(value) = self.try_next()? {
                push_or_refuse(
                    &mut values,
                    value,
                    self.input.len() - self.iter.rest().0.len(),
                )?;
            }
            Ok(values)
        }

        /// Decodes `n` values and returns them with the bytes after the column.
        ///
        /// # Errors
        /// The codec's errors; `RleDecodeError` ([`ErrorKind::UnexpectedEnd`]) when the
        /// column holds fewer than `n` values; as [`finalize`](Self::finalize) after them.
        pub fn take_n_finalize(mut self, n: usize) -> Result<(Vec<$value>, &'de [u8])> {
            // `n` may come from the input: grow as values arrive.
            let mut values = Vec::with_capacity(n.min(1 << 16));
            for _ in 0..n {
                match self.iter.next_value()? {
                    Some(value) => {
                        let at = self.input.len() - self.iter.rest().0.len();
                        push_or_refuse(&mut values, value, at)?
                    }
                    None => {
                        let at = self.input.len() - self.iter.rest().0.len();
                        return Err(fewer_than(n, at));
                    }
                }
            }
            Ok((values, self.finalize()?))
        }

        /// The bytes after the values decoded so far.
        ///
        /// # Errors
        /// [`ErrorKind::ColumnLengthMismatch`] when a run is only partly decoded.
        pub fn finalize(self) -> Result<&'de [u8]> {
            rest_after(self.input, self.iter.rest())
        }

        /// The next value, `None` at the end of the input.
        ///
        /// # Errors
        /// The codec's errors; after one, the decoder yields `None`.
        pub fn try_next(&mut self) -> Result<Option<$value>> {
            self.iter.next_value()
        }
    };
}

/// Decodes an Rle column by hand (`serde_columnar`'s `AnyRleDecoder`).
///
/// ```
/// use columnar::AnyRleDecoder;
/// let mut decoder = AnyRleDecoder::<u32>::new(&[0x06, 0x05]);
/// assert_eq!(decoder.decode()?, [5, 5, 5]);
/// # Ok::<(), columnar::Error>(())
/// ```
#[derive(Debug)]
pub struct AnyRleDecoder<'de, T> {
    input: &'de [u8],
    iter: AnyRleIter<'de, T>,
}

impl<'de, T: Clone + Deserialize<'de>> AnyRleDecoder<'de, T> {
    /// A decoder over `bytes`, which may go on after the column.
    pub fn new(bytes: &'de [u8]) -> Self {
        AnyRleDecoder {
            input: bytes,
            iter: AnyRleIter::new(bytes),
        }
    }

    decoder_methods!(T);
}

impl<'de, T: Clone + Deserialize<'de>> Iterator for AnyRleDecoder<'de, T> {
    type Item = Result<T>;
    fn next(&mut self) -> Option<Result<T>> {
        self.iter.next()
    }
}

/// Decodes a DeltaRle column by hand (`serde_columnar`'s `DeltaRleDecoder`).
///
/// ```
/// use columnar::DeltaRleDecoder;
/// let (ids, rest) = DeltaRleDecoder::<u64>::new(&[0x01, 0x14, 0x06, 0x02, 0xff]).take_n_finalize(4)?;
/// assert_eq!((ids, rest), (vec![10, 11, 12, 13], &[0xff][..]));
/// # Ok::<(), columnar::Error>(())
/// ```
#[derive(Debug)]
pub struct DeltaRleDecoder<'de, T> {
    input: &'de [u8],
    iter: DeltaRleIter<'de, T>,
}

impl<'de, T: DeltaRleable> DeltaRleDecoder<'de, T> {
    /// A decoder over `bytes`, which may go on after the column.
    pub fn new(bytes: &'de [u8]) -> Self {
        DeltaRleDecoder {
            input: bytes,
            iter: DeltaRleIter::new(bytes),
        }
    }

    decoder_methods!(T);
}

impl<T: DeltaRleable> Iterator for DeltaRleDecoder<'_, T> {
    type Item = Result<T>;
    fn next(&mut self) -> Option<Result<T>> {
        self.iter.next()
    }
}

/// Decodes a BoolRle column by hand (`serde_columnar`'s `BoolRleDecoder`).
///
/// ```
/// use columnar::BoolRleDecoder;
/// assert_eq!(BoolRleDecoder::new(&[0x00, 0x02, 0x01]).decode()?, [true, true, false]);
/// # Ok::<(), columnar::Error>(())
/// ```
#[derive(Debug)]
pub struct BoolRleDecoder<'de> {
    input: &'de [u8],
    iter: BoolRleIter<'de>,
}

impl<'de> BoolRleDecoder<'de> {
    /// A decoder over `bytes`, which may go on after the column.
    pub fn new(bytes: &'de [u8]) -> Self {
        BoolRleDecoder {
            input: bytes,
            iter: BoolRleIter::new(bytes),
        }
    }

    decoder_methods!(bool);
}

impl Iterator for BoolRleDecoder<'_> {
    type Item = Result<bool>;
    fn next(&mut self) -> Option<Result<bool>> {
        self.iter.next()
    }
}

/// Decodes a DeltaOfDelta column by hand (`serde_columnar`'s `DeltaOfDeltaDecoder`).
///
/// The column may be followed by other data: its bits are read as they are needed, and its
/// trailer byte is checked when it ends ([`finalize`](Self::finalize)), against the bits read.
///
/// ```
/// use columnar::DeltaOfDeltaDecoder;
/// let bytes = [0x01, 0x02, 0x02, 0xa0, 0x00, 0xff];
/// let (values, rest) = DeltaOfDeltaDecoder::<i64>::new(&bytes)?.take_n_finalize(3)?;
/// assert_eq!((values, rest), (vec![1, 2, 3], &[0xff][..]));
/// # Ok::<(), columnar::Error>(())
/// ```
#[derive(Debug)]
pub struct DeltaOfDeltaDecoder<'de, T> {
    iter: DeltaOfDeltaIter<'de, T>,
    end: PrefixEnd<'de>,
}

impl<'de, T: DeltaOfDeltable> DeltaOfDeltaDecoder<'de, T> {
    /// A decoder over `bytes`, which may go on after the column.
    ///
    /// # Errors
    /// A missing or malformed head or trailer byte.
    pub fn new(bytes: &'de [u8]) -> Result<Self> {
        let (iter, end) = DeltaOfDeltaIter::prefix(bytes)?;
        Ok(DeltaOfDeltaDecoder { iter, end })
    }

    /// Decodes every remaining value of a column that is the whole input.
    ///
    /// # Errors
    /// The codec's errors listed in [`crate::codec`]; as [`finalize`](Self::finalize) when
    /// bytes are left after the last value.
    pub fn decode(&mut self) -> Result<Vec<T>> {
        let mut values = Vec::new();
        while let Some(value) = self.try_next()? {
            push_or_refuse(&mut values, value, self.end.offset_of(0))?;
        }
        let rest = self.iter.prefix_rest(&self.end)?;
        if !rest.is_empty() {
            let at = self.end.data_len() - rest.len();
            return Err(Error::at(
                ErrorKind::TrailingBytes,
                self.end.offset_of(at) as u64,
            ));
        }
        Ok(values)
    }

    /// The next value, `None` at the end of the column.
    ///
    /// # Errors
    /// The codec's errors; after one, the decoder yields `None`.
    pub fn try_next(&mut self) -> Result<Option<T>> {
        self.iter.next_value()
    }

    /// Decodes `n` values and returns them with the bytes after the column.
    ///
    /// # Errors
    /// The codec's errors; `RleDecodeError` ([`ErrorKind::UnexpectedEnd`]) when the column
    /// holds fewer than `n` values; as [`finalize`](Self::finalize) after them.
    pub fn take_n_finalize(mut self, n: usize) -> Result<(Vec<T>, &'de [u8])> {
        let mut values = Vec::with_capacity(n.min(1 << 16));
        for _ in 0..n {
            match self.iter.next_value()? {
                Some(value) => push_or_refuse(&mut values, value, self.end.offset_of(0))?,
                None => return Err(fewer_than(n, self.end.offset_of(0))),
            }
        }
        Ok((values, self.finalize()?))
    }

    /// The bytes after the column, which must end with the values decoded so far.
    ///
    /// # Errors
    /// [`ErrorKind::ColumnLengthMismatch`] when the trailer byte says the column goes on,
    /// [`ErrorKind::BadHeader`] for non-zero padding bits.
    pub fn finalize(self) -> Result<&'de [u8]> {
        self.iter.prefix_rest(&self.end)
    }
}

impl<T: DeltaOfDeltable> Iterator for DeltaOfDeltaDecoder<'_, T> {
    type Item = Result<T>;
    fn next(&mut self) -> Option<Result<T>> {
        self.iter.next()
    }
}
