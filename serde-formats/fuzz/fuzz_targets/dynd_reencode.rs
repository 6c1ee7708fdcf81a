//! Uniqueness: any input the dynd decoder accepts for a rich Rust type re-encodes to exactly
//! the same bytes.
#![no_main]

use std::collections::BTreeMap;

use dynd_record::Record;
use libfuzzer_sys::fuzz_target;
use serde_formats::dynd;

// The rich type of the round-trip proptest `tests/tests/dynd_roundtrip.rs`.
#[path = "../../../tests/src/dynd_record.rs"]
mod dynd_record;

fuzz_target!(|data: &[u8]| {
    if let Ok(value) = dynd::from_bytes::<Record>(data) {
        let again = dynd::to_bytes(&value).expect("a decoded value encodes");
        assert_eq!(again, data, "{value:?}");
    }
    let _ = dynd::take_from_bytes::<(Vec<Option<i8>>, BTreeMap<u8, ()>)>(data);
    let _ = dynd::from_bytes::<Vec<Vec<()>>>(data);
});
