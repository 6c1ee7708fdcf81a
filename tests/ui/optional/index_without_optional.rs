use columnar::columnar;

#[columnar(vec)]
struct Row {
    id: u64,
    #[columnar(index = 1)]
    note: String,
}

fn main() {}
