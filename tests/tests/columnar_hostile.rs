//! Hostile inputs against a table derived with `#[columnar]`: each malformed input is an error
//! of the expected kind at the expected byte, through `from_bytes`, `take_from_bytes` and
//! `iter_from_bytes` (consuming the rows), and nothing panics, aborts or allocates without
//! bound.

use std::collections::BTreeMap;

use columnar::codec::{bool_rle, delta_of_delta, delta_rle, generic, rle};
use columnar::{columnar, ErrorKind, MAX_RLE_COUNT};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, TestRunner};

#[columnar(vec, map, ser, de, iterable)]
#[derive(Debug, Clone, PartialEq, Default)]
struct Row {
    #[columnar(strategy = "Rle")]
    name: String,
    #[columnar(strategy = "DeltaRle")]
    id: u64,
    #[columnar(strategy = "BoolRle")]
    flag: bool,
    #[columnar(strategy = "DeltaOfDelta")]
    time: i64,
    value: u32,
    #[columnar(optional, index = 0)]
    note: u8,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct Table {
    #[columnar(class = "vec", iter = "Row")]
    rows: Vec<Row>,
    #[columnar(class = "map")]
    by_key: BTreeMap<u32, Row>,
}

fn sample_rows() -> Vec<Row> {
    vec![
        Row {
            name: "a".into(),
            id: 1,
            flag: true,
            time: 10,
            value: 5,
            note: 7,
        },
        Row {
            name: "a".into(),
            id: 2,
            flag: false,
            time: 20,
            value: 6,
            note: 8,
        },
    ]
}

fn sample() -> Table {
    let rows = sample_rows();
    Table {
        by_key: [(9, rows[1].clone())].into_iter().collect(),
        rows,
    }
}

fn varint(mut n: u64) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return out;
        }
        out.push(byte | 0x80);
    }
}

fn zigzag(n: i64) -> Vec<u8> {
    varint(((n << 1) ^ (n >> 63)) as u64)
}

/// Input bytes being assembled, with named positions for expected offsets.
#[derive(Default, Clone)]
struct Wire {
    bytes: Vec<u8>,
    marks: Vec<(&'static str, usize)>,
}

impl Wire {
    fn raw(mut self, bytes: &[u8]) -> Self {
        self.bytes.extend_from_slice(bytes);
        self
    }
    fn varint(self, n: u64) -> Self {
        self.raw(&varint(n))
    }
    fn mark(mut self, name: &'static str) -> Self {
        self.marks.push((name, self.bytes.len()));
        self
    }
    /// A byte string whose payload position is marked `name`.
    fn column(self, name: &'static str, payload: &[u8]) -> Self {
        self.varint(payload.len() as u64).mark(name).raw(payload)
    }
    /// An optional container column: index, then the column wrapped in two byte strings.
    fn optional(self, name: &'static str, index: u64, column: &[u8]) -> Self {
        let inner_len = varint(column.len() as u64);
        self.varint(index)
            .varint((inner_len.len() + column.len()) as u64)
            .raw(&inner_len)
            .mark(name)
            .raw(column)
    }
    fn at(&self, name: &str) -> usize {
        self.marks
            .iter()
            .find(|(mark, _)| *mark == name)
            .unwrap_or_else(|| panic!("no mark {name}"))
            .1
    }
}

/// The columns of one vec container of `Row`, as codec output.
#[derive(Clone)]
struct Columns {
    name: Vec<u8>,
    id: Vec<u8>,
    flag: Vec<u8>,
    time: Vec<u8>,
    value: Vec<u8>,
    note: Vec<u8>,
}

impl Columns {
    fn of(rows: &[Row]) -> Self {
        let names: Vec<String> = rows.iter().map(|row| row.name.clone()).collect();
        let ids: Vec<u64> = rows.iter().map(|row| row.id).collect();
        let flags: Vec<bool> = rows.iter().map(|row| row.flag).collect();
        let times: Vec<i64> = rows.iter().map(|row| row.time).collect();
        let values: Vec<u32> = rows.iter().map(|row| row.value).collect();
        let notes: Vec<u8> = rows.iter().map(|row| row.note).collect();
        Columns {
            name: rle::encode(&names).unwrap(),
            id: delta_rle::encode(&ids).unwrap(),
            flag: bool_rle::encode(&flags).unwrap(),
            time: delta_of_delta::encode(&times).unwrap(),
            value: generic::encode(&values).unwrap(),
            note: generic::encode(&notes).unwrap(),
        }
    }

