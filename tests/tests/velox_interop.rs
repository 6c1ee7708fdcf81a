//! Differential test against Velox itself: pyvelox 0.2.0, which bundles Velox, driven by
//! `tests/interop/velox_vectors.py`.
//!
//! - Velox -> us: pyvelox builds a matrix of vectors (every type it can make × FLAT, CONSTANT,
//!   null CONSTANT, DICTIONARY with and without its own nulls, empty vectors; nested ROW, ARRAY
//!   and MAP; constants over complex bases; 100 000-row columns), saves each with Velox's
//!   `save_vector` and reports its type, encoding, size and values. We restore every file
//!   (slice and stream reader) and compare all of it exactly (floats by their bits).
//! - us -> Velox: we save every restored vector, and pyvelox loads our file with Velox's
//!   `load_vector` and compares type, size and values with its own vector.
//!
//! pyvelox and pyarrow are pinned in `tests/interop/requirements.txt` and installed by the test
//! itself ([`integration_tests::python_peers`]); when they cannot be, the test fails and says
//! why.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use integration_tests::python_peers;
use serde::Deserialize;
use serde_formats::vector::{from_bytes, restore, to_bytes, Encoding, Value, Vector};
use serde_json::{json, Value as Json};

/// One vector as Velox reported it.
#[derive(Deserialize)]
struct Case {
    name: String,
    /// Velox's `type->toString()`.
    #[serde(rename = "type")]
    ty: String,
    /// Velox's encoding: FLAT, ROW, ARRAY, MAP, CONSTANT or DICTIONARY.
    encoding: String,
    size: usize,
    values: Vec<Json>,
}

/// A value in the script's comparable JSON (see `velox_vectors.py`).
fn to_json(value: &Value) -> Json {
    match value {
        Value::Null => Json::Null,
        Value::Boolean(v) => json!(v),
        Value::TinyInt(v) => json!(v),
        Value::SmallInt(v) => json!(v),
        Value::Integer(v) | Value::Date(v) | Value::IntervalYearMonth(v) => json!(v),
        Value::BigInt(v) | Value::IntervalDayTime(v) => json!(v),
        Value::HugeInt(v) => json!(v.to_string()),
        Value::Decimal { unscaled, .. } => json!(unscaled.to_string()),
        Value::Real(v) => json!(v.to_bits()),
        Value::Double(v) => json!(v.to_bits()),
        Value::Varchar(v) | Value::Json(v) => json!(v),
        Value::Varbinary(v) => json!(v.iter().fold(String::new(), |mut hex, byte| {
            let _ = write!(hex, "{byte:02x}");
            hex
        })),
        Value::Timestamp(v) => json!([v.seconds, v.nanos]),
        Value::Array(items) => Json::Array(items.iter().map(to_json).collect()),
        Value::Map(entries) => Json::Array(
            entries
                .iter()
                .map(|(k, v)| json!([to_json(k), to_json(v)]))
                .collect(),
        ),
        Value::Row(fields) => Json::Array(fields.iter().map(|(_, v)| to_json(v)).collect()),
    }
}

fn encoding_of(velox: &str) -> Encoding {
    match velox {
        "FLAT" | "ROW" | "ARRAY" | "MAP" => Encoding::Flat,
        "CONSTANT" => Encoding::Constant,
        "DICTIONARY" => Encoding::Dictionary,
        "LAZY" => Encoding::Lazy,
        other => panic!("unexpected Velox encoding {other}"),
    }
}

/// Restores Velox's file of `case` and checks it against what Velox reported; returns it.
fn restore_case(dir: &Path, case: &Case) -> Vector {
    let bytes = std::fs::read(dir.join(format!("{}.velox", case.name))).unwrap();
    let vector = from_bytes(&bytes).unwrap_or_else(|err| panic!("{}: {err}", case.name));
    assert_eq!(
        restore(&bytes[..]).unwrap(),
        vector,
        "{}: stream reader",
        case.name
    );
    assert_eq!(vector.ty().to_string(), case.ty, "{}: type", case.name);
    assert_eq!(
        vector.encoding(),
        encoding_of(&case.encoding),
        "{}: encoding",
        case.name
    );
    assert_eq!(vector.len(), case.size, "{}: size", case.name);
    assert_eq!(
        case.values.len(),
        case.size,
        "{}: reported values",
        case.name
    );
    for (row, expected) in case.values.iter().enumerate() {
        let value = vector.value(row).unwrap();
        assert_eq!(&to_json(&value), expected, "{}: row {row}", case.name);
    }
    vector
}

