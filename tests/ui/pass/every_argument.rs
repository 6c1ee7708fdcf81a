//! Every struct and field argument of `#[columnar]` at once; only `columnar` is imported.
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

fn main() {
    let rows: Vec<Row> = (0..4)
        .map(|i| Row {
            name: format!("n{}", i / 2),
            id: i * 3,
            flag: i % 3 == 0,
            time: 1_000 + 10 * i as i64,
            text: Cow::Owned(format!("t{i}")),
            raw: Cow::Owned(vec![i as u8]),
            cache: 0,
            note: "x".into(),
        })
        .collect();
    let by_id: BTreeMap<u32, Row> = rows.iter().cloned().zip(0..).map(|(r, i)| (i, r)).collect();
    let table = Table {
        rows: rows.clone(),
        by_id: by_id.clone(),
        groups: vec![Group { rows: rows.clone(), by_id }],
        version: 3,
        extra: Some("e".into()),
    };
    let bytes = columnar::to_vec(&table).unwrap();
    assert_eq!(columnar::from_bytes::<Table>(&bytes).unwrap(), table);
    let iter = columnar::iter_from_bytes::<Table>(&bytes).unwrap();
    let streamed: Vec<Row> = iter.rows.collect::<Result<_, columnar::Error>>().unwrap();
    assert_eq!(streamed, rows);
    assert_eq!(iter.version, 3);
}
