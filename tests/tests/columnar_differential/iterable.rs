use super::*;

twins! {
    #[columnar(vec, ser, de, iterable)]
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Row {
        #[columnar(strategy = "Rle")]
        pub name: String,
        #[columnar(strategy = "DeltaRle")]
        pub id: u64,
        #[columnar(strategy = "BoolRle")]
        pub flag: bool,
        #[columnar(strategy = "DeltaOfDelta")]
        pub t: i64,
        pub g: Option<u32>,
    }

    // Not `Table`: serde_columnar names the iterator struct `{Table}Iter`, and a table named
    // `Table` makes that `TableIter`, which its own `use ::serde_columnar::iterable::TableIter`
    // then shadows (E0782).
    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct Log {
        #[columnar(class = "vec", iter = "Row")]
        pub rows: Vec<Row>,
        pub version: u32,
    }
}
twin_struct!(Row {
    name,
    id,
    flag,
    t,
    g
});
twin_struct!(Log { rows, version });

fn row() -> impl Strategy<Value = ours::Row> + Clone {
    (
        text(),
        int!(u64),
        any::<bool>(),
        int!(i64, -(1i64 << 60), 1i64 << 60),
        any::<Option<u32>>(),
    )
        .prop_map(|(name, id, flag, t, g)| ours::Row {
            name,
            id,
            flag,
            t,
            g,
        })
}

proptest! {
    #![proptest_config(config())]
    #[test]
    fn iter_from_bytes_yields_the_rows_of_from_bytes_in_both(
        rows in rows(row()),
        version in int!(u32),
    ) {
        let table = ours::Log { rows, version };
        let bytes = differential!(table, ours::Log, sc::Log);

        let iter = ours_api::iter_from_bytes::<ours::Log>(&bytes).expect("columnar iter");
        assert_eq!(iter.version, version);
        let rows: Vec<ours::Row> = iter.rows.map(|r| r.expect("columnar row")).collect();
        assert_eq!(rows, table.rows, "columnar::iter_from_bytes");

        let iter = serde_columnar::iter_from_bytes::<sc::Log>(&bytes).expect("sc iter");
        let rows: Vec<sc::Row> = iter.rows.map(|r| r.expect("sc row")).collect();
        assert_eq!(rows, table.rows.twin(), "serde_columnar::iter_from_bytes");
    }
}
