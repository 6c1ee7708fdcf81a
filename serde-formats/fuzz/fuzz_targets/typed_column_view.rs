//! `View` on arbitrary input: never panics, and reads what the Deserializer reads.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde::Deserialize;
use serde_formats::typed_column::{Deserializer, Kind, View};
use serde_json::{Number, Value};

fuzz_target!(|bytes: &[u8]| {
    let Ok(root) = View::from_bytes(bytes) else {
        return;
    };
    let from_view = to_json(root);
    // A valid input deserializes (the limit is far above what a small input can nest).
    let mut de = Deserializer::from_bytes(bytes)
        .expect("View accepted the frame")
        .with_depth_limit(100_000);
    let from_de = Value::deserialize(&mut de).expect("View accepted the value");
    de.end().expect("View accepted the whole input");
    assert_eq!(from_view, from_de);
});

/// The JSON the module docs promise for `deserialize_any`, built from View accessors.
fn to_json(view: View<'_>) -> Value {
    let float = |f: f64| Number::from_f64(f).map_or(Value::Null, Value::Number);
    match view.kind() {
        Kind::Boolean => Value::Bool(view.as_bool().expect("a Boolean")),
        Kind::Fraction => {
            let fraction = view.as_fraction().expect("a Fraction");
            if fraction.den == 1 {
                Value::from(fraction.num)
            } else {
                float(fraction.to_f64())
            }
        }
        Kind::Float => float(view.as_f64().expect("a Float")),
        Kind::String => Value::String(view.as_str().expect("a String").to_owned()),
        Kind::Column => {
            assert_eq!(view.iter().len(), view.len());
            let items: Vec<Value> = view.iter().map(to_json).collect();
            assert_eq!(items.len(), view.len());
            if let Some(last) = view.len().checked_sub(1) {
                assert_eq!(view.get(last).map(|v| v.kind()), view.iter().last().map(|v| v.kind()));
            }
            assert!(view.get(view.len()).is_none());
            Value::Array(items)
        }
    }
}
