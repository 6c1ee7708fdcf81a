//! Differential tests against `serde_columnar` 0.3.14, the crate `columnar` replaces.
//!
//! Every schema is written once and stamped twice by [`twins!`]: in module `sc` under
//! `#[serde_columnar::columnar]` and in module `ours` under `#[columnar::columnar]`. A value is
//! built for `ours`, mirrored into `sc` by [`Twin`], and [`differential!`] asserts that
//!
//! 1. `columnar::to_vec` gives exactly the bytes of `serde_columnar::to_vec`,
//! 2. `columnar::from_bytes` reads serde_columnar's bytes back to the value,
//! 3. `serde_columnar::from_bytes` reads our bytes back to the value.
//!
//! Where serde_columnar cannot take part (a map row of more than 11 fields), our round trip is
//! checked against bytes built here from the wire rules of `docs/spec/columnar.md`. Generated
//! values stay in the ranges both crates accept: serde_columnar saturates an i128 delta that
//! overflows and rejects a delta-of-delta that overflows i64, so those inputs get their own tests.
//!
//! Where serde_columnar misbehaves (module `divergence`), the test pins columnar's behaviour and
//! what serde_columnar does instead. Limits of serde_columnar met on the way, which shape the
//! schemas here: a table named `Table` cannot have an `iter` field (its `TableIter` import shadows
//! the generated `TableIter` struct); its iterable rows take no strategy on optional fields, no
//! skipped field of a non-serde type, and no generic parameters; map rows stop at 11 fields.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fmt;
use std::marker::PhantomData;

use integration_tests::hex::Hex;
use proptest::collection::vec;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// The crate under test. Everything of `columnar` this file uses goes through here.
mod ours_api {
    pub use columnar::{columnar, from_bytes, iter_from_bytes, to_vec, DeltaRleable, Rleable};
}

/// Stamps the same schema items twice: `sc` for serde_columnar, `ours` for columnar.
macro_rules! twins {
    ($($body:tt)*) => {
        #[allow(dead_code, clippy::all)]
        pub mod sc {
            #[allow(unused_imports)]
            use super::*;
            #[allow(unused_imports)]
            use serde_columnar::{columnar, DeltaRleable, Rleable};
            // serde_columnar's `iterable` output names these without a path.
            #[allow(unused_imports)]
            use serde_columnar::iterable::{
                AnyRleIter, BoolRleIter, DeltaOfDeltaIter, DeltaRleIter, GenericIter,
            };
            $($body)*
        }
        #[allow(dead_code, clippy::all)]
        pub mod ours {
            #[allow(unused_imports)]
            use super::*;
            #[allow(unused_imports)]
            use crate::ours_api::{columnar, DeltaRleable, Rleable};
            $($body)*
        }
    };
}

/// The same value in the twin schema (ours → serde_columnar's).
trait Twin<T> {
    fn twin(&self) -> T;
}

macro_rules! twin_identity {
    ($($t:ty),* $(,)?) => {
        $(impl Twin<$t> for $t {
            fn twin(&self) -> $t {
                self.clone()
            }
        })*
    };
}
twin_identity!(
    u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, bool, f32, f64, char, String,
    Point
);

impl<'a> Twin<Cow<'a, str>> for Cow<'a, str> {
    fn twin(&self) -> Cow<'a, str> {
        self.clone()
    }
}
impl<'a> Twin<Cow<'a, [u8]>> for Cow<'a, [u8]> {
    fn twin(&self) -> Cow<'a, [u8]> {
        self.clone()
    }
}
impl<T> Twin<PhantomData<T>> for PhantomData<T> {
    fn twin(&self) -> PhantomData<T> {
        PhantomData
    }
}
impl<A: Twin<B>, B> Twin<Vec<B>> for Vec<A> {
    fn twin(&self) -> Vec<B> {
        self.iter().map(Twin::twin).collect()
    }
}
impl<A: Twin<B>, B> Twin<VecDeque<B>> for VecDeque<A> {
    fn twin(&self) -> VecDeque<B> {
        self.iter().map(Twin::twin).collect()
    }
}
impl<A: Twin<B>, B> Twin<Option<B>> for Option<A> {
    fn twin(&self) -> Option<B> {
        self.as_ref().map(Twin::twin)
    }
}
impl<K: Clone + Ord, A: Twin<B>, B> Twin<BTreeMap<K, B>> for BTreeMap<K, A> {
    fn twin(&self) -> BTreeMap<K, B> {
        self.iter().map(|(k, v)| (k.clone(), v.twin())).collect()
    }
}
impl<K: Clone + Eq + std::hash::Hash, A: Twin<B>, B> Twin<HashMap<K, B>> for HashMap<K, A> {
    fn twin(&self) -> HashMap<K, B> {
        self.iter().map(|(k, v)| (k.clone(), v.twin())).collect()
    }
}
impl<A: Twin<X>, B: Twin<Y>, X, Y> Twin<(X, Y)> for (A, B) {
    fn twin(&self) -> (X, Y) {
        (self.0.twin(), self.1.twin())
    }
}

