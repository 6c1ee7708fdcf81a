use super::*;

twins! {
    #[columnar(vec, map, ser, de)]
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Row {
        #[columnar(strategy = "DeltaRle")]
        pub a: u8,
        #[columnar(strategy = "DeltaRle")]
        pub b: u16,
        #[columnar(strategy = "DeltaRle")]
        pub c: u32,
        #[columnar(strategy = "DeltaRle")]
        pub d: u64,
        #[columnar(strategy = "DeltaRle")]
        pub e: i8,
        #[columnar(strategy = "DeltaRle")]
        pub f: i16,
        #[columnar(strategy = "DeltaRle")]
        pub g: i32,
        #[columnar(strategy = "DeltaRle")]
        pub h: i64,
        #[columnar(strategy = "DeltaRle")]
        pub i: usize,
        #[columnar(strategy = "DeltaRle")]
        pub j: i128,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct Table {
        #[columnar(class = "vec")]
        pub rows: Vec<Row>,
        #[columnar(class = "map")]
        pub map: BTreeMap<i16, Row>,
    }

    #[columnar(vec, ser, de)]
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Wide128 {
        #[columnar(strategy = "DeltaRle")]
        pub v: i128,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct Table128 {
        #[columnar(class = "vec")]
        pub rows: Vec<Wide128>,
    }
}
twin_struct!(Row {
    a,
    b,
    c,
    d,
    e,
    f,
    g,
    h,
    i,
    j
});
twin_struct!(Table { rows, map });
twin_struct!(Wide128 { v });
twin_struct!(Table128 { rows });

/// i128 values whose pairwise differences fit in i128 (serde_columnar saturates otherwise).
const HALF_MIN: i128 = i128::MIN / 2;
const HALF_MAX: i128 = i128::MAX / 2;

fn row() -> impl Strategy<Value = ours::Row> + Clone {
    (
        (int!(u8), int!(u16), int!(u32), int!(u64), int!(i8)),
        (
            int!(i16),
            int!(i32),
            int!(i64),
            int!(usize),
            int!(i128, HALF_MIN, HALF_MAX),
        ),
    )
        .prop_map(|((a, b, c, d, e), (f, g, h, i, j))| ours::Row {
            a,
            b,
            c,
            d,
            e,
            f,
            g,
            h,
            i,
            j,
        })
}

/// Rows whose `d`, `h` and `j` columns are arithmetic progressions (one repeated delta).
fn ramped_rows() -> impl Strategy<Value = Vec<ours::Row>> {
    (
        rows(row()),
        any::<u64>(),
        -3i64..=3,
        -1_000_000i64..1_000_000,
    )
        .prop_map(|(mut rows, start, step, base)| {
            for (n, r) in rows.iter_mut().enumerate() {
                let n = n as i64;
                r.d = start.wrapping_add((n * step) as u64);
                r.h = base + n * step;
                r.j = i128::from(base) * 1_000_000_007 - i128::from(n);
            }
            rows
        })
}

proptest! {
    #![proptest_config(config())]
    #[test]
    fn delta_rle_columns_of_every_integer_type_match_serde_columnar(
        rows in prop_oneof![rows(row()), ramped_rows()],
        map in keyed(int!(i16), row()),
    ) {
        differential!(ours::Table { rows, map }, ours::Table, sc::Table);
    }
}

#[test]
fn delta_rle_i128_extremes_alone_match_serde_columnar() {
    for v in [i128::MIN, i128::MAX, HALF_MIN, HALF_MAX, -1, 0] {
        let t = ours::Table128 {
            rows: vec![ours::Wide128 { v }],
        };
        differential!(t, ours::Table128, sc::Table128);
    }
}

#[test]
fn delta_rle_i128_overflowing_delta_is_an_encode_error() {
    // i128::MAX - i128::MIN does not fit in i128: serde_columnar saturates the delta and
    // writes bytes that decode to something else; docs/spec/columnar.md §5.3 makes it an encode
    // error.
    let t = ours::Table128 {
        rows: vec![
            ours::Wide128 { v: i128::MIN },
            ours::Wide128 { v: i128::MAX },
        ],
    };
    assert!(ours_api::to_vec(&t).is_err(), "columnar must refuse");
    let sc_bytes = serde_columnar::to_vec::<sc::Table128>(&t.twin()).unwrap();
    let back: sc::Table128 = serde_columnar::from_bytes(&sc_bytes).unwrap();
    assert_ne!(back, t.twin(), "serde_columnar's saturation is lossy");
}
