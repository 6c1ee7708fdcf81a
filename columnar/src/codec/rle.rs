//! Rle: run-length encoding for any `Clone + PartialEq + Serialize` value (wire format in
//! [`crate::codec`]).

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::run_eq::run_eq;
use super::{append_output, check_run_expansion, read_run_header, reserve_run, RunHeader};
use crate::wire::{self, write_zigzag_i64, Deserializer};
use crate::Result;

/// Element types of an Rle column: what `serde_columnar` calls `Rleable`.
///
/// Implemented for every `Clone + PartialEq + Serialize + DeserializeOwned` type. The decoders
/// need less (`Clone + Deserialize<'de>`), so [`AnyRleIter`] and [`decode`] also read
/// borrowed values such as `&str`.
pub trait Rleable: Clone + PartialEq + Serialize + DeserializeOwned {}

impl<T: Clone + PartialEq + Serialize + DeserializeOwned> Rleable for T {}

#[derive(Debug)]
enum State<T> {
    Empty,
    Lone(T),
    Run(T, usize),
    /// The newest value; the literal's earlier values are already serialized.
    Literal(T),
}

/// Streams values into an Rle column.
///
/// ```
/// use columnar::codec::AnyRleEncoder;
/// let mut encoder = AnyRleEncoder::new();
/// for value in ["a", "b", "b"] {
///     encoder.push(&value.to_string())?;
/// }
/// // literal of one "a", run of two "b"
/// assert_eq!(encoder.finish()?, [0x01, 0x01, b'a', 0x04, 0x01, b'b']);
/// # Ok::<(), columnar::Error>(())
/// ```
#[derive(Debug)]
pub struct AnyRleEncoder<T> {
    out: Vec<u8>,
    state: State<T>,
    /// Serialized values of the pending literal, except its newest.
    literal: Vec<u8>,
    literal_len: usize,
}

impl<T> Default for AnyRleEncoder<T> {
    fn default() -> Self {
        AnyRleEncoder {
            out: Vec::new(),
            state: State::Empty,
            literal: Vec::new(),
            literal_len: 0,
        }
    }
}

impl<T: Clone + PartialEq + Serialize> AnyRleEncoder<T> {
    /// An empty encoder.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty encoder whose output buffer has room for `bytes` bytes.
    pub fn with_capacity(bytes: usize) -> Self {
        AnyRleEncoder {
            out: Vec::with_capacity(bytes),
            ..Self::default()
        }
    }

    /// Adds one value.
    ///
    /// # Errors
    /// An error of the value's `Serialize` implementation. The encoder must not be used after
    /// an error.
    #[inline(always)]
    pub fn push(&mut self, value: &T) -> Result<()> {
        // Most values of a repetitive column extend the pending run: counted in place, without
        // moving the state out and back.
        if let State::Run(run, len) = &mut self.state {
            if run_eq(run, value) {
                *len += 1;
                return Ok(());
            }
        }
        self.push_changed(value)
    }

    /// [`AnyRleEncoder::push`] of a value that does not extend a run. The state is matched
    /// in place: moving it out and back cost a third of this function's instructions.
    #[inline]
    fn push_changed(&mut self, value: &T) -> Result<()> {
        let next = match &mut self.state {
            State::Empty => State::Lone(value.clone()),
            State::Lone(lone) => {
                if run_eq(lone, value) {
                    // serde_columnar keeps the newer of the first two equal values.
                    State::Run(value.clone(), 2)
                } else {
                    wire::append(lone, &mut self.literal)?;
                    self.literal_len = 1;
                    State::Literal(value.clone())
                }
            }
            State::Run(run, len) => {
                if run_eq(run, value) {
                    *len += 1;
                    return Ok(());
                }
                write_run(&mut self.out, run, *len)?;
                State::Lone(value.clone())
            }
            State::Literal(last) => {
                if run_eq(last, value) {
                    write_literal(&mut self.out, &mut self.literal, &mut self.literal_len);
                    State::Run(value.clone(), 2)
                } else {
                    wire::append(last, &mut self.literal)?;
                    self.literal_len += 1;
                    State::Literal(value.clone())
                }
            }
        };
        self.state = next;
        Ok(())
    }

