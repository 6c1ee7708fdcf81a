//! Rle: run-length encoding for any `Clone + PartialEq + Serialize` value (wire format in
//! [`crate::codec`]).

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::{
    append_output, check_run_expansion, read_run_header, reserve_run, serde_glue, RunHeader,
};
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
    #[inline]
    pub fn push(&mut self, value: &T) -> Result<()> {
        self.state = match std::mem::replace(&mut self.state, State::Empty) {
            State::Empty => State::Lone(value.clone()),
            State::Lone(lone) => {
                if lone == *value {
                    // serde_columnar keeps the newer of the first two equal values.
                    State::Run(value.clone(), 2)
                } else {
                    wire::append(&lone, &mut self.literal)?;
                    self.literal_len = 1;
                    State::Literal(value.clone())
                }
            }
            State::Run(run, len) => {
                if run == *value {
                    State::Run(run, len + 1)
                } else {
                    self.write_run(&run, len)?;
                    State::Lone(value.clone())
                }
            }
            State::Literal(last) => {
                if last == *value {
                    self.write_literal();
                    State::Run(value.clone(), 2)
                } else {
                    wire::append(&last, &mut self.literal)?;
                    self.literal_len += 1;
                    State::Literal(value.clone())
                }
            }
        };
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
            State::Run(run, len) => self.write_run(&run, len)?,
            State::Literal(last) => {
                wire::append(&last, &mut self.literal)?;
                self.literal_len += 1;
                self.write_literal();
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

    fn write_run(&mut self, value: &T, len: usize) -> Result<()> {
        write_zigzag_i64(&mut self.out, len as i64);
        wire::append(value, &mut self.out)
    }

    fn write_literal(&mut self) {
        write_zigzag_i64(&mut self.out, -(self.literal_len as i64));
        self.out.extend_from_slice(&self.literal);
        self.literal.clear();
        self.literal_len = 0;
    }
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
    /// The offset of the column's first byte in the input (the `base` it was created with).
    pub fn column_start(&self) -> usize {
        self.start
    }

    /// An iterator over the column `bytes`.
    pub fn new(bytes: &'de [u8]) -> Self {
        Self::with_base(bytes, 0)
    }

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

    /// Sets how deep each value may nest (default
    /// [`DEFAULT_DEPTH_LIMIT`](crate::wire::DEFAULT_DEPTH_LIMIT)): a column found inside a
    /// container gets the depth its container has left.
    #[must_use]
    pub fn with_depth_limit(mut self, limit: usize) -> Self {
        self.de = self.de.with_depth_limit(limit);
        self
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

    #[inline]
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

/// A column stored with the Rle codec; serializes as a byte string of [`encode`]'s output.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RleColumn<T> {
    /// The values, one per row.
    pub data: Vec<T>,
}

impl<T> RleColumn<T> {
    /// A column holding `data`.
    pub fn new(data: Vec<T>) -> Self {
        RleColumn { data }
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

impl<T: Clone + PartialEq + Serialize> RleColumn<T> {
    /// The codec output for this column.
    ///
    /// # Errors
    /// As [`encode`].
    pub fn encode(&self) -> Result<Vec<u8>> {
        encode(&self.data)
    }
}

impl<'de, T: Clone + Deserialize<'de>> RleColumn<T> {
    /// Decodes a column from codec output.
    ///
    /// # Errors
    /// As [`decode`].
    pub fn decode(bytes: &'de [u8]) -> Result<Self> {
        decode(bytes).map(RleColumn::new)
    }
}

impl<T> From<Vec<T>> for RleColumn<T> {
    fn from(data: Vec<T>) -> Self {
        RleColumn { data }
    }
}

impl<T: Clone + PartialEq + Serialize> Serialize for RleColumn<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serde_glue::serialize_column(self.encode(), serializer)
    }
}

impl<'de, T: Clone + Deserialize<'de>> Deserialize<'de> for RleColumn<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        serde_glue::deserialize_column(deserializer, "an Rle column", RleColumn::decode)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::codec::test_support::{
        assert_prefixes, assert_rejects, hex, runs_of, stream_agrees_with_bulk, via_serde,
        EntryPoint,
    };
    use crate::ErrorKind;

    /// Golden vectors written by hand from `docs/spec/columnar.md` §5.2 (the encoder's state
    /// machine); they are the Rle rows of the worked examples in §6.2.
    fn goldens() -> Vec<(Vec<u32>, Vec<u8>)> {
        vec![
            // Literal [7], run of two 8s, literal [7].
            (vec![7, 8, 8, 7], hex("01 07 04 08 01 07")),
            // Empty column: no bytes.
            (vec![], vec![]),
            // A lone value is a literal of one: count -1 = zigzag 01.
            (vec![5], hex("01 05")),
            // Run of three: count 3 = zigzag 06.
            (vec![5, 5, 5], hex("06 05")),
            // Literal of three: count -3 = zigzag 05.
            (vec![1, 2, 3], hex("05 01 02 03")),
            // Lone(1)+2 → Literal; 2 == last → flush [1], Run(2); 3 → flush run; [3, 4] literal.
            (vec![1, 2, 2, 2, 3, 4], hex("01 01 06 02 03 03 04")),
            // Values are postcard varints: 300 = ac 02; u32::MAX = ff ff ff ff 0f.
            (vec![300, 300], hex("04 ac 02")),
            (vec![u32::MAX], hex("01 ff ff ff ff 0f")),
        ]
    }

    #[test]
    fn encodes_and_decodes_golden_vectors() {
        for (values, bytes) in goldens() {
            assert_eq!(encode(&values).unwrap(), bytes, "{values:?}");
            assert_eq!(decode::<u32>(&bytes).unwrap(), values);
            let streamed: Vec<u32> = AnyRleIter::new(&bytes).collect::<Result<_>>().unwrap();
            assert_eq!(streamed, values);
        }
    }

    #[test]
    fn golden_vectors_match_serde_columnar() {
        for (values, bytes) in goldens() {
            let mut peer = serde_columnar::AnyRleEncoder::<u32>::new();
            for value in &values {
                peer.append(value).unwrap();
            }
            assert_eq!(peer.finish().unwrap(), bytes, "{values:?}");
        }
    }

    #[test]
    fn encodes_strings_and_extremes() {
        // "a" "a": run of two, string = len 01 + 'a'.
        assert_eq!(
            encode(&["a".to_string(), "a".to_string()]).unwrap(),
            hex("04 01 61")
        );
        // i64::MIN zigzags to u64::MAX: nine ff and 01.
        assert_eq!(
            encode(&[i64::MIN]).unwrap(),
            hex("01 ff ff ff ff ff ff ff ff ff 01")
        );
        // Borrowed strings decode without copying.
        let bytes = hex("04 01 61 01 01 62");
        assert_eq!(decode::<&str>(&bytes).unwrap(), ["a", "a", "b"]);
    }

    #[test]
    fn a_run_keeps_the_second_of_two_equal_values() {
        // 0.0 == -0.0: serde_columnar writes the newer value (-0.0, sign bit set) for the run.
        let bytes = encode(&[0.0f64, -0.0]).unwrap();
        assert_eq!(bytes, hex("04 00 00 00 00 00 00 00 80"));
        // NaN never equals itself, so NaNs stay in a literal.
        let bytes = encode(&[f64::NAN, f64::NAN]).unwrap();
        assert_eq!(bytes[0], 0x03);
    }

    #[test]
    fn every_prefix_decodes_to_an_error_or_a_prefix() {
        for (values, bytes) in goldens() {
            assert_prefixes(&bytes, &values, |b| decode::<u32>(b));
            assert_prefixes(&bytes, &values, |b| AnyRleIter::new(b).collect());
        }
    }

    #[test]
    fn rejects_hostile_inputs() {
        let u32_entry_points: [EntryPoint<u32>; 4] = [
            ("decode", &|b| decode::<u32>(b)),
            ("iter", &|b| AnyRleIter::new(b).collect()),
            ("column", &|b| RleColumn::<u32>::decode(b).map(|c| c.data)),
            ("serde", &|b| via_serde(b, |c: RleColumn<u32>| c.data)),
        ];
        let table: &[(&str, ErrorKind, u64)] = &[
            // count 0
            ("00", ErrorKind::ZeroRunCount, 0),
            ("02 07 00", ErrorKind::ZeroRunCount, 2),
            // zigzag 2^35 - 2 = run of 2^34 - 1 > MAX_RLE_COUNT
            ("fe ff ff ff 0f 01", ErrorKind::RunCountTooLarge, 0),
            // zigzag 2^35 - 1 = literal of 2^34
            ("ff ff ff ff 0f 01", ErrorKind::RunCountTooLarge, 0),
            // literal of 5 with 2 bytes left
            ("09 01 02", ErrorKind::LengthPastEnd, 0),
            // literal of 1 with nothing after it
            ("01", ErrorKind::UnexpectedEnd, 1),
            // run without its value
            ("04", ErrorKind::UnexpectedEnd, 1),
            // input ends inside the count
            ("80", ErrorKind::UnexpectedEnd, 1),
            // 11-byte count varint
            ("80 80 80 80 80 80 80 80 80 80 00", ErrorKind::BadVarint, 0),
            // u32 value with bits past 32
            ("02 ff ff ff ff 1f", ErrorKind::BadVarint, 1),
            // u32 value of 6 bytes
            ("02 80 80 80 80 80 00", ErrorKind::BadVarint, 1),
        ];
        for (input, kind, offset) in table {
            assert_rejects(&hex(input), *kind, *offset, &u32_entry_points);
        }

        let string_entry_points: [EntryPoint<String>; 3] = [
            ("decode", &|b| decode::<String>(b)),
            ("iter", &|b| AnyRleIter::new(b).collect()),
            ("serde", &|b| via_serde(b, |c: RleColumn<String>| c.data)),
        ];
        // invalid UTF-8 at the string's first payload byte
        assert_rejects(
            &hex("02 01 ff"),
            ErrorKind::InvalidUtf8,
            2,
            &string_entry_points,
        );
        // string length past the end
        assert_rejects(
            &hex("02 05 61"),
            ErrorKind::LengthPastEnd,
            1,
            &string_entry_points,
        );

        let bool_entry_points: [EntryPoint<bool>; 2] = [
            ("decode", &|b| decode::<bool>(b)),
            ("iter", &|b| AnyRleIter::new(b).collect()),
        ];
        assert_rejects(&hex("02 05"), ErrorKind::BadTag, 1, &bool_entry_points);
    }

    #[test]
    fn zero_sized_values_round_trip() {
        // `()` encodes to no bytes: a lone unit is a literal of one with nothing after it.
        assert_eq!(encode(&[()]).unwrap(), hex("01"));
        assert_eq!(decode::<()>(&hex("01")).unwrap(), [()]);
        assert_eq!(encode(&[(), (), ()]).unwrap(), hex("06"));
        assert_eq!(decode::<()>(&hex("06")).unwrap(), [(), (), ()]);
    }

    #[test]
    fn the_iterator_streams_a_maximal_run_without_materializing_it() {
        // zigzag(1_000_000_000) = 2_000_000_000 = varint 80 a8 d6 b9 07
        let bytes = hex("80 a8 d6 b9 07 2a");
        let first: Vec<u8> = AnyRleIter::new(&bytes)
            .take(3)
            .collect::<Result<_>>()
            .unwrap();
        assert_eq!(first, [42, 42, 42]);
    }

    fn peer_encode<T: serde_columnar::Rleable>(values: &[T]) -> Vec<u8> {
        let mut peer = serde_columnar::AnyRleEncoder::<T>::new();
        for value in values {
            peer.append(value).unwrap();
        }
        peer.finish().unwrap()
    }

    fn round_trip_and_compare<T>(values: Vec<T>) -> std::result::Result<(), TestCaseError>
    where
        T: serde_columnar::Rleable + std::fmt::Debug,
    {
        let bytes = encode(&values).unwrap();
        prop_assert_eq!(&bytes, &peer_encode(&values));
        prop_assert_eq!(&decode::<T>(&bytes).unwrap(), &values);
        let streamed: Vec<T> = AnyRleIter::new(&bytes).collect::<Result<_>>().unwrap();
        prop_assert_eq!(&streamed, &values);
        let peer_decoded = serde_columnar::AnyRleDecoder::<T>::new(&bytes)
            .decode()
            .unwrap();
        prop_assert_eq!(&peer_decoded, &values);
        let mut streamed_encoder = AnyRleEncoder::new();
        for value in &values {
            streamed_encoder.push(value).unwrap();
        }
        let mut out = vec![0xee];
        streamed_encoder.finish_into(&mut out).unwrap();
        prop_assert_eq!(&out[1..], &bytes[..]);
        Ok(())
    }

    proptest! {
        #[test]
        fn u64_columns_round_trip_and_match_serde_columnar(
            values in runs_of(prop_oneof![Just(0u64), Just(u64::MAX), 0u64..4, any::<u64>()])
        ) {
            round_trip_and_compare(values)?;
        }

        #[test]
        fn i64_columns_round_trip_and_match_serde_columnar(
            values in runs_of(prop_oneof![Just(i64::MIN), Just(i64::MAX), -2i64..2, any::<i64>()])
        ) {
            round_trip_and_compare(values)?;
        }

        #[test]
        fn string_columns_round_trip_and_match_serde_columnar(
            values in runs_of(prop_oneof![Just(String::new()), "[a-c]", ".*"])
        ) {
            round_trip_and_compare(values)?;
        }

        #[test]
        fn tuple_columns_round_trip_and_match_serde_columnar(
            values in runs_of((any::<Option<u8>>(), any::<bool>(), -3i128..3))
        ) {
            round_trip_and_compare(values)?;
        }

        #[test]
        fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
            stream_agrees_with_bulk(AnyRleIter::<u16>::new(&bytes), || decode(&bytes))?;
        }
    }
}

