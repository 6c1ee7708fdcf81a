//! Rejection tests for `serde_formats::dynd`: every non-canonical or hostile input is an error
//! of its own kind at the byte offset where it starts. Inputs are written by hand.

use std::collections::BTreeMap;

use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};
use serde_formats::dynd;
use serde_formats::ErrorKind;

fn rejects<T: for<'de> Deserialize<'de> + std::fmt::Debug>(
    input: &[u8],
    kind: ErrorKind,
    offset: u64,
) {
    let err = dynd::from_bytes::<T>(input).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (kind, Some(offset)),
        "{input:02x?}: {err}"
    );
    // The other entry points agree.
    let err = dynd::from_reader::<_, T>(input).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (kind, Some(offset)),
        "{input:02x?} via reader"
    );
    if kind != ErrorKind::TrailingBytes {
        let err = dynd::take_from_bytes::<T>(input).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (kind, Some(offset)),
            "{input:02x?} via take"
        );
    }
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Record {
    id: u8,
    score: Option<f64>,
    name: String,
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
enum Two {
    A,
    B(u8),
}

#[test]
fn rejects_non_minimal_varints() {
    rejects::<Vec<u8>>(&[0x80, 0x00], ErrorKind::BadVarint, 0);
    rejects::<String>(&[0x81, 0x00, b'a'], ErrorKind::BadVarint, 0);
    rejects::<(u8, Vec<u8>)>(&[0x07, 0xff, 0x80, 0x00], ErrorKind::BadVarint, 1);
    rejects::<Two>(&[0x80, 0x00], ErrorKind::BadVarint, 0);
    // Wider than 64 bits.
    rejects::<Vec<()>>(
        &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02],
        ErrorKind::BadVarint,
        0,
    );
    // A variant index wider than u32.
    rejects::<Two>(&[0x80, 0x80, 0x80, 0x80, 0x10], ErrorKind::BadVarint, 0);
}

#[test]
fn rejects_bools_and_tags_other_than_zero_and_one() {
    rejects::<bool>(&[0x02], ErrorKind::BadTag, 0);
    rejects::<bool>(&[0xff], ErrorKind::BadTag, 0);
    rejects::<(u8, bool)>(&[0x00, 0x03], ErrorKind::BadTag, 1);
    rejects::<Option<String>>(&[0x02], ErrorKind::BadTag, 0);
    rejects::<Option<char>>(&[0xff, b'a'], ErrorKind::BadTag, 0);
    // ?bool: 2 is the sentinel, anything above is neither a value nor missing.
    rejects::<Option<bool>>(&[0x03], ErrorKind::BadTag, 0);
}

#[test]
fn rejects_unsorted_and_duplicate_map_keys() {
    rejects::<BTreeMap<u8, u8>>(&[0x02, 0x02, 0x00, 0x01, 0x00], ErrorKind::UnsortedKeys, 3);
    rejects::<BTreeMap<u8, u8>>(&[0x02, 0x01, 0x00, 0x01, 0x07], ErrorKind::UnsortedKeys, 3);
    // "b" then "a"; and "ab" (02 61 62) before "b" (01 62).
    rejects::<BTreeMap<String, ()>>(&[0x02, 0x01, b'b', 0x01, b'a'], ErrorKind::UnsortedKeys, 3);
    rejects::<BTreeMap<String, ()>>(
        &[0x02, 0x02, b'a', b'b', 0x01, b'b'],
        ErrorKind::UnsortedKeys,
        4,
    );
    // 1u16 (01 00) before 256 (00 01) is numeric order, not byte order.
    rejects::<BTreeMap<u16, ()>>(&[0x02, 0x01, 0x00, 0x00, 0x01], ErrorKind::UnsortedKeys, 3);
}

#[test]
fn rejects_nan_bits_other_than_the_sentinel_in_options() {
    rejects::<Option<f64>>(&[0, 0, 0, 0, 0, 0, 0xf8, 0x7f], ErrorKind::BadSentinel, 0);
    rejects::<Option<f64>>(
        &[0xa3, 0x07, 0, 0, 0, 0, 0xf0, 0x7f],
        ErrorKind::BadSentinel,
        0,
    );
    rejects::<Option<f64>>(
        &[0xa2, 0x07, 0, 0, 0, 0, 0xf0, 0xff],
        ErrorKind::BadSentinel,
        0,
    );
    rejects::<Option<f32>>(&[0x00, 0x00, 0xc0, 0x7f], ErrorKind::BadSentinel, 0);
    rejects::<Record>(
        &[0x01, 0, 0, 0, 0, 0, 0, 0xf8, 0x7f, 0x00],
        ErrorKind::BadSentinel,
        1,
    );
}

