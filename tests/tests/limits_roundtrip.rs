//! What we write, we read, for every library format near its limits: deep nesting around the
//! depth limit and long runs of zero-sized or nil items. Whatever the encoder accepts, the
//! decoder reads back equal under default limits, and the encoder refuses only values past a
//! limit, with depth and zero-sized counts computed from the module docs' definitions (in
//! `integration_tests::limit_trees`, shared with the fuzz targets).
//! (The shallow, rich round trips live in `dynd_roundtrip.rs`, `typed_column.rs` and the toc
//! unit tests; the fuzz targets `*_roundtrip` check the same properties.)

use std::collections::BTreeMap;

use integration_tests::limit_trees::{
    dy_depth, dy_units, tc_depth, DyTree as Dy, TcPair, TcTree as Tc,
};
use proptest::prelude::*;
use serde_formats::toc::{self, Config, Reader};
use serde_formats::{dynd, typed_column, ErrorKind};

/// `tree` wrapped in levels, each made by `wrap` from a random byte: mostly near `around`
/// levels, sometimes few.
fn wrapped<T: std::fmt::Debug>(
    tree: impl Strategy<Value = T>,
    around: usize,
    wrap: fn(T, u8) -> T,
) -> impl Strategy<Value = T> {
    let levels = prop_oneof![
        1 => proptest::collection::vec(any::<u8>(), 0..4),
        3 => proptest::collection::vec(any::<u8>(), around - 4..around + 4),
    ];
    (tree, levels).prop_map(move |(tree, wraps)| wraps.into_iter().fold(tree, wrap))
}

fn unit_run() -> impl Strategy<Value = usize> {
    prop_oneof![3 => 0usize..50, 1 => 1000usize..5000]
}

// ---- typed-column ----

fn tc_tree() -> impl Strategy<Value = Tc> {
    let leaf = prop_oneof![
        any::<i64>().prop_map(Tc::Int),
        ".{0,6}".prop_map(Tc::Text),
        any::<bool>().prop_map(Tc::Flag),
        Just(Tc::Unit),
        unit_run().prop_map(|n| Tc::Units(vec![(); n])),
        Just(Tc::Opt(None)),
    ];
    let tree = leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Tc::List),
            inner.clone().prop_map(|t| Tc::Opt(Some(Box::new(t)))),
            proptest::collection::btree_map(any::<u8>(), inner.clone(), 0..3).prop_map(Tc::Map),
            proptest::collection::vec((inner, any::<bool>()), 0..4).prop_map(|pairs| {
                Tc::Pairs(
                    pairs
                        .into_iter()
                        .map(|(tree, flag)| TcPair { tree, flag })
                        .collect(),
                )
            }),
        ]
    });
    // Two Columns a level: 64 levels reach the limit of 128.
    wrapped(tree, 62, |tree, wrap| match wrap % 3 {
        0 => Tc::List(vec![tree]),
        1 => Tc::Opt(Some(Box::new(tree))),
        _ => Tc::Map(BTreeMap::from([(wrap, tree)])),
    })
}

// ---- DyND ----

fn dy_tree() -> impl Strategy<Value = Dy> {
    let leaf = prop_oneof![
        any::<i32>().prop_map(Dy::Int),
        proptest::option::of(i16::MIN + 1..=i16::MAX).prop_map(Dy::Maybe),
        ".{0,6}".prop_map(Dy::Text),
        Just(Dy::Unit),
        // Runs around the zero-sized budget of 2^20, too.
        prop_oneof![
            4 => unit_run(),
            1 => (1usize << 20) - 2..(1 << 20) + 2,
        ]
        .prop_map(|n| Dy::Units(vec![(); n])),
    ];
    let tree = leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Dy::List),
            inner.clone().prop_map(|t| Dy::Opt(Some(Box::new(t)))),
            (inner.clone(), any::<u8>()).prop_map(|(t, b)| Dy::Pair(Box::new(t), b)),
            proptest::collection::btree_map(any::<u16>(), inner, 0..3).prop_map(Dy::Map),
        ]
    });
    wrapped(tree, 62, |tree, wrap| match wrap % 4 {
        0 => Dy::List(vec![tree]),
        1 => Dy::Opt(Some(Box::new(tree))),
        2 => Dy::Pair(Box::new(tree), wrap),
        _ => Dy::Map(BTreeMap::from([(u16::from(wrap), tree)])),
    })
}

