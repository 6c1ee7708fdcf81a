use columnar::columnar;

#[columnar(vec, ser, de, iterable)]
struct Row {
    #[columnar(strategy = "DeltaOfDelta")]
    time: f64,
}

fn main() {}