/// `impl Twin<sc::Name> for ours::Name`, field by field.
macro_rules! twin_struct {
    ($name:ident { $($f:ident),* $(,)? }) => {
        impl Twin<sc::$name> for ours::$name {
            fn twin(&self) -> sc::$name {
                sc::$name { $($f: self.$f.twin()),* }
            }
        }
    };
    ($name:ident<$lt:lifetime> { $($f:ident),* $(,)? }) => {
        impl<$lt> Twin<sc::$name<$lt>> for ours::$name<$lt> {
            fn twin(&self) -> sc::$name<$lt> {
                sc::$name { $($f: self.$f.twin()),* }
            }
        }
    };
}

/// An `ours::Wide` whose field `f<i>` is `column(i)`, `column` being the argument for its place
/// in the cycle of eight field types of [`wide_fields!`].
macro_rules! wide_build {
    ($c0:expr, $c1:expr, $c2:expr, $c3:expr, $c4:expr, $c5:expr, $c6:expr, $c7:expr $(,)?) => {{
        let (c0, c1, c2, c3, c4, c5, c6, c7) = ($c0, $c1, $c2, $c3, $c4, $c5, $c6, $c7);
        ours::Wide {
            f0: c0(0),
            f1: c1(1),
            f2: c2(2),
            f3: c3(3),
            f4: c4(4),
            f5: c5(5),
            f6: c6(6),
            f7: c7(7),
            f8: c0(8),
            f9: c1(9),
            f10: c2(10),
            f11: c3(11),
            f12: c4(12),
            f13: c5(13),
            f14: c6(14),
            f15: c7(15),
            f16: c0(16),
            f17: c1(17),
            f18: c2(18),
            f19: c3(19),
            f20: c4(20),
            f21: c5(21),
            f22: c6(22),
            f23: c7(23),
            f24: c0(24),
            f25: c1(25),
            f26: c2(26),
            f27: c3(27),
            f28: c4(28),
            f29: c5(29),
            f30: c6(30),
            f31: c7(31),
            f32: c0(32),
            f33: c1(33),
            f34: c2(34),
            f35: c3(35),
            f36: c4(36),
            f37: c5(37),
            f38: c6(38),
            f39: c7(39),
        }
    }};
}