    /// The required columns, with their payloads marked `name`, `id`, ....
    fn required(&self, wire: Wire) -> Wire {
        wire.column("name", &self.name)
            .column("id", &self.id)
            .column("flag", &self.flag)
            .column("time", &self.time)
            .column("value", &self.value)
    }
}

/// The sample table, with the rows container's columns replaced by `rows` and `extra` after
/// the rows container's columns (before the map container).
fn table_with(rows: &Columns, count: u64, extra: impl FnOnce(Wire) -> Wire) -> Wire {
    let wire = Wire::default().varint(2).mark("rows").varint(count);
    let wire = rows.required(wire).optional("note", 0, &rows.note);
    let wire = extra(wire);
    map_container(wire)
}

fn map_container(wire: Wire) -> Wire {
    let sample = sample();
    let columns = Columns::of(&sample.by_key.values().cloned().collect::<Vec<_>>());
    let wire = wire
        .mark("map")
        .varint(7)
        .raw(&generic::encode(&[9u32]).unwrap());
    let wire = wire
        .column("map.name", &columns.name)
        .column("map.id", &columns.id)
        .column("map.flag", &columns.flag)
        .column("map.time", &columns.time)
        .column("map.value", &columns.value);
    wire.optional("map.note", 0, &columns.note)
}

/// A change to the rows container's columns.
type ColumnChange = fn(&mut Columns);

/// The table of `good`'s rows with one column changed by `change`.
fn with_column(good: &Columns, change: impl FnOnce(&mut Columns)) -> Wire {
    let mut columns = good.clone();
    change(&mut columns);
    table_with(&columns, 6, |w| w)
}

fn valid() -> Wire {
    table_with(&Columns::of(&sample_rows()), 6, |wire| wire)
}

/// What an entry point did with an input: `Ok` or the error's kind and offset.
type Outcome = Result<(), (ErrorKind, Option<usize>)>;

/// An error's kind and offset, the offset as a position in the test's byte vectors.
fn kind_and_offset(err: &columnar::Error) -> (ErrorKind, Option<usize>) {
    let offset = err
        .offset()
        .map(|o| usize::try_from(o).expect("offset fits usize"));
    (err.kind(), offset)
}

fn outcome<T>(result: columnar::Result<T>) -> Outcome {
    result.map(drop).map_err(|err| kind_and_offset(&err))
}

fn via_from_bytes(bytes: &[u8]) -> Outcome {
    outcome(columnar::from_bytes::<Table>(bytes))
}

fn via_take_from_bytes(bytes: &[u8]) -> Outcome {
    outcome(columnar::take_from_bytes::<Table>(bytes))
}

/// `iter_from_bytes`, then every row: the first error of either.
fn via_iter(bytes: &[u8]) -> Outcome {
    let iter = columnar::iter_from_bytes::<Table>(bytes).map_err(|err| kind_and_offset(&err))?;
    outcome(iter.rows.collect::<columnar::Result<Vec<Row>>>())
}

struct Case {
    name: &'static str,
    input: Vec<u8>,
    kind: ErrorKind,
    offset: usize,
    /// The offset `iter_from_bytes` reports when it differs (`None`: no offset).
    iter_offset: Option<Option<usize>>,
    /// Whether `take_from_bytes`, which allows trailing bytes, must fail too.
    take_fails: bool,
}

fn case<'a>(
    cases: &'a mut Vec<Case>,
    name: &'static str,
    wire: &Wire,
    kind: ErrorKind,
    offset: usize,
) -> &'a mut Case {
    cases.push(Case {
        name,
        input: wire.bytes.clone(),
        kind,
        offset,
        iter_offset: None,
        take_fails: true,
    });
    cases.last_mut().unwrap()
}

