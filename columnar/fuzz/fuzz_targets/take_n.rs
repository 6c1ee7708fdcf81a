//! The hand-driven decoders (`serde_columnar`'s API): `take_n_finalize` never panics, hands
//! back a suffix of its input, and what it takes re-encodes to a column that reads back to
//! the same values and the same rest.
#![no_main]

use columnar::{
    AnyRleDecoder, AnyRleEncoder, BoolRleDecoder, BoolRleEncoder, DeltaOfDeltaDecoder,
    DeltaOfDeltaEncoder, DeltaRleDecoder, DeltaRleEncoder,
};
use libfuzzer_sys::fuzz_target;

/// Re-encodes `values` in front of `rest` and checks the decoder reads them back.
fn check<T: PartialEq + std::fmt::Debug>(
    input: &[u8],
    taken: Result<(Vec<T>, &[u8]), columnar::Error>,
    encode: impl Fn(&[T]) -> Vec<u8>,
    again: impl Fn(&[u8], usize) -> (Vec<T>, Vec<u8>),
) {
    let Ok((values, rest)) = taken else { return };
    assert!(input.ends_with(rest));
    let mut bytes = encode(&values);
    bytes.extend_from_slice(rest);
    let (values_again, rest_again) = again(&bytes, values.len());
    assert_eq!(values_again, values);
    assert_eq!(rest_again, rest);
}

fuzz_target!(|data: &[u8]| {
    let Some((&n, data)) = data.split_first() else { return };
    let n = usize::from(n);
    check(
        data,
        AnyRleDecoder::<u16>::new(data).take_n_finalize(n),
        |values| {
            let mut encoder = AnyRleEncoder::<u16>::new();
            values.iter().for_each(|v| encoder.append(v).unwrap());
            encoder.finish().unwrap()
        },
        |bytes, n| {
            let (values, rest) = AnyRleDecoder::<u16>::new(bytes).take_n_finalize(n).unwrap();
            (values, rest.to_vec())
        },
    );
    check(
        data,
        AnyRleDecoder::<String>::new(data).take_n_finalize(n),
        |values| {
            let mut encoder = AnyRleEncoder::<String>::new();
            values.iter().for_each(|v| encoder.append(v).unwrap());
            encoder.finish().unwrap()
        },
        |bytes, n| {
            let (values, rest) = AnyRleDecoder::<String>::new(bytes).take_n_finalize(n).unwrap();
            (values, rest.to_vec())
        },
    );
    check(
        data,
        DeltaRleDecoder::<i32>::new(data).take_n_finalize(n),
        |values| {
            let mut encoder = DeltaRleEncoder::new();
            values.iter().for_each(|v| encoder.append(*v).unwrap());
            encoder.finish().unwrap()
        },
        |bytes, n| {
            let (values, rest) = DeltaRleDecoder::<i32>::new(bytes).take_n_finalize(n).unwrap();
            (values, rest.to_vec())
        },
    );
    check(
        data,
        BoolRleDecoder::new(data).take_n_finalize(n),
        |values| {
            let mut encoder = BoolRleEncoder::new();
            values.iter().for_each(|v| encoder.append(*v).unwrap());
            encoder.finish().unwrap()
        },
        |bytes, n| {
            let (values, rest) = BoolRleDecoder::new(bytes).take_n_finalize(n).unwrap();
            (values, rest.to_vec())
        },
    );
    if let Ok(decoder) = DeltaOfDeltaDecoder::<i64>::new(data) {
        check(
            data,
            decoder.take_n_finalize(n),
            |values| {
                let mut encoder = DeltaOfDeltaEncoder::new();
                values.iter().for_each(|v| encoder.append(*v).unwrap());
                encoder.finish().unwrap()
            },
            |bytes, n| {
                let decoder = DeltaOfDeltaDecoder::<i64>::new(bytes).unwrap();
                let (values, rest) = decoder.take_n_finalize(n).unwrap();
                (values, rest.to_vec())
            },
        );
    }
});
