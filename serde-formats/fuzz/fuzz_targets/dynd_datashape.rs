//! The datashape parser never panics, and what it accepts prints to a spelling that parses
//! back to the same type.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_formats::dynd::Type;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(ty) = text.parse::<Type>() {
        let printed = ty.to_string();
        let again: Type = printed.parse().expect("the canonical spelling parses");
        assert_eq!(again, ty, "{text:?} printed as {printed:?}");
        assert_eq!(again.to_string(), printed);
    }
});
