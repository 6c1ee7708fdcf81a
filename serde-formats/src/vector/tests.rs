//! Round trips of every type under every encoding, with and without nulls, compared
//! structurally (encodings included), through both the slice and the stream reader.

use super::vector::{Body, ConstantValue};
use super::*;
use crate::error::ErrorKind;

/// Every scalar type, two decimal widths (short and long); shared with `types`' tests.
pub(super) fn scalar_types() -> Vec<Type> {
    vec![
        Type::Boolean,
        Type::TinyInt,
        Type::SmallInt,
        Type::Integer,
        Type::BigInt,
        Type::Real,
        Type::Double,
        Type::Varchar,
        Type::Varbinary,
        Type::Timestamp,
        Type::HugeInt,
        Type::Date,
        Type::decimal(18, 4).unwrap(),
        Type::decimal(38, 10).unwrap(),
        Type::IntervalDayTime,
        Type::IntervalYearMonth,
        Type::Json,
        Type::Unknown,
    ]
}

fn all_types() -> Vec<Type> {
    let mut types = scalar_types();
    types.push(Type::array(Type::BigInt));
    types.push(Type::array(Type::array(Type::Varchar)));
    types.push(Type::map(Type::Varchar, Type::Double));
    types.push(Type::row([("a", Type::Integer), ("b", Type::Varchar)]));
    types.push(Type::row([
        ("nested", Type::row([("x", Type::Boolean)])),
        ("m", Type::map(Type::BigInt, Type::array(Type::Real))),
    ]));
    types
}

/// A non-null value of `ty` that differs with `seed`.
fn sample(ty: &Type, seed: usize) -> Value {
    let n = seed as i64 * 37 - 50;
    match ty {
        Type::Boolean => Value::Boolean(seed.is_multiple_of(3)),
        Type::TinyInt => Value::TinyInt(n as i8),
        Type::SmallInt => Value::SmallInt((n * 300) as i16),
        Type::Integer => Value::Integer((n * 70_000) as i32),
        Type::BigInt => Value::BigInt(n * 5_000_000_000),
        Type::Real => Value::Real(n as f32 / 3.0),
        Type::Double => Value::Double(n as f64 / 7.0),
        Type::Varchar => Value::Varchar("é".repeat(seed % 9)),
        Type::Varbinary => Value::Varbinary(vec![seed as u8; seed * 3 % 20]),
        Type::Timestamp => Value::Timestamp(Timestamp {
            seconds: n * 86_400,
            nanos: seed as u64 * 1_000,
        }),
        Type::HugeInt => Value::HugeInt(i128::from(n) << 70),
        Type::Date => Value::Date(n as i32 * 400),
        Type::Decimal { precision, scale } => Value::Decimal {
            unscaled: i128::from(n) * 10i128.pow(u32::from(*precision) - 3),
            scale: *scale,
        },
        Type::IntervalDayTime => Value::IntervalDayTime(n * 3_600_123),
        Type::IntervalYearMonth => Value::IntervalYearMonth(n as i32),
        Type::Json => Value::Json(format!("[{n}, \"{}\"]", "x".repeat(seed))),
        Type::Unknown => Value::Null,
        Type::Array(element) => Value::Array(
            (0..seed % 4)
                .map(|i| sample_or_null(element, seed + i))
                .collect(),
        ),
        Type::Map(key, value) => Value::Map(
            (0..seed % 3)
                .map(|i| (sample(key, seed + i), sample_or_null(value, seed * 2 + i)))
                .collect(),
        ),
        Type::Row(fields) => Value::Row(
            fields
                .iter()
                .enumerate()
                .map(|(i, (name, field))| (name.clone(), sample_or_null(field, seed + i)))
                .collect(),
        ),
    }
}

fn sample_or_null(ty: &Type, seed: usize) -> Value {
    if seed % 5 == 4 {
        Value::Null
    } else {
        sample(ty, seed)
    }
}

