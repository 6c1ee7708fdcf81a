//! `serde_columnar` 0.3.14's hand-driven API, differentially: the encoders and decoders Loro
//! drives by hand (`AnyRle*`, `DeltaRle*`, `BoolRle*`, `DeltaOfDelta*`), `ColumnarVec` through
//! postcard, and the `ColumnarError` variants.
//!
//! For each codec, random values are encoded by both crates (same bytes), decoded by both,
//! and several columns are written back to back and read with `take_n_finalize`, which must
//! return the same values and leave the same rest as serde_columnar's.

use proptest::collection::vec;
use proptest::prelude::*;

/// Encodes with both crates' encoders and asserts the same bytes.
macro_rules! same_bytes {
    ($ours:expr, $theirs:expr, $values:expr, $append:ident) => {{
        let mut ours = $ours;
        let mut theirs = $theirs;
        for value in $values.iter() {
            ours.$append(value.clone()).unwrap();
            theirs.$append(value.clone()).unwrap();
        }
        let ours = ours.finish().unwrap();
        let theirs = theirs.finish().unwrap();
        assert_eq!(ours, theirs);
        ours
    }};
}

/// Three columns back to back plus a tail, read with `take_n_finalize` by both crates.
macro_rules! same_take_n {
    ($bytes:expr, $n:expr, $ours:expr, $theirs:expr) => {{
        let mut input = $bytes.clone();
        input.extend_from_slice(&$bytes);
        input.extend_from_slice(b"tail");
        let (ours_values, ours_rest) = $ours(&input[..]).take_n_finalize($n).unwrap();
        let (theirs_values, theirs_rest) = $theirs(&input[..]).take_n_finalize($n).unwrap();
        assert_eq!(ours_values, theirs_values);
        assert_eq!(ours_rest, theirs_rest);
        // The second copy, then the tail.
        let (again, rest) = $ours(ours_rest).take_n_finalize($n).unwrap();
        assert_eq!(again, ours_values);
        assert_eq!(rest, b"tail");
        ours_values
    }};
}

fn runs<T: Clone + std::fmt::Debug>(
    value: impl Strategy<Value = T>,
) -> impl Strategy<Value = Vec<T>> {
    // Runs of equal values between literals, as real columns have.
    vec((value, 1usize..6), 0..40).prop_map(|runs| {
        runs.into_iter()
            .flat_map(|(value, len)| std::iter::repeat_n(value, len))
            .collect()
    })
}

/// One codec against serde_columnar's: both encoders write the same bytes for `$values`, our
/// decoder reads them all back, and both decoders take them back with `take_n_finalize` (see
/// `same_take_n!`). A decoder whose constructor reads a header (and may refuse it) is
/// followed by `unwrap`.
macro_rules! matches_serde_columnar {
    (
        $values:ident: $encoder:ident$(::<$e:ty>)?, $decoder:ident$(::<$d:ty>)? $($fallible:ident)?
    ) => {{
        let bytes = same_bytes!(
            columnar::$encoder$(::<$e>)?::new(),
            serde_columnar::$encoder$(::<$e>)?::new(),
            $values, append
        );
        let mut ours = columnar::$decoder$(::<$d>)?::new(&bytes)$(.$fallible())?;
        prop_assert_eq!(&ours.decode().unwrap(), &$values);
        let decoded = same_take_n!(
            bytes, $values.len(),
            |b| columnar::$decoder$(::<$d>)?::new(b)$(.$fallible())?,
            |b| serde_columnar::$decoder$(::<$d>)?::new(b)$(.$fallible())?
        );
        prop_assert_eq!(decoded, $values);
    }};
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn codecs_match_serde_columnar(
        ints in runs(0u32..4),
        strings in runs("[ab]{0,2}"),
        deltas in runs(-3i64..1000),
        bools in runs(any::<bool>()),
        start in -1_000_000i64..1_000_000,
        steps in vec(prop_oneof![Just(0i64), -70i64..70, -3000i64..3000, -2_000_000i64..2_000_000], 0..60),
    ) {
        matches_serde_columnar!(ints: AnyRleEncoder::<u32>, AnyRleDecoder::<u32>);
        matches_serde_columnar!(strings: AnyRleEncoder::<String>, AnyRleDecoder::<String>);
        matches_serde_columnar!(deltas: DeltaRleEncoder, DeltaRleDecoder::<i64>);
        matches_serde_columnar!(bools: BoolRleEncoder, BoolRleDecoder);
        // Timestamps: a start, then steps around each width of delta-of-delta.
        let timestamps: Vec<i64> = steps
            .iter()
            .scan(start, |value, step| Some(std::mem::replace(value, *value + step)))
            .collect();
        matches_serde_columnar!(timestamps: DeltaOfDeltaEncoder, DeltaOfDeltaDecoder::<i64> unwrap);
    }
}