    /// Adds one value, owned or borrowed: `serde_columnar`'s name for [`AnyRleEncoder::push`].
    ///
    /// # Errors
    /// As [`AnyRleEncoder::push`].
    pub fn append<B: std::borrow::Borrow<T>>(&mut self, value: B) -> Result<()> {
        self.push(value.borrow())
    }

    /// Flushes the pending run and returns the column bytes.
    ///
    /// # Errors
    /// An error of the values' `Serialize` implementation.
    pub fn finish(mut self) -> Result<Vec<u8>> {
        match std::mem::replace(&mut self.state, State::Empty) {
            State::Empty => {}
            State::Lone(lone) => {
                write_zigzag_i64(&mut self.out, -1);
                wire::append(&lone, &mut self.out)?;
            }
            State::Run(run, len) => write_run(&mut self.out, &run, len)?,
            State::Literal(last) => {
                wire::append(&last, &mut self.literal)?;
                self.literal_len += 1;
                write_literal(&mut self.out, &mut self.literal, &mut self.literal_len);
            }
        }
        Ok(self.out)
    }

    /// Flushes the pending run and appends the column bytes to `out`.
    ///
    /// # Errors
    /// As [`AnyRleEncoder::finish`].
    pub fn finish_into(self, out: &mut Vec<u8>) -> Result<()> {
        append_output(out, self.finish()?);
        Ok(())
    }
}

/// Writes a run of `len` copies of `value` to `out`.
fn write_run<T: Serialize>(out: &mut Vec<u8>, value: &T, len: usize) -> Result<()> {
    write_zigzag_i64(out, len as i64);
    wire::append(value, out)
}

/// Moves the pending literal (`literal_len` serialized values in `literal`) to `out`.
fn write_literal(out: &mut Vec<u8>, literal: &mut Vec<u8>, literal_len: &mut usize) {
    write_zigzag_i64(out, -(*literal_len as i64));
    out.extend_from_slice(literal);
    literal.clear();
    *literal_len = 0;
}

/// Encodes a whole column.
///
/// # Errors
/// An error of the values' `Serialize` implementation.
///
/// ```
/// assert_eq!(columnar::codec::rle::encode(&[7u32, 8, 8, 7])?, [0x01, 0x07, 0x04, 0x08, 0x01, 0x07]);
/// # Ok::<(), columnar::Error>(())
/// ```
pub fn encode<T: Clone + PartialEq + Serialize>(values: &[T]) -> Result<Vec<u8>> {
    let mut encoder = AnyRleEncoder::new();
    for value in values {
        encoder.push(value)?;
    }
    encoder.finish()
}

/// Decodes a whole column.
///
/// # Errors
/// The errors listed in [`crate::codec`] for Rle, with the offset in `bytes`, and errors of the
/// values' `Deserialize` implementation.
///
/// ```
/// let values: Vec<u32> = columnar::codec::rle::decode(&[0x01, 0x07, 0x04, 0x08, 0x01, 0x07])?;
/// assert_eq!(values, [7, 8, 8, 7]);
/// let err = columnar::codec::rle::decode::<u32>(&[0x00]).unwrap_err();
/// assert_eq!((err.kind(), err.offset()), (columnar::ErrorKind::ZeroRunCount, Some(0)));
/// # Ok::<(), columnar::Error>(())
/// ```
pub fn decode<'de, T: Clone + Deserialize<'de>>(bytes: &'de [u8]) -> Result<Vec<T>> {
    let mut de = Deserializer::from_bytes(bytes);
    let mut values = Vec::new();
    loop {
        let start = de.offset();
        match read_run_header(de.reader(), false)? {
            None => return Ok(values),
            Some(RunHeader::Repeat(len)) => {
                let value_start = de.offset();
                let value = T::deserialize(&mut de)?;
                check_run_expansion::<T>(len, de.offset() - value_start, start)?;
                reserve_run(&mut values, len, start)?;
                values.extend(std::iter::repeat_n(value, len));
            }
            Some(RunHeader::Literal(len)) => {
                values.reserve(len.min(de.remaining().len()));
                for _ in 0..len {
                    values.push(T::deserialize(&mut de)?);
                }
            }
        }
    }
}

/// Streams the values of an Rle column; after the first error it yields `None`.
///
/// ```
/// use columnar::codec::AnyRleIter;
/// let values: Vec<u32> = AnyRleIter::new(&[0x06, 0x05]).collect::<Result<_, _>>()?;
/// assert_eq!(values, [5, 5, 5]);
/// # Ok::<(), columnar::Error>(())
/// ```
#[derive(Debug)]
pub struct AnyRleIter<'de, T> {
    de: Deserializer<'de>,
    /// Offset of the column's first byte in the input.
    start: usize,
    pending: Pending<T>,
    failed: bool,
}

