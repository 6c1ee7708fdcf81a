//! What we write, we read (DyND): any tree the serializer accepts — deep nesting near the
//! depth limit and long runs of zero-sized elements included — the deserializer reads back
//! equal under default limits; the serializer refuses only trees past a documented limit.
#![no_main]

use std::collections::BTreeMap;

use common::limit_trees::{dy_depth as depth, dy_units as units, DyTree as Tree};
use common::{boxed, choice, items, map, reads_what_it_writes, wrapped_tree};
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use serde_formats::{dynd, ErrorKind};

#[path = "common.rs"]
mod common;

fn tree(u: &mut Unstructured<'_>, budget: &mut u32) -> Result<Tree> {
    Ok(match choice(u, *budget, 6, 10)? {
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
        5 => Tree::Numbers(u.arbitrary()?),
        6 => Tree::List(items(u, budget, 4, tree)?),
        7 => Tree::Opt(boxed(u, budget, tree)?),
        8 => {
            *budget = budget.saturating_sub(1);
            Tree::Pair(Box::new(tree(u, budget)?), u.arbitrary()?)
        }
        _ => Tree::Map(map(u, budget, 3, tree)?),
    })
}

/// A small tree wrapped in up to 70 levels (two each): around the depth limit of 128.
fn input(u: &mut Unstructured<'_>) -> Result<Tree> {
    wrapped_tree(u, tree, 4, |kind, value| match kind {
        0 => Tree::List(vec![value]),
        1 => Tree::Opt(Some(Box::new(value))),
        2 => Tree::Pair(Box::new(value), 0),
        _ => Tree::Map(BTreeMap::from([(0, value)])),
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(value) = input(&mut Unstructured::new(data)) else {
        return;
    };
    let deep = depth(&value) > dynd::DEFAULT_DEPTH_LIMIT;
    // The budget is at least 2^20; within it nothing can be refused for zero-sized elements.
    let many = units(&value) > dynd::DEFAULT_ZERO_SIZED_LIMIT;
    reads_what_it_writes(
        &value,
        dynd::to_bytes(&value),
        |bytes| dynd::from_bytes(bytes),
        deep,
        &[(ErrorKind::ZeroSizedLimitExceeded, many)],
    );
});
