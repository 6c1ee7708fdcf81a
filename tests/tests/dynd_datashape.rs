//! Datashape corpus: every spelling parses, prints canonically and parses back to the same
//! type; self-describing `array[Any]` files decode to `Value` and print as JSON.

use serde::Serialize;
use serde_formats::dynd::{self, Type, Value};
use serde_formats::ErrorKind;

/// (spelling, canonical spelling). Written by hand from the datashape grammar and canonical
/// spelling of `docs/spec/dynd.md` §4.12.
const CORPUS: &[(&str, &str)] = &[
    (
        "{x: 7 * {a: int32, b: int8}, y: var * 4 * uint8}",
        "{x: 7 * {a: int32, b: int8}, y: var * 4 * uint8}",
    ),
    ("?string", "?string"),
    ("3 * bool", "3 * bool"),
    (
        "{x: int32, 'Verbose Field!': float32}",
        "{x: int32, 'Verbose Field!': float32}",
    ),
    (
        "{x:int32,\"Verbose Field!\":float32}",
        "{x: int32, 'Verbose Field!': float32}",
    ),
    (
        "3 * var * {x: int32, 'a b': ?string}",
        "3 * var * {x: int32, 'a b': ?string}",
    ),
    ("(int8, float64)", "(int8, float64)"),
    ("bytes[16]", "bytes[16]"),
    ("array[Any]", "array[Any]"),
    ("array[3 * int8]", "array[3 * int8]"),
    ("pointer[{p: ?float64}]", "pointer[{p: ?float64}]"),
    ("complex[float32]", "complex[float32]"),
    ("complex[ float64 ]", "complex[float64]"),
    (
        "var * (int16, uint16, int64, uint64, int128, uint128)",
        "var * (int16, uint16, int64, uint64, int128, uint128)",
    ),
    (
        "(char, string, bytes, void, type)",
        "(char, string, bytes, void, type)",
    ),
    ("()", "()"),
    ("{}", "{}"),
    ("(int8)", "(int8)"),
    ("?3 * int8", "?3 * int8"),
    ("3 * ?int8", "3 * ?int8"),
    ("??bool", "??bool"),
    ("0 * uint32", "0 * uint32"),
    ("18446744073709551615 * void", "18446744073709551615 * void"),
    (
        "{'': int8, 'it\\'s': int8, 'back\\\\slash': int8, _x1: int8}",
        "{'': int8, 'it\\'s': int8, 'back\\\\slash': int8, _x1: int8}",
    ),
    ("{'é': int8}", "{'é': int8}"),
    ("  var  *  float32  ", "var * float32"),
];

#[test]
fn corpus_round_trips_through_the_canonical_spelling() {
    for &(text, canonical) in CORPUS {
        let ty: Type = text.parse().unwrap_or_else(|err| panic!("{text}: {err}"));
        assert_eq!(ty.to_string(), canonical, "{text}");
        let again: Type = canonical.parse().unwrap();
        assert_eq!(again, ty, "{canonical}");
    }
}

#[test]
fn corpus_types_have_the_expected_structure() {
    let ty: Type = "{x: 7 * {a: int32, b: int8}, y: var * 4 * uint8}"
        .parse()
        .unwrap();
    let element = Type::Struct(vec![("a".into(), Type::Int32), ("b".into(), Type::Int8)]);
    assert_eq!(
        ty,
        Type::Struct(vec![
            ("x".into(), Type::Fixed(7, Box::new(element))),
            (
                "y".into(),
                Type::Var(Box::new(Type::Fixed(4, Box::new(Type::UInt8))))
            ),
        ])
    );
    assert_eq!(
        "?string".parse::<Type>().unwrap(),
        Type::Option(Box::new(Type::String))
    );
}

