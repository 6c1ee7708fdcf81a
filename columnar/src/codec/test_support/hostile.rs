//! The codecs' hostile-input test vectors (`codec/testdata/hostile/*.txt`): their line format,
//! the parser, and [`assert_rejects`], which runs them against every decoding entry point.
//!
//! A file holds the inputs one codec (over one element type) must reject. Each line is blank,
//! a comment starting with `#` (a case's comment stands above it), or a case: the input as
//! space-separated two-digit hex bytes (none for the empty input), the name of the expected
//! [`ErrorKind`](crate::ErrorKind) variant, and `@` with the expected byte offset:
//!
//! ```text
//! # a count of 0 after the first
//! 02 00            ZeroRunCount      @1
//! ```

use std::fmt::Debug;

use super::EntryPoint;

/// One case of a hostile-input file.
pub(crate) struct HostileCase {
    /// `file:line` of the case, for failure messages.
    at: String,
    /// The input as written in the file.
    hex: &'static str,
    /// The input.
    bytes: Vec<u8>,
    /// The name of the expected `ErrorKind` variant (its `Debug` form).
    kind: &'static str,
    /// The expected byte offset of the error.
    offset: u64,
}

/// The cases of `testdata/hostile/$file` (e.g. `"bool_rle.txt"`), read at compile time.
macro_rules! hostile_cases {
    ($file:literal) => {
        $crate::codec::test_support::parse_hostile(
            concat!("src/codec/testdata/hostile/", $file),
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/src/codec/testdata/hostile/",
                $file
            )),
        )
    };
}
pub(crate) use hostile_cases;

/// The cases of the hostile-input file named `file` whose text is `text`; panics naming
/// `file:line` on a malformed line.
pub(crate) fn parse_hostile(file: &str, text: &'static str) -> Vec<HostileCase> {
    let cases: Vec<HostileCase> = text
        .lines()
        .enumerate()
        .map(|(index, line)| (format!("{file}:{}", index + 1), line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
        .map(|(at, line)| parse_case(at, line))
        .collect();
    assert!(!cases.is_empty(), "{file}: no cases");
    cases
}

/// One case line: `<hex bytes> <ErrorKind variant> @<offset>`.
fn parse_case(at: String, line: &'static str) -> HostileCase {
    let malformed = |why: &str| -> ! {
        panic!("{at}: {why} in `{line}` (a case is `<hex bytes> <ErrorKind variant> @<offset>`)")
    };
    let (rest, offset) = line.rsplit_once('@').unwrap_or_else(|| malformed("no `@`"));
    let offset: u64 = offset
        .parse()
        .unwrap_or_else(|_| malformed("the offset is not a number"));
    let rest = rest.trim_end();
    let (hex, kind) = rest
        .rsplit_once(char::is_whitespace)
        .map_or(("", rest), |(hex, kind)| (hex.trim_end(), kind));
    let is_name = kind.starts_with(|c: char| c.is_ascii_uppercase())
        && kind.chars().all(|c| c.is_ascii_alphanumeric());
    if !is_name {
        malformed("no ErrorKind variant name");
    }
    let bytes = hex
        .split_whitespace()
        .map(|byte| match u8::from_str_radix(byte, 16) {
            Ok(value) if byte.len() == 2 && byte.chars().all(|c| c.is_ascii_hexdigit()) => value,
            _ => malformed(&format!("`{byte}` is not a two-digit hex byte")),
        })
        .collect();
    HostileCase {
        at,
        hex,
        bytes,
        kind,
        offset,
    }
}

/// Checks each hostile input of `cases` against every decoding entry point of a codec: each
/// rejects it with the expected kind at the expected offset.
#[track_caller]
pub(crate) fn assert_rejects<T: Debug>(entry_points: &[EntryPoint<T>], cases: &[HostileCase]) {
    for case in cases {
        let HostileCase { at, hex, .. } = case;
        for (name, decode) in entry_points {
            let err = decode(&case.bytes).expect_err(&format!("{at} `{hex}`: {name} accepted it"));
            let kind = format!("{:?}", err.kind());
            assert_eq!(
                (kind.as_str(), err.offset()),
                (case.kind, Some(case.offset)),
                "{at} `{hex}`: {name}: {err}"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::bool_rle::{self, BoolRleColumn, BoolRleIter};
    use crate::codec::test_support::entry_points;

    #[test]
    fn parses_cases_and_skips_comments_and_blank_lines() {
        let text = "# a comment\n\n  02 00   ZeroRunCount  @1\nUnexpectedEnd @0\n";
        let cases = parse_hostile("t.txt", text);
        let read: Vec<_> = cases
            .iter()
            .map(|c| (c.at.as_str(), c.hex, c.bytes.as_slice(), c.kind, c.offset))
            .collect();
        assert_eq!(
            read,
            [
                ("t.txt:3", "02 00", &[2u8, 0][..], "ZeroRunCount", 1),
                ("t.txt:4", "", &[][..], "UnexpectedEnd", 0),
            ]
        );
    }

    #[test]
    #[should_panic(expected = "t.txt:2: no `@`")]
    fn a_case_without_an_offset_is_malformed() {
        parse_hostile("t.txt", "# c\n02 00 ZeroRunCount 1\n");
    }

    #[test]
    #[should_panic(expected = "t.txt:1: `2` is not a two-digit hex byte")]
    fn a_short_hex_byte_is_malformed() {
        parse_hostile("t.txt", "2 00 ZeroRunCount @1\n");
    }

    #[test]
    #[should_panic(expected = "t.txt:1: no ErrorKind variant name")]
    fn a_case_without_a_kind_is_malformed() {
        parse_hostile("t.txt", "02 00 @1\n");
    }

    #[test]
    #[should_panic(expected = "t.txt: no cases")]
    fn a_file_without_cases_is_malformed() {
        parse_hostile("t.txt", "# only a comment\n");
    }

    #[test]
    #[should_panic(expected = "t.txt:1 `02 00`: decode: ")]
    fn a_wrong_offset_fails_naming_the_case() {
        let entry_points = entry_points!(bool_rle::decode, BoolRleIter, BoolRleColumn);
        assert_rejects(
            &entry_points,
            &parse_hostile("t.txt", "02 00 ZeroRunCount @0"),
        );
    }

    #[test]
    #[should_panic(expected = "t.txt:1 `02 00`: decode: ")]
    fn a_wrong_kind_fails_naming_the_case() {
        let entry_points = entry_points!(bool_rle::decode, BoolRleIter, BoolRleColumn);
        assert_rejects(&entry_points, &parse_hostile("t.txt", "02 00 BadTag @1"));
    }
}