#[test]
fn rejects_trailing_bytes() {
    rejects::<u8>(&[0x01, 0x02], ErrorKind::TrailingBytes, 1);
    rejects::<()>(&[0x00], ErrorKind::TrailingBytes, 0);
    rejects::<Option<i8>>(&[0x80, 0x80], ErrorKind::TrailingBytes, 1);
    rejects::<Vec<u8>>(&[0x01, 0x05, 0x06], ErrorKind::TrailingBytes, 2);
}

#[test]
fn rejects_invalid_utf8_and_chars() {
    rejects::<String>(&[0x02, b'a', 0xff], ErrorKind::InvalidUtf8, 2);
    rejects::<String>(&[0x02, 0xc3, 0x28], ErrorKind::InvalidUtf8, 1);
    // Overlong encoding of '/' and an encoded surrogate are not UTF-8.
    rejects::<String>(&[0x02, 0xc0, 0xaf], ErrorKind::InvalidUtf8, 1);
    rejects::<String>(&[0x03, 0xed, 0xa0, 0x80], ErrorKind::InvalidUtf8, 1);
    rejects::<char>(&[0xc0, 0x80], ErrorKind::InvalidChar, 0);
    rejects::<char>(&[0xed, 0xa0, 0x80], ErrorKind::InvalidChar, 0);
    rejects::<char>(&[0xf4, 0x90, 0x80, 0x80], ErrorKind::InvalidChar, 0);
    rejects::<char>(&[0x80], ErrorKind::InvalidChar, 0);
    rejects::<(u8, char)>(&[0x00, 0xe2, 0x28, 0xac], ErrorKind::InvalidChar, 1);
}

#[test]
fn rejects_lengths_past_the_end_and_truncation() {
    rejects::<String>(&[0x05, b'a'], ErrorKind::LengthPastEnd, 0);
    rejects::<String>(&[0xff, 0xff, 0xff, 0xff, 0x0f], ErrorKind::LengthPastEnd, 0);
    rejects::<Vec<u32>>(
        &[0x02, 0x01, 0x00, 0x00, 0x00, 0x02],
        ErrorKind::UnexpectedEnd,
        5,
    );
    rejects::<u64>(&[0x01, 0x02, 0x03], ErrorKind::UnexpectedEnd, 0);
    rejects::<Option<i32>>(&[0x00, 0x00], ErrorKind::UnexpectedEnd, 0);
    rejects::<char>(&[0xe2, 0x82], ErrorKind::UnexpectedEnd, 0);
    rejects::<Record>(&[], ErrorKind::UnexpectedEnd, 0);
    // A count of 2^32 - 1 elements of u64 and only a few bytes: no huge allocation, just an end.
    rejects::<Vec<u64>>(
        &[0xff, 0xff, 0xff, 0xff, 0x0f, 0x01],
        ErrorKind::UnexpectedEnd,
        5,
    );
}

#[test]
fn bounds_work_for_zero_sized_elements() {
    // 2^32 - 1 units claim no bytes; the decoder stops after its budget instead of looping.
    rejects::<Vec<()>>(
        &[0xff, 0xff, 0xff, 0xff, 0x0f],
        ErrorKind::ZeroSizedLimitExceeded,
        0,
    );
    let ten: Vec<()> = dynd::from_bytes(&[0x0a]).unwrap();
    assert_eq!(ten.len(), 10);
}

#[test]
fn rejects_unknown_variants_at_their_index() {
    let err = dynd::from_bytes::<Two>(&[0x05]).unwrap_err();
    assert_eq!((err.kind(), err.offset()), (ErrorKind::Message, Some(0)));
    assert!(
        err.message().unwrap().contains("variant index 0 <= i < 2"),
        "{err}"
    );
}

#[test]
fn rejects_nesting_past_the_depth_limit() {
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Node(Vec<Node>);
    let mut deep = vec![0x01; 200];
    deep.push(0x00);
    rejects::<Node>(&deep, ErrorKind::DepthLimitExceeded, 128);
    let shallow = [0x01, 0x01, 0x00];
    assert!(dynd::from_bytes::<Node>(&shallow).is_ok());
    let mut de = dynd::Deserializer::from_bytes(&shallow).with_depth_limit(1);
    assert_eq!(
        Node::deserialize(&mut de).unwrap_err().kind(),
        ErrorKind::DepthLimitExceeded
    );
    // A long Option chain nests too.
    type Deep = Option<Option<Option<Option<Option<u8>>>>>;
    let mut de =
        dynd::Deserializer::from_bytes(&[0x01, 0x01, 0x01, 0x01, 0x07]).with_depth_limit(3);
    assert_eq!(
        Deep::deserialize(&mut de).unwrap_err().kind(),
        ErrorKind::DepthLimitExceeded
    );
}

