//! Trees for "what we write, we read" near the limits of the typed-column and DyND formats:
//! the enums, and their depth (and zero-sized elements) counted as each module's docs define
//! them. Shared by `tests/tests/limits_roundtrip.rs` (proptest) and the `*_roundtrip` fuzz
//! targets of `serde-formats/fuzz`, which include this file by path: it uses only `serde` and
//! `std`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// A typed-column tree: every variant but `Unit` (a string) is a `[name, payload]` Column.
#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
pub enum TcTree {
    /// A number.
    Int(i64),
    /// A string.
    Text(String),
    /// A boolean.
    Flag(bool),
    /// A unit variant: its name alone.
    Unit,
    /// A run of empty Columns.
    Units(Vec<()>),
    /// A sequence of floats: the writer's one-loop path and the reader's shortcut for `f64`.
    Floats(Vec<f64>),
    /// A sequence of trees.
    List(Vec<TcTree>),
    /// An optional tree (`None` is an empty Column).
    Opt(Option<Box<TcTree>>),
    /// A map of trees.
    Map(BTreeMap<u8, TcTree>),
    /// A sequence of structs: after one that is not uniform, the next ones reserve their
    /// fields as they open.
    Pairs(Vec<TcPair>),
}

/// A struct of a tree and an atom.
#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
pub struct TcPair {
    /// Any tree.
    pub tree: TcTree,
    /// An atom beside it.
    pub flag: bool,
}

/// Columns on the deepest path of `tree`; empty Columns (`()`, `None`) count.
pub fn tc_depth(tree: &TcTree) -> usize {
    match tree {
        TcTree::Unit => 0,
        TcTree::Int(_) | TcTree::Text(_) | TcTree::Flag(_) => 1,
        TcTree::Units(units) => 2 + usize::from(!units.is_empty()),
        TcTree::Floats(_) => 2,
        TcTree::List(items) => 2 + items.iter().map(tc_depth).max().unwrap_or(0),
        TcTree::Opt(None) => 2,
        TcTree::Opt(Some(inner)) => 2 + tc_depth(inner),
        // The map's Column, then each entry's [key, value] Column.
        TcTree::Map(map) => 2 + map.values().map(|v| 1 + tc_depth(v)).max().unwrap_or(0),
        // Each struct is a Column; its `flag` is an atom.
        TcTree::Pairs(pairs) => {
            2 + pairs
                .iter()
                .map(|p| 1 + tc_depth(&p.tree))
                .max()
                .unwrap_or(0)
        }
    }
}

/// A DyND tree.
#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
pub enum DyTree {
    /// A number.
    Int(i32),
    /// An optional number.
    Maybe(Option<i16>),
    /// A string.
    Text(String),
    /// A unit variant.
    Unit,
    /// A run of zero-sized elements.
    Units(Vec<()>),
    /// A sequence of numbers: the writer's one-loop path for primitives.
    Numbers(Vec<u16>),
    /// A sequence of trees.
    List(Vec<DyTree>),
    /// An optional tree.
    Opt(Option<Box<DyTree>>),
    /// A tree and a byte: a tuple variant.
    Pair(Box<DyTree>, u8),
    /// A map of trees.
    Map(BTreeMap<u16, DyTree>),
}

/// Levels on the deepest path of `tree`: every enum one, a tuple variant's fields one more, a
/// sequence or map one, a `Some` one.
pub fn dy_depth(tree: &DyTree) -> usize {
    match tree {
        DyTree::Int(_)
        | DyTree::Text(_)
        | DyTree::Unit
        | DyTree::Maybe(None)
        | DyTree::Opt(None) => 1,
        DyTree::Maybe(Some(_)) | DyTree::Units(_) | DyTree::Numbers(_) => 2,
        DyTree::List(items) => 2 + items.iter().map(dy_depth).max().unwrap_or(0),
        DyTree::Opt(Some(inner)) | DyTree::Pair(inner, _) => 2 + dy_depth(inner),
        DyTree::Map(map) => 2 + map.values().map(dy_depth).max().unwrap_or(0),
    }
}

/// Elements of `tree` that take no bytes: the units only (each `DyTree` takes its variant
/// index).
pub fn dy_units(tree: &DyTree) -> usize {
    match tree {
        DyTree::Units(units) => units.len(),
        DyTree::List(items) => items.iter().map(dy_units).sum(),
        DyTree::Opt(Some(inner)) | DyTree::Pair(inner, _) => dy_units(inner),
        DyTree::Map(map) => map.values().map(dy_units).sum(),
        _ => 0,
    }
}
