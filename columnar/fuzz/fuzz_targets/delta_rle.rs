//! DeltaRle decoder: streaming and bulk decoding never panic and agree, errors included.
#![no_main]

use columnar::codec::{delta_rle, DeltaRleIter};
use common::agree;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    agree(DeltaRleIter::<u8>::new(data), || {
        delta_rle::decode::<u8>(data)
    });
    if let Some(values) = agree(DeltaRleIter::<i128>::new(data), || {
        delta_rle::decode::<i128>(data)
    }) {
        // Whatever of it the encoder accepts decodes to the same values.
        if let Ok(again) = delta_rle::encode(&values) {
            assert_eq!(delta_rle::decode::<i128>(&again).unwrap(), values);
        }
    }
});
