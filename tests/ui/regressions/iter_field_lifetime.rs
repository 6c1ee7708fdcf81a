//! A table whose lifetime parameter is used only by its `iter` field. serde_columnar 0.3.14
//! compiles this (it is the shape of its own `examples/iterable_fields.rs`).
use std::borrow::Cow;

use columnar::columnar;

#[columnar(vec, ser, de, iterable)]
#[derive(Debug, Clone, PartialEq)]
pub struct Ev<'a> {
    #[columnar(strategy = "DeltaRle")]
    pub id: u32,
    #[columnar(borrow)]
    pub text: Cow<'a, str>,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
pub struct Log<'a> {
    #[columnar(class = "vec", iter = "Ev<'a>")]
    pub events: Vec<Ev<'a>>,
}

fn main() {
    let log = Log {
        events: vec![Ev {
            id: 1,
            text: "a".into(),
        }],
    };
    let bytes = columnar::to_vec(&log).unwrap();
    let lazy = columnar::iter_from_bytes::<Log>(&bytes).unwrap();
    let events: Vec<Ev> = lazy.events.collect::<columnar::Result<_>>().unwrap();
    assert_eq!(events, log.events);
}