#[test]
fn loro_block_meta_layout_round_trips() {
    // The shape of loro-internal's change-block meta: several columns with no lengths,
    // each read with take_n_finalize on the rest of the previous one.
    let n = 5;
    let mut timestamps = columnar::DeltaOfDeltaEncoder::new();
    let mut msg_lens = columnar::AnyRleEncoder::<u32>::new();
    let mut dep_self = columnar::BoolRleEncoder::new();
    for i in 0..n {
        timestamps.append(1_700_000_000 + i * 7).unwrap();
        msg_lens.append(i as u32 % 2).unwrap();
        dep_self.append(i != 0).unwrap();
    }
    let mut bytes = timestamps.finish().unwrap();
    bytes.extend(msg_lens.finish().unwrap());
    bytes.extend(dep_self.finish().unwrap());
    bytes.extend(b"msgs");

    let count = n as usize;
    let decoder = columnar::DeltaOfDeltaDecoder::<i64>::new(&bytes).unwrap();
    let (times, rest) = decoder.take_n_finalize(count).unwrap();
    let (lens, rest) = columnar::AnyRleDecoder::<u32>::new(rest)
        .take_n_finalize(count)
        .unwrap();
    let (flags, rest) = columnar::BoolRleDecoder::new(rest)
        .take_n_finalize(count)
        .unwrap();
    assert_eq!(times[4], 1_700_000_028);
    assert_eq!(lens, [0, 1, 0, 1, 0]);
    assert_eq!(flags, [false, true, true, true, true]);
    assert_eq!(rest, b"msgs");

    // The same through serde_columnar's decoders.
    let theirs = serde_columnar::DeltaOfDeltaDecoder::<i64>::new(&bytes).unwrap();
    let (theirs_times, rest) = theirs.take_n_finalize(count).unwrap();
    let rest = serde_columnar::AnyRleDecoder::<u32>::new(rest)
        .take_n_finalize(count)
        .unwrap()
        .1;
    let rest = serde_columnar::BoolRleDecoder::new(rest)
        .take_n_finalize(count)
        .unwrap()
        .1;
    assert_eq!(theirs_times, times);
    assert_eq!(rest, b"msgs");
}

#[test]
fn take_n_finalize_refuses_what_the_column_does_not_hold() {
    // A run of three 5s: taking four is too many, taking two stops inside the run.
    let err = columnar::AnyRleDecoder::<u32>::new(&[0x06, 0x05])
        .take_n_finalize(4)
        .unwrap_err();
    assert!(matches!(err, columnar::ColumnarError::RleDecodeError(_)));
    assert_eq!(err.kind(), columnar::ErrorKind::UnexpectedEnd);
    let err = columnar::AnyRleDecoder::<u32>::new(&[0x06, 0x05])
        .take_n_finalize(2)
        .unwrap_err();
    assert_eq!(err.kind(), columnar::ErrorKind::ColumnLengthMismatch);
    // DeltaOfDelta [1, 2, 3] (10 bits): taking two leaves a trailer that says 10 bits.
    let bytes = [0x01, 0x02, 0x02, 0xa0, 0x00];
    let err = columnar::DeltaOfDeltaDecoder::<i64>::new(&bytes)
        .unwrap()
        .take_n_finalize(2)
        .unwrap_err();
    assert_eq!(err.kind(), columnar::ErrorKind::ColumnLengthMismatch);
    let err = columnar::DeltaOfDeltaDecoder::<i64>::new(&bytes)
        .unwrap()
        .take_n_finalize(4)
        .unwrap_err();
    assert!(matches!(err, columnar::ColumnarError::RleDecodeError(_)));
    assert_eq!(err.kind(), columnar::ErrorKind::UnexpectedEnd);
    // A missing trailer byte: `01 02` is Some(1), then the used-bits byte is missing
    // (docs/spec/columnar.md §5.5).
    let err = columnar::DeltaOfDeltaDecoder::<i64>::new(&[0x01, 0x02]).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (columnar::ErrorKind::UnexpectedEnd, Some(2))
    );
}

#[columnar::columnar(vec, ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct Span {
    #[columnar(strategy = "DeltaRle")]
    peer: u64,
    #[columnar(strategy = "Rle")]
    len: i32,
    text: String,
}

mod theirs {
    use serde_columnar::columnar;

    #[columnar(vec, ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct Span {
        #[columnar(strategy = "DeltaRle")]
        pub peer: u64,
        #[columnar(strategy = "Rle")]
        pub len: i32,
        pub text: String,
    }
}

