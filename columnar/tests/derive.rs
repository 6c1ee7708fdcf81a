//! The derive end to end inside this crate: round trips, bytes equal to serde_columnar's, and
//! error offsets counted from the start of the whole input through nested containers.

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

/// The sample schema, stamped twice from one text: here under columnar's `#[columnar]` and in
/// `peer` under serde_columnar's, whose bytes the tests compare. (Not `Table`: serde_columnar
/// names the iterator `{Table}Iter`, and its own `TableIter` import shadows that one.)
macro_rules! sample_schema {
    () => {
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
        struct Sample<'a> {
            #[columnar(class = "vec", iter = "Row<'a>")]
            rows: Vec<Row<'a>>,
            #[columnar(class = "map")]
            by_key: BTreeMap<u32, Row<'a>>,
            version: u32,
            #[columnar(optional, index = 3)]
            extra: Option<String>,
        }
    };
}

sample_schema!();

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

/// The worked example of `docs/spec/columnar.md` §6.3.
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

/// Five rows (runs of names, steady ids), in the vec container and keyed 0..5 in the map.
fn sample_table() -> Sample<'static> {
    let rows: Vec<Row> = (0..5)
        .map(|i| Row {
            name: format!("n{}", i / 2),
            id: i * 3,
            text: Cow::Owned(format!("t{i}")),
            cache: 0,
            note: "x".into(),
        })
        .collect();
    Sample {
        rows: rows.clone(),
        by_key: rows
            .iter()
            .cloned()
            .enumerate()
            .map(|(i, r)| (i as u32, r))
            .collect(),
        version: 7,
        extra: Some("e".into()),
    }
}

#[test]
fn round_trip() {
    let table = sample_table();
    let rows = table.rows.clone();
    let bytes = columnar::to_vec(&table).unwrap();
    let back: Sample = columnar::from_bytes(&bytes).unwrap();
    assert_eq!(back, table);
    assert!(matches!(back.rows[0].text, Cow::Borrowed(_)));
    // Another deserializer knows nothing of the columns' decode context, and still reads
    // every container, optional column and optional field.
    assert_eq!(postcard::from_bytes::<Sample>(&bytes).unwrap(), table);
    let iter = columnar::iter_from_bytes::<Sample>(&bytes).unwrap();
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
    let table = sample_table();
    let ours = columnar::to_vec(&table).unwrap();
    let theirs = peer::table_bytes(&table);
    assert_eq!(ours, theirs);
}

mod peer {
    // serde_columnar's `iterable` output, expanded from the local `sample_schema!`, is linted as
    // this crate's code: it writes `id: id`.
    #![allow(clippy::redundant_field_names)]

    use std::borrow::Cow;
    use std::collections::BTreeMap;

    use serde_columnar::columnar;

    // serde_columnar's `iterable` output names these without a path.
    use serde_columnar::iterable::{DeltaRleIter, GenericIter};

    sample_schema!();

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

