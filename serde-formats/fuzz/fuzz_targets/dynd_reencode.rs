//! Uniqueness: any input the dynd decoder accepts for a rich Rust type re-encodes to exactly
//! the same bytes.
#![no_main]

use std::collections::{BTreeMap, HashMap};

use libfuzzer_sys::fuzz_target;
use serde::{Deserialize, Serialize};
use serde_formats::dynd;

#[derive(Serialize, Deserialize, Debug)]
enum Shape {
    Empty,
    Circle(f32),
    Line(i16, i16),
    Named { name: String, sides: Option<u8> },
}

#[derive(Serialize, Deserialize, Debug)]
struct Rich {
    flag: bool,
    maybe_flag: Option<bool>,
    small: i8,
    maybe_small: Option<i8>,
    wide: u128,
    maybe_wide: Option<u64>,
    real: f64,
    maybe_real: Option<f64>,
    maybe_single: Option<f32>,
    letter: char,
    text: String,
    maybe_text: Option<String>,
    nested: Option<Option<i32>>,
    list: Vec<u16>,
    fixed: [i32; 2],
    pair: (u8, String),
    by_name: BTreeMap<String, i64>,
    by_id: HashMap<i32, Option<char>>,
    shapes: Vec<Shape>,
    unit: (),
}

fuzz_target!(|data: &[u8]| {
    if let Ok(value) = dynd::from_bytes::<Rich>(data) {
        let again = dynd::to_bytes(&value).expect("a decoded value encodes");
        assert_eq!(again, data, "{value:?}");
    }
    let _ = dynd::take_from_bytes::<(Vec<Option<i8>>, BTreeMap<u8, ()>)>(data);
    let _ = dynd::from_bytes::<Vec<Vec<()>>>(data);
});
