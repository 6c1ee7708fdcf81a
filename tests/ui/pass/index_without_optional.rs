// `index` without `optional` is accepted and ignored, as serde_columnar 0.3.14 does: the
// field stays positional (tests/columnar_compat_api.rs checks the bytes against it).
use columnar::columnar;

#[columnar(vec, ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct Row {
    #[columnar(index = 0)]
    id: u64,
    #[columnar(index = 1, strategy = "Rle")]
    note: String,
}

fn main() {
    let rows = vec![Row { id: 1, note: "a".into() }];
    let bytes = columnar::to_vec(&rows[0]).unwrap();
    assert_eq!(columnar::from_bytes::<Row>(&bytes).unwrap(), rows[0]);
}
