//! BoolRle decoder: streaming and bulk decoding never panic and agree, errors included.
#![no_main]

use columnar::codec::{bool_rle, BoolRleIter};
use common::agree;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    if let Some(values) = agree(BoolRleIter::new(data), || bool_rle::decode(data)) {
        let again = bool_rle::encode(&values).unwrap();
        assert_eq!(bool_rle::decode(&again).unwrap(), values);
    }
});
