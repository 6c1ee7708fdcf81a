//! Property tests: random vector trees (random types, values, encodings nested at every level)
//! survive save/restore structurally, and rows of serde structs survive the serde bridge.

use std::collections::BTreeMap;

use proptest::collection::vec;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use serde_formats::vector::{
    from_bytes, from_rows, restore, to_bytes, to_rows, Timestamp, Type, Value, Vector,
};
use serde_formats::ErrorKind;

/// The types without parameters.
#[rustfmt::skip]
const SCALARS: [Type; 16] = [
    Type::Boolean, Type::TinyInt, Type::SmallInt, Type::Integer, Type::BigInt, Type::Real,
    Type::Double, Type::Varchar, Type::Varbinary, Type::Timestamp, Type::HugeInt, Type::Date,
    Type::IntervalDayTime, Type::IntervalYearMonth, Type::Json, Type::Unknown,
];

fn arb_type() -> impl Strategy<Value = Type> {
    // Every scalar as likely as a decimal.
    let leaf = prop_oneof![
        16 => prop::sample::select(SCALARS.to_vec()),
        1 => (1u8..=38)
            .prop_flat_map(|p| (Just(p), 0..=p))
            .prop_map(|(p, s)| Type::decimal(p, s).unwrap()),
    ];
    leaf.prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            inner.clone().prop_map(Type::array),
            (inner.clone(), inner.clone()).prop_map(|(k, v)| Type::map(k, v)),
            vec(inner, 1..4).prop_map(|types| {
                Type::row(
                    types
                        .into_iter()
                        .enumerate()
                        .map(|(i, t)| (format!("f{i}"), t)),
                )
            }),
        ]
    })
}

fn arb_value(ty: &Type) -> BoxedStrategy<Value> {
    let non_null = match ty {
        Type::Boolean => any::<bool>().prop_map(Value::Boolean).boxed(),
        Type::TinyInt => any::<i8>().prop_map(Value::TinyInt).boxed(),
        Type::SmallInt => any::<i16>().prop_map(Value::SmallInt).boxed(),
        Type::Integer => any::<i32>().prop_map(Value::Integer).boxed(),
        Type::BigInt => any::<i64>().prop_map(Value::BigInt).boxed(),
        Type::Real => any::<u32>()
            .prop_map(|bits| Value::Real(f32::from_bits(bits)))
            .boxed(),
        Type::Double => any::<u64>()
            .prop_map(|bits| Value::Double(f64::from_bits(bits)))
            .boxed(),
        Type::Varchar => "\\PC{0,20}".prop_map(Value::Varchar).boxed(),
        Type::Varbinary => vec(any::<u8>(), 0..24).prop_map(Value::Varbinary).boxed(),
        Type::Timestamp => (any::<i64>(), any::<u64>())
            .prop_map(|(seconds, nanos)| Value::Timestamp(Timestamp { seconds, nanos }))
            .boxed(),
        Type::HugeInt => any::<i128>().prop_map(Value::HugeInt).boxed(),
        Type::Date => any::<i32>().prop_map(Value::Date).boxed(),
        &Type::Decimal { precision, scale } => {
            let limit = 10i128.pow(u32::from(precision));
            (-limit + 1..limit)
                .prop_map(move |unscaled| Value::Decimal { unscaled, scale })
                .boxed()
        }
        Type::IntervalDayTime => any::<i64>().prop_map(Value::IntervalDayTime).boxed(),
        Type::IntervalYearMonth => any::<i32>().prop_map(Value::IntervalYearMonth).boxed(),
        Type::Json => "\\PC{0,20}".prop_map(Value::Json).boxed(),
        Type::Unknown => Just(Value::Null).boxed(),
        Type::Array(element) => vec(arb_value(element), 0..4).prop_map(Value::Array).boxed(),
        Type::Map(key, value) => vec((arb_value(key), arb_value(value)), 0..3)
            .prop_map(Value::Map)
            .boxed(),
        Type::Row(fields) => fields
            .iter()
            .map(|(name, field)| {
                let name = name.clone();
                arb_value(field).prop_map(move |v| (name.clone(), v))
            })
            .collect::<Vec<_>>()
            .prop_map(Value::Row)
            .boxed(),
    };
    prop_oneof![1 => Just(Value::Null), 4 => non_null].boxed()
}

