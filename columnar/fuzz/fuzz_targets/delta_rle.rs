//! DeltaRle decoder: streaming and bulk decoding never panic and agree, errors included.
#![no_main]

use columnar::codec::{delta_rle, DeltaRleIter};
use libfuzzer_sys::fuzz_target;

const STREAM_LIMIT: usize = 1 << 12;

fuzz_target!(|data: &[u8]| {
    let mut narrow = DeltaRleIter::<u8>::new(data);
    let streamed: Result<Vec<u8>, _> = narrow.by_ref().take(STREAM_LIMIT).collect();
    if narrow.next().is_none() {
        assert_eq!(delta_rle::decode::<u8>(data), streamed);
    }
    let mut wide = DeltaRleIter::<i128>::new(data);
    let streamed: Result<Vec<i128>, _> = wide.by_ref().take(STREAM_LIMIT).collect();
    if wide.next().is_none() {
        let bulk = delta_rle::decode::<i128>(data);
        assert_eq!(bulk, streamed);
        if let Ok(values) = bulk {
            if let Ok(again) = delta_rle::encode(&values) {
                assert_eq!(delta_rle::decode::<i128>(&again).unwrap(), values);
            }
        }
    }
});
