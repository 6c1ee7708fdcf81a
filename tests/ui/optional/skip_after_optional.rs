use columnar::columnar;

#[columnar(vec)]
struct Row {
    id: u64,
    #[columnar(optional, index = 0)]
    note: String,
    #[columnar(skip)]
    cache: u32,
}

fn main() {}
