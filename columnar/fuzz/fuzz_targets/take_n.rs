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

/// [`check`] for one codec: `$new` makes a decoder over some bytes (`None` where the
/// constructor refuses them), `$encoder` an empty encoder, and `$value` what to append for the
/// item `$v` of the values taken.
macro_rules! check_codec {
    ($data:ident, $n:ident: $new:expr => $encoder:expr, |$v:ident| $value:expr) => {
        if let Some(decoder) = ($new)($data) {
            check(
                $data,
                decoder.take_n_finalize($n),
                |values| {
                    let mut encoder = $encoder;
                    values.iter().for_each(|$v| encoder.append($value).unwrap());
                    encoder.finish().unwrap()
                },
                |bytes, n| {
                    let decoder = ($new)(bytes).unwrap();
                    let (values, rest) = decoder.take_n_finalize(n).unwrap();
                    (values, rest.to_vec())
                },
            );
        }
    };
}

fuzz_target!(|data: &[u8]| {
    let Some((&n, data)) = data.split_first() else {
        return;
    };
    let n = usize::from(n);
    check_codec!(data, n: |b| Some(AnyRleDecoder::<u16>::new(b))
        => AnyRleEncoder::<u16>::new(), |v| v);
    check_codec!(data, n: |b| Some(AnyRleDecoder::<String>::new(b))
        => AnyRleEncoder::<String>::new(), |v| v);
    check_codec!(data, n: |b| Some(DeltaRleDecoder::<i32>::new(b))
        => DeltaRleEncoder::new(), |v| *v);
    check_codec!(data, n: |b| Some(BoolRleDecoder::new(b)) => BoolRleEncoder::new(), |v| *v);
    // The only constructor that reads (and may refuse) its input: the column's header.
    check_codec!(data, n: |b| DeltaOfDeltaDecoder::<i64>::new(b).ok()
        => DeltaOfDeltaEncoder::new(), |v| *v);
});
