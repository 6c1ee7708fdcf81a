use super::*;

twins! {
    #[columnar(vec, map, ser, de)]
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Row {
        #[columnar(strategy = "BoolRle")]
        pub flag: bool,
        #[columnar(strategy = "DeltaOfDelta")]
        pub t: i64,
        #[columnar(strategy = "DeltaOfDelta")]
        pub u: u32,
        pub name: String,
        pub blob: Vec<u8>,
        pub maybe: Option<u32>,
        pub point: Point,
        pub real: f64,
        pub plain: u64,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct Table {
        #[columnar(class = "vec")]
        pub rows: Vec<Row>,
        #[columnar(class = "map")]
        pub map: BTreeMap<String, Row>,
        pub trailer: Vec<Point>,
    }

    #[columnar(vec, ser, de)]
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Dod {
        #[columnar(strategy = "DeltaOfDelta")]
        pub t: i64,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct DodTable {
        #[columnar(class = "vec")]
        pub rows: Vec<Dod>,
    }
}
twin_struct!(Row {
    flag,
    t,
    u,
    name,
    blob,
    maybe,
    point,
    real,
    plain
});
twin_struct!(Table { rows, map, trailer });
twin_struct!(Dod { t });
twin_struct!(DodTable { rows });

/// Bound of generated DeltaOfDelta i64 values: no delta or delta-of-delta overflows i64.
const DOD: i64 = 1 << 60;

/// A delta-of-delta from each code class of docs/spec/columnar.md §5.5 (0, 7, 9, 12, 21 and 64
/// bit payloads), including both ends of each class.
fn dod_jitter() -> impl Strategy<Value = i64> + Clone {
    prop_oneof![
        Just(0i64),
        -63i64..=64,
        prop_oneof![Just(-63i64), Just(64), Just(-64), Just(65)],
        -255i64..=256,
        prop_oneof![Just(-255i64), Just(256), Just(-256), Just(257)],
        -2047i64..=2048,
        prop_oneof![Just(-2047i64), Just(2048), Just(-2048), Just(2049)],
        -(1i64 << 20)..=(1 << 20),
        prop_oneof![
            Just(-(1i64 << 20) + 1),
            Just(1 << 20),
            Just(-(1i64 << 20)),
            Just((1 << 20) + 1)
        ],
        -(1i64 << 40)..(1 << 40),
    ]
}

fn row() -> impl Strategy<Value = ours::Row> + Clone {
    (
        (any::<bool>(), int!(i64, -DOD, DOD), int!(u32), text()),
        (
            prop_oneof![Just(vec![]), vec(any::<u8>(), 0..6)],
            prop_oneof![Just(None), Just(Some(0)), any::<Option<u32>>()],
            (int!(i32), text()).prop_map(|(x, label)| Point { x, label }),
            prop_oneof![
                Just(0.0f64),
                Just(-0.0),
                Just(f64::MAX),
                Just(f64::MIN_POSITIVE),
                Just(f64::INFINITY),
                prop::num::f64::NORMAL,
            ],
            int!(u64),
        ),
    )
        .prop_map(
            |((flag, t, u, name), (blob, maybe, point, real, plain))| ours::Row {
                flag,
                t,
                u,
                name,
                blob,
                maybe,
                point,
                real,
                plain,
            },
        )
}

/// Rows whose `t` is a timestamp series: start + n·step + jitter from every code class.
fn timestamp_rows() -> impl Strategy<Value = Vec<ours::Row>> {
    (
        rows((row(), dod_jitter())),
        -(1i64 << 50)..(1 << 50),
        prop_oneof![Just(0i64), Just(1), Just(1000), -100_000i64..100_000],
    )
        .prop_map(|(rows, start, step)| {
            let mut acc = 0i64;
            rows.into_iter()
                .enumerate()
                .map(|(n, (mut r, jitter))| {
                    acc += jitter;
                    r.t = start + n as i64 * step + acc;
                    r
                })
                .collect()
        })
}

proptest! {
    #![proptest_config(config())]
    #[test]
    fn bool_rle_delta_of_delta_and_generic_columns_match_serde_columnar(
        rows in prop_oneof![rows(row()), timestamp_rows()],
        map in keyed(text(), row()),
        trailer in vec((int!(i32), text()).prop_map(|(x, label)| Point { x, label }), 0..3),
    ) {
        differential!(ours::Table { rows, map, trailer }, ours::Table, sc::Table);
    }

    #[test]
    fn delta_of_delta_every_code_class_matches_serde_columnar(
        start in -(1i64 << 50)..(1 << 50),
        jitter in vec(dod_jitter(), 0..40),
    ) {
        let mut prev = start;
        let mut delta = 0i64;
        let mut rows = vec![ours::Dod { t: start }];
        for dd in jitter {
            delta += dd;
            prev += delta;
            rows.push(ours::Dod { t: prev });
        }
        differential!(ours::DodTable { rows }, ours::DodTable, sc::DodTable);
    }
}

#[test]
fn delta_of_delta_i64_extremes_alone_match_serde_columnar() {
    for t in [i64::MIN, i64::MAX, -1, 0] {
        let table = ours::DodTable {
            rows: vec![ours::Dod { t }],
        };
        differential!(table, ours::DodTable, sc::DodTable);
    }
    // Two extremes one step apart: delta ±1, no overflow.
    for pair in [[i64::MAX - 1, i64::MAX], [i64::MIN + 1, i64::MIN]] {
        let table = ours::DodTable {
            rows: pair.iter().map(|&t| ours::Dod { t }).collect(),
        };
        differential!(table, ours::DodTable, sc::DodTable);
    }
}

#[test]
fn delta_of_delta_overflow_is_an_encode_error_in_both() {
    for series in [
        vec![i64::MIN, i64::MAX],
        vec![0, i64::MAX, i64::MIN],
        vec![i64::MAX, 0, i64::MAX],
    ] {
        let table = ours::DodTable {
            rows: series.iter().map(|&t| ours::Dod { t }).collect(),
        };
        assert!(
            ours_api::to_vec(&table).is_err(),
            "columnar accepted {series:?}"
        );
        assert!(
            serde_columnar::to_vec::<sc::DodTable>(&table.twin()).is_err(),
            "serde_columnar accepted {series:?}"
        );
    }
}

#[test]
fn empty_containers_match_serde_columnar() {
    let table = ours::Table {
        rows: vec![],
        map: BTreeMap::new(),
        trailer: vec![],
    };
    differential!(table, ours::Table, sc::Table);
}
