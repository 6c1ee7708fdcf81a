//! The five column codecs and their wire format.
//!
//! Each codec turns the values of one column into bytes and back. Every codec module has the
//! same shape:
//!
//! | item | Generic | Rle | DeltaRle | BoolRle | DeltaOfDelta |
//! | --- | --- | --- | --- | --- | --- |
//! | encoder (`push(&T)`, `finish`) | [`GenericEncoder`] | [`AnyRleEncoder`] | [`DeltaRleEncoder`] | [`BoolRleEncoder`] | [`DeltaOfDeltaEncoder`] |
//! | streaming decoder (`Iterator<Item = Result<T>>`) | [`GenericIter`] | [`AnyRleIter`] | [`DeltaRleIter`] | [`BoolRleIter`] | [`DeltaOfDeltaIter`] |
//! | hand-driven decoder (`decode`, `try_next`, `take_n_finalize`: `n` values and the bytes after them) | — | [`AnyRleDecoder`] | [`DeltaRleDecoder`] | [`BoolRleDecoder`] | [`DeltaOfDeltaDecoder`] |
//! | whole-column functions | [`generic::encode`], [`generic::decode`] | [`rle::encode`], [`rle::decode`] | [`delta_rle::encode`], [`delta_rle::decode`] | [`bool_rle::encode`], [`bool_rle::decode`] | [`delta_of_delta::encode`], [`delta_of_delta::decode`] |
//! | column type (serde: a byte string of the codec output) | [`GenericColumn`] | [`RleColumn`] | [`DeltaRleColumn`] | [`BoolRleColumn`] | [`DeltaOfDeltaColumn`] |
//! | element types | `Serialize + Deserialize` | `Clone + PartialEq + Serialize + Deserialize` | [`DeltaRleable`]: every integer type and `bool` | `bool` | [`DeltaOfDeltable`]: every integer type, values within `i64` |
//!
//! ```
//! use columnar::codec::{bool_rle, rle, BoolRleEncoder};
//!
//! // One value at a time, as a derive does for each field of each row ...
//! let mut encoder = BoolRleEncoder::new();
//! for value in [true, true, false, false, false] {
//!     encoder.push(&value)?;
//! }
//! assert_eq!(encoder.finish()?, [0x00, 0x02, 0x03]);
//!
//! // ... or a whole column at once.
//! let bytes = rle::encode(&[7u32, 8, 8, 7])?;
//! assert_eq!(bytes, [0x01, 0x07, 0x04, 0x08, 0x01, 0x07]);
//! assert_eq!(rle::decode::<u32>(&bytes)?, [7, 8, 8, 7]);
//! assert_eq!(bool_rle::decode(&[0x00, 0x02, 0x03])?, [true, true, false, false, false]);
//! # Ok::<(), columnar::Error>(())
//! ```
//!
//! # Wire format
//!
//! Specified in `docs/spec/columnar.md` §5 (worked examples in §6.2, decoder errors in §8.3).
//!
//! ## Stability
//!
//! The bytes are those of `serde_columnar` 0.3.14, and will not change within this crate's
//! 0.x and 1.x series: a column written by any version decodes in every later one. New codecs
//! may be added; existing ones keep their bytes. The primitives (varints, zigzag, strings)
//! are postcard 1.x's, described in [`crate::wire`].
//!
//! Inside a table a column is a byte string (varint length, then the codec output); the
//! sections below describe the codec output alone. No codec stores a type or strategy tag:
//! the schema says how to read a column.
//!
//! ## Generic
//!
//! The values as a postcard sequence: varint count, then each value. Empty column: `00`.
//!
//! ## Rle
//!
//! A concatenation of runs with no outer length. Each run starts with a zigzag-varint count
//! (`i64`): `n > 0` is a repeated run, followed by one value that stands for `n` values;
//! `n < 0` is a literal run, followed by `-n` values back to back. Values are postcard.
//! Empty column: no bytes.
//!
//! The encoder is a state machine over *Empty*, *Lone(v)*, *Run(v, n)* and
//! *Literal(last, buffer)*: two equal neighbours always start a run, a literal never holds two
//! equal neighbours, runs and literals have no maximum length, and a lone final value is a
//! literal of one. For `[7, 8, 8, 7]`: literal of one `7`, run of two `8`, literal of one `7`:
//! `01 07 04 08 01 07`. A run keeps the second of its first two values (this matters only for
//! types whose `PartialEq` equates different bytes, such as `0.0` and `-0.0`).
//!
//! ## DeltaRle
//!
//! Rle over `i128` deltas: starting from 0, each value is written as `value - previous`.
//! `[1, 2, 3]` is a run of three deltas of 1: `06 02`. `bool` counts as 0 / 1.
//! Empty column: no bytes.
//!
//! ## BoolRle
//!
//! Varint run lengths with no outer length, alternating `false`, `true`, `false`, ..., starting
//! with `false`; a column that starts with `true` therefore starts with a count of 0.
//! `[true, true, false, false, false]` → `00 02 03`; `[true]` → `00 01`. Empty column: no bytes.
//!
//! ## DeltaOfDelta
//!
//! A postcard `Option<i64>` with the first value (`00` when empty), one byte `U` = the number
//! of used bits in the last data byte (0 only when there are no data bytes, 8 when the last
//! byte is full), then a bit stream packed most significant bit first. Each further value `v`
//! is coded by its delta of delta `d = (v - prev) - prev_delta` (the first delta is
//! `v1 - v0`, with `prev_delta = 0`):
//!
//! | prefix | payload | range of `d` | payload value |
//! | --- | --- | --- | --- |
//! | `0` | — | 0 | — |
//! | `10` | 7 bits | −63 ..= 64 | `d + 63` |
//! | `110` | 9 bits | −255 ..= 256 | `d + 255` |
//! | `1110` | 12 bits | −2047 ..= 2048 | `d + 2047` |
//! | `11110` | 21 bits | −1048575 ..= 1048576 | `d + 1048575` |
//! | `11111` | 64 bits | any `i64` | `d` as two's complement |
//!
//! Empty column: `00 00`; one value `v`: `01 zigzag(v) 00`.
//!
//! ## Canonical vs accepted
//!
//! Decoders accept every column `serde_columnar` 0.3.14 writes and reject malformed input
//! with an [`Error`] carrying the [`ErrorKind`] and the byte
//! offset, where `serde_columnar` truncates silently or panics:
//!
//! | codec | written | also accepted | rejected |
//! | --- | --- | --- | --- |
//! | Rle, DeltaRle | runs as the state machine above | two adjacent runs of one value, equal neighbours in a literal, a literal of one between runs | count 0 (`ZeroRunCount`), `\|n\|` > [`MAX_RLE_COUNT`] (`RunCountTooLarge`), an Rle run of `n` copies of a heap-owning value (strings, vectors) of `b` encoded bytes with `n × b` > [`MAX_RUN_EXPANSION`] (`RunCountTooLarge`: each copy is an allocation that cannot fail gracefully; `serde_columnar` accepts these), a literal of `n ≥ 2` values with fewer than `n` bytes left (`LengthPastEnd`), input ending inside a run (`UnexpectedEnd`) |
//! | DeltaRle | — | — | a running value outside `i128` or outside the column's type, e.g. a `u8` column reaching 256 (`IntegerOverflow`) |
//! | BoolRle | a leading 0 only when the column starts with `true` | — | a count of 0 anywhere but first (`ZeroRunCount`), a leading 0 with nothing after it (`UnexpectedEnd`), count > `MAX_RLE_COUNT` (`RunCountTooLarge`) |
//! | DeltaOfDelta | smallest class for each `d`, padding bits 0 | a larger class than needed | missing head or `U` byte (`UnexpectedEnd`), `U` > 8, `U` = 0 with data bytes, `U` > 0 without, bits after an empty head, non-zero padding bits (`BadHeader`), a code running past the last used bit (`UnexpectedEnd`), a value overflowing `i64` or the column's type (`IntegerOverflow`) |
//! | Generic | count, values | — | bytes after the last value (`TrailingBytes`) |
//!
//! Each element of a literal normally takes at least one byte, which is why a literal of
//! `n ≥ 2` values may be rejected before anything is decoded or allocated; values that
//! encode to zero bytes (`()`, unit structs) are all equal, so they only ever appear in runs
//! or in a literal of one. Runs expand without consuming input, so decoding into a `Vec`
//! reserves a run with `try_reserve` and reports a run that cannot be allocated as
//! `RunCountTooLarge`; use the iterators to look at a column without materializing it.
//!
//! Encoders never saturate: a DeltaRle delta outside `i128` (a `u128` above `i128::MAX`, or
//! `[i128::MIN, i128::MAX]`) and a DeltaOfDelta value, delta or delta of delta outside `i64`
//! are [`ErrorKind::EncodeOverflow`].

