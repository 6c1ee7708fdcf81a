use super::*;

twins! {
    /// `#[derive]` before `#[columnar]`, arguments in another order, a field's arguments split
    /// over several attributes and in another order, a skipped non-serde field.
    #[derive(Debug, Clone, PartialEq, Default)]
    #[columnar(de, ser, map, vec)]
    pub struct Row<'a> {
        #[columnar(borrow)]
        pub bytes: Cow<'a, [u8]>,
        #[columnar(skip)]
        pub cache: Opaque,
        #[columnar(strategy = "DeltaRle")]
        pub id: u32,
        #[columnar(optional)]
        #[columnar(index = 0)]
        pub note: String,
        #[columnar(index = 3, optional, strategy = "Rle")]
        pub kind: String,
    }

    pub type Rows<'a> = Vec<Row<'a>>;
    pub type Index<'a> = BTreeMap<u32, Row<'a>>;

    /// Container types through aliases and full paths.
    #[derive(Debug, Clone, PartialEq)]
    #[columnar(de, ser)]
    pub struct Table<'a> {
        #[columnar(class = "vec")]
        pub rows: Rows<'a>,
        #[columnar(class = "map")]
        pub index: Index<'a>,
        #[columnar(class = "vec")]
        pub full: ::std::vec::Vec<Row<'a>>,
        #[columnar(class = "vec")]
        pub deque: std::collections::VecDeque<Row<'a>>,
        #[columnar(skip)]
        pub cache: Opaque,
    }
}
twin_struct!(Row<'a> {
    bytes,
    cache,
    id,
    note,
    kind
});
twin_struct!(Table<'a> {
    rows,
    index,
    full,
    deque,
    cache
});

fn row() -> impl Strategy<Value = ours::Row<'static>> + Clone {
    (
        prop::collection::vec(any::<u8>(), 0..4),
        any::<u8>(),
        int!(u32),
        text(),
        text(),
    )
        .prop_map(|(bytes, cache, id, note, kind)| ours::Row {
            bytes: bytes.into(),
            cache: Opaque(Some(std::rc::Rc::new(std::cell::Cell::new(cache)))),
            id,
            note,
            kind,
        })
}

fn without_cache(row: &ours::Row<'static>) -> ours::Row<'static> {
    ours::Row {
        cache: Opaque::default(),
        ..row.clone()
    }
}

proptest! {
    #![proptest_config(config())]
    #[test]
    fn attribute_orders_split_attributes_aliases_and_paths_match_serde_columnar(
        rows in rows(row()),
        index in keyed(int!(u32), row()),
        full in rows(row()),
        deque in rows(row()),
    ) {
        let table = ours::Table {
            rows,
            index,
            full,
            deque: deque.into(),
            cache: Opaque(Some(Default::default())),
        };
        let expect = ours::Table {
            rows: table.rows.iter().map(without_cache).collect(),
            index: table.index.iter().map(|(k, r)| (*k, without_cache(r))).collect(),
            full: table.full.iter().map(without_cache).collect(),
            deque: table.deque.iter().map(without_cache).collect(),
            cache: Opaque::default(),
        };
        differential!(table, expect, ours::Table<'_>, sc::Table<'_>);
    }

    /// A row struct with `ser, de` is a table of its own too.
    #[test]
    fn a_row_encoded_as_a_table_matches_serde_columnar(row in row()) {
        let expect = without_cache(&row);
        differential!(row, expect, ours::Row<'_>, sc::Row<'_>);
    }
}
