//! Helpers shared by the fuzz targets, each of which includes this file with `#[path]` and
//! uses only some of it: building trees from the fuzz input, the "what we write, we read"
//! check, and calling every entry point of a TOC reader's nodes.
#![allow(dead_code)]

// The trees of the round trips and their depth, as `tests/tests/limits_roundtrip.rs` has them.
#[path = "../../../tests/src/limit_trees.rs"]
pub mod limit_trees;

// An `f64` read element by element, as `tests/src/float_reader.rs` has it.
#[path = "../../../tests/src/float_reader.rs"]
pub mod float_reader;

use std::collections::BTreeMap;
use std::fmt::Debug;

use libfuzzer_sys::arbitrary::{Arbitrary, Result, Unstructured};
use serde_formats::toc::{Reader, Source};
use serde_formats::{Error, ErrorKind};

/// Up to `max` items, each made by `item` with one unit less of `budget`.
pub fn items<T>(
    u: &mut Unstructured<'_>,
    budget: &mut u32,
    max: usize,
    mut item: impl FnMut(&mut Unstructured<'_>, &mut u32) -> Result<T>,
) -> Result<Vec<T>> {
    let n = u.int_in_range(0..=max)?;
    let mut items = Vec::with_capacity(n);
    for _ in 0..n {
        *budget = budget.saturating_sub(1);
        items.push(item(u, budget)?);
    }
    Ok(items)
}

/// `None`, or an item made by `item`; either way one unit of `budget` is spent.
pub fn boxed<T>(
    u: &mut Unstructured<'_>,
    budget: &mut u32,
    item: impl FnOnce(&mut Unstructured<'_>, &mut u32) -> Result<T>,
) -> Result<Option<Box<T>>> {
    *budget = budget.saturating_sub(1);
    Ok(if u.arbitrary()? {
        Some(Box::new(item(u, budget)?))
    } else {
        None
    })
}

/// Which kind of node to make: one of the `leaves` first kinds once `budget` is spent, else
/// any of the `kinds`.
pub fn choice(u: &mut Unstructured<'_>, budget: u32, leaves: u32, kinds: u32) -> Result<u32> {
    u.int_in_range(0..=if budget == 0 { leaves - 1 } else { kinds - 1 })
}

/// A map of up to `max` entries, each value made by `item` with one unit less of `budget`.
pub fn map<K: for<'a> Arbitrary<'a> + Ord, T>(
    u: &mut Unstructured<'_>,
    budget: &mut u32,
    max: usize,
    mut item: impl FnMut(&mut Unstructured<'_>, &mut u32) -> Result<T>,
) -> Result<BTreeMap<K, T>> {
    let entries = items(u, budget, max, |u, budget| {
        Ok((u.arbitrary()?, item(u, budget)?))
    })?;
    Ok(entries.into_iter().collect())
}

/// A small tree made by `tree` (a budget of 24 containers), wrapped in up to 70 levels: `wrap`
/// makes a level of the kind (below `kinds`) the input picks. Around a depth limit of 128.
pub fn wrapped_tree<T>(
    u: &mut Unstructured<'_>,
    tree: impl FnOnce(&mut Unstructured<'_>, &mut u32) -> Result<T>,
    kinds: u32,
    mut wrap: impl FnMut(u32, T) -> T,
) -> Result<T> {
    let mut budget = 24;
    let mut value = tree(u, &mut budget)?;
    let levels = u.int_in_range(0..=70)?;
    for _ in 0..levels {
        value = wrap(u.int_in_range(0..=kinds - 1)?, value);
    }
    Ok(value)
}

/// What we write, we read: `written` (what the writer made of `value`) reads back equal
/// through `read`; or it is a refusal for a limit `value` is past: the depth limit (`deep`)
/// or one of `other_limits` (a kind, and whether `value` is past that limit).
pub fn reads_what_it_writes<T: PartialEq + Debug>(
    value: &T,
    written: Result<Vec<u8>, Error>,
    read: impl FnOnce(&[u8]) -> Result<T, Error>,
    deep: bool,
    other_limits: &[(ErrorKind, bool)],
) {
    match written {
        Ok(bytes) => {
            assert!(!deep, "wrote a value deeper than the limit");
            let back = read(&bytes).expect("what we write, we read");
            assert_eq!(&back, value);
        }
        Err(err) => {
            let past = if err.kind() == ErrorKind::DepthLimitExceeded {
                deep
            } else {
                match other_limits.iter().find(|(kind, _)| *kind == err.kind()) {
                    Some(&(_, past)) => past,
                    None => panic!("unexpected refusal: {err}"),
                }
            };
            assert!(past, "refused a value within the limit: {err}");
        }
    }
}

/// Every node entry point on the nodes at `paths` that exist: each must return.
pub fn walk_nodes<S: Source>(reader: &Reader<S>, paths: &[&str]) {
    for &path in paths {
        if let Ok(node) = reader.node(path) {
            let _ = node.codec();
            let _ = node.len();
            let _ = node.keys::<String>();
            let _ = node.decode::<serde_formats::toc::Value>();
            let _ = node.to_msgpack();
        }
    }
}