fn flat(ty: &Type, rows: usize, nulls: bool) -> Vector {
    let values: Vec<Value> = (0..rows)
        .map(|i| {
            if nulls && i % 3 == 1 {
                Value::Null
            } else {
                sample(ty, i)
            }
        })
        .collect();
    Vector::from_values(ty.clone(), &values).unwrap()
}

/// Every encoding over `ty`, with and without nulls.
fn encodings_of(ty: &Type) -> Vec<Vector> {
    let mut out = Vec::new();
    for nulls in [false, true] {
        let base = flat(ty, 6, nulls);
        out.push(base.clone());
        out.push(Vector::constant(base.clone(), 0, 4).unwrap());
        out.push(Vector::constant(base.clone(), 1, 3).unwrap());
        let dict_nulls = nulls.then(|| vec![false, true, false, false, true]);
        out.push(Vector::dictionary(base.clone(), vec![5, 0, 1, 1, 3], dict_nulls).unwrap());
        out.push(Vector::lazy(base.clone()));
        out.push(Vector::lazy(
            Vector::dictionary(Vector::constant(base, 2, 2).unwrap(), vec![1, 0, 0], None).unwrap(),
        ));
    }
    out.push(Vector::constant_value(ty.clone(), &Value::Null, 7).unwrap());
    out.push(Vector::unloaded_lazy(ty.clone(), 5).unwrap());
    out.push(flat(ty, 0, false));
    out
}

fn assert_round_trip(vector: &Vector) {
    let bytes = to_bytes(vector).unwrap();
    let from_slice = from_bytes(&bytes).unwrap_or_else(|e| panic!("{e} for {vector:?}"));
    assert_eq!(&from_slice, vector);
    let from_stream = restore(&bytes[..]).unwrap();
    assert_eq!(&from_stream, vector);
    // Canonical: saving what was restored gives the same bytes.
    assert_eq!(to_bytes(&from_slice).unwrap(), bytes);
    for row in 0..vector.len() {
        match vector.value(row) {
            Ok(value) => assert_eq!(from_slice.value(row).unwrap(), value),
            Err(err) => assert_eq!(err.kind(), ErrorKind::NotLoaded),
        }
    }
}

#[test]
fn every_type_and_encoding_round_trips_structurally() {
    let mut count = 0;
    for ty in all_types() {
        for vector in encodings_of(&ty) {
            assert_round_trip(&vector);
            count += 1;
        }
    }
    assert_eq!(count, all_types().len() * 15);
}

#[test]
fn nested_encodings_inside_complex_children_round_trip() {
    let ints = flat(&Type::Integer, 6, true);
    let words = flat(&Type::Varchar, 4, true);
    let row = Vector::flat_row(
        Type::row([
            ("i", Type::Integer),
            ("w", Type::Varchar),
            ("gone", Type::Double),
        ]),
        3,
        vec![
            Some(Vector::dictionary(ints.clone(), vec![5, 4, 3], None).unwrap()),
            Some(Vector::constant(words.clone(), 0, 3).unwrap()),
            None,
        ],
        Some(vec![false, true, false]),
    )
    .unwrap();
    assert_round_trip(&row);
    let array = Vector::flat_array(
        vec![0, 2, 1],
        vec![2, 0, 3],
        Vector::lazy(Vector::dictionary(words.clone(), vec![3, 2, 1, 0], None).unwrap()),
        Some(vec![false, true, false]),
    )
    .unwrap();
    assert_round_trip(&array);
    // Overlapping ranges and ranges out of order are fine, as in Velox.
    let map = Vector::flat_map(
        vec![1, 0],
        vec![3, 4],
        Vector::constant(ints, 0, 4).unwrap(),
        words,
        None,
    )
    .unwrap();
    assert_round_trip(&map);
    assert_round_trip(&Vector::constant(map, 1, 2).unwrap());
}

#[test]
fn nan_and_negative_zero_round_trip_bit_for_bit() {
    let values = [
        Value::Double(f64::NAN),
        Value::Double(-0.0),
        Value::Double(f64::INFINITY),
    ];
    let v = Vector::from_values(Type::Double, &values).unwrap();
    let back = from_bytes(&to_bytes(&v).unwrap()).unwrap();
    assert_eq!(back, v);
    let Ok(Value::Double(zero)) = back.value(1) else {
        panic!("not a double");
    };
    assert!(zero.is_sign_negative());
}

