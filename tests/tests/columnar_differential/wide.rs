use super::*;

wide_rows! {
    vec: {
        #[columnar(vec, ser, de)]
        #[derive(Debug, Clone, PartialEq, Default)]
    }
    map: {
        #[columnar(map, ser, de)]
        #[derive(Debug, Clone, PartialEq, Default)]
    }
    // The codecs cycle through Generic, Rle, DeltaRle, BoolRle, DeltaOfDelta, Generic, Rle,
    // DeltaRle; f36..f39 are optional with indexes 1, 3, 5, 7.
    fields:
    f0: u8, f1: u32 [strategy = "Rle"], f2: i64 [strategy = "DeltaRle"],
    f3: bool [strategy = "BoolRle"], f4: i64 [strategy = "DeltaOfDelta"], f5: String,
    f6: String [strategy = "Rle"], f7: u16 [strategy = "DeltaRle"],
    f8: u8, f9: u32 [strategy = "Rle"], f10: i64 [strategy = "DeltaRle"],
    f11: bool [strategy = "BoolRle"], f12: i64 [strategy = "DeltaOfDelta"], f13: String,
    f14: String [strategy = "Rle"], f15: u16 [strategy = "DeltaRle"],
    f16: u8, f17: u32 [strategy = "Rle"], f18: i64 [strategy = "DeltaRle"],
    f19: bool [strategy = "BoolRle"], f20: i64 [strategy = "DeltaOfDelta"], f21: String,
    f22: String [strategy = "Rle"], f23: u16 [strategy = "DeltaRle"],
    f24: u8, f25: u32 [strategy = "Rle"], f26: i64 [strategy = "DeltaRle"],
    f27: bool [strategy = "BoolRle"], f28: i64 [strategy = "DeltaOfDelta"], f29: String,
    f30: String [strategy = "Rle"], f31: u16 [strategy = "DeltaRle"],
    f32: u8, f33: u32 [strategy = "Rle"], f34: i64 [strategy = "DeltaRle"],
    f35: bool [strategy = "BoolRle"],
    f36: i64 [strategy = "DeltaOfDelta", optional, index = 1],
    f37: String [optional, index = 3],
    f38: String [strategy = "Rle", optional, index = 5],
    f39: u16 [strategy = "DeltaRle", optional, index = 7],
}

/// A row from 40 random words, with values that form runs and steady steps.
pub fn wide_from(s: &[u64]) -> ours::Wide {
    wide_build!(
        |i: usize| s[i] as u8,
        |i: usize| (s[i] % 3) as u32 * (u32::MAX / 2),
        |i: usize| (s[i] % 7) as i64 - 3,
        |i: usize| s[i].is_multiple_of(3),
        |i: usize| 1_600_000_000_000 + (s[i] % 1000) as i64,
        |i: usize| short_text(s[i]),
        |i: usize| short_text(s[i]),
        |i: usize| (s[i] % 5) as u16,
    )
}

proptest! {
    #![proptest_config(config())]
    #[test]
    fn vec_of_rows_with_40_fields_matches_serde_columnar(
        rows in rows(vec(any::<u64>(), 40)),
    ) {
        let rows = rows.iter().map(|s| wide_from(s)).collect();
        differential!(ours::Table { rows }, ours::Table, sc::Table);
    }
}

/// f<i> = i where the type allows (negated for the DeltaRle i64 fields), booleans
/// alternate from true, Generic strings empty, Rle strings "é".
pub fn simple_wide() -> ours::Wide {
    wide_build!(
        |i: usize| i as u8,
        |i: usize| i as u32,
        |i: usize| -(i as i64),
        |_: usize| false,
        |i: usize| i as i64,
        |_: usize| String::new(),
        |_: usize| "é".to_owned(),
        |i: usize| i as u16,
    )
}

fn zigzag(v: i64) -> u8 {
    let z = ((v << 1) ^ (v >> 63)) as u64;
    assert!(z < 0x80, "one-byte varints only");
    z as u8
}

