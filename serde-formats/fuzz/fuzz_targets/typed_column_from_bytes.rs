//! `from_bytes` on arbitrary input: never panics, and agrees with `View` on what is valid.
#![no_main]

use common::float_reader::Element;
use libfuzzer_sys::fuzz_target;
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use serde_formats::typed_column::{from_bytes, to_bytes, Deserializer, Fraction, View};

#[path = "common.rs"]
mod common;

#[derive(Debug, PartialEq, Serialize, Deserialize)]
enum Rich<'a> {
    Unit,
    Text(&'a str),
    Pair(Option<bool>, f64),
    Record { n: i32, f: Fraction, items: Vec<Rich<'a>> },
}

fuzz_target!(|bytes: &[u8]| {
    let _ = from_bytes::<Rich<'_>>(bytes);
    let _ = from_bytes::<Vec<(u8, String)>>(bytes);

    // The shortcut and the element-by-element path: the same floats (bits) or the same error.
    let fast = from_bytes::<Vec<f64>>(bytes)
        .map(|values| values.iter().map(|v| v.to_bits()).collect::<Vec<_>>())
        .map_err(|err| err.to_string());
    let plain = from_bytes::<Vec<Element>>(bytes)
        .map(|values| values.iter().map(|e| e.0.to_bits()).collect::<Vec<_>>())
        .map_err(|err| err.to_string());
    assert_eq!(fast, plain);

    // Inputs are small, so a deep limit cannot overflow the stack here; with it the walk and
    // View's one-time validation must accept exactly the same inputs.
    let walked = Deserializer::from_bytes(bytes).and_then(|de| {
        let mut de = de.with_depth_limit(100_000);
        IgnoredAny::deserialize(&mut de)?;
        de.end()
    });
    let viewed = View::from_bytes(bytes);
    assert_eq!(walked.is_ok(), viewed.is_ok(), "walk {walked:?} vs view {:?}", viewed.err());

    if let Ok(value) = from_bytes::<serde_json::Value>(bytes) {
        // What was read writes back and reads again as the same JSON value, except where
        // JSON cannot hold the value (non-finite floats became null, which writes as []).
        if !contains_null(&value) {
            let again = to_bytes(&value).expect("a decoded value re-encodes");
            let back: serde_json::Value = from_bytes(&again).expect("re-encoded bytes decode");
            assert_eq!(back, value);
        }
    }
});

fn contains_null(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::Null => true,
        serde_json::Value::Array(items) => items.iter().any(contains_null),
        _ => false,
    }
}
