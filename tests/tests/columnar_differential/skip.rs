use super::*;

twins! {
    #[columnar(vec, map, ser, de)]
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Row {
        pub a: u32,
        #[columnar(skip)]
        pub b: String,
        #[columnar(strategy = "DeltaRle")]
        pub c: u16,
        #[columnar(skip)]
        pub d: u64,
        #[columnar(strategy = "Rle", optional, index = 0)]
        pub e: String,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct Table {
        #[columnar(class = "vec")]
        pub rows: Vec<Row>,
        #[columnar(skip)]
        pub cache: Vec<u32>,
        pub n: u8,
        #[columnar(class = "map")]
        pub map: BTreeMap<u64, Row>,
    }
}
twin_struct!(Row { a, b, c, d, e });
twin_struct!(Table {
    rows,
    cache,
    n,
    map
});

fn row() -> impl Strategy<Value = ours::Row> + Clone {
    (int!(u32), text(), int!(u16), any::<u64>(), text()).prop_map(|(a, b, c, d, e)| ours::Row {
        a,
        b,
        c,
        d,
        e,
    })
}

fn without_skipped(row: &ours::Row) -> ours::Row {
    ours::Row {
        b: String::new(),
        d: 0,
        ..row.clone()
    }
}

proptest! {
    #![proptest_config(config())]
    #[test]
    fn skipped_fields_are_not_written_and_decode_to_default_like_serde_columnar(
        rows in rows(row()),
        cache in vec(any::<u32>(), 0..4),
        n in any::<u8>(),
        map in keyed(int!(u64), row()),
    ) {
        let expect = ours::Table {
            rows: rows.iter().map(without_skipped).collect(),
            cache: vec![],
            n,
            map: map.iter().map(|(k, r)| (*k, without_skipped(r))).collect(),
        };
        let table = ours::Table { rows, cache, n, map };
        differential!(table, expect, ours::Table, sc::Table);
    }
}
