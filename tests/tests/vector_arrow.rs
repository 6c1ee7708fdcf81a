//! The vector ↔ Arrow bridge (`serde_formats::vector::{to_arrow, from_arrow}`): round trips for
//! every type with nulls, the encodings, the refusals, and both directions against pyarrow +
//! pyvelox 0.2.0 (`tests/interop/velox_arrow.py`), compared through Arrow IPC.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use arrow_array::types::{Int32Type, Int8Type};
use arrow_array::{
    Array, ArrayRef, BinaryViewArray, DictionaryArray, Float64Array, Int32Array, Int64Array,
    LargeBinaryArray, LargeStringArray, RecordBatch, RunArray, StringArray, StringViewArray,
    UInt8Array,
};
use arrow_schema::{DataType, Field, IntervalUnit, Schema, TimeUnit};
use integration_tests::python_peers;
use serde_formats::vector::{
    from_arrow, from_bytes, into_arrow, to_arrow, to_bytes, Encoding, Timestamp, Type, Value,
    Vector,
};
use serde_formats::ErrorKind;

fn text(s: &str) -> Value {
    Value::Varchar(s.to_owned())
}

/// Every scalar type with a null, and the Arrow type it must become (written out here, not
/// asked of the code under test).
fn scalar_cases() -> Vec<(Type, Vec<Value>, DataType)> {
    let dec = |unscaled, scale| Value::Decimal { unscaled, scale };
    vec![
        (
            Type::Boolean,
            vec![Value::Boolean(true), Value::Null, Value::Boolean(false)],
            DataType::Boolean,
        ),
        (
            Type::TinyInt,
            vec![Value::TinyInt(-128), Value::Null, Value::TinyInt(127)],
            DataType::Int8,
        ),
        (
            Type::SmallInt,
            vec![Value::SmallInt(-3), Value::Null],
            DataType::Int16,
        ),
        (
            Type::Integer,
            vec![Value::Null, Value::Integer(i32::MIN)],
            DataType::Int32,
        ),
        (
            Type::BigInt,
            vec![Value::BigInt(i64::MAX), Value::Null],
            DataType::Int64,
        ),
        (
            Type::Real,
            vec![Value::Real(-0.0), Value::Null, Value::Real(f32::NAN)],
            DataType::Float32,
        ),
        (
            Type::Double,
            vec![Value::Double(1e300), Value::Null],
            DataType::Float64,
        ),
        (
            Type::Varchar,
            vec![text("hi"), Value::Null, text("a string longer than twelve")],
            DataType::Utf8,
        ),
        (
            Type::Varbinary,
            vec![Value::Varbinary(vec![0, 255]), Value::Null],
            DataType::Binary,
        ),
        (
            Type::Date,
            vec![Value::Date(-719_162), Value::Null],
            DataType::Date32,
        ),
        (
            Type::Timestamp,
            vec![
                Value::Timestamp(Timestamp {
                    seconds: -1,
                    nanos: 999_999_999,
                }),
                Value::Null,
                Value::Timestamp(Timestamp {
                    seconds: 1_700_000_000,
                    nanos: 5,
                }),
            ],
            DataType::Timestamp(TimeUnit::Nanosecond, None),
        ),
        (
            Type::decimal(10, 2).unwrap(),
            vec![dec(-12345, 2), Value::Null],
            DataType::Decimal128(10, 2),
        ),
        (
            Type::decimal(38, 5).unwrap(),
            vec![dec(-(10i128.pow(37)), 5), Value::Null],
            DataType::Decimal128(38, 5),
        ),
        (
            Type::IntervalDayTime,
            vec![Value::IntervalDayTime(-86_400_001), Value::Null],
            DataType::Duration(TimeUnit::Millisecond),
        ),
        (
            Type::IntervalYearMonth,
            vec![Value::IntervalYearMonth(14), Value::Null],
            DataType::Interval(IntervalUnit::YearMonth),
        ),
        (
            Type::Unknown,
            vec![Value::Null, Value::Null],
            DataType::Null,
        ),
    ]
}

