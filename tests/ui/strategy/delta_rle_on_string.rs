use columnar::columnar;

#[columnar(vec, ser, de, iterable)]
struct Row {
    #[columnar(strategy = "DeltaRle")]
    name: String,
}

fn main() {}