#[derive(Debug)]
enum Pending<T> {
    Nothing,
    Repeat(T, usize),
    Literal(usize),
}

impl<'de, T: Clone + Deserialize<'de>> AnyRleIter<'de, T> {
    iter_methods!('de, with_depth_limit);

    /// An iterator over column bytes that sit at `base` of a larger input; errors report
    /// offsets in that input.
    pub fn with_base(bytes: &'de [u8], base: usize) -> Self {
        AnyRleIter {
            de: Deserializer::with_base(bytes, base),
            start: base,
            pending: Pending::Nothing,
            failed: false,
        }
    }

    fn try_next(&mut self) -> Result<Option<T>> {
        loop {
            match &mut self.pending {
                Pending::Repeat(value, left) => {
                    if *left > 1 {
                        *left -= 1;
                        return Ok(Some(value.clone()));
                    }
                    if let Pending::Repeat(value, _) =
                        std::mem::replace(&mut self.pending, Pending::Nothing)
                    {
                        return Ok(Some(value));
                    }
                }
                Pending::Literal(left) => {
                    *left -= 1;
                    if *left == 0 {
                        self.pending = Pending::Nothing;
                    }
                    return T::deserialize(&mut self.de).map(Some);
                }
                Pending::Nothing => {
                    let start = self.de.offset();
                    match read_run_header(self.de.reader(), false)? {
                        None => return Ok(None),
                        Some(RunHeader::Repeat(len)) => {
                            let value_start = self.de.offset();
                            let value = T::deserialize(&mut self.de)?;
                            let value_bytes = self.de.offset() - value_start;
                            check_run_expansion::<T>(len, value_bytes, start)?;
                            if len == 1 {
                                return Ok(Some(value));
                            }
                            // The run's first value now, its others from `next`'s fast path.
                            let first = value.clone();
                            self.pending = Pending::Repeat(value, len - 1);
                            return Ok(Some(first));
                        }
                        Some(RunHeader::Literal(len)) => self.pending = Pending::Literal(len),
                    }
                }
            }
        }
    }
}

impl<'de, T: Clone + Deserialize<'de>> AnyRleIter<'de, T> {
    /// The next value, `None` at the end of the input (for [`super::AnyRleDecoder`]).
    pub(crate) fn next_value(&mut self) -> Result<Option<T>> {
        self.next().transpose()
    }

    /// The bytes not read yet, and whether a run is partly taken.
    pub(crate) fn rest(&self) -> (&'de [u8], bool) {
        (
            self.de.remaining(),
            !matches!(self.pending, Pending::Nothing),
        )
    }

    /// Everything but the middle of a repeated run.
    #[inline(never)]
    fn next_slow(&mut self) -> Option<Result<T>> {
        if self.failed {
            return None;
        }
        let item = self.try_next().transpose();
        if matches!(item, Some(Err(_))) {
            self.failed = true;
            self.pending = Pending::Nothing;
        }
        item
    }
}

impl<'de, T: Clone + Deserialize<'de>> Iterator for AnyRleIter<'de, T> {
    type Item = Result<T>;

    #[inline(always)]
    fn next(&mut self) -> Option<Result<T>> {
        // Most values of a repeated column are copies of the pending run's value, and the
        // last one is the value itself: only a run's start takes the slow path.
        if let Pending::Repeat(value, left) = &mut self.pending {
            if *left > 1 {
                *left -= 1;
                return Some(Ok(value.clone()));
            }
            if let Pending::Repeat(value, _) =
                std::mem::replace(&mut self.pending, Pending::Nothing)
            {
                return Some(Ok(value));
            }
        }
        self.next_slow()
    }
}

impl<'de, T: Clone + Deserialize<'de>> std::iter::FusedIterator for AnyRleIter<'de, T> {}

column_type! {
    /// A column stored with the Rle codec; serializes as a byte string of [`encode`]'s output.
    RleColumn, "an Rle column",
    encode where [T: Clone + PartialEq + Serialize],
    decode<'de> where [T: Clone + Deserialize<'de>],
}

#[cfg(test)]
mod tests;
