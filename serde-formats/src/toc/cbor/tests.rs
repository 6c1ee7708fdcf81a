//! Tests of the CBOR reading primitives, on encodings from RFC 8949 (Appendix A) and
//! hand-built malformed items.

use super::*;
use crate::toc::Value;

/// Transcodes and decodes as a `Value`.
fn value(bytes: &[u8]) -> Result<Value> {
    let mut out = Vec::new();
    transcode(bytes, 100, 128, &mut out)?;
    crate::toc::de::from_slice(&out, 0, 128)
}

fn hex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn rfc8949_appendix_a_examples() {
    // Encodings from RFC 8949, Appendix A.
    let cases: Vec<(&str, Value)> = vec![
        ("00", Value::UInt(0)),
        ("17", Value::UInt(23)),
        ("1818", Value::UInt(24)),
        ("1903e8", Value::UInt(1000)),
        ("1b000000e8d4a51000", Value::UInt(1_000_000_000_000)),
        ("1bffffffffffffffff", Value::UInt(u64::MAX)),
        ("20", Value::Int(-1)),
        ("3903e7", Value::Int(-1000)),
        ("f90000", Value::F64(0.0)),
        ("f98000", Value::F64(-0.0)),
        ("f93c00", Value::F64(1.0)),
        ("fb3ff199999999999a", Value::F64(1.1)),
        ("f93e00", Value::F64(1.5)),
        ("f97bff", Value::F64(65504.0)),
        ("fa47c35000", Value::F32(100000.0)),
        ("fa7f7fffff", Value::F32(f32::MAX)),
        ("f90001", Value::F64(5.960464477539063e-8)),
        ("f97c00", Value::F64(f64::INFINITY)),
        ("f9fc00", Value::F64(f64::NEG_INFINITY)),
        ("f4", Value::Bool(false)),
        ("f5", Value::Bool(true)),
        ("f6", Value::Nil),
        ("40", Value::Bin(vec![])),
        ("4401020304", Value::Bin(vec![1, 2, 3, 4])),
        ("60", Value::from("")),
        ("6449455446", Value::from("IETF")),
        ("62c3bc", Value::from("ü")),
        ("80", Value::Array(vec![])),
        (
            "83010203",
            Value::Array(vec![Value::UInt(1), Value::UInt(2), Value::UInt(3)]),
        ),
        ("a0", Value::Map(vec![])),
        (
            "a201020304",
            Value::Map(vec![
                (Value::UInt(1), Value::UInt(2)),
                (Value::UInt(3), Value::UInt(4)),
            ]),
        ),
        ("5f42010243030405ff", Value::Bin(vec![1, 2, 3, 4, 5])),
        ("7f657374726561646d696e67ff", Value::from("streaming")),
        ("9fff", Value::Array(vec![])),
        (
            "9f018202039f0405ffff",
            Value::Array(vec![
                Value::UInt(1),
                Value::Array(vec![Value::UInt(2), Value::UInt(3)]),
                Value::Array(vec![Value::UInt(4), Value::UInt(5)]),
            ]),
        ),
        (
            "bf61610161629f0203ffff",
            Value::Map(vec![
                (Value::from("a"), Value::UInt(1)),
                (
                    Value::from("b"),
                    Value::Array(vec![Value::UInt(2), Value::UInt(3)]),
                ),
            ]),
        ),
        (
            "d9d9f7820102",
            Value::Array(vec![Value::UInt(1), Value::UInt(2)]),
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(value(&hex(text)).unwrap(), expected, "{text}");
    }
    // A NaN half float is a float64 NaN (Python's float('nan')).
    let Value::F64(nan) = value(&hex("f97e00")).unwrap() else {
        panic!("not a float")
    };
    assert!(nan.is_nan());
}

#[test]
fn bignums_fit_or_are_refused() {
    // RFC 8949 Appendix A: 18446744073709551616 and -18446744073709551617.
    for text in ["c249010000000000000000", "c349010000000000000000"] {
        let err = value(&hex(text)).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Unsupported, "{text}");
        assert_eq!(err.offset(), Some(100));
    }
    assert_eq!(value(&hex("c2420100")).unwrap(), Value::UInt(256));
    assert_eq!(value(&hex("c3420100")).unwrap(), Value::Int(-257));
    assert_eq!(value(&hex("c240")).unwrap(), Value::UInt(0));
    // -2^64 is a plain negative integer beyond i64.
    let err = value(&hex("3bffffffffffffffff")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported);
}