fn complex_cases() -> Vec<(Type, Vec<Value>)> {
    let row_ty = Type::row([("x", Type::BigInt), ("y", Type::Varchar)]);
    vec![
        (
            Type::array(Type::Integer),
            vec![
                Value::Array(vec![Value::Integer(1), Value::Null]),
                Value::Null,
                Value::Array(vec![]),
            ],
        ),
        (
            Type::map(Type::Varchar, Type::Double),
            vec![
                Value::Map(vec![
                    (text("a"), Value::Double(1.0)),
                    (text("b"), Value::Null),
                ]),
                Value::Null,
                Value::Map(vec![]),
            ],
        ),
        (
            row_ty.clone(),
            vec![
                Value::Row(vec![
                    ("x".into(), Value::BigInt(1)),
                    ("y".into(), text("one")),
                ]),
                Value::Null,
                Value::Row(vec![("x".into(), Value::Null), ("y".into(), Value::Null)]),
            ],
        ),
        (
            Type::array(row_ty),
            vec![
                Value::Array(vec![
                    Value::Null,
                    Value::Row(vec![
                        ("x".into(), Value::BigInt(2)),
                        ("y".into(), Value::Null),
                    ]),
                ]),
                Value::Null,
            ],
        ),
        (
            Type::row([("a", Type::array(Type::array(Type::Boolean)))]),
            vec![Value::Row(vec![(
                "a".into(),
                Value::Array(vec![Value::Null, Value::Array(vec![Value::Boolean(true)])]),
            )])],
        ),
    ]
}

#[test]
fn every_scalar_type_round_trips_with_nulls() {
    for (ty, values, arrow) in scalar_cases() {
        let vector = Vector::from_values(ty.clone(), &values).unwrap();
        let array = to_arrow(&vector).unwrap_or_else(|e| panic!("{ty}: {e}"));
        assert_eq!(array.data_type(), &arrow, "{ty}");
        assert_eq!(array.len(), values.len(), "{ty}");
        let nulls = values.iter().filter(|v| v.is_null()).count();
        assert_eq!(array.logical_null_count(), nulls, "{ty}");
        assert_eq!(from_arrow(array.as_ref()).unwrap(), vector, "{ty}");
        assert_eq!(&into_arrow(vector).unwrap(), &array, "{ty}: into_arrow");
    }
}

#[test]
fn nested_types_round_trip_with_nulls_at_every_level() {
    for (ty, values) in complex_cases() {
        let vector = Vector::from_values(ty.clone(), &values).unwrap();
        let array = to_arrow(&vector).unwrap_or_else(|e| panic!("{ty}: {e}"));
        assert_eq!(
            &into_arrow(vector.clone()).unwrap(),
            &array,
            "{ty}: into_arrow"
        );
        let back = from_arrow(array.as_ref()).unwrap();
        assert_eq!(back.ty(), &ty);
        for (row, value) in values.iter().enumerate() {
            assert_eq!(&back.value(row).unwrap(), value, "{ty} row {row}");
        }
        assert_eq!(array.null_count(), vector.null_count().unwrap(), "{ty}");
    }
}

