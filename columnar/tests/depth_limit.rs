//! A user's depth limit (`wire::Deserializer::with_depth_limit`) is honoured at every place
//! where values nest: containers in a table, containers in a row's column (vec and map),
//! optional containers, the lazy rows of `iter_from_bytes`, and deep serde values in Generic
//! and Rle columns. For each, the least limit that decodes grows with the nesting, the limit
//! one lower fails with `DepthLimitExceeded`, and the default limit still applies.

use std::collections::BTreeMap;

use columnar::{columnar, wire, ErrorKind, Result};
use serde::{Deserialize, Serialize};

/// Decodes all of `bytes` as `T` with `limit` levels of nesting allowed.
fn decode<'de, T: Deserialize<'de>>(bytes: &'de [u8], limit: usize) -> Result<T> {
    let mut deserializer = wire::Deserializer::from_bytes(bytes).with_depth_limit(limit);
    let value = T::deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

/// The least limit under which `decode` succeeds; checks that one less is
/// `DepthLimitExceeded`.
fn least_limit(decode: impl Fn(usize) -> Result<()>) -> usize {
    let least = (0..=200)
        .find(|&limit| decode(limit).is_ok())
        .expect("decodes under a limit of 200");
    assert!(least > 0, "decodes with no nesting allowed");
    let err = decode(least - 1).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::DepthLimitExceeded, "{err}");
    least
}

/// The least limits for nestings 1, 2, 3, which grow by the same step of at least one: each
/// nested level is charged to the user's limit, not decoded under a fresh one.
fn least_limits(least: impl Fn(usize) -> usize) -> [usize; 3] {
    let limits = [least(1), least(2), least(3)];
    assert!(limits[1] > limits[0], "{limits:?}");
    assert_eq!(limits[2] - limits[1], limits[1] - limits[0], "{limits:?}");
    limits
}

/// [`least_limits`] of the values `make(1)`, `make(2)`, `make(3)`, each decoded back equal.
fn least_limits_of<T>(make: impl Fn(usize) -> T) -> [usize; 3]
where
    T: Serialize + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug,
{
    least_limits(|depth| {
        let value = make(depth);
        let bytes = columnar::to_vec(&value).unwrap();
        least_limit(|limit| {
            assert_eq!(decode::<T>(&bytes, limit)?, value);
            Ok(())
        })
    })
}

// ------------------------------------------------------------------ vec containers

#[path = "common/nested_tree.rs"]
mod nested_tree;

use nested_tree::{Node, Tree, TreeIter};

/// `depth` levels: `innermost`, then wrapped by `wrap(level, inner)` for levels 1..depth.
fn chain<T>(depth: usize, innermost: T, wrap: impl Fn(usize, T) -> T) -> T {
    (1..depth).fold(innermost, |inner, level| wrap(level, inner))
}

/// A table whose one root has a chain of `depth - 1` single children.
fn tree(depth: usize) -> Tree {
    let node = chain(depth, Node::default(), |v, node| Node {
        v: v as u32,
        children: vec![node],
    });
    Tree { roots: vec![node] }
}

#[columnar(vec, ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct Flat {
    #[columnar(strategy = "DeltaRle")]
    v: u32,
    name: String,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct FlatTable {
    #[columnar(class = "vec")]
    rows: Vec<Flat>,
}

#[test]
fn a_container_in_a_table() {
    let table = FlatTable {
        rows: vec![Flat {
            v: 1,
            name: "a".into(),
        }],
    };
    let bytes = columnar::to_vec(&table).unwrap();
    // The table's sequence (1) and its container's (1).
    let least = least_limit(|limit| {
        assert_eq!(decode::<FlatTable>(&bytes, limit)?, table);
        Ok(())
    });
    assert_eq!(least, 2);
}

#[test]
fn containers_in_a_vec_column_of_a_row() {
    let limits = least_limits_of(tree);
    // One level per container: the table's, then one per node, then the last node's empty
    // `children`.
    assert_eq!(limits, [3, 4, 5]);
}

