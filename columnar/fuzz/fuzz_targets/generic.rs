//! Generic decoder: streaming and bulk decoding never panic and agree.
#![no_main]

use columnar::codec::{generic, GenericIter};
use libfuzzer_sys::fuzz_target;

type Row = (Option<String>, Vec<i32>, char, bool);

fuzz_target!(|data: &[u8]| {
    let streamed: Result<Vec<Row>, _> = GenericIter::new(data).collect();
    let bulk = generic::decode::<Row>(data);
    assert_eq!(bulk.is_ok(), streamed.is_ok());
    if let Ok(values) = bulk {
        assert_eq!(Ok(&values), streamed.as_ref());
        let again = generic::encode(&values).unwrap();
        assert_eq!(generic::decode::<Row>(&again).unwrap(), values);
    }
});