/// The methods every column iterator shares, defined once: `column_start` (its `start`
/// field) and `new` (its `with_base` at 0); with `with_depth_limit`, also that method of the
/// iterators of serde values (on their `Deserializer` field `de`).
macro_rules! iter_methods {
    ($de:lifetime) => {
        /// The offset of the column's first byte in the input (the `base` it was created with).
        pub fn column_start(&self) -> usize {
            self.start
        }

        /// An iterator over the column `bytes`.
        pub fn new(bytes: &$de [u8]) -> Self {
            Self::with_base(bytes, 0)
        }
    };
    ($de:lifetime, with_depth_limit) => {
        iter_methods!($de);

        /// Sets how deep each value may nest (default
        /// [`DEFAULT_DEPTH_LIMIT`](crate::wire::DEFAULT_DEPTH_LIMIT)): a column found inside a
        /// container gets the depth its container has left.
        #[must_use]
        pub fn with_depth_limit(mut self, limit: usize) -> Self {
            self.de = self.de.with_depth_limit(limit);
            self
        }
    };
}

#[macro_use]
mod column_type;
#[macro_use]
mod element;
pub mod bool_rle;
mod decoder;
pub mod delta_of_delta;
pub mod delta_rle;
pub mod generic;
pub mod rle;
mod run_eq;

