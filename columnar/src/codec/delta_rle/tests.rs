//! Tests of the DeltaRle codec: worked examples, hostile input, and the stream/bulk agreement.

use proptest::prelude::*;

use super::*;
use crate::codec::test_support::{
    assert_decodes, assert_error, assert_prefixes, assert_rejects, assert_round_trip, codec,
    entry_points, hex, hostile_cases, i64_runs, runs_of, stream_agrees_with_bulk, u64_runs,
};

#[test]
fn encodes_and_decodes_golden_vectors() {
    // Written by hand from docs/spec/columnar.md §5.3 (worked example in §6.2): Rle over i128
    // deltas from 0.
    fn check<T: DeltaRleable + PartialEq + std::fmt::Debug>(values: &[T], bytes: &str) {
        let bytes = hex(bytes);
        let entry_points = entry_points!(decode::<T>, DeltaRleIter, DeltaRleColumn<T>);
        assert_eq!(encode(values).unwrap(), bytes, "{values:?}");
        assert_decodes(&bytes, values, &entry_points);
        assert_prefixes(&bytes, values, &entry_points);
    }
    check::<u32>(&[], "");
    // deltas 1, 1, 1: run of three (06) of delta 1 (02)
    check::<u8>(&[1, 2, 3], "06 02");
    // deltas 5, 0, 0, 0: literal [5] (01 0a), run of three 0 (06 00)
    check::<u32>(&[5, 5, 5, 5], "01 0a 06 00");
    // deltas 10, 1, 1, 1
    check::<u64>(&[10, 11, 12, 13], "01 14 06 02");
    // bool as 0/1: deltas 1, -1, 1: literal of three (05)
    check::<bool>(&[true, false, true], "05 02 01 02");
    // u64 extremes: deltas 0, 2^64-1, -(2^64-1); zigzag 0, 2^65-2, 2^65-3 as varints
    check::<u64>(
        &[0, u64::MAX, 0],
        "05 00 fe ff ff ff ff ff ff ff ff 03 fd ff ff ff ff ff ff ff ff 03",
    );
    // i64 extremes: deltas -2^63 (zigzag 2^64-1), 2^64-1 (zigzag 2^65-2)
    check::<i64>(
        &[i64::MIN, i64::MAX],
        "03 ff ff ff ff ff ff ff ff ff 01 fe ff ff ff ff ff ff ff ff 03",
    );
    // i128::MIN: zigzag u128::MAX, 19 bytes (18 × ff, then 03)
    check::<i128>(
        &[i128::MIN],
        "01 ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff 03",
    );
    // usize and isize use the integer's value
    check::<usize>(&[7], "01 0e");
    // deltas -1, 0: no two equal neighbours, so one literal of two (zigzag -2 = 03)
    check::<isize>(&[-1, -1], "03 01 00");
}

#[test]
fn refuses_deltas_outside_i128() {
    let err = encode(&[u128::MAX]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::EncodeOverflow);
    let err = encode(&[i128::MIN, i128::MAX]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::EncodeOverflow);
    let mut encoder = DeltaRleEncoder::new();
    encoder.push(&(i128::MAX as u128)).unwrap();
    assert_eq!(
        encoder.push(&(i128::MAX as u128 + 1)).unwrap_err().kind(),
        ErrorKind::EncodeOverflow
    );
}

#[test]
fn runs_spanning_more_than_half_of_i128_decode() {
    // Found by the delta_rle fuzz target: a run whose total step (delta × (len - 1)) leaves
    // i128 while every value it produces fits. Bytes written by hand:
    // [MIN, -2^126, 0, 2^126]: literal of one (01) holding zigzag(MIN) = 2^128 - 1
    // (18 × ff, 03), then a run of three (06) of +2^126 (zigzag 2^127: 18 × 80, 02).
    let climbing = [i128::MIN, -(1 << 126), 0, 1 << 126];
    let bytes = hex(&format!(
        "01 {}03 06 {}02",
        "ff ".repeat(18),
        "80 ".repeat(18)
    ));
    // [MAX, 2^126 - 1, -1, -2^126 - 1]: zigzag(MAX) = 2^128 - 2 (fe, 17 × ff, 03), then
    // a run of three of -2^126 (zigzag 2^127 - 1: 18 × ff, 01).
    let falling = [i128::MAX, (1 << 126) - 1, -1, -(1 << 126) - 1];
    let bytes_falling = hex(&format!(
        "01 fe {}03 06 {}01",
        "ff ".repeat(17),
        "ff ".repeat(18)
    ));
    for (values, bytes) in [(climbing, bytes), (falling, bytes_falling)] {
        assert_eq!(
            assert_round_trip(&values, &codec!(DeltaRleIter, DeltaRleColumn<i128>)),
            bytes
        );
    }
    // Longer runs really overflow: MIN, then five steps of 2^126, passes i128::MAX.
    let past = hex(&format!(
        "01 {}03 0a {}02",
        "ff ".repeat(18),
        "80 ".repeat(18)
    ));
    assert_error(decode::<i128>(&past), ErrorKind::IntegerOverflow, 21);
    assert_eq!(
        DeltaRleIter::<i128>::new(&past)
            .find_map(|r| r.err())
            .map(|e| (e.kind(), e.offset())),
        Some((ErrorKind::IntegerOverflow, Some(21)))
    );
}

