use super::*;

twins! {
    /// DeltaOfDelta and DeltaRle on the other integer types, Rle on other values.
    #[columnar(vec, map, ser, de)]
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Ints {
        #[columnar(strategy = "DeltaOfDelta")]
        pub a: u8,
        #[columnar(strategy = "DeltaOfDelta")]
        pub b: u16,
        #[columnar(strategy = "DeltaOfDelta")]
        pub c: i32,
        #[columnar(strategy = "DeltaOfDelta")]
        pub d: u64,
        #[columnar(strategy = "DeltaOfDelta")]
        pub e: isize,
        #[columnar(strategy = "DeltaOfDelta")]
        pub f: i8,
        #[columnar(strategy = "DeltaRle")]
        pub g: u128,
        #[columnar(strategy = "DeltaRle")]
        pub h: isize,
        #[columnar(strategy = "Rle")]
        pub i: Option<u32>,
        #[columnar(strategy = "Rle")]
        pub j: char,
        #[columnar(strategy = "Rle")]
        pub k: Vec<u8>,
    }

    #[columnar(vec, ser, de)]
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Values {
        #[columnar(strategy = "Rle")]
        pub point: Point,
        #[columnar(strategy = "Rle")]
        pub shape: Shape,
        #[columnar(strategy = "Rle")]
        pub big: i128,
        #[columnar(strategy = "Rle")]
        pub ubig: u128,
        pub unit: (),
        pub array: [u8; 4],
        pub enum_: Shape,
        pub nested: Option<Option<u8>>,
        pub dict: BTreeMap<String, u8>,
        pub float: f32,
        pub triple: (i8, i16, i32),
        pub boxed: Box<String>,
        #[columnar(strategy = "Rle")]
        pub long: String,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct Table {
        #[columnar(class = "vec")]
        pub ints: Vec<Ints>,
        #[columnar(class = "map")]
        pub int_map: BTreeMap<char, Ints>,
        #[columnar(class = "vec")]
        pub values: Vec<Values>,
        pub shape: Shape,
        pub unit: (),
    }

    #[columnar(vec, ser, de)]
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Floats {
        #[columnar(strategy = "Rle")]
        pub x: f64,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct FloatTable {
        #[columnar(class = "vec")]
        pub rows: Vec<Floats>,
    }

    #[columnar(vec, ser, de)]
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Big {
        #[columnar(strategy = "DeltaOfDelta")]
        pub d: u64,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct BigTable {
        #[columnar(class = "vec")]
        pub rows: Vec<Big>,
    }
}
twin_struct!(Ints {
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
    k
});
twin_struct!(Values {
    point,
    shape,
    big,
    ubig,
    unit,
    array,
    enum_,
    nested,
    dict,
    float,
    triple,
    boxed,
    long
});
twin_struct!(Table {
    ints,
    int_map,
    values,
    shape,
    unit
});
twin_struct!(Floats { x });
twin_struct!(FloatTable { rows });
twin_struct!(Big { d });
twin_struct!(BigTable { rows });

fn ints() -> impl Strategy<Value = ours::Ints> + Clone {
    (
        (int!(u8), int!(u16), int!(i32), int!(u64, 0, 1u64 << 60)),
        (int!(isize, -(1isize << 60), 1isize << 60), int!(i8)),
        (
            int!(u128, 0, i128::MAX as u128 / 2),
            int!(isize),
            any::<Option<u32>>(),
            prop_oneof![Just('a'), Just('\u{10ffff}'), any::<char>()],
            prop_oneof![Just(vec![]), prop::collection::vec(any::<u8>(), 0..4)],
        ),
    )
        .prop_map(|((a, b, c, d), (e, f), (g, h, i, j, k))| ours::Ints {
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
            k,
        })
}

fn shape() -> impl Strategy<Value = Shape> + Clone {
    prop_oneof![
        Just(Shape::Empty),
        (0..3u32).prop_map(Shape::Circle),
        any::<(i16, i16)>().prop_map(|(w, h)| Shape::Rect { w, h }),
        (text(), any::<Option<u8>>()).prop_map(|(s, o)| Shape::Named(s, o)),
    ]
}

fn values() -> impl Strategy<Value = ours::Values> + Clone {
    (
        (
            (0..2i32, text()).prop_map(|(x, label)| Point { x, label }),
            shape(),
            int!(i128),
            int!(u128),
            any::<[u8; 4]>(),
            shape(),
            any::<Option<Option<u8>>>(),
        ),
        (
            prop::collection::btree_map(text(), any::<u8>(), 0..3),
            prop_oneof![Just(0.0f32), Just(-0.0f32), prop::num::f32::NORMAL],
            any::<(i8, i16, i32)>(),
            text(),
            // lengths of 0, 127, 128 (a two-byte varint length) and more
            prop_oneof![
                Just(String::new()),
                Just("x".repeat(127)),
                Just("é".repeat(64)),
                "[a-c]{100,300}",
            ],
        ),
    )
        .prop_map(
            |(
                (point, shape, big, ubig, array, enum_, nested),
                (dict, float, triple, boxed, long),
            )| {
                ours::Values {
                    point,
                    shape,
                    big,
                    ubig,
                    unit: (),
                    array,
                    enum_,
                    nested,
                    dict,
                    float,
                    triple,
                    boxed: Box::new(boxed),
                    long,
                }
            },
        )
}

proptest! {
    #![proptest_config(config())]
    #[test]
    fn other_integer_types_and_rle_values_match_serde_columnar(
        ints in rows(ints()),
        int_map in keyed(any::<char>(), ints()),
        values in rows(values()),
        shape in shape(),
    ) {
        let table = ours::Table { ints, int_map, values, shape, unit: () };
        differential!(table, ours::Table, sc::Table);
    }
}

#[test]
fn long_runs_and_long_literals_match_serde_columnar() {
    // 10 000 equal rows (run counts of two and three varint bytes), then 300 distinct ones
    let same = ours::Ints {
        d: 5,
        k: vec![1],
        ..Default::default()
    };
    let mut ints = vec![same; 10_000];
    ints.extend((0..300u32).map(|n| ours::Ints {
        a: n as u8,
        b: n as u16 * 7,
        c: -(n as i32) * n as i32,
        d: u64::from(n),
        e: n as isize,
        f: n as i8,
        g: u128::from(n * n),
        h: -(n as isize),
        i: Some(n),
        j: char::from_u32(0x41 + n).unwrap(),
        k: vec![n as u8; (n % 3) as usize],
    }));
    let table = ours::Table {
        ints,
        int_map: BTreeMap::new(),
        values: vec![],
        shape: Shape::Rect { w: -1, h: 1 },
        unit: (),
    };
    differential!(table, ours::Table, sc::Table);
}

/// Rle merges neighbours that are `==`: 0.0 and -0.0 form one run, NaN never does. Which
/// value a run keeps is serde_columnar's choice; the bytes must be the same.
#[test]
fn rle_of_floats_equal_but_not_identical_gives_serde_columnars_bytes() {
    let series: [&[f64]; 6] = [
        &[0.0, -0.0],
        &[-0.0, 0.0],
        &[0.0, -0.0, 0.0],
        &[f64::NAN, f64::NAN],
        &[1.0, f64::NAN, 1.0, 1.0],
        &[-0.0, -0.0, 0.0, 1.0, -0.0],
    ];
    for xs in series {
        let table = ours::FloatTable {
            rows: xs.iter().map(|&x| ours::Floats { x }).collect(),
        };
        let ours_bytes = ours_api::to_vec(&table).unwrap();
        let sc_bytes = serde_columnar::to_vec(&table.twin()).unwrap();
        assert_eq!(Hex(&ours_bytes), Hex(&sc_bytes), "{xs:?}");
        let bits =
            |t: &ours::FloatTable| -> Vec<u64> { t.rows.iter().map(|r| r.x.to_bits()).collect() };
        let sc_back: sc::FloatTable = serde_columnar::from_bytes(&sc_bytes).unwrap();
        let ours_back: ours::FloatTable = ours_api::from_bytes(&sc_bytes).unwrap();
        let sc_bits: Vec<u64> = sc_back.rows.iter().map(|r| r.x.to_bits()).collect();
        assert_eq!(bits(&ours_back), sc_bits, "{xs:?}");
    }
}

#[test]
fn delta_of_delta_u64_above_i64_max_is_an_encode_error_in_both() {
    for d in [u64::MAX, 1u64 << 63] {
        let table = ours::BigTable {
            rows: vec![ours::Big { d }],
        };
        assert!(ours_api::to_vec(&table).is_err(), "columnar accepted {d}");
        assert!(
            serde_columnar::to_vec::<sc::BigTable>(&table.twin()).is_err(),
            "serde_columnar accepted {d}"
        );
    }
    let table = ours::BigTable {
        rows: vec![ours::Big { d: i64::MAX as u64 }],
    };
    differential!(table, ours::BigTable, sc::BigTable);
}