pub use bool_rle::{BoolRleColumn, BoolRleEncoder, BoolRleIter, BoolRleable};
pub use decoder::{AnyRleDecoder, BoolRleDecoder, DeltaOfDeltaDecoder, DeltaRleDecoder};
pub use delta_of_delta::{
    DeltaOfDeltaColumn, DeltaOfDeltaEncoder, DeltaOfDeltaIter, DeltaOfDeltable,
};
pub use delta_rle::{DeltaRleColumn, DeltaRleEncoder, DeltaRleIter, DeltaRleable};
pub use generic::{GenericColumn, GenericEncoder, GenericIter};
pub use rle::{AnyRleEncoder, AnyRleIter, RleColumn, Rleable};

use crate::wire::{unzigzag_i64, Reader};
use crate::{Error, ErrorKind, Result, MAX_RLE_COUNT};

/// One run header of the Rle family, validated.
#[derive(Debug, Clone, Copy)]
pub(crate) enum RunHeader {
    /// `n` copies of the single value that follows.
    Repeat(usize),
    /// `n` values follow.
    Literal(usize),
}

/// Reads the next run header, `None` at the end of the input.
///
/// `values_need_a_byte` says that each value takes at least one byte (true for integers), so
/// any literal longer than the bytes left is rejected; otherwise only literals of two or more.
#[inline]
pub(crate) fn read_run_header(
    reader: &mut Reader<'_>,
    values_need_a_byte: bool,
) -> Result<Option<RunHeader>> {
    // Fast path: a one-byte count other than 0 (runs and literals of up to 64 values), the
    // common case, decided inline; anything else (including every error) below.
    if let Some(byte @ 1..0x80) = reader.peek_u8() {
        let count = unzigzag_i64(u64::from(byte));
        let len = count.unsigned_abs() as usize;
        if count > 0 {
            reader.read_u8()?;
            return Ok(Some(RunHeader::Repeat(len)));
        }
        if len < reader.remaining() || (!values_need_a_byte && len < 2) {
            reader.read_u8()?;
            return Ok(Some(RunHeader::Literal(len)));
        }
    }
    read_run_header_slow(reader, values_need_a_byte)
}

/// [`read_run_header`] for counts of more than one byte, and every error.
#[inline(never)]
fn read_run_header_slow(
    reader: &mut Reader<'_>,
    values_need_a_byte: bool,
) -> Result<Option<RunHeader>> {
    if reader.is_empty() {
        return Ok(None);
    }
    let start = reader.offset();
    let count = reader.read_zigzag_i64()?;
    let len = count.unsigned_abs();
    if len == 0 {
        return Err(Error::at(ErrorKind::ZeroRunCount, start as u64));
    }
    if len > MAX_RLE_COUNT as u64 {
        return Err(Error::at(ErrorKind::RunCountTooLarge, start as u64));
    }
    // Bounded by MAX_RLE_COUNT, so it fits usize on 32-bit targets too.
    let len = len as usize;
    if count > 0 {
        return Ok(Some(RunHeader::Repeat(len)));
    }
    if len > reader.remaining() && (values_need_a_byte || len >= 2) {
        return Err(Error::at(ErrorKind::LengthPastEnd, start as u64));
    }
    Ok(Some(RunHeader::Literal(len)))
}

