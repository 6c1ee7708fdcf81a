//! Self-describing `array[Any]`: never panics, and what it accepts re-encodes identically.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_formats::dynd;

fuzz_target!(|data: &[u8]| {
    if let Ok(array) = dynd::from_array_bytes(data) {
        let again = dynd::to_bytes(&array).expect("a decoded array encodes");
        assert_eq!(again, data, "{array:?}");
        let _ = serde_json::Value::from(&array.value);
    }
});
