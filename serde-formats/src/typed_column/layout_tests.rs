//! The serializer's shortcuts write the same bytes as its plain path: columns opening eagerly
//! after a non-uniform sibling, sequences of `f64` written in one loop, and the framing of
//! `to_bytes`, checked on random values with and without compression.

use proptest::prelude::*;
use serde::Serialize;
use serde_json::Value;

use super::{to_bytes, to_writer, Serializer, TypedColumns};

fn columns<T: Serialize>(value: &T, compress: bool, eager: bool) -> TypedColumns {
    let mut serializer = Serializer::new().with_compression(compress);
    serializer.out.eager_opening = eager;
    value.serialize(&mut serializer).unwrap();
    serializer.into_columns().unwrap()
}

/// Values mixing uniform runs (numbers, bools, equal-length arrays) with strings, objects and
/// ragged arrays, at several depths, so columns break uniformity at every position.
fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        any::<bool>().prop_map(Value::from),
        (-3i64..3).prop_map(Value::from),
        (-3i32..3).prop_map(|n| Value::from(f64::from(n) / 2.0)),
        "[a-c]{0,2}".prop_map(Value::from),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            // Several arrays of one length: uniform siblings that may stay uniform.
            (0usize..3, prop::collection::vec(inner.clone(), 1..4)).prop_map(|(n, items)| {
                Value::Array(
                    items
                        .into_iter()
                        .map(|item| Value::Array(vec![item; n]))
                        .collect(),
                )
            }),
            prop::collection::btree_map("[a-b]", inner, 0..3)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

#[derive(Serialize, Clone, Debug)]
struct Row {
    id: u32,
    points: Vec<f64>,
    name: Option<String>,
    pair: (f64, f64),
    shape: Shape,
    /// The dense path, after siblings that may have broken uniformity.
    #[serde(with = "crate::dense")]
    samples: Vec<f64>,
}

/// Struct and tuple variants: payloads that open unframed inside a struct that did.
#[derive(Serialize, Clone, Debug)]
enum Shape {
    Dot,
    Circle { r: f64, filled: bool },
    Segment(i32, i32),
}

fn rows() -> impl Strategy<Value = Vec<Row>> {
    let row = (
        any::<u32>(),
        prop::collection::vec(-2i32..2, 0..3),
        prop::option::of("[x-z]{0,2}"),
        (-2i32..2, -2i32..2),
        0u8..3,
        prop::collection::vec(-2i32..2, 0..3),
    )
        .prop_map(|(id, points, name, (a, b), shape, samples)| Row {
            id,
            points: points.into_iter().map(f64::from).collect(),
            name,
            pair: (a.into(), b.into()),
            shape: match shape {
                0 => Shape::Dot,
                1 => Shape::Circle {
                    r: a.into(),
                    filled: b > 0,
                },
                _ => Shape::Segment(a, b),
            },
            samples: samples.into_iter().map(f64::from).collect(),
        });
    prop::collection::vec(row, 0..80)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn eager_columns_write_the_plain_bytes(value in value()) {
        for compress in [true, false] {
            prop_assert_eq!(columns(&value, compress, true), columns(&value, compress, false));
        }
        let framed = to_bytes(&value).unwrap();
        prop_assert_eq!(&framed, &columns(&value, true, false).to_bytes());
        let mut written = Vec::new();
        to_writer(&mut written, &value).unwrap();
        prop_assert_eq!(written, framed);
    }

    #[test]
    fn eager_rows_write_the_plain_bytes(rows in rows()) {
        for compress in [true, false] {
            prop_assert_eq!(columns(&rows, compress, true), columns(&rows, compress, false));
        }
        prop_assert_eq!(to_bytes(&rows).unwrap(), columns(&rows, true, false).to_bytes());
    }
}

/// An `f64` that serde's collections hand over as something other than `&f64`, so a
/// `Vec<Element>` takes the element-by-element path where a `Vec<f64>` takes the one-loop path
/// of `collect_seq`.
#[derive(Clone, Copy, Debug)]
struct Element(f64);