    pub fn table_bytes(t: &super::Sample) -> Vec<u8> {
        let table = Sample {
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

mod offsets {
    use columnar::{columnar, ErrorKind};

    #[columnar(vec, ser, de)]
    #[derive(Debug, Clone, PartialEq, Default)]
    struct Inner {
        #[columnar(strategy = "Rle")]
        a: u32,
    }

    #[columnar(vec, ser, de)]
    #[derive(Debug, Clone, PartialEq, Default)]
    struct Outer {
        #[columnar(class = "vec")]
        inner: Vec<Inner>,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    struct Required {
        #[columnar(class = "vec")]
        rows: Vec<Inner>,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    struct Optional {
        #[columnar(class = "vec", optional, index = 0)]
        rows: Vec<Inner>,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    struct Nested {
        #[columnar(class = "vec")]
        rows: Vec<Outer>,
    }

    fn zero_run_at<T: for<'de> serde::Deserialize<'de> + std::fmt::Debug>(input: &[u8], at: u64) {
        let err = columnar::from_bytes::<T>(input).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ErrorKind::ZeroRunCount, Some(at)),
            "{err}"
        );
    }

    #[test]
    fn column_errors_point_at_the_byte_in_the_whole_input() {
        // table(1 field) · container(1 column) · column of 1 byte: a run count of 0.
        zero_run_at::<Required>(&[0x01, 0x01, 0x01, 0x00], 3);
        // table(1 field) · (index 0, 3 bytes: container(1 column) · column of 1 byte: 00).
        zero_run_at::<Optional>(&[0x01, 0x00, 0x03, 0x01, 0x01, 0x00], 5);
        // table · container(1 column) · Generic column of 4 bytes: 1 value, a container.
        zero_run_at::<Nested>(&[0x01, 0x01, 0x04, 0x01, 0x01, 0x01, 0x00], 6);
    }
}

mod generic_and_borrowed {
    use std::borrow::Cow;
    use std::collections::HashMap;

    use columnar::columnar;

    #[columnar(vec, map, ser, de, iterable)]
    #[derive(Debug, Clone, PartialEq, Default)]
    struct Row<'a, T> {
        #[columnar(strategy = "DeltaRle")]
        id: T,
        #[columnar(strategy = "Rle", borrow)]
        name: Cow<'a, str>,
        #[columnar(borrow = "'a")]
        blob: Cow<'a, [u8]>,
        #[columnar(optional, index = 4)]
        extra: Option<T>,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    struct Table<'a, T> {
        #[columnar(class = "vec")]
        rows: Vec<Row<'a, T>>,
        #[columnar(class = "map")]
        by_name: HashMap<String, Row<'a, T>>,
        #[columnar(borrow)]
        title: Cow<'a, str>,
    }

    #[test]
    fn generic_rows_borrow_from_the_input() {
        let rows: Vec<Row<u16>> = (0..10u16)
            .map(|i| Row {
                id: i * 2,
                name: Cow::Owned(format!("name{}", i / 3)),
                blob: Cow::Owned(vec![i as u8; 3]),
                extra: (i % 2 == 0).then_some(i),
            })
            .collect();
        let table = Table {
            rows: rows.clone(),
            by_name: [("one".to_string(), rows[1].clone())].into_iter().collect(),
            title: Cow::Borrowed("t"),
        };
        let bytes = columnar::to_vec(&table).unwrap();
        let back: Table<u16> = columnar::from_bytes(&bytes).unwrap();
        assert_eq!(back, table);
        assert!(back
            .rows
            .iter()
            .all(|row| matches!((&row.name, &row.blob), (Cow::Borrowed(_), Cow::Borrowed(_)))));
        assert!(matches!(back.title, Cow::Borrowed("t")));
        let streamed = columnar::iter_from_bytes::<Streamed>(&bytes).unwrap();
        assert_eq!(streamed.rows.collect::<Result<Vec<_>, _>>().unwrap(), rows);
        assert_eq!(streamed.by_name, table.by_name);
    }

    /// A concrete table streaming the generic rows.
    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    struct Streamed<'a> {
        #[columnar(class = "vec", iter = "Row<'a, u16>")]
        rows: Vec<Row<'a, u16>>,
        #[columnar(class = "map")]
        by_name: HashMap<String, Row<'a, u16>>,
        #[columnar(borrow)]
        title: Cow<'a, str>,
    }
}

mod all_optional {
    use std::collections::BTreeMap;

    use columnar::columnar;

    #[columnar(vec, map, ser, de)]
    #[derive(Debug, Clone, PartialEq, Default)]
    struct Later {
        #[columnar(skip)]
        b: u16,
        #[columnar(optional, index = 0)]
        a: u8,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    struct Table {
        #[columnar(class = "vec")]
        rows: Vec<Later>,
        #[columnar(class = "map")]
        map: BTreeMap<u8, Later>,
    }

    #[test]
    fn containers_without_any_column_have_no_rows_or_a_default_row_per_key() {
        // table(2) · vec container with no column: 00 · map container: 01 (keys only), keys [3, 4]
        let bytes = [0x02, 0x00, 0x01, 0x02, 0x03, 0x04];
        let table: Table = columnar::from_bytes(&bytes).unwrap();
        assert!(table.rows.is_empty());
        assert_eq!(
            table.map,
            [(3, Later::default()), (4, Later::default())]
                .into_iter()
                .collect()
        );
    }
}