/// The 40 column byte strings of the one row `simple_wide()`, from the rules of
/// docs/spec/columnar.md §5 (no encoder involved): each is `len` + the codec output for one
/// value.
fn simple_wide_columns() -> Vec<Vec<u8>> {
    (0..40u8)
        .map(|i| {
            let body: Vec<u8> = match i % 8 {
                0 => vec![0x01, i],                          // Generic: Vec<u8> [i]
                1 => vec![0x01, i],                          // Rle: literal of 1 (zigzag(-1)), i
                2 => vec![0x01, zigzag(-i64::from(i))],      // DeltaRle: literal of 1, delta -i
                3 if i % 2 == 0 => vec![0x00, 0x01],         // BoolRle [true]: counts 0, 1
                3 => vec![0x01],                             // BoolRle [false]: count 1
                4 => vec![0x01, zigzag(i64::from(i)), 0x00], // DoD: Some(i), 0 used bits
                5 => vec![0x01, 0x00],                       // Generic: Vec<String> [""]
                6 => vec![0x01, 0x02, 0xc3, 0xa9],           // Rle: literal of 1, "é"
                _ => vec![0x01, zigzag(i64::from(i))],       // DeltaRle: literal of 1, delta i
            };
            let mut column = vec![body.len() as u8];
            column.extend(body);
            column
        })
        .collect()
}

/// Required columns in order, then `(index, len, column)` for f36..f39 (indexes 1, 3, 5, 7).
fn simple_wide_body() -> Vec<u8> {
    let columns = simple_wide_columns();
    let mut out: Vec<u8> = columns[..36].concat();
    for (column, index) in columns[36..].iter().zip([1u8, 3, 5, 7]) {
        out.push(index);
        out.push(column.len() as u8);
        out.extend(column);
    }
    out
}

#[test]
fn vec_row_of_40_fields_gives_spec_bytes_in_both() {
    // table of 1 field; container of 40 fields
    let mut expected = vec![0x01, 0x28];
    expected.extend(simple_wide_body());
    let table = ours::Table {
        rows: vec![simple_wide()],
    };
    let bytes = differential!(table, ours::Table, sc::Table);
    assert_eq!(Hex(&bytes), Hex(&expected));
}

#[test]
fn map_row_of_40_fields_gives_spec_bytes_and_reads_them_back() {
    // table of 1 field; map container of 40 fields + the keys; keys Vec<u64> [5]
    let mut expected = vec![0x01, 0x29, 0x01, 0x05];
    expected.extend(simple_wide_body());
    let table = ours_only::MapTable {
        map: [(5, to_map_row(&simple_wide()))].into_iter().collect(),
    };
    let bytes = ours_api::to_vec(&table).unwrap();
    assert_eq!(Hex(&bytes), Hex(&expected));
    let back: ours_only::MapTable = ours_api::from_bytes(&expected).unwrap();
    assert_eq!(back, table);
}

proptest! {
    #![proptest_config(config())]
    /// A map container is the keys, then the columns a vec container of the same rows (in key
    /// order) would hold: the columns come from serde_columnar's vec bytes.
    #[test]
    fn map_of_rows_with_40_fields_has_serde_columnars_vec_columns_after_the_keys(
        seeds in keyed(int!(u64), vec(any::<u64>(), 40)),
    ) {
        let rows: Vec<ours::Wide> = seeds.values().map(|s| wide_from(s)).collect();
        let keys: Vec<u64> = seeds.keys().copied().collect();
        let sc_table: sc::Table = ours::Table { rows: rows.clone() }.twin();
        let sc_vec = serde_columnar::to_vec(&sc_table).unwrap();
        assert_eq!(sc_vec[..2], [0x01, 0x28]);
        let mut expected = vec![0x01, 0x29];
        expected.extend(postcard::to_allocvec(&keys).unwrap());
        expected.extend(&sc_vec[2..]);

        let table = ours_only::MapTable {
            map: keys.iter().copied().zip(rows.iter().map(to_map_row)).collect(),
        };
        let bytes = ours_api::to_vec(&table).unwrap();
        assert_eq!(Hex(&bytes), Hex(&expected));
        let back: ours_only::MapTable = ours_api::from_bytes(&bytes).unwrap();
        assert_eq!(back, table);
    }
}