#[test]
fn arrow_values_are_the_vector_values() {
    let vector = Vector::from_values(
        Type::BigInt,
        &[Value::BigInt(5), Value::Null, Value::BigInt(-1)],
    )
    .unwrap();
    let expected: ArrayRef = Arc::new(Int64Array::from(vec![Some(5), None, Some(-1)]));
    assert_eq!(&to_arrow(&vector).unwrap(), &expected);
    // Bitmaps over several bytes, with a length that is not a multiple of 8.
    let long: Vec<Option<i32>> = (0..101).map(|i| (i % 3 != 0).then_some(i)).collect();
    let values: Vec<Value> = long
        .iter()
        .map(|v| v.map_or(Value::Null, Value::Integer))
        .collect();
    let vector = Vector::from_values(Type::Integer, &values).unwrap();
    let expected: ArrayRef = Arc::new(Int32Array::from(long));
    assert_eq!(&to_arrow(&vector).unwrap(), &expected);
    assert_eq!(from_arrow(expected.as_ref()).unwrap(), vector);
    let flags: Vec<Option<bool>> = (0..13)
        .map(|i| (i % 4 != 1).then_some(i % 2 == 0))
        .collect();
    let values: Vec<Value> = flags
        .iter()
        .map(|v| v.map_or(Value::Null, Value::Boolean))
        .collect();
    let vector = Vector::from_values(Type::Boolean, &values).unwrap();
    let expected: ArrayRef = Arc::new(arrow_array::BooleanArray::from(flags));
    assert_eq!(&to_arrow(&vector).unwrap(), &expected);
    let strings =
        Vector::from_values(Type::Json, &[Value::Json("[1]".into()), Value::Null]).unwrap();
    let expected: ArrayRef = Arc::new(StringArray::from(vec![Some("[1]"), None]));
    let array = to_arrow(&strings).unwrap();
    assert_eq!(&array, &expected);
    // JSON has no Arrow type of its own: it comes back as VARCHAR, same text.
    let back = from_arrow(array.as_ref()).unwrap();
    assert_eq!(back.ty(), &Type::Varchar);
    assert_eq!(back.value(0).unwrap(), text("[1]"));
}

#[test]
fn dictionary_over_flat_becomes_a_dictionary_array_and_back() {
    let base = Vector::from_values(Type::Varchar, &[text("a"), Value::Null, text("c")]).unwrap();
    let dict = Vector::dictionary(
        base,
        vec![2, 0, 1, 0],
        Some(vec![false, false, false, true]),
    )
    .unwrap();
    let array = to_arrow(&dict).unwrap();
    let expected = DictionaryArray::<Int32Type>::try_new(
        Int32Array::from(vec![Some(2), Some(0), Some(1), None]),
        Arc::new(StringArray::from(vec![Some("a"), None, Some("c")])),
    )
    .unwrap();
    assert_eq!(array.as_ref(), &expected as &dyn Array);
    let back = from_arrow(array.as_ref()).unwrap();
    assert_eq!(back, dict);
    assert_eq!(back.encoding(), Encoding::Dictionary);
    // Every row null over an empty base.
    let empty = Vector::from_values(Type::BigInt, &[]).unwrap();
    let dict = Vector::dictionary(empty, vec![0, 0], Some(vec![true, true])).unwrap();
    let array = to_arrow(&dict).unwrap();
    assert_eq!(array.logical_null_count(), 2);
    assert_eq!(from_arrow(array.as_ref()).unwrap(), dict);
}

#[test]
fn other_encodings_are_expanded_or_unwrapped() {
    let base = Vector::from_values(
        Type::array(Type::BigInt),
        &[Value::Array(vec![Value::BigInt(7)])],
    )
    .unwrap();
    // A dictionary over a complex base is expanded.
    let dict = Vector::dictionary(base.clone(), vec![0, 0], None).unwrap();
    let array = to_arrow(&dict).unwrap();
    assert!(matches!(array.data_type(), DataType::List(_)));
    assert_eq!(array.len(), 2);
    // A constant is one run of a run-end encoded array, and comes back a constant.
    let constant = Vector::constant_value(Type::Double, &Value::Double(2.5), 3).unwrap();
    let array = to_arrow(&constant).unwrap();
    let expected =
        RunArray::<Int32Type>::try_new(&Int32Array::from(vec![3]), &Float64Array::from(vec![2.5]))
            .unwrap();
    assert_eq!(array.as_ref(), &expected as &dyn Array);
    let back = from_arrow(array.as_ref()).unwrap();
    assert_eq!(back, constant);
    let null_constant = Vector::constant_value(Type::Varchar, &Value::Null, 2).unwrap();
    let array = to_arrow(&null_constant).unwrap();
    assert_eq!(array.logical_null_count(), 2);
    assert_eq!(from_arrow(array.as_ref()).unwrap(), null_constant);
    // A constant of no rows is a run array with no runs, read back as an empty FLAT vector.
    let empty = Vector::constant_value(Type::BigInt, &Value::BigInt(1), 0).unwrap();
    let array = to_arrow(&empty).unwrap();
    assert!(matches!(array.data_type(), DataType::RunEndEncoded(..)));
    assert_eq!(array.len(), 0);
    assert_eq!(from_arrow(array.as_ref()).unwrap().len(), 0);
    let complex = Vector::constant(base.clone(), 0, 4).unwrap();
    let back = from_arrow(to_arrow(&complex).unwrap().as_ref()).unwrap();
    assert_eq!(back.encoding(), Encoding::Constant);
    assert_eq!(back.value(3).unwrap(), complex.value(3).unwrap());
    // A lazy vector is its loaded vector; an unloaded one cannot be converted.
    let lazy = Vector::lazy(base.clone());
    assert_eq!(from_arrow(to_arrow(&lazy).unwrap().as_ref()).unwrap(), base);
    let unloaded = Vector::unloaded_lazy(Type::BigInt, 2).unwrap();
    assert_eq!(
        to_arrow(&unloaded).unwrap_err().kind(),
        ErrorKind::NotLoaded
    );
    // A ROW with an absent child: that field reads null in every row.
    let row = Vector::flat_row(Type::row([("a", Type::Date)]), 2, vec![None], None).unwrap();
    let array = to_arrow(&row).unwrap();
    let back = from_arrow(array.as_ref()).unwrap();
    assert_eq!(back.value(1).unwrap(), row.value(1).unwrap());
}