#[test]
fn columnar_vec_through_postcard_matches_serde_columnar() {
    // loro-internal's richtext state writes its spans with postcard::to_io(&ColumnarVec::new(..)).
    let spans: Vec<Span> = (0..20)
        .map(|i| Span {
            peer: 7 + i / 5,
            len: (i % 3) as i32,
            text: "ab".repeat(i as usize % 2),
        })
        .collect();
    let theirs_spans: Vec<theirs::Span> = spans
        .iter()
        .map(|s| theirs::Span {
            peer: s.peer,
            len: s.len,
            text: s.text.clone(),
        })
        .collect();
    let ours = postcard::to_allocvec(&columnar::ColumnarVec::new(&spans)).unwrap();
    let theirs_bytes =
        postcard::to_allocvec(&serde_columnar::ColumnarVec::new(&theirs_spans)).unwrap();
    assert_eq!(ours, theirs_bytes);
    let mut tailed = ours.clone();
    tailed.push(0x2a);
    let (back, rest): (columnar::ColumnarVec<'_, Span, Vec<Span>>, _) =
        postcard::take_from_bytes(&tailed).unwrap();
    assert_eq!(back.into_vec(), spans);
    assert_eq!(rest, [0x2a]);
    // Inside our own format too.
    assert_eq!(
        columnar::to_vec(&columnar::ColumnarVec::new(&spans)).unwrap(),
        ours
    );
}

#[test]
fn columnar_error_variants_match_as_in_loro() {
    // loro-common's `From<ColumnarError> for LoroError`, verbatim in shape.
    fn classify(e: columnar::ColumnarError) -> &'static str {
        match e {
            columnar::ColumnarError::ColumnarDecodeError(_)
            | columnar::ColumnarError::RleEncodeError(_)
            | columnar::ColumnarError::RleDecodeError(_)
            | columnar::ColumnarError::OverflowError => "decode",
            _ => "unknown",
        }
    }
    let truncated = columnar::from_bytes::<Vec<u32>>(&[0x02, 0x01]).unwrap_err();
    assert_eq!(truncated.kind(), columnar::ErrorKind::UnexpectedEnd);
    assert_eq!(classify(truncated), "decode");
    let zero_run = columnar::codec::rle::decode::<u32>(&[0x00]).unwrap_err();
    assert!(matches!(
        zero_run,
        columnar::ColumnarError::RleDecodeError(_)
    ));
    let overflow = columnar::codec::delta_rle::encode(&[i128::MIN, i128::MAX]).unwrap_err();
    assert!(matches!(
        overflow,
        columnar::ColumnarError::RleEncodeError(_)
    ));
    let custom = <columnar::Error as serde::de::Error>::custom("bad");
    assert!(matches!(custom, columnar::ColumnarError::SerializeError(_)));
    assert_eq!(classify(custom), "unknown");
    let io: columnar::ColumnarError = std::io::Error::other("disk").into();
    assert_eq!(io.kind(), columnar::ErrorKind::Io);
    assert_eq!(io.to_string(), "io error: disk");
    // Row iterators yield the same type, as loro's `Iterator<Item = Result<_, ColumnarError>>`.
    let _: Option<Result<u32, columnar::ColumnarError>> =
        columnar::AnyRleDecoder::<u32>::new(&[]).next();
}

#[test]
fn itertools_is_re_exported() {
    use columnar::{izip, Itertools, MultiUnzip};
    let joined = [1, 2, 3].iter().join(",");
    assert_eq!(joined, "1,2,3");
    let (a, b): (Vec<u8>, Vec<u8>) = MultiUnzip::multiunzip([(1, 2), (3, 4)].into_iter());
    assert_eq!((a, b), (vec![1, 3], vec![2, 4]));
    assert_eq!(izip!([1, 2], [3, 4]).count(), 2);
}

#[test]
fn columnar_encoder_and_decoder_handles_work_like_serde_columnar() {
    use serde::{Deserialize, Serialize};
    let mut encoder = columnar::ColumnarEncoder::new();
    (7u32, "x").serialize(&mut *encoder).unwrap();
    let ours = encoder.into_bytes();
    let mut theirs = serde_columnar::ColumnarEncoder::new();
    (7u32, "x").serialize(&mut *theirs).unwrap();
    assert_eq!(ours, theirs.into_bytes());
    let mut input = ours.clone();
    input.push(9);
    let mut decoder = columnar::ColumnarDecoder::new(&input);
    assert_eq!(<(u32, &str)>::deserialize(&mut *decoder).unwrap(), (7, "x"));
    assert_eq!(decoder.finalize().unwrap(), [9]);
}