#[test]
fn parse_errors_name_the_column() {
    for (text, offset, column) in [
        ("{x: int32, y: strin}", 14, 15),
        ("3 * * int8", 4, 5),
        ("{x: int32 y: int8}", 10, 11),
        ("{'é': int9}", 7, 7),
    ] {
        let err = text.parse::<Type>().unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ErrorKind::BadType, Some(offset)),
            "{text}"
        );
        assert!(
            err.to_string().contains(&format!("column {column}")),
            "{text}: {err}"
        );
    }
}

#[derive(Serialize)]
struct Cell {
    a: i32,
    b: i8,
}

#[derive(Serialize)]
struct Grid {
    x: [Cell; 2],
    y: Vec<[u8; 4]>,
    label: Option<String>,
    weight: Option<f64>,
}

#[test]
fn array_files_decode_to_values_and_print_as_json() {
    let grid = Grid {
        x: [Cell { a: 1, b: -1 }, Cell { a: 2, b: -2 }],
        y: vec![[1, 2, 3, 4]],
        label: None,
        weight: Some(0.5),
    };
    let bytes = dynd::to_array_bytes(&grid).unwrap();
    let array = dynd::from_array_bytes(&bytes).unwrap();
    assert_eq!(
        array.ty.to_string(),
        "{x: 2 * {a: int32, b: int8}, y: var * 4 * uint8, label: ?string, weight: ?float64}"
    );
    let json = serde_json::Value::from(&array.value);
    assert_eq!(
        json,
        serde_json::json!({
            "x": [{"a": 1, "b": -1}, {"a": 2, "b": -2}],
            "y": [[1, 2, 3, 4]],
            "label": null,
            "weight": 0.5
        })
    );
    // Written by hand: `?float64` missing, `2 * int8`, a nested `array[Any]` holding a `char`.
    let file = {
        let mut f = vec![32];
        f.extend_from_slice(b"(?float64, 2 * int8, array[Any])");
        f.extend_from_slice(&[0xa2, 0x07, 0, 0, 0, 0, 0xf0, 0x7f, 0x05, 0xfb, 0x04]);
        f.extend_from_slice(b"char");
        f.extend_from_slice("é".as_bytes());
        f
    };
    let array = dynd::from_array_bytes(&file).unwrap();
    assert_eq!(
        serde_json::Value::from(&array.value),
        serde_json::json!([null, [5, -5], {"type": "char", "value": "é"}])
    );
    // And back from JSON.
    // `{"k": [items]}`
    let k = |items| Value::Struct(vec![("k".into(), Value::List(items))]);
    let value = Value::from(serde_json::json!({"k": [1, 2.5, "s", null, true]}));
    let items = vec![
        Value::Int64(1),
        Value::Float64(2.5),
        Value::String("s".into()),
        Value::Missing,
        Value::Bool(true),
    ];
    assert_eq!(value, k(items));
    // Value also deserializes from any self-describing format, following serde's data model:
    // serde_json hands non-negative integers as u64 and null as unit.
    let from_json: Value = serde_json::from_str(r#"{"k": [1, -2, "s", null]}"#).unwrap();
    let items = vec![
        Value::UInt64(1),
        Value::Int64(-2),
        Value::String("s".into()),
        Value::Void,
    ];
    assert_eq!(from_json, k(items));
}

#[test]
fn inference_rejects_mixed_sequences_and_enums() {
    #[derive(Serialize)]
    #[serde(untagged)]
    enum Either {
        Int(i32),
        Text(String),
    }
    let mixed = vec![Either::Int(1), Either::Text("a".into())];
    let err = dynd::to_array_bytes(&mixed).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::BadType);
    #[derive(Serialize)]
    enum Tagged {
        A,
    }
    assert_eq!(
        dynd::to_array_bytes(&Tagged::A).unwrap_err().kind(),
        ErrorKind::Unsupported
    );
    // Elements that agree once unknown parts are filled in are fine.
    let ty = dynd::infer_type(&vec![None, Some(vec![1u8])]).unwrap();
    assert_eq!(ty.to_string(), "var * ?var * uint8");
    let ty = dynd::infer_type(&(1u8, "two")).unwrap();
    assert_eq!(ty.to_string(), "(uint8, string)");
}