#[test]
fn refusals_are_one_clear_error() {
    let huge = Vector::from_values(Type::HugeInt, &[Value::HugeInt(1)]).unwrap();
    let err = to_arrow(&huge).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported);
    assert!(err.to_string().contains("HUGEINT"), "{err}");
    let far = Vector::from_values(
        Type::Timestamp,
        &[Value::Timestamp(Timestamp {
            seconds: 10_000_000_000,
            nanos: 0,
        })],
    )
    .unwrap();
    let err = to_arrow(&far).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported);
    assert!(err.to_string().contains("Timestamp(Nanosecond)"), "{err}");
    let null_key = Vector::from_values(
        Type::map(Type::BigInt, Type::BigInt),
        &[Value::Map(vec![(Value::Null, Value::BigInt(1))])],
    )
    .unwrap();
    let err = to_arrow(&null_key).unwrap_err();
    assert!(err.to_string().contains("null MAP key"), "{err}");
    let mut deep = DataType::Int64;
    for _ in 0..40 {
        deep = DataType::List(Arc::new(Field::new("item", deep, true)));
    }
    let err = serde_formats::vector::type_from_arrow(&deep).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::DepthLimitExceeded);
    let err = from_arrow(&UInt8Array::from(vec![1u8])).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported);
    assert!(err.to_string().contains("UInt8"), "{err}");
}

