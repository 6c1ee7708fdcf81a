//! Rle decoder: streaming and bulk decoding never panic and agree, errors included.
#![no_main]

use columnar::codec::{rle, AnyRleIter};
use common::agree;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    // Strings exercise the nested postcard decoder; u16 the varint values.
    agree(AnyRleIter::<String>::new(data), || {
        rle::decode::<String>(data)
    });
    if let Some(values) = agree(AnyRleIter::<u16>::new(data), || rle::decode::<u16>(data)) {
        // Whatever decodes re-encodes canonically and decodes to the same values.
        let again = rle::encode(&values).unwrap();
        assert_eq!(rle::decode::<u16>(&again).unwrap(), values);
    }
});
