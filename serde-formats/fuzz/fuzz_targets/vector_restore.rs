//! `vector::restore` on arbitrary bytes: never a panic; the slice reader, the stream reader and
//! the stream reader told the length (`restore_with_len`) agree; a
//! vector that restores saves to bytes that restore to the same vector, and reading every value
//! and printing it never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_formats::vector::{from_bytes, restore, restore_with_len, take_from_bytes, to_bytes};

fuzz_target!(|data: &[u8]| {
    let from_stream = restore(data);
    let from_slice = take_from_bytes(data);
    match (&from_slice, &from_stream) {
        (Ok((a, _)), Ok(b)) => assert_eq!(a, b),
        (Err(a), Err(b)) => assert_eq!(a.kind(), b.kind()),
        _ => panic!("readers disagree: {from_slice:?} vs {from_stream:?}"),
    }
    let from_sized = restore_with_len(data, data.len() as u64);
    match (&from_slice, &from_sized) {
        (Ok((a, _)), Ok(b)) => assert_eq!(a, b),
        // Lengths are checked before reading in both, so the errors match exactly.
        (Err(a), Err(b)) => assert_eq!((a.kind(), a.offset()), (b.kind(), b.offset())),
        _ => panic!("readers disagree: {from_slice:?} vs {from_sized:?}"),
    }
    let Ok((vector, _)) = from_slice else {
        return;
    };
    // `value` materializes a row, which for a complex type may legitimately be huge (an array
    // over a constant of 2^31 rows), so only scalar rows are read; Display is bounded.
    for row in 0..vector.len().min(8) {
        let _ = vector.is_null(row);
        if vector.ty().is_scalar() {
            let _ = vector.value(row);
        }
    }
    let _ = vector.to_string();
    let bytes = to_bytes(&vector).expect("a restored vector saves");
    let again = from_bytes(&bytes).expect("canonical bytes restore");
    assert_eq!(again, vector);
    assert_eq!(to_bytes(&again).expect("saves again"), bytes);
});
