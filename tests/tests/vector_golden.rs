//! Golden files of the vector format written by Velox itself (pyvelox 0.2.0's `save_vector`; see
//! `tests/golden/vector/PROVENANCE.md`), the worked examples of `docs/spec/vector-saver.md` §5:
//! each restores, through the slice and the stream reader, to the type, encoding and values written
//! here by hand, and what we save of it restores to the same vector.

use serde_formats::vector::{
    from_bytes, restore, to_bytes, Encoding, Timestamp, Type, Value, Vector,
};

use integration_tests::hex::parse as golden;

/// Restores `file` both ways and checks type, encoding and every row's value; then checks that
/// our canonical bytes of it restore to the same vector. Returns the vector.
fn check(file: &str, ty: Type, encoding: Encoding, values: &[Value]) -> Vector {
    let bytes = golden(file);
    let vector = from_bytes(&bytes).unwrap_or_else(|err| panic!("{err}"));
    assert_eq!(restore(&bytes[..]).unwrap(), vector, "stream reader");
    assert_eq!(vector.ty(), &ty);
    assert_eq!(vector.encoding(), encoding);
    assert_eq!(vector.len(), values.len());
    for (row, value) in values.iter().enumerate() {
        assert_eq!(&vector.value(row).unwrap(), value, "row {row}");
    }
    let ours = to_bytes(&vector).unwrap();
    assert_eq!(from_bytes(&ours).unwrap(), vector, "saved and restored");
    vector
}

fn text(s: &str) -> Value {
    Value::Varchar(s.to_owned())
}

fn bigint(v: i64) -> Value {
    Value::BigInt(v)
}

/// docs/spec/vector-saver.md §5.1.
#[test]
fn flat_bigint_with_nulls() {
    let v = check(
        include_str!("../golden/vector/flat_bigint_nulls.hex"),
        Type::BigInt,
        Encoding::Flat,
        &[bigint(1), Value::Null, bigint(3), bigint(-4)],
    );
    let expected = Vector::from_values(
        Type::BigInt,
        &[bigint(1), Value::Null, bigint(3), bigint(-4)],
    );
    assert_eq!(v, expected.unwrap());
}

/// docs/spec/vector-saver.md §5.2.
#[test]
fn flat_boolean_packs_bits() {
    let values: Vec<Value> = [1, 2, 0, 1, 1, 0, 1, 0, 1]
        .iter()
        .map(|&b| match b {
            2 => Value::Null,
            b => Value::Boolean(b == 1),
        })
        .collect();
    check(
        include_str!("../golden/vector/flat_boolean.hex"),
        Type::Boolean,
        Encoding::Flat,
        &values,
    );
}

/// docs/spec/vector-saver.md §5.4.
#[test]
fn flat_varchar_with_inline_and_long_strings() {
    let values = [
        text("short"),
        Value::Null,
        text("exactly 12 b"),
        text("longer than twelve"),
        text(""),
        text("thirteen byte"),
    ];
    let v = check(
        include_str!("../golden/vector/flat_varchar_inline_and_long.hex"),
        Type::Varchar,
        Encoding::Flat,
        &values,
    );
    assert_eq!(v, Vector::from_values(Type::Varchar, &values).unwrap());
}

/// docs/spec/vector-saver.md §4.1 and §3.4 (string views).
#[test]
fn flat_varbinary() {
    check(
        include_str!("../golden/vector/flat_varbinary.hex"),
        Type::Varbinary,
        Encoding::Flat,
        &[
            Value::Varbinary(vec![0, 0xff]),
            Value::Null,
            Value::Varbinary((0..14).collect()),
        ],
    );
}

