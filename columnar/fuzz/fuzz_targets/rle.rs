//! Rle decoder: streaming and bulk decoding never panic and agree, errors included.
#![no_main]

use columnar::codec::{rle, AnyRleIter};
use libfuzzer_sys::fuzz_target;

/// Runs expand without consuming input; columns longer than this are only streamed.
const STREAM_LIMIT: usize = 1 << 12;

fuzz_target!(|data: &[u8]| {
    // Strings exercise the nested postcard decoder; u16 the varint values.
    let mut strings = AnyRleIter::<String>::new(data);
    let streamed: Result<Vec<String>, _> = strings.by_ref().take(STREAM_LIMIT).collect();
    if strings.next().is_none() {
        assert_eq!(rle::decode::<String>(data), streamed);
    }
    let mut numbers = AnyRleIter::<u16>::new(data);
    let streamed: Result<Vec<u16>, _> = numbers.by_ref().take(STREAM_LIMIT).collect();
    if numbers.next().is_none() {
        let bulk = rle::decode::<u16>(data);
        assert_eq!(bulk, streamed);
        if let Ok(values) = bulk {
            // Whatever decodes re-encodes canonically and decodes to the same values.
            let again = rle::encode(&values).unwrap();
            assert_eq!(rle::decode::<u16>(&again).unwrap(), values);
        }
    }
});
