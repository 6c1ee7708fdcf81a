use columnar::columnar;

#[columnar(vec)]
struct Row {
    id: u64,
    #[columnar(optional)]
    note: String,
}

fn main() {}
