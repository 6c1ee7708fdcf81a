// `#[columnar(crate = "path")]` names the library where a crate re-exports it.
mod reexport {
    pub use columnar as lib;
}

#[columnar::columnar(vec, ser, de, crate = "crate::reexport::lib")]
#[derive(Debug, Clone, PartialEq)]
struct Row {
    #[columnar(strategy = "DeltaRle")]
    id: u64,
}

fn main() {
    let row = Row { id: 3 };
    let bytes = columnar::to_vec(&row).unwrap();
    assert_eq!(columnar::from_bytes::<Row>(&bytes).unwrap(), row);
}