/// An `array[Any]` nested around the depth limit: a `var * ?int16` (with nulls) or a run of
/// voids, under `var *` / `?` / `1 *` / struct levels.
fn dy_array() -> impl Strategy<Value = (dynd::Type, dynd::Value)> {
    use dynd::{Type, Value};
    let leaf = prop_oneof![
        proptest::collection::vec(proptest::option::of(-5i16..5), 0..5).prop_map(|items| (
            Type::Var(Box::new(Type::Option(Box::new(Type::Int16)))),
            Value::List(
                items
                    .into_iter()
                    .map(|v| v.map_or(Value::Missing, Value::Int16))
                    .collect()
            ),
        )),
        unit_run().prop_map(|n| (
            Type::Var(Box::new(Type::Void)),
            Value::List(vec![Value::Void; n])
        )),
    ];
    wrapped(leaf, 126, |(ty, value), wrap| match wrap % 4 {
        0 => (Type::Var(Box::new(ty)), Value::List(vec![value])),
        // A present `?T` is its payload (`Present` only marks `Some(None)`).
        1 => (Type::Option(Box::new(ty)), value),
        2 => (Type::Fixed(1, Box::new(ty)), Value::List(vec![value])),
        _ => (
            Type::Struct(vec![("f".into(), ty)]),
            Value::Struct(vec![("f".into(), value)]),
        ),
    })
}

/// Levels the data of `value` (of type `ty`) counts, as the DyND module docs define them.
fn data_depth(ty: &dynd::Type, value: &dynd::Value) -> usize {
    use dynd::{Type, Value};
    match (ty, value) {
        (Type::Var(element) | Type::Fixed(_, element), Value::List(items)) => {
            1 + items
                .iter()
                .map(|item| data_depth(element, item))
                .max()
                .unwrap_or(0)
        }
        (Type::Struct(fields), Value::Struct(items)) => {
            1 + fields
                .iter()
                .zip(items)
                .map(|((_, ty), (_, item))| data_depth(ty, item))
                .max()
                .unwrap_or(0)
        }
        (Type::Option(_), Value::Missing) => 0,
        (Type::Option(inner), _) => 1 + data_depth(inner, value),
        _ => 0,
    }
}

// ---- TOC-MessagePack ----

/// Arrays and maps on the deepest path.
fn toc_depth(value: &toc::Value) -> usize {
    match value {
        toc::Value::Array(items) => 1 + items.iter().map(toc_depth).max().unwrap_or(0),
        toc::Value::Map(entries) => {
            1 + entries
                .iter()
                .map(|(k, v)| toc_depth(k).max(toc_depth(v)))
                .max()
                .unwrap_or(0)
        }
        _ => 0,
    }
}