#[test]
fn null_base_row_makes_a_null_constant() {
    let base = flat(&Type::array(Type::BigInt), 3, true);
    let constant = Vector::constant(base, 1, 4).unwrap();
    assert!(matches!(constant.body, Body::Constant(ConstantValue::Null)));
    assert_eq!(constant.null_count().unwrap(), 4);
}

#[test]
fn restore_reads_one_vector_and_leaves_the_rest_of_the_stream() {
    let v = flat(&Type::Varchar, 3, true);
    let mut bytes = to_bytes(&v).unwrap();
    let len = bytes.len();
    bytes.extend_from_slice(b"tail");
    let mut reader = &bytes[..];
    assert_eq!(restore(&mut reader).unwrap(), v);
    assert_eq!(reader, b"tail");
    let (back, rest) = take_from_bytes(&bytes).unwrap();
    assert_eq!((back, rest), (v, &b"tail"[..]));
    let err = from_bytes(&bytes).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (ErrorKind::TrailingBytes, Some(len as u64))
    );
}

/// A stream that hands out at most 999 bytes per read, so that no buffer arrives whole.
struct Trickle<'a>(&'a [u8]);

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = out.len().min(self.0.len()).min(999);
        out[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

#[test]
fn buffers_larger_than_a_read_piece_restore_from_a_stream() {
    // Strings of 0 to 39 bytes (inline and long, some not ASCII), every seventh row null,
    // beside numbers: tens of KiB per buffer, more than one piece of the stream reader.
    let rows = 5000;
    let text = |row: usize| Value::Varchar("é".repeat(row % 40 / 2) + &"x".repeat(row % 2));
    let strings: Vec<Value> = (0..rows)
        .map(|row| if row % 7 == 3 { Value::Null } else { text(row) })
        .collect();
    let numbers: Vec<Value> = (0..rows as i64).map(Value::BigInt).collect();
    let row_type = Type::row([("s", Type::Varchar), ("n", Type::BigInt)]);
    let children = vec![
        Some(Vector::from_values(Type::Varchar, &strings).unwrap()),
        Some(Vector::from_values(Type::BigInt, &numbers).unwrap()),
    ];
    let v = Vector::flat_row(row_type, rows, children, None).unwrap();
    let bytes = to_bytes(&v).unwrap();
    assert!(bytes.len() > 100_000);
    assert_eq!(restore(Trickle(&bytes)).unwrap(), v);
    assert_eq!(from_bytes(&bytes).unwrap(), v);
    // Cut inside the string buffer: the same error, at the same offset, from both readers.
    let cut = &bytes[..bytes.len() - 50_000];
    let from_stream = restore(Trickle(cut)).unwrap_err();
    let from_slice = from_bytes(cut).unwrap_err();
    assert_eq!(from_stream.kind(), ErrorKind::UnexpectedEnd);
    assert_eq!(
        (from_stream.kind(), from_stream.offset()),
        (from_slice.kind(), from_slice.offset())
    );
}

#[test]
fn every_truncated_prefix_is_an_error_in_both_readers() {
    let v = Vector::dictionary(
        flat(
            &Type::row([("a", Type::array(Type::Varchar)), ("b", Type::Timestamp)]),
            4,
            true,
        ),
        vec![3, 2, 1],
        Some(vec![false, true, false]),
    )
    .unwrap();
    let bytes = to_bytes(&v).unwrap();
    for len in 0..bytes.len() {
        let err = from_bytes(&bytes[..len]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnexpectedEnd, "prefix of {len}");
        let err = restore(&bytes[..len]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnexpectedEnd, "prefix of {len}");
        assert!(err.offset().is_some_and(|at| at <= len as u64));
    }
}

#[test]
fn a_stream_of_known_length_restores_and_cuts_like_a_slice() {
    let rows = 5000;
    let strings: Vec<Value> = (0..rows)
        .map(|row| match row % 5 {
            0 => Value::Null,
            n => Value::Varchar("long string ".repeat(n)),
        })
        .collect();
    let v = Vector::from_values(Type::Varchar, &strings).unwrap();
    let bytes = to_bytes(&v).unwrap();
    let len = bytes.len() as u64;
    assert_eq!(restore_with_len(Trickle(&bytes), len).unwrap(), v);
    // The length is an upper bound: more room than the vector needs is fine.
    assert_eq!(restore_with_len(Trickle(&bytes), len + 100).unwrap(), v);
    // A buffer reaching past the stated length fails before it is read, at the offset the
    // slice reader gives for the same cut.
    for cut in [8, 40, 1_000, bytes.len() / 2, bytes.len() - 1] {
        let from_stream = restore_with_len(Trickle(&bytes[..cut]), cut as u64).unwrap_err();
        let from_slice = from_bytes(&bytes[..cut]).unwrap_err();
        assert_eq!(
            (from_stream.kind(), from_stream.offset()),
            (from_slice.kind(), from_slice.offset()),
            "cut at {cut}"
        );
        // The full stream with a stated length that is too short fails the same way.
        let short = restore_with_len(Trickle(&bytes), cut as u64).unwrap_err();
        assert_eq!(
            (short.kind(), short.offset()),
            (from_slice.kind(), from_slice.offset()),
            "stated length {cut}"
        );
    }
}

#[test]
fn a_huge_claimed_length_past_the_known_length_is_an_error_at_its_offset() {
    // FLAT BIGINT of 1 row, no nulls, values buffer claiming 2^31 - 1 bytes.
    let mut bytes = vec![0, 0, 0, 0];
    let ty = br#"{"name":"Type","type":"BIGINT"}"#;
    bytes.extend_from_slice(&(ty.len() as i32).to_le_bytes());
    bytes.extend_from_slice(ty);
    bytes.extend_from_slice(&1i32.to_le_bytes()); // size
    bytes.push(0); // no nulls buffer
    bytes.push(1); // has values
    let length_at = bytes.len() as u64;
    bytes.extend_from_slice(&i32::MAX.to_le_bytes());
    bytes.extend_from_slice(&[0; 8]);
    let err = restore_with_len(&bytes[..], bytes.len() as u64).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (ErrorKind::UnexpectedEnd, Some(length_at + 4))
    );
    let from_slice = from_bytes(&bytes).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (from_slice.kind(), from_slice.offset())
    );
}

