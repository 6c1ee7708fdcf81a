use columnar::columnar;

#[columnar(vec)]
struct Row {
    #[columnar(borrow)]
    name: String,
}

fn main() {}
