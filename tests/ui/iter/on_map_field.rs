use std::collections::BTreeMap;

use columnar::columnar;

#[columnar(map, iterable)]
struct Row {
    id: u64,
}

#[columnar(ser, de)]
struct Table {
    #[columnar(class = "map", iter = "Row")]
    rows: BTreeMap<u32, Row>,
}

fn main() {}
