use super::*;

twins! {
    #[columnar(vec, ser, de, iterable)]
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Row<'a> {
        #[columnar(strategy = "DeltaRle")]
        pub id: i32,
        #[columnar(borrow)]
        pub text: Cow<'a, str>,
        #[columnar(skip)]
        pub cache: u8,
        // serde_columnar's iterable rows take optional fields only without a strategy (its
        // Rle and BoolRle iterators have no `Default`), and no generic rows.
        #[columnar(optional, index = 1)]
        pub kind: String,
        #[columnar(optional, index = 0)]
        pub flag: bool,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct Book<'a> {
        pub title: Cow<'a, str>,
        #[columnar(class = "vec", iter = "Row<'a>")]
        pub rows: Vec<Row<'a>>,
        #[columnar(optional, index = 4)]
        pub tail: u64,
    }
}
twin_struct!(Row<'a> {
    id,
    text,
    cache,
    kind,
    flag
});
twin_struct!(Book<'a> { title, rows, tail });

fn row() -> impl Strategy<Value = ours::Row<'static>> + Clone {
    (int!(i32), text(), any::<u8>(), text(), any::<bool>()).prop_map(
        |(id, text, cache, kind, flag)| ours::Row {
            id,
            text: text.into(),
            cache,
            kind,
            flag,
        },
    )
}

proptest! {
    #![proptest_config(config())]
    #[test]
    fn iterating_borrowed_skipped_and_optional_rows_matches_from_bytes_in_both(
        title in text(),
        rows in rows(row()),
        tail in any::<u64>(),
    ) {
        let book = ours::Book { title: title.into(), rows, tail };
        let expect = ours::Book {
            rows: book.rows.iter().map(|r| ours::Row { cache: 0, ..r.clone() }).collect(),
            ..book.clone()
        };
        let bytes = differential!(book, expect, ours::Book<'_>, sc::Book<'_>);

        let lazy = ours_api::iter_from_bytes::<ours::Book>(&bytes).expect("columnar iter");
        assert_eq!(lazy.title, expect.title);
        assert_eq!(lazy.tail, expect.tail);
        let rows: Vec<ours::Row> = lazy.rows.map(|r| r.expect("row")).collect();
        assert_eq!(rows, expect.rows);

        let lazy = serde_columnar::iter_from_bytes::<sc::Book>(&bytes).expect("sc iter");
        let rows: Vec<sc::Row> = lazy.rows.map(|r| r.expect("sc row")).collect();
        assert_eq!(rows, expect.rows.twin());
    }
}
