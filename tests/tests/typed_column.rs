//! typed_column: the worked examples of `docs/spec/typed-column.md` §5 (hand-written files, see
//! `golden/typed_column/PROVENANCE.md`), proptest round trips over a rich type and over
//! `serde_json::Value`, and the View reading what the Deserializer reads.

use std::collections::BTreeMap;

use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use serde_formats::typed_column::{
    from_bytes, from_columns, to_bytes, to_columns, Fraction, Kind, Serializer, View,
};
use serde_json::{json, Number, Value};

/// Reads a hand-written hex golden file of `tests/golden/typed_column/`.
fn golden(name: &str) -> Vec<u8> {
    integration_tests::hex::read(format!("golden/typed_column/{name}"))
}

fn to_bytes_uncompressed<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    let mut serializer = Serializer::new().with_compression(false);
    value.serialize(&mut serializer).unwrap();
    serializer.into_bytes().unwrap()
}

/// docs/spec/typed-column.md §5.1.
#[test]
fn golden_true() {
    let bytes = golden("true.hex");
    assert_eq!(to_bytes(&true).unwrap(), bytes);
    assert!(from_bytes::<bool>(&bytes).unwrap());
    assert_eq!(View::from_bytes(&bytes).unwrap().as_bool(), Some(true));
}

/// docs/spec/typed-column.md §5.2.
#[test]
fn golden_hello() {
    let bytes = golden("hello.hex");
    assert_eq!(to_bytes("Hello").unwrap(), bytes);
    let hello: &str = from_bytes(&bytes).unwrap();
    assert_eq!(hello, "Hello");
    assert_eq!(View::from_bytes(&bytes).unwrap().as_str(), Some("Hello"));
}

/// docs/spec/typed-column.md §5.3.
#[test]
fn golden_hi_bye() {
    let bytes = golden("hi_bye.hex");
    assert_eq!(to_bytes(&["hi", "bye"]).unwrap(), bytes);
    assert_eq!(from_bytes::<Vec<&str>>(&bytes).unwrap(), ["hi", "bye"]);
    assert_eq!(from_bytes::<Value>(&bytes).unwrap(), json!(["hi", "bye"]));
}

/// docs/spec/typed-column.md §5.4.
#[test]
fn golden_nested() {
    let bytes = golden("nested.hex");
    let value = vec![vec!["a", "b"], vec!["c", "d"]];
    assert_eq!(to_bytes(&value).unwrap(), bytes);
    assert_eq!(from_bytes::<Vec<Vec<&str>>>(&bytes).unwrap(), value);
    let view = View::from_bytes(&bytes).unwrap();
    assert_eq!(
        view.get(1).and_then(|c| c.get(1)).and_then(|s| s.as_str()),
        Some("d")
    );
}

/// docs/spec/typed-column.md §5.5 and §5.6.
#[test]
fn golden_compressed_booleans() {
    let compressed = golden("compressed_bools.hex");
    let plain = golden("bools_uncompressed.hex");
    let value = vec![true, false, true];
    assert_eq!(to_bytes(&value).unwrap(), compressed);
    assert_eq!(to_bytes_uncompressed(&value), plain);
    assert_eq!(from_bytes::<Vec<bool>>(&compressed).unwrap(), value);
    assert_eq!(from_bytes::<Vec<bool>>(&plain).unwrap(), value);
    let view = View::from_bytes(&compressed).unwrap();
    assert_eq!(view.len(), 3);
    assert_eq!(view.get(1).and_then(|b| b.as_bool()), Some(false));
}

