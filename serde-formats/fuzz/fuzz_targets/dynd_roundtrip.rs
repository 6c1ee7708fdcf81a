//! What we write, we read (DyND): any tree the serializer accepts — deep nesting near the
//! depth limit and long runs of zero-sized elements included — the deserializer reads back
//! equal under default limits; the serializer refuses only trees past a documented limit.
#![no_main]

use std::collections::BTreeMap;

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use serde::{Deserialize, Serialize};
use serde_formats::{dynd, ErrorKind};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum Tree {
    Int(i32),
    Maybe(Option<i16>),
    Text(String),
    Unit,
    Units(Vec<()>),
    List(Vec<Tree>),
    Opt(Option<Box<Tree>>),
    Pair(Box<Tree>, u8),
    Map(BTreeMap<u16, Tree>),
}

/// Levels on the deepest path, counted as the module docs define depth: every enum one, a
/// tuple variant's fields one more, a sequence or map one, a `Some` one.
fn depth(tree: &Tree) -> usize {
    match tree {
        Tree::Int(_) | Tree::Text(_) | Tree::Unit | Tree::Maybe(None) | Tree::Opt(None) => 1,
        Tree::Maybe(Some(_)) | Tree::Units(_) => 2,
        Tree::List(items) => 2 + items.iter().map(depth).max().unwrap_or(0),
        Tree::Opt(Some(inner)) | Tree::Pair(inner, _) => 2 + depth(inner),
        Tree::Map(map) => 2 + map.values().map(depth).max().unwrap_or(0),
    }
}

/// Elements that take no bytes: only the units (every `Tree` takes its variant index).
fn units(tree: &Tree) -> usize {
    match tree {
        Tree::Units(units) => units.len(),
        Tree::List(items) => items.iter().map(units).sum(),
        Tree::Opt(Some(inner)) | Tree::Pair(inner, _) => units(inner),
        Tree::Map(map) => map.values().map(units).sum(),
        _ => 0,
    }
}

fn tree(u: &mut Unstructured<'_>, budget: &mut u32) -> Result<Tree> {
    let choice = if *budget == 0 {
        u.int_in_range(0..=4)?
    } else {
        u.int_in_range(0..=8)?
    };
    Ok(match choice {
        0 => Tree::Int(u.arbitrary()?),
        1 => Tree::Maybe(u.arbitrary::<Option<i16>>()?.filter(|v| *v != i16::MIN)),
        2 => Tree::Text(u.arbitrary()?),
        3 => Tree::Unit,
        // Runs around the zero-sized budget (2^20) too.
        4 => Tree::Units(vec![
            ();
            match u.int_in_range(0..=3)? {
                0 => u.int_in_range(0..=100)?,
                1 => u.int_in_range(0..=5000)?,
                _ => u.int_in_range(1_000_000..=1_100_000)?,
            }
        ]),
        5 => {
            let n = u.int_in_range(0..=4)?;
            let mut items = Vec::with_capacity(n);
            for _ in 0..n {
                *budget = budget.saturating_sub(1);
                items.push(tree(u, budget)?);
            }
            Tree::List(items)
        }
        6 => {
            *budget = budget.saturating_sub(1);
            Tree::Opt(if u.arbitrary()? {
                Some(Box::new(tree(u, budget)?))
            } else {
                None
            })
        }
        7 => {
            *budget = budget.saturating_sub(1);
            Tree::Pair(Box::new(tree(u, budget)?), u.arbitrary()?)
        }
        _ => {
            let n = u.int_in_range(0..=3)?;
            let mut map = BTreeMap::new();
            for _ in 0..n {
                *budget = budget.saturating_sub(1);
                map.insert(u.arbitrary()?, tree(u, budget)?);
            }
            Tree::Map(map)
        }
    })
}

/// A small tree wrapped in up to 70 levels (two each): around the depth limit of 128.
fn input(u: &mut Unstructured<'_>) -> Result<Tree> {
    let mut budget = 24;
    let mut value = tree(u, &mut budget)?;
    let levels = u.int_in_range(0..=70)?;
    for _ in 0..levels {
        value = match u.int_in_range(0..=3)? {
            0 => Tree::List(vec![value]),
            1 => Tree::Opt(Some(Box::new(value))),
            2 => Tree::Pair(Box::new(value), 0),
            _ => Tree::Map(BTreeMap::from([(0, value)])),
        };
    }
    Ok(value)
}

fuzz_target!(|data: &[u8]| {
    let Ok(value) = input(&mut Unstructured::new(data)) else {
        return;
    };
    let deep = depth(&value) > dynd::DEFAULT_DEPTH_LIMIT;
    // The budget is at least 2^20; within it nothing can be refused for zero-sized elements.
    let many = units(&value) > dynd::DEFAULT_ZERO_SIZED_LIMIT;
    match dynd::to_bytes(&value) {
        Ok(bytes) => {
            assert!(!deep, "wrote a tree deeper than the limit");
            let back: Tree = dynd::from_bytes(&bytes).expect("what we write, we read");
            assert_eq!(back, value);
        }
        Err(err) => match err.kind() {
            ErrorKind::DepthLimitExceeded => assert!(deep, "refused within the depth limit: {err}"),
            ErrorKind::ZeroSizedLimitExceeded => assert!(many, "refused within the budget: {err}"),
            _ => panic!("unexpected refusal: {err}"),
        },
    }
});