/// Literal deltas of 9 bytes take the iterator's short path, of 10 and more its full read
/// (and a literal cut inside a delta or ending in overflow is reported by the full read): both
/// agree with [`decode`], value for value and at the error.
#[test]
fn literal_deltas_around_nine_bytes_stream_like_bulk() {
    // 2^62 - 1 and -2^62 zigzag to 2^63 - 2 and 2^63 - 1 (nine bytes), 2^62 to 2^63 (ten).
    let values: Vec<i128> = vec![
        0,
        (1 << 62) - 1,
        -(1 << 62),
        1 << 62,
        -1,
        i128::from(i64::MAX),
        i128::MAX / 3,
        7,
    ];
    let bytes = encode(&values).unwrap();
    assert_eq!(
        DeltaRleIter::<i128>::new(&bytes)
            .collect::<Result<Vec<_>>>()
            .unwrap(),
        values
    );
    for cut in 0..bytes.len() {
        stream_agrees_with_bulk(DeltaRleIter::<i128>::new(&bytes[..cut]), || {
            decode(&bytes[..cut])
        })
        .unwrap();
        stream_agrees_with_bulk(DeltaRleIter::<i64>::new(&bytes[..cut]), || {
            decode(&bytes[..cut])
        })
        .unwrap();
    }
}

#[test]
fn rejects_hostile_inputs() {
    let entry_points = entry_points!(decode::<u8>, DeltaRleIter, DeltaRleColumn<u8>);
    let max_i128 = format!("03 fe {} 03 02", "ff ".repeat(17));
    assert_rejects(&entry_points, &hostile_cases!("delta_rle.txt"));
    // i128::MAX then +1: the running value leaves i128, at the second delta
    for result in [
        decode::<i128>(&hex(&max_i128)),
        DeltaRleIter::<i128>::new(&hex(&max_i128)).collect(),
    ] {
        assert_error(result, ErrorKind::IntegerOverflow, 20);
    }
    // bool columns hold 0 and 1 only
    assert_error(decode::<bool>(&hex("01 04")), ErrorKind::IntegerOverflow, 1);
}

fn round_trip_and_compare<T>(values: Vec<T>) -> std::result::Result<(), TestCaseError>
where
    T: DeltaRleable + serde_columnar::DeltaRleable + std::fmt::Debug,
{
    assert_round_trip(&values, &codec!(DeltaRleIter, DeltaRleColumn<T>));
    Ok(())
}

proptest! {
    #[test]
    fn u64_and_i64_round_trip_and_match_serde_columnar(u64s in u64_runs(), i64s in i64_runs()) {
        round_trip_and_compare(u64s)?;
        round_trip_and_compare(i64s)?;
    }

    #[test]
    fn small_types_round_trip_and_match_serde_columnar(
        a in runs_of(any::<u8>()), b in runs_of(any::<i16>()), c in runs_of(any::<u32>()),
        d in runs_of(any::<usize>()), e in runs_of(any::<isize>()), f in runs_of(any::<i8>()),
    ) {
        round_trip_and_compare(a)?;
        round_trip_and_compare(b)?;
        round_trip_and_compare(c)?;
        round_trip_and_compare(d)?;
        round_trip_and_compare(e)?;
        round_trip_and_compare(f)?;
    }

    #[test]
    fn wide_types_round_trip(
        values in runs_of(prop_oneof![Just(i128::MIN / 2), Just(i128::MAX / 2), -3i128..3]),
        unsigned in runs_of(prop_oneof![Just(0u128), Just(i128::MAX as u128), 0u128..3]),
    ) {
        // Differences of these stay inside i128; the peer agrees on them.
        round_trip_and_compare(values)?;
        round_trip_and_compare(unsigned)?;
    }

    #[test]
    fn bools_round_trip(values in runs_of(any::<bool>())) {
        let bytes = encode(&values).unwrap();
        prop_assert_eq!(decode::<bool>(&bytes).unwrap(), values);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        stream_agrees_with_bulk(DeltaRleIter::<i32>::new(&bytes), || decode(&bytes))?;
    }
}
