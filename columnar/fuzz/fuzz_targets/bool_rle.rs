//! BoolRle decoder: streaming and bulk decoding never panic and agree, errors included.
#![no_main]

use columnar::codec::{bool_rle, BoolRleIter};
use libfuzzer_sys::fuzz_target;

const STREAM_LIMIT: usize = 1 << 12;

fuzz_target!(|data: &[u8]| {
    let mut iter = BoolRleIter::new(data);
    let streamed: Result<Vec<bool>, _> = iter.by_ref().take(STREAM_LIMIT).collect();
    if iter.next().is_none() {
        let bulk = bool_rle::decode(data);
        assert_eq!(bulk, streamed);
        if let Ok(values) = bulk {
            let again = bool_rle::encode(&values).unwrap();
            assert_eq!(bool_rle::decode(&again).unwrap(), values);
        }
    }
});