#[test]
fn other_arrow_layouts_are_read() {
    let varchar = Vector::from_values(Type::Varchar, &[text("x"), Value::Null]).unwrap();
    let large = LargeStringArray::from(vec![Some("x"), None]);
    assert_eq!(from_arrow(&large).unwrap(), varchar);
    let view = StringViewArray::from(vec![Some("x"), None]);
    assert_eq!(from_arrow(&view).unwrap(), varchar);
    let binary = Vector::from_values(Type::Varbinary, &[Value::Varbinary(b"x".to_vec())]).unwrap();
    assert_eq!(
        from_arrow(&LargeBinaryArray::from(vec![&b"x"[..]])).unwrap(),
        binary
    );
    assert_eq!(
        from_arrow(&BinaryViewArray::from(vec![&b"x"[..]])).unwrap(),
        binary
    );
    // One run: a CONSTANT. Several: expanded.
    let one_run = RunArray::<Int32Type>::try_new(
        &Int32Array::from(vec![4]),
        &Int64Array::from(vec![Some(9)]),
    )
    .unwrap();
    let vector = from_arrow(&one_run).unwrap();
    assert_eq!(vector.encoding(), Encoding::Constant);
    assert_eq!(
        (vector.len(), vector.value(3).unwrap()),
        (4, Value::BigInt(9))
    );
    let runs = RunArray::<Int32Type>::try_new(
        &Int32Array::from(vec![1, 3]),
        &Int64Array::from(vec![Some(1), None]),
    )
    .unwrap();
    let vector = from_arrow(&runs).unwrap();
    assert_eq!(vector.encoding(), Encoding::Flat);
    let values: Vec<Value> = (0..3).map(|r| vector.value(r).unwrap()).collect();
    assert_eq!(values, [Value::BigInt(1), Value::Null, Value::Null]);
    // Dictionary keys of another width; a negative key is refused.
    let dict = DictionaryArray::<Int8Type>::try_new(
        vec![1i8, 0].into(),
        Arc::new(Int64Array::from(vec![10, 20])),
    )
    .unwrap();
    let vector = from_arrow(&dict).unwrap();
    assert_eq!(vector.value(0).unwrap(), Value::BigInt(20));
    // Values under nulls are whatever Arrow holds there: the vector has zeros.
    let garbage = Int64Array::new(vec![1, 99, 3].into(), Some(vec![true, false, true].into()));
    let clean = Vector::from_values(
        Type::BigInt,
        &[Value::BigInt(1), Value::Null, Value::BigInt(3)],
    )
    .unwrap();
    assert_eq!(from_arrow(&garbage).unwrap(), clean);
    assert_eq!(
        from_arrow(&garbage.slice(1, 2)).unwrap().value(1).unwrap(),
        Value::BigInt(3)
    );
    let sliced = Int64Array::from(vec![1, 2, 3]).slice(1, 2);
    assert_eq!(
        from_arrow(&sliced).unwrap().value(0).unwrap(),
        Value::BigInt(2)
    );
}

fn write_ipc(path: &Path, array: ArrayRef) {
    let schema = Arc::new(Schema::new(vec![Field::new(
        "v",
        array.data_type().clone(),
        true,
    )]));
    let batch = RecordBatch::try_new(schema.clone(), vec![array]).unwrap();
    let file = std::fs::File::create(path).unwrap();
    let mut writer = arrow_ipc::writer::FileWriter::try_new(file, &schema).unwrap();
    writer.write(&batch).unwrap();
    writer.finish().unwrap();
}

fn all_ok(out: &[u8], expected_cases: usize) {
    let result: BTreeMap<String, String> = serde_json::from_slice(out)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(out)));
    let bad: Vec<_> = result.iter().filter(|(_, r)| *r != "ok").collect();
    assert!(bad.is_empty(), "differences: {bad:#?}");
    assert_eq!(result.len(), expected_cases);
}

#[test]
fn arrays_from_pyarrow_saved_by_velox_come_back_equal() {
    let dir = tempfile::tempdir().unwrap();
    let out = python_peers::run_script("velox_arrow.py", [Path::new("generate"), dir.path()]);
    let names: Vec<String> = serde_json::from_slice(&out).unwrap();
    assert!(names.len() >= 20, "{names:?}");
    for name in &names {
        let bytes = std::fs::read(dir.path().join(format!("{name}.velox"))).unwrap();
        let vector = from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let array = to_arrow(&vector).unwrap_or_else(|e| panic!("{name}: {e}"));
        write_ipc(&dir.path().join(format!("{name}.ours.arrow")), array);
    }
    let out = python_peers::run_script("velox_arrow.py", [Path::new("check"), dir.path()]);
    all_ok(&out, names.len());
}