#[test]
fn lazy_rows_of_iter_from_bytes() {
    let limits = least_limits(|depth| {
        let tree = tree(depth);
        let bytes = columnar::to_vec(&tree).unwrap();
        least_limit(|limit| {
            // The rows are decoded after the deserializer is gone, under its limit.
            let lazy = decode::<TreeIter>(&bytes, limit)?;
            let roots = lazy.roots.collect::<Result<Vec<Node>>>()?;
            assert_eq!(roots, tree.roots);
            Ok(())
        })
    });
    assert_eq!(limits, [3, 4, 5]);
}

// ------------------------------------------------------------------ map containers

#[columnar(map, ser, de)]
#[derive(Debug, Clone, PartialEq, Default)]
struct Branch {
    leaf: bool,
    #[columnar(class = "map")]
    below: BTreeMap<u8, Branch>,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct Forest {
    #[columnar(class = "map")]
    branches: BTreeMap<u8, Branch>,
}

fn forest(depth: usize) -> Forest {
    let branch = chain(depth, Branch::default(), |key, branch| Branch {
        leaf: false,
        below: BTreeMap::from([(key as u8, branch)]),
    });
    Forest {
        branches: BTreeMap::from([(0, branch)]),
    }
}

#[test]
fn containers_in_a_map_column_of_a_row() {
    let limits = least_limits_of(forest);
    // As for vec containers, and the innermost map's keys are one more sequence inside it.
    assert_eq!(limits, [4, 5, 6]);
}

// ------------------------------------------------------------------ optional containers

#[columnar(vec, ser, de)]
#[derive(Debug, Clone, PartialEq, Default)]
struct Later {
    v: u8,
    #[columnar(class = "vec", optional, index = 1)]
    more: Vec<Later>,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct LaterTable {
    #[columnar(class = "vec", optional, index = 0)]
    rows: Vec<Later>,
}

fn later(depth: usize) -> LaterTable {
    let row = chain(depth, Later::default(), |v, row| Later {
        v: v as u8,
        more: vec![row],
    });
    LaterTable { rows: vec![row] }
}

#[test]
fn optional_containers_in_a_table_and_in_a_row() {
    let limits = least_limits_of(later);
    // The table (1), then per container its (index, bytes) pair (1) and its sequence (1),
    // and the last row's empty `more` has a pair of its own (1).
    assert_eq!(limits, [6, 8, 10]);
}

// ------------------------------------------------------------------ deep serde values in columns

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
enum Deep {
    #[default]
    Leaf,
    Node(Box<Deep>),
}

fn deep(depth: usize) -> Deep {
    chain(depth + 1, Deep::Leaf, |_, inner| {
        Deep::Node(Box::new(inner))
    })
}

#[columnar(vec, ser, de)]
#[derive(Debug, Clone, PartialEq, Default)]
struct DeepRow {
    generic: Deep,
    #[columnar(strategy = "Rle")]
    rle: Deep,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct DeepTable {
    #[columnar(class = "vec")]
    rows: Vec<DeepRow>,
}

#[test]
fn deep_values_in_generic_and_rle_columns() {
    for column in ["generic", "rle"] {
        let limits = least_limits_of(|depth| {
            let row = match column {
                "generic" => DeepRow {
                    generic: deep(depth),
                    rle: Deep::Leaf,
                },
                _ => DeepRow {
                    generic: Deep::Leaf,
                    rle: deep(depth),
                },
            };
            DeepTable { rows: vec![row] }
        });
        // The table, the container, then one level per `Deep` (an enum).
        assert_eq!(limits, [4, 5, 6], "{column}");
    }
}

#[test]
fn the_default_limit_applies_to_containers_in_columns() {
    // A chain of n nodes needs n + 2 levels (see above).
    let fits = wire::DEFAULT_DEPTH_LIMIT - 2;
    // Debug builds spend more stack per level than a test thread's default has for 128.
    let decode = move || {
        let bytes = columnar::to_vec(&tree(fits + 1)).unwrap();
        let err = columnar::from_bytes::<Tree>(&bytes).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::DepthLimitExceeded, "{err}");
        let bytes = columnar::to_vec(&tree(fits)).unwrap();
        assert!(columnar::from_bytes::<Tree>(&bytes).is_ok());
    };
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(decode)
        .unwrap()
        .join()
        .unwrap();
}