#[test]
fn depth_limit_stops_deep_nesting() {
    let mut v = flat(&Type::BigInt, 1, false);
    for _ in 0..10 {
        v = Vector::lazy(v);
    }
    let bytes = to_bytes(&v).unwrap();
    // 11 nested vectors (types have their own limit, TYPE_DEPTH_LIMIT).
    assert_eq!(restore_with_depth_limit(&bytes[..], 11).unwrap(), v);
    let err = restore_with_depth_limit(&bytes[..], 10).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::DepthLimitExceeded);
}

#[test]
fn save_refuses_what_restore_would_refuse() {
    let mut ty = Type::BigInt;
    for _ in 1..TYPE_DEPTH_LIMIT {
        ty = Type::array(ty);
    }
    let deepest = Vector::from_values(ty.clone(), &[]).unwrap();
    assert_round_trip(&deepest);
    let too_deep = Vector::from_values(Type::array(ty), &[]).unwrap();
    let err = to_bytes(&too_deep).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::DepthLimitExceeded);

    // DECIMAL parameters that `restore` refuses, in a type built without `Type::decimal`.
    for (precision, scale) in [(0, 0), (39, 2), (5, 6), (u8::MAX, 0)] {
        let ty = Type::array(Type::Decimal { precision, scale });
        let v = Vector::from_values(ty, &[]).unwrap();
        assert_eq!(to_bytes(&v).unwrap_err().kind(), ErrorKind::BadType);
    }

    let mut v = flat(&Type::BigInt, 1, false);
    for _ in 1..DEFAULT_DEPTH_LIMIT {
        v = Vector::lazy(v);
    }
    assert_round_trip(&v);
    let err = to_bytes(&Vector::lazy(v)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::DepthLimitExceeded);
}