#[test]
fn our_arrow_equals_velox_export_of_our_files() {
    let mut vectors: Vec<(String, Vector)> = Vec::new();
    for (ty, values, _) in scalar_cases() {
        // pyvelox 0.2.0's export_to_arrow has no Arrow type for UNKNOWN and the INTERVAL types.
        if matches!(
            ty,
            Type::Unknown | Type::IntervalDayTime | Type::IntervalYearMonth
        ) {
            continue;
        }
        let name = format!(
            "flat_{}",
            ty.to_string().replace(|c: char| !c.is_alphanumeric(), "_")
        );
        vectors.push((name, Vector::from_values(ty, &values).unwrap()));
    }
    for (i, (ty, values)) in complex_cases().into_iter().enumerate() {
        vectors.push((
            format!("complex_{i}"),
            Vector::from_values(ty, &values).unwrap(),
        ));
    }
    let base = Vector::from_values(
        Type::Varchar,
        &[text("a"), Value::Null, text("a long string, over 12")],
    )
    .unwrap();
    vectors.push((
        "dictionary_varchar".into(),
        Vector::dictionary(
            base,
            vec![2, 0, 1, 0],
            Some(vec![false, false, false, true]),
        )
        .unwrap(),
    ));
    vectors.push((
        "constant_bigint".into(),
        Vector::constant_value(Type::BigInt, &Value::BigInt(9), 3).unwrap(),
    ));
    vectors.push((
        "null_constant_varchar".into(),
        Vector::constant_value(Type::Varchar, &Value::Null, 2).unwrap(),
    ));
    let array_base = Vector::from_values(
        Type::array(Type::Integer),
        &[
            Value::Null,
            Value::Array(vec![Value::Integer(4), Value::Null]),
        ],
    )
    .unwrap();
    vectors.push((
        "constant_array".into(),
        Vector::constant(array_base, 1, 3).unwrap(),
    ));
    let dir = tempfile::tempdir().unwrap();
    for (name, vector) in &vectors {
        std::fs::write(
            dir.path().join(format!("{name}.built")),
            to_bytes(vector).unwrap(),
        )
        .unwrap();
        write_ipc(
            &dir.path().join(format!("{name}.arrow")),
            to_arrow(vector).unwrap_or_else(|e| panic!("{name}: {e}")),
        );
    }
    let out = python_peers::run_script("velox_arrow.py", [Path::new("check-built"), dir.path()]);
    all_ok(&out, vectors.len());
}

mod random {
    use super::*;
    use proptest::prelude::*;

    /// Values of `MAP<VARCHAR, ARRAY<ROW<a: BIGINT, b: VARBINARY>>>` with nulls at every level.
    fn nested() -> impl Strategy<Value = Value> {
        let row = (
            proptest::option::of(any::<i64>()),
            proptest::option::of(proptest::collection::vec(any::<u8>(), 0..20)),
        )
            .prop_map(|(a, b)| {
                Value::Row(vec![
                    ("a".into(), a.map_or(Value::Null, Value::BigInt)),
                    ("b".into(), b.map_or(Value::Null, Value::Varbinary)),
                ])
            });
        let row = prop_oneof![1 => Just(Value::Null), 4 => row];
        let array = proptest::collection::vec(row, 0..4).prop_map(Value::Array);
        let array = prop_oneof![1 => Just(Value::Null), 4 => array];
        let map = proptest::collection::vec(("[a-z]{0,16}", array), 0..4).prop_map(|entries| {
            Value::Map(
                entries
                    .into_iter()
                    .map(|(k, v)| (Value::Varchar(k), v))
                    .collect(),
            )
        });
        prop_oneof![1 => Just(Value::Null), 4 => map]
    }

    fn nested_type() -> Type {
        Type::map(
            Type::Varchar,
            Type::array(Type::row([("a", Type::BigInt), ("b", Type::Varbinary)])),
        )
    }

    proptest! {
        #[test]
        fn nested_values_round_trip(values in proptest::collection::vec(nested(), 0..12)) {
            let vector = Vector::from_values(nested_type(), &values).unwrap();
            let array = to_arrow(&vector).unwrap();
            prop_assert_eq!(array.len(), values.len());
            let back = from_arrow(array.as_ref()).unwrap();
            for (row, value) in values.iter().enumerate() {
                prop_assert_eq!(&back.value(row).unwrap(), value);
            }
        }

        #[test]
        fn doubles_round_trip_bit_for_bit(values in proptest::collection::vec(
            proptest::option::of(any::<u64>()), 0..70)) {
            let values: Vec<Value> = values
                .iter()
                .map(|v| v.map_or(Value::Null, |bits| Value::Double(f64::from_bits(bits))))
                .collect();
            let vector = Vector::from_values(Type::Double, &values).unwrap();
            let back = from_arrow(to_arrow(&vector).unwrap().as_ref()).unwrap();
            prop_assert_eq!(back, vector);
        }
    }
}
