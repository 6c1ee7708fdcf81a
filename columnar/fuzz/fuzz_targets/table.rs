//! A derived table: `from_bytes` and `iter_from_bytes` (consuming the rows) never panic and
//! agree; whatever decodes re-encodes and decodes to the same table.
#![no_main]

use std::borrow::Cow;
use std::collections::BTreeMap;

use columnar::columnar;
use common::streamed;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

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
    #[columnar(skip)]
    cache: u8,
    #[columnar(optional, index = 0)]
    note: Option<u16>,
}

#[columnar(vec, ser, de)]
#[derive(Debug, Clone, PartialEq, Default)]
struct Group<'a> {
    #[columnar(strategy = "Rle")]
    tag: u8,
    #[columnar(class = "vec")]
    rows: Vec<Row<'a>>,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct Table<'a> {
    #[columnar(class = "vec", iter = "Row<'a>")]
    rows: Vec<Row<'a>>,
    #[columnar(class = "map")]
    by_key: BTreeMap<u32, Row<'a>>,
    #[columnar(class = "vec")]
    groups: Vec<Group<'a>>,
    version: u8,
    #[columnar(optional, index = 1)]
    extra: Option<String>,
}

fuzz_target!(|data: &[u8]| {
    let bulk = columnar::from_bytes::<Table>(data);
    // The rows streamed, when there are at most `STREAM_LIMIT` (a run can claim 10^9 rows).
    let streamed = columnar::iter_from_bytes::<Table>(data)
        .map(|iter| (streamed(iter.rows), iter.by_key, iter.version, iter.extra));
    if let Ok(table) = &bulk {
        // Whatever decodes in bulk decodes streaming to the same rows.
        let (rows, by_key, version, extra) =
            streamed.expect("iter_from_bytes failed on a table from_bytes accepts");
        if let Some(rows) = rows {
            assert_eq!(rows.as_ref().ok(), Some(&table.rows));
        }
        assert_eq!(
            (&by_key, version, &extra),
            (&table.by_key, table.version, &table.extra)
        );
        let again = columnar::to_vec(table).expect("a decoded table re-encodes");
        let back = columnar::from_bytes::<Table>(&again).expect("a re-encoded table decodes");
        assert_eq!(&back, table);
    }
});
