//! DeltaOfDelta decoder: streaming and bulk decoding never panic and agree, errors included.
#![no_main]

use columnar::codec::{delta_of_delta, DeltaOfDeltaIter};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Every value takes at least one bit, so the column is bounded by the input.
    let streamed: Result<Vec<i64>, _> = DeltaOfDeltaIter::new(data).collect();
    let bulk = delta_of_delta::decode::<i64>(data);
    assert_eq!(bulk, streamed);
    if let Ok(values) = bulk {
        let again = delta_of_delta::encode(&values).unwrap();
        assert_eq!(delta_of_delta::decode::<i64>(&again).unwrap(), values);
    }
    let narrow: Result<Vec<u16>, _> = DeltaOfDeltaIter::new(data).collect();
    assert_eq!(delta_of_delta::decode::<u16>(data), narrow);
});
