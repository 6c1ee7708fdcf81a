//! Golden bytes of the vector format, written by hand from the layout (see
//! `tests/golden/vector/PROVENANCE.md`): saving gives exactly these bytes, restoring gives the
//! vector back, structurally.

use serde_formats::vector::{from_bytes, restore, to_bytes, Encoding, Type, Value, Vector};

/// Parses the annotated hex of a golden file: `#` comments, whitespace ignored.
fn golden(text: &str) -> Vec<u8> {
    let digits: String = text
        .lines()
        .map(|line| line.split('#').next().unwrap_or(""))
        .flat_map(|line| line.chars().filter(|c| !c.is_whitespace()))
        .collect();
    assert!(digits.len().is_multiple_of(2), "odd number of hex digits");
    (0..digits.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&digits[i..i + 2], 16).expect("hex digit"))
        .collect()
}

fn check(file: &str, vector: &Vector) {
    let bytes = golden(file);
    assert_eq!(to_bytes(vector).unwrap(), bytes, "saved bytes");
    assert_eq!(
        &from_bytes(&bytes).unwrap(),
        vector,
        "restored from a slice"
    );
    assert_eq!(
        &restore(&bytes[..]).unwrap(),
        vector,
        "restored from a stream"
    );
}

fn text(s: &str) -> Value {
    Value::Varchar(s.to_owned())
}

#[test]
fn flat_bigint_with_a_null() {
    let v = Vector::from_values(
        Type::BigInt,
        &[Value::BigInt(1), Value::Null, Value::BigInt(3)],
    )
    .unwrap();
    check(
        include_str!("../golden/vector/flat_bigint_with_null.hex"),
        &v,
    );
}

#[test]
fn flat_varchar_with_inline_and_long_strings() {
    let v = Vector::from_values(
        Type::Varchar,
        &[
            text("short"),
            text("exactly 12 b"),
            text("longer than twelve"),
            text("thirteen byte"),
        ],
    )
    .unwrap();
    check(
        include_str!("../golden/vector/flat_varchar_inline_and_long.hex"),
        &v,
    );
    assert_eq!(v.value(3).unwrap(), text("thirteen byte"));
}

#[test]
fn constant_integer() {
    let v = Vector::constant_value(Type::Integer, &Value::Integer(42), 5).unwrap();
    check(include_str!("../golden/vector/constant_integer.hex"), &v);
    // A constant built from a row of a flat vector is the same vector.
    let base = Vector::from_values(Type::Integer, &[Value::Null, Value::Integer(42)]).unwrap();
    assert_eq!(Vector::constant(base, 1, 5).unwrap(), v);
}

#[test]
fn constant_long_varchar() {
    let v = Vector::constant_value(Type::Varchar, &text("seventeen bytes!!"), 2).unwrap();
    check(
        include_str!("../golden/vector/constant_long_varchar.hex"),
        &v,
    );
}

#[test]
fn dictionary_over_varchar_writes_zero_index_at_null_rows() {
    let base = Vector::from_values(Type::Varchar, &[text("a"), text("b")]).unwrap();
    // The index given for the null row (1) is written as 0.
    let v = Vector::dictionary(base, vec![1, 1, 0], Some(vec![false, true, false])).unwrap();
    check(
        include_str!("../golden/vector/dictionary_over_varchar.hex"),
        &v,
    );
    assert_eq!(v.encoding(), Encoding::Dictionary);
    assert_eq!(
        [
            v.value(0).unwrap(),
            v.value(1).unwrap(),
            v.value(2).unwrap()
        ],
        [text("b"), Value::Null, text("a")]
    );
}

#[test]
fn row_of_two_named_children() {
    let ty = Type::row([("id", Type::BigInt), ("name", Type::Varchar)]);
    let v = Vector::from_values(
        ty,
        &[
            Value::Row(vec![
                ("id".into(), Value::BigInt(7)),
                ("name".into(), text("x")),
            ]),
            Value::Row(vec![
                ("id".into(), Value::BigInt(8)),
                ("name".into(), Value::Null),
            ]),
        ],
    )
    .unwrap();
    check(
        include_str!("../golden/vector/row_of_two_named_children.hex"),
        &v,
    );
}

#[test]
fn array_of_integer_with_null_and_empty_rows() {
    let v = Vector::from_values(
        Type::array(Type::Integer),
        &[
            Value::Array(vec![Value::Integer(1), Value::Integer(2)]),
            Value::Null,
            Value::Array(vec![]),
        ],
    )
    .unwrap();
    check(include_str!("../golden/vector/array_of_integer.hex"), &v);
}

#[test]
fn unloaded_lazy() {
    let v = Vector::unloaded_lazy(Type::Double, 4).unwrap();
    check(include_str!("../golden/vector/lazy_unloaded.hex"), &v);
}
