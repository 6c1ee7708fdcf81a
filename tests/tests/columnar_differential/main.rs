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

mod rle;

// ---------------------------------------------------------------- DeltaRle

mod delta_rle;

// ---------------------------------------------------------------- BoolRle, DeltaOfDelta, Generic

mod bool_dod_generic;

// ---------------------------------------------------------------- optional fields

mod optional;

// ---------------------------------------------------------------- skip

mod skip;

// ---------------------------------------------------------------- borrow

mod borrow;

// ---------------------------------------------------------------- nested class fields

mod nested;

// ---------------------------------------------------------------- other containers

mod containers;

// ---------------------------------------------------------------- a row of 40 fields

mod wide;

// ---------------------------------------------------------------- generic rows

mod generic;

// ---------------------------------------------------------------- iterable

mod iterable;

// ---------------------------------------------------------------- where the two disagree

mod divergence;

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

mod more_types;

// ---------------------------------------------------------------- iterable rows, more shapes

mod iterable_more;

// ---------------------------------------------------------------- source shapes of real programs

/// Not a serde type: only ever in skipped fields.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Opaque(pub Option<std::rc::Rc<std::cell::Cell<u8>>>);
twin_identity!(Opaque);

mod source_shapes;

// ---------------------------------------------------------------- schema evolution across crates

mod evolution;