#[test]
fn scalar_constant_over_a_base_restores_as_a_scalar_constant() {
    // Velox writes is-scalar 0, a base and an index when the value sits in a base vector.
    let base = flat(&Type::Varchar, 3, true);
    let mut bytes = Vec::new();
    bytes.extend_from_slice(&1i32.to_le_bytes());
    let json = Type::Varchar.to_json();
    bytes.extend_from_slice(&(json.len() as i32).to_le_bytes());
    bytes.extend_from_slice(json.as_bytes());
    bytes.extend_from_slice(&5i32.to_le_bytes());
    bytes.extend_from_slice(&[0, 0]);
    let prefix = bytes.clone();
    bytes.extend_from_slice(&to_bytes(&base).unwrap());
    bytes.extend_from_slice(&2i32.to_le_bytes());
    let v = from_bytes(&bytes).unwrap();
    assert_eq!(v, Vector::constant(base.clone(), 2, 5).unwrap());
    assert!(matches!(v.body, Body::Constant(ConstantValue::Scalar(_))));
    // Over a null row: the null constant.
    let mut null_row = prefix.clone();
    null_row.extend_from_slice(&to_bytes(&base).unwrap());
    null_row.extend_from_slice(&1i32.to_le_bytes());
    assert_eq!(from_bytes(&null_row).unwrap().null_count().unwrap(), 5);
    // Over an unloaded lazy vector the base is kept, and saved as it came.
    let mut lazy = prefix;
    lazy.extend_from_slice(&to_bytes(&Vector::unloaded_lazy(Type::Varchar, 3).unwrap()).unwrap());
    lazy.extend_from_slice(&0i32.to_le_bytes());
    let v = from_bytes(&lazy).unwrap();
    assert_eq!(v.value(0).unwrap_err().kind(), ErrorKind::NotLoaded);
    assert_eq!(to_bytes(&v).unwrap(), lazy);
}

#[test]
fn serde_rows_read_velox_types_as_plain_values() {
    let ty = Type::row([
        ("day", Type::Date),
        ("amount", Type::decimal(20, 2).unwrap()),
        ("wait", Type::IntervalDayTime),
        ("term", Type::IntervalYearMonth),
        ("doc", Type::Json),
        ("nothing", Type::Unknown),
    ]);
    let row = Value::Row(vec![
        ("day".into(), Value::Date(18_262)),
        (
            "amount".into(),
            Value::Decimal {
                unscaled: -12_345,
                scale: 2,
            },
        ),
        ("wait".into(), Value::IntervalDayTime(1_500)),
        ("term".into(), Value::IntervalYearMonth(14)),
        ("doc".into(), Value::Json("{\"a\":1}".into())),
        ("nothing".into(), Value::Null),
    ]);
    let v = Vector::from_values(ty, &[row]).unwrap();
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Row {
        day: i32,
        amount: String,
        wait: i64,
        term: i32,
        doc: String,
        nothing: Option<bool>,
    }
    let rows: Vec<Row> = to_rows(&v).unwrap();
    assert_eq!(
        rows,
        [Row {
            day: 18_262,
            amount: "-123.45".into(),
            wait: 1_500,
            term: 14,
            doc: "{\"a\":1}".into(),
            nothing: None,
        }]
    );
    // A decimal value must fit its type.
    let too_wide = Value::Decimal {
        unscaled: 1_000,
        scale: 0,
    };
    let err = Vector::from_values(Type::decimal(3, 0).unwrap(), &[too_wide]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TypeMismatch);
    let wrong_scale = Value::Decimal {
        unscaled: 1,
        scale: 1,
    };
    let err = Vector::from_values(Type::decimal(3, 0).unwrap(), &[wrong_scale]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TypeMismatch);
}
