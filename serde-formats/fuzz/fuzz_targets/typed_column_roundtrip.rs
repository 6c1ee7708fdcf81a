//! What we write, we read (typed-column): any tree the serializer accepts — deep nesting near
//! the depth limit and long runs of empty Columns included — the deserializer reads back equal
//! under default limits; the serializer refuses only trees with a Column past the limit.
#![no_main]

use std::collections::BTreeMap;

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use serde::{Deserialize, Serialize};
use serde_formats::{typed_column, ErrorKind};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum Tree {
    Int(i64),
    Text(String),
    Flag(bool),
    Unit,
    Units(Vec<()>),
    List(Vec<Tree>),
    Opt(Option<Box<Tree>>),
    Map(BTreeMap<u8, Tree>),
}

/// Columns on the deepest path, counted as the module docs define depth.
fn depth(tree: &Tree) -> usize {
    // Every variant but `Unit` (a string) is a `[name, payload]` Column.
    match tree {
        Tree::Unit => 0,
        Tree::Int(_) | Tree::Text(_) | Tree::Flag(_) => 1,
        Tree::Units(units) => 2 + usize::from(!units.is_empty()),
        Tree::List(items) => 2 + items.iter().map(depth).max().unwrap_or(0),
        Tree::Opt(None) => 2,
        Tree::Opt(Some(inner)) => 2 + depth(inner),
        // The map's Column, then each entry's [key, value] Column.
        Tree::Map(map) => 2 + map.values().map(|v| 1 + depth(v)).max().unwrap_or(0),
    }
}

fn tree(u: &mut Unstructured<'_>, budget: &mut u32) -> Result<Tree> {
    let choice = if *budget == 0 {
        u.int_in_range(0..=4)?
    } else {
        u.int_in_range(0..=7)?
    };
    Ok(match choice {
        0 => Tree::Int(u.arbitrary()?),
        1 => Tree::Text(u.arbitrary()?),
        2 => Tree::Flag(u.arbitrary()?),
        3 => Tree::Unit,
        4 => Tree::Units(vec![(); u.int_in_range(0..=3000)?]),
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

/// A small tree wrapped in up to ~70 levels (two Columns each): around the limit of 128.
fn input(u: &mut Unstructured<'_>) -> Result<Tree> {
    let mut budget = 24;
    let mut value = tree(u, &mut budget)?;
    let levels = u.int_in_range(0..=70)?;
    for _ in 0..levels {
        value = match u.int_in_range(0..=2)? {
            0 => Tree::List(vec![value]),
            1 => Tree::Opt(Some(Box::new(value))),
            _ => Tree::Map(BTreeMap::from([(0, value)])),
        };
    }
    Ok(value)
}

fuzz_target!(|data: &[u8]| {
    let Ok(value) = input(&mut Unstructured::new(data)) else {
        return;
    };
    let deep = depth(&value) > typed_column::DEFAULT_DEPTH_LIMIT;
    match typed_column::to_bytes(&value) {
        Ok(bytes) => {
            assert!(!deep, "wrote a tree deeper than the limit");
            let back: Tree = typed_column::from_bytes(&bytes).expect("what we write, we read");
            assert_eq!(back, value);
        }
        Err(err) => {
            assert_eq!(err.kind(), ErrorKind::DepthLimitExceeded, "{err}");
            assert!(deep, "refused a tree within the limit: {err}");
        }
    }
});