fn cases() -> Vec<Case> {
    let good = Columns::of(&sample_rows());
    let mut cases = Vec::new();
    let valid = valid();

    // A column length of 0x7f, past the end of the input.
    for (name, column) in [
        ("column length past end", "name"),
        ("map column length past end", "map.value"),
    ] {
        let length_at = valid.at(column) - 1;
        let mut past_end = valid.clone();
        past_end.bytes[length_at] = 0x7f;
        case(
            &mut cases,
            name,
            &past_end,
            ErrorKind::LengthPastEnd,
            length_at,
        );
    }

    // The Rle column `name` as one segment of `count` (a run if positive, a literal if
    // negative) followed by bytes for the one value "a".
    for (name, count, kind) in [
        ("rle run count 0", 0, ErrorKind::ZeroRunCount),
        (
            "rle run count > MAX_RLE_COUNT",
            MAX_RLE_COUNT as i64 + 1,
            ErrorKind::RunCountTooLarge,
        ),
        (
            "rle literal count > MAX_RLE_COUNT",
            -(MAX_RLE_COUNT as i64) - 1,
            ErrorKind::RunCountTooLarge,
        ),
        // A literal of 3 values in a column with bytes for one.
        (
            "rle literal longer than its column",
            -3,
            ErrorKind::LengthPastEnd,
        ),
    ] {
        let mut column = zigzag(count);
        column.extend_from_slice(&[0x01, b'a']);
        let wire = with_column(&good, |c| c.name = column);
        case(&mut cases, name, &wire, kind, wire.at("name"));
    }

    // A literal of three deltas of i64::MAX: the third sum passes u64::MAX.
    let mut id = zigzag(-3);
    let big = zigzag(i64::MAX);
    for _ in 0..3 {
        id.extend_from_slice(&big);
    }
    let wire = with_column(&good, |c| c.id = id);
    let overflow_at = wire.at("id") + 1 + 2 * big.len();
    case(
        &mut cases,
        "delta-rle sum overflows u64",
        &wire,
        ErrorKind::IntegerOverflow,
        overflow_at,
    );

    // A column with fewer values than the rows: the error is at the start of the first column
    // that ended before the others.
    let short_columns: [(&str, &str, ColumnChange); 3] = [
        ("required columns of unequal length", "value", |c| {
            c.value = generic::encode(&[5u32, 6, 7]).unwrap()
        }),
        ("second column shorter than the first", "id", |c| {
            c.id = delta_rle::encode(&[1u64]).unwrap()
        }),
        ("optional column of unequal length", "note", |c| {
            c.note = generic::encode(&[7u8]).unwrap()
        }),
    ];
    for (name, column, shorten) in short_columns {
        let wire = with_column(&good, shorten);
        case(
            &mut cases,
            name,
            &wire,
            ErrorKind::ColumnLengthMismatch,
            wire.at(column),
        );
    }

    let wire = table_with(&good, 7, |w| w.optional("note again", 0, &good.note));
    case(
        &mut cases,
        "optional index given twice",
        &wire,
        ErrorKind::BadHeader,
        wire.at("note again"),
    );

    let mut body = varint(good.note.len() as u64);
    body.extend_from_slice(&good.note);
    body.push(0xaa);
    let w = good.required(Wire::default().varint(2).varint(6));
    let w = w
        .varint(0)
        .varint(body.len() as u64)
        .mark("body")
        .raw(&body);
    let trailing = w.at("body") + body.len() - 1;
    let wire = map_container(w);
    case(
        &mut cases,
        "optional column body with trailing bytes",
        &wire,
        ErrorKind::TrailingBytes,
        trailing,
    );

    let wire = valid.clone().raw(&[0x00]);
    case(
        &mut cases,
        "trailing bytes after the table",
        &wire,
        ErrorKind::TrailingBytes,
        valid.bytes.len(),
    )
    .take_fails = false;

    // The container then reads the map container's bytes as optional entries (index, body),
    // skipping the bodies of unknown indexes unread: `07 01 [09]`, `03 01 [01]`,
    // `61 02 [01 04]`, `01 01 [03]`, then `01 28`: a body of 40 bytes out of 9.
    let wire = table_with(&good, u64::MAX, |w| w);
    case(
        &mut cases,
        "container column count u64::MAX",
        &wire,
        ErrorKind::LengthPastEnd,
        wire.at("map") + 14,
    );

    // As above.
    let wire = table_with(&good, 1 << 40, |w| w);
    case(
        &mut cases,
        "container column count 2^40",
        &wire,
        ErrorKind::LengthPastEnd,
        wire.at("map") + 14,
    );

    let mut wire = Wire::default().varint(2).raw(&[0xff; 10]).raw(&[0x01]);
    wire.bytes
        .extend_from_slice(&valid.bytes[valid.at("rows") + 1..]);
    case(
        &mut cases,
        "container column count wider than u64",
        &wire,
        ErrorKind::BadVarint,
        1,
    );

    let wire = table_with(&good, 3, |w| w);
    case(
        &mut cases,
        "container with fewer columns than the row",
        &wire,
        ErrorKind::UnexpectedEnd,
        1,
    );

    let mut wire = Wire::default().varint(u64::MAX);
    wire.bytes.extend_from_slice(&valid.bytes[1..]);
    let end = wire.bytes.len();
    case(
        &mut cases,
        "table field count u64::MAX",
        &wire,
        ErrorKind::UnexpectedEnd,
        end,
    );

    cases
}