#[test]
fn velox_and_we_read_each_others_vectors() {
    let dir = tempfile::tempdir().unwrap();
    let out = python_peers::run_script("velox_vectors.py", [Path::new("generate"), dir.path()]);
    let cases: Vec<Case> = serde_json::from_slice(&out).expect("the script's JSON");
    assert!(cases.len() >= 40, "only {} cases", cases.len());

    let mut kinds = BTreeMap::<&str, usize>::new();
    for case in &cases {
        let vector = restore_case(dir.path(), case);
        *kinds.entry(vector.encoding().name()).or_default() += 1;
        let ours = to_bytes(&vector).unwrap();
        // Deterministic and canonical: the same vector, the same bytes.
        assert_eq!(to_bytes(&vector).unwrap(), ours, "{}", case.name);
        let again = from_bytes(&ours).unwrap();
        assert_eq!(again, vector, "{}: our bytes restore", case.name);
        assert_eq!(to_bytes(&again).unwrap(), ours, "{}: re-saved", case.name);
        std::fs::write(dir.path().join(format!("{}.ours", case.name)), &ours).unwrap();
    }
    assert!(kinds.len() >= 3, "encodings covered: {kinds:?}");

    let out = python_peers::run_script("velox_vectors.py", [Path::new("check"), dir.path()]);
    let results: BTreeMap<String, String> =
        serde_json::from_slice(&out).expect("the script's JSON");
    assert_eq!(results.len(), cases.len(), "Velox checked every file");
    let failures: Vec<_> = results.iter().filter(|(_, r)| *r != "ok").collect();
    assert!(
        failures.is_empty(),
        "Velox disagrees on {} of {} files: {failures:#?}",
        failures.len(),
        results.len()
    );
}

