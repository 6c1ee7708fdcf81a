//! Tests of the AnyRle codec: worked examples, hostile input, and the stream/bulk agreement.

use proptest::prelude::*;

use super::*;
use crate::codec::test_support::{
    assert_error, assert_goldens, assert_rejects, assert_round_trip, assert_stream_error,
    assert_stream_starts, codec, entry_points, hex, hostile_cases, i64_runs, runs_of,
    stream_agrees_with_bulk, u64_runs,
};

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

/// Both encoders write the goldens; every decoder reads them, and their prefixes safely.
#[test]
fn golden_vectors_round_trip_like_serde_columnar() {
    assert_goldens(&goldens(), &codec!(AnyRleIter, RleColumn<u32>));
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
fn rejects_hostile_inputs() {
    let u32_entry_points = entry_points!(decode::<u32>, AnyRleIter, RleColumn<u32>);
    assert_rejects(&u32_entry_points, &hostile_cases!("rle_u32.txt"));
    let string_entry_points = entry_points!(decode::<String>, AnyRleIter, RleColumn<String>);
    assert_rejects(&string_entry_points, &hostile_cases!("rle_string.txt"));
    let bool_entry_points = entry_points!(decode::<bool>, AnyRleIter, RleColumn<bool>);
    assert_rejects(&bool_entry_points, &hostile_cases!("rle_bool.txt"));
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
    assert_stream_starts(AnyRleIter::<u8>::new(&bytes), &[42, 42, 42]);
}

fn round_trip_and_compare<T>(values: Vec<T>) -> std::result::Result<(), TestCaseError>
where
    T: serde_columnar::Rleable + std::fmt::Debug,
{
    let bytes = assert_round_trip(&values, &codec!(AnyRleIter, RleColumn<T>));
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
    fn u64_and_i64_columns_round_trip_and_match_serde_columnar(
        u64s in u64_runs(),
        i64s in i64_runs(),
    ) {
        round_trip_and_compare(u64s)?;
        round_trip_and_compare(i64s)?;
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
        assert_error(decode::<String>(&bytes), ErrorKind::RunCountTooLarge, 0);
        assert_stream_error(
            AnyRleIter::<String>::with_base(&bytes, 5),
            ErrorKind::RunCountTooLarge,
            5,
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