/// Most encoded bytes one repeated run of heap-owning values (strings, vectors) may stand
/// for: each copy is a separate allocation that cannot fail gracefully, so a run of `n`
/// copies of a value of `b` bytes is rejected when `n × b` exceeds this.
pub const MAX_RUN_EXPANSION: usize = MAX_RLE_COUNT;

/// Rejects a repeated run whose copies would own more than [`MAX_RUN_EXPANSION`] bytes.
#[inline]
pub(crate) fn check_run_expansion<T>(len: usize, value_bytes: usize, offset: usize) -> Result<()> {
    if std::mem::needs_drop::<T>() && len.saturating_mul(value_bytes) > MAX_RUN_EXPANSION {
        return Err(Error::with_message(
            ErrorKind::RunCountTooLarge,
            format_args!("a run of {len} copies of a {value_bytes}-byte value"),
        )
        .or_offset(offset as u64));
    }
    Ok(())
}

/// Reserves room for `additional` more values, reporting a run too large to allocate as
/// [`ErrorKind::RunCountTooLarge`] at `offset` instead of aborting.
#[inline]
pub(crate) fn reserve_run<T>(values: &mut Vec<T>, additional: usize, offset: usize) -> Result<()> {
    values
        .try_reserve(additional)
        .map_err(|_| Error::at(ErrorKind::RunCountTooLarge, offset as u64))
}

/// Appends `bytes` to `out`, moving instead of copying when `out` is empty.
#[inline]
pub(crate) fn append_output(out: &mut Vec<u8>, bytes: Vec<u8>) {
    if out.is_empty() {
        *out = bytes;
    } else {
        out.extend_from_slice(&bytes);
    }
}

/// serde glue shared by the column types: a column is a byte string of its codec output.
pub(crate) mod serde_glue {
    use std::fmt;
    use std::marker::PhantomData;

    use serde::de::{self, Visitor};

    use crate::Result;

    /// Visits a borrowed byte string and decodes it with `decode`.
    pub(crate) struct BytesVisitor<F, T> {
        pub(crate) expecting: &'static str,
        pub(crate) decode: F,
        pub(crate) _value: PhantomData<T>,
    }

    impl<'de, F, T> Visitor<'de> for BytesVisitor<F, T>
    where
        F: FnOnce(&'de [u8]) -> Result<T>,
    {
        type Value = T;

        fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
            formatter.write_str(self.expecting)
        }

        fn visit_borrowed_bytes<E: de::Error>(self, bytes: &'de [u8]) -> Result<T, E> {
            (self.decode)(bytes).map_err(crate::wire::de_column_error)
        }
    }

    /// Serializes encoded column bytes, or turns an encode error into `S::Error`.
    pub(crate) fn serialize_column<S: serde::Serializer>(
        encoded: Result<Vec<u8>>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match encoded {
            Ok(bytes) => serializer.serialize_bytes(&bytes),
            Err(err) => Err(crate::wire::ser_column_error::<S::Error>(err)),
        }
    }

    /// Deserializes a column from a borrowed byte string.
    pub(crate) fn deserialize_column<'de, D, T>(
        deserializer: D,
        expecting: &'static str,
        decode: impl FnOnce(&'de [u8]) -> Result<T>,
    ) -> Result<T, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        deserializer.deserialize_bytes(BytesVisitor {
            expecting,
            decode,
            _value: PhantomData,
        })
    }
}

/// Helpers shared by the codec tests.
#[cfg(test)]
pub(crate) mod test_support {
    use std::fmt::Debug;

    use proptest::prelude::*;
    use serde::de::DeserializeOwned;

    use crate::{Error, ErrorKind, Result};

    mod hostile;
    pub(crate) use hostile::{assert_rejects, hostile_cases, parse_hostile};

    /// Parses space-separated hex, as golden vectors are written.
    pub(crate) fn hex(text: &str) -> Vec<u8> {
        text.split_whitespace()
            .map(|byte| u8::from_str_radix(byte, 16).expect("test vector is hex"))
            .collect()
    }