/// Vectors we build (types and encodings pyvelox cannot make among them: HUGEINT, INTERVAL YEAR
/// TO MONTH, LAZY, flat JSON, the serde bridge's rows), saved by us: Velox loads each and reports
/// the values we built.
#[test]
fn velox_reads_vectors_we_build() {
    use serde_formats::vector::{from_rows, Timestamp, Type};

    let iym = |v: i32| Value::IntervalYearMonth(v);
    let huge = |v: i128| Value::HugeInt(v);
    let text = |v: &str| Value::Varchar(v.to_owned());
    let iym_flat = Vector::from_values(
        Type::IntervalYearMonth,
        &[iym(14), Value::Null, iym(-1), iym(i32::MAX), iym(i32::MIN)],
    )
    .unwrap();
    let huge_flat = Vector::from_values(
        Type::HugeInt,
        &[
            huge(i128::MIN),
            Value::Null,
            huge(i128::MAX),
            huge(0),
            huge(1 << 100),
        ],
    )
    .unwrap();
    let words = Vector::from_values(
        Type::Varchar,
        &[text("a string longer than twelve"), Value::Null, text("x")],
    )
    .unwrap();
    #[derive(serde::Serialize)]
    struct Trade {
        id: i64,
        side: String,
        price: f64,
        note: Option<String>,
        tags: Vec<String>,
        legs: BTreeMap<String, (i32, bool)>,
    }
    let trades: Vec<Trade> = (0..20)
        .map(|i| Trade {
            id: i * 1_000_000_007,
            side: if i % 2 == 0 {
                "buy"
            } else {
                "a long side name, sold"
            }
            .into(),
            price: i as f64 / 3.0,
            note: (i % 3 == 0).then(|| format!("note {i}")),
            tags: (0..i % 4).map(|t| format!("t{t}")).collect(),
            legs: (0..i % 3)
                .map(|l| (format!("leg{l}"), (l as i32, l == 1)))
                .collect(),
        })
        .collect();
    let cases: Vec<(&str, Vector)> = vec![
        ("interval_year_month", iym_flat.clone()),
        (
            "interval_year_month_constant",
            Vector::constant_value(Type::IntervalYearMonth, &iym(25), 3).unwrap(),
        ),
        (
            "interval_year_month_dictionary",
            Vector::dictionary(
                iym_flat,
                vec![4, 3, 0, 1],
                Some(vec![false, false, true, false]),
            )
            .unwrap(),
        ),
        ("hugeint", huge_flat.clone()),
        (
            "hugeint_constant",
            Vector::constant(huge_flat.clone(), 4, 2).unwrap(),
        ),
        (
            "hugeint_null_constant",
            Vector::constant(huge_flat, 1, 2).unwrap(),
        ),
        (
            "lazy_bigint",
            Vector::lazy(
                Vector::from_values(Type::BigInt, &[Value::BigInt(7), Value::Null]).unwrap(),
            ),
        ),
        (
            "lazy_dictionary",
            Vector::lazy(Vector::dictionary(words.clone(), vec![2, 0, 1, 0], None).unwrap()),
        ),
        (
            "json_flat",
            Vector::from_values(
                Type::Json,
                &[
                    Value::Json("[1,2]".into()),
                    Value::Null,
                    Value::Json("{\"a long key\":null}".into()),
                ],
            )
            .unwrap(),
        ),
        (
            "decimal_date_timestamp",
            Vector::from_values(
                Type::row([
                    ("d", Type::decimal(20, 3).unwrap()),
                    ("day", Type::Date),
                    ("t", Type::Timestamp),
                ]),
                &[
                    Value::Row(vec![
                        (
                            "d".into(),
                            Value::Decimal {
                                unscaled: -12_345_678_901_234_567,
                                scale: 3,
                            },
                        ),
                        ("day".into(), Value::Date(-3)),
                        (
                            "t".into(),
                            Value::Timestamp(Timestamp {
                                seconds: -2,
                                nanos: 999_000,
                            }),
                        ),
                    ]),
                    Value::Null,
                ],
            )
            .unwrap(),
        ),
        (
            "constant_map",
            Vector::constant_value(
                Type::map(Type::Varchar, Type::array(Type::Integer)),
                &Value::Map(vec![(
                    text("key longer than 12"),
                    Value::Array(vec![Value::Integer(1), Value::Null]),
                )]),
                3,
            )
            .unwrap(),
        ),
        (
            "unknown_flat",
            Vector::from_values(Type::Unknown, &[Value::Null, Value::Null]).unwrap(),
        ),
        (
            "empty_map",
            Vector::from_values(Type::map(Type::BigInt, Type::Varchar), &[]).unwrap(),
        ),
        ("serde_rows", from_rows(&trades).unwrap()),
        (
            "row_names_escaped_in_json",
            Vector::from_values(
                Type::row([
                    ("a \"quoted\" \\ name", Type::BigInt),
                    ("é\u{1}", Type::Boolean),
                ]),
                &[Value::Row(vec![
                    ("a".into(), Value::BigInt(1)),
                    ("b".into(), Value::Boolean(true)),
                ])],
            )
            .unwrap(),
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    let mut expected = Vec::new();
    for (name, vector) in &cases {
        std::fs::write(
            dir.path().join(format!("{name}.built")),
            to_bytes(vector).unwrap(),
        )
        .unwrap();
        let values: Vec<Json> = (0..vector.len())
            .map(|row| to_json(&vector.value(row).unwrap()))
            .collect();
        expected.push(json!({
            "name": name,
            "type": vector.ty().to_string(),
            "size": vector.len(),
            "values": values,
        }));
    }
    std::fs::write(
        dir.path().join("built.json"),
        serde_json::to_vec(&expected).unwrap(),
    )
    .unwrap();
    let out = python_peers::run_script("velox_vectors.py", [Path::new("check-built"), dir.path()]);
    let results: BTreeMap<String, String> =
        serde_json::from_slice(&out).expect("the script's JSON");
    assert_eq!(results.len(), cases.len());
    let failures: Vec<_> = results.iter().filter(|(_, r)| *r != "ok").collect();
    assert!(failures.is_empty(), "Velox read otherwise: {failures:#?}");
}
