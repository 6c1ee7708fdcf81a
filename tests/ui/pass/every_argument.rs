//! Every struct and field argument of `#[columnar]` at once (the tables of
//! `ui/schemas/every_argument.rs`, which imports only `columnar`): a table round-trips.
include!("../schemas/every_argument.rs");

fn main() {
    let rows: Vec<Row> = (0..4)
        .map(|i| Row {
            name: format!("n{}", i / 2),
            id: i * 3,
            flag: i % 3 == 0,
            time: 1_000 + 10 * i as i64,
            value: i as u32 * 7,
            text: Cow::Owned(format!("t{i}")),
            raw: Cow::Owned(vec![i as u8]),
            cache: 0,
            note: "x".into(),
        })
        .collect();
    let by_id: BTreeMap<u32, Row> = rows.iter().cloned().zip(0..).map(|(r, i)| (i, r)).collect();
    let table = Table {
        rows: rows.clone(),
        by_id: by_id.clone(),
        groups: vec![Group {
            tag: 1,
            rows: rows.clone(),
            by_id,
        }],
        version: 3,
        extra: Some("e".into()),
    };
    let bytes = columnar::to_vec(&table).unwrap();
    assert_eq!(columnar::from_bytes::<Table>(&bytes).unwrap(), table);
    let iter = columnar::iter_from_bytes::<Table>(&bytes).unwrap();
    let streamed: Vec<Row> = iter.rows.collect::<Result<_, columnar::Error>>().unwrap();
    assert_eq!(streamed, rows);
    assert_eq!(iter.version, 3);
}
