use columnar::columnar;

#[columnar(vec)]
struct Row {
    id: u64,
}

#[columnar(vec)]
struct Outer {
    #[columnar(strategy = "Rle", class = "vec")]
    rows: Vec<Row>,
}

fn main() {}