// ---- round trips ----

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Variant {
    Unit,
    Newtype(i64),
    Tuple(bool, String),
    Struct { f: f64, o: Option<u8> },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Rich {
    ints: (i8, i16, i32, i64, u8, u16, u32, u64),
    floats: (f32, f64),
    text: String,
    ch: char,
    flag: bool,
    unit: (),
    nested: Vec<Vec<f64>>,
    opt: Option<Option<bool>>,
    variants: Vec<Variant>,
    map: BTreeMap<String, Vec<i32>>,
    fraction: Fraction,
    pairs: Vec<(Fraction, bool)>,
    /// Last, so the last inner vector ends the type array and is written dense, and the
    /// earlier ones are written dense and then expanded.
    tail: Vec<(bool, Vec<f64>)>,
}

/// Floats whose round trip `PartialEq` can check (no NaN).
fn float() -> impl Strategy<Value = f64> {
    prop_oneof![
        prop::num::f64::NORMAL | prop::num::f64::SUBNORMAL | prop::num::f64::ZERO,
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
    ]
}

fn float32() -> impl Strategy<Value = f32> {
    prop::num::f32::NORMAL | prop::num::f32::SUBNORMAL | prop::num::f32::ZERO
}

fn variant() -> impl Strategy<Value = Variant> {
    prop_oneof![
        Just(Variant::Unit),
        any::<i64>().prop_map(Variant::Newtype),
        (any::<bool>(), ".{0,6}").prop_map(|(b, s)| Variant::Tuple(b, s)),
        (float(), any::<Option<u8>>()).prop_map(|(f, o)| Variant::Struct { f, o }),
    ]
}

fn fraction() -> impl Strategy<Value = Fraction> {
    (any::<i64>(), any::<i64>()).prop_map(|(num, den)| Fraction { num, den })
}

prop_compose! {
    fn rich()(
        ints in (
            any::<i8>(), any::<i16>(), any::<i32>(), any::<i64>(),
            any::<u8>(), any::<u16>(), any::<u32>(), 0..=i64::MAX as u64,
        ),
        floats in (float32(), float()),
        (text, ch, flag) in (".{0,12}", any::<char>(), any::<bool>()),
        nested in prop::collection::vec(prop::collection::vec(float(), 0..4), 0..4),
        opt in any::<Option<Option<bool>>>(),
        variants in prop::collection::vec(variant(), 0..5),
        map in prop::collection::btree_map(
            ".{0,4}", prop::collection::vec(any::<i32>(), 0..3), 0..4
        ),
        fraction in fraction(),
        pairs in prop::collection::vec((fraction(), any::<bool>()), 0..3),
        tail in prop::collection::vec((any::<bool>(), prop::collection::vec(float(), 0..4)), 0..4),
    ) -> Rich {
        Rich {
            ints, floats, text, ch, flag, unit: (), nested, opt, variants, map, fraction, pairs,
            tail,
        }
    }
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        float()
            .prop_filter_map("finite", Number::from_f64)
            .prop_map(Value::Number),
        ".{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map(".{0,4}", inner, 0..4)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

/// What a JSON value reads back as: the format has no null or map kinds, so null is the
/// empty column and an object is a column of `[key, value]` columns (module docs,
/// `deserialize_any`).
fn normalize(value: &Value) -> Value {
    match value {
        Value::Null => json!([]),
        Value::Array(items) => Value::Array(items.iter().map(normalize).collect()),
        Value::Object(map) => {
            Value::Array(map.iter().map(|(k, v)| json!([k, normalize(v)])).collect())
        }
        other => other.clone(),
    }
}

/// The JSON the module docs promise for `deserialize_any`, built only from View accessors.
fn view_to_json(view: View<'_>) -> Value {
    let float = |f: f64| Number::from_f64(f).map_or(Value::Null, Value::Number);
    match view.kind() {
        Kind::Boolean => Value::Bool(view.as_bool().unwrap()),
        Kind::Fraction => {
            let fraction = view.as_fraction().unwrap();
            if fraction.den == 1 {
                Value::from(fraction.num)
            } else {
                float(view.as_f64().unwrap())
            }
        }
        Kind::Float => float(view.as_f64().unwrap()),
        Kind::String => Value::String(view.as_str().unwrap().to_owned()),
        Kind::Column => Value::Array(view.iter().map(view_to_json).collect()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn rich_type_round_trips(value in rich()) {
        let bytes = to_bytes(&value).unwrap();
        prop_assert_eq!(&from_bytes::<Rich>(&bytes).unwrap(), &value);
        let columns = to_columns(&value).unwrap();
        prop_assert_eq!(&from_columns::<Rich>(&columns.types, &columns.data).unwrap(), &value);
        // A non-empty last inner vector of `tail` ends the type array, so it is written dense.
        if value.tail.last().is_some_and(|(_, v)| !v.is_empty()) {
            let chain = &columns.types[columns.types.len() - 3..];
            prop_assert_eq!(chain[0], (1 << 63) | 2);
        }
        let plain = to_bytes_uncompressed(&value);
        prop_assert_eq!(&from_bytes::<Rich>(&plain).unwrap(), &value);
        // The View reads what the Deserializer reads, compressed or not.
        for bytes in [&bytes, &plain] {
            let via_de: Value = from_bytes(bytes).unwrap();
            prop_assert_eq!(view_to_json(View::from_bytes(bytes).unwrap()), via_de);
        }
    }

    #[test]
    fn json_value_round_trips_up_to_null_and_maps(value in json_value()) {
        let bytes = to_bytes(&value).unwrap();
        let back: Value = from_bytes(&bytes).unwrap();
        prop_assert_eq!(&back, &normalize(&value));
        // The normalized form is a fixed point.
        let again: Value = from_bytes(&to_bytes(&back).unwrap()).unwrap();
        prop_assert_eq!(&again, &back);
        prop_assert_eq!(view_to_json(View::from_bytes(&bytes).unwrap()), back);
    }

    #[test]
    fn dense_matrices_round_trip(rows in 1usize..5, cols in 1usize..5, seed in any::<u64>()) {
        let matrix: Vec<Vec<f64>> = (0..rows)
            .map(|r| (0..cols).map(|c| (seed.wrapping_add((r * cols + c) as u64) % 1000) as f64).collect())
            .collect();
        let columns = to_columns(&matrix).unwrap();
        let (r, c) = (rows as u64, cols as u64);
        prop_assert_eq!(columns.types.clone(), vec![4, 0, r, (1 << 63) | 4, r, c, (1 << 63) | 2, r * c, 8]);
        prop_assert_eq!(&from_columns::<Vec<Vec<f64>>>(&columns.types, &columns.data).unwrap(), &matrix);
        let view = View::from_columns(&columns.types, &columns.data).unwrap();
        prop_assert_eq!(view.get(rows - 1).and_then(|row| row.get(cols - 1)).and_then(|v| v.as_f64()), matrix[rows - 1].last().copied());
    }

    #[test]
    fn ragged_nesting_round_trips(value in prop::collection::vec(prop::collection::vec(prop::collection::vec(any::<bool>(), 0..3), 0..3), 0..4)) {
        for bytes in [to_bytes(&value).unwrap(), to_bytes_uncompressed(&value)] {
            prop_assert_eq!(&from_bytes::<Vec<Vec<Vec<bool>>>>(&bytes).unwrap(), &value);
            let via_de: Value = from_bytes(&bytes).unwrap();
            prop_assert_eq!(view_to_json(View::from_bytes(&bytes).unwrap()), via_de);
        }
    }

    #[test]
    fn dense_vectors_round_trip(values in prop::collection::vec(float(), 0..64)) {
        let columns = to_columns(&values).unwrap();
        prop_assert_eq!(&from_columns::<Vec<f64>>(&columns.types, &columns.data).unwrap(), &values);
        if !values.is_empty() {
            // [4][0][n] [2'][n][8]: two descriptions, the data is the floats back to back.
            let n = values.len() as u64;
            prop_assert_eq!(columns.types, vec![4, 0, n, (1 << 63) | 2, n, 8]);
            let data: Vec<u8> = values.iter().flat_map(|f| f.to_le_bytes()).collect();
            prop_assert_eq!(columns.data, data);
        }
    }
}
