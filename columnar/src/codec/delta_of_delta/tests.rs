//! Tests of the DeltaOfDelta codec: encoder, decoder, iterator and column type.

use proptest::prelude::*;

use super::*;
use crate::codec::test_support::{
    assert_error, assert_goldens, assert_rejects, assert_round_trip, codec, entry_points, hex,
    hostile_cases,
};

/// Golden vectors written by hand from `docs/spec/columnar.md` §5.5 (worked examples in
/// §6.2). Columns
/// `[0, d]` code Δ² = d (the first delta's previous delta is 0): head `01 00`, then `U`,
/// then the bits MSB first.
fn goldens() -> Vec<(Vec<i64>, Vec<u8>)> {
    let pair = |d: i64, tail: &str| (vec![0, d], hex(&format!("01 00 {tail}")));
    vec![
        // Empty column: None head, U = 0.
        (vec![], hex("00 00")),
        // One value: Some(5) = 01 0a, no bits, U = 0.
        (vec![5], hex("01 0a 00")),
        // Δ² = 0: `0`, 1 bit.
        pair(0, "01 00"),
        // Δ² = -63: `10` + 0000000 → 1000 0000 0, 9 bits.
        pair(-63, "01 80 00"),
        // Δ² = 64: `10` + 1111111 → 1011 1111 1.
        pair(64, "01 bf 80"),
        // Δ² = -64: `110` + 191 (010111111) → 1100 1011 1111, 12 bits.
        pair(-64, "04 cb f0"),
        // Δ² = 65: `110` + 320 (101000000) → 1101 0100 0000.
        pair(65, "04 d4 00"),
        // Δ² = -255: `110` + 0.
        pair(-255, "04 c0 00"),
        // Δ² = 256: `110` + 511.
        pair(256, "04 df f0"),
        // Δ² = -256: `1110` + 1791 (0110 1111 1111): 16 bits, the last byte full: U = 8.
        pair(-256, "08 e6 ff"),
        // Δ² = -2047: `1110` + 0.
        pair(-2047, "08 e0 00"),
        // Δ² = 2048: `1110` + 4095.
        pair(2048, "08 ef ff"),
        // Δ² = 2049: `11110` + 1050624 (bits 20 and 11 set), 26 bits.
        pair(2049, "02 f4 02 00 00"),
        // Δ² = -2048: `11110` + 1046527 (0 11111111 0 11111111111).
        pair(-2048, "02 f3 fd ff c0"),
        // Δ² = -1048575: `11110` + 0.
        pair(-1048575, "02 f0 00 00 00"),
        // Δ² = 1048576: `11110` + 21 ones.
        pair(1048576, "02 f7 ff ff c0"),
        // Beyond: Δ² = 1048577: `11111` + 64-bit 0x100001, 69 bits: the payload straddles
        // the first 64-bit word and the second.
        pair(1048577, "05 f8 00 00 00 00 00 80 00 08"),
        // Δ² = -1048576: `11111` + 0xffff_ffff_fff0_0000.
        pair(-1048576, "05 ff ff ff ff ff ff 80 00 00"),
        // 65 equal values: 64 zero bits fill exactly one word: U = 8.
        (vec![3; 65], hex("01 06 08 00 00 00 00 00 00 00 00")),
        // Timestamps: head 1000 (zigzag 2000 = d0 0f); Δ² = 10, 0, 0, 1:
        // 10 1001001 | 0 | 0 | 10 1000000 → 20 bits.
        (
            vec![1000, 1010, 1020, 1030, 1041],
            hex("01 d0 0f 04 a4 94 00"),
        ),
    ]
}

/// Both encoders write the goldens; every decoder reads them, and their prefixes safely.
#[test]
fn golden_vectors_round_trip_like_serde_columnar() {
    assert_goldens(
        &goldens(),
        &codec!(DeltaOfDeltaIter, DeltaOfDeltaColumn<i64>),
    );
}

#[test]
fn refuses_values_and_deltas_outside_i64() {
    let err = encode(&[i64::MIN, i64::MAX]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::EncodeOverflow);
    // deltas fit, the delta of delta does not: 0, i64::MAX, 0 (delta -i64::MAX, Δ² ≈ -2^64)
    let err = encode(&[0, i64::MAX, 0]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::EncodeOverflow);
    let err = encode(&[u64::MAX]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::EncodeOverflow);
}

#[test]
fn narrow_types_use_the_same_bytes() {
    assert_eq!(encode(&[0u8, 64]).unwrap(), hex("01 00 01 bf 80"));
    assert_eq!(decode::<u8>(&hex("01 00 01 bf 80")).unwrap(), [0, 64]);
    assert_eq!(decode::<u128>(&hex("01 00 01 bf 80")).unwrap(), [0, 64]);
}

#[test]
fn rejects_hostile_inputs() {
    let entry_points = entry_points!(decode::<i64>, DeltaOfDeltaIter, DeltaOfDeltaColumn<i64>);
    assert_rejects(&entry_points, &hostile_cases!("delta_of_delta.txt"));
    // A value outside the column's type: 256 in a u8 column (head zigzag 512 = 80 04).
    assert_error(
        decode::<u8>(&hex("01 80 04 00")),
        ErrorKind::IntegerOverflow,
        1,
    );
    // 0, then 256 via Δ² = 256 (`110` + 511 at byte 3).
    assert_error(
        decode::<u8>(&hex("01 00 04 df f0")),
        ErrorKind::IntegerOverflow,
        3,
    );
}

fn timestamps() -> impl Strategy<Value = Vec<i64>> {
    // A start, a step and jitter of every class size, plus raw extremes.
    (
        any::<i64>(),
        prop::collection::vec(
            prop_oneof![
                Just(0i64),
                -70i64..70,
                -3000i64..3000,
                -2_000_000i64..2_000_000,
                any::<i64>(),
                Just(i64::MIN),
                Just(i64::MAX),
            ],
            0..40,
        ),
    )
        .prop_map(|(start, steps)| {
            let mut values = vec![start];
            let mut current = start;
            for step in steps {
                // Keep the column encodable: skip steps whose delta or Δ² leaves i64.
                if let Some(next) = current.checked_add(step) {
                    values.push(next);
                    current = next;
                }
            }
            values
        })
}

fn encodable(values: &[i64]) -> bool {
    values.windows(2).all(|w| w[1].checked_sub(w[0]).is_some())
        && values.windows(3).all(|w| {
            let (a, b) = (w[1].checked_sub(w[0]), w[2].checked_sub(w[1]));
            matches!((a, b), (Some(a), Some(b)) if b.checked_sub(a).is_some())
        })
}

proptest! {
    #[test]
    fn round_trips_and_matches_serde_columnar(values in timestamps()) {
        if encodable(&values) {
                        assert_round_trip(&values, &codec!(DeltaOfDeltaIter, DeltaOfDeltaColumn<i64>));
        } else {
            prop_assert_eq!(encode(&values).unwrap_err().kind(), ErrorKind::EncodeOverflow);
            let peer_column = serde_columnar::DeltaOfDeltaColumn::from(values);
            prop_assert!(serde_columnar::ColumnTrait::encode(&peer_column).is_err());
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        let streamed: Result<Vec<i32>> = DeltaOfDeltaIter::new(&bytes).collect();
        prop_assert_eq!(decode::<i32>(&bytes), streamed);
    }
}