#[cfg(test)]
mod expansion_tests {
    use super::*;
    use crate::ErrorKind;

    /// A run of 10^7 copies of a 1000-byte string: 1 KB of input, 10 GB of clones.
    fn long_string_run() -> Vec<u8> {
        let mut bytes = Vec::new();
        crate::wire::write_zigzag_i64(&mut bytes, 10_000_000);
        crate::wire::write_bytes(&mut bytes, &[b'x'; 1000]);
        bytes
    }

    #[test]
    fn rejects_runs_of_strings_that_expand_past_the_limit() {
        let bytes = long_string_run();
        let err = decode::<String>(&bytes).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ErrorKind::RunCountTooLarge, Some(0))
        );
        let err = AnyRleIter::<String>::with_base(&bytes, 5)
            .find_map(Result::err)
            .unwrap();
        assert_eq!(
            (err.kind(), err.offset()),
            (ErrorKind::RunCountTooLarge, Some(5))
        );
    }

    #[test]
    fn runs_of_plain_values_are_not_limited_by_their_size() {
        // u64::MAX takes 10 bytes; 2 * 10^8 copies are 2 * 10^9 encoded bytes but own no heap.
        let mut bytes = Vec::new();
        crate::wire::write_zigzag_i64(&mut bytes, 200_000_000);
        crate::wire::write_varint_u64(&mut bytes, u64::MAX);
        let mut iter = AnyRleIter::<u64>::new(&bytes);
        assert_eq!(iter.next().unwrap().unwrap(), u64::MAX);
        // A run of 9 * 10^5 copies of a 1002-byte encoded string (< 10^9 bytes) is accepted.
        let mut bytes = Vec::new();
        crate::wire::write_zigzag_i64(&mut bytes, 900_000);
        crate::wire::write_bytes(&mut bytes, &[b'x'; 1000]);
        assert_eq!(AnyRleIter::<String>::new(&bytes).take(3).count(), 3);
    }
}
