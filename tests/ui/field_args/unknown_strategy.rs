use columnar::columnar;

// One attribute error, and no cascade at the use sites below.
#[columnar(vec, ser, de)]
struct Row {
    #[columnar(strategy = "Delta")]
    id: u64,
}

#[columnar(ser, de)]
struct Table {
    #[columnar(class = "vec")]
    rows: Vec<Row>,
}

fn main() {
    let row = Row { id: 1 };
    let _ = columnar::to_vec(&row);
    let _ = columnar::from_bytes::<Row>(&[]);
    let table = Table { rows: vec![] };
    let _ = columnar::to_vec(&table);
}
