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
