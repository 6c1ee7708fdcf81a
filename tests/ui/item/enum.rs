use columnar::columnar;

#[columnar(vec)]
enum Row {
    A { id: u64 },
    B { name: String },
}

fn main() {}
