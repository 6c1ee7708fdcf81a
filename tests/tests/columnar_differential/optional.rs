use super::*;

twins! {
    #[columnar(vec, map, ser, de)]
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Row {
        #[columnar(strategy = "DeltaRle")]
        pub id: u64,
        #[columnar(strategy = "Rle", optional, index = 0)]
        pub name: String,
        #[columnar(strategy = "BoolRle", optional, index = 3)]
        pub flag: bool,
        #[columnar(optional, index = 1)]
        pub maybe: Option<u32>,
        #[columnar(strategy = "DeltaOfDelta", optional, index = 7)]
        pub t: i64,
        #[columnar(strategy = "DeltaRle", optional, index = 2)]
        pub d: i32,
    }

    /// Only optional fields: the row count comes from the optional columns alone.
    #[columnar(vec, ser, de)]
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct AllOptional {
        #[columnar(optional, index = 4)]
        pub a: u32,
        #[columnar(strategy = "Rle", optional, index = 0)]
        pub b: String,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct Table {
        #[columnar(class = "vec")]
        pub rows: Vec<Row>,
        #[columnar(class = "map")]
        pub map: BTreeMap<u64, Row>,
        pub version: u32,
        #[columnar(optional, index = 0)]
        pub note: String,
        #[columnar(class = "vec", optional, index = 5)]
        pub extra: Vec<Row>,
        #[columnar(optional, index = 2)]
        pub maybe: Option<u64>,
        #[columnar(class = "map", optional, index = 9)]
        pub extra_map: BTreeMap<u8, Row>,
        #[columnar(class = "vec", optional, index = 1)]
        pub only_optional: Vec<AllOptional>,
    }
}
twin_struct!(Row {
    id,
    name,
    flag,
    maybe,
    t,
    d
});
twin_struct!(AllOptional { a, b });
twin_struct!(Table {
    rows,
    map,
    version,
    note,
    extra,
    maybe,
    extra_map,
    only_optional
});

fn row() -> impl Strategy<Value = ours::Row> + Clone {
    (
        int!(u64),
        text(),
        any::<bool>(),
        any::<Option<u32>>(),
        int!(i64, -(1i64 << 60), 1i64 << 60),
        int!(i32),
    )
        .prop_map(|(id, name, flag, maybe, t, d)| ours::Row {
            id,
            name,
            flag,
            maybe,
            t,
            d,
        })
}

fn all_optional() -> impl Strategy<Value = ours::AllOptional> + Clone {
    (int!(u32), text()).prop_map(|(a, b)| ours::AllOptional { a, b })
}

proptest! {
    #![proptest_config(config())]
    #[test]
    fn optional_fields_in_rows_and_tables_match_serde_columnar(
        rows in rows(row()),
        map in keyed(int!(u64), row()),
        version in int!(u32),
        note in text(),
        extra in rows(row()),
        maybe in any::<Option<u64>>(),
        extra_map in keyed(any::<u8>(), row()),
        only_optional in rows(all_optional()),
    ) {
        let table = ours::Table { rows, map, version, note, extra, maybe, extra_map, only_optional };
        differential!(table, ours::Table, sc::Table);
    }
}

#[test]
fn optional_defaults_are_still_written_like_serde_columnar() {
    let table = ours::Table {
        rows: vec![ours::Row::default()],
        map: BTreeMap::new(),
        version: 0,
        note: String::new(),
        extra: vec![],
        maybe: None,
        extra_map: BTreeMap::new(),
        only_optional: vec![],
    };
    let bytes = differential!(table, ours::Table, sc::Table);
    // 8 table fields; rows container of 6 fields: one required column, then five
    // (index, len, column) pairs in declaration order 0, 3, 1, 7, 2.
    assert_eq!(bytes[..3], [0x08, 0x06, 0x02]);
}
