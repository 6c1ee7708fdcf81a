use std::borrow::Cow;
use std::collections::BTreeMap;

use columnar::columnar;

#[columnar(vec, ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct BoolRow {
    #[columnar(strategy = "BoolRle")]
    b: bool,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct BoolTable {
    #[columnar(class = "vec")]
    rows: Vec<BoolRow>,
}

#[columnar(vec, map, ser, de, iterable)]
#[derive(Debug, Clone, PartialEq, Default)]
struct Row<'a> {
    #[columnar(strategy = "Rle")]
    name: String,
    #[columnar(strategy = "DeltaRle")]
    id: u64,
    #[columnar(borrow)]
    text: Cow<'a, str>,
    #[columnar(skip)]
    cache: u32,
    #[columnar(optional, index = 0)]
    note: String,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct Table<'a> {
    #[columnar(class = "vec", iter = "Row<'a>")]
    rows: Vec<Row<'a>>,
    #[columnar(class = "map")]
    by_key: BTreeMap<u32, Row<'a>>,
    version: u32,
    #[columnar(optional, index = 3)]
    extra: Option<String>,
}

#[columnar(vec, ser, de, iterable)]
#[derive(Debug, Clone, PartialEq)]
struct Generic<T> {
    #[columnar(strategy = "Rle")]
    value: T,
    plain: T,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct GenericTable<T> {
    #[columnar(class = "vec")]
    rows: Vec<Generic<T>>,
}

#[test]
fn seed_example() {
    let table = BoolTable {
        rows: [true, true, false, false, false]
            .into_iter()
            .map(|b| BoolRow { b })
            .collect(),
    };
    let bytes = columnar::to_vec(&table).unwrap();
    assert_eq!(bytes, [0x01, 0x01, 0x03, 0x00, 0x02, 0x03]);
    assert_eq!(columnar::from_bytes::<BoolTable>(&bytes).unwrap(), table);
}

#[test]
fn round_trip() {
    let rows: Vec<Row> = (0..5)
        .map(|i| Row {
            name: format!("n{}", i / 2),
            id: i * 3,
            text: Cow::Owned(format!("t{i}")),
            cache: 0,
            note: "x".into(),
        })
        .collect();
    let table = Table {
        rows: rows.clone(),
        by_key: rows
            .iter()
            .cloned()
            .enumerate()
            .map(|(i, r)| (i as u32, r))
            .collect(),
        version: 7,
        extra: Some("e".into()),
    };
    let bytes = columnar::to_vec(&table).unwrap();
    let back: Table = columnar::from_bytes(&bytes).unwrap();
    assert_eq!(back, table);
    assert!(matches!(back.rows[0].text, Cow::Borrowed(_)));
    let iter = columnar::iter_from_bytes::<Table>(&bytes).unwrap();
    let streamed: Vec<Row> = iter.rows.map(Result::unwrap).collect();
    assert_eq!(streamed, rows);
    let g = GenericTable {
        rows: vec![
            Generic {
                value: 1u8,
                plain: 2,
            },
            Generic { value: 1, plain: 3 },
        ],
    };
    let bytes = columnar::to_vec(&g).unwrap();
    assert_eq!(columnar::from_bytes::<GenericTable<u8>>(&bytes).unwrap(), g);
    assert_eq!(bytes, peer::bytes_of(&g));
}

#[test]
fn same_bytes_as_serde_columnar() {
    let rows: Vec<Row> = (0..5)
        .map(|i| Row {
            name: format!("n{}", i / 2),
            id: i * 3,
            text: Cow::Owned(format!("t{i}")),
            cache: 0,
            note: "x".into(),
        })
        .collect();
    let table = Table {
        rows: rows.clone(),
        by_key: rows
            .iter()
            .cloned()
            .enumerate()
            .map(|(i, r)| (i as u32, r))
            .collect(),
        version: 7,
        extra: Some("e".into()),
    };
    let ours = columnar::to_vec(&table).unwrap();
    let theirs = peer::table_bytes(&table);
    assert_eq!(ours, theirs);
}

mod peer {
    use std::borrow::Cow;
    use std::collections::BTreeMap;

    use serde_columnar::columnar;

    #[columnar(vec, map, ser, de)]
    #[derive(Debug, Clone, PartialEq, Default)]
    struct Row<'a> {
        #[columnar(strategy = "Rle")]
        name: String,
        #[columnar(strategy = "DeltaRle")]
        id: u64,
        #[columnar(borrow)]
        text: Cow<'a, str>,
        #[columnar(skip)]
        cache: u32,
        #[columnar(optional, index = 0)]
        note: String,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    struct Table<'a> {
        #[columnar(class = "vec")]
        rows: Vec<Row<'a>>,
        #[columnar(class = "map")]
        by_key: BTreeMap<u32, Row<'a>>,
        version: u32,
        #[columnar(optional, index = 3)]
        extra: Option<String>,
    }

    #[columnar(vec, ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    struct Generic {
        #[columnar(strategy = "Rle")]
        value: u8,
        plain: u8,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    struct GenericTable {
        #[columnar(class = "vec")]
        rows: Vec<Generic>,
    }

    fn row<'a>(r: &super::Row<'a>) -> Row<'a> {
        Row {
            name: r.name.clone(),
            id: r.id,
            text: r.text.clone(),
            cache: r.cache,
            note: r.note.clone(),
        }
    }

    pub fn table_bytes(t: &super::Table) -> Vec<u8> {
        let table = Table {
            rows: t.rows.iter().map(row).collect(),
            by_key: t.by_key.iter().map(|(k, r)| (*k, row(r))).collect(),
            version: t.version,
            extra: t.extra.clone(),
        };
        serde_columnar::to_vec(&table).unwrap()
    }

    pub fn bytes_of(t: &super::GenericTable<u8>) -> Vec<u8> {
        let table = GenericTable {
            rows: t
                .rows
                .iter()
                .map(|r| Generic {
                    value: r.value,
                    plain: r.plain,
                })
                .collect(),
        };
        serde_columnar::to_vec(&table).unwrap()
    }
}
