//! Replays every committed fuzz regression input (`tests/fuzz-regressions/<target>/*.hex`, see
//! the README there) through the decoding its cargo-fuzz target does: no panic, every error's
//! offset inside the input, the target's own agreements (streaming vs bulk, slice vs stream
//! reader, decode → encode → decode), and the result the file's `# expect:` line states.

use std::fmt::Debug;
use std::path::Path;

use columnar::codec::{
    bool_rle, delta_of_delta, delta_rle, generic, rle, AnyRleIter, BoolRleIter, DeltaOfDeltaIter,
    DeltaRleIter, GenericIter,
};
use serde_formats::{dynd, toc, vector};

/// Columns longer than this are only streamed, as in the fuzz targets (a run of a few bytes
/// may stand for 10^9 values).
const STREAM_LIMIT: usize = 1 << 12;

/// A decoder's result as a file's `# expect:` line states it: `ok`, `error Kind` or
/// `error Kind at OFFSET`.
fn outcome<T, K: Debug>(input: &[u8], result: Result<T, (K, Option<u64>)>) -> String {
    match result {
        Ok(_) => "ok".to_owned(),
        Err((kind, offset)) => {
            assert!(
                offset.is_none_or(|at| at <= input.len() as u64),
                "{kind:?} at {offset:?} past the input's {} bytes",
                input.len()
            );
            match offset {
                Some(at) => format!("error {kind:?} at {at}"),
                None => format!("error {kind:?}"),
            }
        }
    }
}

fn columnar_outcome<T>(input: &[u8], result: &columnar::Result<T>) -> String {
    let result = result.as_ref().map_err(|e| (e.kind(), e.offset()));
    outcome(input, result)
}

fn formats_outcome<T>(input: &[u8], result: &serde_formats::Result<T>) -> String {
    outcome(input, result.as_ref().map_err(|e| (e.kind(), e.offset())))
}

/// Streams a column through `iter`; when it ends within [`STREAM_LIMIT`] values, decodes it in
/// bulk too, which must agree, errors included. Returns the bulk result, or the streamed one of
/// a column too long to decode whole here (as the fuzz targets do).
fn streamed_and_bulk<T: PartialEq + Debug>(
    mut iter: impl Iterator<Item = columnar::Result<T>>,
    bulk: impl FnOnce() -> columnar::Result<Vec<T>>,
) -> columnar::Result<Vec<T>> {
    let streamed: columnar::Result<Vec<T>> = iter.by_ref().take(STREAM_LIMIT).collect();
    if iter.next().is_some() {
        return streamed;
    }
    let bulk = bulk();
    assert_eq!(bulk, streamed);
    bulk
}

/// Decoded values re-encode (`round_trip`: encode, then decode) to themselves.
fn reencodes<T: PartialEq + Debug>(
    decoded: &columnar::Result<Vec<T>>,
    round_trip: impl Fn(&[T]) -> Vec<T>,
) {
    if let Ok(values) = decoded {
        assert_eq!(&round_trip(values), values);
    }
}

/// The `delta_rle` target: `u8` and `i128` columns; values re-encode.
fn delta_rle(data: &[u8]) -> String {
    let narrow = streamed_and_bulk(DeltaRleIter::<u8>::new(data), || delta_rle::decode(data));
    columnar_outcome(data, &narrow);
    let wide = streamed_and_bulk(DeltaRleIter::<i128>::new(data), || delta_rle::decode(data));
    reencodes(&wide, |v| {
        delta_rle::decode(&delta_rle::encode(v).unwrap()).unwrap()
    });
    columnar_outcome(data, &wide)
}

/// The `rle` target: `String` and `u16` columns; values re-encode.
fn rle(data: &[u8]) -> String {
    let strings = streamed_and_bulk(AnyRleIter::<String>::new(data), || rle::decode(data));
    columnar_outcome(data, &strings);
    let numbers = streamed_and_bulk(AnyRleIter::<u16>::new(data), || rle::decode(data));
    reencodes(&numbers, |v| rle::decode(&rle::encode(v).unwrap()).unwrap());
    columnar_outcome(data, &numbers)
}

