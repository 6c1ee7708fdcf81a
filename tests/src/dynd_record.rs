//! A record of every kind of field DyND writes from a Rust type: shared by the round-trip
//! proptest `tests/tests/dynd_roundtrip.rs` and the `dynd_reencode` fuzz target of
//! `serde-formats/fuzz`, which includes this file by path: it uses only `serde` and `std`.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

/// An enum with a variant of each form.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub enum Event {
    /// A unit variant.
    Start,
    /// A tuple variant.
    Move(i16, i16),
    /// A struct variant.
    Say {
        /// A string.
        text: String,
        /// An optional boolean.
        loud: Option<bool>,
    },
    /// A newtype variant.
    Weight(f32),
}

/// Every kind of field: integers of each width, floats, text, options (nested too), sequences,
/// fixed arrays, tuples, maps, enums and the unit.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[allow(missing_docs)]
pub struct Record {
    pub flag: bool,
    pub maybe_flag: Option<bool>,
    pub small: i8,
    pub maybe_small: Option<i8>,
    pub big: i128,
    pub wide: u128,
    pub maybe_big: Option<u64>,
    pub unsigned: u32,
    pub real: f64,
    pub maybe_real: Option<f64>,
    pub maybe_single: Option<f32>,
    pub letter: char,
    pub text: String,
    pub maybe_text: Option<String>,
    pub nested: Option<Option<i32>>,
    pub list: Vec<u16>,
    pub fixed: [i32; 3],
    pub pair: (u8, String),
    pub by_name: BTreeMap<String, i64>,
    pub by_id: HashMap<i32, Option<char>>,
    pub events: Vec<Event>,
    pub unit: (),
}