fn arb_flat(ty: Type) -> BoxedStrategy<Vector> {
    vec(arb_value(&ty), 0..6)
        .prop_map(move |values| Vector::from_values(ty.clone(), &values).unwrap())
        .boxed()
}

/// Row ranges `(offset, size)` within `limit` elements, with null flags.
fn arb_ranges(limit: usize) -> impl Strategy<Value = Vec<(i32, i32, bool)>> {
    vec((0..=limit, 0..=limit, any::<bool>()), 0..5).prop_map(move |rows| {
        rows.into_iter()
            .map(|(a, b, null)| {
                let (start, end) = (a.min(b), a.max(b));
                (start as i32, (end - start) as i32, null)
            })
            .collect()
    })
}

/// A vector of `ty` whose encodings, and those of its children, are random.
fn arb_vector(ty: Type, depth: u32) -> BoxedStrategy<Vector> {
    if depth == 0 {
        return arb_flat(ty);
    }
    let inner = arb_vector(ty.clone(), depth - 1);
    let dictionary = inner.clone().prop_flat_map(|base| {
        let n = base.len() as i32;
        vec((0..n.max(1), any::<bool>()), 0..6).prop_map(move |rows| {
            // With an empty base every row must be null.
            let nulls = rows.iter().map(|&(_, null)| null || n == 0).collect();
            let indices = rows.iter().map(|&(index, _)| index).collect();
            Vector::dictionary(base.clone(), indices, Some(nulls)).unwrap()
        })
    });
    let constant =
        (inner.clone(), any::<prop::sample::Index>(), 0usize..5).prop_map(|(base, index, size)| {
            // A scalar cannot be copied out of an empty or unloaded base: use the null constant.
            let null = Vector::constant_value(base.ty().clone(), &Value::Null, size).unwrap();
            if base.is_empty() {
                null
            } else {
                match Vector::constant(base.clone(), index.index(base.len()), size) {
                    Ok(constant) => constant,
                    Err(err) if err.kind() == ErrorKind::NotLoaded => null,
                    Err(err) => panic!("{err}"),
                }
            }
        });
    let unloaded_ty = ty.clone();
    let mut options: Vec<(u32, BoxedStrategy<Vector>)> = vec![
        (2, arb_flat(ty.clone())),
        (2, dictionary.boxed()),
        (1, constant.boxed()),
        (1, inner.clone().prop_map(Vector::lazy).boxed()),
        (
            1,
            (0usize..5)
                .prop_map(move |n| Vector::unloaded_lazy(unloaded_ty.clone(), n).unwrap())
                .boxed(),
        ),
    ];
    match &ty {
        Type::Row(fields) => {
            let row_ty = ty.clone();
            let children: Vec<BoxedStrategy<Option<Vector>>> = fields
                .iter()
                .map(|(_, field)| {
                    prop::option::weighted(0.9, arb_vector(field.clone(), depth - 1)).boxed()
                })
                .collect();
            let row = (children, vec(any::<bool>(), 0..6)).prop_map(move |(children, nulls)| {
                let size = children
                    .iter()
                    .flatten()
                    .map(Vector::len)
                    .chain([nulls.len()])
                    .min()
                    .unwrap_or(0);
                let nulls = nulls[..size].to_vec();
                Vector::flat_row(row_ty.clone(), size, children, Some(nulls)).unwrap()
            });
            options.push((2, row.boxed()));
        }
        Type::Array(element) => {
            let array = arb_vector((**element).clone(), depth - 1).prop_flat_map(|elements| {
                arb_ranges(elements.len()).prop_map(move |rows| {
                    Vector::flat_array(
                        rows.iter().map(|r| r.0).collect(),
                        rows.iter().map(|r| r.1).collect(),
                        elements.clone(),
                        Some(rows.iter().map(|r| r.2).collect()),
                    )
                    .unwrap()
                })
            });
            options.push((2, array.boxed()));
        }
        Type::Map(key, value) => {
            let map = (
                arb_vector((**key).clone(), depth - 1),
                arb_vector((**value).clone(), depth - 1),
            )
                .prop_flat_map(|(keys, values)| {
                    arb_ranges(keys.len().min(values.len())).prop_map(move |rows| {
                        Vector::flat_map(
                            rows.iter().map(|r| r.0).collect(),
                            rows.iter().map(|r| r.1).collect(),
                            keys.clone(),
                            values.clone(),
                            Some(rows.iter().map(|r| r.2).collect()),
                        )
                        .unwrap()
                    })
                });
            options.push((2, map.boxed()));
        }
        _ => {}
    }
    proptest::strategy::Union::new_weighted(options).boxed()
}