#[test]
fn refusals_name_their_offset() {
    let cases: &[(&str, ErrorKind, u64)] = &[
        ("82 01 c1 1a514b67b0", ErrorKind::Unsupported, 102), // tag 1 (epoch time)
        ("81 f7", ErrorKind::Unsupported, 101),               // undefined
        ("81 f0", ErrorKind::Unsupported, 101),               // simple(16)
        ("81 f810", ErrorKind::BadCbor, 101),                 // two-byte simple below 32
        ("81 ff", ErrorKind::BadCbor, 101),                   // stray break
        ("81 1c", ErrorKind::BadCbor, 101),                   // reserved additional info
        ("82 01", ErrorKind::LengthPastEnd, 100),             // count past the end
        ("a1 01", ErrorKind::LengthPastEnd, 100),
        ("9f 01", ErrorKind::UnexpectedEnd, 102), // no break
        ("bf 01 ff", ErrorKind::BadCbor, 100),    // key without value
        ("62 c3", ErrorKind::UnexpectedEnd, 100),
        ("62 c328", ErrorKind::InvalidUtf8, 100),
        ("7f 41 00 ff", ErrorKind::BadCbor, 100), // bytes chunk in text
        ("01 02", ErrorKind::TrailingBytes, 101),
        ("c2 01", ErrorKind::BadCbor, 101), // bignum of an integer
    ];
    for (text, kind, offset) in cases {
        let bytes = hex(&text.replace(' ', ""));
        let err = value(&bytes).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (*kind, Some(*offset)),
            "{text}: {err}"
        );
    }
}

#[test]
fn depth_is_limited_for_every_kind_of_nesting() {
    for unit in ["81", "9f", "a1 01", "d9d9f7"] {
        let bytes = hex(&unit.replace(' ', "").repeat(200));
        let err = value(&bytes).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::DepthLimitExceeded, "{unit}");
        assert!(err.to_string().contains("depth limit 128"), "{err}");
    }
    // Skipping tolerates deep definite nesting but bounds open indefinite containers.
    let deep_definite = [vec![0x81; 10_000], vec![0x00]].concat();
    Cursor::at(&deep_definite, 0, 0, 128).skip_value().unwrap();
    let deep_indefinite = [vec![0x9f; 200], vec![0xff; 200]].concat();
    let err = Cursor::at(&deep_indefinite, 0, 0, 128)
        .skip_value()
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::DepthLimitExceeded);
    assert!(err.to_string().contains("depth limit 128"), "{err}");
    let shallow = [vec![0x9f; 100], vec![0xff; 100]].concat();
    let mut cur = Cursor::at(&shallow, 0, 0, 128);
    cur.skip_value().unwrap();
    assert!(cur.is_empty());
}

#[test]
fn heads_count_indefinite_containers() {
    // [_ 1, [2, 3], "x"] then 7
    let bytes = hex("9f01820203617 8ff07".replace(' ', "").as_str());
    let mut cur = Cursor::at(&bytes, 0, 0, 128);
    assert_eq!(cur.head().unwrap(), Item::Array(3));
    assert_eq!(cur.pos(), 1);
    cur.set_pos(0);
    cur.skip_value().unwrap();
    assert_eq!(cur.head().unwrap(), Item::UInt(7));
    // {_ "a": 1} and a text head
    let bytes = hex("bf616101ff");
    let mut cur = Cursor::at(&bytes, 0, 0, 128);
    assert_eq!(cur.head().unwrap(), Item::Map(1));
    assert_eq!(cur.head().unwrap(), Item::Str(1));
    assert_eq!(cur.take(1).unwrap(), b"a");
    // Items a path cannot name are skipped whole.
    let bytes = hex("c1 1a514b67b0 05".replace(' ', "").as_str());
    let mut cur = Cursor::at(&bytes, 0, 0, 128);
    assert_eq!(cur.head().unwrap(), Item::Other);
    assert_eq!(cur.head().unwrap(), Item::UInt(5));
}

#[test]
fn skip_rejects_every_truncation() {
    let bytes = hex("a26161829f0102ff62787962 6263f97e00"
        .replace(' ', "")
        .as_str());
    let mut cur = Cursor::at(&bytes, 0, 0, 128);
    cur.skip_value().unwrap();
    assert!(cur.is_empty());
    for len in 0..bytes.len() {
        assert!(
            Cursor::at(&bytes[..len], 0, 0, 128).skip_value().is_err(),
            "{len}"
        );
    }
}

/// The CBOR header field of docs/spec/toc-msgpack.md §5.1.
#[test]
fn header_fields_are_left_aligned() {
    // From a msglc file: toc_start 18045 is `19 46 7d` then zeros.
    let mut field = [0u8; 10];
    field[..3].copy_from_slice(&[0x19, 0x46, 0x7d]);
    assert_eq!(decode_header_field(&field, 30).unwrap(), 18045);
    assert_eq!(decode_header_field(&[0; 10], 30).unwrap(), 0);
    field[9] = 1;
    let err = decode_header_field(&field, 30).unwrap_err();
    assert_eq!((err.kind(), err.offset()), (ErrorKind::BadToc, Some(39)));
    let err = decode_header_field(&[0x61, b'x', 0, 0, 0, 0, 0, 0, 0, 0], 40).unwrap_err();
    assert_eq!((err.kind(), err.offset()), (ErrorKind::BadToc, Some(40)));
}

#[test]
fn source_offsets_point_at_the_cbor_item() {
    // [1, "ab", 2.5]: the MessagePack is 93 01 a2 61 62 cb ..; byte 5 is the float.
    let bytes = hex("830162616 2f94100".replace(' ', "").as_str());
    assert_eq!(source_offset(&bytes, 50, 128, 0), 50);
    assert_eq!(source_offset(&bytes, 50, 128, 2), 52);
    assert_eq!(source_offset(&bytes, 50, 128, 5), 55);
    assert_eq!(source_offset(&bytes, 50, 128, 7), 55);
}
