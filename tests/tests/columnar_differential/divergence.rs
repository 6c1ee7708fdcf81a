use super::*;

twins! {
    #[columnar(vec, ser, de)]
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct New {
        #[columnar(strategy = "DeltaRle")]
        pub id: u64,
        #[columnar(optional, index = 0)]
        pub note: String,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct NewTable {
        #[columnar(class = "vec")]
        pub rows: Vec<New>,
        pub version: u32,
    }

    /// The same without `note`: a row with no optional field at all.
    #[columnar(vec, map, ser, de)]
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Old {
        #[columnar(strategy = "DeltaRle")]
        pub id: u64,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct OldTable {
        #[columnar(class = "vec")]
        pub rows: Vec<Old>,
        pub version: u32,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct Hashed {
        #[columnar(class = "map")]
        pub map: HashMap<u32, Old>,
    }
}
twin_struct!(New { id, note });
twin_struct!(NewTable { rows, version });
twin_struct!(Old { id });
twin_struct!(OldTable { rows, version });
twin_struct!(Hashed { map });

/// serde_columnar's row decoder reads the optional pairs only when the row has optional
/// fields itself; otherwise the unknown pair is left in the input, the table's next field
/// (`version`) is read from it, and `from_bytes` does not notice the rest. columnar skips it.
#[test]
fn row_without_optionals_skips_a_newer_optional_column_where_serde_columnar_misreads() {
    let new = ours::NewTable {
        rows: vec![ours::New {
            id: 1,
            note: "n".into(),
        }],
        version: 7,
    };
    let bytes = differential!(new, ours::NewTable, sc::NewTable);
    let ours_old: ours::OldTable = ours_api::from_bytes(&bytes).unwrap();
    assert_eq!(
        ours_old,
        ours::OldTable {
            rows: vec![ours::Old { id: 1 }],
            version: 7
        }
    );
    let sc_old: sc::OldTable = serde_columnar::from_bytes(&bytes).unwrap();
    assert_eq!(sc_old.rows, [sc::Old { id: 1 }]);
    assert_ne!(
        sc_old.version, 7,
        "serde_columnar read the version correctly: fixed?"
    );
}

proptest! {
    #![proptest_config(config())]
    /// A HashMap of many entries: the two twins iterate in different orders, so the bytes (even
    /// their lengths, the DeltaRle deltas depend on the order) are not compared, only what each
    /// crate reads from the other's.
    #[test]
    fn hashmap_containers_of_many_entries_read_across(
        map in prop::collection::hash_map(any::<u32>(), any::<u64>(), 0..40),
    ) {
        let table = ours::Hashed {
            map: map.into_iter().map(|(k, id)| (k, ours::Old { id })).collect(),
        };
        let sc_table: sc::Hashed = table.twin();
        let sc_bytes = serde_columnar::to_vec(&sc_table).unwrap();
        let our_bytes = ours_api::to_vec(&table).unwrap();
        prop_assert_eq!(ours_api::from_bytes::<ours::Hashed>(&sc_bytes).unwrap(), table);
        prop_assert_eq!(serde_columnar::from_bytes::<sc::Hashed>(&our_bytes).unwrap(), sc_table);
    }
}