fn toc_value() -> impl Strategy<Value = toc::Value> {
    use toc::Value;
    let leaf = prop_oneof![
        Just(Value::Nil),
        any::<bool>().prop_map(Value::Bool),
        any::<u64>().prop_map(Value::UInt),
        (i64::MIN..0).prop_map(Value::Int),
        any::<f64>().prop_map(Value::F64),
        any::<f32>().prop_map(Value::F32),
        ".{0,12}".prop_map(Value::Str),
        proptest::collection::vec(any::<u8>(), 0..12).prop_map(Value::Bin),
        unit_run().prop_map(|n| Value::Array(vec![Value::Nil; n])),
    ];
    let tree = leaf.prop_recursive(3, 24, 5, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            proptest::collection::vec((inner.clone(), inner), 0..4).prop_map(Value::Map),
        ]
    });
    wrapped(tree, 126, |value, wrap| match wrap % 3 {
        0 => Value::Map(vec![(Value::UInt(u64::from(wrap)), value)]),
        1 => Value::Array(vec![value, Value::Nil]),
        _ => Value::Array(vec![value]),
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn typed_column_reads_what_it_writes(value in tc_tree()) {
        let deep = tc_depth(&value) > typed_column::DEFAULT_DEPTH_LIMIT;
        match typed_column::to_bytes(&value) {
            Ok(bytes) => {
                prop_assert!(!deep, "wrote a tree deeper than the limit");
                prop_assert_eq!(typed_column::from_bytes::<Tc>(&bytes).unwrap(), value);
            }
            Err(err) => {
                prop_assert_eq!(err.kind(), ErrorKind::DepthLimitExceeded);
                prop_assert!(deep, "refused a tree within the limit: {}", err);
            }
        }
    }

    #[test]
    fn dynd_reads_what_it_writes(value in dy_tree()) {
        let deep = dy_depth(&value) > dynd::DEFAULT_DEPTH_LIMIT;
        // The budget is at least 2^20: within it nothing is refused for zero-sized elements.
        let many = dy_units(&value) > dynd::DEFAULT_ZERO_SIZED_LIMIT;
        match dynd::to_bytes(&value) {
            Ok(bytes) => {
                prop_assert!(!deep, "wrote a tree deeper than the limit");
                prop_assert_eq!(dynd::from_bytes::<Dy>(&bytes).unwrap(), value);
            }
            Err(err) => match err.kind() {
                ErrorKind::DepthLimitExceeded => prop_assert!(deep, "{}", err),
                ErrorKind::ZeroSizedLimitExceeded => prop_assert!(many, "{}", err),
                _ => prop_assert!(false, "unexpected refusal: {}", err),
            },
        }
    }

    #[test]
    fn dynd_arrays_read_what_they_write((ty, value) in dy_array()) {
        // The type string may nest 128 constructors; the data counts every level of the type
        // it passes through (a missing `?T` none below it), and the `Array` itself one more
        // when written as a value of its own.
        let fits = ty.nesting() <= dynd::DEFAULT_DEPTH_LIMIT
            && data_depth(&ty, &value) < dynd::DEFAULT_DEPTH_LIMIT;
        let array = dynd::Array { ty, value };
        match dynd::to_bytes(&array) {
            Ok(bytes) => {
                prop_assert!(fits, "wrote an array deeper than the limit");
                prop_assert_eq!(&dynd::from_array_bytes(&bytes).unwrap(), &array);
                prop_assert_eq!(&dynd::from_bytes::<dynd::Array>(&bytes).unwrap(), &array);
            }
            Err(err) => {
                // A type too deep is found by `Array`'s own `Serialize`, which can only give
                // serde's custom error (kind `Message`), naming the limit all the same.
                prop_assert!(
                    err.kind() == ErrorKind::DepthLimitExceeded
                        || err.to_string().contains("type nested deeper than the depth limit 128"),
                    "{}", err
                );
                prop_assert!(!fits, "refused an array within the limit: {}", err);
            }
        }
    }

    #[test]
    fn toc_reads_what_it_writes(
        value in toc_value(),
        block_size in prop_oneof![1u64..64, Just(8192u64)],
        trivial_size in 0u64..24,
    ) {
        let config = Config::new().block_size(block_size).trivial_size(trivial_size);
        let deep = toc_depth(&value) > toc::DEFAULT_DEPTH_LIMIT;
        match toc::to_bytes_with(&value, &config) {
            Ok(file) => {
                prop_assert!(!deep, "wrote a value deeper than the limit");
                prop_assert_eq!(&toc::from_bytes::<toc::Value>(&file).unwrap(), &value);
                let reader = Reader::from_slice(&file).unwrap();
                reader.toc_stats().unwrap();
                prop_assert_eq!(&reader.root().unwrap().decode::<toc::Value>().unwrap(), &value);
            }
            Err(err) => {
                prop_assert_eq!(err.kind(), ErrorKind::DepthLimitExceeded);
                prop_assert!(deep, "refused a value within the limit: {}", err);
            }
        }
    }
}
