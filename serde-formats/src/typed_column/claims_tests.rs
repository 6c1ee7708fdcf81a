//! The decoder's tree check when claims do not follow each other: children laid out in an
//! order other than the encoder's are still a tree, and an orphan or a shared description is
//! still found, through both entry points.

use super::tests::frame;
use super::{from_bytes, from_columns};
use crate::error::{ErrorKind, Position, Result};

/// Decodes `Vec<Vec<String>>` both ways, checking that they agree.
fn both(types: &[u64], data: &[u8]) -> Result<Vec<Vec<String>>> {
    let columns = from_columns::<Vec<Vec<String>>>(types, data);
    let bytes = from_bytes::<Vec<Vec<String>>>(&frame(types, data));
    assert_eq!(columns, bytes);
    columns
}

#[test]
fn children_out_of_order_are_a_tree() {
    // The second inner column's children (3, 4) come before the first's (5, 6).
    let types = [
        4, 1, 2, 4, 5, 2, 4, 3, 2, 3, 2, 1, 3, 3, 1, 3, 0, 1, 3, 1, 1,
    ];
    assert_eq!(
        both(&types, b"abcd").unwrap(),
        [["a", "b"], ["c", "d"]].map(|inner| inner.map(String::from).to_vec())
    );
}

#[test]
fn out_of_order_orphans_and_shared_children_are_errors() {
    // As above, the second inner column taking only description 3: 4 is nobody's child.
    let orphan = [
        4, 1, 2, 4, 5, 2, 4, 3, 1, 3, 2, 1, 3, 3, 1, 3, 0, 1, 3, 1, 1,
    ];
    let err = both(&orphan, b"abcd").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotATree);
    assert_eq!(err.position(), Position::TypeWord(4));
    // The second inner column taking 4 and 5: 5 is the first's too.
    let shared = [
        4, 1, 2, 4, 5, 2, 4, 4, 2, 3, 2, 1, 3, 3, 1, 3, 0, 1, 3, 1, 1,
    ];
    let err = both(&shared, b"abcd").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotATree);
    assert_eq!(err.position(), Position::TypeWord(2));
}
