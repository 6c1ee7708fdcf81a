//! A derived table using every argument of `#[columnar]`: `from_bytes` and `iter_from_bytes`
//! (consuming the rows) never panic and agree; whatever decodes re-encodes and decodes to the
//! same table.
#![no_main]

use common::streamed;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

// `Row`, `Group` and `Table`: the schema of the UI test `every_argument`.
include!("../../../tests/ui/schemas/every_argument.rs");

fuzz_target!(|data: &[u8]| {
    let bulk = columnar::from_bytes::<Table>(data);
    // The rows streamed, when there are at most `STREAM_LIMIT` (a run can claim 10^9 rows).
    let streamed = columnar::iter_from_bytes::<Table>(data)
        .map(|iter| (streamed(iter.rows), iter.by_id, iter.version, iter.extra));
    if let Ok(table) = &bulk {
        // Whatever decodes in bulk decodes streaming to the same rows.
        let (rows, by_id, version, extra) =
            streamed.expect("iter_from_bytes failed on a table from_bytes accepts");
        if let Some(rows) = rows {
            assert_eq!(rows.as_ref().ok(), Some(&table.rows));
        }
        assert_eq!(
            (&by_id, version, &extra),
            (&table.by_id, table.version, &table.extra)
        );
        let again = columnar::to_vec(table).expect("a decoded table re-encodes");
        let back = columnar::from_bytes::<Table>(&again).expect("a re-encoded table decodes");
        assert_eq!(&back, table);
    }
});