#[test]
fn hostile_inputs_are_errors_of_the_expected_kind_and_offset() {
    let cases = cases();
    for case in &cases {
        let expected = Err((case.kind, Some(case.offset)));
        assert_eq!(
            via_from_bytes(&case.input),
            expected,
            "from_bytes: {}",
            case.name
        );
        if case.take_fails {
            assert_eq!(
                via_take_from_bytes(&case.input),
                expected,
                "take_from_bytes: {}",
                case.name
            );
        } else {
            assert_eq!(
                via_take_from_bytes(&case.input),
                Ok(()),
                "take_from_bytes: {}",
                case.name
            );
        }
        let iter_expected = Err((case.kind, case.iter_offset.unwrap_or(Some(case.offset))));
        assert_eq!(
            via_iter(&case.input),
            iter_expected,
            "iter_from_bytes: {}",
            case.name
        );
    }
    assert_eq!(cases.len(), 18);
}

#[test]
fn hand_built_table_is_the_encoding_of_the_sample() {
    let bytes = valid().bytes;
    assert_eq!(bytes, columnar::to_vec(&sample()).unwrap());
    assert_eq!(columnar::from_bytes::<Table>(&bytes).unwrap(), sample());
    let iter = columnar::iter_from_bytes::<Table>(&bytes).unwrap();
    assert_eq!(iter.by_key, sample().by_key);
    assert_eq!(
        iter.rows.collect::<columnar::Result<Vec<Row>>>().unwrap(),
        sample_rows()
    );
}