impl Serialize for Element {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.0)
    }
}

/// Float sequences at every kind of place, written either way.
#[derive(Serialize, Clone, Debug)]
enum Tree<F> {
    Floats(Vec<F>),
    /// Sequences side by side: after one breaks uniformity (a mixed one), the next opens with
    /// its slots reserved.
    Nested(Vec<Inner<F>>),
    Many(Vec<Tree<F>>),
    Keyed(std::collections::BTreeMap<String, Tree<F>>),
    Text(String),
    Maybe(Option<Vec<F>>),
    Record {
        id: u8,
        values: Vec<F>,
        tail: Vec<F>,
    },
}

#[derive(Serialize, Clone, Debug)]
#[serde(untagged)]
enum Inner<F> {
    Floats(Vec<F>),
    Mixed(Vec<Leaf>),
}

#[derive(Serialize, Clone, Debug)]
#[serde(untagged)]
enum Leaf {
    Number(f64),
    Text(String),
}

impl Tree<f64> {
    fn elements(&self) -> Tree<Element> {
        let each = |values: &Vec<f64>| values.iter().copied().map(Element).collect();
        match self {
            Tree::Floats(values) => Tree::Floats(each(values)),
            Tree::Nested(lists) => Tree::Nested(
                lists
                    .iter()
                    .map(|inner| match inner {
                        Inner::Floats(values) => Inner::Floats(each(values)),
                        Inner::Mixed(leaves) => Inner::Mixed(leaves.clone()),
                    })
                    .collect(),
            ),
            Tree::Many(trees) => Tree::Many(trees.iter().map(Tree::elements).collect()),
            Tree::Keyed(map) => Tree::Keyed(
                map.iter()
                    .map(|(key, tree)| (key.clone(), tree.elements()))
                    .collect(),
            ),
            Tree::Text(text) => Tree::Text(text.clone()),
            Tree::Maybe(values) => Tree::Maybe(values.as_ref().map(each)),
            Tree::Record { id, values, tail } => Tree::Record {
                id: *id,
                values: each(values),
                tail: each(tail),
            },
        }
    }
}

fn tree() -> impl Strategy<Value = Tree<f64>> {
    // Lengths on both sides of the 64 elements from which a column sizes itself early.
    let floats = || {
        prop_oneof![
            prop::collection::vec(-2i32..2, 0..4),
            prop::collection::vec(-2i32..2, 60..70),
        ]
        .prop_map(|values| values.into_iter().map(f64::from).collect::<Vec<f64>>())
    };
    let leaf = prop_oneof![
        floats().prop_map(Tree::Floats),
        prop::collection::vec(
            prop_oneof![
                floats().prop_map(Inner::Floats),
                prop::collection::vec(
                    prop_oneof![
                        (-2i32..2).prop_map(|n| Leaf::Number(n.into())),
                        "[a-c]{0,2}".prop_map(Leaf::Text),
                    ],
                    0..4
                )
                .prop_map(Inner::Mixed),
            ],
            0..5
        )
        .prop_map(Tree::Nested),
        "[a-c]{0,2}".prop_map(Tree::Text),
        prop::option::of(floats()).prop_map(Tree::Maybe),
        (any::<u8>(), floats(), floats()).prop_map(|(id, values, tail)| Tree::Record {
            id,
            values,
            tail
        }),
    ];
    leaf.prop_recursive(4, 32, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Tree::Many),
            prop::collection::btree_map("[a-b]", inner, 0..3).prop_map(Tree::Keyed),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn float_sequences_in_one_loop_write_the_plain_bytes(tree in tree()) {
        let plain = tree.elements();
        for compress in [true, false] {
            for eager in [true, false] {
                prop_assert_eq!(
                    columns(&tree, compress, eager),
                    columns(&plain, compress, eager)
                );
            }
        }
        prop_assert_eq!(to_bytes(&tree).unwrap(), to_bytes(&plain).unwrap());
    }
}
