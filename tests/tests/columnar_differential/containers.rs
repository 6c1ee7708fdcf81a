use super::*;

twins! {
    #[columnar(vec, map, ser, de)]
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Row {
        #[columnar(strategy = "DeltaRle")]
        pub id: u32,
        #[columnar(strategy = "Rle")]
        pub tag: String,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct Table {
        #[columnar(class = "vec")]
        pub deque: VecDeque<Row>,
        #[columnar(class = "map")]
        pub hash: HashMap<String, Row>,
        #[columnar(class = "map")]
        pub tuple_keys: BTreeMap<(u8, String), Row>,
    }
}
twin_struct!(Row { id, tag });
twin_struct!(Table {
    deque,
    hash,
    tuple_keys
});

fn row() -> impl Strategy<Value = ours::Row> + Clone {
    (int!(u32), text()).prop_map(|(id, tag)| ours::Row { id, tag })
}

proptest! {
    #![proptest_config(config())]
    /// A HashMap of at most one entry: iteration order is then the same in both twins.
    #[test]
    fn vecdeque_hashmap_and_tuple_keyed_containers_match_serde_columnar(
        deque in rows(row()),
        hash in prop::collection::hash_map(text(), row(), 0..=1),
        tuple_keys in keyed((any::<u8>(), text()), row()),
    ) {
        let table = ours::Table { deque: deque.into(), hash, tuple_keys };
        differential!(table, ours::Table, sc::Table);
    }
}
