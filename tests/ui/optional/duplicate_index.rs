use columnar::columnar;

#[columnar(vec)]
struct Row {
    id: u64,
    #[columnar(optional, index = 1)]
    note: String,
    #[columnar(optional, index = 1)]
    tag: String,
}

fn main() {}
