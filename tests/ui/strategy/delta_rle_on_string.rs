use columnar::columnar;

#[columnar(vec)]
struct Row {
    #[columnar(strategy = "DeltaRle")]
    name: String,
}

fn main() {}
