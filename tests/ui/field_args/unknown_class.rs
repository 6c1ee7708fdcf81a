use columnar::columnar;

#[columnar(vec)]
struct Row {
    id: u64,
}

#[columnar(ser, de)]
struct Table {
    #[columnar(class = "list")]
    rows: Vec<Row>,
}

fn main() {}
