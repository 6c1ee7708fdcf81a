use columnar::columnar;

#[columnar(vec)]
struct Row {
    #[columnar(optional, index = 0)]
    note: String,
    id: u64,
}

fn main() {}
