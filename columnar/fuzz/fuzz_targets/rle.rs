//! Rle decoder: streaming and bulk decoding never panic and agree, errors included; what
//! decodes re-encodes to the same values.
#![no_main]

use columnar::codec::{rle, AnyRleIter};
use common::agree;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    // Strings exercise the nested postcard decoder; u16 the varint values.
    if let Some(strings) = agree(AnyRleIter::<String>::new(data), || {
        rle::decode::<String>(data)
    }) {
        // Re-encoded through the encoder's inline string comparison, by value and borrowed
        // (the derive's column encoder holds references).
        let again = rle::encode(&strings).unwrap();
        assert_eq!(rle::decode::<String>(&again).unwrap(), strings);
        let borrowed: Vec<&String> = strings.iter().collect();
        assert_eq!(rle::encode(&borrowed).unwrap(), again);
    }
    if let Some(values) = agree(AnyRleIter::<u16>::new(data), || rle::decode::<u16>(data)) {
        // Whatever decodes re-encodes canonically and decodes to the same values.
        let again = rle::encode(&values).unwrap();
        assert_eq!(rle::decode::<u16>(&again).unwrap(), values);
    }
});