/// The `bool_rle` target; values re-encode.
fn bool_rle(data: &[u8]) -> String {
    let values = streamed_and_bulk(BoolRleIter::new(data), || bool_rle::decode(data));
    reencodes(&values, |v| {
        bool_rle::decode(&bool_rle::encode(v).unwrap()).unwrap()
    });
    columnar_outcome(data, &values)
}

/// The `delta_of_delta` target: `i64` and `u16` (every value takes a bit of input, so both
/// decode whole); values re-encode.
fn delta_of_delta(data: &[u8]) -> String {
    let narrow = streamed_and_bulk(DeltaOfDeltaIter::<u16>::new(data), || {
        delta_of_delta::decode(data)
    });
    columnar_outcome(data, &narrow);
    let wide = streamed_and_bulk(DeltaOfDeltaIter::<i64>::new(data), || {
        delta_of_delta::decode(data)
    });
    reencodes(&wide, |v| {
        delta_of_delta::decode(&delta_of_delta::encode(v).unwrap()).unwrap()
    });
    columnar_outcome(data, &wide)
}

/// The `generic` target's row: streamed and bulk agree on what decodes; values re-encode.
fn generic(data: &[u8]) -> String {
    type Row = (Option<String>, Vec<i32>, char, bool);
    let bulk = generic::decode::<Row>(data);
    let streamed: columnar::Result<Vec<Row>> = GenericIter::new(data).collect();
    assert_eq!(bulk.is_ok(), streamed.is_ok());
    if let Ok(values) = &bulk {
        assert_eq!(Ok(values), streamed.as_ref());
    }
    reencodes(&bulk, |v| {
        generic::decode(&generic::encode(v).unwrap()).unwrap()
    });
    columnar_outcome(data, &bulk)
}

/// The `dynd_array` target: what decodes re-encodes to the very input.
fn dynd_array(data: &[u8]) -> String {
    let result = dynd::from_array_bytes(data);
    if let Ok(array) = &result {
        assert_eq!(dynd::to_bytes(array).unwrap(), data, "{array:?}");
        // Its JSON form is total: any decoded array converts.
        drop(serde_json::Value::from(&array.value));
    }
    formats_outcome(data, &result)
}

/// The `dynd_datashape` target: a datashape that parses prints to a spelling that parses back.
fn dynd_datashape(data: &[u8]) -> String {
    let text = std::str::from_utf8(data).expect("datashape inputs are UTF-8");
    let result = text.parse::<dynd::Type>();
    if let Ok(ty) = &result {
        let printed = ty.to_string();
        let again: dynd::Type = printed.parse().expect("the canonical spelling parses");
        assert_eq!(&again, ty, "{text:?} printed as {printed:?}");
    }
    formats_outcome(data, &result)
}

/// The `vector_restore` target: slice and stream readers agree; a vector saves and restores.
fn vector_restore(data: &[u8]) -> String {
    let from_slice = vector::take_from_bytes(data);
    match (&from_slice, &vector::restore(data)) {
        (Ok((a, _)), Ok(b)) => assert_eq!(a, b),
        (Err(a), Err(b)) => assert_eq!(a.kind(), b.kind()),
        (a, b) => panic!("readers disagree: {a:?} vs {b:?}"),
    }
    if let Ok((vector, _)) = &from_slice {
        let bytes = vector::to_bytes(vector).unwrap();
        assert_eq!(&vector::from_bytes(&bytes).unwrap(), vector);
    }
    formats_outcome(data, &from_slice)
}

/// The `toc_reader` target's first part: a value read writes back and reads back equal.
fn toc_reader(data: &[u8]) -> String {
    let result = toc::from_bytes::<toc::Value>(data);
    if let Ok(value) = &result {
        let bytes = toc::to_bytes(value).unwrap();
        assert_eq!(&toc::from_bytes::<toc::Value>(&bytes).unwrap(), value);
    }
    formats_outcome(data, &result)
}