    /// A named decoding entry point, for [`assert_decodes`] and [`assert_rejects`].
    pub(crate) type EntryPoint<T> = (&'static str, fn(&[u8]) -> Result<Vec<T>>);

    /// Every entry point decodes every strict prefix of `bytes` to an error or to a prefix of
    /// `values`.
    pub(crate) fn assert_prefixes<T: PartialEq + Debug>(
        bytes: &[u8],
        values: &[T],
        entry_points: &[EntryPoint<T>],
    ) {
        for (name, decode) in entry_points {
            for cut in 0..bytes.len() {
                if let Ok(decoded) = decode(&bytes[..cut]) {
                    assert!(
                        values.starts_with(&decoded),
                        "{name}: prefix of {cut} bytes of {bytes:02x?} decoded to {decoded:?}, not a prefix of {values:?}"
                    );
                }
            }
        }
    }

    /// Every decoding entry point of a codec reads `bytes` as `values`.
    #[track_caller]
    pub(crate) fn assert_decodes<T: PartialEq + Debug>(
        bytes: &[u8],
        values: &[T],
        entry_points: &[EntryPoint<T>],
    ) {
        for (name, decode) in entry_points {
            match decode(bytes) {
                Ok(decoded) => assert_eq!(decoded, values, "{name} on {bytes:02x?}"),
                Err(err) => panic!("{name} rejected {bytes:02x?}: {err}"),
            }
        }
    }

    /// `serde_columnar`'s side of a codec: how it encodes values and how it decodes bytes.
    pub(crate) type Peer<T> = (fn(&[T]) -> Vec<u8>, fn(&[u8]) -> Vec<T>);

    /// A codec under test: its `encode`, its decoding entry points and its `serde_columnar` peer.
    pub(crate) struct Codec<T> {
        pub(crate) encode: fn(&[T]) -> Result<Vec<u8>>,
        pub(crate) entry_points: [EntryPoint<T>; 4],
        pub(crate) peer: Peer<T>,
    }

    /// The [`Codec`] of the module in scope: its `encode` and `decode`, the iterator `$iter`,
    /// and the column type `$column`, whose namesake in `serde_columnar` is the peer.
    macro_rules! codec {
        ($iter:ident, $column:ident $(<$t:ty>)?) => {
            $crate::codec::test_support::Codec {
                encode: |values| encode(values),
                entry_points: $crate::codec::test_support::entry_points!(
                    decode,
                    $iter,
                    $column$(<$t>)?
                ),
                peer: (
                    |values| {
                        let column = <serde_columnar::$column$(<$t>)?>::from(values.to_vec());
                        serde_columnar::ColumnTrait::encode(&column).unwrap()
                    },
                    |bytes| {
                        <serde_columnar::$column$(<$t>)? as serde_columnar::ColumnTrait>::decode(bytes)
                            .unwrap()
                            .data
                    },
                ),
            }
        };
    }
    pub(crate) use codec;

    /// `encode` and the peer write the same bytes for `values`, and every entry point and the
    /// peer read them back as `values`. Returns the bytes.
    #[track_caller]
    pub(crate) fn assert_round_trip<T: PartialEq + Debug>(
        values: &[T],
        codec: &Codec<T>,
    ) -> Vec<u8> {
        let bytes =
            (codec.encode)(values).unwrap_or_else(|err| panic!("encoding {values:?}: {err}"));
        let (peer_encode, peer_decode) = codec.peer;
        assert_eq!(
            peer_encode(values),
            bytes,
            "serde_columnar encoding {values:?}"
        );
        assert_decodes(&bytes, values, &codec.entry_points);
        assert_eq!(
            peer_decode(&bytes),
            values,
            "serde_columnar on {bytes:02x?}"
        );
        bytes
    }

    /// Each golden `(values, bytes)` round-trips as [`assert_round_trip`] through exactly
    /// `bytes`, and every strict prefix of `bytes` decodes to an error or a prefix of `values`.
    #[track_caller]
    pub(crate) fn assert_goldens<T: PartialEq + Debug>(
        goldens: &[(Vec<T>, Vec<u8>)],
        codec: &Codec<T>,
    ) {
        for (values, bytes) in goldens {
            assert_eq!(&assert_round_trip(values, codec), bytes, "{values:?}");
            assert_prefixes(bytes, values, &codec.entry_points);
        }
    }

    /// The first values of `stream` are `start`: reads only `start.len()` of them, so a
    /// maximal run can be checked without materializing it.
    #[track_caller]
    pub(crate) fn assert_stream_starts<T: PartialEq + Debug>(
        stream: impl Iterator<Item = Result<T>>,
        start: &[T],
    ) {
        let read: Vec<T> = stream.take(start.len()).collect::<Result<_>>().unwrap();
        assert_eq!(read, start);
    }

    /// `result` is an error of `kind` at byte `offset`.
    #[track_caller]
    pub(crate) fn assert_error<T>(result: Result<T>, kind: ErrorKind, offset: u64) {
        assert_stream_error(std::iter::once(result), kind, offset);
    }

    /// The first error of `stream` is of `kind` at byte `offset`.
    #[track_caller]
    pub(crate) fn assert_stream_error<T>(
        mut stream: impl Iterator<Item = Result<T>>,
        kind: ErrorKind,
        offset: u64,
    ) {
        let err = stream.find_map(Result::err).expect("an error");
        assert_eq!((err.kind(), err.offset()), (kind, Some(offset)), "{err}");
    }

    /// Runs of `u64`s: both ends of the range, small values and any.
    pub(crate) fn u64_runs() -> impl Strategy<Value = Vec<u64>> {
        runs_of(prop_oneof![
            Just(0u64),
            Just(u64::MAX),
            0u64..5,
            any::<u64>()
        ])
    }

    /// Runs of `i64`s: both ends of the range, small values around 0 and any.
    pub(crate) fn i64_runs() -> impl Strategy<Value = Vec<i64>> {
        runs_of(prop_oneof![
            Just(i64::MIN),
            Just(i64::MAX),
            -3i64..3,
            any::<i64>()
        ])
    }

    /// The four decoding entry points of a codec, for [`assert_decodes`] and
    /// [`assert_rejects`]: the bulk `decode`, the streaming iterator `$iter`, and the column
    /// type's `decode` and serde impl.
    macro_rules! entry_points {
        ($decode:expr, $iter:ident, $column:ty) => {{
            let entry_points: [$crate::codec::test_support::EntryPoint<_>; 4] = [
                ("decode", |b| $decode(b)),
                ("iter", |b| $iter::new(b).collect()),
                ("column", |b| <$column>::decode(b).map(|c| c.data)),
                ("serde", |b| {
                    $crate::codec::test_support::via_serde(b, |c: $column| c.data)
                }),
            ];
            entry_points
        }};
    }
    pub(crate) use entry_points;

    /// `bytes` wrapped as a postcard byte string, the way a column sits inside a table.
    pub(crate) fn as_byte_string(bytes: &[u8]) -> (Vec<u8>, usize) {
        let mut out = Vec::new();
        crate::wire::write_bytes(&mut out, bytes);
        let header = out.len() - bytes.len();
        (out, header)
    }

    /// Decodes codec output as the column type `C` read through serde from inside a byte
    /// string (the way a table holds it), with error offsets made relative to `bytes` again.
    pub(crate) fn via_serde<C: DeserializeOwned, T>(
        bytes: &[u8],
        values: impl FnOnce(C) -> Vec<T>,
    ) -> Result<Vec<T>> {
        let (wrapped, header) = as_byte_string(bytes);
        crate::wire::from_bytes::<C>(&wrapped)
            .map(values)
            .map_err(|e| Error::at(e.kind(), e.offset().map_or(u64::MAX, |o| o - header as u64)))
    }

    /// On any input: when the streaming iterator ends within 10 000 values (runs expand without
    /// input, so not every column ends quickly), bulk decoding gives the same values or error.
    pub(crate) fn stream_agrees_with_bulk<T: PartialEq + Debug>(
        mut stream: impl Iterator<Item = Result<T>>,
        bulk: impl FnOnce() -> Result<Vec<T>>,
    ) -> std::result::Result<(), TestCaseError> {
        let streamed: Result<Vec<T>> = stream.by_ref().take(10_000).collect();
        if stream.next().is_none() {
            prop_assert_eq!(bulk(), streamed);
        }
        Ok(())
    }

    /// Vectors in which runs are likely: each drawn element repeated one to three times.
    pub(crate) fn runs_of<T: Clone + Debug>(
        element: impl Strategy<Value = T>,
    ) -> impl Strategy<Value = Vec<T>> {
        proptest::collection::vec((element, 1usize..4), 0..40).prop_map(|pairs| {
            pairs
                .into_iter()
                .flat_map(|(value, times)| std::iter::repeat_n(value, times))
                .collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::{as_byte_string, assert_error, assert_stream_error};
    use super::*;

    #[test]
    fn codec_errors_inside_a_table_keep_kind_and_absolute_offset() {
        // A table of (u8, RleColumn<u32>): the column's byte string starts at byte 1, its
        // payload at byte 2; the zero count is byte 2 of the payload.
        let (column, header) = as_byte_string(&[0x02, 0x07, 0x00]);
        let mut input = vec![0x09];
        input.extend_from_slice(&column);
        assert_error(
            crate::wire::from_bytes::<(u8, RleColumn<u32>)>(&input),
            ErrorKind::ZeroRunCount,
            1 + header as u64 + 2,
        );
    }

    #[test]
    fn iterators_report_offsets_in_the_enclosing_input() {
        let base = 40;
        let at = |n: u64| base as u64 + n;
        let rle = AnyRleIter::<u32>::with_base(&[0x02, 0x07, 0x00], base);
        assert_stream_error(rle, ErrorKind::ZeroRunCount, at(2));
        let delta_rle = DeltaRleIter::<u8>::with_base(&[0x01, 0x01], base);
        assert_stream_error(delta_rle, ErrorKind::IntegerOverflow, at(1));
        let bool_rle = BoolRleIter::with_base(&[0x02, 0x00], base);
        assert_stream_error(bool_rle, ErrorKind::ZeroRunCount, at(1));
        let delta_of_delta = DeltaOfDeltaIter::<i64>::with_base(&[0x01, 0x02, 0x09], base);
        assert_stream_error(delta_of_delta, ErrorKind::BadHeader, at(2));
        let generic = GenericIter::<u8>::with_base(&[0x02, 0x07], base);
        assert_stream_error(generic, ErrorKind::UnexpectedEnd, at(2));
    }

    #[test]
    fn iterators_stop_after_the_first_error() {
        let mut iter = AnyRleIter::<u32>::new(&[0x00, 0x02, 0x07]);
        assert!(matches!(iter.next(), Some(Err(_))));
        assert!(iter.next().is_none());
    }

    #[test]
    fn encode_errors_inside_a_table_keep_their_kind() {
        let column = DeltaRleColumn::new(vec![u128::MAX]);
        let err = crate::wire::to_vec(&(1u8, column)).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::EncodeOverflow);
    }

    #[test]
    // Appending a borrowed value is part of what is tested.
    #[allow(clippy::needless_borrows_for_generic_args)]
    fn serde_columnar_style_append_calls_work() {
        use super::test_support::hex;
        // 1000, 1000 → run of two (04, varint e8 07); 2 → literal of one (01 02).
        let mut rle = AnyRleEncoder::<u64>::new();
        rle.append(1000).unwrap();
        rle.append(&1000).unwrap();
        rle.append(2).unwrap();
        assert_eq!(rle.finish().unwrap(), hex("04 e8 07 01 02"));
        let mut bools = BoolRleEncoder::new();
        bools.append(true).unwrap();
        bools.append(false).unwrap();
        assert_eq!(bools.finish().unwrap(), hex("00 01 01"));
        // deltas 3, 1: a literal of two.
        let mut deltas = DeltaRleEncoder::new();
        deltas.append(3u32).unwrap();
        deltas.append(4u32).unwrap();
        assert_eq!(deltas.finish().unwrap(), hex("03 06 02"));
        let mut times = DeltaOfDeltaEncoder::new();
        times.append(7i64).unwrap();
        assert_eq!(times.finish().unwrap(), hex("01 0e 00"));
    }

    #[test]
    fn columns_also_work_through_postcard() {
        // The column types are plain serde: postcard reads and writes them too.
        let column = RleColumn::new(vec![7u32]);
        let bytes = postcard::to_allocvec(&column).unwrap();
        assert_eq!(bytes, [0x02, 0x01, 0x07]);
        assert_eq!(
            postcard::from_bytes::<RleColumn<u32>>(&bytes).unwrap(),
            column
        );
        // postcard drops the message, but a bad column is still an error.
        assert!(postcard::from_bytes::<RleColumn<u32>>(&[0x01, 0x00]).is_err());
    }
}
