// Tables that use every struct and field argument of `#[columnar]` at once, with only
// `columnar` imported. Included (`include!`) by the UI test `ui/pass/every_argument.rs` and by
// the `table` fuzz target of `columnar/fuzz`.
use std::borrow::Cow;
use std::collections::BTreeMap;

use columnar::columnar;

#[columnar(vec, map, ser, de, iterable)]
#[derive(Debug, Clone, PartialEq, Default)]
struct Row<'a> {
    #[columnar(strategy = "Rle")]
    name: String,
    #[columnar(strategy = "DeltaRle")]
    id: u64,
    #[columnar(strategy = "BoolRle")]
    flag: bool,
    #[columnar(strategy = "DeltaOfDelta")]
    time: i64,
    value: u32,
    #[columnar(borrow)]
    text: Cow<'a, str>,
    #[columnar(borrow = "'a")]
    raw: Cow<'a, [u8]>,
    #[columnar(skip)]
    cache: u32,
    #[columnar(optional, index = 0)]
    note: String,
}

#[columnar(vec, ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct Group<'a> {
    #[columnar(strategy = "Rle")]
    tag: u8,
    #[columnar(class = "vec")]
    rows: Vec<Row<'a>>,
    #[columnar(class = "map")]
    by_id: BTreeMap<u32, Row<'a>>,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct Table<'a> {
    #[columnar(class = "vec", iter = "Row<'a>")]
    rows: Vec<Row<'a>>,
    #[columnar(class = "map")]
    by_id: BTreeMap<u32, Row<'a>>,
    #[columnar(class = "vec")]
    groups: Vec<Group<'a>>,
    version: u32,
    #[columnar(optional, index = 7)]
    extra: Option<String>,
}
