//! typed_column: the reader's shortcut for sequences of `f64` (a column of the dense chain read
//! straight from its data) reads exactly what the element-by-element path reads: the same
//! values on valid input, the same error on truncated or corrupted input.

use integration_tests::float_reader::Element;
use serde::{Deserialize, Serialize};
use serde_formats::typed_column::{from_bytes, to_bytes};

#[derive(Serialize, Deserialize, Debug)]
struct Tagged<F> {
    name: String,
    values: Vec<F>,
}

/// Both readers' outcome: the bits of each float (NaN payloads compared too), or the error.
fn both<'de, F, P>(
    bytes: &'de [u8],
    bits: impl Fn(&F) -> u64,
    plain_bits: impl Fn(&P) -> u64,
) -> [Result<Vec<u64>, String>; 2]
where
    F: Deserialize<'de>,
    P: Deserialize<'de>,
{
    [
        from_bytes::<Vec<F>>(bytes)
            .map(|values| values.iter().map(&bits).collect())
            .map_err(|err| err.to_string()),
        from_bytes::<Vec<P>>(bytes)
            .map(|values| values.iter().map(&plain_bits).collect())
            .map_err(|err| err.to_string()),
    ]
}

fn samples(len: usize) -> Vec<f64> {
    (0..len)
        .map(|i| match i % 5 {
            0 => i as f64 / 3.0,
            1 => -0.0,
            2 => f64::from_bits(0x7ff8_0000_dead_beef),
            3 => f64::INFINITY,
            _ => -(i as f64),
        })
        .collect()
}

#[test]
fn float_columns_read_the_same_either_way() {
    for len in [0, 1, 2, 5, 63, 64, 65, 1000] {
        let values = samples(len);
        let bytes = to_bytes(&values).unwrap();
        let [fast, plain] = both::<f64, Element>(&bytes, |v| v.to_bits(), |e| e.0.to_bits());
        let expected: Vec<u64> = values.iter().map(|v| v.to_bits()).collect();
        assert_eq!(fast, Ok(expected), "len {len}");
        assert_eq!(plain, fast, "len {len}");
    }
    // Inside a struct, and a sequence of such structs: columns in and out of the chain.
    let rows: Vec<Tagged<f64>> = (0..70)
        .map(|i| Tagged {
            name: format!("r{i}"),
            values: samples(i % 7),
        })
        .collect();
    let bytes = to_bytes(&rows).unwrap();
    let fast = from_bytes::<Vec<Tagged<f64>>>(&bytes).unwrap();
    let plain = from_bytes::<Vec<Tagged<Element>>>(&bytes).unwrap();
    for ((row, fast), plain) in rows.iter().zip(&fast).zip(&plain) {
        let bits = |values: &[f64]| values.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&fast.values), bits(&row.values));
        let plain: Vec<f64> = plain.values.iter().map(|e| e.0).collect();
        assert_eq!(bits(&plain), bits(&row.values));
    }
}

#[test]
fn damaged_float_columns_fail_the_same_either_way() {
    let bytes = to_bytes(&samples(70)).unwrap();
    for cut in 0..bytes.len() {
        let [fast, plain] = both::<f64, Element>(&bytes[..cut], |v| v.to_bits(), |e| e.0.to_bits());
        assert!(fast.is_err(), "cut at {cut}");
        assert_eq!(fast, plain, "cut at {cut}");
    }
    for at in 0..bytes.len() {
        for flip in [0x01, 0x80, 0xff] {
            let mut damaged = bytes.clone();
            damaged[at] ^= flip;
            let [fast, plain] = both::<f64, Element>(&damaged, |v| v.to_bits(), |e| e.0.to_bits());
            assert_eq!(fast, plain, "byte {at} ^ {flip:#x}");
        }
    }
}