#[columnar::columnar(vec, ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct Indexed {
    #[columnar(index = 0, strategy = "DeltaRle")]
    id: u64,
    #[columnar(index = 1)]
    name: String,
    #[columnar(optional, index = 2)]
    tag: Option<u8>,
}

#[columnar::columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct IndexedTable {
    #[columnar(class = "vec")]
    rows: Vec<Indexed>,
}

mod theirs_indexed {
    use serde_columnar::columnar;

    #[columnar(vec, ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct Indexed {
        #[columnar(index = 0, strategy = "DeltaRle")]
        pub id: u64,
        #[columnar(index = 1)]
        pub name: String,
        #[columnar(optional, index = 2)]
        pub tag: Option<u8>,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct IndexedTable {
        #[columnar(class = "vec")]
        pub rows: Vec<Indexed>,
    }
}

#[test]
fn index_without_optional_gives_serde_columnar_bytes() {
    let rows: Vec<Indexed> = (0..6)
        .map(|i| Indexed {
            id: 10 + i,
            name: format!("n{}", i % 2),
            tag: (i % 3 == 0).then_some(i as u8),
        })
        .collect();
    let theirs_rows = rows
        .iter()
        .map(|r| theirs_indexed::Indexed {
            id: r.id,
            name: r.name.clone(),
            tag: r.tag,
        })
        .collect();
    let ours = columnar::to_vec(&IndexedTable { rows: rows.clone() }).unwrap();
    let theirs =
        serde_columnar::to_vec(&theirs_indexed::IndexedTable { rows: theirs_rows }).unwrap();
    assert_eq!(ours, theirs);
    let back: IndexedTable = columnar::from_bytes(&theirs).unwrap();
    assert_eq!(back.rows, rows);
}

/// Steps a hand-driven decoder through at most 100 values: an error it yields points inside
/// the input, and it yields nothing after its first error.
fn stream_is_sane<T>(
    input: &[u8],
    mut values: impl Iterator<Item = columnar::Result<T>>,
) -> Result<(), TestCaseError> {
    for _ in 0..100 {
        match values.next() {
            None => return Ok(()),
            Some(Ok(_)) => {}
            Some(Err(err)) => {
                let at = err.offset();
                prop_assert!(at.is_none_or(|at| at <= input.len() as u64), "{err}");
                prop_assert!(values.next().is_none(), "a value after the error {err}");
                return Ok(());
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Hostile input: the hand-driven decoders return values or errors, never panic, on any
    /// bytes and any `n`, and a rest they return is a suffix of the input.
    #[test]
    fn decoders_never_panic_on_arbitrary_bytes(bytes in vec(any::<u8>(), 0..64), n in 0usize..80) {
        fn suffix(input: &[u8], rest: &[u8]) -> bool {
            input.ends_with(rest)
        }
        if let Ok((_, rest)) = columnar::AnyRleDecoder::<u32>::new(&bytes).take_n_finalize(n) {
            prop_assert!(suffix(&bytes, rest));
        }
        if let Ok((_, rest)) = columnar::AnyRleDecoder::<String>::new(&bytes).take_n_finalize(n) {
            prop_assert!(suffix(&bytes, rest));
        }
        if let Ok((_, rest)) = columnar::DeltaRleDecoder::<u8>::new(&bytes).take_n_finalize(n) {
            prop_assert!(suffix(&bytes, rest));
        }
        if let Ok((_, rest)) = columnar::BoolRleDecoder::new(&bytes).take_n_finalize(n) {
            prop_assert!(suffix(&bytes, rest));
        }
        if let Ok(decoder) = columnar::DeltaOfDeltaDecoder::<i32>::new(&bytes) {
            if let Ok((_, rest)) = decoder.take_n_finalize(n) {
                prop_assert!(suffix(&bytes, rest));
            }
        }
        // `decode` would expand runs of up to MAX_RLE_COUNT values: step a few values instead.
        if let Ok(decoder) = columnar::DeltaOfDeltaDecoder::<i64>::new(&bytes) {
            stream_is_sane(&bytes, decoder)?;
        }
        stream_is_sane(&bytes, columnar::AnyRleDecoder::<u64>::new(&bytes))?;
        stream_is_sane(&bytes, columnar::BoolRleDecoder::new(&bytes))?;
        stream_is_sane(&bytes, columnar::DeltaRleDecoder::<i128>::new(&bytes))?;
        match columnar::DeltaRleDecoder::<i128>::new(&bytes).finalize() {
            Ok(rest) => prop_assert!(suffix(&bytes, rest)),
            Err(err) => prop_assert!(err.offset().is_none_or(|at| at <= bytes.len() as u64)),
        }
        let _ = postcard::from_bytes::<columnar::ColumnarVec<'_, Span, Vec<Span>>>(&bytes);
    }
}