/// docs/spec/vector-saver.md §5.3.
#[test]
fn flat_timestamp_is_seconds_and_nanos() {
    check(
        include_str!("../golden/vector/flat_timestamp.hex"),
        Type::Timestamp,
        Encoding::Flat,
        &[
            Value::Timestamp(Timestamp {
                seconds: -2,
                nanos: 500_000_000,
            }),
            Value::Null,
            Value::Timestamp(Timestamp {
                seconds: 1,
                nanos: 1_000,
            }),
        ],
    );
}

/// docs/spec/vector-saver.md §3.2 and §3.3 (DATE).
#[test]
fn flat_date() {
    let v = check(
        include_str!("../golden/vector/flat_date.hex"),
        Type::Date,
        Encoding::Flat,
        &[
            Value::Date(0),
            Value::Null,
            Value::Date(18_262),
            Value::Date(-1),
        ],
    );
    assert_eq!(
        v.to_string(),
        "[FLAT DATE: 4 elements, 1 nulls]\n0: 1970-01-01\n1: null\n2: 2020-01-01\n3: 1969-12-31"
    );
}

/// docs/spec/vector-saver.md §3.2 and §3.3 (DECIMAL).
#[test]
fn flat_short_and_long_decimals() {
    let dec = |unscaled: i128, scale: u8| Value::Decimal { unscaled, scale };
    let v = check(
        include_str!("../golden/vector/flat_decimal_short.hex"),
        Type::decimal(10, 2).unwrap(),
        Encoding::Flat,
        &[dec(123, 2), Value::Null, dec(-9_999_999_999, 2)],
    );
    assert_eq!(
        v.to_string(),
        "[FLAT DECIMAL(10, 2): 3 elements, 1 nulls]\n0: 1.23\n1: null\n2: -99999999.99"
    );
    check(
        include_str!("../golden/vector/flat_decimal_long.hex"),
        Type::decimal(38, 5).unwrap(),
        Encoding::Flat,
        &[
            dec(-100_000, 5),
            dec(12_345_678_901_234_567_890_123_456_789_012_345, 5),
        ],
    );
}

/// docs/spec/vector-saver.md §5.7 and §5.8 (rules §4.4).
#[test]
fn constants() {
    let v = check(
        include_str!("../golden/vector/constant_integer.hex"),
        Type::Integer,
        Encoding::Constant,
        &vec![Value::Integer(42); 5],
    );
    assert_eq!(
        v,
        Vector::constant_value(Type::Integer, &Value::Integer(42), 5).unwrap()
    );
    let long = text("a string longer than twelve");
    check(
        include_str!("../golden/vector/constant_long_varchar.hex"),
        Type::Varchar,
        Encoding::Constant,
        &[long.clone(), long.clone(), long],
    );
    check(
        include_str!("../golden/vector/constant_interval_day_time.hex"),
        Type::IntervalDayTime,
        Encoding::Constant,
        &vec![Value::IntervalDayTime(1_500); 2],
    );
    let json = Value::Json("[1,\"a long json text\"]".into());
    check(
        include_str!("../golden/vector/constant_json.hex"),
        Type::Json,
        Encoding::Constant,
        &[json.clone(), json],
    );
}

/// docs/spec/vector-saver.md §5.9.
#[test]
fn null_constant_has_nothing_after_its_flag() {
    let bytes = golden(include_str!("../golden/vector/constant_null_unknown.hex"));
    assert_eq!(bytes.last(), Some(&1), "is-null flag, then the end");
    let v = check(
        include_str!("../golden/vector/constant_null_unknown.hex"),
        Type::Unknown,
        Encoding::Constant,
        &[Value::Null, Value::Null, Value::Null],
    );
    assert_eq!(
        v,
        Vector::constant_value(Type::Unknown, &Value::Null, 3).unwrap()
    );
    assert_eq!(to_bytes(&v).unwrap(), bytes);
}

