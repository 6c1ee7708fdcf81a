use columnar::columnar;

#[columnar(vec)]
union Row {
    id: u64,
    bits: f64,
}

fn main() {}
