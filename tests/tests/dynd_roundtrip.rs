//! Property tests for `serde_formats::dynd`: uniqueness of the bytes and the round trip.

use std::collections::{BTreeMap, HashMap};

use integration_tests::dynd_record::{Event, Record};
use proptest::prelude::*;
use serde_formats::dynd::{self, Array, Type, Value};
use serde_formats::ErrorKind;

/// Floats that compare equal to themselves (NaN outside options is covered by golden tests).
fn real() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>().prop_filter("not NaN", |v| !v.is_nan()),
        Just(-0.0),
        Just(f64::INFINITY)
    ]
}

fn event() -> impl Strategy<Value = Event> {
    prop_oneof![
        Just(Event::Start),
        (any::<i16>(), any::<i16>()).prop_map(|(x, y)| Event::Move(x, y)),
        (".{0,8}", any::<Option<bool>>()).prop_map(|(text, loud)| Event::Say { text, loud }),
        any::<f32>().prop_map(Event::Weight),
    ]
}

prop_compose! {
    fn record()(
        flag in any::<bool>(),
        maybe_flag in any::<Option<bool>>(),
        small in any::<i8>(),
        maybe_small in proptest::option::of(-127i8..=127),
        big in any::<i128>(),
        wide in any::<u128>(),
        maybe_big in proptest::option::of(0..u64::MAX),
        unsigned in any::<u32>(),
        real in real(),
        maybe_real in proptest::option::of(real()),
        maybe_single in proptest::option::of(any::<f32>().prop_filter("not NaN", |v| !v.is_nan())),
        letter in any::<char>(),
        text in ".{0,20}",
        maybe_text in proptest::option::of(".{0,5}"),
        nested in proptest::option::of(proptest::option::of(i32::MIN + 1..=i32::MAX)),
        list in proptest::collection::vec(any::<u16>(), 0..20),
        fixed in any::<[i32; 3]>(),
        pair in (any::<u8>(), ".{0,4}"),
        by_name in proptest::collection::btree_map(".{0,4}", any::<i64>(), 0..6),
        by_id in proptest::collection::hash_map(any::<i32>(), any::<Option<char>>(), 0..6),
        events in proptest::collection::vec(event(), 0..5),
    ) -> Record {
        Record {
            flag, maybe_flag, small, maybe_small, big, wide, maybe_big, unsigned, real, maybe_real,
            maybe_single, letter, text, maybe_text, nested, list, fixed, pair, by_name, by_id,
            events, unit: (),
        }
    }
}

/// A (type, value) pair that fits, for the `array[Any]` round trip.
fn typed_value() -> impl Strategy<Value = Array> {
    let leaf = prop_oneof![
        any::<bool>().prop_map(|v| (Type::Bool, Value::Bool(v))),
        any::<i32>().prop_map(|v| (Type::Int32, Value::Int32(v))),
        any::<u64>().prop_map(|v| (Type::UInt64, Value::UInt64(v))),
        any::<f32>().prop_map(|v| (Type::Float32, Value::Float32(v))),
        ".{0,6}".prop_map(|v| (Type::String, Value::String(v))),
        any::<char>().prop_map(|v| (Type::Char, Value::Char(v))),
        proptest::collection::vec(any::<u8>(), 0..6).prop_map(|v| (Type::Bytes, Value::Bytes(v))),
        proptest::collection::vec(any::<u8>(), 3)
            .prop_map(|v| (Type::FixedBytes(3), Value::Bytes(v))),
        (any::<f64>(), any::<f64>())
            .prop_map(|(re, im)| (Type::ComplexFloat64, Value::ComplexFloat64(re, im))),
        proptest::option::of(-100i16..100).prop_map(|v| (
            Type::Option(Box::new(Type::Int16)),
            v.map_or(Value::Missing, Value::Int16)
        )),
        proptest::option::of(".{0,3}").prop_map(|v| (
            Type::Option(Box::new(Type::String)),
            v.map_or(Value::Missing, Value::String)
        )),
        Just((Type::Void, Value::Void)),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            // var * T of one element type: repeat one leaf value a few times.
            (inner.clone(), 0usize..4).prop_map(|((ty, value), n)| (
                Type::Var(Box::new(ty)),
                Value::List(vec![value; n])
            )),
            (inner.clone(), 1u64..3).prop_map(|((ty, value), n)| (
                Type::Fixed(n, Box::new(ty)),
                Value::List(vec![value; n as usize])
            )),
            proptest::collection::vec(inner.clone(), 0..3).prop_map(|fields| {
                let (types, values) = fields.into_iter().unzip();
                (Type::Tuple(types), Value::Tuple(values))
            }),
            proptest::collection::vec(inner.clone(), 0..3).prop_map(|fields| {
                let (types, values): (Vec<_>, Vec<_>) = fields.into_iter().unzip();
                let names = (0..types.len()).map(|i| {
                    if i == 0 {
                        "x".to_owned()
                    } else {
                        format!("f {i}")
                    }
                });
                (
                    Type::Struct(names.clone().zip(types).collect()),
                    Value::Struct(names.zip(values).collect()),
                )
            }),
            inner.clone().prop_map(|(ty, value)| (
                Type::Option(Box::new(Type::Tuple(vec![ty.clone()]))),
                Value::Tuple(vec![value])
            )),
            inner.prop_map(|(ty, value)| (
                Type::Array(Box::new(Type::Any)),
                Value::Array(Box::new(Array { ty, value }))
            )),
        ]
    })
    .prop_map(|(ty, value)| Array { ty, value })
}

