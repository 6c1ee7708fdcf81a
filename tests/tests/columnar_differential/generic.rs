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
    t: impl Strategy<Value = T> + Clone,
    u: impl Strategy<Value = U> + Clone,
) -> impl Strategy<Value = ours::Row<'static, T, U>> + Clone
where
    T: ours_api::Rleable + fmt::Debug,
    U: ours_api::DeltaRleable + fmt::Debug,
{
    (t.clone(), u, text(), vec(t, 0..3)).prop_map(|(t, u, s, g)| ours::Row {
        t,
        u,
        s: s.into(),
        g,
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
