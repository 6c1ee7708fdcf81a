use columnar::columnar;

#[columnar(vec)]
struct Row {
    #[columnar(strategie = "Rle")]
    name: String,
}

fn main() {}