#[test]
fn refuses_to_encode_some_of_a_sentinel() {
    for (result, ty) in [
        (dynd::to_bytes(&Some(i8::MIN)), "?int8"),
        (dynd::to_bytes(&Some(i128::MIN)), "?int128"),
        (dynd::to_bytes(&Some(u32::MAX)), "?uint32"),
        (dynd::to_bytes(&Some(f64::NAN)), "?float64"),
        (
            dynd::to_bytes(&Some(f64::from_bits(0x7ff0_0000_0000_07a2))),
            "?float64",
        ),
        (dynd::to_bytes(&Some(-f32::NAN)), "?float32"),
        (dynd::to_bytes(&vec![Some(1u8), Some(255)]), "?uint8"),
    ] {
        let err = result.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::BadSentinel);
        assert!(
            err.message().unwrap().contains(ty),
            "{err} should name {ty}"
        );
    }
    // The same values are fine outside an option, and in a tagged option.
    assert_eq!(dynd::to_bytes(&i8::MIN).unwrap(), [0x80]);
    assert_eq!(
        dynd::to_bytes(&Some(Some(i8::MIN))).unwrap_err().kind(),
        ErrorKind::BadSentinel
    );
    assert_eq!(dynd::to_bytes(&Some((i8::MIN,))).unwrap(), [0x01, 0x80]);
}

#[test]
fn refuses_to_encode_duplicate_map_keys() {
    struct Twice;
    impl Serialize for Twice {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut map = s.serialize_map(Some(2))?;
            map.serialize_entry("k", &1u8)?;
            map.serialize_entry("k", &2u8)?;
            map.end()
        }
    }
    assert_eq!(
        dynd::to_bytes(&Twice).unwrap_err().kind(),
        ErrorKind::UnsortedKeys
    );
}

#[test]
fn refuses_a_none_whose_sentinel_cannot_be_chosen() {
    #[derive(Serialize)]
    #[serde(transparent)]
    struct Hidden(Option<i8>);
    let err = dynd::to_bytes(&Hidden(None)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported);
    // Present values still go through, as int8 with sentinel checks.
    assert_eq!(dynd::to_bytes(&Hidden(Some(4))).unwrap(), [0x04]);
}

#[test]
fn rejects_non_canonical_array_types() {
    // "3*bool" parses but is not the canonical spelling "3 * bool".
    let err = dynd::from_array_bytes(b"\x063*bool\x01\x00\x01").unwrap_err();
    assert_eq!((err.kind(), err.offset()), (ErrorKind::BadType, Some(1)));
    // The error points at the column inside the type string: `int33` starts at byte 1 + 4.
    let err = dynd::from_array_bytes(b"\x093 * int33\x00").unwrap_err();
    assert_eq!((err.kind(), err.offset()), (ErrorKind::BadType, Some(5)));
    let err = dynd::from_array_bytes(b"\x083 * bool\x01\x00\x01\x01").unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (ErrorKind::TrailingBytes, Some(12))
    );
    let err = dynd::from_array_bytes(b"\x083 * bool\x01\x02\x01").unwrap_err();
    assert_eq!((err.kind(), err.offset()), (ErrorKind::BadTag, Some(10)));
    let err = dynd::from_array_bytes(b"\x03Any").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Message);
    // `type` values must be canonical too.
    let err = dynd::from_array_bytes(b"\x04type\x05int8 ").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Message);
}

#[test]
fn no_input_panics_for_a_few_hostile_shapes() {
    let hostile: [&[u8]; 6] = [
        &[],
        &[0xff; 64],
        &[0x80; 64],
        &[
            0x0a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
        ],
        b"\x40var * var * var * var * var * var * var * var * var * var * int8\xff",
        b"\x1ebytes[18446744073709551615]...",
    ];
    for input in hostile {
        // Each is an error whose offset lies inside the input.
        let errors = [
            dynd::from_bytes::<Record>(input).map(drop),
            dynd::from_bytes::<Vec<Vec<Option<String>>>>(input).map(drop),
            dynd::from_array_bytes(input).map(drop),
        ];
        for result in errors {
            let err = result.expect_err("a hostile input decoded");
            let within = err.offset().is_some_and(|at| at <= input.len() as u64);
            assert!(within, "{input:02x?}: {err}");
        }
    }
}

#[test]
fn nested_self_describing_arrays_hit_the_depth_limit() {
    let mut input = Vec::new();
    for _ in 0..300 {
        input.push(0x0a);
        input.extend_from_slice(b"array[Any]");
    }
    input.push(0x04);
    input.extend_from_slice(b"int8");
    input.push(0x05);
    let err = dynd::from_array_bytes(&input).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::DepthLimitExceeded);
    // Ten levels are fine.
    let ten = &input[input.len() - 10 * 11 - 6..];
    let array = dynd::from_array_bytes(ten).unwrap();
    assert_eq!(dynd::to_bytes(&array).unwrap(), ten);
}