/// docs/spec/vector-saver.md §4.4 (a base vector and an index).
#[test]
fn complex_constants_keep_their_base() {
    let v = check(
        include_str!("../golden/vector/constant_array.hex"),
        Type::array(Type::BigInt),
        Encoding::Constant,
        &[
            Value::Array(vec![bigint(1), bigint(2)]),
            Value::Array(vec![bigint(1), bigint(2)]),
            Value::Array(vec![bigint(1), bigint(2)]),
        ],
    );
    assert_eq!(v.base().map(Vector::len), Some(1));
    let nulls = Value::Array(vec![Value::Null, Value::Null]);
    check(
        include_str!("../golden/vector/constant_array_of_unknown.hex"),
        Type::array(Type::Unknown),
        Encoding::Constant,
        &[nulls.clone(), nulls.clone(), nulls],
    );
}

/// docs/spec/vector-saver.md §5.10.
#[test]
fn dictionary_with_its_own_nulls() {
    let v = check(
        include_str!("../golden/vector/dictionary_over_varchar.hex"),
        Type::Varchar,
        Encoding::Dictionary,
        &[text("x"), text("y"), Value::Null, text("x")],
    );
    let base = Vector::from_values(Type::Varchar, &[text("x"), text("y")]).unwrap();
    let expected = Vector::dictionary(
        base,
        vec![0, 1, 0, 0],
        Some(vec![false, false, true, false]),
    );
    assert_eq!(v, expected.unwrap());
}

/// docs/spec/vector-saver.md §5.5 and §5.6 (rules §4.2, §4.3).
#[test]
fn array_map_and_row() {
    let values = [
        Value::Array(vec![bigint(1), bigint(2), bigint(3)]),
        Value::Null,
        Value::Array(vec![]),
        Value::Array(vec![Value::Null, bigint(5)]),
    ];
    let v = check(
        include_str!("../golden/vector/array_bigint.hex"),
        Type::array(Type::BigInt),
        Encoding::Flat,
        &values,
    );
    assert_eq!(
        v,
        Vector::from_values(Type::array(Type::BigInt), &values).unwrap()
    );
    check(
        include_str!("../golden/vector/map_bigint_varchar.hex"),
        Type::map(Type::BigInt, Type::Varchar),
        Encoding::Flat,
        &[
            Value::Map(vec![(bigint(1), text("a")), (bigint(2), Value::Null)]),
            Value::Null,
            Value::Map(vec![]),
        ],
    );
    let row = |a: Value, b: Value| Value::Row(vec![("a".into(), a), ("b".into(), b)]);
    check(
        include_str!("../golden/vector/row_of_two_named_children.hex"),
        Type::row([("a", Type::BigInt), ("b", Type::Varchar)]),
        Encoding::Flat,
        &[
            row(bigint(1), text("x")),
            Value::Null,
            row(Value::Null, text("a longer string here")),
        ],
    );
    let row = |c1: Value| Value::Row(vec![("c1".into(), c1), ("c2".into(), Value::Null)]);
    check(
        include_str!("../golden/vector/row_with_unknown_child.hex"),
        Type::row([("c1", Type::BigInt), ("c2", Type::Unknown)]),
        Encoding::Flat,
        &[row(bigint(1)), row(bigint(2)), row(Value::Null)],
    );
}

/// docs/spec/vector-saver.md §5.11.
#[test]
fn lazy_vectors_from_the_source() {
    let v = from_bytes(&golden(include_str!("../golden/vector/lazy_unloaded.hex"))).unwrap();
    assert_eq!(v, Vector::unloaded_lazy(Type::BigInt, 3).unwrap());
    assert_eq!(
        to_bytes(&v).unwrap(),
        golden(include_str!("../golden/vector/lazy_unloaded.hex"))
    );
    let v = check(
        include_str!("../golden/vector/lazy_loaded.hex"),
        Type::Integer,
        Encoding::Lazy,
        &[Value::Integer(7), Value::Null],
    );
    let flat = Vector::from_values(Type::Integer, &[Value::Integer(7), Value::Null]).unwrap();
    assert_eq!(v, Vector::lazy(flat));
}