/// A fuzz target's decoding of one input, giving the result as an `# expect:` line states it.
type Replayer = fn(&[u8]) -> String;

/// The replayer of each fuzz target that has regression inputs, or may get them.
const REPLAYERS: &[(&str, Replayer)] = &[
    ("bool_rle", bool_rle),
    ("delta_of_delta", delta_of_delta),
    ("delta_rle", delta_rle),
    ("dynd_array", dynd_array),
    ("dynd_datashape", dynd_datashape),
    ("generic", generic),
    ("rle", rle),
    ("toc_reader", toc_reader),
    ("vector_restore", vector_restore),
];

/// The `# expect:` line of an input file.
fn expectation(text: &str, file: &Path) -> String {
    let mut lines = text.lines().filter_map(|line| {
        let comment = line.split_once('#')?.1.trim();
        comment.strip_prefix("expect:").map(str::trim)
    });
    let expect = lines
        .next()
        .unwrap_or_else(|| panic!("{}: no `# expect:` line", file.display()));
    assert!(
        lines.next().is_none(),
        "{}: two `# expect:` lines",
        file.display()
    );
    expect.to_owned()
}

#[test]
fn every_committed_fuzz_regression_input_replays_as_expected() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz-regressions");
    let mut replayed = 0;
    for target in std::fs::read_dir(&root).unwrap() {
        let target = target.unwrap().path();
        if !target.is_dir() {
            continue;
        }
        let name = target.file_name().unwrap().to_str().unwrap();
        let replay = REPLAYERS
            .iter()
            .find(|(target, _)| *target == name)
            .unwrap_or_else(|| panic!("no replayer for the fuzz target `{name}`"))
            .1;
        for file in std::fs::read_dir(&target).unwrap() {
            let file = file.unwrap().path();
            assert_eq!(
                file.extension().and_then(|e| e.to_str()),
                Some("hex"),
                "{}: inputs are annotated hex",
                file.display()
            );
            let text = std::fs::read_to_string(&file).unwrap();
            let input = integration_tests::hex::parse(&text);
            assert_eq!(
                replay(&input),
                expectation(&text, &file),
                "{}",
                file.display()
            );
            replayed += 1;
        }
    }
    assert!(replayed >= 3, "only {replayed} regression inputs found");
}

/// The replayers themselves tell results apart: an input each target rejects, with the kind and
/// offset its decoder reports (bytes from docs/spec/columnar.md §5 and docs/spec/dynd.md).
#[test]
fn the_replayers_report_errors_with_kind_and_offset() {
    // A varint of 11 continuation bytes: longer than any integer allows.
    let long_varint = [0xffu8; 11];
    let run_of_zero = [0x00u8]; // a DeltaRle/Rle count of 0
    for (name, input, expect) in [
        ("delta_rle", &run_of_zero[..], "error ZeroRunCount at 0"),
        ("rle", &run_of_zero[..], "error ZeroRunCount at 0"),
        ("delta_rle", &long_varint[..], "error BadVarint at 0"),
        ("dynd_array", &[][..], "error UnexpectedEnd at 0"),
    ] {
        let replay = REPLAYERS.iter().find(|(t, _)| *t == name).unwrap().1;
        assert_eq!(replay(input), expect, "{name} on {input:02x?}");
    }
    // Empty columns (docs/spec/columnar.md §5.6) decode.
    for (name, input) in [
        ("bool_rle", &[][..]),
        ("delta_rle", &[]),
        ("rle", &[]),
        ("generic", &[0x00]),
        ("delta_of_delta", &[0x00, 0x00]),
    ] {
        let replay = REPLAYERS.iter().find(|(t, _)| *t == name).unwrap().1;
        assert_eq!(replay(input), "ok", "{name}");
    }
}
