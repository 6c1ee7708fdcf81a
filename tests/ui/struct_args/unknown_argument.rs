use columnar::columnar;

#[columnar(ser, de, vecc)]
struct Table {
    id: u64,
}

fn main() {}
