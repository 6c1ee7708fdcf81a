use columnar::columnar;

#[columnar(vec, iterable)]
struct Row {
    id: u64,
}

#[columnar(ser, de)]
struct Table {
    #[columnar(iter = "Row")]
    rows: Vec<Row>,
}

fn main() {
    // No cascade: the table still counts as a table for every entry point.
    let _ = columnar::iter_from_bytes::<Table>(&[]);
}