#[test]
fn every_truncated_prefix_is_an_error() {
    let bytes = valid().bytes;
    for len in 0..bytes.len() {
        let prefix = &bytes[..len];
        for (entry, result) in [
            ("from_bytes", via_from_bytes(prefix)),
            ("take_from_bytes", via_take_from_bytes(prefix)),
            ("iter_from_bytes", via_iter(prefix)),
        ] {
            let (kind, offset) = result.expect_err(entry);
            assert!(
                matches!(kind, ErrorKind::UnexpectedEnd | ErrorKind::LengthPastEnd),
                "{entry} of {len} bytes: {kind:?}"
            );
            let offset = offset.unwrap_or_else(|| panic!("{entry} of {len} bytes: no offset"));
            assert!(offset <= len, "{entry} of {len} bytes: offset {offset}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Inputs that could exhaust the stack or memory: checked in a child process (this test
// binary, run again on one test) under an address-space limit, so that a stack overflow or an
// allocation abort fails that test with a message instead of killing the test binary.
// ---------------------------------------------------------------------------------------

const CHILD: &str = "COLUMNAR_HOSTILE_CHILD";

/// Runs `body` in a child process limited to 4 GiB of address space; the test fails if the
/// child does not exit successfully (panic, abort, stack overflow, out of memory).
fn isolated(test: &str, body: impl FnOnce()) {
    if std::env::var_os(CHILD).is_some() {
        body();
        return;
    }
    let exe = std::env::current_exe().unwrap();
    let args = [
        test,
        "--exact",
        "--nocapture",
        "--test-threads=1",
        "--include-ignored",
    ];
    let output = if cfg!(unix) {
        std::process::Command::new("sh")
            .arg("-c")
            .arg("ulimit -v 4194304 && exec \"$0\" \"$@\"")
            .arg(&exe)
            .args(args)
            .env(CHILD, "1")
            .output()
    } else {
        std::process::Command::new(&exe)
            .args(args)
            .env(CHILD, "1")
            .output()
    }
    .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{test} died in its child process ({}):\n{}",
        output.status,
        stderr
            .lines()
            .rev()
            .take(12)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[path = "../../columnar/tests/common/nested_tree.rs"]
mod nested_tree;

use nested_tree::{chain, chain_bytes, Tree};

#[test]
fn nested_containers_decode() {
    let tree = Tree {
        roots: vec![chain(5)],
    };
    let bytes = chain_bytes(5);
    assert_eq!(bytes, columnar::to_vec(&tree).unwrap());
    assert_eq!(columnar::from_bytes::<Tree>(&bytes).unwrap(), tree);
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    isolated("deep_nesting_is_an_error_not_a_stack_overflow", || {
        let bytes = chain_bytes(100_000);
        let err = columnar::from_bytes::<Tree>(&bytes).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::DepthLimitExceeded, "{err}");
    });
}

/// A row whose only column holds zero-sized values: its runs cost no bytes per row.
#[columnar(vec, ser, de, iterable)]
#[derive(Debug, Clone, PartialEq, Default)]
struct Unit {
    #[columnar(strategy = "Rle")]
    unit: (),
    #[columnar(skip)]
    cache: [u64; 32],
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct Units {
    #[columnar(class = "vec", iter = "Unit")]
    rows: Vec<Unit>,
}

/// The same with a Generic column: a sequence count and no bytes per value.
#[columnar(vec, ser, de)]
#[derive(Debug, Clone, PartialEq, Default)]
struct GenericUnit {
    unit: (),
    #[columnar(skip)]
    cache: [u64; 32],
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct GenericUnits {
    #[columnar(class = "vec")]
    rows: Vec<GenericUnit>,
}

/// A row with only a skipped field: no columns at all.
#[columnar(vec, ser, de)]
#[derive(Debug, Clone, PartialEq, Default)]
struct OnlySkip {
    #[columnar(skip)]
    cache: u64,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct OnlySkips {
    #[columnar(class = "vec")]
    rows: Vec<OnlySkip>,
}

/// A table of one container of one column `column`.
fn one_column(column: &[u8]) -> Vec<u8> {
    Wire::default()
        .varint(1)
        .varint(1)
        .column("column", column)
        .bytes
}

#[test]
fn only_skipped_fields_make_no_rows() {
    let bytes = columnar::to_vec(&OnlySkips {
        rows: vec![OnlySkip { cache: 3 }; 4],
    })
    .unwrap();
    assert_eq!(bytes, [0x01, 0x00]);
    // A container of such rows has no column to count its rows by: it decodes to no rows,
    // and unknown optional columns are skipped.
    assert_eq!(
        columnar::from_bytes::<OnlySkips>(&bytes).unwrap(),
        OnlySkips { rows: vec![] }
    );
    let bytes = Wire::default()
        .varint(1)
        .varint(1)
        .optional("x", 9, &[0x00])
        .bytes;
    assert_eq!(
        columnar::from_bytes::<OnlySkips>(&bytes).unwrap(),
        OnlySkips { rows: vec![] }
    );
}

#[test]
fn zero_sized_rle_run_streams_in_bounded_memory() {
    let bytes = one_column(&zigzag(MAX_RLE_COUNT as i64));
    let iter = columnar::iter_from_bytes::<Units>(&bytes).unwrap();
    let rows: Vec<Unit> = iter
        .rows
        .take(1000)
        .collect::<columnar::Result<_>>()
        .unwrap();
    assert_eq!(rows.len(), 1000);
}

/// `decode_rows` used to `Vec::with_capacity(row_count)` and abort; the row count is backed
/// by no input bytes, so the allocation must be fallible.
#[test]
fn zero_sized_rle_run_cannot_make_from_bytes_abort() {
    isolated("zero_sized_rle_run_cannot_make_from_bytes_abort", || {
        // One run of 10^9 `()`: 6 bytes of input for 10^9 rows of 256 bytes.
        let bytes = one_column(&zigzag(MAX_RLE_COUNT as i64));
        match columnar::from_bytes::<Units>(&bytes) {
            Err(err) => assert_eq!(err.kind(), ErrorKind::RunCountTooLarge, "{err}"),
            Ok(units) => assert!(units.rows.len() <= MAX_RLE_COUNT),
        }
    });
}

/// `decode_rows` used to `Vec::with_capacity(row_count)` and abort; the row count is backed
/// by no input bytes, so the allocation must be fallible.
#[test]
fn zero_sized_generic_count_cannot_make_from_bytes_abort() {
    isolated(
        "zero_sized_generic_count_cannot_make_from_bytes_abort",
        || {
            // 2 * 10^7 values (more would take minutes in a debug build): 5 GB of rows.
            let bytes = one_column(&varint(20_000_000));
            match columnar::from_bytes::<GenericUnits>(&bytes) {
                Err(err) => assert_eq!(err.kind(), ErrorKind::RunCountTooLarge, "{err}"),
                Ok(units) => assert!(units.rows.len() <= MAX_RLE_COUNT),
            }
        },
    );
}

// ---------------------------------------------------------------------------------------
// Random inputs: in the child process too, since a random run count may ask for gigabytes.
// ---------------------------------------------------------------------------------------

/// Rows streamed past this many are not pulled (a run may claim 10^9 rows).
const STREAM_LIMIT: usize = 1 << 12;

/// Every entry point on `bytes`: no panic or abort, every error's offset inside the input, and
/// the entry points agree: `take_from_bytes` reads what `from_bytes` reads, and where only it
/// succeeds, `from_bytes` reports trailing bytes where its rest starts; the streamed rows are
/// the bulk rows.
fn decode_everything(bytes: &[u8]) {
    let bulk = columnar::from_bytes::<Table>(bytes);
    let taken = columnar::take_from_bytes::<Table>(bytes);
    for err in [bulk.as_ref().err(), taken.as_ref().err()]
        .into_iter()
        .flatten()
    {
        assert!(
            err.offset().is_none_or(|at| at <= bytes.len() as u64),
            "{err}"
        );
    }
    match (&bulk, &taken) {
        (Ok(table), Ok((front, rest))) => {
            assert_eq!(front, table);
            assert!(rest.is_empty(), "from_bytes accepted trailing bytes");
        }
        (Ok(_), Err(err)) => panic!("take_from_bytes fails where from_bytes succeeds: {err}"),
        (Err(err), Ok((_, rest))) => assert_eq!(
            (err.kind(), err.offset()),
            (
                ErrorKind::TrailingBytes,
                Some((bytes.len() - rest.len()) as u64)
            )
        ),
        (Err(_), Err(_)) => {}
    }
    if let Ok(iter) = columnar::iter_from_bytes::<Table>(bytes) {
        let streamed: columnar::Result<Vec<Row>> = iter.rows.take(STREAM_LIMIT).collect();
        if let Ok(table) = &bulk {
            if table.rows.len() <= STREAM_LIMIT {
                assert_eq!(streamed.as_ref(), Ok(&table.rows));
            }
        }
    } else {
        assert!(
            bulk.is_err(),
            "iter_from_bytes fails where from_bytes succeeds"
        );
    }
}

fn runner() -> TestRunner {
    TestRunner::new(Config {
        cases: 2_000,
        failure_persistence: None,
        ..Config::default()
    })
}

#[test]
fn random_bytes_never_panic() {
    isolated("random_bytes_never_panic", || {
        let bytes = proptest::collection::vec(any::<u8>(), 0..160);
        runner()
            .run(&bytes, |bytes| {
                decode_everything(&bytes);
                Ok(())
            })
            .unwrap();
    });
}

#[test]
fn mutations_of_a_valid_table_never_panic() {
    isolated("mutations_of_a_valid_table_never_panic", || {
        let valid = valid().bytes;
        let edits = proptest::collection::vec((any::<Index>(), any::<u8>()), 1..6);
        let mutation = (edits, any::<Index>(), any::<bool>());
        runner()
            .run(&mutation, |(edits, cut, truncate)| {
                let mut bytes = valid.clone();
                for (at, byte) in edits {
                    let at = at.index(bytes.len());
                    bytes[at] = byte;
                }
                if truncate {
                    bytes.truncate(cut.index(bytes.len()));
                }
                decode_everything(&bytes);
                Ok(())
            })
            .unwrap();
    });
}

/// Found by `cargo fuzz run table`: an Rle run of 10^8 strings is 5 bytes of input and a
/// 2.5 GB column (libFuzzer's out-of-memory limit is 2 GB). Within MAX_RLE_COUNT it is valid
/// for the codec, so the decoder may build it; here, under 4 GiB, it must then fail on the
/// next column's length rather than abort.
#[test]
fn rle_run_of_10e8_strings_is_an_error_not_an_abort() {
    let mut name = zigzag(104_469_544);
    name.push(0x00); // ""
    let test = "rle_run_of_10e8_strings_is_an_error_not_an_abort";
    name_column_is_an_error(test, name, ErrorKind::ColumnLengthMismatch);
}

/// The largest run, 10^9 strings, asks for 24 GB at once: an error, not an abort.
/// The rows are built from the column streams: the run is never materialized; the other
/// columns end with the sample's rows, and the long `name` column is reported.
#[test]
fn rle_run_of_max_strings_is_an_error_not_an_abort() {
    let mut name = zigzag(MAX_RLE_COUNT as i64);
    name.push(0x00);
    let test = "rle_run_of_max_strings_is_an_error_not_an_abort";
    name_column_is_an_error(test, name, ErrorKind::ColumnLengthMismatch);
}

/// Found by `cargo fuzz run table` (a timeout): each value of an Rle run of strings is a
/// clone with its own heap allocation, which `try_reserve` of the column does not cover. A run
/// of 10^7 copies of a 1000-byte string is 1 KB of input and 10 GB of strings: the clones'
/// infallible allocations abort under the 4 GiB limit.
#[test]
fn rle_run_of_long_strings_is_an_error_not_an_abort() {
    let mut name = zigzag(10_000_000);
    name.extend(varint(1000));
    name.extend([b'x'; 1000]);
    // The run's values would outgrow what the column's bytes can stand for: refused at the run.
    let test = "rle_run_of_long_strings_is_an_error_not_an_abort";
    name_column_is_an_error(test, name, ErrorKind::RunCountTooLarge);
}

/// Decodes, in a child process under 4 GiB, the sample table with `name` for its `name` column:
/// an error of `kind` at that column, not an abort.
fn name_column_is_an_error(test: &str, name: Vec<u8>, kind: ErrorKind) {
    isolated(test, || {
        let good = Columns::of(&sample_rows());
        let wire = table_with(&Columns { name, ..good }, 6, |w| w);
        let err = columnar::from_bytes::<Table>(&wire.bytes).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (kind, Some(wire.at("name") as u64))
        );
    });
}