proptest! {
    #[test]
    fn round_trips_and_bytes_are_unique(record in record()) {
        let bytes = dynd::to_bytes(&record).unwrap();
        let back: Record = dynd::from_bytes(&bytes).unwrap();
        prop_assert_eq!(&back, &record);
        // Uniqueness: decoding then encoding gives the very same bytes.
        prop_assert_eq!(dynd::to_bytes(&back).unwrap(), bytes.clone());
        prop_assert_eq!(dynd::digest(&back).unwrap(), dynd::digest(&record).unwrap());
        // Every strict prefix is rejected.
        for cut in [0, bytes.len() / 2, bytes.len() - 1] {
            let err = dynd::from_bytes::<Record>(&bytes[..cut]).unwrap_err();
            let truncated = [ErrorKind::UnexpectedEnd, ErrorKind::LengthPastEnd];
            prop_assert!(truncated.contains(&err.kind()), "prefix {}: {}", cut, err);
            prop_assert!(err.offset().is_some_and(|at| at <= cut as u64), "prefix {}: {}", cut, err);
        }
    }

    #[test]
    fn hash_map_and_btree_map_give_the_same_bytes(
        entries in proptest::collection::hash_map(any::<i64>(), ".{0,3}", 0..12)
    ) {
        let tree: BTreeMap<i64, String> = entries.clone().into_iter().collect();
        let bytes = dynd::to_bytes(&entries).unwrap();
        prop_assert_eq!(&bytes, &dynd::to_bytes(&tree).unwrap());
        prop_assert_eq!(dynd::from_bytes::<HashMap<i64, String>>(&bytes).unwrap(), entries);
    }

    #[test]
    fn arrays_round_trip_without_a_rust_type(array in typed_value()) {
        let bytes = dynd::to_bytes(&array).unwrap();
        let back = dynd::from_array_bytes(&bytes).unwrap();
        prop_assert_eq!(dynd::to_bytes(&back).unwrap(), bytes);
        prop_assert_eq!(back.ty, array.ty);
    }

    #[test]
    fn inferred_arrays_carry_the_same_data(record in record()) {
        // Enums have no datashape; everything else of Record infers.
        let mut record = record;
        record.events.clear();
        let bytes = dynd::to_array_bytes(&record).unwrap();
        let array = dynd::from_array_bytes(&bytes).unwrap();
        let data = dynd::to_bytes(&record).unwrap();
        prop_assert!(bytes.ends_with(&data));
        prop_assert_eq!(dynd::to_bytes(&array).unwrap(), bytes);
    }
}
