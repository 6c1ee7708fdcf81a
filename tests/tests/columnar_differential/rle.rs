use super::*;

twins! {
    #[columnar(vec, map, ser, de)]
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Row {
        #[columnar(strategy = "Rle")]
        pub a: u8,
        #[columnar(strategy = "Rle")]
        pub b: u32,
        #[columnar(strategy = "Rle")]
        pub c: i64,
        #[columnar(strategy = "Rle")]
        pub d: String,
        #[columnar(strategy = "Rle")]
        pub e: (u16, String),
        #[columnar(strategy = "Rle")]
        pub f: bool,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct Table {
        #[columnar(class = "vec")]
        pub rows: Vec<Row>,
        #[columnar(class = "map")]
        pub map: BTreeMap<u64, Row>,
    }
}
twin_struct!(Row { a, b, c, d, e, f });
twin_struct!(Table { rows, map });

fn row() -> impl Strategy<Value = ours::Row> + Clone {
    (
        int!(u8),
        int!(u32),
        int!(i64),
        text(),
        (int!(u16), text()),
        any::<bool>(),
    )
        .prop_map(|(a, b, c, d, e, f)| ours::Row { a, b, c, d, e, f })
}

proptest! {
    #![proptest_config(config())]
    #[test]
    fn rle_columns_in_vec_and_map_match_serde_columnar(
        rows in rows(row()),
        map in keyed(int!(u64), row()),
    ) {
        differential!(ours::Table { rows, map }, ours::Table, sc::Table);
    }
}

#[test]
fn rle_literal_then_run_then_literal_matches_serde_columnar() {
    let rows = [7u8, 8, 8, 7]
        .into_iter()
        .map(|a| ours::Row {
            a,
            ..Default::default()
        })
        .collect();
    let bytes = differential!(
        ours::Table {
            rows,
            map: BTreeMap::new()
        },
        ours::Table,
        sc::Table
    );
    // table of 2, vec container of 6 columns, column `a` = the Rle [7,8,8,7] example of
    // docs/spec/columnar.md §6.2
    assert_eq!(
        bytes[..9],
        [0x02, 0x06, 0x06, 0x01, 0x07, 0x04, 0x08, 0x01, 0x07]
    );
}
