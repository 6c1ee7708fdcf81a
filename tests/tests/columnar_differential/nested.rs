use super::*;

twins! {
    #[columnar(vec, map, ser, de)]
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Leaf {
        #[columnar(strategy = "DeltaRle")]
        pub a: u64,
        pub b: String,
    }

    #[columnar(vec, map, ser, de)]
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Mid {
        #[columnar(class = "vec")]
        pub leaves: Vec<Leaf>,
        #[columnar(class = "map")]
        pub index: BTreeMap<u8, Leaf>,
        #[columnar(strategy = "BoolRle")]
        pub flag: bool,
        #[columnar(class = "vec", optional, index = 0)]
        pub more: Vec<Leaf>,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct Table {
        #[columnar(class = "vec")]
        pub mids: Vec<Mid>,
        #[columnar(class = "map")]
        pub by_key: BTreeMap<u32, Mid>,
    }
}
twin_struct!(Leaf { a, b });
twin_struct!(Mid {
    leaves,
    index,
    flag,
    more
});
twin_struct!(Table { mids, by_key });

fn leaf() -> impl Strategy<Value = ours::Leaf> + Clone {
    (int!(u64), text()).prop_map(|(a, b)| ours::Leaf { a, b })
}

fn mid() -> impl Strategy<Value = ours::Mid> + Clone {
    (
        vec(leaf(), 0..4),
        prop::collection::btree_map(any::<u8>(), leaf(), 0..3),
        any::<bool>(),
        vec(leaf(), 0..3),
    )
        .prop_map(|(leaves, index, flag, more)| ours::Mid {
            leaves,
            index,
            flag,
            more,
        })
}

proptest! {
    #![proptest_config(config())]
    #[test]
    fn rows_with_nested_vec_and_map_fields_match_serde_columnar(
        mids in vec(mid(), 0..6),
        by_key in prop::collection::btree_map(int!(u32), mid(), 0..4),
    ) {
        differential!(ours::Table { mids, by_key }, ours::Table, sc::Table);
    }
}
