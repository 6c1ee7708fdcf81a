//! Property tests of the value model: any value comes back from every format that can hold it,
//! exactly, and is refused by the others; no input makes the JSON reader panic.

use proptest::prelude::*;

use crate::formats::{self, EncodeOptions, Format};
use crate::value::{self, Value};

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<u128>().prop_map(Value::UInt),
        (0u128..300).prop_map(Value::UInt),
        (i128::MIN..0).prop_map(Value::Int),
        (i128::from(i64::MIN)..0).prop_map(Value::Int),
        any::<u32>().prop_map(|bits| Value::F32(f32::from_bits(bits))),
        any::<u64>().prop_map(|bits| Value::F64(f64::from_bits(bits))),
        any::<f64>().prop_map(Value::F64),
        ".{0,12}".prop_map(Value::Str),
        prop_oneof![Just("$bin"), Just("$map"), Just("$f32"), Just("$ref")]
            .prop_map(|tag| Value::Str(tag.to_owned())),
        proptest::collection::vec(any::<u8>(), 0..12).prop_map(Value::Bin),
        (any::<i8>(), proptest::collection::vec(any::<u8>(), 0..12))
            .prop_map(|(tag, data)| Value::Ext(tag, data)),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(4, 64, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::vec((inner.clone(), inner.clone()), 0..4).prop_map(Value::Map),
            // Maps with string keys, as JSON objects and dynd structs have them.
            proptest::collection::vec(("[a-c$]{0,2}", inner), 0..4).prop_map(|entries| {
                Value::Map(
                    entries
                        .into_iter()
                        .map(|(k, v)| (Value::Str(k), v))
                        .collect(),
                )
            }),
        ]
    })
}

proptest! {
    #[test]
    fn every_format_gives_back_what_it_takes_and_refuses_the_rest(value in value()) {
        let options = EncodeOptions { block_size: 64, pretty: false };
        for format in Format::COMPARED {
            match value::check(&value, format) {
                Ok(()) => {
                    let bytes = formats::encode_to_vec(format, &value, &options)
                        .map_err(|e| TestCaseError::fail(format!("{format}: {e:#}")))?;
                    let back = formats::decode(format, &bytes)
                        .map_err(|e| TestCaseError::fail(format!("{format}: {e:#}")))?;
                    prop_assert!(
                        value::first_difference(&value, &back).is_none(),
                        "{}: {:?}",
                        format,
                        value::first_difference(&value, &back)
                    );
                }
                Err(_) => {
                    prop_assert!(formats::encode_to_vec(format, &value, &options).is_err());
                }
            }
        }
        prop_assert!(value::check(&value, Format::Json).is_ok());
    }

    #[test]
    fn the_json_reader_returns_on_any_input(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        let _ = crate::json::read(&bytes);
    }

    #[test]
    fn the_json_reader_returns_on_json_like_input(text in r#"[\[\]{}",:0-9.eE+\-$a-z ]{0,40}"#) {
        let _ = crate::json::read(text.as_bytes());
    }
}