fn arb_tree() -> impl Strategy<Value = Vector> {
    arb_type().prop_flat_map(|ty| arb_vector(ty, 2))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(160))]

    #[test]
    fn random_vector_trees_round_trip_structurally(vector in arb_tree()) {
        let bytes = to_bytes(&vector).unwrap();
        let back = from_bytes(&bytes).unwrap();
        prop_assert_eq!(&back, &vector);
        prop_assert_eq!(&restore(&bytes[..]).unwrap(), &vector);
        prop_assert_eq!(to_bytes(&back).unwrap(), bytes);
        prop_assert_eq!(back.to_string(), vector.to_string());
    }

    #[test]
    fn every_truncation_of_a_random_tree_is_an_error(vector in arb_tree(), cut in any::<prop::sample::Index>()) {
        let bytes = to_bytes(&vector).unwrap();
        let len = cut.index(bytes.len());
        for result in [from_bytes(&bytes[..len]), restore(&bytes[..len])] {
            let err = result.unwrap_err();
            prop_assert_eq!(err.kind(), ErrorKind::UnexpectedEnd, "prefix {}: {}", len, err);
            prop_assert!(err.offset().is_some_and(|at| at <= len as u64), "prefix {}: {}", len, err);
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Reading {
    sensor: String,
    at: i64,
    value: Option<f64>,
    flags: Vec<u8>,
    labels: BTreeMap<String, i32>,
    position: (i16, i16),
    ok: bool,
}

fn arb_reading() -> impl Strategy<Value = Reading> {
    (
        "\\PC{0,16}",
        any::<i64>(),
        prop::option::of(-1e9f64..1e9),
        vec(any::<u8>(), 0..4),
        prop::collection::btree_map("[a-z]{1,3}", any::<i32>(), 0..3),
        any::<(i16, i16)>(),
        any::<bool>(),
    )
        .prop_map(|(sensor, at, value, flags, labels, position, ok)| Reading {
            sensor,
            at,
            value,
            flags,
            labels,
            position,
            ok,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn serde_rows_round_trip_through_flat_and_dictionary(
        rows in vec(arb_reading(), 1..8),
        picks in vec(any::<prop::sample::Index>(), 0..10),
    ) {
        let flat = from_rows(&rows).unwrap();
        prop_assert_eq!(to_rows::<Reading>(&flat).unwrap(), rows.clone());
        let restored = from_bytes(&to_bytes(&flat).unwrap()).unwrap();
        prop_assert_eq!(to_rows::<Reading>(&restored).unwrap(), rows.clone());
        let indices: Vec<i32> = picks.iter().map(|p| p.index(rows.len()) as i32).collect();
        let expected: Vec<Reading> = indices.iter().map(|&i| rows[i as usize].clone()).collect();
        let dict = Vector::dictionary(flat, indices, None).unwrap();
        let dict = from_bytes(&to_bytes(&dict).unwrap()).unwrap();
        prop_assert_eq!(to_rows::<Reading>(&dict).unwrap(), expected);
    }
}
