//! What we write, we read (typed-column): any tree the serializer accepts — deep nesting near
//! the depth limit and long runs of empty Columns included — the deserializer reads back equal
//! under default limits; the serializer refuses only trees with a Column past the limit.
#![no_main]

use std::collections::BTreeMap;

use common::limit_trees::{tc_depth as depth, TcPair as Pair, TcTree as Tree};
use common::{boxed, choice, items, map, reads_what_it_writes, wrapped_tree};
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use serde_formats::typed_column;

#[path = "common.rs"]
mod common;

fn tree(u: &mut Unstructured<'_>, budget: &mut u32) -> Result<Tree> {
    Ok(match choice(u, *budget, 6, 10)? {
        0 => Tree::Int(u.arbitrary()?),
        1 => Tree::Text(u.arbitrary()?),
        2 => Tree::Flag(u.arbitrary()?),
        3 => Tree::Unit,
        4 => Tree::Units(vec![(); u.int_in_range(0..=3000)?]),
        // Whole numbers, so that equality holds (no NaN); long runs too.
        5 => Tree::Floats(
            (0..u.int_in_range(0..=3000)?)
                .map(|_| u.arbitrary::<i32>().map(f64::from))
                .collect::<Result<_>>()?,
        ),
        6 => Tree::List(items(u, budget, 4, tree)?),
        7 => Tree::Opt(boxed(u, budget, tree)?),
        8 => Tree::Pairs(items(u, budget, 4, |u, budget| {
            Ok(Pair {
                tree: tree(u, budget)?,
                flag: u.arbitrary()?,
            })
        })?),
        _ => Tree::Map(map(u, budget, 3, tree)?),
    })
}

/// A small tree wrapped in up to ~70 levels (two Columns each): around the limit of 128.
fn input(u: &mut Unstructured<'_>) -> Result<Tree> {
    wrapped_tree(u, tree, 3, |kind, value| match kind {
        0 => Tree::List(vec![value]),
        1 => Tree::Opt(Some(Box::new(value))),
        _ => Tree::Map(BTreeMap::from([(0, value)])),
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(value) = input(&mut Unstructured::new(data)) else {
        return;
    };
    let deep = depth(&value) > typed_column::DEFAULT_DEPTH_LIMIT;
    let written = typed_column::to_bytes(&value);
    reads_what_it_writes(&value, written, |b| typed_column::from_bytes(b), deep, &[]);
});