/// Stamps the wide row (module `wide`) from one list of fields, `name: type` and, where the field
/// has any, its `#[columnar(..)]` arguments in brackets: `Wide` and its `Table` for both crates
/// (through [`twins!`]) under the `vec:` attributes, with [`Twin`]; `ours_only::WideMap` and its
/// `MapTable` under the `map:` attributes, with `to_map_row`. The attributes (`#` included) come
/// with the fields from the one invocation: the derives' generated locals are named at the spans
/// of both, which must share one hygiene context.
macro_rules! wide_rows {
    (
        vec: { $($vec:tt)* }
        map: { $($map:tt)* }
        fields: $($f:ident : $t:tt $([$($a:tt)*])?),* $(,)?
    ) => {
        twins! {
            $($vec)*
            pub struct Wide {
                $($(#[columnar($($a)*)])? pub $f: $t,)*
            }

            #[columnar(ser, de)]
            #[derive(Debug, Clone, PartialEq)]
            pub struct Table {
                #[columnar(class = "vec")]
                pub rows: Vec<Wide>,
            }
        }
        twin_struct!(Wide { $($f),* });
        twin_struct!(Table { rows });

        /// The same fields as a map row: serde_columnar's map rows stop at 11 fields (its
        /// `multiunzip` of a tuple of keys and columns), so this one is checked without it.
        #[allow(dead_code)]
        pub mod ours_only {
            use crate::ours_api::columnar;

            $($map)*
            pub struct WideMap {
                $($(#[columnar($($a)*)])? pub $f: $t,)*
            }

            #[columnar(ser, de)]
            #[derive(Debug, Clone, PartialEq)]
            pub struct MapTable {
                #[columnar(class = "map")]
                pub map: std::collections::BTreeMap<u64, WideMap>,
            }
        }

        pub fn to_map_row(row: &ours::Wide) -> ours_only::WideMap {
            ours_only::WideMap { $($f: Clone::clone(&row.$f)),* }
        }
    };
}

/// The three differential assertions for one value of type `ours::T` (twin `sc::T`). With an
/// `expect` value, decoding must give that instead of the input (skipped fields come back as
/// `Default`). Evaluates to our bytes.
macro_rules! differential {
    ($value:expr, $OT:ty, $ST:ty) => {{
        let value: &$OT = &$value;
        differential!(@run value, value, $OT, $ST)
    }};
    ($value:expr, $expect:expr, $OT:ty, $ST:ty) => {{
        let value: &$OT = &$value;
        let expect: &$OT = &$expect;
        differential!(@run value, expect, $OT, $ST)
    }};
    (@run $value:ident, $expect:ident, $OT:ty, $ST:ty) => {{
        let sc_value: $ST = Twin::twin($value);
        let sc_expect: $ST = Twin::twin($expect);
        let sc_bytes = serde_columnar::to_vec(&sc_value).expect("serde_columnar encodes");
        let our_bytes = ours_api::to_vec($value).expect("columnar encodes");
        assert_eq!(
            Hex(&our_bytes),
            Hex(&sc_bytes),
            "columnar::to_vec (left) vs serde_columnar::to_vec (right) of {:?}",
            $value
        );
        let ours_from_sc: $OT =
            ours_api::from_bytes(&sc_bytes).expect("columnar decodes serde_columnar's bytes");
        assert_eq!(&ours_from_sc, $expect, "columnar::from_bytes of serde_columnar's bytes");
        let sc_from_ours: $ST =
            serde_columnar::from_bytes(&our_bytes).expect("serde_columnar decodes our bytes");
        assert_eq!(sc_from_ours, sc_expect, "serde_columnar::from_bytes of our bytes");
        our_bytes
    }};
}

/// A nested plain serde struct, stored in a Generic column.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Point {
    pub x: i32,
    pub label: String,
}

// ---------------------------------------------------------------- value generators

/// Number of rows: 0, 1, 2, 3 often, sometimes many.
fn row_count() -> impl Strategy<Value = usize> {
    prop_oneof![4 => 0..=3usize, 1 => 4..80usize]
}

/// Rows: a container of 0, 1, 2, 3 or many.
fn rows<T: fmt::Debug>(row: impl Strategy<Value = T> + Clone) -> impl Strategy<Value = Vec<T>> {
    row_count().prop_flat_map(move |n| vec(row.clone(), n))
}

/// A strategy for a struct from one strategy per field, each field named once (instead of in a
/// tuple of strategies, the closure's pattern and the struct literal):
/// `fields!(ours::Leaf { a: int!(u64), b: text() })`. At most 12 fields (proptest's tuples).
macro_rules! fields {
    ($($ty:ident)::+ { $($f:ident: $s:expr),* $(,)? }) => {
        ($($s,)*).prop_map(|($($f,)*)| $($ty)::+ { $($f),* })
    };
}

/// Integers biased to runs (a few small values) and the extremes.
macro_rules! int {
    ($t:ty) => {
        prop_oneof![
            4 => (0 as $t)..(3 as $t),
            1 => Just(<$t>::MIN),
            1 => Just(<$t>::MAX),
            2 => any::<$t>(),
        ]
    };
    ($t:ty, $lo:expr, $hi:expr) => {
        prop_oneof![
            4 => (0 as $t)..(3 as $t),
            1 => Just($lo),
            1 => Just($hi),
            2 => ($lo)..=($hi),
        ]
    };
}

/// Short strings: repeated ASCII, the empty string, and any Unicode.
fn text() -> impl Strategy<Value = String> + Clone {
    prop_oneof![
        3 => prop_oneof![Just(""), Just("a"), Just("ab"), Just("ß"), Just("日本"), Just("🦀")]
            .prop_map(String::from),
        2 => "\\PC{0,12}",
    ]
}

/// A [`Point`] with `x` from `xs` and any short label.
fn point(xs: impl Strategy<Value = i32> + Clone) -> impl Strategy<Value = Point> + Clone {
    fields!(Point {
        x: xs,
        label: text(),
    })
}

fn short_text(seed: u64) -> String {
    ["", "a", "ß", "日本", "🦀x"][(seed % 5) as usize].to_owned()
}

/// 96 cases per property; `PROPTEST_CASES` raises it for a longer hunt.
fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(96);
    ProptestConfig {
        cases,
        ..ProptestConfig::default()
    }
}

/// Keyed rows for a map container: keys are distinct after collecting, order is the key order.
fn keyed<K: Ord + fmt::Debug, T: fmt::Debug>(
    key: impl Strategy<Value = K> + Clone,
    row: impl Strategy<Value = T> + Clone,
) -> impl Strategy<Value = BTreeMap<K, T>> {
    rows((key, row)).prop_map(|pairs| pairs.into_iter().collect())
}

// ---------------------------------------------------------------- Rle

mod rle {
    use super::*;

    twins! {
        #[columnar(vec, map, ser, de)]
        #[derive(Debug, Clone, PartialEq, Default)]
        pub struct Row {
            #[columnar(strategy = "Rle")]
            pub a: u8,
            #[columnar(strategy = "Rle")]
            pub b: u32,
            #[columnar(strategy = "Rle")]
            pub c: i64,
            #[columnar(strategy = "Rle")]
            pub d: String,
            #[columnar(strategy = "Rle")]
            pub e: (u16, String),
            #[columnar(strategy = "Rle")]
            pub f: bool,
        }

        #[columnar(ser, de)]
        #[derive(Debug, Clone, PartialEq)]
        pub struct Table {
            #[columnar(class = "vec")]
            pub rows: Vec<Row>,
            #[columnar(class = "map")]
            pub map: BTreeMap<u64, Row>,
        }
    }
    twin_struct!(Row { a, b, c, d, e, f });
    twin_struct!(Table { rows, map });

    fn row() -> impl Strategy<Value = ours::Row> + Clone {
        fields!(ours::Row {
            a: int!(u8),
            b: int!(u32),
            c: int!(i64),
            d: text(),
            e: (int!(u16), text()),
            f: any::<bool>(),
        })
    }

    proptest! {
        #![proptest_config(config())]
        #[test]
        fn rle_columns_in_vec_and_map_match_serde_columnar(
            rows in rows(row()),
            map in keyed(int!(u64), row()),
        ) {
            differential!(ours::Table { rows, map }, ours::Table, sc::Table);
        }
    }

    #[test]
    fn rle_literal_then_run_then_literal_matches_serde_columnar() {
        let rows = [7u8, 8, 8, 7]
            .into_iter()
            .map(|a| ours::Row {
                a,
                ..Default::default()
            })
            .collect();
        let bytes = differential!(
            ours::Table {
                rows,
                map: BTreeMap::new()
            },
            ours::Table,
            sc::Table
        );
        // table of 2, vec container of 6 columns, column `a` = the Rle [7,8,8,7] example of
        // docs/spec/columnar.md §6.2
        assert_eq!(
            bytes[..9],
            [0x02, 0x06, 0x06, 0x01, 0x07, 0x04, 0x08, 0x01, 0x07]
        );
    }
}

// ---------------------------------------------------------------- DeltaRle

mod delta_rle {
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
        fields!(ours::Row {
            a: int!(u8),
            b: int!(u16),
            c: int!(u32),
            d: int!(u64),
            e: int!(i8),
            f: int!(i16),
            g: int!(i32),
            h: int!(i64),
            i: int!(usize),
            j: int!(i128, HALF_MIN, HALF_MAX),
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
}

// ---------------------------------------------------------------- BoolRle, DeltaOfDelta, Generic

mod bool_dod_generic {
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
        fields!(ours::Row {
            flag: any::<bool>(),
            t: int!(i64, -DOD, DOD),
            u: int!(u32),
            name: text(),
            blob: prop_oneof![Just(vec![]), vec(any::<u8>(), 0..6)],
            maybe: prop_oneof![Just(None), Just(Some(0)), any::<Option<u32>>()],
            point: point(int!(i32)),
            real: prop_oneof![
                Just(0.0f64),
                Just(-0.0),
                Just(f64::MAX),
                Just(f64::MIN_POSITIVE),
                Just(f64::INFINITY),
                prop::num::f64::NORMAL,
            ],
            plain: int!(u64),
        })
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
            trailer in vec(point(int!(i32)), 0..3),
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
}

// ---------------------------------------------------------------- optional fields

mod optional {
    use super::*;

    twins! {
        #[columnar(vec, map, ser, de)]
        #[derive(Debug, Clone, PartialEq, Default)]
        pub struct Row {
            #[columnar(strategy = "DeltaRle")]
            pub id: u64,
            #[columnar(strategy = "Rle", optional, index = 0)]
            pub name: String,
            #[columnar(strategy = "BoolRle", optional, index = 3)]
            pub flag: bool,
            #[columnar(optional, index = 1)]
            pub maybe: Option<u32>,
            #[columnar(strategy = "DeltaOfDelta", optional, index = 7)]
            pub t: i64,
            #[columnar(strategy = "DeltaRle", optional, index = 2)]
            pub d: i32,
        }

        /// Only optional fields: the row count comes from the optional columns alone.
        #[columnar(vec, ser, de)]
        #[derive(Debug, Clone, PartialEq, Default)]
        pub struct AllOptional {
            #[columnar(optional, index = 4)]
            pub a: u32,
            #[columnar(strategy = "Rle", optional, index = 0)]
            pub b: String,
        }

        #[columnar(ser, de)]
        #[derive(Debug, Clone, PartialEq)]
        pub struct Table {
            #[columnar(class = "vec")]
            pub rows: Vec<Row>,
            #[columnar(class = "map")]
            pub map: BTreeMap<u64, Row>,
            pub version: u32,
            #[columnar(optional, index = 0)]
            pub note: String,
            #[columnar(class = "vec", optional, index = 5)]
            pub extra: Vec<Row>,
            #[columnar(optional, index = 2)]
            pub maybe: Option<u64>,
            #[columnar(class = "map", optional, index = 9)]
            pub extra_map: BTreeMap<u8, Row>,
            #[columnar(class = "vec", optional, index = 1)]
            pub only_optional: Vec<AllOptional>,
        }
    }
    twin_struct!(Row {
        id,
        name,
        flag,
        maybe,
        t,
        d
    });
    twin_struct!(AllOptional { a, b });
    twin_struct!(Table {
        rows,
        map,
        version,
        note,
        extra,
        maybe,
        extra_map,
        only_optional
    });

    fn row() -> impl Strategy<Value = ours::Row> + Clone {
        fields!(ours::Row {
            id: int!(u64),
            name: text(),
            flag: any::<bool>(),
            maybe: any::<Option<u32>>(),
            t: int!(i64, -(1i64 << 60), 1i64 << 60),
            d: int!(i32),
        })
    }

    fn all_optional() -> impl Strategy<Value = ours::AllOptional> + Clone {
        fields!(ours::AllOptional {
            a: int!(u32),
            b: text(),
        })
    }

    proptest! {
        #![proptest_config(config())]
        #[test]
        fn optional_fields_in_rows_and_tables_match_serde_columnar(
            rows in rows(row()),
            map in keyed(int!(u64), row()),
            version in int!(u32),
            note in text(),
            extra in rows(row()),
            maybe in any::<Option<u64>>(),
            extra_map in keyed(any::<u8>(), row()),
            only_optional in rows(all_optional()),
        ) {
            let table = ours::Table { rows, map, version, note, extra, maybe, extra_map, only_optional };
            differential!(table, ours::Table, sc::Table);
        }
    }

    #[test]
    fn optional_defaults_are_still_written_like_serde_columnar() {
        let table = ours::Table {
            rows: vec![ours::Row::default()],
            map: BTreeMap::new(),
            version: 0,
            note: String::new(),
            extra: vec![],
            maybe: None,
            extra_map: BTreeMap::new(),
            only_optional: vec![],
        };
        let bytes = differential!(table, ours::Table, sc::Table);
        // 8 table fields; rows container of 6 fields: one required column, then five
        // (index, len, column) pairs in declaration order 0, 3, 1, 7, 2.
        assert_eq!(bytes[..3], [0x08, 0x06, 0x02]);
    }
}

// ---------------------------------------------------------------- skip

mod skip {
    use super::*;

    twins! {
        #[columnar(vec, map, ser, de)]
        #[derive(Debug, Clone, PartialEq, Default)]
        pub struct Row {
            pub a: u32,
            #[columnar(skip)]
            pub b: String,
            #[columnar(strategy = "DeltaRle")]
            pub c: u16,
            #[columnar(skip)]
            pub d: u64,
            #[columnar(strategy = "Rle", optional, index = 0)]
            pub e: String,
        }

        #[columnar(ser, de)]
        #[derive(Debug, Clone, PartialEq)]
        pub struct Table {
            #[columnar(class = "vec")]
            pub rows: Vec<Row>,
            #[columnar(skip)]
            pub cache: Vec<u32>,
            pub n: u8,
            #[columnar(class = "map")]
            pub map: BTreeMap<u64, Row>,
        }
    }
    twin_struct!(Row { a, b, c, d, e });
    twin_struct!(Table {
        rows,
        cache,
        n,
        map
    });

    fn row() -> impl Strategy<Value = ours::Row> + Clone {
        fields!(ours::Row {
            a: int!(u32),
            b: text(),
            c: int!(u16),
            d: any::<u64>(),
            e: text(),
        })
    }

    fn without_skipped(row: &ours::Row) -> ours::Row {
        ours::Row {
            b: String::new(),
            d: 0,
            ..row.clone()
        }
    }

    proptest! {
        #![proptest_config(config())]
        #[test]
        fn skipped_fields_are_not_written_and_decode_to_default_like_serde_columnar(
            rows in rows(row()),
            cache in vec(any::<u32>(), 0..4),
            n in any::<u8>(),
            map in keyed(int!(u64), row()),
        ) {
            let expect = ours::Table {
                rows: rows.iter().map(without_skipped).collect(),
                cache: vec![],
                n,
                map: map.iter().map(|(k, r)| (*k, without_skipped(r))).collect(),
            };
            let table = ours::Table { rows, cache, n, map };
            differential!(table, expect, ours::Table, sc::Table);
        }
    }
}

// ---------------------------------------------------------------- borrow

mod borrow {
    use super::*;

    twins! {
        #[columnar(vec, ser, de)]
        #[derive(Debug, Clone, PartialEq, Default)]
        pub struct Row<'a> {
            #[columnar(borrow)]
            pub s: Cow<'a, str>,
            #[columnar(strategy = "Rle")]
            pub r: Cow<'a, str>,
            pub n: u8,
        }

        #[columnar(ser, de)]
        #[derive(Debug, Clone, PartialEq)]
        pub struct Table<'a> {
            #[columnar(borrow)]
            pub s: Cow<'a, str>,
            #[columnar(borrow = "'a")]
            pub b: Cow<'a, [u8]>,
            pub n: u32,
            #[columnar(class = "vec")]
            pub rows: Vec<Row<'a>>,
            #[columnar(borrow, optional, index = 0)]
            pub o: Cow<'a, str>,
        }
    }
    twin_struct!(Row<'a> { s, r, n });
    twin_struct!(Table<'a> { s, b, n, rows, o });

    fn row() -> impl Strategy<Value = ours::Row<'static>> + Clone {
        fields!(ours::Row {
            s: text().prop_map(Cow::Owned),
            r: text().prop_map(Cow::Owned),
            n: any::<u8>(),
        })
    }

    proptest! {
        #![proptest_config(config())]
        #[test]
        fn borrowed_cow_fields_match_serde_columnar(
            s in text(),
            b in vec(any::<u8>(), 0..8),
            n in int!(u32),
            rows in rows(row()),
            o in text(),
        ) {
            let table = ours::Table { s: s.into(), b: b.into(), n, rows, o: o.into() };
            differential!(table, ours::Table<'_>, sc::Table<'_>);
        }
    }

    #[test]
    fn borrowed_table_fields_point_into_the_input_in_both() {
        let table = ours::Table {
            s: "héllo".into(),
            b: Cow::Borrowed(&[1, 2, 3]),
            n: 7,
            rows: vec![],
            o: "opt".into(),
        };
        let bytes = differential!(table, ours::Table<'_>, sc::Table<'_>);
        let ours_back: ours::Table<'_> = ours_api::from_bytes(&bytes).unwrap();
        assert!(matches!(ours_back.s, Cow::Borrowed(_)), "columnar: s owned");
        assert!(matches!(ours_back.b, Cow::Borrowed(_)), "columnar: b owned");
        assert!(matches!(ours_back.o, Cow::Borrowed(_)), "columnar: o owned");
        let sc_back: sc::Table<'_> = serde_columnar::from_bytes(&bytes).unwrap();
        assert!(
            matches!(sc_back.s, Cow::Borrowed(_)),
            "serde_columnar: s owned"
        );
    }
}

// ---------------------------------------------------------------- nested class fields

mod nested {
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
        fields!(ours::Leaf {
            a: int!(u64),
            b: text(),
        })
    }

    fn mid() -> impl Strategy<Value = ours::Mid> + Clone {
        fields!(ours::Mid {
            leaves: vec(leaf(), 0..4),
            index: prop::collection::btree_map(any::<u8>(), leaf(), 0..3),
            flag: any::<bool>(),
            more: vec(leaf(), 0..3),
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
}

// ---------------------------------------------------------------- other containers

mod containers {
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
        fields!(ours::Row {
            id: int!(u32),
            tag: text(),
        })
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
}

// ---------------------------------------------------------------- a row of 40 fields

mod wide {
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
                    1 => vec![0x01, i], // Rle: literal of 1 (zigzag(-1)), i
                    2 => vec![0x01, zigzag(-i64::from(i))], // DeltaRle: literal of 1, delta -i
                    3 if i % 2 == 0 => vec![0x00, 0x01], // BoolRle [true]: counts 0, 1
                    3 => vec![0x01],    // BoolRle [false]: count 1
                    4 => vec![0x01, zigzag(i64::from(i)), 0x00], // DoD: Some(i), 0 used bits
                    5 => vec![0x01, 0x00], // Generic: Vec<String> [""]
                    6 => vec![0x01, 0x02, 0xc3, 0xa9], // Rle: literal of 1, "é"
                    _ => vec![0x01, zigzag(i64::from(i))], // DeltaRle: literal of 1, delta i
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
}

// ---------------------------------------------------------------- generic rows

mod generic {
    use super::*;

    twins! {
        #[columnar(vec, map, ser, de)]
        #[derive(Debug, Clone, PartialEq)]
        pub struct Row<'a, T: Rleable, U: DeltaRleable> {
            #[columnar(strategy = "Rle")]
            pub t: T,
            #[columnar(strategy = "DeltaRle")]
            pub u: U,
            #[columnar(borrow)]
            pub s: Cow<'a, str>,
            pub g: Vec<T>,
        }

        #[columnar(ser, de)]
        #[derive(Debug, Clone, PartialEq)]
        pub struct Table<'a, T: Rleable, U: DeltaRleable> {
            #[columnar(class = "vec")]
            pub rows: Vec<Row<'a, T, U>>,
            #[columnar(class = "map")]
            pub map: BTreeMap<u8, Row<'a, T, U>>,
            pub t: T,
        }
    }

    impl<'a, T, U> Twin<sc::Row<'a, T, U>> for ours::Row<'a, T, U>
    where
        T: serde_columnar::Rleable + ours_api::Rleable,
        U: serde_columnar::DeltaRleable + ours_api::DeltaRleable,
    {
        fn twin(&self) -> sc::Row<'a, T, U> {
            sc::Row {
                t: self.t.clone(),
                u: self.u,
                s: self.s.clone(),
                g: self.g.clone(),
            }
        }
    }

    impl<'a, T, U> Twin<sc::Table<'a, T, U>> for ours::Table<'a, T, U>
    where
        T: serde_columnar::Rleable + ours_api::Rleable,
        U: serde_columnar::DeltaRleable + ours_api::DeltaRleable,
    {
        fn twin(&self) -> sc::Table<'a, T, U> {
            sc::Table {
                rows: self.rows.twin(),
                map: self.map.twin(),
                t: self.t.clone(),
            }
        }
    }

    fn row<T, U>(
        ts: impl Strategy<Value = T> + Clone,
        us: impl Strategy<Value = U> + Clone,
    ) -> impl Strategy<Value = ours::Row<'static, T, U>> + Clone
    where
        T: ours_api::Rleable + fmt::Debug,
        U: ours_api::DeltaRleable + fmt::Debug,
    {
        fields!(ours::Row {
            t: ts.clone(),
            u: us,
            s: text().prop_map(Cow::Owned),
            g: vec(ts, 0..3),
        })
    }

    proptest! {
        #![proptest_config(config())]
        #[test]
        fn generic_rows_of_string_and_i32_match_serde_columnar(
            rows in rows(row(text(), int!(i32))),
            map in keyed(any::<u8>(), row(text(), int!(i32))),
            t in text(),
        ) {
            let table = ours::Table { rows, map, t };
            differential!(table, ours::Table<'_, String, i32>, sc::Table<'_, String, i32>);
        }

        #[test]
        fn generic_rows_of_tuple_and_u64_match_serde_columnar(
            rows in rows(row((int!(u8), any::<bool>()), int!(u64))),
            map in keyed(any::<u8>(), row((int!(u8), any::<bool>()), int!(u64))),
            t in (int!(u8), any::<bool>()),
        ) {
            let table = ours::Table { rows, map, t };
            differential!(
                table,
                ours::Table<'_, (u8, bool), u64>,
                sc::Table<'_, (u8, bool), u64>
            );
        }
    }
}

// ---------------------------------------------------------------- iterable

mod iterable {
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
        fields!(ours::Row {
            name: text(),
            id: int!(u64),
            flag: any::<bool>(),
            t: int!(i64, -(1i64 << 60), 1i64 << 60),
            g: any::<Option<u32>>(),
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
}

// ---------------------------------------------------------------- where the two disagree

mod divergence {
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
}

// ---------------------------------------------------------------- more column types

/// A plain serde enum, stored in Generic and Rle columns.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub enum Shape {
    #[default]
    Empty,
    Circle(u32),
    Rect {
        w: i16,
        h: i16,
    },
    Named(String, Option<u8>),
}
twin_identity!(Shape, (), [u8; 4], (i8, i16, i32));

impl<A: Twin<B>, B> Twin<Box<B>> for Box<A> {
    fn twin(&self) -> Box<B> {
        Box::new((**self).twin())
    }
}

mod more_types {
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
        fields!(ours::Ints {
            a: int!(u8),
            b: int!(u16),
            c: int!(i32),
            d: int!(u64, 0, 1u64 << 60),
            e: int!(isize, -(1isize << 60), 1isize << 60),
            f: int!(i8),
            g: int!(u128, 0, i128::MAX as u128 / 2),
            h: int!(isize),
            i: any::<Option<u32>>(),
            j: prop_oneof![Just('a'), Just('\u{10ffff}'), any::<char>()],
            k: prop_oneof![Just(vec![]), prop::collection::vec(any::<u8>(), 0..4)],
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
                point(0..2i32),
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
            let bits = |t: &ours::FloatTable| -> Vec<u64> {
                t.rows.iter().map(|r| r.x.to_bits()).collect()
            };
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
}

// ---------------------------------------------------------------- iterable rows, more shapes

mod iterable_more {
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
}

// ---------------------------------------------------------------- source shapes of real programs

/// Not a serde type: only ever in skipped fields.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Opaque(pub Option<std::rc::Rc<std::cell::Cell<u8>>>);
twin_identity!(Opaque);

mod source_shapes {
    use super::*;

    twins! {
        /// `#[derive]` before `#[columnar]`, arguments in another order, a field's arguments split
        /// over several attributes and in another order, a skipped non-serde field.
        #[derive(Debug, Clone, PartialEq, Default)]
        #[columnar(de, ser, map, vec)]
        pub struct Row<'a> {
            #[columnar(borrow)]
            pub bytes: Cow<'a, [u8]>,
            #[columnar(skip)]
            pub cache: Opaque,
            #[columnar(strategy = "DeltaRle")]
            pub id: u32,
            #[columnar(optional)]
            #[columnar(index = 0)]
            pub note: String,
            #[columnar(index = 3, optional, strategy = "Rle")]
            pub kind: String,
        }

        pub type Rows<'a> = Vec<Row<'a>>;
        pub type Index<'a> = BTreeMap<u32, Row<'a>>;

        /// Container types through aliases and full paths.
        #[derive(Debug, Clone, PartialEq)]
        #[columnar(de, ser)]
        pub struct Table<'a> {
            #[columnar(class = "vec")]
            pub rows: Rows<'a>,
            #[columnar(class = "map")]
            pub index: Index<'a>,
            #[columnar(class = "vec")]
            pub full: ::std::vec::Vec<Row<'a>>,
            #[columnar(class = "vec")]
            pub deque: std::collections::VecDeque<Row<'a>>,
            #[columnar(skip)]
            pub cache: Opaque,
        }
    }
    twin_struct!(Row<'a> {
        bytes,
        cache,
        id,
        note,
        kind
    });
    twin_struct!(Table<'a> {
        rows,
        index,
        full,
        deque,
        cache
    });

    fn row() -> impl Strategy<Value = ours::Row<'static>> + Clone {
        fields!(ours::Row {
            bytes: prop::collection::vec(any::<u8>(), 0..4).prop_map(Cow::Owned),
            cache: any::<u8>()
                .prop_map(|c| Opaque(Some(std::rc::Rc::new(std::cell::Cell::new(c))))),
            id: int!(u32),
            note: text(),
            kind: text(),
        })
    }

    fn without_cache(row: &ours::Row<'static>) -> ours::Row<'static> {
        ours::Row {
            cache: Opaque::default(),
            ..row.clone()
        }
    }

    proptest! {
        #![proptest_config(config())]
        #[test]
        fn attribute_orders_split_attributes_aliases_and_paths_match_serde_columnar(
            rows in rows(row()),
            index in keyed(int!(u32), row()),
            full in rows(row()),
            deque in rows(row()),
        ) {
            let table = ours::Table {
                rows,
                index,
                full,
                deque: deque.into(),
                cache: Opaque(Some(Default::default())),
            };
            let expect = ours::Table {
                rows: table.rows.iter().map(without_cache).collect(),
                index: table.index.iter().map(|(k, r)| (*k, without_cache(r))).collect(),
                full: table.full.iter().map(without_cache).collect(),
                deque: table.deque.iter().map(without_cache).collect(),
                cache: Opaque::default(),
            };
            differential!(table, expect, ours::Table<'_>, sc::Table<'_>);
        }

        /// A row struct with `ser, de` is a table of its own too.
        #[test]
        fn a_row_encoded_as_a_table_matches_serde_columnar(row in row()) {
            let expect = without_cache(&row);
            differential!(row, expect, ours::Row<'_>, sc::Row<'_>);
        }
    }
}

// ---------------------------------------------------------------- schema evolution across crates

mod evolution {
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
        fields!(ours::RowV2 {
            id: int!(u64),
            score: any::<Option<u32>>(),
            name: text(),
            flag: any::<bool>(),
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
}
