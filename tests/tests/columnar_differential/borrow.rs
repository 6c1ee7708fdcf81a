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
    (text(), text(), any::<u8>()).prop_map(|(s, r, n)| ours::Row {
        s: Cow::Owned(s),
        r: Cow::Owned(r),
        n,
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
