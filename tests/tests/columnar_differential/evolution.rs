use super::*;

twins! {
    #[columnar(vec, map, ser, de)]
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct RowV1 {
        #[columnar(strategy = "DeltaRle")]
        pub id: u64,
        #[columnar(strategy = "Rle", optional, index = 0)]
        pub name: String,
    }

    #[columnar(vec, map, ser, de)]
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct RowV2 {
        #[columnar(strategy = "DeltaRle")]
        pub id: u64,
        #[columnar(optional, index = 1)]
        pub score: Option<u32>,
        #[columnar(strategy = "Rle", optional, index = 0)]
        pub name: String,
        #[columnar(strategy = "BoolRle", optional, index = 5)]
        pub flag: bool,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct V1 {
        #[columnar(class = "vec")]
        pub rows: Vec<RowV1>,
        #[columnar(class = "map")]
        pub map: BTreeMap<u8, RowV1>,
        pub version: u32,
        #[columnar(optional, index = 0)]
        pub note: String,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct V2 {
        #[columnar(class = "vec")]
        pub rows: Vec<RowV2>,
        #[columnar(class = "map")]
        pub map: BTreeMap<u8, RowV2>,
        pub version: u32,
        #[columnar(optional, index = 1)]
        pub extra: u64,
        #[columnar(optional, index = 0)]
        pub note: String,
    }
}
twin_struct!(RowV1 { id, name });
twin_struct!(RowV2 {
    id,
    score,
    name,
    flag
});
twin_struct!(V1 {
    rows,
    map,
    version,
    note
});
twin_struct!(V2 {
    rows,
    map,
    version,
    extra,
    note
});

fn row() -> impl Strategy<Value = ours::RowV2> + Clone {
    (int!(u64), any::<Option<u32>>(), text(), any::<bool>()).prop_map(|(id, score, name, flag)| {
        ours::RowV2 {
            id,
            score,
            name,
            flag,
        }
    })
}

fn down(r: &ours::RowV2) -> ours::RowV1 {
    ours::RowV1 {
        id: r.id,
        name: r.name.clone(),
    }
}

fn up(r: &ours::RowV1) -> ours::RowV2 {
    ours::RowV2 {
        id: r.id,
        name: r.name.clone(),
        ..Default::default()
    }
}

proptest! {
    #![proptest_config(config())]
    /// Old readers drop the new optional fields, new readers default them, whichever crate
    /// wrote the bytes.
    #[test]
    fn old_and_new_schemas_read_each_others_bytes_across_crates(
        rows in rows(row()),
        map in keyed(any::<u8>(), row()),
        version in any::<u32>(),
        extra in any::<u64>(),
        note in text(),
    ) {
        let v2 = ours::V2 { rows, map, version, extra, note };
        let v1 = ours::V1 {
            rows: v2.rows.iter().map(down).collect(),
            map: v2.map.iter().map(|(k, r)| (*k, down(r))).collect(),
            version,
            note: v2.note.clone(),
        };
        let v1_up = ours::V2 {
            rows: v1.rows.iter().map(up).collect(),
            map: v1.map.iter().map(|(k, r)| (*k, up(r))).collect(),
            version,
            extra: 0,
            note: v1.note.clone(),
        };

        // newer bytes, older reader
        let sc_v2 = serde_columnar::to_vec(&v2.twin()).unwrap();
        prop_assert_eq!(ours_api::from_bytes::<ours::V1>(&sc_v2).unwrap(), v1.clone());
        let our_v2 = ours_api::to_vec(&v2).unwrap();
        prop_assert_eq!(serde_columnar::from_bytes::<sc::V1>(&our_v2).unwrap(), v1.twin());

        // older bytes, newer reader
        let sc_v1 = serde_columnar::to_vec(&v1.twin()).unwrap();
        prop_assert_eq!(ours_api::from_bytes::<ours::V2>(&sc_v1).unwrap(), v1_up.clone());
        let our_v1 = ours_api::to_vec(&v1).unwrap();
        prop_assert_eq!(serde_columnar::from_bytes::<sc::V2>(&our_v1).unwrap(), v1_up.twin());
    }
}
